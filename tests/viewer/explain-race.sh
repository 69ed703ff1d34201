#!/bin/sh
# A brake for a named waypoint (tests/maps/explain/brake.ini): on tick 160
# the car, at full speed on the straight, brakes for the corner at
# waypoint 1; the decide line and the inspector both give the waypoint,
# its corner speed (below the car's speed) and how far it is.
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"
. "$top_srcdir/tests/lib/explain-lib.sh"
MAP="$top_srcdir/tests/maps/explain/brake.ini"

decisions "$MAP" 160
ok $? "a headless run with --trace-decisions"
R='decide(160, "car.c")["race"]'
expect_eq "tick 160: it brakes for the corner at waypoint 1" \
    "$(pyq "($R['brake'], $R['corner'], $R['next'])")" "('corner_ahead', 1, 1)"
expect_eq "the corner speed is below the speed it drives at" \
    "$(pyq "$R['corner_speed'] < state(159, 'car.c')['speed']")" True
expect_eq "and it slows down: its new speed is below the last" \
    "$(pyq "decide(160, 'car.c')['speed'] < state(159, 'car.c')['speed']")" True

inspect "$MAP" 160 1
ok $? "the viewer reaches tick 160 with car.c selected"
has "why: brakes for waypoint $(pyq "$R['corner']")"
ok $? "the inspector's first answer: it brakes for the decide line's waypoint"
has " brakes: corner ahead"
ok $? "the inspector says why it brakes"
has "  for waypoint 1: $(pyq "'%.1f' % $R['corner_speed']")"
ok $? "and for which waypoint, at what corner speed, as the decide line"
has "  in $(pyq "'%.1f, allows %.1f' % ($R['corner_distance'], $R['allowed'])")"
ok $? "and how far, and the speed that allows now, as the decide line"
done_testing
