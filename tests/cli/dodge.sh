#!/bin/sh
# dodge = yes pays in a fixed scene (tests/maps/dodge.ini): a turret fires
# at a tank that drives across its view and sees every shell coming; the
# dodging tank is hit far less often than the same tank with dodge = no.
# Counts, not times: the same run always gives the same numbers.
. "$top_srcdir/tests/lib/lib.sh"
MAP="$top_srcdir/tests/maps/dodge.ini"

# hits DODGE: the summary's hits on the tank over the map's two minutes
hits() {
    "$BOTFIELD" --headless --summary --set "tank.runner.dodge=$1" "$MAP" 2>"$TMPD/err" \
        | sed -n 's/.*"hits":\([0-9]*\).*/\1/p'
}

yes_hits=$(hits yes)
no_hits=$(hits no)
note "hits with dodge = yes: $yes_hits, with dodge = no: $no_hits"
[ -n "$no_hits" ] && [ "$no_hits" -ge 20 ]
ok $? "the turret hits the tank that does not dodge often (at least 20 times)"
[ -n "$yes_hits" ] && [ -n "$no_hits" ] && [ $((yes_hits * 2)) -lt "$no_hits" ]
ok $? "the dodging tank is hit less than half as often"
"$BOTFIELD" --headless --summary "$MAP" 2>/dev/null | grep -q "\"hits\":$yes_hits,"
ok $? "dodge = yes is the default"
done_testing
