#!/bin/sh
# The racing line on tracks it has never seen: RACE_ANY_TRACKS (default
# 50) tracks from tests/lib/gen-tracks.py (seed RACE_ANY_SEED, default 1;
# zigzags, hairpins, wide discs, chicanes, mixed), each raced by
# bench-race with the default car and the fast car (max_speed 300,
# turn_rate 120): per kind and over all, the median and the worst of line's
# best clean lap over the best clean lap of none, classic and exact, and
# over the fastest lap on the polyline of centres (the bound); and the
# track-cars where line has no clean lap (a lap with a skipped waypoint is
# no lap).  Simulated seconds: the same on every machine.  Run by `make
# bench` from the build directory.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BENCH=${BENCH_RACE:-./tests/bench/bench-race}
N=${RACE_ANY_TRACKS:-50}
SEED=${RACE_ANY_SEED:-1}
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/race-any.XXXXXX") || exit 1
trap 'rm -rf "$TMPD"' EXIT
python3 "$SRC/tests/lib/gen-tracks.py" "$TMPD" "$N" "$SEED" || exit 1
"$BENCH" "$SRC" "$TMPD"/*.ini > "$TMPD/out" || exit 1
python3 - "$TMPD/out" <<'PY'
import re, sys
rows = {}
for line in open(sys.argv[1]):
    m = re.match(r"bench race_(track-\d+-(\w+?)(-fast)?)_(line_over_best|line_over_bound|line)_car\.t(_valid_laps)? (\S+)", line)
    if not m:
        continue
    key = (m.group(1), m.group(2), "fast" if m.group(3) else "default")
    r = rows.setdefault(key, {})
    if m.group(4) == "line" and m.group(5):
        r["clean"] = int(m.group(6))
    elif m.group(4) != "line":
        r[m.group(4)] = float(m.group(6))
def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if len(xs) % 2 else 0.5 * (xs[len(xs) // 2 - 1] + xs[len(xs) // 2])
def report(label, sel):
    best = [r["line_over_best"] for r in sel if "line_over_best" in r]
    bound = [r["line_over_bound"] for r in sel if "line_over_bound" in r]
    none = sum(1 for r in sel if not r.get("clean"))
    print("bench race_any_%s %d track-cars, %d without a clean line lap" % (label, len(sel), none))
    if best:
        print("bench race_any_%s_line_over_best median %.3f worst %.3f x (%d compared)"
              % (label, median(best), max(best), len(best)))
    if bound:
        print("bench race_any_%s_line_over_bound median %.3f worst %.3f x"
              % (label, median(bound), max(bound)))
kinds = sorted({k[1] for k in rows})
for car in ("default", "fast"):
    for kind in kinds:
        report("%s_%s" % (kind, car), [r for k, r in rows.items() if k[1] == kind and k[2] == car])
report("all", list(rows.values()))
PY
