#!/bin/sh
# Drive mode, driven for real in a detached tmux: D drives the player
# tank of maps/duel.ini; Right and d turn, w and Up speed up, x turns the
# turret, space fires; stepping shows the tank exactly where the motion
# model puts it, a step back and forth replays the inputs, Esc leaves and
# the usual keys work again.
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"
MAP="$top_srcdir/maps/duel.ini"

start_session v 150 36 "$BOTFIELD --paused $MAP"
# expect: where the motion model puts the tank after N ticks of a full
# right turn (30 deg/s: 0.5 deg a tick, turned before the move) at speed 60
# (1 unit a tick) from (150, 450) heading 0: "x X y Y hdg H".
expect() {
    awk -v n="$1" 'BEGIN { x = 150; y = 450; h = 0; pi = atan2(0, -1)
        for (j = 1; j <= n; j++) { h += 0.5; x += cos(h * pi / 180); y += sin(h * pi / 180) }
        printf "x %.1f y %.1f hdg %.1f\n", x, y, h }'
}

seen '^ tick 0 '
ok $? "the viewer starts paused at tick 0 on duel.ini"

tm send-keys -t v D
seen ' driving  turn straight  speed 0/60  turret still  loaded  x 150.0 y 450.0 hdg 0.0 gun 0.0'
ok $? "D enters drive mode: the status line says driving and what the tank holds"
seen '^ tick 0 .* paused  driving  .*duel'
ok $? "the top line says driving too"
seen 'seen by \(visible / threshold\)'
ok $? "the box of who sees you is shown"

tm send-keys -t v Right
seen ' driving  turn right  speed 0/60'
ok $? "Right turns right"
tm send-keys -t v d
tm send-keys -t v w w w
seen 'speed 45/60'
ok $? "w speeds up a quarter at a time (d again keeps the full turn)"
tm send-keys -t v Up Up
seen 'turn right  speed 60/60'
ok $? "Up speeds up, and stops at the cruising speed"
tm send-keys -t v x
seen 'turret right'
ok $? "x turns the turret right"

steps 30
seen '^ tick 30 '
ok $? ". steps in drive mode (30 ticks)"
want=$(expect 30)
seen "$want gun 45.0  shots 0"
ok $? "after 30 ticks the tank is where the motion model puts it: $want, gun 45.0"

tm send-keys -t v Space
seen 'loaded fire!'
ok $? "space wants a shot"
tm send-keys -t v .
seen 'reload 2.0s  x .* shots 1'
ok $? "the next tick fires it: one shot, the gun reloading"
shot=$(screen | sed -n 's/.* driving .*\( x [0-9.]* y [0-9.]* hdg [0-9.]*\).*/\1/p')

# a step back and forth replays the inputs exactly
tm send-keys -t v , ,
seen '^ tick 29 '
ok $? ", steps back twice to tick 29"
seen "$(expect 29) gun 43.5  shots 0"
ok $? "at tick 29 the tank is where it was"
tm send-keys -t v . .
seen '^ tick 31 '
seen "$shot gun 46.5  shots 1"
ok $? "forward again: the same tick 31, the shot fired again ($shot)"

# a change in the past starts another future: back to tick 29, straight
# on from there, and no shot (it was pressed at tick 30)
tm send-keys -t v , ,
seen '^ tick 29 '
tm send-keys -t v a
seen 'turn straight  speed 60/60'
ok $? "a steps the turn back to straight (at tick 29)"
tm send-keys -t v . .
seen '^ tick 31 '
want=$(awk 'BEGIN { x = 150; y = 450; h = 0; pi = atan2(0, -1)
    for (j = 1; j <= 31; j++) { if (j <= 29) h += 0.5; x += cos(h * pi / 180); y += sin(h * pi / 180) }
    printf "x %.1f y %.1f hdg %.1f\n", x, y, h }')
seen "$want gun 46.5  shots 0"
ok $? "forward again: straight on from tick 30 and no shot ($want)"
tm send-keys -t v , .
seen '^ tick 31 '
seen "$want gun 46.5  shots 0"
ok $? "and a step back and forth now replays that future"

tm send-keys -t v o
seen 'fog of war on'
ok $? "o turns the fog of war on"
tm send-keys -t v o

tm send-keys -t v Escape
seen 'drive mode off'
ok $? "Esc leaves drive mode"
screen | grep -q '^ tick .*  driving  '
[ $? -ne 0 ]
ok $? "the top line no longer says driving"
tm send-keys -t v a
seen 'avoidance on'
ok $? "a is the avoidance overlay again"
tm send-keys -t v .
seen '^ tick 32 '
ok $? ". still steps"
tm send-keys -t v Tab
seen '│tank\.'
ok $? "Tab still selects"
tm send-keys -t v '?'
# the help scrolls on a 36-row terminal: the drive keys are further down
tm send-keys -t v NPage
seen 'z x +drive: turret left, still, right'
ok $? "the help lists the drive keys"
tm send-keys -t v Escape
tm send-keys -t v q
i=0
while [ $i -lt 300 ] && tm list-panes -t v -F '#{pane_current_command}' 2>/dev/null | grep -q botfield; do
    sleep 0.1
    i=$((i + 1))
done
[ $i -lt 300 ]
ok $? "q quits"
done_testing
