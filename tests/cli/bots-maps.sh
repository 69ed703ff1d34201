#!/bin/sh
# The bundled bots' maps: one for each bundled script, each running a
# minute with its bots and no bot_error; and the trace's bot lines.
. "$top_srcdir/tests/lib/lib.sh"
for lua in "$top_srcdir"/maps/bots/*.lua; do
    name=$(basename "$lua")
    n=$(grep -l "^bot = bots/$name\$" "$top_srcdir"/maps/bots-*.ini | wc -l)
    [ "$n" -ge 1 ]
    ok $? "maps/bots/$name has a bundled map"
done
for map in "$top_srcdir"/maps/bots-*.ini; do
    name=$(basename "$map")
    "$BOTFIELD" --headless --seconds 60 --trace "$TMPD/t" "$map"
    expect_eq "$name: a 60 s run exits 0" "$?" 0
    expect_eq "$name: no bot_error" "$(grep -c '"type":"bot_error"' "$TMPD/t")" 0
    grep '"type":"entity"' "$TMPD/t" | grep -q '"bot":"bots/[a-z]*\.lua","bot_sha256":"[0-9a-f]\{64\}"'
    ok $? "$name: an entity line names its bot and the script's SHA-256"
done
# what each bot is there to show
"$BOTFIELD" --headless --seconds 60 --trace "$TMPD/t" "$top_srcdir/maps/bots-turret.ini"
shots=$(grep -c '"type":"shot","tick":[0-9]*,"shooter":"turret.gun"' "$TMPD/t")
[ "$shots" -gt 0 ]
ok $? "bots-turret: the bot turret fires ($shots shots)"
"$BOTFIELD" --headless --trace "$TMPD/t" "$top_srcdir/maps/bots-race.ini"
laps=$(grep -c '"type":"lap","tick":[0-9]*,"id":"car.bot"' "$TMPD/t")
expect_eq "bots-race: the bot car finishes its 3 laps" "$laps" 3
logs=$(grep -c '"type":"log","tick":[0-9]*,"id":"car.bot","text":"lap ' "$TMPD/t")
expect_eq "bots-race: it logs each lap" "$logs" 3
done_testing
