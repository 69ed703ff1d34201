#!/bin/sh
# The same map and seed give the same trace byte for byte; another seed
# gives another trace; --seed overrides the map's.
. "$top_srcdir/tests/lib.sh"
MAP="$top_srcdir/maps/default.ini"

"$BOTFIELD" --headless --seconds 10 --trace "$TMPD/a" "$MAP"
"$BOTFIELD" --headless --seconds 10 --trace "$TMPD/b" "$MAP"
cmp -s "$TMPD/a" "$TMPD/b"
ok $? "two runs of the default map give the same bytes"
"$BOTFIELD" --headless --seconds 10 --seed 1 --trace "$TMPD/c" "$MAP"
cmp -s "$TMPD/a" "$TMPD/c"
ok $? "--seed 1 is the map's own seed"
"$BOTFIELD" --headless --seconds 10 --seed 2 --trace "$TMPD/d" "$MAP"
cmp -s "$TMPD/a" "$TMPD/d"
[ $? -ne 0 ]
ok $? "another seed gives other bytes"
for map in "$top_srcdir"/maps/*.ini; do
    name=$(basename "$map")
    "$BOTFIELD" --headless --seconds 5 --seed 7 --trace "$TMPD/x" "$map"
    "$BOTFIELD" --headless --seconds 5 --seed 7 --trace "$TMPD/y" "$map"
    cmp -s "$TMPD/x" "$TMPD/y"
    ok $? "$name: same seed, same bytes"
done
done_testing
