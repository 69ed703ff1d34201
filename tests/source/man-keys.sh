#!/bin/sh
# The man page documents every key the program reads, checked against the
# source tables themselves (not against --man-keys, which is what the
# Makefile pastes into the page): each map key of src/io/keys.c's
# key_table under its section's heading, each viewer key of
# src/view/keys_table.c's view_keys in KEYS, in order, and nothing else;
# no placeholder is left.
. "$top_srcdir/tests/lib/lib.sh"
MAN="$top_builddir/man/botfield.6"
KEYS_C="$top_srcdir/src/io/keys.c"
VIEW_C="$top_srcdir/src/view/keys_table.c"

"$BOTFIELD" --man-keys >/dev/null
expect_eq "--man-keys exits 0" "$?" 0
"$BOTFIELD" --man-viewer-keys >/dev/null
expect_eq "--man-viewer-keys exits 0" "$?" 0
[ -f "$MAN" ]
ok $? "the man page is built"

# same WHAT WANT GOT: the two files have the same lines, else the diff.
same() {
    if diff "$2" "$3" >"$TMPD/diff"; then ok 0 "$1"; else
        note "< the source table, > the man page" "$(cat "$TMPD/diff")"; ok 1 "$1"; fi
}

# The map keys of the source table, "section key" sorted.  An entry's
# sections are SEC_* names or the TANKS / GUNS macros; a [team.NAME] lists
# only its own keys (the tank keys it also takes are one sentence).
sed -n '/^const struct key_def key_table\[\]/,/^};/p' "$KEYS_C" |
    sed -n 's/^    { *\.sections *= *\([A-Z_ |]*\), *\.name *= *"\([a-z_.]*\)".*/\1:\2/p' |
    awk -F: '{
        secs = $1; gsub(/ /, "", secs)
        sub(/TANKS/, "SEC_TANK|SEC_TEAM", secs); sub(/GUNS/, "SEC_TANK|SEC_TEAM|SEC_TURRET", secs)
        n = split(secs, s, "|")
        for (i = 1; i <= n; i++) {
            if (s[i] == "SEC_TEAM" && n > 1) continue
            print s[i] " " $2
        }
    }' |
    sed -e 's/^SEC_MAP /map /' -e 's/^SEC_TREES /trees /' -e 's/^SEC_TREE /tree.ID /' \
        -e 's/^SEC_TEAM /team.NAME /' -e 's/^SEC_TANK /tank.ID /' -e 's/^SEC_TURRET /turret.ID /' \
        -e 's/^SEC_TRACK /track /' -e 's/^SEC_WAYPOINT /waypoint.N /' -e 's/^SEC_CAR /car.ID /' \
        -e 's/^SEC_SIGHT /sight /' -e 's/^SEC_MATCH /match /' | sort -u >"$TMPD/table-keys"
n=$(wc -l <"$TMPD/table-keys")
[ "$n" -ge 40 ] && ! grep -q '^SEC_' "$TMPD/table-keys"
ok $? "the key table is read ($n section keys)"

# The man page's map keys: each ".TP/.B key" under a ".SS [section]".
awk '/^\.SH/ { sec = "" }
     /^\.SS / { sec = ($2 ~ /^\[.*\]$/) ? substr($2, 2, length($2) - 2) : "" }
     sec != "" && prev == ".TP" && /^\.B / { k = $2; gsub(/\\-/, "-", k); print sec " " k }
     { prev = $0 }' "$MAN" | sort -u >"$TMPD/man-keys"
same "the man page lists each map key of the table under its section, no other" \
    "$TMPD/table-keys" "$TMPD/man-keys"

# The viewer keys of the source table, in order, as roff writes them.
sed -n '/^const struct view_key view_keys\[\]/,/^};/p' "$VIEW_C" |
    sed -n 's/^    { "\([^"]*\)", {.*/\1/p' | sed -e 's/\\/\\e/g' -e 's/-/\\-/g' >"$TMPD/table-view"
n=$(wc -l <"$TMPD/table-view")
[ "$n" -ge 20 ] && grep -qx 'q' "$TMPD/table-view" && grep -qx 'space' "$TMPD/table-view"
ok $? "the viewer's key table is read ($n keys, q and space among them)"

# The man page's viewer keys: each ".TP/.B key" in KEYS before its first .SS.
awk '/^\.S[HS]/ { in_keys = ($0 == ".SH KEYS") }
     in_keys && prev == ".TP" && /^\.B / { print substr($0, 4) }
     { prev = $0 }' "$MAN" >"$TMPD/man-view"
same "the man page's KEYS lists the viewer's keys of the table, in order, no other" \
    "$TMPD/table-view" "$TMPD/man-view"

! grep -q '@[A-Z_]*@' "$MAN"
ok $? "no placeholder is left in the man page"
done_testing
