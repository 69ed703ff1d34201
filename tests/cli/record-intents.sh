#!/bin/sh
# Recordings with intents (an arena's matches, botfield-arena(7)): a run
# recorded with intent lines, filtered for one person (alice) with
# arena_private_keep(), keeps no line of the other person's script and
# still replays exactly: bob's tanks driven by their recorded intents,
# the trace the recorded run's less bob's private lines, every
# checkpoint's "world" checked; a tampered intent is a divergence.
. "$top_srcdir/tests/lib/lib.sh"

DRIVER="$top_builddir/tests/lib/record-intents"
d="$TMPD/arena"
mkdir -p "$d/bots/alice" "$d/bots/bob"
cp "$top_srcdir/maps/bots/pair.lua" "$d/bots/alice/pair.lua"
# bob's copy carries a line nobody else may read, and logs each tick (a
# private line of his in the trace)
{ cat "$top_srcdir/maps/bots/pair.lua"
  echo "-- bob's secret: 7f3a9c"
  echo 'local t0 = tick; function tick(me, world, mem, out) t0(me, world, mem, out);'\
' if world.tick % 100 == 0 then log("bob " .. world.tick) end end'
} > "$d/bots/bob/pair.lua"
sed -e 's|^bot = bots/pair.lua|bot = bots/alice/pair.lua|' \
    -e 's|^\[team.blue\]|[team.blue]\nbot = bots/bob/pair.lua|' \
    "$top_srcdir/maps/bots-pair.ini" > "$d/match.ini"
grep -q 'bots/bob/pair.lua' "$d/match.ini"
ok $? "the map's blue team runs bob's copy"

"$DRIVER" record "$d/match.ini" 1500 "$TMPD/full.rec" "$TMPD/full.trace" 2>"$TMPD/err"
st=$?; [ $st -ne 0 ] && note "$(cat "$TMPD/err")"
expect_eq "the run recorded with intents exits 0" "$st" 0
n=$(grep -c '^{"type":"intent","tick":[0-9]*,"id":"tank\.[rb][12]","turn":' "$TMPD/full.rec")
[ "$n" -gt 4 ]
ok $? "intent lines are written ($n)"
expect_eq "on tick 1 (the first step), one for each of the four bot tanks" \
    "$(grep -c '^{"type":"intent","tick":1,' "$TMPD/full.rec")" 4
grep -q '"say":"[0-9a-f]\{2,\}"' "$TMPD/full.rec"
ok $? "what a tank said is in its intents"
expect_eq "every checkpoint and the end carry \"world\"" \
    "$(grep -c '^{"type":"\(checkpoint\|end\)","tick":[0-9]*,"hash":"[0-9a-f]\{16\}","world":"[0-9a-f]\{16\}"}$' "$TMPD/full.rec")" 3
grep -q "7f3a9c" "$TMPD/full.rec"
ok $? "the full recording holds bob's script"
grep -q '"type":"log","tick":[0-9]*,"id":"tank.b1"' "$TMPD/full.trace"
ok $? "the recorded run's trace has bob's log lines"

# The full recording replays as any recording: the trace byte for byte.
"$BOTFIELD" --headless --replay "$TMPD/full.rec" --trace "$TMPD/full.b" 2>"$TMPD/err"
st=$?; [ $st -ne 0 ] && note "$(cat "$TMPD/err")"
expect_eq "the full recording replays: exit 0" "$st" 0
cmp -s "$TMPD/full.trace" "$TMPD/full.b"
ok $? "the full recording's replay: the same trace, byte for byte"

"$DRIVER" filter alice "$TMPD/full.rec" "$TMPD/alice.rec"
expect_eq "the filter exits 0" "$?" 0
grep -q "7f3a9c" "$TMPD/alice.rec"
expect_eq "alice's copy holds nothing of bob's script" "$?" 1
expect_eq "alice's copy holds her own script" \
    "$(grep -c '^{"type":"bot_source","path":"bots/alice/pair.lua"' "$TMPD/alice.rec")" 1

