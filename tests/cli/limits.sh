#!/bin/sh
# The loader's limits (the hardening issue) end in a clear message and exit
# status 2, never a crash or a hang: a file over 64 MiB (on disk or through
# a pipe), a map of exactly 1,000,000 entities against one more (given as
# sections or as random counts).  Within those a map loads in time linear
# in its size, however many sections and keys it has.  (The long line and
# the too-many-entities fixtures are in tests/maps/bad/.)
. "$top_srcdir/tests/lib/lib.sh"

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

# A million entities given one section each ([tree.N]): the
# loader is linear in the file (iniparser gets it in small pieces), so
# 1,000,000 [tree.N] sections (41 MB) load in seconds; the quadratic
# loader this replaced needed 174 s for 100,000.  One more section is
# refused by the entity count, not by a limit of the loader.  Bounded by
# `timeout` where there is one, so a quadratic loader fails, not hangs.
tmo=
command -v timeout >/dev/null 2>&1 && tmo="timeout 300"
awk 'BEGIN { print "[map]\nwidth = 1000000\nheight = 1000000";
             for (i = 0; i < 1000000; i++)
                 printf "[tree.%d]\nx = %d\ny = %d\nr = 10\n", i, i % 1000 * 100 + 50, int(i / 1000) * 100 + 50 }' \
    >"$TMPD/sections.ini"
$tmo "$BOTFIELD" --check "$TMPD/sections.ini" 2>"$TMPD/err"
status=$?
[ "$status" -eq 0 ] || note "$(head -n 5 "$TMPD/err")"
expect_eq "1,000,000 [tree.N] sections: accepted" "$status" 0
printf '[tree.x]\nx = 1\ny = 1\nr = 1\n' >>"$TMPD/sections.ini"
$tmo "$BOTFIELD" --check "$TMPD/sections.ini" 2>"$TMPD/err"
expect_eq "1,000,001 [tree.N] sections: exit status 2" "$?" 2
grep -q "sections.ini: 1000001 entities (trees, tanks, turrets, cars): at most 1000000 are allowed" "$TMPD/err"
ok $? "1,000,001 [tree.N] sections: says the entity limit"
rm -f "$TMPD/sections.ini"

# A section of many keys (past the scanner's in-place search) still finds
# a duplicate key and reads every value; many tanks find their team.
awk 'BEGIN { print "[map]\nwidth = 1000\nheight = 1000\n[team.red]\n[team.blue]";
             for (i = 0; i < 20000; i++)
                 printf "[tank.%d]\nteam = %s\nx = %d\ny = %d\n", i, i % 2 ? "blue" : "red", i % 100 * 10 + 5, int(i / 100) * 5 + 2 }' \
    >"$TMPD/tanks.ini"
$tmo "$BOTFIELD" --check "$TMPD/tanks.ini" 2>"$TMPD/err"
status=$?
[ "$status" -eq 0 ] || note "$(head -n 5 "$TMPD/err")"
expect_eq "20,000 [tank.N] sections of two teams: accepted" "$status" 0
awk 'BEGIN { print "[map]\nwidth = 10\nheight = 10";
             for (i = 0; i < 5000; i++) printf "k%d = %d\n", i, i;
             print "k4321 = again" }' >"$TMPD/keys.ini"
$tmo "$BOTFIELD" --check "$TMPD/keys.ini" 2>"$TMPD/err"
expect_eq "5,000 keys in one section: exit status 2" "$?" 2
grep -q "keys.ini:5004: \[map\]: duplicate key 'k4321' (first at line 4325)" "$TMPD/err"
ok $? "5,000 keys in one section: finds the duplicate key"
sed '$d' "$TMPD/keys.ini" >"$TMPD/keys1.ini"
$tmo "$BOTFIELD" --check "$TMPD/keys1.ini" 2>"$TMPD/err"
grep -q "keys1.ini: 4980 more problems not shown" "$TMPD/err"
ok $? "5,000 keys in one section: counts every unknown key"

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
