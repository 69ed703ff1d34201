#!/bin/sh
# At 80 columns: the drive status line keeps the heading, the gun and the
# shots botfield(6) promises; the scale bar never covers a tank on the
# map's bottom row (it moves to another corner), with the inspector open
# too (the map then reaches the corners); the first look's "paused:
# space runs" hint goes once the run starts, and the counts come back;
# n and N say what happened on the tick they land on (a shot by whom, a
# hit: who hit whom).
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"

# Drive mode on maps/duel.ini, a shot fired.
start_session v 80 24 "$BOTFIELD --paused $top_srcdir/maps/duel.ini"
seen '^ tick 0 '
tm send-keys -t v D
seen ' driving hdg 0 gun 0 shots 0 turn - 0/60 tur - loaded x 150 y 450'
ok $? "80 columns, drive mode: heading, gun and shots on the status line"
tm send-keys -t v x ' ' .
seen ' driving hdg 0 gun [0-9]+ shots 1 turn - 0/60 tur R rl 2.0s'
ok $? "a shot fired: the shots, the turret's turn and the reload, in 80 columns"
tm kill-session -t v

# A tank on the bottom row, under where the scale bar goes.
cat >"$TMPD/corner.ini" <<'EOF2'
[map]
name = corner
width = 800
height = 600
seed = 3
[team.red]
color = red
[team.blue]
color = blue
[tank.a]
team = red
x = 20
y = 590
heading = 0
[tank.c]
team = red
x = 60
y = 585
heading = 0
[tank.b]
team = blue
x = 700
y = 300
heading = 180
EOF2
run_paused s "$TMPD/corner.ini"
wait_for s '^ tick 0 ' && settle s
arrows=$(screen s | grep -o '→' | wc -l)
expect_eq "both east-facing tanks on the bottom row show (the scale bar elsewhere)" "$arrows" 2
screen s | grep -q '|-*| [0-9]'
ok $? "and the scale bar is still drawn"
tm kill-session -t s

# The inspector open (Tab): the map area is narrower and this map fills it,
# both lower corners the map's, a tank on the bottom row in each.
run_paused i "$top_srcdir/tests/maps/scale-corners.ini"
wait_for i '^ tick 0 ' && tm send-keys -t i Tab
wait_for i 'tank of blue' && settle i
bottom=$(screen i | sed -n 23p)
note "the map's bottom row: $bottom"
printf '%s\n' "$bottom" | grep -q '^.→.*←.\{0,1\}│$'
ok $? "inspector open: both tanks in the lower corners show"
screen i | sed -n 2p | grep -q '|-*| [0-9]'
ok $? "and the scale bar is drawn in a top corner"
tm kill-session -t i

# The first look's hint, then the run.
start_session h 80 24 "$BOTFIELD"
wait_for h 'paused: space runs'
ok $? "the first look: paused, with the hint"
tm send-keys -t h ' '
wait_for h '^ collisions [0-9]+  shots [0-9]+  hits [0-9]+' 5 &&
    ! screen h | grep -q 'paused: space runs'
ok $? "space runs it: the hint goes, the counts show"
tm kill-session -t h

# n: the next event named.  Headless, the first shot and hit of the
# default map (seed 7), then the viewer's n and N.
"$BOTFIELD" --headless --ticks 3000 --seed 7 --trace "$TMPD/trace" "$top_srcdir/maps/default.ini"
first() { grep "\"type\":\"$1\"" "$TMPD/trace" | head -1; }
shot_tick=$(first shot | sed 's/.*"tick":\([0-9]*\).*/\1/')
shooter=$(first shot | sed 's/.*"shooter":"\([^"]*\)".*/\1/')
note "first shot: tick $shot_tick by $shooter"
run_paused n --seed 7 "$top_srcdir/maps/default.ini"
wait_for n '^ tick 0 '
tm send-keys -t n n
wait_for n "next event: tick $shot_tick: .*a shot by $shooter" 20
ok $? "n names the next event: a shot by $shooter"
hit=$(first hit)
hit_tick=$(printf '%s' "$hit" | sed 's/.*"tick":\([0-9]*\).*/\1/')
tm send-keys -t n g $(printf '%s' "$hit_tick" | sed 's/./& /g') Enter
wait_for n "^ tick $hit_tick " 20
tm send-keys -t n N n
wait_for n "next event: tick $hit_tick: .* hit " 20
ok $? "n on a hit says who hit whom (tick $hit_tick)"
tm send-keys -t n N
wait_for n "previous event: tick [0-9]+: " 20
ok $? "N says previous event and what"
done_testing
