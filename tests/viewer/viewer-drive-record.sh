#!/bin/sh
# A played game recorded and replayed: drive the player tank of
# maps/duel.ini in the viewer with --record (turn, speed up, fire, step),
# quit; the recording holds the input lines on their ticks, and a headless
# --replay recomputes it with every checkpoint equal (exit 0), the player's
# tank moving and firing as it was driven.  A change of input after a step
# back stops the recording (it could not keep the new future).
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"
MAP="$top_srcdir/maps/duel.ini"
REC="$TMPD/played.rec"

start_session v 150 36 "$BOTFIELD --paused --record $REC $MAP"

seen '^ tick 0 '
ok $? "the viewer starts paused at tick 0, recording"
tm send-keys -t v D Right w w w w
seen 'turn right  speed 60/60'
ok $? "driving: full right turn, full speed"
steps 40
seen '^ tick 40 '
ok $? "40 steps"
tm send-keys -t v Left space
seen 'turn straight'
ok $? "straight on, and fire"
steps 80
seen '^ tick 120 '
ok $? "80 steps more"
tm send-keys -t v Escape q
# The recording's end line itself, up to 60 s (a loaded machine), before
# the session goes: a kill while the viewer is still writing would race it.
i=0
while [ $i -lt 600 ] && ! grep -q '"type":"end"' "$REC" 2>/dev/null; do
    sleep 0.1
    i=$((i + 1))
done
i=0
while [ $i -lt 300 ] && tm list-panes -t v -F '#{pane_current_command}' 2>/dev/null | grep -q botfield; do
    sleep 0.1
    i=$((i + 1))
done
tm kill-session -t v 2>/dev/null

n=$(grep -c '"type":"input"' "$REC")
grep '"type":"input"' "$REC" | sed "s/^/# /"
expect_eq "the recording has an input line per change (D keeps all, 6 changes)" "$([ "$n" -ge 3 ] && echo yes)" yes
# (30 degrees a second, kept as the double the tank holds: 29.999...6)
grep -Eq '"type":"input","tick":0,"id":"tank.me","turn":(30|29\.9+6),' "$REC"
ok $? "the first inputs are on tick 0: a full right turn (30 degrees a second)"
grep -q '"type":"input","tick":40,"id":"tank.me","turn":0,.*"fire":true' "$REC"
ok $? "on tick 40: straight on, and fire"
grep -q '"type":"end","tick":120,' "$REC"
ok $? "the end line is on tick 120"

"$BOTFIELD" --headless --replay "$REC" --trace "$TMPD/t" 2>"$TMPD/err"
rc=$?
expect_eq "the headless replay agrees with every checkpoint (exit 0)" "$rc" 0
[ -s "$TMPD/err" ] && sed 's/^/# /' "$TMPD/err"
grep -q '"type":"shot","tick":4[01],"shooter":"tank.me"' "$TMPD/t"
ok $? "the replayed player fires on the tick it was told to"
grep -q '"type":"state","tick":120,"id":"tank.me",.*"speed":60,' "$TMPD/t"
ok $? "and drives at full speed at its end"
"$BOTFIELD" --headless --ticks 120 --trace "$TMPD/still" "$MAP"
grep -q '"type":"state","tick":120,"id":"tank.me",.*"speed":0,' "$TMPD/still"
ok $? "(a headless run of the map leaves the player still: the moves came from the recording)"

# A tampered input changes the run: the replay says where it diverges.
sed 's/"type":"input","tick":40,"id":"tank.me","turn":0,/"type":"input","tick":40,"id":"tank.me","turn":-30,/' "$REC" >"$TMPD/bad.rec"
"$BOTFIELD" --headless --replay "$TMPD/bad.rec" --trace "$TMPD/t2" 2>"$TMPD/err2"
expect_eq "an input changed in the file: the replay diverges (exit 1)" "$?" 1
grep -q 'diverges at tick 120' "$TMPD/err2"
ok $? "named at the end line's tick"
# An input for a tank that is not the player's is refused before the run.
sed 's/"type":"input","tick":40,"id":"tank.me"/"type":"input","tick":40,"id":"tank.hunter1"/' "$REC" >"$TMPD/who.rec"
"$BOTFIELD" --headless --replay "$TMPD/who.rec" 2>"$TMPD/err3" >/dev/null
expect_eq "an input for a tank that is not the player: exit 2" "$?" 2
grep -q 'not the map.s player' "$TMPD/err3"
ok $? "said so, with the line"
done_testing
