#!/bin/sh
# Bots are deterministic: a script that iterates string keys with pairs
# and draws math.random gives the same trace byte for byte on two runs
# with one seed, and another trace with another seed; pairs visits
# string keys in byte order.
. "$top_srcdir/tests/lib/lib.sh"
MAP="$top_srcdir/tests/maps/bots/keys-and-dice.ini"

run() {     # run SEED OUT
    "$BOTFIELD" --headless --ticks 600 --seed "$1" --trace "$2" "$MAP"
}
run 5 "$TMPD/a"
ok $? "a run with seed 5"
run 5 "$TMPD/b"
ok $? "a second run with seed 5"
cmp -s "$TMPD/a" "$TMPD/b"
ok $? "the two traces are the same byte for byte"
run 6 "$TMPD/c"
cmp -s "$TMPD/a" "$TMPD/c"
[ $? -eq 1 ]
ok $? "seed 6 gives another trace"

# the test means something: the bot ran, logged, and did not fail
logs=$(grep -c '"type":"log"' "$TMPD/a")
expect_eq "log lines (every 20th tick of 600, two bots)" "$logs" 60
errors=$(grep -c '"type":"bot_error"' "$TMPD/a")
expect_eq "no bot_error" "$errors" 0
# the logs differ between seeds (the dice drive them)
grep '"type":"log"' "$TMPD/a" > "$TMPD/la"
grep '"type":"log"' "$TMPD/c" > "$TMPD/lc"
cmp -s "$TMPD/la" "$TMPD/lc"
[ $? -eq 1 ]
ok $? "the logged key orders differ between seeds"

# pairs visits string keys in byte order: every logged list is sorted
unsorted=0
sed -n 's/.*"text":"\([^"]*\)".*/\1/p' "$TMPD/a" > "$TMPD/texts"
while read -r line; do
    sorted=$(printf '%s\n' $line | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')
    [ "$sorted" = "$line" ] || { unsorted=$((unsorted + 1)); note "unsorted: $line"; }
done < "$TMPD/texts"
expect_eq "pairs lists string keys in byte order" "$unsorted" 0
lines=$(wc -l < "$TMPD/texts")
[ "$lines" -eq 60 ]
ok $? "all 60 key lists were checked"

# the header names the Lua version; the entity lines the bot and its hash
grep -q '"type":"header".*"lua":"Lua 5\.4' "$TMPD/a"
ok $? "the header records the Lua version"
sha=$(sha256sum "$top_srcdir/tests/maps/bots/keys-and-dice.lua" | cut -d' ' -f1)
n=$(grep '"type":"entity"' "$TMPD/a" | grep '"bot":"keys-and-dice.lua"' | grep -c "\"bot_sha256\":\"$sha\"")
expect_eq "both entity lines carry bot and bot_sha256" "$n" 2
done_testing
