#!/bin/sh
# Does dodging pay?  The default map's battle (5 against 5 built-in
# tanks) over DODGE_BENCH_SEEDS seeds (default 200), once with red's
# tanks not dodging shells (team.red.dodge=no) and once with blue's: each
# team's win rate with its Wilson 95% interval (botfield --seeds'
# aggregate), and the same seeds with both dodging for reference.  Run
# twice, sides swapped, so the map's own asymmetry shows.  Run by `make
# bench` from the build directory.
BOTFIELD=${BOTFIELD:-./botfield}
N=${DODGE_BENCH_SEEDS:-200}

# The aggregate line of one tournament, as "label red blue draws" rows.
row() {
    label=$1
    shift
    "$BOTFIELD" --headless --seeds "1-$N" "$@" | python3 -c '
import json, sys
label = sys.argv[1]
for line in sys.stdin:
    r = json.loads(line)
    if r.get("type") != "aggregate":
        continue
    def f(k):
        w = r["wins"].get(k) if k != "draws" else r["draws"]
        if not w:
            return "%-22s" % "-"
        return "%5.1f%% [%4.1f, %4.1f]   " % (100 * w["rate"], 100 * w["lo"], 100 * w["hi"])
    print("dodge %-14s %4d runs  red %s blue %s draws %s" % (label, r["runs"], f("red"), f("blue"), f("draws")))
' "$label" || exit 1
}

echo "dodge: the default map, seeds 1-$N; win rates with Wilson 95% intervals"
row both || exit 1
row red=no --set team.red.dodge=no || exit 1
row blue=no --set team.blue.dodge=no || exit 1
