#!/bin/sh
# Recordings keep what the command line changed: every --set, in order,
# in the header ("set"), applied again by the replay.  Recorded from the
# viewer, headless, by a tournament (--seeds with --record DIR, one file a
# run) and by a headless --compare (each side), each replays exactly from
# another folder, without the map or its scripts; --replay with a --set of
# its own is refused; a recording made before "set" was kept replays.
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"
WAIT_S=20

mkdir -p "$TMPD/m/bots" "$TMPD/elsewhere"
cp "$top_srcdir/maps/bots-duel.ini" "$TMPD/m/"
cp "$top_srcdir/maps/bots/hunter.lua" "$top_srcdir/maps/bots/avoid.lua" "$TMPD/m/bots/"
chmod -R u+w "$TMPD/m"
map="$TMPD/m/bots-duel.ini"
# A bot given by --set, a tuned number, a method.
SETS="--set tank.blue.bot=bots/avoid.lua --set team.red.turn_rate=45 --set team.red.aim=classic"

hide_map() { mv "$TMPD/m" "$TMPD/m.away"; }
show_map() { mv "$TMPD/m.away" "$TMPD/m"; }

# ---- headless -----------------------------------------------------------
# shellcheck disable=SC2086
"$BOTFIELD" --headless --ticks 1300 $SETS --record "$TMPD/h.rec" --trace "$TMPD/h.tr" "$map" \
    >/dev/null 2>"$TMPD/err"
expect_eq "headless: the recorded run exits 0" "$?" 0
head -n 1 "$TMPD/h.rec" | grep -q '"set":\["tank.blue.bot=bots/avoid.lua","team.red.turn_rate=45","team.red.aim=classic"\]}$'
ok $? "headless: the header holds the three settings in the order given"
"$BOTFIELD" --headless --ticks 1300 --trace "$TMPD/plain.tr" "$map" >/dev/null
cmp -s "$TMPD/plain.tr" "$TMPD/h.tr"
[ $? -ne 0 ]
ok $? "the settings change the run (a replay without them would differ)"
hide_map
replays_elsewhere "$TMPD/h.rec" "headless" "$TMPD/h.tr"
show_map

# A replay repeats the run: a --set of its own is refused, nothing runs.
"$BOTFIELD" --headless --replay "$TMPD/h.rec" --set team.red.aim=exact \
    --trace "$TMPD/refused.tr" >"$TMPD/out" 2>"$TMPD/err"
expect_eq "--replay with --set: exit 2" "$?" 2
grep -q -- "--replay .*--set team.red.aim=exact: a replay repeats the run" "$TMPD/err"
ok $? "--replay with --set says why"
[ ! -e "$TMPD/refused.tr" ]
ok $? "--replay with --set writes no trace"

# A recording of the old format (no "set" in its header) still replays.
"$BOTFIELD" --headless --ticks 700 --record "$TMPD/old.rec" --trace "$TMPD/old.tr" "$map" \
    >/dev/null 2>&1
sed '1s/,"set":\[\]}$/}/' "$TMPD/old.rec" >"$TMPD/old2.rec"
head -n 1 "$TMPD/old2.rec" | grep -q '"set"'
[ $? -ne 0 ]
ok $? "the old header has no set"
replays_elsewhere "$TMPD/old2.rec" "a recording without set" "$TMPD/old.tr"

# A hostile set list is refused with the line and what is allowed, and a
# setting that is not one by the reader.
sed '1s/,"set":\[\]}$/,"set":[42]}/' "$TMPD/old.rec" >"$TMPD/bad.rec"
"$BOTFIELD" --headless --replay "$TMPD/bad.rec" >/dev/null 2>"$TMPD/err"
expect_eq "a set item that is not a string: exit 2" "$?" 2
grep -q "bad.rec:1: the header's list at byte [0-9]* holds a value that is not a string" "$TMPD/err"
ok $? "a bad set item is named with its line"
sed '1s/,"set":\[\]}$/,"set":["no equals sign"]}/' "$TMPD/old.rec" >"$TMPD/bad3.rec"
"$BOTFIELD" --headless --replay "$TMPD/bad3.rec" >/dev/null 2>"$TMPD/err"
expect_eq "a set item without '=': exit 2" "$?" 2
grep -q 'bad3.rec:1: recording "set" item 1 is not a setting' "$TMPD/err"
ok $? "a set item without '=' is named with its line"
sed '1s/,"set":\[\]}$/,"set":["team.red.turn_rate=-5"]}/' "$TMPD/old.rec" >"$TMPD/bad2.rec"
"$BOTFIELD" --headless --replay "$TMPD/bad2.rec" >/dev/null 2>"$TMPD/err"
expect_eq "a set value the map refuses: exit 2" "$?" 2
grep -q 'turn_rate' "$TMPD/err"
ok $? "a bad set value gets the map loader's message"

