#!/usr/bin/env python3
"""gen-tracks.py OUTDIR [COUNT] [SEED] [KIND] -- random valid race tracks.

Writes COUNT (default 20) maps OUTDIR/track-NNN-KIND.ini, deterministic for
a SEED (default 1), of the kinds the racing line must drive on any track
(KIND: one of them, or `all`, the default, which cycles through them):

  zigzag    discs of radius about 60 alternating up and down, turns of
            about 74 degrees, back along the bottom;
  hairpins  long straights joined by 180 degree turns through three close
            discs;
  wide      discs of radius about 150 round a polygon;
  chicane   discs of radius about 40 in a tight S, then a long loop;
  mixed     a polygon whose sides are a zigzag, a chicane or a straight.

Each map has one car, the default car, inside the last waypoint's disc and
heading for waypoint 0 (the start the racing tests use); the fast car is
the same car with max_speed = 300, turn_rate = 120 (the bench and the tests
set it).  No two discs but neighbours come closer than 20 units, so every
waypoint is a waypoint of its own.  Every map passes `botfield --check`.
"""
import math
import os
import random
import sys

KINDS = ("zigzag", "hairpins", "wide", "chicane", "mixed")
GAP = 20


def zigzag(r):
    n = r.randint(8, 10)
    half = math.radians(r.uniform(33, 41))      # the turn is twice this
    leg = r.uniform(170, 240)
    rad = r.uniform(50, 70)
    pts = []
    x, y = 0.0, 0.0
    for k in range(n):
        pts.append((x, y, rad))
        x += leg * math.cos(half)
        y += leg * math.sin(half) * (1 if k % 2 == 0 else -1)
    # back along the bottom, 500 below, in three corners, the last left of
    # waypoint 0 (from a corner below it, waypoint 1 would be the nearer
    # all the way up: no car could reach 0 without skipping it)
    low = max(p[1] for p in pts) + r.uniform(400, 600)
    pts.append((pts[-1][0] + 100, low, r.uniform(50, 70)))
    pts.append((-100, low, r.uniform(50, 70)))
    pts.append((-250, r.uniform(0, 150), r.uniform(50, 70)))
    return pts


def hairpin(cx, cy, rad, dirn, r):
    """Three close discs round a half circle of radius rad centred at (cx,
    cy), bulging right (dirn +1, top to bottom) or left (-1, bottom to
    top)."""
    rr = r.uniform(18, 30)
    return [(cx + dirn * rad * math.sin(a), cy - dirn * rad * math.cos(a), rr)
            for a in (math.pi / 4, math.pi / 2, 3 * math.pi / 4)]


def hairpins(r):
    length = r.uniform(700, 1300)
    rad = r.uniform(60, 90)
    disc = lambda: r.uniform(25, 40)
    pts = [(0, 0, disc()), (length / 2, 0, disc())]
    pts += hairpin(length, rad, rad, 1, r)
    pts += [(length / 2, 2 * rad, disc()), (0, 2 * rad, disc())]
    pts += hairpin(-100, rad, rad, -1, r)
    return pts


def polygon(r, sides, radius, disc):
    t0 = r.uniform(0, 2 * math.pi)
    return [(radius * math.cos(t0 + 2 * math.pi * k / sides),
             radius * math.sin(t0 + 2 * math.pi * k / sides), disc())
            for k in range(sides)]


def wide(r):
    return polygon(r, r.randint(5, 8), r.uniform(600, 900), lambda: r.uniform(130, 170))


def chicane(r):
    rad = r.uniform(35, 45)
    step = r.uniform(90, 130)
    off = r.uniform(50, 80)
    pts = [(k * step, off * (k % 2), rad) for k in range(r.randint(4, 6))]
    end = pts[-1][0]
    # the long loop back above
    h = r.uniform(500, 800)
    pts += [(end + 300, -h / 2, 40), (end, -h, 40), (-300, -h, 40), (-400, -h / 2, 40)]
    return pts


def mixed(r):
    corners = polygon(r, r.randint(4, 6), r.uniform(700, 1000), lambda: r.uniform(25, 60))
    pts = []
    for k, a in enumerate(corners):
        b = corners[(k + 1) % len(corners)]
        pts.append(a)
        kind = r.choice(("zig", "chicane", "straight"))
        dx, dy = b[0] - a[0], b[1] - a[1]
        ln = math.hypot(dx, dy)
        nx, ny = -dy / ln, dx / ln
        m = {"zig": 3, "chicane": 4, "straight": 1}[kind]
        for j in range(1, m + 1):
            t = j / (m + 1)
            side = (1 if j % 2 else -1) * (0 if kind == "straight" else
                                           (50 if kind == "zig" else 35))
            rad = {"zig": 60, "chicane": 40, "straight": 30}[kind]
            pts.append((a[0] + dx * t + nx * side, a[1] + dy * t + ny * side,
                        rad * r.uniform(0.85, 1.15)))
    return pts


def valid(pts):
    n = len(pts)
    for i in range(n):
        for j in range(i + 2, n):
            if i == 0 and j == n - 1:
                continue
            a, b = pts[i], pts[j]
            if math.hypot(a[0] - b[0], a[1] - b[1]) < a[2] + b[2] + GAP:
                return False
    return True


def write(path, name, pts, seed):
    lo_x = min(p[0] - p[2] for p in pts) - 200
    lo_y = min(p[1] - p[2] for p in pts) - 200
    hi_x = max(p[0] + p[2] for p in pts) + 200
    hi_y = max(p[1] + p[2] for p in pts) + 200
    with open(path, "w") as f:
        f.write("; %s (tests/lib/gen-tracks.py)\n[map]\nname = %s\n" % (name, name))
        f.write("width = %d\nheight = %d\ncell = 50\nseed = %d\n"
                % (math.ceil(hi_x - lo_x), math.ceil(hi_y - lo_y), seed))
        f.write("tick_rate = 60\nduration = 300\n[track]\nlaps = 5\n")
        for k, (x, y, rad) in enumerate(pts):
            f.write("[waypoint.%d]\nx = %.1f\ny = %.1f\nr = %.1f\n"
                    % (k, x - lo_x, y - lo_y, rad))
        last = pts[-1]
        f.write("[car.t]\nx = %.1f\ny = %.1f\n" % (last[0] - lo_x, last[1] - lo_y))


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: gen-tracks.py OUTDIR [COUNT] [SEED] [KIND]")
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    only = sys.argv[4] if len(sys.argv) > 4 else "all"
    if only != "all" and only not in KINDS:
        sys.exit("gen-tracks.py: kind %s: one of %s or all" % (only, ", ".join(KINDS)))
    os.makedirs(out, exist_ok=True)
    r = random.Random(seed)
    make = {"zigzag": zigzag, "hairpins": hairpins, "wide": wide,
            "chicane": chicane, "mixed": mixed}
    for i in range(count):
        kind = only if only != "all" else KINDS[i % len(KINDS)]
        for _ in range(1000):
            pts = make[kind](r)
            if valid(pts):
                break
        else:
            sys.exit("gen-tracks.py: no valid %s track in 1000 tries" % kind)
        name = "track-%03d-%s" % (i, kind)
        write(os.path.join(out, name + ".ini"), name, pts, seed * 1000 + i)


if __name__ == "__main__":
    main()
