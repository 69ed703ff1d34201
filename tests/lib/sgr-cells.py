#!/usr/bin/env python3
"""sgr-cells.py: reads tmux capture-pane -e on stdin; prints "FG BOLD" for
every non-blank cell (FG: None, 3x / 9x, or 5;N for a 256-colour one)."""
import re, sys
bold = False; fg = None
for line in sys.stdin.read().split("\n"):
    for m in re.finditer(r"\x1b\[([0-9;]*)m|([^\x1b])", line):
        if m.group(2) is not None:
            if m.group(2) != " ":
                print(fg, int(bold))
            continue
        codes = (m.group(1) or "0").split(";")
        i = 0
        while i < len(codes):
            c = codes[i]
            if c in ("", "0"): bold = False; fg = None
            elif c == "1": bold = True
            elif c == "22": bold = False
            elif c == "39": fg = None
            elif c == "38" and i + 2 < len(codes): fg = "5;" + codes[i + 2]; i += 2
            elif len(c) == 2 and c[0] == "3": fg = c
            elif len(c) == 2 and c[0] == "9": fg = c
            i += 1
