#!/bin/sh
# --set KEY=VALUE, headless: each problem reads as the map's message for
# that line, naming the option instead of a line (an unknown key with its
# likely spelling, a key of another kind of section, a value out of range,
# a check across keys, two bad options both named), exit 2 and nothing
# run; a value written over a line with a comment and odd spacing runs as
# the file with that value would.
. "$top_srcdir/tests/lib/lib.sh"
MAP="$TMPD/s.ini"
cat >"$MAP" <<'EOF2'
[map]
width = 800
height = 600
seed = 5
[team.red]
[team.blue]
[tank.a]
team = red
x = 100
y = 300
heading = 0
turn_rate   =  30   ; degrees a second
[tank.b]
team = blue
x = 700
y = 300
heading = 180
EOF2

# says ARGS... : the first line of stderr of --check ARGS MAP, and exit 2
says() {
    "$BOTFIELD" --check "$@" >"$TMPD/out" 2>"$TMPD/err"
    st=$?
    [ "$st" -eq 2 ] && [ ! -s "$TMPD/out" ] || echo "exit $st"
    cat "$TMPD/err"
}
expect_eq "an unknown key: its likely spelling, as the map's message" \
    "$(says --set tank.a.turn_rat=3 "$MAP")" \
    "botfield: --set tank.a.turn_rat=3: unknown key (did you mean 'turn_rate'?)"
expect_eq "a key of another kind of section" \
    "$(says --set tank.a.laps=3 "$MAP")" \
    "botfield: --set tank.a.laps=3: unknown key in a [tank.ID] section (it is a key of [track])"
expect_eq "a key of no section at all: where the keys are" \
    "$(says --set tank.a.zzzzzzzz=3 "$MAP")" \
    "botfield: --set tank.a.zzzzzzzz=3: unknown key in a [tank.ID] section (see botfield(6) for the keys allowed)"
expect_eq "a value out of range: the range" \
    "$(says --set tank.a.turn_rate=1e9 "$MAP")" \
    "botfield: --set tank.a.turn_rate=1e9: out of range (expected more than 0, up to 36000)"
expect_eq "a method that does not exist: the methods" \
    "$(says --set tank.a.aim=perfect "$MAP")" \
    "botfield: --set tank.a.aim=perfect: not a known value (expected one of: none classic exact)"
expect_eq "two bad options: both named, in the order given" \
    "$(says --set tank.a.x=abc --set sight.samples=0 "$MAP")" \
    "botfield: --set tank.a.x=abc: not a number (expected -10000000 to 10000000)
botfield: --set sight.samples=0: out of range (expected a whole number from 1 to 10000)"
expect_eq "a check across keys names the option too" \
    "$(says --set car.red.min_speed=300 "$top_srcdir/maps/race.ini")" \
    "botfield: --set car.red.min_speed=300: min_speed 300 is above max_speed 260"
expect_eq "a vehicle the map lacks is not added" \
    "$(says --set tank.c.fov=3 "$MAP")" \
    "botfield: --set tank.c.fov=3: the map has no such section; --set changes a key of a team, vehicle, tree or waypoint the map has, it does not add one"

# Over a line with a comment and odd spacing: the run of the file with
# that value.
sed 's/^turn_rate   =  30   ; degrees a second$/turn_rate = 90/' "$MAP" >"$TMPD/s90.ini"
"$BOTFIELD" --headless --ticks 300 --trace "$TMPD/set" --set tank.a.turn_rate=90 "$MAP"
"$BOTFIELD" --headless --ticks 300 --trace "$TMPD/file" "$TMPD/s90.ini"
"$BOTFIELD" --headless --ticks 300 --trace "$TMPD/plain" "$MAP"
# (the header names the map by its file: compared from the second line)
for t in set file plain; do tail -n +2 "$TMPD/$t" >"$TMPD/$t.body"; done
cmp -s "$TMPD/set.body" "$TMPD/file.body"
ok $? "--set over a commented line runs as the file with the value written"
cmp -s "$TMPD/plain.body" "$TMPD/file.body"
expect_eq "(and the value changes the run)" "$?" 1
done_testing
