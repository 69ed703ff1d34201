#!/bin/sh
# The viewer with Lua bots, driven for real in a detached tmux (as
# tests/viewer/viewer.sh): overlay d draws what the bots draw, stepping back
# restores their mem and gives the same screen, a script edited while the
# viewer runs reloads live (a broken edit keeps the old bot running), and
# a bot that keeps state outside mem is caught when a replay differs.
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"

# start NAME ARGS...: a 100x30 session running botfield (wide enough for
# the inspector); the pane says EXIT n when it ends.
VIEW_W=100
VIEW_H=30
start() {
    name=$1; shift
    start_limited "$name" - "$@"
}
# The screen without its last line (a message shows there for a while),
# and without the heap in use: a bot rebuilt on a step back holds other
# garbage than the first run's state did (Lua's collector runs when it
# runs); everything the bot decided is the same.
body() { screen "$1" | head -n 29 | sed 's/heap [0-9]*\//heap N\//'; }

# ---- the duel: drawings, stepping back ----------------------------------------
mkdir -p "$TMPD/duel/bots"
cp "$top_srcdir/maps/bots-duel.ini" "$TMPD/duel/"
cp "$top_srcdir/maps/bots/hunter.lua" "$TMPD/duel/bots/"
start v --paused "$TMPD/duel/bots-duel.ini"
wait_for v 'tick 0 '
ok $? "the viewer opens maps/bots-duel.ini"
# By tick 300 both hunters have seen each other and hide (a fixed seed).
steps v . 300
wait_for v 'tick 300 '
ok $? "300 steps: tick 300"
settle v
body v >"$TMPD/plain"
! grep -Eq 'hidden [0-9]+%' "$TMPD/plain"
ok $? "without d no bot drawing is on the map"
tm send-keys -t v d
wait_for v 'hidden [0-9]+%'
ok $? "d draws the hunters' draw.text (\"hidden NN%\")"
settle v
body v >"$TMPD/drawn"
! cmp -s "$TMPD/plain" "$TMPD/drawn"
ok $? "and the map changed where the bots draw"
screen v | head -n 1 | grep -q 'on: .*drawings'
ok $? "the status line lists the drawings overlay"
tm send-keys -t v d
settle v
body v >"$TMPD/plain2"
cmp -s "$TMPD/plain" "$TMPD/plain2"
ok $? "d again takes the drawings off"

# Step forward, back over a snapshot (replayed from tick 240, the bots
# rebuilt from their scripts and their mem), and forward again.
tm send-keys -t v d Tab
wait_for v 'bots/hunter.lua'
ok $? "the inspector of a bot's vehicle names its script"
screen v | grep -Eq 'instr [0-9]+/100000'
ok $? "the inspector shows the instructions used of the budget"
screen v | grep -Eq 'heap [0-9]+/4096 KiB'
ok $? "the inspector shows the heap in use of the limit"
settle v
body v >"$TMPD/t300"
steps v . 5
wait_for v 'tick 305 '
steps v , 5
wait_for v 'tick 300 '
ok $? "5 steps forward and 5 back: tick 300"
settle v
body v >"$TMPD/back300"
cmp -s "$TMPD/t300" "$TMPD/back300"
ok $? "the same screen, drawings and inspector included"
diff "$TMPD/t300" "$TMPD/back300" | sed 's/^/# /' | head -n 10
steps v . 5
wait_for v 'tick 305 '
steps v , 70
wait_for v 'tick 235 '
steps v . 65
wait_for v 'tick 300 '
settle v
body v >"$TMPD/again300"
cmp -s "$TMPD/t300" "$TMPD/again300"
ok $? "back 70 ticks (over two snapshots) and forward again: the same screen"
screen v | grep -q 'replay differs'
[ $? -ne 0 ]
ok $? "a bot that keeps its state in mem replays without a divergence"

# ---- live reload ----------------------------------------------------------------
# A marker logged at every tick, saved the way editors do (renamed over).
{ echo 'local inner_tick'; sed 's/^function tick(/function inner_tick(/' \
    "$TMPD/duel/bots/hunter.lua"
  echo 'function tick(me, world, mem, out) log("MARKER-1") inner_tick(me, world, mem, out) end'
} >"$TMPD/duel/new.lua"
sed -i 's/^local inner_tick$//' "$TMPD/duel/new.lua"
mv "$TMPD/duel/new.lua" "$TMPD/duel/bots/hunter.lua"
wait_for v 'bots reloaded'
ok $? "an edited script is reloaded live (status line)"
screen v | grep -q 'tick 300 '
ok $? "the world is kept (still tick 300)"
tm send-keys -t v .
wait_for v 'log MARKER-1'
ok $? "the inspector shows the new script's log line"

