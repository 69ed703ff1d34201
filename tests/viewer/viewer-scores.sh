#!/bin/sh
# The scores in the viewer at 80x24: each team's score in the bottom line
# (it changes with a hit), the selected vehicle's damage, kills, survival
# and score in the inspector, and a run that reaches its duration with
# both teams alive won on score (or a draw) in the banner.
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"

# Two tanks of five hits each, red's first shell lands on blue at tick
# 50 (a fixed seed): the run stops at 2 s (tick 120) with both alive.
cat >"$TMPD/score.ini" <<'EOF'
[map]
name = sc
width = 1000
height = 300
seed = 1
duration = 2
[team.red]
color = red
[team.blue]
color = blue
[tank.a]
team = red
x = 300
y = 150
heading = 0
health = 5
[tank.b]
team = blue
x = 600
y = 150
heading = 0
health = 5
EOF
"$BOTFIELD" --headless --trace - "$TMPD/score.ini" | tail -n 1 |
    grep -q '"winner":"red","won_by":"score",.*"scores":{"red":10,"blue":0}'
ok $? "(headless: red wins on score, 10 to 0)"

start_limited s - --paused "$TMPD/score.ini"
wait_for s 'tick 0 '
tm send-keys -t s g 4 9 Enter
wait_for s 'tick 49 '
wait_for s 'red 1 score 0  blue 1 score 0'
ok $? "before the hit: both teams' scores are 0 in the bottom line"
tm send-keys -t s .
wait_for s 'tick 50 '
wait_for s 'red 1 score 10  blue 1 score 0'
ok $? "after the hit: red scores 10"
screen s | sed -n 24p | grep -q '? help'
ok $? "and the line still fits 80 columns"
tm send-keys -t s Tab
wait_for s 'tank of red'
settle s
panel() { screen s | grep "│" | sed "s/.*│//"; }
panel | grep -q '^score 10 *$'
ok $? "the inspector shows tank.a's score"
panel | grep -q '^ damage 1 kills 0 *$'
ok $? "its damage and kills"
panel | grep -q '^ survival 0 last 0 *$'
ok $? "its survival and last"
tm send-keys -t s Space
wait_for s 'time up'
screen s | grep -q 'time up: team red wins on score'
ok $? "the duration reached: the banner says red wins on score"
screen s | grep -q 'red 10  blue 0'
ok $? "with the teams' scores"
screen s | grep -q 'no winner'
[ $? -ne 0 ]
ok $? "(not 'no winner')"
screen s | sed 's/^/# /'
tm send-keys -t s q
wait_for s 'EXIT 0'
ok $? "q quits with status 0"

# Too far apart to hit in 1 s: equal scores, a draw.
sed 's/^duration = 2$/duration = 1/; s/^x = 600$/x = 990/; s/^x = 300$/x = 10/; s/^width = 1000$/width = 3000/' \
    "$TMPD/score.ini" >"$TMPD/draw.ini"
start_limited d - --paused "$TMPD/draw.ini"
wait_for d 'tick 0 '
tm send-keys -t d Space
wait_for d 'time up'
screen d | grep -q 'time up: draw on score'
ok $? "equal scores at the duration: a draw on score"
tm send-keys -t d q
wait_for d 'EXIT 0'

done_testing
