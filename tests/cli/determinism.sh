#!/bin/sh
# The same map and seed give the same trace byte for byte; another seed
# gives another trace; --seed overrides the map's.
. "$top_srcdir/tests/lib/lib.sh"
MAP="$top_srcdir/maps/default.ini"

# traced NAME ARGS...: run headless into $TMPD/NAME and assert the run
# exited 0 with a trace, so that a failed run (no trace, or an empty one)
# is never mistaken for "the bytes differ" or "the bytes match".
traced() {
    out="$TMPD/$1"; shift
    rm -f "$out"
    "$BOTFIELD" --headless --trace "$out" "$@" >/dev/null 2>"$TMPD/err"
    st=$?
    [ "$st" -eq 0 ] && [ -s "$out" ]
    r=$?
    [ "$r" -eq 0 ] || note "exit $st, trace of $(cat "$out" 2>/dev/null | wc -c) bytes" "$(cat "$TMPD/err")"
    ok "$r" "run $(basename "$out") exits 0 with a trace"
}

traced a --seconds 10 "$MAP"
traced b --seconds 10 "$MAP"
cmp -s "$TMPD/a" "$TMPD/b"
ok $? "two runs of the default map give the same bytes"
traced c --seconds 10 --seed 1 "$MAP"
cmp -s "$TMPD/a" "$TMPD/c"
ok $? "--seed 1 is the map's own seed"
traced d --seconds 10 --seed 2 "$MAP"
cmp -s "$TMPD/a" "$TMPD/d"
[ $? -ne 0 ] && [ -s "$TMPD/d" ]
ok $? "another seed gives other bytes"
for map in "$top_srcdir"/maps/*.ini; do
    name=$(basename "$map")
    traced x --seconds 5 --seed 7 "$map"
    traced y --seconds 5 --seed 7 "$map"
    cmp -s "$TMPD/x" "$TMPD/y"
    ok $? "$name: same seed, same bytes"
done
done_testing
