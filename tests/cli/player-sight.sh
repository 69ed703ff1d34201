#!/bin/sh
# A Lua bot sees the player tank only through its sight: a sentry
# (tests/maps/bots/sentry.lua) that shoots at whatever world.enemies holds
# never shoots at a player behind a wide tree, and shoots one in the open.
# Headless, the player holds still.
. "$top_srcdir/tests/lib/lib.sh"
D="$top_srcdir/tests/maps/bots"

shots() { grep -c '"type":"shot","tick":[0-9]*,"shooter":"tank.sentry"' "$1"; }

"$BOTFIELD" --headless --ticks 600 --trace "$TMPD/hidden" "$D/player-hidden.ini"
ok $? "the hidden player's map runs 600 ticks"
expect_eq "behind a wide tree: the sentry never shoots" "$(shots "$TMPD/hidden")" 0
expect_eq "it looks every tick and never sees the player" \
    "$(grep -c '"type":"sight","tick":[0-9]*,"from":"tank.sentry","to":"tank.me","visible":0,"seen":false' "$TMPD/hidden")" 600
expect_eq "headless, the player holds still" \
    "$(grep -c '"type":"state","tick":600,"id":"tank.me","team":"you","x":200,"y":300,"heading":0,"speed":0,"turret":0,"alive":true' "$TMPD/hidden")" 1

"$BOTFIELD" --headless --ticks 600 --trace "$TMPD/open" "$D/player-open.ini"
ok $? "the open player's map runs 600 ticks"
[ "$(shots "$TMPD/open")" -ge 1 ]
ok $? "in the open: the sentry shoots ($(shots "$TMPD/open") shots)"
grep -q '"type":"hit","tick":[0-9]*,"shooter":"tank.sentry","target":"tank.me"' "$TMPD/open" &&
    grep -q '"type":"knockout","tick":[0-9]*,"id":"tank.me"' "$TMPD/open"
ok $? "hits the player and knocks it out"
done_testing
