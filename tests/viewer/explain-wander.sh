#!/bin/sh
# A wander turn explained: the decide line and the inspector both give the
# turn drawn, and the trace's own headings confirm it (a random turn at
# tick 10 of tests/maps/explain/wander.ini; an edge turn on tick 1 of
# edge.ini, its side the clearer one).
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"
. "$top_srcdir/tests/lib/explain-lib.sh"
MAP="$top_srcdir/tests/maps/explain/wander.ini"

decisions "$MAP" 120
ok $? "a headless run with --trace-decisions"
expect_eq "tick 10: a random turn is drawn" \
    "$(pyq 'decide(10, "tank.w")["wander"]["rule"]')" random
drawn=$(pyq 'decide(10, "tank.w")["wander"]["drawn"]')
# The decide line's turn is the heading's change in the state lines.
expect_eq "the decide line's turn is the state lines' change of heading" \
    "$(pyq 'abs(decide(10, "tank.w")["turn"] - (state(10, "tank.w")["heading"] - state(9, "tank.w")["heading"])) < 1e-9')" True
# Independently of the records: the direction of travel, from the
# positions alone, has turned by the drawn angle once the turn is made.
expect_eq "the positions turn by the drawn $drawn degrees" \
    "$(pyq '(lambda m: abs(m(110) - m(9) - '"$drawn"') < 1e-6)(lambda t: __import__("math").degrees(__import__("math").atan2(state(t, "tank.w")["y"] - state(t - 1, "tank.w")["y"], state(t, "tank.w")["x"] - state(t - 1, "tank.w")["x"])))')" True

inspect "$MAP" 10 1
ok $? "the viewer reaches tick 10 with tank.w selected"
has "why: random turn $(pyq '"right" if decide(10, "tank.w")["turn"] > 0 else "left"')"
ok $? "the inspector's first answer: the random turn, on the decide line's side"
has "wander: random turn"
ok $? "the inspector names the rule"
has " drew $(pyq '"%+.2f" % decide(10, "tank.w")["wander"]["drawn"]') this tick"
ok $? "the inspector gives the turn drawn, as the decide line"
has " turn $(pyq '"%+.2f, %.2f" % (decide(10, "tank.w")["wander"]["turn"], decide(10, "tank.w")["wander"]["left"])') left"
ok $? "and this tick's part of it and what is left, as the decide line"

MAP="$top_srcdir/tests/maps/explain/edge.ini"
decisions "$MAP" 2
expect_eq "edge.ini tick 1: the edge rule, on the clearer side" \
    "$(pyq '(lambda w: (w["rule"], w["side"], w["clear_right"] > w["clear_left"], w["drawn"] > 0))(decide(1, "tank.e")["wander"])')" \
    "('edge', 'clearer', True, True)"
inspect "$MAP" 1 1
ok $? "the viewer reaches tick 1 with tank.e selected"
has "wander: edge turn"
ok $? "the inspector names the edge rule"
has " drew $(pyq '"%+.2f" % decide(1, "tank.e")["wander"]["drawn"]') this tick"
ok $? "and the turn drawn, as the decide line"
has " clearer side: R $(pyq '"%.0f L %.0f" % (decide(1, "tank.e")["wander"]["clear_right"], decide(1, "tank.e")["wander"]["clear_left"])')"
ok $? "and both sides' clearances, as the decide line"
done_testing
