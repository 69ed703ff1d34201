#!/bin/sh
# bot_memory is part of the determinism (botfield-bots(7), Determinism):
# bots that churn string keys, use tables and functions as keys, grow into
# their bot_memory and meet the per-tick cap, inside pcall and out, give
# one trace in 20 runs, the same on one thread and two, and their
# recordings replay.  Lua seeds its string hashes afresh for every state,
# so each run lays the same tables out differently: a limit that followed
# Lua's bytes stopped these bots at another point in each run.
. "$top_srcdir/tests/lib/lib.sh"

RUNS=${BOTS_MEMORY_RUNS:-20}
mkdir -p "$TMPD/m/bots" "$TMPD/elsewhere"
cp "$top_srcdir"/tests/bots/memory/*.lua "$TMPD/m/bots/"
for spec in churn:2048 grow:512 pcall:512 tables-as-keys:768; do
    b=${spec%%:*}
    kib=${spec##*:}
    sed "s|BOT|bots/$b.lua|; s|MEMORY|$kib|" "$top_srcdir/tests/bots/memory/map.ini.in" \
        >"$TMPD/m/$b.ini"
    i=1
    while [ $i -le "$RUNS" ]; do
        "$BOTFIELD" --headless --ticks 100 --threads 1 --trace "$TMPD/$b.$i" "$TMPD/m/$b.ini" \
            >/dev/null 2>"$TMPD/err" || note "$b run $i: $(cat "$TMPD/err")"
        i=$((i + 1))
    done
    expect_eq "$b: $RUNS runs, one trace" \
        "$(for f in "$TMPD"/$b.[0-9]*; do md5sum <"$f"; done | sort -u | wc -l)" 1
    # The bot does meet its limits (else the test proves nothing).
    grep -q '"type":"bot_error".*limit exceeded' "$TMPD/$b.1"
    ok $? "$b: the bot meets a memory limit"
    "$BOTFIELD" --headless --ticks 100 --threads 2 --trace "$TMPD/$b.t2" "$TMPD/m/$b.ini" \
        >/dev/null 2>&1
    cmp -s "$TMPD/$b.1" "$TMPD/$b.t2"
    ok $? "$b: two threads give the same trace"
    "$BOTFIELD" --headless --ticks 100 --record "$TMPD/$b.rec" "$TMPD/m/$b.ini" >/dev/null 2>&1
    replays_elsewhere "$TMPD/$b.rec" "$b: its recording" "$TMPD/$b.1"
done
done_testing
