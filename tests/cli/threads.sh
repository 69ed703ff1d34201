#!/bin/sh
# --threads changes no byte: every bundled map (bots included) and the
# 10,000-tank battle give the same trace on 1, 2 and 4 threads.
# BOTFIELD_THREADS_ALWAYS takes the threads even for a handful of tanks,
# which a run would otherwise leave to one thread (par.h), so the small
# maps go through the threaded stages too.  Then --threads' errors.
. "$top_srcdir/tests/lib/lib.sh"
BOTFIELD_THREADS_ALWAYS=1
export BOTFIELD_THREADS_ALWAYS

for map in "$top_srcdir"/maps/*.ini; do
    name=$(basename "$map")
    for t in 1 2 4; do
        "$BOTFIELD" --headless --ticks 100 --threads $t --trace-decisions \
            --trace "$TMPD/$t" "$map" || rm -f "$TMPD/$t"
    done
    # the traces hold what the threads compute: sight and decide lines
    # where the map has tanks with enemies
    [ -s "$TMPD/1" ] && cmp "$TMPD/1" "$TMPD/2" && cmp "$TMPD/1" "$TMPD/4"
    ok $? "$name: 1, 2 and 4 threads, the same trace"
done
grep -q '"sight"' "$TMPD/1"
ok $? "(the last map's trace holds sight events)"
n=$(grep -c '"decide"' "$TMPD/1")
[ "$n" -gt 0 ]
ok $? "(and decide lines: $n)"

# The 10,000-tank battle, bench-battle's map: every tank in sight of
# many, aiming, firing; its first 60 ticks (the trace streamed to a
# checksum: some 500 MB), 10 in a sanitizer build (ten times slower; the
# stages' joins are the same from the first tick).
BT=60
grep -q -a -e __asan_init -e __tsan_init "$BOTFIELD" 2>/dev/null && BT=10
printf '[map]\nname = ten thousand\nwidth = 10000\nheight = 10000\n[team.a]\nrandom = 5000\n[team.b]\nrandom = 5000\n' \
    >"$TMPD/battle.ini"
for t in 1 2 4; do
    { "$BOTFIELD" --headless --ticks $BT --threads $t --trace - "$TMPD/battle.ini" \
          || echo "$t threads: exit $?" >>"$TMPD/bad"; } | cksum >"$TMPD/sum$t"
done
note "battle: $(cat "$TMPD/sum1")" "$(cat "$TMPD/bad" 2>/dev/null)"
cmp "$TMPD/sum1" "$TMPD/sum2" && cmp "$TMPD/sum1" "$TMPD/sum4" \
    && ! grep -q '^4294967295 0$' "$TMPD/sum1" && [ ! -s "$TMPD/bad" ]
ok $? "10,000-tank battle, $BT ticks: 1, 2 and 4 threads, the same trace"

# 600 Lua bots (tests/bots/busy.lua: every built-in method, logs,
# drawings, errors on purpose), enough for the threads without
# BOTFIELD_THREADS_ALWAYS: each bot decides on whichever thread takes its
# chunk, and its log and error lines still come in vehicle order.
mkdir "$TMPD/busy"
cp "$top_srcdir/tests/bots/busy.lua" "$TMPD/busy/"
printf '[map]\nname = busy bots\nwidth = 3000\nheight = 3000\n[trees]\nrandom = 150\n[team.a]\nrandom = 300\nbot = busy.lua\n[team.b]\nrandom = 300\nbot = busy.lua\n' \
    >"$TMPD/busy/m.ini"
BK=30
[ "$BT" = 10 ] && BK=8
rm -f "$TMPD/bad"
for t in 1 2 4; do
    env -u BOTFIELD_THREADS_ALWAYS "$BOTFIELD" --headless --ticks $BK --threads $t \
        --trace-decisions --trace "$TMPD/busy$t" "$TMPD/busy/m.ini" \
        || echo "$t threads: exit $?" >>"$TMPD/bad"
done
nlog=$(grep -c '"type":"log"' "$TMPD/busy1")
nerr=$(grep -c '"type":"bot_error"' "$TMPD/busy1")
note "busy bots: $nlog log lines, $nerr bot_error lines" "$(cat "$TMPD/bad" 2>/dev/null)"
cmp "$TMPD/busy1" "$TMPD/busy2" && cmp "$TMPD/busy1" "$TMPD/busy4" \
    && [ "$nlog" -ge 600 ] && [ "$nerr" -gt 10 ] && [ ! -s "$TMPD/bad" ]
ok $? "600 Lua bots, $BK ticks: 1, 2 and 4 threads, the same trace (logs and errors in vehicle order)"

# Bad counts: a clear error, exit 2, nothing run.
for bad in 0 -1 257 x 2x ''; do
    "$BOTFIELD" --headless --ticks 1 --threads "$bad" "$top_srcdir/maps/duel.ini" \
        >"$TMPD/out" 2>"$TMPD/err"
    rc=$?
    [ $rc -eq 2 ] && [ ! -s "$TMPD/out" ] \
        && grep -q "^botfield: --threads $bad: expected a whole number of threads, 1 to 256" "$TMPD/err"
    ok $? "--threads '$bad' is refused (exit $rc)"
done
"$BOTFIELD" --check --threads 2 "$top_srcdir/maps/duel.ini" 2>"$TMPD/err"
[ $? -eq 2 ] && grep -q "check only loads the map" "$TMPD/err"
ok $? "--check takes no --threads"
"$BOTFIELD" --headless --seeds 1-2 --threads 2 "$top_srcdir/maps/duel.ini" >/dev/null 2>"$TMPD/err"
[ $? -eq 2 ] && grep -q "^botfield: --seeds 1-2 --threads 2: --seeds runs a battle per seed, each with its own seed, side by side" "$TMPD/err"
ok $? "a tournament takes no --threads (its battles run side by side)"
done_testing
