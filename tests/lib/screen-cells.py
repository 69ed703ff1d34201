#!/usr/bin/env python3
"""screen-cells.py — reads two `tmux capture-pane -p -e` screens of the
viewer (the same tick, before and after the rays were turned on) into
cells with their colour and attributes, and writes what
tests/viewer/viewer-palette.sh asserts, as shell assignments `name=value`:

  seen hidden part eye  the cells the rays changed, by the palette's kind
                        (braille bold / dim / plain, or - | / \\ bold, ':'
                        and ';' in ASCII; the eye marks the observer)
  unknown               changed map cells of no ray kind (must be 0)
  seen_hidden_same      whether a seen and a hidden ray cell look alike
                        without colour (glyph and attributes)
  gun gun_in_rays       gun glyphs before, and gun glyphs among ray cells
  teams_seen            distinct looks of the vehicle glyphs (without
                        colour in the monochrome modes)
  vehicles              vehicle glyphs on the map
  numbers               numbers on the map rows (waypoint numbers)
  car_colors            the foreground colours of the cars' glyphs

usage: screen-cells.py BEFORE AFTER MODE OUT [BEFORE AFTER MODE OUT]...
(MODE: colour, mono, ascii, ascii-mono; the facts go to OUT).  One run
reads every screen: the interpreter's start is the slow part."""
import re
import sys

SGR = re.compile(r"\x1b\[([0-9;]*)m")
ARROWS = set("←↑→↓↖↗↘↙")
ASCII_HEAD = set("<>^v")
GUN_UTF8 = set("─│╱╲")


# pal_term_color()'s choices at 256 colours, and the ANSI colour of each.
ANSI_OF_256 = {196: 31, 34: 32, 178: 33, 33: 34, 170: 35, 37: 36, 250: 37}

def parse(path):
    rows = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f.read().split("\n"):
            st = {"fg": 39, "bold": 0, "dim": 0, "ul": 0, "rev": 0}
            cells, i = [], 0
            while i < len(line):
                m = SGR.match(line, i)
                if m:
                    ps = [int(p) if p else 0 for p in m.group(1).split(";")]
                    k = 0
                    while k < len(ps):
                        p = ps[k]
                        if p == 0:
                            st = {"fg": 39, "bold": 0, "dim": 0, "ul": 0, "rev": 0}
                        elif p == 1:
                            st["bold"] = 1
                        elif p == 2:
                            st["dim"] = 1
                        elif p == 4:
                            st["ul"] = 1
                        elif p == 7:
                            st["rev"] = 1
                        elif p == 22:
                            st["bold"] = st["dim"] = 0
                        elif p == 24:
                            st["ul"] = 0
                        elif p == 27:
                            st["rev"] = 0
                        elif 30 <= p <= 37 or p == 39 or 90 <= p <= 97:
                            st["fg"] = p
                        elif p == 38 and k + 2 < len(ps) and ps[k + 1] == 5:
                            # The viewer's 256-colour tones (palette.c)
                            # read as the ANSI colours they stand for.
                            st["fg"] = ANSI_OF_256.get(ps[k + 2], 1000 + ps[k + 2])
                            k += 2
                        elif p in (38, 48):
                            k += 2 if k + 1 < len(ps) and ps[k + 1] == 5 else 4
                        k += 1
                    i = m.end()
                    continue
                cells.append((line[i], dict(st)))
                i += 1
            rows.append(cells)
    return rows


def facts(before_path, after_path, mode, out):
    before, after = parse(before_path), parse(after_path)
    ascii_mode = mode.startswith("ascii")
    colour = mode in ("colour", "ascii")
    # The map rows: not the status line (first) nor the message line
    # (last); the scale bar in the last map row's corner is left out.
    nrows = min(len(before), len(after))
    while nrows > 0 and not after[nrows - 1] and not before[nrows - 1]:
        nrows -= 1
    first, last = 1, nrows - 2

    def look(c, st):
        return (c, st["bold"], st["dim"], st["ul"], st["rev"])

    def kind(c, st):
        if ascii_mode:
            if c in "-|/\\" and st["bold"]:
                return "seen"
            if c == ":":
                return "hidden"
            if c == ";":
                return "part"
            if c == "@":
                return "eye"
            return None
        if c == "◉":
            return "eye"
        if 0x2801 <= ord(c) <= 0x28FF:
            if st["bold"]:
                return "seen"
            if st["dim"]:
                return "hidden"
            return "part"
        return None

    counts = {"seen": 0, "hidden": 0, "part": 0, "eye": 0, "unknown": 0,
              "gun_in_rays": 0}
    looks = {"seen": set(), "hidden": set()}
    for y in range(first, last + 1):
        a, b = before[y], after[y]
        for x in range(min(len(a), len(b))):
            if y == last and x < 16:
                continue
            if (a[x][0], a[x][1]) == (b[x][0], b[x][1]):
                continue
            c, st = b[x]
            k = kind(c, st)
            if c in GUN_UTF8 or (ascii_mode and c == "="):
                counts["gun_in_rays"] += 1
            if k is None:
                counts["unknown"] += 1
                continue
            counts[k] += 1
            if k in looks:
                # without colour: the glyph class and the attributes
                cls = "braille" if not ascii_mode else c
                looks[k].add((cls if not ascii_mode else ("slope" if c in "-|/\\" else c),)
                             + look(c, st)[1:])
    gun = vehicles = 0
    teams, car_colors, numbers = set(), set(), set()
    for y in range(first, last + 1):
        row = before[y]
        text = "".join(c for c, _ in row)
        for m in re.finditer(r"\d+", text):
            if not (y == last and m.start() < 16):
                numbers.add(int(m.group()))
        for c, st in row:
            if c in GUN_UTF8 or (ascii_mode and c == "="):
                gun += 1
            head = ASCII_HEAD if ascii_mode else ARROWS
            if c in head or c == "T":
                vehicles += 1
                sig = (st["bold"], st["dim"], st["ul"])
                teams.add((st["fg"],) + sig if colour else sig)
                car_colors.add(st["fg"])
    # As shell assignments: the test sources the file (no process a fact).
    with open(out, "w") as f:
        for k, v in counts.items():
            print("%s=%d" % (k, v), file=f)
        print("seen_hidden_same=%d" % bool(looks["seen"] & looks["hidden"]), file=f)
        print("gun=%d" % gun, file=f)
        print("vehicles=%d" % vehicles, file=f)
        print("teams_seen=%d" % len(teams), file=f)
        print("numbers='%s'" % " ".join(str(n) for n in sorted(numbers)), file=f)
        print("car_colors='%s'" % " ".join(str(c) for c in sorted(car_colors)), file=f)


def main():
    args = sys.argv[1:]
    if not args or len(args) % 4:
        sys.exit("usage: screen-cells.py BEFORE AFTER MODE OUT ...")
    for k in range(0, len(args), 4):
        facts(*args[k:k + 4])


if __name__ == "__main__":
    main()
