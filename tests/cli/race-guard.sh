#!/bin/sh
# The racing line's guarded waypoints (issue 35): on this zigzag (seed 4's
# track 10 of tests/lib/gen-tracks.py) the line left waypoint 10's disc
# already nearer waypoint 0 than 11, so the skip rule took 11 and 0 on
# every lap, with the default car and the fast one (max_speed 300,
# turn_rate 120).  Asserted: the line car skips nothing there and laps
# clean, both cars; and no other method is needed to (the default car's
# other methods do skip here).
. "$top_srcdir/tests/lib/lib.sh"
cat >"$TMPD/zigzag.ini" <<'INI'
[map]
name = track-010-zigzag
width = 2206
height = 1209
cell = 50
seed = 4010
tick_rate = 60
duration = 300
[track]
laps = 5
[waypoint.0]
x = 505.1
y = 255.0
r = 55.0
[waypoint.1]
x = 671.8
y = 364.5
r = 55.0
[waypoint.2]
x = 838.6
y = 255.0
r = 55.0
[waypoint.3]
x = 1005.3
y = 364.5
r = 55.0
[waypoint.4]
x = 1172.1
y = 255.0
r = 55.0
[waypoint.5]
x = 1338.8
y = 364.5
r = 55.0
[waypoint.6]
x = 1505.5
y = 255.0
r = 55.0
[waypoint.7]
x = 1672.3
y = 364.5
r = 55.0
[waypoint.8]
x = 1839.0
y = 255.0
r = 55.0
[waypoint.9]
x = 1939.0
y = 942.3
r = 66.6
[waypoint.10]
x = 405.1
y = 942.3
r = 60.0
[waypoint.11]
x = 255.1
y = 259.7
r = 55.1
[car.t]
x = 255.1
y = 259.7
INI
for car in default fast; do
    set --
    [ $car = fast ] && set -- --set car.t.max_speed=300 --set car.t.turn_rate=120
    "$BOTFIELD" --headless --seed 1 "$@" --trace "$TMPD/$car" "$TMPD/zigzag.ini" >/dev/null 2>&1
    expect_eq "$car car: the run exits 0" "$?" 0
    expect_eq "$car car: the line skips no waypoint" \
        "$(grep -c '"type":"waypoint_skipped"' "$TMPD/$car")" 0
    expect_eq "$car car: five laps, each clean" \
        "$(grep '"type":"lap"' "$TMPD/$car" | grep -c '"clean":true')" 5
done
"$BOTFIELD" --headless --seed 1 --set car.t.steer=classic --trace "$TMPD/classic" \
    "$TMPD/zigzag.ini" >/dev/null 2>&1
ok "$([ "$(grep -c '"type":"waypoint_skipped"' "$TMPD/classic")" -gt 0 ]; echo $?)" \
    "the default car steering the classic way does skip there (the track is hard)"
done_testing
