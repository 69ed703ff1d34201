#!/bin/sh
# Valid maps at their extremes that tests/cli/valid-maps.sh's generator does
# not write, each a small fixture in tests/maps/extremes/: each loads, runs
# headless to the same trace with one thread and two, and reads as the
# contract says.
. "$top_srcdir/tests/lib/lib.sh"
X="$top_srcdir/tests/maps/extremes"

# runs NAME TICKS: --check accepts it, and two runs (one thread, two) exit
# 0 with the same trace, left in $TMPD/NAME.jsonl.
runs() {
    "$BOTFIELD" --check "$X/$1.ini" 2>"$TMPD/err"
    st=$?
    [ $st -ne 0 ] && note "$(head -n 3 "$TMPD/err")"
    expect_eq "$1: --check accepts it" "$st" 0
    "$BOTFIELD" --headless --ticks "$2" --threads 1 --trace "$TMPD/$1.jsonl" "$X/$1.ini" 2>"$TMPD/err" \
        && "$BOTFIELD" --headless --ticks "$2" --threads 2 --trace "$TMPD/$1.2.jsonl" "$X/$1.ini" 2>>"$TMPD/err"
    st=$?
    [ $st -ne 0 ] && note "$(head -n 20 "$TMPD/err")"
    expect_eq "$1: $2 ticks with one thread and with two exit 0" "$st" 0
    cmp -s "$TMPD/$1.jsonl" "$TMPD/$1.2.jsonl"
    ok $? "$1: the same trace with one thread and with two"
}

# Subnormal numbers in x y r lists are numbers like any other (a
# [tree.ID] section took r = 5e-324; the list reader refused it as "not a
# finite number").
runs subnormal-lists 30
# The same values in [tree.ID] and [waypoint.N] sections, which always
# took them: the same trees and waypoints.
sed -e '/^at = /d' -e '/^waypoints = /d' "$X/subnormal-lists.ini" >"$TMPD/sections.ini"
printf '%s\n' '[tree.1]' 'x = 5e-324' 'y = 500' 'r = 5e-324' \
    '[tree.2]' 'x = 100' 'y = 1e-310' 'r = 2.5e-320' \
    '[waypoint.1]' 'x = 500' 'y = 500' 'r = 4e-320' \
    '[waypoint.2]' 'x = 1e-315' 'y = 600' 'r = 30' >>"$TMPD/sections.ini"
"$BOTFIELD" --headless --ticks 0 --trace "$TMPD/sections.jsonl" "$TMPD/sections.ini"
expect_eq "subnormal-lists: the sections' twin runs" "$?" 0
grep -e '"type":"tree"' -e '"type":"waypoint"' "$TMPD/sections.jsonl" >"$TMPD/want"
grep -e '"type":"tree"' -e '"type":"waypoint"' "$TMPD/subnormal-lists.jsonl" >"$TMPD/got"
[ "$(wc -l <"$TMPD/got")" -eq 4 ] && cmp -s "$TMPD/got" "$TMPD/want"
st=$?
[ $st -ne 0 ] && note "got:" "$(cat "$TMPD/got")" "want:" "$(cat "$TMPD/want")"
ok $st "subnormal-lists: two trees and two waypoints, as the same values in sections give"
grep -q '"type":"tree","x":4.94065645841247e-324,"y":500,"r":4.94065645841247e-324' "$TMPD/got"
ok $? "subnormal-lists: 5e-324 read as itself, not 0"

# Every vehicle on one point (tanks of each behaviour, avoidance, sight
# and aim, turrets, cars of both steerings) of a 1 x 1 map, a tree and a
# one-waypoint track there too, at 1,000 ticks a second: every distance is
# 0.  It runs, and its summary matches a recount of its trace.
runs one-point 300
if command -v python3 >/dev/null; then
    python3 "$top_srcdir/tests/lib/check-traces.py" "$TMPD/one-point.jsonl" >"$TMPD/check" 2>&1
    st=$?
    [ $st -ne 0 ] && note "$(head -n 20 "$TMPD/check")"
    ok $st "one-point: valid JSON, finite numbers, a summary matching a recount"
else
    ok 1 "one-point: python3 is needed to read the trace"
fi
grep -q '"type":"shot"' "$TMPD/one-point.jsonl" && grep -q '"type":"collision"' "$TMPD/one-point.jsonl"
ok $? "one-point: the guns fire and the vehicles collide (it is a fight, not a freeze)"

# Lua bots that call every built-in with extreme numbers: the run and its
# --trace-decisions are the same bytes in eight runs (the decide lines
# once carried the heap in use, which differed from run to run with the
# hash seed Lua draws for each state: three traces in eight runs).
runs bot-extremes 100
for i in 1 2 3 4 5 6 7 8; do
    "$BOTFIELD" --headless --ticks 100 --threads 1 --trace-decisions --trace - \
        "$X/bot-extremes.ini" 2>/dev/null | cksum
done | sort -u >"$TMPD/sums"
expect_eq "bot-extremes: --trace-decisions the same in eight runs" "$(wc -l <"$TMPD/sums" | tr -d ' ')" 1
grep -q '"type":"decide".*"bot":{"instructions":' "$TMPD/bot-extremes.jsonl" \
    || "$BOTFIELD" --headless --ticks 5 --trace-decisions --trace - "$X/bot-extremes.ini" 2>/dev/null \
        | grep -q '"type":"decide".*"bot":{"instructions":[0-9]*,"budget":100000,"memory":4194304,'
ok $? "bot-extremes: a decide line's bot record: instructions, budget, memory"

done_testing
