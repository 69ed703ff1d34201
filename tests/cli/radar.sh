#!/bin/sh
# The sensor mount (botfield(6) Sight, botfield-bots(7)): a radar that
# sweeps sees an enemy behind its tank that a hull sensor never does; a
# turret's default sensor follows its gun; the runs are the same on 1 and
# 2 threads and twice over.
. "$top_srcdir/tests/lib/lib.sh"
BOTFIELD_THREADS_ALWAYS=1
export BOTFIELD_THREADS_ALWAYS

# tank.a faces +x; tank.b sits behind it, facing away, neither moves
cat >"$TMPD/behind.ini" <<'MAP'
[map]
width = 1000
height = 1000
seed = 3
[team.red]
[team.blue]
[tank.a]
team = red
x = 500
y = 500
heading = 0
behaviour = hold
fov = 31
sensor = radar
radar_rate = 90
[tank.b]
team = blue
x = 200
y = 500
heading = 180
behaviour = hold
fov = 30
MAP
run() {     # run TRACE [OPTIONS...]: four seconds headless
    out=$1
    shift
    "$BOTFIELD" --headless --ticks 240 --trace "$out" "$@" "$TMPD/behind.ini"
}
seen() {    # seen TRACE: the ticks tank.a saw tank.b
    grep '"type":"sight"' "$1" | grep '"from":"tank.a","to":"tank.b"' | grep -c '"seen":true'
}
run "$TMPD/radar"
expect_eq "a radar run exits 0" "$?" 0
n=$(seen "$TMPD/radar")
[ "$n" -gt 0 ]
ok $? "a sweeping radar sees the enemy behind its tank ($n ticks)"
# 90 deg/s clockwise from 0, 1.5 degrees a tick: the cone's edge (15.5
# degrees off its centre) first reaches 180 with the radar at 165, after
# the 110th tick's turn, so tick 111's sight (which runs before that
# tick's decisions) is its first
first=$(grep '"type":"sight"' "$TMPD/radar" | grep '"from":"tank.a"' | head -n 1 \
        | sed 's/.*"tick":\([0-9]*\).*/\1/')
expect_eq "the enemy enters the radar's cone on tick 111 (165 degrees at 90 deg/s)" "$first" 111
# the trace: the radar's settings on its entity line, its direction on
# its state lines (1.5 degrees clockwise a tick); none for tank.b
grep -q '"type":"entity","id":"tank.a",.*"health":1,"sensor":"radar","radar_rate":90}' "$TMPD/radar"
ok $? "tank.a's entity line carries sensor and radar_rate"
grep '"type":"entity","id":"tank.b"' "$TMPD/radar" | grep -q 'sensor\|radar'
expect_eq "tank.b's (hull, the default): neither" "$?" 1
grep -q '"type":"state","tick":2,"id":"tank.a",.*"turret":0,"radar":3,"alive":true}' "$TMPD/radar"
ok $? "tank.a's state line of tick 2 carries its radar at 3 degrees"
expect_eq "tank.b's state lines carry no radar" \
    "$(grep '"type":"state".*"id":"tank.b"' "$TMPD/radar" | grep -c radar)" 0
run "$TMPD/hull" --set tank.a.sensor=hull
expect_eq "a hull sensor: no sight of the enemy behind" "$(seen "$TMPD/hull")" 0
grep -q 'radar' "$TMPD/hull"
expect_eq "with a hull sensor the trace names no radar" "$?" 1
run "$TMPD/slow" --set tank.a.radar_rate=30
expect_eq "at 30 deg/s the radar has not come round in four seconds" "$(seen "$TMPD/slow")" 0

# determinism: twice, and on 1 and 2 threads
run "$TMPD/again"
cmp -s "$TMPD/radar" "$TMPD/again"
ok $? "the same radar run twice: the same trace"
run "$TMPD/t1" --threads 1
run "$TMPD/t2" --threads 2
cmp -s "$TMPD/t1" "$TMPD/t2" && cmp -s "$TMPD/t1" "$TMPD/radar"
ok $? "1 and 2 threads: the same trace"


# A bot's radar: out.radar, clamped by radar_rate; this one sweeps
# anticlockwise at full rate (asks for 90 degrees a tick, gets 1.5) and
# logs what world.enemies holds
cat >"$TMPD/sweep.lua" <<'LUA'
function tick(me, world, mem, out)
  out.radar = me.radar - 90
  if #world.enemies > 0 then log("enemy", world.enemies[1].id, me.radar) end
end
LUA
sed 's/^radar_rate = 90$/radar_rate = 90\nbot = sweep.lua/' "$TMPD/behind.ini" >"$TMPD/bot.ini"
"$BOTFIELD" --headless --ticks 240 --trace "$TMPD/bot" --record "$TMPD/bot.rec" "$TMPD/bot.ini"
expect_eq "a sweeping bot's run exits 0" "$?" 0
first=$(grep '"type":"log"' "$TMPD/bot" | head -n 1)
expect_eq "the bot's world.enemies holds the enemy behind from tick 111, its radar at -165" \
    "$first" '{"type":"log","tick":111,"id":"tank.a","text":"enemy tank.b -165.0"}'
"$BOTFIELD" --headless --ticks 240 --trace "$TMPD/bothull" --set tank.a.sensor=hull "$TMPD/bot.ini"
expect_eq "the same bot with a hull sensor: never an enemy" "$(grep -c '"type":"log"' "$TMPD/bothull")" 0
"$BOTFIELD" --headless --replay "$TMPD/bot.rec" --trace "$TMPD/botreplay" 2>"$TMPD/err"
expect_eq "its recording replays (checkpoints hash the radar)" "$?" 0
cmp -s "$TMPD/bot" "$TMPD/botreplay"
ok $? "the replay's trace is the recorded run's, byte for byte"
"$BOTFIELD" --headless --ticks 240 --threads 2 --trace "$TMPD/bot2" "$TMPD/bot.ini"
cmp -s "$TMPD/bot" "$TMPD/bot2"
ok $? "the bot on 2 threads: the same trace"
done_testing
