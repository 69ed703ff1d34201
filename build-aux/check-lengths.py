#!/usr/bin/env python3
"""check-lengths.py SRCDIR: no function of src/ over 80 lines.

A function is counted from the line after its opening brace (a "{" alone at
the start of a line, as every function here is written) to the line
before its closing one.  A function whose length is its algorithm (a
solver, a scanner's one loop over the bytes) may be longer: the comment
just above its definition says so with the word "solver:" ("/* solver:
why it is one piece ... */"), and is then not counted.

Prints each function over the limit as FILE:LINE: NAME is N lines, and
exits 1; 0 when there is none; 2 on a bad call.
"""
import os
import re
import sys

LIMIT = 80
NAME = re.compile(r"(\w+)\s*\(")


def functions(lines):
    """(name, first line number, length, the text above it) of each function."""
    start = None
    for i, line in enumerate(lines):
        if line.startswith("{") and start is None:
            j = i - 1
            while j > 0 and "(" not in lines[j]:
                j -= 1
            m = NAME.search(lines[j])
            start = (m.group(1) if m else "?", j + 1, i, "\n".join(lines[max(0, j - 12):j]))
        elif line.startswith("}") and start is not None:
            name, at, body, above = start
            yield name, at, i - body - 1, above
            start = None


def exempt(above):
    """The comment right above the definition says it is a solver."""
    text = above.rstrip()
    if not text.endswith("*/"):
        return False
    comment = text[text.rfind("/*"):]
    return "solver:" in comment


def main():
    if len(sys.argv) != 2 or not os.path.isdir(os.path.join(sys.argv[1], "src")):
        print("usage: check-lengths.py SRCDIR (the folder holding src/)", file=sys.stderr)
        return 2
    src = os.path.join(sys.argv[1], "src")
    bad = []
    for root, _, files in os.walk(src):
        for f in sorted(files):
            if not f.endswith(".c"):
                continue
            path = os.path.join(root, f)
            with open(path, encoding="utf-8", errors="replace") as fh:
                lines = fh.read().split("\n")
            for name, at, n, above in functions(lines):
                if n > LIMIT and not exempt(above):
                    bad.append(f"src/{os.path.relpath(path, src)}:{at}: {name} is {n} lines "
                               f"(at most {LIMIT}; a solver says so above it: \"solver:\")")
    for b in sorted(bad):
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
