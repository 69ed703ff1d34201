#!/bin/sh
# The avoidance goals of issue 3, run headless and read from the summary:
# predictive avoidance gets 60 wandering tanks through 60 s without a
# collision, and 300 (five times the density) with fewer than 1 collision
# per 10,000 tank-seconds.  The same crowds with classic and none must
# collide, or the scenarios would prove nothing; their counts are noted.
. "$top_srcdir/tests/lib/lib.sh"

field() {   # field NAME SUMMARY-LINE
    printf '%s\n' "$2" | sed -n "s/.*\"$1\":\([-0-9.e+]*\).*/\1/p"
}

run() {     # run MAP METHOD: prints the summary line
    sed "s/^avoid = .*/avoid = $2/" "$1" > "$TMPD/map.ini"
    "$BOTFIELD" --headless --seconds 60 --summary "$TMPD/map.ini"
}

for n in 60 300; do
    map="$top_srcdir/tests/maps/crowd$n.ini"
    for m in none classic predictive; do
        s=$(run "$map" $m)
        c=$(field collisions "$s")
        note "crowd$n $m: collisions $c, min_separation $(field min_separation "$s"), edge_hits $(field edge_hits "$s")"
        eval "c_${n}_$m=\${c:--1}"
    done
done

[ "$c_60_predictive" -eq 0 ]
ok $? "60 tanks, predictive: no collision in 60 s (got $c_60_predictive)"
# 300 tanks x 60 s = 18,000 tank-seconds: under 1.8 collisions.
[ "$c_300_predictive" -ge 0 ] && [ $((c_300_predictive * 10000)) -lt $((300 * 60)) ]
ok $? "300 tanks, predictive: under 1 collision per 10,000 tank-seconds (got $c_300_predictive)"
[ "$c_60_none" -gt 0 ] && [ "$c_300_none" -gt "$c_60_none" ]
ok $? "without avoidance the crowds collide, the denser one more ($c_60_none, $c_300_none)"
[ "$c_60_classic" -gt 0 ] && [ "$c_300_classic" -gt 0 ]
ok $? "the article's classic avoidance does not prevent them ($c_60_classic, $c_300_classic)"
done_testing
