#!/bin/sh
# Bugs found by a hostile review (each check failed when written):
# 1. bot_memory's count stops after 32 counts in a call: a bot with a big
#    bot_budget then grows to the backstop (8x bot_memory here), and where
#    the backstop stops it follows Lua's hash seed: runs differ.
# 2. --compare --record FILE writes B's recording over a file the run
#    refuses for FILE itself (the map).
# 3. A recording's "set" item holding a newline adds sections to the map
#    on replay (--set refuses control characters).
. "$top_srcdir/tests/lib/lib.sh"

mkdir -p "$TMPD/m/bots"
cp "$top_srcdir/tests/bots/memory/after-counts.lua" "$TMPD/m/bots/"
sed "s|BOT|bots/after-counts.lua|; s|MEMORY|512|" "$top_srcdir/tests/bots/memory/map.ini.in" \
    >"$TMPD/m/a.ini"
printf 'bot_budget = 10000000\n' >>"$TMPD/m/a.ini"
i=1
while [ $i -le 20 ]; do
    "$BOTFIELD" --headless --ticks 4 --threads 1 --trace "$TMPD/a.$i" "$TMPD/m/a.ini" >/dev/null 2>&1
    i=$((i + 1))
done
expect_eq "after 32 counts in a call: 20 runs, one trace" \
    "$(for f in "$TMPD"/a.[0-9]*; do md5sum <"$f"; done | sort -u | wc -l)" 1

cp "$top_srcdir/maps/default.ini" "$TMPD/m.b.ini"
cp "$TMPD/m.b.ini" "$TMPD/keep.ini"
( cd "$TMPD" && "$BOTFIELD" --headless --ticks 20 --compare team.red.aim=classic \
    --record m.ini m.b.ini >/dev/null 2>&1 )
cmp -s "$TMPD/m.b.ini" "$TMPD/keep.ini"
ok $? "--compare --record m.ini never writes over the map m.b.ini"

"$BOTFIELD" --headless --ticks 20 --set team.blue.aim=classic \
    --record "$TMPD/s.rec" "$top_srcdir/maps/default.ini" >/dev/null 2>&1
sed '1s/"team.blue.aim=classic"/"team.blue.aim=classic\\n[tank.q]\\nteam = blue\\nx = 100\\ny = 100\\n[team.zz]"/' \
    "$TMPD/s.rec" >"$TMPD/h.rec"
"$BOTFIELD" --headless --replay "$TMPD/h.rec" --trace "$TMPD/h.trace" >/dev/null 2>&1
expect_eq "a recording's set with a newline is refused (exit 2)" "$?" 2
grep -q '"tank.q"' "$TMPD/h.trace" 2>/dev/null
[ $? -ne 0 ]
ok $? "it adds no tank to the replayed map"
done_testing