# Broken: a syntax error.
cp "$TMPD/duel/bots/hunter.lua" "$TMPD/duel/good.lua"
printf 'function tick(me, world, mem, out\n' >"$TMPD/duel/new.lua"
mv "$TMPD/duel/new.lua" "$TMPD/duel/bots/hunter.lua"
wait_for v 'bot not reloaded.*bots-duel.ini:[0-9]+'
ok $? "a broken edit: the error in the status line"
tm send-keys -t v e
wait_for v 'bot script has errors'
ok $? "e shows the error's details"
screen v | grep -q "bots/hunter.lua"
ok $? "naming the script"
tm send-keys -t v Escape
tm send-keys -t v .
wait_for v 'tick 302 '
ok $? "the viewer still steps"
screen v | grep -q 'log MARKER-1'
ok $? "and the old bot keeps running (its log line)"
tm send-keys -t v q
wait_for v 'EXIT 0'
ok $? "q quits with status 0"

# ---- state outside mem -------------------------------------------------------------
mkdir -p "$TMPD/cnt"
cat >"$TMPD/cnt/map.ini" <<'EOS'
[map]
name = counter
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
bot = counter.lua
[tank.b]
team = b
x = 2950
y = 150
heading = 0
EOS
# The counter lives in a global: stepping back rebuilds the bot from its
# script and the counter restarts, so replayed ticks log other numbers.
cat >"$TMPD/cnt/counter.lua" <<'EOS'
n = 0
function tick(me, world, mem, out)
  n = n + 1
  log("count " .. n)
  out.speed = 10
end
EOS
start c --paused "$TMPD/cnt/map.ini"
wait_for c 'tick 0 '
tm send-keys -t c Tab
steps c . 70
wait_for c 'tick 70 '
ok $? "a bot with a global counter: 70 steps"
screen c | grep -q 'log count 70'
ok $? "it logs its counter (count 70)"
tm send-keys -t c ,
wait_for c 'replay differs from the first run at tick 61'
ok $? "stepping back over the tick-60 snapshot reports the divergence at tick 61"
screen c | grep -q 'log count 9'
ok $? "(the rebuilt bot counts from 0 again: count 9 at tick 69)"
tm send-keys -t c q
wait_for c 'EXIT 0'

# The same counter in mem: no divergence.
sed -e 's/^n = 0$//' -e 's/  n = n + 1/  mem.n = (mem.n or 0) + 1/' \
    -e 's/"count " .. n/"count " .. mem.n/' "$TMPD/cnt/counter.lua" >"$TMPD/cnt/c2.lua"
mv "$TMPD/cnt/c2.lua" "$TMPD/cnt/counter.lua"
start c2 --paused "$TMPD/cnt/map.ini"
wait_for c2 'tick 0 '
tm send-keys -t c2 Tab
steps c2 . 70
wait_for c2 'tick 70 '
tm send-keys -t c2 ,
wait_for c2 'tick 69 '
ok $? "the counter kept in mem: step back to tick 69"
screen c2 | grep -q 'log count 69'
ok $? "its mem is restored (count 69)"
screen c2 | grep -q 'replay differs'
[ $? -ne 0 ]
ok $? "and no divergence is reported"
tm send-keys -t c2 q

