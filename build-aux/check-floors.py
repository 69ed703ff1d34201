#!/usr/bin/env python3
"""check-floors.py SRCDIR: the floors of src/ (src/README.md, "The floors").

A file includes only from its own floor or below:

    core (0) < io (1) < bot (2) < run (3) < view, tour, arena, env (4)
    < the program, src/cli (5)

view, tour and arena share a floor: none is below another, so an include
between them is not upward (tour's --chart draws with view's canvas).
Beside the order, the core includes no Lua, curses or stdio header: it
prints nothing, reads no file and knows no bot.  (The sanitizer build's
own check, inside #ifdef BOTFIELD_CHECK_FUSED, may print before it aborts.)

Every mode steps through session_step(): outside src/core/, tick_step() is
called by src/run/session.c alone (and by src/run/history.c when it is given
no session's step: the history's own tests and benchmark).

Each quoted #include is resolved as the compiler resolves it (the file's
folder, then -Isrc, then -Isrc/core); one that names no file of src/
(config.h, a generated header) belongs to no floor.  A file at src/'s top is
in no floor either, but for the one make writes there (GENERATED, unchecked):
an in-tree build (./configure && make, README.md) leaves it in the source
tree.  Prints each breach as FILE:LINE: what, and exits 1; 0 when there is
none; 2 on a bad call.
"""
import os
import re
import sys

FLOORS = {"core": 0, "io": 1, "bot": 2, "run": 3, "view": 4, "tour": 4, "arena": 4, "env": 4,
          "cli": 5}
NAMES = {0: "core", 1: "io", 2: "bot", 3: "run", 4: "view/tour/arena/env",
         5: "the program (src/cli)"}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')
COND = re.compile(r'^\s*#\s*(if|ifdef|ifndef|endif)\b(.*)')
TICK_CALL = re.compile(r'\btick_step\s*\(')
TICK_CALLERS = ("run/session.c", "run/history.c")
GENERATED = ("default_map.c",)     # build-aux/embed-map.sh's output, in io's lib
CORE_BANNED = re.compile(r'^(lua|lauxlib|lualib|curses|ncurses|ncursesw/|stdio\.h)')


def floor(rel):
    parts = rel.split("/")
    return FLOORS.get(parts[0]) if len(parts) > 1 else None


def check(src):
    breaches = []
    for root, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, src)
            here = floor(rel)
            if rel in GENERATED:
                continue
            if here is None:
                breaches.append(f"src/{rel}: in a folder of no floor (check-floors.py names them)")
                continue
            breaches += check_file(src, rel, here)
    return breaches


def check_file(src, rel, here):
    out = []
    stack = []          # the #if conditions the line is inside
    with open(os.path.join(src, rel), encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            c = COND.match(line)
            if c:
                if c.group(1) == "endif":
                    if stack:
                        stack.pop()
                else:
                    stack.append(c.group(2).strip())
                continue
            if (here != 0 and rel not in TICK_CALLERS and TICK_CALL.search(line)
                    and not line.lstrip().startswith(("*", "/*", "//"))):
                out.append(f"src/{rel}:{n}: calls tick_step() (a tick outside a session: "
                           "session_step(), src/run/session.h)")
            m = INCLUDE.match(line)
            if not m:
                continue
            kind, h = m.groups()
            if kind == "<":
                checked = not any("BOTFIELD_CHECK_FUSED" in s for s in stack)
                if here == 0 and checked and CORE_BANNED.match(h):
                    out.append(f"src/{rel}:{n}: the core includes <{h}> "
                               "(no Lua, curses or stdio in src/core/)")
                continue
            target = resolve(src, rel, h)
            if target is None:
                continue
            there = floor(target)
            if there is not None and there > here:
                out.append(f"src/{rel}:{n}: includes src/{target}, a floor above "
                           f"({NAMES[here]} includes from {NAMES[there]})")
    return out


def resolve(src, rel, h):
    for cand in (os.path.join(os.path.dirname(rel), h), h, os.path.join("core", h)):
        if os.path.isfile(os.path.join(src, cand)):
            return os.path.normpath(cand)
    return None


def main():
    if len(sys.argv) != 2 or not os.path.isdir(os.path.join(sys.argv[1], "src")):
        print("usage: check-floors.py SRCDIR (the folder holding src/)", file=sys.stderr)
        return 2
    breaches = check(os.path.join(sys.argv[1], "src"))
    for b in breaches:
        print(b)
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
