#!/bin/sh
# What a newcomer meets first at 80x24, driven for real in a detached tmux:
# the status line names the overlays a key just turned on (a long map name
# once pushed them off its end), and e, pressed for a bot's run-time error,
# says where that error is (it shows only what failed to load).
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"

# run NAME ARGS: a paused viewer at 80x24 (tmux-lib.sh).
run() { run_paused "$@"; }

# ---- the overlays on the status line ----------------------------------------
run v
seen '^ tick 0 '
ok $? "the viewer opens the built-in map at 80x24"
screen v | head -n 1 | grep -q 'on: marks  forest skirmish'
ok $? "the status line: the overlays on, then the map's name"
tm send-keys -t v r v a
seen 'avoidance on'
screen v | head -n 1 | grep -q 'on: rays cones avoid'
ok $? "r v a: the status line lists rays, cones and avoid at 80 columns"
tm send-keys -t v Tab
wait_for v 'tank of red' >/dev/null
settle v
# The scale bar, drawn over the map when the inspector takes the right:
# its number ends with a blank, never run into the map's glyphs.
screen v | grep -Eq '\|-+\| [0-9]+ '
ok $? "with the inspector open, the scale bar's number stands apart from the map"
tm send-keys -t v f
seen '^ tick 0 .*follow'
screen v | head -n 1 | grep -q 'follow  on: rays cones avoid'
ok $? "following a vehicle, the overlays still show"

# ---- e and a bot's run-time error --------------------------------------------
mkdir -p "$TMPD/m/bots"
cat >"$TMPD/m/bots/oops.lua" <<'LUA'
function tick(me, world, mem, out)
  local e = world.enemies[1]
  out.turn = e.bearing
end
LUA
cat >"$TMPD/m/oops.ini" <<'INI'
[map]
name = oops
width = 800
height = 600
[team.red]
[team.blue]
[tank.a]
team = red
x = 100
y = 300
bot = bots/oops.lua
[tank.b]
team = blue
x = 700
y = 300
INI
"$BOTFIELD" --check "$TMPD/m/oops.ini"
ok $? "the map with a failing bot loads (its error is a run-time one)"
run b "$TMPD/m/oops.ini"
seen '^ tick 0 ' >/dev/null
tm send-keys -t b .
wait_for b "attempt to index a nil value"
ok $? "a step: the bot's run-time error shows on the bottom line"
sleep 0.3
tm send-keys -t b e
wait_for b "run-time error: Tab, the inspector"
ok $? "e with no failed load says a run-time error is in the inspector"
tm send-keys -t b Tab
wait_for b "bot error, tick 1"
ok $? "and Tab's inspector shows it"
# Whole, wrapped to the panel: the inspector's column alone (right of its
# border), not the bottom line, which shows the error for a while too.
settle b
screen b | sed -n 's/.*[│|]//p' | tr '\n' ' ' | grep -q "attempt to *index a nil value *(local *'e')"
ok $? "the inspector shows the bot's whole error, wrapped at 80x24"
tm send-keys -t b '?'
wait_for b "botfield keys" >/dev/null
steps b j 8
wait_for b '^ e  '
screen b | grep -q '^ e  *the last failed map or bot load'
ok $? "the help names e's errors as the failed loads"

# ---- a narrow terminal ----------------------------------------------------------
# Below 72 columns there is no inspector: Tab says what it selected.
start_session n 60 20 "$BOTFIELD --paused"
wait_for n '^ tick 0 ' >/dev/null
tm send-keys -t n Tab
wait_for n 'tank.red.1 selected; the inspector needs 72 columns'
ok $? "Tab at 60 columns says what it selected and that the inspector needs 72"

# ---- tuning a turret's team -----------------------------------------------------
# The first vehicle of maps/forest.ini is a turret: its team's keys do not
# reach it, and the panel says so with the way on still in view at 80x24.
run t "$top_srcdir/maps/forest.ini"
seen '^ tick 0 ' >/dev/null
tm send-keys -t t Tab
wait_for t 'turret of red'
ok $? "Tab selects forest.ini's turret"
tm send-keys -t t T
wait_for t 'tune \[turret' >/dev/null
screen t | grep -q 'tune \[turret.red\]  (s: next section, W saves)'
ok $? "the tuning panel's title says s and W whole at 80x24"
# A typed value's error (file, section, key, value, problem and range) is
# wider than 80 columns: it takes two lines at the bottom, the range whole.
tm send-keys -t t Enter
tm send-keys -t t 15abcdefg Enter
wait_for t '15abcdefg'
ok $? "a typed value that is not a number: its error shows"
screen t | tail -3 | tr -d '\n' | tr -s ' ' | grep -q 'radius = [0-9]*15abcdefg: not a number (expected [^)]*) *$'
ok $? "and is wrapped onto the lines below at 80x24, whole to its range's end"
tm send-keys -t t s
wait_for t 'team keys reach tanks only \(s: next\)'
ok $? "s on a turret: the panel says a team's keys reach tanks only, and s: next, uncut"

done_testing
