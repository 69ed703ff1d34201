#!/bin/sh
# The viewer as a player of bot games sees it (issue 32's trial), driven
# in a detached tmux at 80x24: a bot's traceback and disabled reason are
# wrapped in the inspector, never cut.
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"

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

# ---- the log history ----------------------------------------------------------
# The inspector keeps a bot's last 50 log lines with their ticks, shows 8,
# and [ and ] scroll them; a tick stepped back over and computed again
# does not show its lines twice.
cat >"$TMPD/g/gm.lua" <<'EOS'
function tick(me, world, mem, out)
  log("L" .. world.tick)
  out.speed = 10
end
EOS
start l --paused "$TMPD/g/map.ini"
wait_for l 'tick 0 '
tm send-keys -t l Tab
steps l . 70
wait_for l 'tick 70 '
settle l
screen l | grep -q '70 log L70'
ok $? "the inspector shows the newest log line with its tick"
screen l | grep -q '63 log L63'
ok $? "and the lines of the ticks before (8 shown)"
screen l | grep -q 'log 43-50 of 50'
ok $? "of the 50 kept"
tm send-keys -t l [
wait_for l 'log 39-46 of 50'
ok $? "[ scrolls 4 lines older"
screen l | grep -q '59 log L59'
ok $? "(the line of tick 59 shows)"
screen l | grep -q '70 log L70'
[ $? -ne 0 ]
ok $? "(and the newest no longer)"
tm send-keys -t l ]
wait_for l 'log 43-50 of 50'
ok $? "] scrolls back to the newest"
# back over the tick-60 snapshot: ticks 61 to 64 are computed again
steps l , 6
wait_for l 'tick 64 '
settle l
screen l | grep -q '64 log L64'
ok $? "stepped back to tick 64: its line is the newest"
screen l | grep -Eq 'log L(6[5-9]|70)'
[ $? -ne 0 ]
ok $? "the later ticks' lines are gone"
dups=$(screen l | grep -o 'log L[0-9]*' | sort | uniq -d)
[ -z "$dups" ]
ok $? "no line shows twice (recomputed ticks replace their lines)"
steps l . 6
wait_for l 'tick 70 '
settle l
dups=$(screen l | grep -o 'log L[0-9]*' | sort | uniq -d)
[ -z "$dups" ] && screen l | grep -q '70 log L70'
ok $? "forward to tick 70 again: each line once"
screen l | sed 's/^/# /'
tm send-keys -t l q
wait_for l 'EXIT 0'

done_testing