"$BOTFIELD" --headless --replay "$TMPD/alice.rec" --trace "$TMPD/alice.trace" 2>"$TMPD/err"
st=$?; [ $st -ne 0 ] && note "$(cat "$TMPD/err")"
expect_eq "alice's copy replays without bob's script: exit 0" "$st" 0
# What differs (botfield(6), RECORDINGS): bob's tanks' bot_sha256 in the
# entity lines is "", and their bot_error and log lines are not there.
strip() {
    sed -e 's/"bot_sha256":"[0-9a-f]*"/"bot_sha256":""/' "$1" \
        | grep -v '^{"type":"\(log\|bot_error\)","tick":[0-9]*,"id":"tank\.b[12]"'
}
strip "$TMPD/full.trace" > "$TMPD/full.s"
sed -e 's/"bot_sha256":"[0-9a-f]*"/"bot_sha256":""/' "$TMPD/alice.trace" > "$TMPD/alice.s"
cmp -s "$TMPD/full.s" "$TMPD/alice.s"
ok $? "its trace is the recorded run's less bob's log lines and scripts' SHA-256"
[ "$(wc -l < "$TMPD/alice.trace")" -gt 1000 ]
ok $? "(a trace of the whole run: $(wc -l < "$TMPD/alice.trace") lines)"
grep -q '"bot_sha256":"[0-9a-f]\{64\}"' "$TMPD/alice.trace" \
    && grep -q '"id":"tank.b1".*"bot_sha256":""' "$TMPD/alice.trace"
ok $? "alice's tanks name their script's SHA-256, bob's name none"

# A tampered intent of bob's: the replay diverges at the next checkpoint.
awk '/^{"type":"intent","tick":[0-9]*,"id":"tank.b1"/ && !done && ++n == 3 {
         sub(/"speed":[-0-9.e]*/, "\"speed\":0"); sub(/"turn":[-0-9.e]*/, "\"turn\":90"); done = 1 }
     { print }' "$TMPD/alice.rec" > "$TMPD/bad.rec"
cmp -s "$TMPD/alice.rec" "$TMPD/bad.rec"
expect_eq "(one intent line changed)" "$?" 1
"$BOTFIELD" --headless --replay "$TMPD/bad.rec" --trace "$TMPD/bad.trace" 2>"$TMPD/err"
expect_eq "a tampered intent: exit 1" "$?" 1
grep -q "replay diverges at tick 600" "$TMPD/err"
ok $? "a tampered intent: the divergence named at tick 600 ($(cat "$TMPD/err"))"

# Without intents or a script, a bot is an error as ever (exit 2).
grep -v '^{"type":"intent"' "$TMPD/alice.rec" | sed 's/,"world":"[0-9a-f]*"//' > "$TMPD/none.rec"
"$BOTFIELD" --headless --replay "$TMPD/none.rec" 2>"$TMPD/err"
expect_eq "no script and no intents: exit 2" "$?" 2
grep -q "no bot_source for it" "$TMPD/err"
ok $? "no script and no intents: said ($(head -c 200 "$TMPD/err"))"

# A bad intent line is refused before the run, with its line and key.
sed '0,/^{"type":"intent"/s/"fire":\(true\|false\)/"fire":1/' "$TMPD/alice.rec" > "$TMPD/fire.rec"
"$BOTFIELD" --headless --replay "$TMPD/fire.rec" 2>"$TMPD/err"
expect_eq "an intent's fire that is not a boolean: exit 2" "$?" 2
grep -q ':[0-9]*: intent "fire" is not true or false' "$TMPD/err"
ok $? "... its line named ($(cat "$TMPD/err"))"
sed '0,/^{"type":"intent"/s/"say":"[0-9a-f]*"/"say":"abc"/' "$TMPD/alice.rec" > "$TMPD/say.rec"
"$BOTFIELD" --headless --replay "$TMPD/say.rec" 2>"$TMPD/err"
expect_eq "an intent's say that is not hex bytes: exit 2" "$?" 2
sed '0,/^{"type":"intent"/s/"say":"[0-9a-f]*"/"say":"00ff00ff"/' "$TMPD/alice.rec" > "$TMPD/say2.rec"
"$BOTFIELD" --headless --replay "$TMPD/say2.rec" 2>"$TMPD/err"
expect_eq "an intent's say that no bot could say: exit 2" "$?" 2
grep -q "its say is not a value" "$TMPD/err"
ok $? "... said ($(cat "$TMPD/err"))"
sed '0,/^{"type":"intent"/s/"id":"tank\.[rb][12]"/"id":"tank.nobody"/' "$TMPD/alice.rec" > "$TMPD/id.rec"
"$BOTFIELD" --headless --replay "$TMPD/id.rec" 2>"$TMPD/err"
expect_eq "an intent for no vehicle: exit 2" "$?" 2
sed 's/,"world":"[0-9a-f]*"//' "$TMPD/alice.rec" > "$TMPD/noworld.rec"
"$BOTFIELD" --headless --replay "$TMPD/noworld.rec" 2>"$TMPD/err"
expect_eq "intents without \"world\" on the checkpoints: exit 2" "$?" 2

done_testing
