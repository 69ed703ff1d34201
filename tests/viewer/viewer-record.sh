#!/bin/sh
# The viewer records (--record) as it runs, in a detached tmux: ticks the
# first time they are computed (a step back and forward again writes
# nothing), a script saved live on the tick it happens; the recording,
# after q, replays headless with every checkpoint equal.  The viewer's
# --replay opens paused at tick 0, runs to the recording's end, and names
# the tick of a tampered checkpoint.
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"
WAIT_S=20

# start NAME ARGS...: a 100x30 session running botfield (tmux-lib.sh).
VIEW_W=100
VIEW_H=30
start() {
    name=$1; shift
    start_limited "$name" - "$@"
}

mkdir -p "$TMPD/duel/bots"
cp "$top_srcdir/maps/bots-duel.ini" "$TMPD/duel/"
cp "$top_srcdir/maps/bots/hunter.lua" "$TMPD/duel/bots/"
rec="$TMPD/v.rec"
start r --paused --record "$rec" "$TMPD/duel/bots-duel.ini"
wait_for r 'tick 0 '
ok $? "the viewer opens with --record"
steps r . 650
wait_for r 'tick 650 '
ok $? "650 steps: tick 650"
grep -q '"type":"checkpoint","tick":600,' "$rec"
ok $? "the checkpoint of tick 600 is on disk while the viewer runs"
# Back 100 and forward again: known ticks, nothing written.
lines=$(wc -l <"$rec")
steps r , 100
wait_for r 'tick 550 '
steps r . 100
wait_for r 'tick 650 '
expect_eq "a step back and forward again writes nothing" "$(wc -l <"$rec")" "$lines"
# A script saved live, on the frontier: written on its tick.
{ sed 's/^function tick(/function inner_tick(/' "$TMPD/duel/bots/hunter.lua"
  echo 'function tick(me, world, mem, out) mem.n = (mem.n or 0) + 1 inner_tick(me, world, mem, out) end'
} >"$TMPD/duel/new.lua"
mv "$TMPD/duel/new.lua" "$TMPD/duel/bots/hunter.lua"
wait_for r 'bots reloaded'
ok $? "an edited script reloads live"
grep -q '^{"type":"bot_source","tick":650,"path":"bots/hunter.lua",' "$rec"
ok $? "the new script is recorded on tick 650"
# botfield-bots(7): a bot_reload line for each vehicle reloaded (both
# tanks run hunter.lua), right after the bot_source line with the text.
sha=$(sha256sum "$TMPD/duel/bots/hunter.lua" | cut -c1-64)
n=$(grep -n '^{"type":"bot_source","tick":650,' "$rec" | cut -d: -f1)
expect_eq "the bot_source line is followed by one bot_reload line a tank" \
    "$(sed -n "$((n + 1)),$((n + 2))p" "$rec")" \
    "{\"type\":\"bot_reload\",\"tick\":650,\"id\":\"tank.red\",\"bot_sha256\":\"$sha\"}
{\"type\":\"bot_reload\",\"tick\":650,\"id\":\"tank.blue\",\"bot_sha256\":\"$sha\"}"
steps r . 50
wait_for r 'tick 700 '
tm send-keys -t r q
wait_for r 'EXIT 0'
ok $? "q quits with status 0"
tail -n 1 "$rec" | grep -q '^{"type":"end","tick":700,"hash":"[0-9a-f]\{16\}"}$'
ok $? "the recording ends with the end line of tick 700"

# Headless, the viewer's recording replays with every hash equal.  (The
# new script counts its ticks in mem: the end hash holds mem, so a script
# applied on another tick, or not at all, would differ.)
"$BOTFIELD" --headless --replay "$rec" --trace "$TMPD/t" 2>"$TMPD/err"
st=$?; [ $st -ne 0 ] && note "$(cat "$TMPD/err")"
expect_eq "the viewer's recording replays headless: exit 0" "$st" 0
# The same recording without its bot_reload lines (as an older botfield
# wrote it) replays too, to the same trace: the script is reloaded once,
# by its bot_source line, whether the notes are there or not.
grep -v '"type":"bot_reload"' "$rec" >"$TMPD/old.rec"
"$BOTFIELD" --headless --replay "$TMPD/old.rec" --trace "$TMPD/t-old" 2>"$TMPD/err"
st=$?; [ $st -ne 0 ] && note "$(cat "$TMPD/err")"
expect_eq "without the bot_reload lines it replays headless: exit 0" "$st" 0
cmp -s "$TMPD/t" "$TMPD/t-old"
ok $? "with or without the bot_reload lines, the same trace"
# A bot_reload that names a script the tank does not run by then: exit 2.
sed 's/^\({"type":"bot_reload","tick":650,"id":"tank.red","bot_sha256":"\)[0-9a-f]*/\1'"$(printf '%064d' 0)"'/' \
    "$rec" >"$TMPD/badsha.rec"
"$BOTFIELD" --headless --replay "$TMPD/badsha.rec" >"$TMPD/out" 2>"$TMPD/err"
st=$?
grep -q "badsha.rec:$((n + 1)): bot_reload for \"tank.red\": its bot_sha256" "$TMPD/err"
ok $(( $? + (st != 2) )) "a bot_reload with another script's SHA-256: exit 2 naming its line"
expect_eq "and nothing on standard output" "$(cat "$TMPD/out")" ""
grep -v '"tick":650,"path"' "$rec" | grep -v '"type":"bot_reload"' >"$TMPD/noreload.rec"
"$BOTFIELD" --headless --replay "$TMPD/noreload.rec" 2>"$TMPD/err"
expect_eq "without the script's line the replay differs: exit 1" "$?" 1
grep -q 'diverges at tick 700' "$TMPD/err"
ok $? "without the script's line: at the end, tick 700 (mem counted)"
"$BOTFIELD" --headless --ticks 650 --trace "$TMPD/plain" "$top_srcdir/maps/bots-duel.ini" 2>/dev/null
head -n "$(grep -n '"tick":651,' "$TMPD/t" | head -n 1 | cut -d: -f1)" "$TMPD/t" | sed '$d' \
    | grep -v '"type":"header"' >"$TMPD/t650"
sed '$d' "$TMPD/plain" | grep -v '"type":"header"' >"$TMPD/p650"
cmp -s "$TMPD/t650" "$TMPD/p650"
ok $? "up to tick 650 the replay's trace is a plain run's"

# The viewer's replay: paused at tick 0, runs to the end and says so.
start p --replay "$rec"
wait_for p 'tick 0 .*paused'
ok $? "--replay opens paused at tick 0"
steps p . 700
wait_for p 'recording ends at tick 700'
ok $? "the viewer's replay reaches the recording's end (no divergence)"
tm send-keys -t p q
wait_for p 'EXIT 0'

# A tampered checkpoint: the viewer names its tick.
sed '/"tick":600,"hash"/s/"hash":"[0-9a-f]*"/"hash":"0123456789abcdef"/' "$rec" >"$TMPD/bad.rec"
start b --replay "$TMPD/bad.rec"
wait_for b 'tick 0 '
steps b . 610
wait_for b 'replay diverges at tick 600'
ok $? "a tampered checkpoint: the viewer names tick 600"
tm send-keys -t b q
wait_for b 'EXIT 0'
# A map reloaded while recording (saved on disk: one reload, whenever
# the watch sees it): written on its tick with the new map's text; the
# replay runs the old map to there, then the new one.
start m --paused --record "$TMPD/m.rec" "$TMPD/duel/bots-duel.ini"
wait_for m 'tick 0 '
steps m . 100
wait_for m 'tick 100 '
sed 's/^seed = 4/seed = 9/' "$TMPD/duel/bots-duel.ini" >"$TMPD/duel/new.ini"
mv "$TMPD/duel/new.ini" "$TMPD/duel/bots-duel.ini"
wait_for m 'map changed on disk: reloaded' && screen m | grep -q 'tick 0 '
ok $? "the map saved on disk reloads: tick 0"
steps m . 620
wait_for m 'tick 620 '
tm send-keys -t m q
wait_for m 'EXIT 0'
grep -q '^{"type":"reload","tick":100,"seed":9,"map_text":".*seed = 9' "$TMPD/m.rec"
ok $? "the reload is recorded on tick 100 with the new map's text"
"$BOTFIELD" --headless --replay "$TMPD/m.rec" --trace "$TMPD/m.t" 2>"$TMPD/err"
st=$?; [ $st -ne 0 ] && note "$(cat "$TMPD/err")"
expect_eq "a recording with a map reload replays headless: exit 0" "$st" 0
expect_eq "its trace has the two maps' headers" "$(grep -c '"type":"header"' "$TMPD/m.t")" 2
"$BOTFIELD" --headless --ticks 620 --trace "$TMPD/m9" "$TMPD/duel/bots-duel.ini"
sed -n '/"type":"summary"/,$p' "$TMPD/m.t" | tail -n 1 >"$TMPD/m.sum"
tail -n 1 "$TMPD/m9" >"$TMPD/m9.sum"
cmp -s "$TMPD/m.sum" "$TMPD/m9.sum"
ok $? "after the reload the replay is a run of the new map (the same summary)"
# The viewer's replay swaps maps on the same tick and checks the new one.
start pm --replay "$TMPD/m.rec"
wait_for pm 'tick 0 .*paused'
steps pm . 101
wait_for pm 'tick 100: the recording reloads its map'
ok $? "the viewer's replay reloads the recorded map on tick 100"
wait_for pm 'tick 1 '
ok $? "and goes on from the new map's tick 0"
steps pm . 619
wait_for pm 'recording ends at tick 620'
ok $? "the viewer's replay of the new map reaches the end without a divergence"
tm send-keys -t pm q
wait_for pm 'EXIT 0'

# A script saved after a step back: the recording stops, and what it
# holds still replays.
start s --paused --record "$TMPD/s.rec" "$TMPD/duel/bots-duel.ini"
wait_for s 'tick 0 '
steps s . 650
wait_for s 'tick 650 '
steps s , 10
wait_for s 'tick 640 '
cp "$TMPD/duel/bots/hunter.lua" "$TMPD/duel/new.lua"
echo '-- changed' >>"$TMPD/duel/new.lua"
mv "$TMPD/duel/new.lua" "$TMPD/duel/bots/hunter.lua"
wait_for s 'recording stopped at tick 650'
ok $? "a script saved after a step back stops the recording (said)"
tm send-keys -t s q
wait_for s 'EXIT 0'
! grep -q '"type":"end"' "$TMPD/s.rec"
ok $? "the stopped recording has no end line"
"$BOTFIELD" --headless --replay "$TMPD/s.rec" 2>"$TMPD/err"
expect_eq "the stopped recording replays to its last line: exit 0" "$?" 0
# The terminal gone (a dropped SSH link: SIGHUP): the recording is
# closed with its end line and replays.
start h --paused --record "$TMPD/h.rec" "$TMPD/duel/bots-duel.ini"
wait_for h 'tick 0 '
steps h . 30
wait_for h 'tick 30 '
tm kill-session -t h
# Up to 30 s: under ThreadSanitizer the viewer's exit (its history freed,
# the recording flushed) has taken more than 5 s on a loaded machine.
i=0
while [ $i -lt 300 ] && ! grep -q '"type":"end"' "$TMPD/h.rec"; do sleep 0.1; i=$((i + 1)); done
tail -n 1 "$TMPD/h.rec" | grep -q '^{"type":"end","tick":30,'
ok $? "SIGHUP: the recording ends with the end line of tick 30"
"$BOTFIELD" --headless --replay "$TMPD/h.rec" 2>"$TMPD/err"
expect_eq "SIGHUP: the recording replays: exit 0" "$?" 0
done_testing
