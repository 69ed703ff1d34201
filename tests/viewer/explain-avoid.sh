#!/bin/sh
# A threat explained: two tanks head-on (tests/maps/explain/threat.ini).
# On tick 8 tank.a's predictive avoidance re-plans against tank.b: the
# decide line and the inspector both name the threat, the hit point, the
# turn and speed chosen and the chosen candidate's cost.
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"
. "$top_srcdir/tests/lib/explain-lib.sh"
MAP="$top_srcdir/tests/maps/explain/threat.ini"

decisions "$MAP" 10
ok $? "a headless run with --trace-decisions"
A='decide(8, "tank.a")["avoid"]'
expect_eq "tick 8: tank.a's threat is tank.b" "$(pyq "$A[\"threat\"]")" tank.b
# The hit point lies on tank.a's line of travel, ahead of it: where it will
# be at the closest approach (y as it drives along +x).
expect_eq "the hit point is ahead on tank.a's line" \
    "$(pyq "$A[\"hit_y\"] == state(7, \"tank.a\")[\"y\"] and $A[\"hit_x\"] > state(7, \"tank.a\")[\"x\"]")" True
expect_eq "it steers, and the chosen candidate is the cheapest tried" \
    "$(pyq "(lambda a: a['steer'] and a['candidates'][a['chosen']]['cost'] == min(c['cost'] for c in a['candidates'] if c['tried']))($A)")" True
expect_eq "its turn is the chosen candidate's, and the decision's" \
    "$(pyq "(lambda a: a['turn'] == a['candidates'][a['chosen']]['turn'] == decide(8, 'tank.a')['turn'])($A)")" True

inspect "$MAP" 8 1
ok $? "the viewer reaches tick 8 with tank.a selected"
has "why: avoids $(pyq "$A['threat']")"
ok $? "the inspector's first answer: it avoids the decide line's threat"
has " threat tank.b"
ok $? "the inspector names the threat"
has " hit point $(pyq "'%.0f, %.0f' % ($A['hit_x'], $A['hit_y'])")"
ok $? "and the hit point, as the decide line"
has " closest $(pyq "'%.1f in %.2fs' % ($A['dca'], $A['tca'])")"
ok $? "and the closest approach, as the decide line"
has " steers $(pyq "'%s: %+.2f at %.1f' % ($A['side'], $A['turn'], $A['speed'])")"
ok $? "and the turn and speed chosen, as the decide line"
has " cost $(pyq "(lambda a: '%.3f, next %.3f' % (a['candidates'][a['chosen']]['cost'], min(c['cost'] for k, c in enumerate(a['candidates']) if k != a['chosen'])))($A)")"
ok $? "and the chosen candidate's cost beside the next best, as the decide line"
# The candidates' grid: the row of the chosen turn, its three costs.
has "$(pyq "(lambda a: (lambda k: ' %s%d       ' % ('R' if k > 0 else 'L' if k < 0 else ' ', abs(k)) + ''.join('%5.2f%s' % (a['candidates'][c]['cost'], '*' if c == a['chosen'] else ' ' if a['candidates'][c]['tried'] else '~') for c in range(3 * (3 - k), 3 * (3 - k) + 3)))(3 - a['chosen'] // 3))($A)" | sed 's/ *$//')"
ok $? "and the chosen candidate's row of costs in the grid, as the decide line"
done_testing
