#!/bin/sh
# Hostile files and command lines against what botfield reads and writes
# besides the map: a recording or a file of run lines that never ends a
# line (/dev/zero, an endless stream) is refused at its line limit, not
# read until memory runs out.
. "$top_srcdir/tests/lib.sh"
MAP="$TMPD/default.ini"
cp "$top_srcdir/maps/default.ini" "$MAP"
chmod u+w "$MAP"
tmo=
command -v timeout >/dev/null 2>&1 && tmo="timeout 120"
# Outside a sanitizer build, address space is capped so that the old
# unbounded read fails here instead of taking the machine's memory (a
# sanitizer's shadow memory does not run under such a cap).
cap=
grep -q -a -e __asan_init -e __tsan_init "$BOTFIELD" 2>/dev/null || cap="ulimit -v 2000000"

# ---- lines without an end ---------------------------------------------------
# A recording of NUL bytes is not text: refused at its first line.
(eval "$cap"; head -c 100000000 /dev/zero | $tmo "$BOTFIELD" --headless --replay - \
    >"$TMPD/out" 2>"$TMPD/err")
st=$?
expect_eq "a recording of NUL bytes: exit 2" "$st" 2
grep -q "^botfield: -:1: a NUL byte at byte 1; a recording is text" "$TMPD/err"
st=$?
[ $st -ne 0 ] && note "$(head -c 400 "$TMPD/err")"
ok $st "a recording of NUL bytes: says it is not text, naming the line"

# An endless line of text: refused when it passes the longest line a
# recording can hold, without reading the rest.
(eval "$cap"; yes x | tr -d '\n' | $tmo "$BOTFIELD" --headless --replay - \
    >"$TMPD/out" 2>"$TMPD/err")
st=$?
expect_eq "an endless line as a recording: exit 2 (no hang, no memory exhausted)" "$st" 2
grep -q "^botfield: -:1: a line longer than [0-9]* bytes; at most [0-9]* are allowed" "$TMPD/err"
st=$?
[ $st -ne 0 ] && note "$(head -c 400 "$TMPD/err")"
ok $st "an endless line as a recording: says the limit"

# The same for the run lines read by --aggregate.
(eval "$cap"; yes x | tr -d '\n' | $tmo "$BOTFIELD" --aggregate - \
    >"$TMPD/out" 2>"$TMPD/err")
st=$?
expect_eq "an endless line of run lines: exit 2" "$st" 2
grep -q "^botfield: (standard input):1: a line longer than [0-9]* bytes" "$TMPD/err"
st=$?
[ $st -ne 0 ] && note "$(head -c 400 "$TMPD/err")"
ok $st "an endless line of run lines: says the limit"
(eval "$cap"; head -c 100000000 /dev/zero | $tmo "$BOTFIELD" --aggregate - \
    >"$TMPD/out" 2>"$TMPD/err")
st=$?
expect_eq "run lines of NUL bytes: exit 2" "$st" 2
grep -q "^botfield: (standard input):1: a NUL byte" "$TMPD/err"
ok $? "run lines of NUL bytes: says it is not text"

done_testing
