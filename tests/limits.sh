#!/bin/sh
# The loader's limits (the hardening issue) end in a clear message and exit
# status 2, never a crash or a hang: a file over 64 MiB (on disk or through
# a pipe), more sections and keys than iniparser loads in reasonable time,
# a map of exactly 1,000,000 entities against one more.  (The long line and
# the too-many-entities fixtures are in tests/maps/bad/.)
. "$top_srcdir/tests/lib.sh"

# A sparse 65 MiB file: refused from its size, before it is read.
if truncate -s 65M "$TMPD/huge.ini" 2>/dev/null; then
    "$BOTFIELD" --check "$TMPD/huge.ini" 2>"$TMPD/err"
    expect_eq "65 MiB file: exit status 2" "$?" 2
    grep -q "huge.ini: the file is larger than 64 MiB; a map is at most 64 MiB" "$TMPD/err"
    ok $? "65 MiB file: says the limit"
else
    skip "65 MiB file" "truncate cannot make a sparse file here"
    skip "65 MiB file: says the limit" "truncate cannot make a sparse file here"
fi

# The same through a pipe, whose size is not known before reading.
{ printf '[map]\nwidth = 10\nheight = 10\n'; yes '; a comment line to fill the file' | head -c 68000000; } \
    | "$BOTFIELD" --check /dev/stdin 2>"$TMPD/err"
expect_eq "over 64 MiB through a pipe: exit status 2" "$?" 2
grep -q "larger than 64 MiB" "$TMPD/err"
ok $? "over 64 MiB through a pipe: says the limit"

# 12,600 tree sections: over 50,000 sections and keys.  Refused at once
# with what to do instead, not loaded for minutes.
awk 'BEGIN { print "[map]\nwidth = 100000\nheight = 100000";
             for (i = 0; i < 12600; i++)
                 printf "[tree.%d]\nx = %d\ny = %d\nr = 10\n", i, i % 1000 * 100 + 50, int(i / 1000) * 100 + 50 }' \
    >"$TMPD/sections.ini"
"$BOTFIELD" --check "$TMPD/sections.ini" 2>"$TMPD/err"
expect_eq "50,000 sections and keys: exit status 2" "$?" 2
grep -q "sections.ini:50001: \[tree.12499\]: more than 50000 sections and keys in one map.*'random' counts" "$TMPD/err"
ok $? "50,000 sections and keys: says the limit and what to do"

# Exactly 1,000,000 entities load; one more does not.
printf '[map]\nwidth = 1000000\nheight = 1000000\n[trees]\nrandom = 999998\nradius = 5\n[team.a]\nrandom = 2\n' \
    >"$TMPD/million.ini"
"$BOTFIELD" --check "$TMPD/million.ini" 2>"$TMPD/err"
status=$?
[ "$status" -eq 0 ] || note "$(cat "$TMPD/err")"
expect_eq "1,000,000 entities: accepted" "$status" 0
sed 's/^random = 999998$/random = 999999/' "$TMPD/million.ini" >"$TMPD/million1.ini"
"$BOTFIELD" --check "$TMPD/million1.ini" 2>"$TMPD/err"
expect_eq "1,000,001 entities: exit status 2" "$?" 2
grep -q "1000001 entities (trees, tanks, turrets, cars): at most 1000000 are allowed" "$TMPD/err"
ok $? "1,000,001 entities: says the limit"

done_testing
