#!/bin/sh
# What a file can make botfield allocate is a small multiple of the file:
# a recording line or a run line is checked for what its format never
# holds (nesting, arrays, more keys than a line has, more bytes than its
# type can hold) before jansson builds it, whose tree would cost some 50
# bytes a value however short the value ("0," is two bytes: a 100 MB line
# took 2 GB).  Each hostile file is refused with exit 2 and its message,
# under an address-space cap of 400 MB (the lines themselves are 100 MB).
# Then --aggregate of many teams and groups, guarded by a timeout against
# a hang (the old lookups were quadratic), gives the teams in order.
. "$top_srcdir/tests/lib/lib.sh"
tmo=
command -v timeout >/dev/null 2>&1 && tmo="timeout 300"
# A sanitizer's shadow memory does not run under such a cap.
cap=
grep -q -a -e __asan_init -e __tsan_init "$BOTFIELD" 2>/dev/null || cap="ulimit -v 400000"

zeros() {      # zeros N: "0,0,...,0" (N zeros)
    yes 0, | head -n "$(($1 - 1))" | tr -d '\n'
    printf 0
}

# refused WHAT PATTERN GEN CMD...: the output of the shell function GEN
# into CMD under the cap: exit 2 and a message matching PATTERN.
refused() {
    what=$1 pat=$2 gen=$3
    shift 3
    (eval "$cap"; $gen | $tmo "$@" >"$TMPD/out" 2>"$TMPD/err")
    st=$?
    expect_eq "$what: exit 2 (no crash, memory bounded)" "$st" 2
    grep -q -e "$pat" "$TMPD/err"
    st=$?
    [ $st -ne 0 ] && note "$(head -c 400 "$TMPD/err")"
    ok $st "$what: says $pat"
}

# ---- recordings -------------------------------------------------------------
gen() { printf '{"type":"recording","format":1,"x":['; zeros 50000000; printf ']}\n'; }
refused "a recording header holding a 100 MB array" \
    "^botfield: -:1: the header's list at byte 36 holds a value that is not a string" \
    gen "$BOTFIELD" --headless --replay -
gen() { awk 'BEGIN { printf "{"; for (i = 0; i < 5000000; i++) printf "%s\"k%d\":0", i ? "," : "", i; print "}" }'; }
refused "a recording line of 5,000,000 keys" \
    '^botfield: -:1: a line of 5000000 keys; a recording line has at most 8' \
    gen "$BOTFIELD" --headless --replay -
# A line within the longest (a map's) but longer than its own type holds.
"$BOTFIELD" --headless --ticks 5 --record "$TMPD/run.rec" >/dev/null
gen() { head -n 1 "$TMPD/run.rec"
  printf '{"type":"input","tick":1,"id":"'; head -c 200000 /dev/zero | tr '\0' x
  printf '","turn":0,"speed":0,"turret":0,"fire":false}\n'; }
refused "an input line of 200 kB" \
    '^botfield: -:2: this input line is 200076 bytes; at most 131072 are allowed' \
    gen "$BOTFIELD" --headless --replay -
"$BOTFIELD" --headless --replay "$TMPD/run.rec" >/dev/null 2>"$TMPD/err"
expect_eq "the recording as written still replays" "$?" 0

# ---- run lines (--aggregate) ---------------------------------------------------
gen() { printf '{"type":"run","seed":1,"set":{},"x":['; zeros 50000000; printf ']}\n'; }
refused "a run line holding a 100 MB array" \
    "^botfield: (standard input):1: an array at byte 37; a run line's values are" \
    gen "$BOTFIELD" --aggregate -
gen() { printf '{"type":"run","seed":1,"set":{"a":{"b":{"c":"d"}}}}\n'; }
refused "a run line nested three deep" \
    "^botfield: (standard input):1: an object in an object's object at byte 35" \
    gen "$BOTFIELD" --aggregate -

# ---- maps ------------------------------------------------------------------------
# A map's line is read only to be refused (the map's bound was already a
# small multiple: checked here so that it stays one).
gen() { printf '[map]\nwidth = 100\n'; head -c 60000000 /dev/zero | tr '\0' x; echo; }
refused "a map with a 60 MB line" \
    '^/dev/stdin:3: \[map\]: line of 60000000 bytes: a line may be at most 1024 bytes' \
    gen "$BOTFIELD" --check /dev/stdin

# ---- many teams and groups --------------------------------------------------------
# 20 runs of 10,000 teams each took 9.7 s when each team was looked for
# in a list; the timeout only guards against a hang.
awk 'BEGIN { for (r = 0; r < 20; r++) {
        printf "{\"type\":\"run\",\"seed\":%d,\"set\":{},\"ticks\":1,\"seconds\":1,\"collisions\":0,\"shots\":0,\"hits\":0,\"knockouts\":{", r
        for (t = 0; t < 10000; t++) printf "%s\"t%d\":%d", t ? "," : "", (t * 7 + r * 13) % 10000, t % 3
        printf "},\"best_lap\":{},\"winner\":\"t%d\"}\n", (r * 37) % 10000 } }' >"$TMPD/teams.jsonl"
$tmo "$BOTFIELD" --aggregate --csv "$TMPD/teams.csv" "$TMPD/teams.jsonl" >"$TMPD/out" 2>"$TMPD/err"
expect_eq "20 runs of 10,000 teams: exit 0" "$?" 0
tail -n 1 "$TMPD/out" | grep -o '"t[0-9]*":{"n"' | head -n 3 | tr '\n' ' ' >"$TMPD/first"
expect_eq "the teams in the order they first appear" "$(cat "$TMPD/first")" '"t0":{"n" "t7":{"n" "t14":{"n" '
# (in "wins": the aggregate's "scores" lists every team again)
expect_eq "every team counted once" "$(tail -n 1 "$TMPD/out" | sed 's/.*"wins":\(.*\),"draws":.*/\1/' | grep -o '"t[0-9]*":{"n"' | wc -l | tr -d ' ')" 10000
expect_eq "the CSV: a column a team (and seed, 5 counts, winner, failed)" \
    "$(head -n 1 "$TMPD/teams.csv" | tr ',' '\n' | wc -l | tr -d ' ')" 10008
# 20,000 groups of two seeds each.
awk 'BEGIN { for (r = 0; r < 40000; r++)
        printf "{\"type\":\"run\",\"seed\":%d,\"set\":{\"g\":\"%d\"},\"ticks\":1,\"seconds\":1,\"collisions\":0,\"shots\":0,\"hits\":0,\"knockouts\":{\"a\":1},\"best_lap\":{},\"winner\":null}\n", int(r / 20000), r % 20000 }' \
    >"$TMPD/groups.jsonl"
$tmo "$BOTFIELD" --aggregate "$TMPD/groups.jsonl" >"$TMPD/out" 2>"$TMPD/err"
expect_eq "20,000 groups: exit 0" "$?" 0
expect_eq "20,000 groups: an aggregate each" "$(grep -c '"type":"aggregate"' "$TMPD/out")" 20000

done_testing
