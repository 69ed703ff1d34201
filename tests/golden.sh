#!/bin/sh
# Golden hashes: every bundled map (and the crowd fixtures) run headless
# for a fixed number of ticks with the full trace; the XXH64 of the trace
# must equal the value committed here.  A change that moves a hash must
# say why in its commit message and update the value here.
. "$top_srcdir/tests/lib.sh"
HASH="$top_builddir/tests/hash64"
TICKS=1800

check() {   # check MAP WANT
    "$BOTFIELD" --headless --ticks "$TICKS" --trace "$TMPD/t" "$1"
    rc=$?
    got=$("$HASH" "$TMPD/t")
    [ "$rc" -eq 0 ] || got="exit $rc"
    expect_eq "$(basename "$1"): trace hash over $TICKS ticks" "$got" "$2"
}

check "$top_srcdir/maps/default.ini"        df5130bb215301c9
check "$top_srcdir/maps/crowd.ini"          409e970a32c89226
check "$top_srcdir/maps/forest.ini"         8c9b186f12a56405
check "$top_srcdir/maps/race.ini"           f2d48be7b76bc6f9
check "$top_srcdir/maps/racing-line.ini"    0350b27426a490ac
check "$top_srcdir/maps/turret.ini"         7009ab9d3e6308fd
# the Lua bots' maps (the header's "lua" is part of the trace: a Lua
# other than 5.4.4 moves these hashes, and only these)
check "$top_srcdir/maps/bots-avoid.ini"     e61f3b67f18b3661
check "$top_srcdir/maps/bots-duel.ini"      528059d7052f2a01
check "$top_srcdir/maps/bots-race.ini"      54f1ba9ef86e7e56
check "$top_srcdir/maps/bots-turret.ini"    0bdee978da0bcdfa
# you against two hunters: headless, the player tank holds still
check "$top_srcdir/maps/duel.ini"           f39187881d3ea9ff
check "$top_srcdir/tests/maps/crowd60.ini"  7b5ef38c1c1f039d
check "$top_srcdir/tests/maps/crowd300.ini" 1c0d7b7afd48bb81
done_testing
