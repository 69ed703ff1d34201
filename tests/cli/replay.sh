#!/bin/sh
# Recordings (--record) and self-checking replays (--replay), headless:
# every bundled map recorded then replayed gives the same trace byte for
# byte; the replay does not read the map or its scripts from disk; a
# tampered checkpoint is caught and named; a recording cut in the middle
# of a line replays up to its last whole line.
. "$top_srcdir/tests/lib/lib.sh"

# Every bundled map, bots maps included (their scripts beside them).
cp -R "$top_srcdir/maps" "$TMPD/maps"
chmod -R u+w "$TMPD/maps"
for map in "$TMPD"/maps/*.ini; do
    name=$(basename "$map" .ini)
    "$BOTFIELD" --headless --seconds 30 --record "$TMPD/$name.rec" \
        --trace "$TMPD/$name.a" "$map" 2>"$TMPD/err"
    expect_eq "$name: the recorded run exits 0" "$?" 0
    "$BOTFIELD" --headless --replay "$TMPD/$name.rec" --trace "$TMPD/$name.b" 2>"$TMPD/err"
    st=$?
    [ $st -ne 0 ] && note "$(cat "$TMPD/err")"
    expect_eq "$name: the replay exits 0" "$st" 0
    cmp -s "$TMPD/$name.a" "$TMPD/$name.b"
    ok $? "$name: the replay's trace is the recorded run's, byte for byte"
done
# A recording changes nothing in the run: its trace is a plain run's.
"$BOTFIELD" --headless --seconds 30 --trace "$TMPD/plain" "$TMPD/maps/bots-duel.ini"
cmp -s "$TMPD/plain" "$TMPD/bots-duel.a"
ok $? "a recorded run's trace is the plain run's"

# The lines: a header first, scripts, a checkpoint every 600 ticks, an end.
r="$TMPD/bots-duel.rec"
head -n 1 "$r" | grep -q '^{"type":"recording","format":1,"version":"[^"]*","lua":"Lua 5\.4[^"]*","seed":4,"map_path":"[^"]*bots-duel.ini","map_text":"'
ok $? "the first line is the header with the map's text"
expect_eq "one bot_source line for the one script both tanks run" \
    "$(grep -c '^{"type":"bot_source","path":"bots/hunter.lua","sha256":"[0-9a-f]\{64\}","text":"' "$r")" 1
expect_eq "checkpoints at 600, 1200, 1800" \
    "$(grep -o '"type":"checkpoint","tick":[0-9]*' "$r" | sed 's/.*://' | tr '\n' ' ')" "600 1200 1800 "
tail -n 1 "$r" | grep -q '^{"type":"end","tick":1800,"hash":"[0-9a-f]\{16\}"}$'
ok $? "the last line is the end, with its hash"

# The recording holds the map and scripts: changed on disk, it replays
# the same (the bots run what was recorded, not what is there now).
cp "$TMPD/maps/bots-duel.ini" "$TMPD/duel.ini.orig"
sed -i 's/^seed = 4/seed = 5/' "$TMPD/maps/bots-duel.ini"
printf 'function tick(me, world, mem, out) out.speed = 0 end\n' >"$TMPD/maps/bots/hunter.lua"
"$BOTFIELD" --headless --replay "$r" --trace "$TMPD/changed" 2>"$TMPD/err"
expect_eq "after the map and the script changed on disk: exit 0" "$?" 0
cmp -s "$TMPD/bots-duel.a" "$TMPD/changed"
ok $? "after the map and the script changed on disk: the same trace"
rm -rf "$TMPD/maps/bots"
"$BOTFIELD" --headless --replay "$r" --trace "$TMPD/gone" 2>"$TMPD/err"
cmp -s "$TMPD/bots-duel.a" "$TMPD/gone"
ok $? "with the scripts' folder gone: the same trace"

# A tampered checkpoint: exit 1 naming its tick.
sed '/"tick":1200,"hash"/s/"hash":"[0-9a-f]*"/"hash":"0123456789abcdef"/' "$r" >"$TMPD/tampered.rec"
"$BOTFIELD" --headless --replay "$TMPD/tampered.rec" --trace "$TMPD/t" 2>"$TMPD/err"
expect_eq "a tampered checkpoint: exit 1" "$?" 1
grep -q '^botfield: replay diverges at tick 1200 (' "$TMPD/err"
ok $? "a tampered checkpoint: the message names tick 1200"
note "$(cat "$TMPD/err")"
grep -q '"tick":1199,' "$TMPD/t" && ! grep -q '"tick":1201,' "$TMPD/t"
ok $? "a tampered checkpoint: the trace stops there"
# Another version of botfield recorded it: said too.
sed '1s/"version":"[^"]*"/"version":"0.0.1"/' "$TMPD/tampered.rec" >"$TMPD/old.rec"
"$BOTFIELD" --headless --replay "$TMPD/old.rec" 2>"$TMPD/err"
expect_eq "another version's recording that differs: exit 1" "$?" 1
grep -q 'replay diverges at tick 1200 (recorded with botfield 0.0.1 / Lua 5.4[^,]*, this is botfield ' "$TMPD/err"
ok $? "another version's recording that differs: both versions named"
# The state an end line checks, changed: caught as well.
sed '$s/"hash":"[0-9a-f]*"/"hash":"ffffffffffffffff"/' "$r" >"$TMPD/end.rec"
"$BOTFIELD" --headless --replay "$TMPD/end.rec" 2>"$TMPD/err"
expect_eq "a tampered end hash: exit 1" "$?" 1
grep -q 'diverges at tick 1800' "$TMPD/err"
ok $? "a tampered end hash: names tick 1800"

# Cut in the middle of a line (a crash, a dropped link): the whole lines
# replay, a warning names the cut one, and the trace is a run's up to the
# last whole line's tick.
# (Cut in line 3, the checkpoint of tick 1200: the run goes to 600.)
d="$TMPD/default.rec"
n=3
size=$(head -n $((n - 1)) "$d" | wc -c)
head -c $((size + 20)) "$d" >"$TMPD/cut.rec"
last=$(head -n $((n - 1)) "$d" | tail -n 1 | sed 's/.*"tick":\([0-9]*\).*/\1/')
expect_eq "the last whole line is the checkpoint of tick 600" "$last" 600
"$BOTFIELD" --headless --replay "$TMPD/cut.rec" --trace "$TMPD/cut" 2>"$TMPD/err"
expect_eq "a recording cut mid-line: exit 0" "$?" 0
grep -q "cut.rec:$n: warning: the last line is cut short" "$TMPD/err"
ok $? "a recording cut mid-line: a warning names line $n"
"$BOTFIELD" --headless --ticks "$last" --trace "$TMPD/prefix" "$TMPD/maps/default.ini"
cmp -s "$TMPD/cut" "$TMPD/prefix"
ok $? "a recording cut mid-line: the trace of a run of $last ticks"
# Cut inside the header: nothing to replay, exit 2.
head -c 100 "$d" >"$TMPD/cut1.rec"
"$BOTFIELD" --headless --replay "$TMPD/cut1.rec" 2>"$TMPD/err"
expect_eq "a recording cut inside its header: exit 2" "$?" 2

# The built-in map records and replays too (map_path "").
"$BOTFIELD" --headless --ticks 700 --record "$TMPD/builtin.rec" --trace "$TMPD/bi.a"
"$BOTFIELD" --headless --replay "$TMPD/builtin.rec" --trace "$TMPD/bi.b"
cmp -s "$TMPD/bi.a" "$TMPD/bi.b"
ok $? "the built-in map: the same trace"
grep -q '"map_path":""' "$TMPD/builtin.rec"
ok $? "the built-in map is recorded with map_path \"\""

# A seed given on the command line is the one recorded.
"$BOTFIELD" --headless --ticks 100 --seed 18446744073709551615 --record "$TMPD/seed.rec" \
    --trace "$TMPD/s.a" "$TMPD/maps/crowd.ini"
"$BOTFIELD" --headless --replay "$TMPD/seed.rec" --trace "$TMPD/s.b"
cmp -s "$TMPD/s.a" "$TMPD/s.b"
ok $? "--seed past 2^63: recorded (as a string) and replayed"
done_testing
