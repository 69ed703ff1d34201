#!/bin/sh
# Every kind of bad map the man page promises to refuse: --check exits 2, prints nothing on
# standard output, and its message names the file, line, section and key as
# the fixture's first line ("; expect: ...") says.
. "$top_srcdir/tests/lib/lib.sh"
cd "$top_srcdir/tests/maps/bad" || exit 1

for map in *.ini; do
    want=$(head -n 1 "$map" | sed -n 's/^; expect: //p')
    "$BOTFIELD" --check "$map" >"$TMPD/out" 2>"$TMPD/err"
    status=$?
    expect_eq "$map: exit status 2" "$status" 2
    expect_eq "$map: nothing on standard output" "$(cat "$TMPD/out")" ""
    if [ -n "$want" ] && grep -qF -- "$want" "$TMPD/err"; then
        ok 0 "$map: message names the place and the problem"
    else
        note "want: $want" "got:" "$(cat "$TMPD/err")"
        ok 1 "$map: message names the place and the problem"
    fi
done

# Errors that a fixture file cannot hold.
"$BOTFIELD" --check "$TMPD/no-such-map.ini" 2>"$TMPD/err"
expect_eq "missing file: exit status 2" "$?" 2
grep -q "no-such-map.ini: cannot open the map: No such file or directory" "$TMPD/err"
ok $? "missing file: message names the file and the reason"

"$BOTFIELD" --check "$TMPD" 2>"$TMPD/err"
expect_eq "a directory: exit status 2" "$?" 2
grep -q "is a directory" "$TMPD/err"
ok $? "a directory: says so"

printf '[map]\nwidth = 10\0\nheight = 10\n' >"$TMPD/nul.ini"
"$BOTFIELD" --check "$TMPD/nul.ini" 2>"$TMPD/err"
expect_eq "NUL bytes: exit status 2" "$?" 2
grep -q "nul.ini: not a text file" "$TMPD/err"
ok $? "NUL bytes: says it is not a text file"

head -c 3000 /dev/urandom | tr -d '\000' >"$TMPD/random.ini"
"$BOTFIELD" --check "$TMPD/random.ini" 2>"$TMPD/err"
expect_eq "random bytes: exit status 2" "$?" 2

# A FIFO where the map should be: the viewer refuses it at once instead of
# waiting in open() for a writer (--check still reads a pipe: limits.sh).
if mkfifo "$TMPD/fifo.ini" 2>/dev/null; then
    timeout 10 "$BOTFIELD" "$TMPD/fifo.ini" </dev/null >"$TMPD/out" 2>"$TMPD/err"
    expect_eq "a FIFO as the viewer's map: exit status 2, no hang" "$?" 2
    grep -q "fifo.ini: is not a regular file (a FIFO, device or socket)" "$TMPD/err"
    ok $? "a FIFO as the viewer's map: says it is not a regular file"
else
    ok 1 "mkfifo works here"
fi

# A path of over 500 bytes keeps file, line, section and key.
long="$TMPD"
for i in 1 2 3 4 5 6; do
    long="$long/dir-$i-of-a-deep-tree-of-directories-with-long-names-to-pass-five-hundred-bytes-$i"
done
mkdir -p "$long"
cp undeclared-team.ini "$long/"
"$BOTFIELD" --check "$long/undeclared-team.ini" 2>"$TMPD/err"
expect_eq "a ${#long}-byte directory: exit status 2" "$?" 2
grep -qF "$long/undeclared-team.ini:7: [tank.1] team = green: no such team" "$TMPD/err"
ok $? "a ${#long}-byte directory: the message keeps file, line, section and key"

# Several problems are reported together.
printf '[map]\nwidth = x\nheight = -1\n[tank.1]\nspeeed = 1\n' >"$TMPD/many.ini"
"$BOTFIELD" --check "$TMPD/many.ini" 2>"$TMPD/err"
n=$(grep -c "many.ini:" "$TMPD/err")
[ "$n" -ge 4 ]
ok $? "every problem is listed (got $n lines)"

done_testing
