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

check "$top_srcdir/maps/default.ini"        34ea2c95049f5dc4
check "$top_srcdir/maps/crowd.ini"          da872520afca4d99
check "$top_srcdir/maps/forest.ini"         fea8ba42515b8223
check "$top_srcdir/maps/race.ini"           90c137cdeee55ce4
check "$top_srcdir/maps/racing-line.ini"    421420c83545fa25
check "$top_srcdir/maps/turret.ini"         0ee1fdab60c73043
# the Lua bots' maps (the header's "lua" is part of the trace: a Lua
# other than 5.4.4 moves these hashes, and only these)
check "$top_srcdir/maps/bots-avoid.ini"     95fbdf468d8bd2a5
check "$top_srcdir/maps/bots-duel.ini"      c8006a809e46eb57
check "$top_srcdir/maps/bots-race.ini"      a74b081b03b31368
check "$top_srcdir/maps/bots-turret.ini"    5ea57f460a840ec0
check "$top_srcdir/tests/maps/crowd60.ini"  675cd520706e546f
check "$top_srcdir/tests/maps/crowd300.ini" 0d1df9c789a70747
done_testing
