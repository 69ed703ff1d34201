#!/bin/sh
# Valid maps at their extremes (issue 20): tests/lib/gen-maps.py writes a few
# hundred maps (every key across its documented range, tiny and huge ratios,
# and the issue's reproductions); each runs VALID_TICKS (200) ticks headless
# through tests/lib/valid-run (botfield --headless's own calls, every tick
# timed) under a per-map time limit.  Asserted: every map loads, every run
# exits 0 within its limit (a sanitizer report fails the run: the
# sanitizer build halts on the first), the slowest tick of every map stays
# under the bound (0.25 s of CPU; 2.5 s in a sanitizer build), every trace is
# JSON with only finite numbers where numbers belong, and every summary
# matches a recount of its trace (tests/lib/check-traces.py).
. "$top_srcdir/tests/lib/lib.sh"
RUN="$top_builddir/tests/lib/valid-run"
COUNT=${VALID_COUNT:-300}
TICKS=${VALID_TICKS:-200}
if ! command -v python3 >/dev/null; then
    ok 1 "python3 is needed to generate the maps and read the traces"
    done_testing
    exit 1
fi
bound=0.25 limit=30
if grep -q -a -e __asan_init -e __tsan_init "$RUN" 2>/dev/null; then
    bound=2.5 limit=120
fi
tmo=
command -v timeout >/dev/null 2>&1 && tmo="timeout $limit"

python3 "$top_srcdir/tests/lib/gen-maps.py" "$TMPD/maps" "$COUNT" 1
n=$(ls "$TMPD/maps" | wc -l)
[ "$n" -ge "$COUNT" ]
ok $? "the generator wrote $n maps"

mkdir -p "$TMPD/traces"
: >"$TMPD/results"
for m in "$TMPD"/maps/*.ini; do
    name=$(basename "$m" .ini)
    $tmo "$RUN" "$TICKS" "$TMPD/traces" "$m" >>"$TMPD/results" 2>"$TMPD/err.$name"
    st=$?
    if [ $st -ne 0 ]; then
        echo "$name.ini crashed $st" >>"$TMPD/results"
    fi
done
refused=$(awk '$2 == 2' "$TMPD/results")
[ -z "$refused" ]
st=$?
[ $st -ne 0 ] && note "$refused" && for x in $(echo "$refused" | awk '{print $1}'); do
    note "$(head -n 3 "$TMPD/err.${x%.ini}")"; done
ok $st "every generated map loads (botfield --check accepts it)"

bad=$(awk '$2 != 0 && $2 != 2' "$TMPD/results")
[ -z "$bad" ]
st=$?
[ $st -ne 0 ] && note "$bad" && for x in $(echo "$bad" | awk '{print $1}'); do
    note "$(head -n 20 "$TMPD/err.${x%.ini}")"; done
ok $st "every map runs $TICKS ticks and exits 0 within ${limit} s (no crash, no sanitizer report, no hang)"

slow=$(awk -v b="$bound" '$2 == 0 && $3 > b' "$TMPD/results")
[ -z "$slow" ]
st=$?
[ $st -ne 0 ] && note "$slow"
worst=$(sort -k3 -g "$TMPD/results" | tail -n 1)
note "slowest tick: $worst (map status seconds-of-slowest-tick seconds-in-all)"
ok $st "every tick of every map takes under $bound s"

python3 "$top_srcdir/tests/lib/check-traces.py" "$TMPD"/traces/*.jsonl >"$TMPD/check" 2>&1
st=$?
[ $st -ne 0 ] && note "$(head -n 40 "$TMPD/check")"
ok $st "every trace: valid JSON, only finite numbers, summary matching a recount"
# The issue's reproductions, beyond running cleanly:
# a one-waypoint track laps (leave the waypoint, come back): 3 laps, where
# an exact car used to circle inside it for ever (0 laps in 1,200 ticks);
laps=$("$BOTFIELD" --headless --ticks 1200 --summary "$TMPD/maps/fixed-one-waypoint.ini" \
       | sed -n 's/.*"laps":{"car.c":\([0-9]*\)}.*/\1/p')
expect_eq "one-waypoint track: the car laps it 3 times in 1,200 ticks" "$laps" 3
# 1,400 trees of radius 1000 over cells of 1 on a 2048 x 2048 map: --check
# used to take 15 s and crash (int counts overflowing); now a coarser grid.
$tmo "$BOTFIELD" --check "$TMPD/maps/fixed-big-trees.ini"
expect_eq "1,400 trees of radius 1000 over 1-unit cells: --check exits 0" "$?" 0
done_testing
