#!/bin/sh
# The inspector says what --check warns of (issue 35): on a track where
# waypoint 1 is skipped as soon as a car leaves waypoint 0 (the track of
# tests/cli/race-check-warn.sh), the car's race lines say waypoint 1 has
# no clean lap; on race.ini they say nothing of the kind.
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"
. "$top_srcdir/tests/lib/explain-lib.sh"
printf '%s\n' "[map]" "name = back" "width = 1200" "height = 900" "tick_rate = 60" \
    "[track]" "laps = 3" \
    "[waypoint.0]" "x = 1000" "y = 300" "r = 40" \
    "[waypoint.1]" "x = 200" "y = 300" "r = 40" \
    "[waypoint.2]" "x = 600" "y = 250" "r = 40" \
    "[waypoint.3]" "x = 600" "y = 700" "r = 40" \
    "[waypoint.4]" "x = 1000" "y = 700" "r = 40" \
    "[car.t]" "x = 1000" "y = 700" >"$TMPD/back.ini"
inspect "$TMPD/back.ini" 1 1
ok $? "the viewer reaches tick 1 with car.t selected"
has " waypoint 1: no clean lap"
ok $? "the inspector says waypoint 1 has no clean lap"
inspect "$top_srcdir/maps/race.ini" 1 1
ok $? "race.ini: the viewer reaches tick 1 with a car selected"
grep -q "^ next waypoint" "$TMPD/panel"
ok $? "race.ini: the inspector shows the car's race lines"
! grep -q "no clean lap" "$TMPD/panel"
ok $? "race.ini: and no waypoint without a clean lap"
done_testing
