#!/bin/sh
# --replay --follow: a recording fed slowly through a FIFO.  The viewer
# opens at the live end and its tick advances as lines arrive (the
# stream's "now" lines say which ticks are known); pausing and stepping
# back work on its own copy while the recording grows; End goes live
# again; a checkpoint that arrives later still verifies; the end line
# ends it, and the next recording on the stream follows, a new world.  A bad line stops following with its line and the problem.
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"
MAP="$top_srcdir/maps/bots-duel.ini"
REC="$TMPD/duel.rec"
FIFO="$TMPD/feed"
# A viewer that dies must fail the test's checks, not kill the test with
# SIGPIPE at its next write to the FIFO.
trap '' PIPE

"$BOTFIELD" --headless --ticks 1800 --seed 3 --record "$REC" "$MAP" >/dev/null
ok $? "a headless run of bots-duel (a bot's script embedded), recorded"
REC2="$TMPD/duel2.rec"
"$BOTFIELD" --headless --ticks 600 --seed 4 --record "$REC2" "$MAP" >/dev/null
ok $? "and another, to follow it on the same stream"
mkfifo "$FIFO"
ok $? "a FIFO to feed it through"

start_session v 100 30 "$BOTFIELD --replay $FIFO --follow"
exec 3>"$FIFO"
now() { printf '{"type":"now","tick":%s}\n' "$1" >&3; }
# the header and the bot's script, then ticks as they become known
sed -n 1,2p "$REC" >&3
now 100
seen '^ tick 100 .*live'
ok $? "it opens at the live end: tick 100, the newest known"
now 300
seen '^ tick 300 .*live'
ok $? "a now line of tick 300 arrives: the viewer follows to tick 300"
tm send-keys -t v Space
seen '^ tick 300 .*paused'
ok $? "Space pauses the viewer's copy"
now 500
sleep 0.5
seen '^ tick 300 .*paused' 2
ok $? "paused, it stays at tick 300 while the recording grows to 500"
tm send-keys -t v ,
seen '^ tick 299 .*paused'
ok $? ", steps back to tick 299"
tm send-keys -t v End
seen '^ tick 500 .*live'
ok $? "End goes live again: tick 500"
sed -n 3p "$REC" >&3        # the checkpoint of tick 600
now 700
seen '^ tick 700 .*live'
ok $? "past tick 600's checkpoint, which arrived after tick 500, to tick 700"
screen_read v | grep -q 'diverges'
ok $((! $?)) "and the checkpoint verified (no divergence said)"
sed -n '4,$p' "$REC" >&3    # the rest, up to the end line
seen '^ tick 1800 '
ok $? "the rest and its end line: the viewer reaches tick 1800"
seen 'the next live match follows'
ok $? "at the end, live, it says the next recording follows"
# a second recording on the same stream: a new world
sed -n 1,2p "$REC2" >&3
now 200
seen '^ tick 200 .*live'
ok $? "the stream's next recording opens at its live end (tick 200)"
exec 3>&-
tm send-keys -t v q
tm kill-session -t v 2>/dev/null

# A line that is no recording's: following stops there and says why.
# A FIFO of its own: the first viewer may still hold the old one open
# while it quits, and a write meant for this one would go to it.
FIFO="$TMPD/feed-b"
mkfifo "$FIFO"
start_session b 100 30 "$BOTFIELD --replay $FIFO --follow"
exec 3>"$FIFO"
sed -n 1,2p "$REC" >&3
now 50
seen_b() { wait_for b "$1" "${2:-10}"; }
seen_b '^ tick 50 '
ok $? "a second stream opens at tick 50"
printf '{"type":"nope","tick":60}\n' >&3
seen_b 'unknown type "nope".*following stops'
ok $? "an unknown line type stops following with its line and the problem"
exec 3>&-
tm send-keys -t b q

# An arena's recording as another person gets it: no script, every tank
# driven by its intents, whole in a file.  The intents read when it
# opens drive the tanks from tick 1 (they were handed over only when more
# arrived: every checkpoint diverged).
DRIVER="$top_builddir/tests/lib/record-intents"
"$DRIVER" record "$MAP" 1200 "$TMPD/arena.rec" "$TMPD/arena.trace" &&
    "$DRIVER" filter nobody "$TMPD/arena.rec" "$TMPD/theirs.rec"
ok $? "a run of bots-duel recorded with intents, its scripts left out"
grep -q '"type":"bot_source"' "$TMPD/theirs.rec"
ok $((! $?)) "... (no script in it)"
start_session c 100 30 "$BOTFIELD --replay $TMPD/theirs.rec --follow"
wait_for c '^ tick 1200 ' 20
ok $? "followed, the tanks driven by their intents reach the end, tick 1200"
screen_read c | grep -q 'diverges'
ok $((! $?)) "... every checkpoint verified (no divergence said)"
tm send-keys -t c q
done_testing
