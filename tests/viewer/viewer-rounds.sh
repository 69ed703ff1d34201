#!/bin/sh
# A match of several rounds in the viewer: a banner and a pause at each
# round's end, the next round on Space, stepping back and seeking across a
# round's start, and a stop at the end of the last round naming the
# match's winner.
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"

start() {
    name=$1; shift
    start_limited "$name" - "$@"
}

cat >"$TMPD/m.ini" <<'EOS'
[map]
width = 800
height = 600
seed = 7
duration = 1
[match]
rounds = 3
[team.red]
random = 2
[team.blue]
random = 2
EOS
"$BOTFIELD" --headless --trace - "$TMPD/m.ini" | tail -n 1 | grep -q '"ticks":180,'
ok $? "(the headless match of 3 rounds of 60 ticks stops at tick 180)"
start v --paused "$TMPD/m.ini"
wait_for v 'tick 0 '
tm send-keys -t v Space
wait_for v 'round 1 of 3 over'
ok $? "the first round's end: a banner"
screen v | grep -q 'tick 60 '
ok $? "at tick 60, paused"
screen v | grep -q 'Space plays round 2 of 3'
ok $? "the banner says what comes next"
tm send-keys -t v Space
wait_for v 'round 2 of 3 over'
ok $? "Space plays round 2 to its end"
screen v | grep -q 'tick 120 '
ok $? "(tick 120)"
tm send-keys -t v g 3 0 Enter
wait_for v 'tick 30 '
ok $? "g 30 seeks back into round 1"
tm send-keys -t v g 6 1 Enter
wait_for v 'tick 61 '
ok $? "g 61: round 2's first tick"
tm send-keys -t v ,
wait_for v 'round 1 of 3 over'
ok $? "a step back across the round's start shows round 1's end again"
tm send-keys -t v g 1 2 0 Enter
wait_for v 'round 2 of 3 over'
ok $? "g 120 goes forward to round 2's end again"
tm send-keys -t v Space
wait_for v 'match over: 3 rounds'
ok $? "the last round's end: the match is over"
screen v | grep -q 'tick 180 '
ok $? "at tick 180, where the headless match stops"
tm send-keys -t v .
wait_for v 'the match ends at tick 180'
ok $? "a step forward is refused, said"
tm send-keys -t v q
wait_for v 'EXIT 0'
ok $? "q quits with status 0"
done_testing
