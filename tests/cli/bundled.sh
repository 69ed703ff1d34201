#!/bin/sh
# Every bundled map passes --check and runs headless; the summary is there.
. "$top_srcdir/tests/lib/lib.sh"
for map in "$top_srcdir"/maps/*.ini; do
    name=$(basename "$map")
    "$BOTFIELD" --check "$map" 2>"$TMPD/err"
    st=$?
    [ $st -ne 0 ] && note "$(cat "$TMPD/err")"
    expect_eq "$name: --check exits 0" "$st" 0
    "$BOTFIELD" --headless --seconds 3 --summary "$map" >"$TMPD/s" 2>"$TMPD/err"
    expect_eq "$name: a 3 s headless run exits 0" "$?" 0
    grep -q '^{"type":"summary","ticks":' "$TMPD/s"
    ok $? "$name: prints its summary"
done
# The embedded default map is maps/default.ini.
"$BOTFIELD" --headless --ticks 20 --trace "$TMPD/a"
"$BOTFIELD" --headless --ticks 20 --trace "$TMPD/b" "$top_srcdir/maps/default.ini"
cmp -s "$TMPD/a" "$TMPD/b"
ok $? "the embedded default map runs exactly as maps/default.ini"
done_testing
