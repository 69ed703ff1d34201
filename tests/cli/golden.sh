#!/bin/sh
# Golden hashes: every bundled map (and the crowd fixtures) run headless
# for a fixed number of ticks with the full trace; the XXH64 of the trace
# must equal the value committed here.  A change that moves a hash must
# say why in its commit message and update the value here.
. "$top_srcdir/tests/lib/lib.sh"
HASH="$top_builddir/tests/lib/hash64"
TICKS=1800

check() {   # check MAP WANT
    "$BOTFIELD" --headless --ticks "$TICKS" --trace "$TMPD/t" "$1"
    rc=$?
    got=$("$HASH" "$TMPD/t")
    [ "$rc" -eq 0 ] || got="exit $rc"
    expect_eq "$(basename "$1"): trace hash over $TICKS ticks" "$got" "$2"
}

check "$top_srcdir/maps/default.ini"        f71153a435657548
check "$top_srcdir/maps/crowd.ini"          5e2f9430b086af50
check "$top_srcdir/maps/forest.ini"         23946ff21c5b7bf2
check "$top_srcdir/maps/race.ini"           29eb68456b50ddb7
check "$top_srcdir/maps/racing-line.ini"    1caee40f19657b70
check "$top_srcdir/maps/turret.ini"         f80387349e69b9e6
# the Lua bots' maps (the header's "lua" is part of the trace: a Lua
# other than 5.4.4 moves these hashes, and only these)
check "$top_srcdir/maps/bots-avoid.ini"     e61f3b67f18b3661
check "$top_srcdir/maps/bots-duel.ini"      0bb4ceda1a805407
check "$top_srcdir/maps/bots-race.ini"      f3e05fe95a5d7e06
check "$top_srcdir/maps/bots-turret.ini"    24d3e5851a40c518
# you against two hunters: headless, the player tank holds still
check "$top_srcdir/maps/duel.ini"           b684c672f10f9544
check "$top_srcdir/tests/maps/crowd60.ini"  71da61e025e08d34
check "$top_srcdir/tests/maps/crowd300.ini" 6ed13d9fd6f09ad3
done_testing
