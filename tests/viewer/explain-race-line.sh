#!/bin/sh
# The racing line in the viewer (maps/racing-line.ini): on tick 300
# car.line's inspector gives its place on its line (arc length within the
# line's length) and the speed it plans for the next corner (within its
# max_speed), and overlay w draws the planned line (it adds many more dots
# than on a copy of the map whose cars steer the classic way).
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"
. "$top_srcdir/tests/lib/explain-lib.sh"
MAP="$top_srcdir/maps/racing-line.ini"

inspect "$MAP" 300 1
ok $? "the viewer reaches tick 300 with a car selected"
grep -qx 'car\.line' "$TMPD/panel"
ok $? "the selected car is car.line"
LINE=$(grep -E '^ line [0-9]+/[0-9]+, corner [0-9]+\.[0-9]$' "$TMPD/panel")
[ -n "$LINE" ]
ok $? "the inspector shows its place on the line and the next corner's speed"
[ -n "$LINE" ] || sed 's/^/# | /' "$TMPD/panel"
echo "$LINE" | awk '{ split($2, p, "/"); sub(",", "", p[2]);
                      exit !(p[1] + 0 >= 0 && p[1] + 0 < p[2] + 0 && p[2] > 1000) }'
ok $? "its place lies within the line's length ($LINE)"
echo "$LINE" | awk '{ exit !($4 + 0 >= 20 && $4 + 0 <= 200) }'
ok $? "the corner's speed lies within min_speed and max_speed"

# dots: the braille cells left of the inspector's bar
dots() {
    tm capture-pane -p -t x | python3 -c '
import sys
text = sys.stdin.buffer.read().decode("utf-8", "replace")
print(sum(1 for line in text.splitlines() for ch in line.split("\u2502")[0]
          if "\u2801" <= ch <= "\u28ff"))'
}
# overlay w's new dots: on this map, then on a copy whose cars head for
# the centres (steer = classic): the waypoints and turning circles are
# drawn on both, the planned line only on the first
w_dots() {
    before=$(dots)
    tm send-keys -t x w
    sleep 0.2; settle x
    echo $(( $(dots) - before ))
}
with_line=$(w_dots)
sed 's/^steer = line$/steer = classic/' "$MAP" >"$TMPD/classic.ini"
inspect "$TMPD/classic.ini" 300 1
ok $? "the viewer reaches tick 300 on the copy without the line"
without=$(w_dots)
note "braille cells overlay w adds: $with_line with the line, $without without"
[ "$with_line" -gt $((without + 60)) ]
ok $? "overlay w draws the planned line"
done_testing
