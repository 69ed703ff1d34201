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

check "$top_srcdir/maps/default.ini"        5c780fa285c9374b
check "$top_srcdir/maps/crowd.ini"          d59fc28def42dec0
check "$top_srcdir/maps/forest.ini"         cef1ebfd7037ea4e
check "$top_srcdir/maps/race.ini"           1f9a023cd51090d9
check "$top_srcdir/maps/racing-line.ini"    ed18b40044e4d8db
check "$top_srcdir/maps/turret.ini"         d4cae5896353faad
# the Lua bots' maps (the header's "lua" is part of the trace: a Lua
# other than 5.4.4 moves these hashes, and only these)
check "$top_srcdir/maps/bots-avoid.ini"     93828b6baadba3c7
check "$top_srcdir/maps/bots-duel.ini"      38bd4932f4ab2453
check "$top_srcdir/maps/bots-race.ini"      d578006fc1151f90
check "$top_srcdir/maps/bots-turret.ini"    127186a971867f1c
# you against two hunters: headless, the player tank holds still
check "$top_srcdir/maps/duel.ini"           82277a31ca2e6493
check "$top_srcdir/tests/maps/crowd60.ini"  29ffa7a502311258
check "$top_srcdir/tests/maps/crowd300.ini" ec1b05b795ada5e7
done_testing
