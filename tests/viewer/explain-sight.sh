#!/bin/sh
# A threshold at the edge of the cone (tests/maps/explain/sight.ini): the
# turret's view is 90 degrees, the tank stands 40 degrees off its facing,
# past 0.75 of the half angle: the edge threshold, 0.40, applies.  The
# decide line and the inspector both say so.
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"
. "$top_srcdir/tests/lib/explain-lib.sh"
MAP="$top_srcdir/tests/maps/explain/sight.ini"

decisions "$MAP" 1
ok $? "a headless run with --trace-decisions"
S='decide(1, "turret.t")["sight"][0]'
expect_eq "the record: tank.r, the edge rule's 0.4, seen" \
    "$(pyq "($S['to'], $S['rule'], $S['threshold'], $S['seen'], $S['method'])")" \
    "('tank.r', 'edge', 0.4, True, 'exact')"
# Independently: the angle off the facing from the map's positions.
expect_eq "the tank is past 0.75 of the half angle (33.75 degrees)" \
    "$(pyq '__import__("math").degrees(__import__("math").atan2(821.39 - 500, 583.02 - 200)) > 33.75')" True
expect_eq "the distance is the centres'" \
    "$(pyq "abs($S['distance'] - 500) < 0.01")" True

inspect "$MAP" 1 1
ok $? "the viewer reaches tick 1 with turret.t selected"
has "sight exact"
ok $? "the inspector names the method"
has " tank.r at $(pyq "'%.0f' % $S['distance']")"
ok $? "and the target and its distance, as the decide line"
has "  $(pyq "'%.0f%% >= %.0f%% %s: seen' % (100 * $S['visible'], 100 * $S['threshold'], $S['rule'])")"
ok $? "and the fraction against the threshold that applied, and why (edge)"
done_testing
