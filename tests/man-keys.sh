#!/bin/sh
# The man page's key lists are the tables the program runs: the map keys
# (botfield --man-keys, from the key table) and the viewer's keys
# (botfield --man-viewer-keys, from the viewer's key table) are in the
# built man page word for word, and no placeholder is left.
. "$top_srcdir/tests/lib.sh"
MAN="$top_builddir/man/botfield.6"

"$BOTFIELD" --man-keys >"$TMPD/map-keys"
expect_eq "--man-keys exits 0" "$?" 0
"$BOTFIELD" --man-viewer-keys >"$TMPD/viewer-keys"
expect_eq "--man-viewer-keys exits 0" "$?" 0
n=$(grep -c '^\.TP$' "$TMPD/viewer-keys")
[ "${n:-0}" -ge 20 ]
ok $? "--man-viewer-keys lists the viewer's keys ($n entries)"
grep -q '^\.B q$' "$TMPD/viewer-keys" && grep -q '^\.B space$' "$TMPD/viewer-keys"
ok $? "the viewer's list has q and space"

# contains FILE PART: PART's lines appear in FILE, together and in order.
contains() {
    tr '\n' '\001' <"$1" >"$TMPD/whole"
    tr '\n' '\001' <"$2" >"$TMPD/part"
    grep -qF -f "$TMPD/part" "$TMPD/whole"
}
[ -f "$MAN" ]
ok $? "the man page is built"
contains "$MAN" "$TMPD/map-keys"
ok $? "the man page holds the map key list"
contains "$MAN" "$TMPD/viewer-keys"
ok $? "the man page holds the viewer key list"
! grep -q '@[A-Z_]*@' "$MAN"
ok $? "no placeholder is left in the man page"
done_testing
