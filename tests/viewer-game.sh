#!/bin/sh
# The viewer as a player of bot games sees it (issue 32's trial), driven
# in a detached tmux at 80x24: a bot's traceback and disabled reason are
# wrapped in the inspector, never cut.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tmux-lib.sh"

start() {
    name=$1; shift
    start_limited "$name" - "$@"
}
# The inspector's rows (the panel: the 30 rightmost columns), joined in
# one line with single blanks: a wrapped text reads whole there.
panel_joined() { screen "$1" | grep "│" | sed "s/.*│//; s/^ *//" | tr "\n" " " | tr -s " "; }

mkdir -p "$TMPD/g"
cat >"$TMPD/g/map.ini" <<'EOS'
[map]
name = game
width = 3000
height = 300
seed = 1
[team.a]
color = red
[team.b]
color = blue
[tank.a]
team = a
x = 50
y = 150
heading = 0
bot = gm.lua
[tank.b]
team = b
x = 2950
y = 150
heading = 0
EOS

# ---- wrapped traceback and disabled reason --------------------------------
cat >"$TMPD/g/gm.lua" <<'EOS'
local function explode_long_ZQ() error("boom at the end of a sentence XY") end
function tick(me, world, mem, out)
  explode_long_ZQ()
end
EOS
start w --paused "$TMPD/g/map.ini"
wait_for w 'tick 0 '
tm send-keys -t w Tab
steps w . 3
wait_for w 'tick 3 '
settle w
panel_joined w | grep -q "in upvalue 'explode_long_ZQ'"
ok $? "a traceback line wider than the inspector is wrapped, not cut"
panel_joined w | grep -q "gm.lua:3: in function <gm.lua:2>"
ok $? "and the next frame follows it"
steps w . 60
wait_for w 'tick 63 '
settle w
panel_joined w | grep -q "disabled: 60 abandoned ticks in a row; the last: gm.lua:1: boom at the end of a sentence XY"
ok $? "the disabled reason is wrapped whole"
screen w | sed "s/^/# /"
tm send-keys -t w q
wait_for w 'EXIT 0'
ok $? "q quits with status 0"

# ---- the winner's banner ------------------------------------------------------
# Two tanks of one hit each, one behind the other: the first hit ends the
# battle (at tick 50, a fixed seed).
# The banner names the team as a team ("team bots wins"), not as a plural
# noun ("bots wins").
cat >"$TMPD/g/win.ini" <<'EOS'
[map]
name = win
width = 1000
height = 300
seed = 1
[team.bots]
color = red
[team.blue]
color = blue
[tank.a]
team = bots
x = 300
y = 150
heading = 0
health = 1
[tank.b]
team = blue
x = 600
y = 150
heading = 0
health = 1
EOS
start b --paused "$TMPD/g/win.ini"
wait_for b 'tick 0 '
tm send-keys -t b Space
wait_for b 'battle over|wins'
ok $? "the battle is won: a banner"
screen b | grep -q 'team bots wins'
ok $? "the banner names the winner as a team (team NAME wins)"
tm send-keys -t b q
wait_for b 'EXIT 0'

# ---- the map's duration ---------------------------------------------------------
# A headless run stops at the map's duration; so does the viewer, with a
# banner, and it still steps back, seeks below it and quits.
sed 's/^seed = 1$/seed = 1\nduration = 1/; s/^bot = gm.lua$//' "$TMPD/g/map.ini" >"$TMPD/g/short.ini"
"$BOTFIELD" --headless --trace - "$TMPD/g/short.ini" | tail -n 1 | grep -q '"ticks":60,'
ok $? "(the headless run of duration = 1 stops at tick 60)"
start d --paused "$TMPD/g/short.ini"
wait_for d 'tick 0 '
tm send-keys -t d Space
wait_for d 'time up'
ok $? "the viewer stops at the duration with a banner"
screen d | grep -q 'tick 60 '
ok $? "at tick 60, where the headless run stops"
screen d | grep -q 'paused'
ok $? "and pauses"
tm send-keys -t d .
wait_for d 'the run ends at tick 60'
ok $? "a step forward is refused, said in the bottom line"
screen d | grep -q 'tick 60 '
ok $? "(still tick 60)"
tm send-keys -t d ,
wait_for d 'tick 59 '
ok $? "a step back goes to tick 59"
tm send-keys -t d g 1 0 0 Enter
wait_for d 'tick 60 '
ok $? "g 100 goes no further than tick 60"
tm send-keys -t d g 3 0 Enter
wait_for d 'tick 30 '
ok $? "g 30 seeks below it"
tm send-keys -t d q
wait_for d 'EXIT 0'
ok $? "q quits with status 0"

done_testing
