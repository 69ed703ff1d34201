#!/bin/sh
# Awkward but valid maps load: a BOM and CRLF, odd spacing and case, inline
# comments and quotes, numbered sections, and what they load into is right.
. "$top_srcdir/tests/lib/lib.sh"
cd "$top_srcdir/tests/maps/good" || exit 1

for map in *.ini; do
    "$BOTFIELD" --check "$map" 2>"$TMPD/err"
    status=$?
    [ "$status" -ne 0 ] && note "$(cat "$TMPD/err")"
    expect_eq "$map: --check exits 0" "$status" 0
    "$BOTFIELD" --headless --ticks 5 --trace "$TMPD/t.jsonl" "$map" 2>"$TMPD/err"
    expect_eq "$map: a short headless run exits 0" "$?" 0
done

"$BOTFIELD" --headless --ticks 0 --trace - odd-spacing.ini >"$TMPD/t" 2>&1
grep -q '"map":"Odd spacing","seed":42' "$TMPD/t"
ok $? "quoted name and mixed-case keys are read"
grep -q '"id":"tank.lone","kind":"tank","team":"red"' "$TMPD/t"
ok $? "section ids are lowercased"
grep -q '"id":"tank.lone","team":"red","x":500,"y":400,"heading":-90,' "$TMPD/t"
ok $? "heading -450 is normalised to -90"

"$BOTFIELD" --headless --ticks 0 --trace - explicit-lists.ini >"$TMPD/t"
expect_eq "explicit trees: list, section and random" "$(grep -c '"type":"tree"' "$TMPD/t")" 8
grep '"type":"waypoint"' "$TMPD/t" | sed 's/.*"index":\([0-9]*\),"x":\([0-9]*\).*/\1:\2/' | tr '\n' ' ' >"$TMPD/w"
expect_eq "[waypoint.N] sections in increasing N" "$(cat "$TMPD/w")" "0:1700 1:1000 2:300 "
grep -q '"type":"state","tick":0,"id":"car.fast","x":200,"y":200,"heading":3.814' "$TMPD/t"
ok $? "a car heads for waypoint 0 by default"

"$BOTFIELD" --headless --ticks 0 --trace - bom-crlf.ini >"$TMPD/t"
expect_eq "BOM and CRLF: both random tanks" "$(grep -c '"type":"entity"' "$TMPD/t")" 2

done_testing