# A bot that reads world.events (the events of the tick before, which no
# world snapshot holds): the snapshot keeps them with mem, so the first
# replayed tick sees them too.  tank.b faces away, so tank.a sees it at
# every tick (a sight event) and nobody shoots.
sed 's/^heading = 0$/heading = 0/' "$TMPD/cnt/map.ini" | sed 's/^x = 2950$/x = 300/' >"$TMPD/cnt/ev.ini"
cat >"$TMPD/cnt/counter.lua" <<'EOS'
function tick(me, world, mem, out)
  log("events " .. #world.events)
  out.speed = 0
end
EOS
start ev --paused "$TMPD/cnt/ev.ini"
wait_for ev 'tick 0 '
tm send-keys -t ev Tab
steps ev . 65
wait_for ev 'log events 1'
ok $? "a bot that reads world.events sees last tick's sight event"
tm send-keys -t ev ,
wait_for ev 'tick 64 '
settle v
screen ev | grep -q 'replay differs'
[ $? -ne 0 ]
ok $? "stepping back over a snapshot replays its events: no divergence"
tm send-keys -t ev q

# A bot that cannot be rebuilt at the step back (a big global its top
# level makes, dropped later, and a mem that filled the room meanwhile) is
# disabled: the replay then differs, and the viewer says that, not that a
# global keeps state.
sed 's/^bot = counter.lua$/bot = grow.lua\nbot_memory = 64/' "$TMPD/cnt/map.ini" >"$TMPD/cnt/grow.ini"
cat >"$TMPD/cnt/grow.lua" <<'EOS'
big = string.rep('x', 12000)
function tick(me, world, mem, out)
  big = nil
  out.speed = 10
  for i = 1, 40 do mem[#mem + 1] = string.rep('x', 24) .. #mem end
end
EOS
start gr --paused "$TMPD/cnt/grow.ini"
wait_for gr 'tick 0 '
steps gr . 70
wait_for gr 'tick 70 '
tm send-keys -t gr ,
wait_for gr 'replay differs from the first run at tick 61: a bot was disabled at the step'
ok $? "a bot disabled at the step back: the divergence names it"
screen gr | grep -q 'outside mem'
[ $? -ne 0 ]
ok $? "(and does not blame a global)"
tm send-keys -t gr q
wait_for gr 'EXIT 0'

# Drawings far past the screen: a line from -1e15 to 1e15 and a circle of
# radius 1e15 through the map are clipped and dashed without an int
# overflow (undefined behaviour, which the sanitizer build stops on).
cat >"$TMPD/cnt/far.lua" <<'EOS'
function tick(me, world, mem, out)
  draw.line(-1e15, 150, 1e15, 150, "red")
  draw.circle(me.x + 1e15, me.y, 1e15, "blue")
  out.speed = 10
end
EOS
sed 's/^bot = counter.lua$/bot = far.lua/' "$TMPD/cnt/map.ini" >"$TMPD/cnt/far.ini"
start far --paused "$TMPD/cnt/far.ini"
wait_for far 'tick 0 '
tm send-keys -t far d
steps far . 3
wait_for far 'tick 3 '
ok $? "a bot's drawings 1e15 dots off the screen: the viewer draws on"
tm send-keys -t far q
wait_for far 'EXIT 0'
ok $? "and quits with status 0"

# A run-time error: said in the status line, kept in the inspector with
# its traceback, and the bot runs on next tick.
cat >"$TMPD/cnt/counter.lua" <<'EOS'
local function explode() error("boom at " .. 5) end
function tick(me, world, mem, out)
  if world.tick == 5 then explode() end
  log("tick " .. world.tick)
  out.speed = 10
end
EOS
start c4 --paused "$TMPD/cnt/map.ini"
wait_for c4 'tick 0 '
tm send-keys -t c4 Tab
steps c4 . 5
wait_for c4 'tank.a: counter.lua:1: boom at 5'
ok $? "a bot error shows in the status line with the vehicle"
screen c4 | grep -q 'bot error, tick 5'
ok $? "the inspector shows the last error and its tick"
screen c4 | grep -q 'counter.lua:3: in'
ok $? "with its traceback (the caller's line)"
steps c4 . 2
wait_for c4 'log tick 7'
ok $? "the bot runs on after its error"
screen c4 | grep -q 'bot error, tick 5'
ok $? "and the inspector still shows its last error"
tm send-keys -t c4 ,
wait_for c4 'tick 6 '
steps c4 , 2
wait_for c4 'tick 4 '
screen c4 | grep -q 'bot error'
[ $? -ne 0 ]
ok $? "stepped back before the error, the inspector no longer shows it"
tm send-keys -t c4 q

# A mem that is not plain data at a snapshot: said, and stepping back over
# it refused rather than wrong.
cat >"$TMPD/cnt/counter.lua" <<'EOS'
function tick(me, world, mem, out)
  if world.tick >= 50 then mem.f = function() end end
  out.speed = 10
end
EOS
start c3 --paused "$TMPD/cnt/map.ini"
wait_for c3 'tick 0 '
steps c3 . 62
wait_for c3 'tick 62 '
tm send-keys -t c3 ,
wait_for c3 'cannot step back: a bot.s mem was not plain data at tick 60'
ok $? "a function in mem at the tick-60 snapshot: stepping back over it is refused"
screen c3 | grep -q 'tick 62 '
ok $? "and the world stays at tick 62"
tm send-keys -t c3 q

done_testing