# ---- a tournament: one recording a run, named by its seed ---------------
# shellcheck disable=SC2086
"$BOTFIELD" --headless --seeds 3-5 --ticks 700 $SETS --record "$TMPD/recs" "$map" \
    >"$TMPD/tour.out" 2>"$TMPD/err"
expect_eq "tournament with --record: exit 0" "$?" 0
expect_eq "one recording a seed" "$(ls "$TMPD/recs" | tr '\n' ' ')" "3.rec 4.rec 5.rec "
for s in 3 4 5; do
    # shellcheck disable=SC2086
    "$BOTFIELD" --headless --seed $s --ticks 700 $SETS --trace "$TMPD/s$s.tr" "$map" >/dev/null
    hide_map
    replays_elsewhere "$TMPD/recs/$s.rec" "tournament seed $s" "$TMPD/s$s.tr"
    show_map
done
# A sweep: one a seed and combination, in the sweep's order.
"$BOTFIELD" --headless --seeds 1-2 --ticks 100 --set team.red.aim=classic,exact \
    --record "$TMPD/sweep" "$map" >/dev/null 2>&1
expect_eq "a sweep's recordings" "$(ls "$TMPD/sweep" | tr '\n' ' ')" "1-1.rec 1-2.rec 2-1.rec 2-2.rec "
grep -q '"set":\["team.red.aim=exact"\]' "$TMPD/sweep/2-2.rec"
ok $? "the second combination's recording holds its value"
: >"$TMPD/afile"
"$BOTFIELD" --headless --seeds 1-2 --ticks 10 --record "$TMPD/afile" "$map" >/dev/null 2>"$TMPD/err"
expect_eq "--seeds --record on a file: exit 2" "$?" 2
grep -q 'not a folder' "$TMPD/err"
ok $? "--seeds --record on a file says it needs a folder"
[ ! -s "$TMPD/afile" ]
ok $? "the file is left as it was"

# ---- --compare: each side ----------------------------------------------
# shellcheck disable=SC2086
"$BOTFIELD" --headless --ticks 1300 $SETS --compare team.blue.aim=classic \
    --record "$TMPD/c.rec" "$map" >/dev/null 2>"$TMPD/err"
expect_eq "compare with --record: exit 0" "$?" 0
# shellcheck disable=SC2086
"$BOTFIELD" --headless --ticks 1300 $SETS --trace "$TMPD/ca.tr" "$map" >/dev/null
# shellcheck disable=SC2086
"$BOTFIELD" --headless --ticks 1300 $SETS --set team.blue.aim=classic --trace "$TMPD/cb.tr" \
    "$map" >/dev/null
hide_map
replays_elsewhere "$TMPD/c.rec" "compare side A" "$TMPD/ca.tr"
replays_elsewhere "$TMPD/c.b.rec" "compare side B" "$TMPD/cb.tr"
show_map

# ---- the viewer ----------------------------------------------------------
# shellcheck disable=SC2086
start_limited v - --paused $SETS --record "$TMPD/v.rec" "$map"
wait_for v 'tick 0 '
ok $? "the viewer opens with --set and --record"
steps v . 650
wait_for v 'tick 650 '
ok $? "650 steps"
tm send-keys -t v q
wait_for v 'EXIT 0'
ok $? "q quits with status 0"
# shellcheck disable=SC2086
"$BOTFIELD" --headless --ticks 650 $SETS --trace "$TMPD/v.tr" "$map" >/dev/null
hide_map
replays_elsewhere "$TMPD/v.rec" "viewer" "$TMPD/v.tr"
show_map

done_testing
