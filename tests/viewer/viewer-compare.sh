#!/bin/sh
# --compare (issue 16): two worlds from the same seed, the second with a
# setting changed, side by side in the viewer, driven in a detached tmux.
# Both halves and their counts show at 80x24 (one above the other) and in
# a wide terminal (left and right); after 40 steps and after g 600 each
# half's counts are those of a separate headless run without and with
# `--set` the change;
# the divergence mark names the first tick where the two runs' traces
# differ; seeking, stepping back and selecting act on both; a bad value
# is refused like a map line, before the terminal is touched; a map
# changed on disk reloads both.
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"
# Red does not dodge: its first shot (tank.red.2's, tick 9) is where the
# two aims differ; dodging shell 1 puts red.2 where both aims agree to the
# last bit but the shell's flight time, state the trace's lines do not show.
MAP="$TMPD/forest.ini"
sed 's/^\[team\.red\]$/[team.red]\ndodge = no/' "$top_srcdir/maps/forest.ini" >"$MAP"
SET=team.red.aim=classic

# ---- the headless references -------------------------------------------
"$BOTFIELD" --headless --ticks 600 --trace "$TMPD/a.trace" "$MAP" &&
"$BOTFIELD" --headless --ticks 600 --set "$SET" --trace "$TMPD/b.trace" "$MAP"
ok $? "two headless runs of 600 ticks, without and with --set $SET"
# field FILE NAME: a number of the trace's summary line.
field() { grep '"type":"summary"' "$1" | sed "s/.*\"$2\":\([0-9]*\).*/\1/"; }
ko() { grep '"type":"summary"' "$1" | sed 's/.*"knockouts":{\([^}]*\)}.*/\1/' |
    tr ',' '\n' | awk -F: '{ n += $2 } END { print n + 0 }'; }
sa=$(field "$TMPD/a.trace" shots) ha=$(field "$TMPD/a.trace" hits) ka=$(ko "$TMPD/a.trace")
sb=$(field "$TMPD/b.trace" shots) hb=$(field "$TMPD/b.trace" hits) kb=$(ko "$TMPD/b.trace")
[ "$sa" != "$sb" ]
ok $? "the change makes a difference the counts show (shots $sa and $sb)"
# The first tick whose state lines differ between the two traces.
grep '"type":"state"' "$TMPD/a.trace" >"$TMPD/a.states"
grep '"type":"state"' "$TMPD/b.trace" >"$TMPD/b.states"
div=$(diff "$TMPD/a.states" "$TMPD/b.states" | sed -n 's/^< .*"tick":\([0-9]*\),.*/\1/p' | head -n 1)
[ -n "$div" ] && [ "$div" -gt 0 ]
ok $? "the traces' states first differ at tick $div"

out=$("$BOTFIELD" --headless --ticks 600 --compare "$SET" "$MAP")
ok $? "--headless --compare runs"
expect_eq "its first line is the headless run's summary" "$(echo "$out" | sed -n 1p)" \
    "$(grep '"type":"summary"' "$TMPD/a.trace")"
expect_eq "its second line is the --set run's summary" "$(echo "$out" | sed -n 2p)" \
    "$(grep '"type":"summary"' "$TMPD/b.trace")"
expect_eq "its last line names the first tick the traces differ" "$(echo "$out" | sed -n 3p)" \
    "{\"type\":\"compare\",\"set\":\"$SET\",\"diverged\":$div}"
out=$("$BOTFIELD" --headless --ticks 600 --compare team.red.aim=exact "$MAP" | sed -n 3p)
expect_eq "a setting the map already has: no divergence" "$out" \
    '{"type":"compare","set":"team.red.aim=exact","diverged":null}'

# ---- bad values: the map's messages, naming the option --------------------
err=$("$BOTFIELD" --compare team.red.aim=bogus "$MAP" 2>&1 </dev/null)
ok $(( $? != 2 )) "a bad --compare value exits 2"
want=$("$BOTFIELD" --headless --set team.red.aim=bogus "$MAP" 2>&1)
expect_eq "with the --set message, naming --compare" "$err" \
    "$(echo "$want" | sed 's/^botfield: --set /botfield: --compare /')"
err=$("$BOTFIELD" --compare team.red.aim "$MAP" 2>&1 </dev/null)
ok $(( $? != 2 )) "--compare without =VALUE exits 2"
echo "$err" | grep -q "^botfield: --compare team.red.aim: expected SECTION.KEY=VALUE"
ok $? "and says what is expected"
"$BOTFIELD" --compare "$SET" --record "$TMPD/r" "$MAP" 2>"$TMPD/err" </dev/null
ok $(( $? != 2 )) "--compare with --record in the viewer exits 2"
grep -q -- "--compare --record records a headless comparison (add --headless)" "$TMPD/err"
ok $? "and says why (a headless comparison records each side)"
[ ! -e "$TMPD/r" ]
ok $? "and writes no recording"
# In a terminal: the error, then the terminal as it was (echo, canonical).
start_session bad 80 24 "$BOTFIELD --compare team.red.aim=bogus $MAP; echo rc=\$?; stty -a"
wait_for bad 'rc=2'
ok $? "in a terminal the bad value exits 2"
screen bad | grep -q -- '--compare team.red.aim=bogus: not a known value'
ok $? "with its message"
screen bad | grep -q ' icanon ' && screen bad | grep -q ' echo '
ok $? "and the terminal keeps echo and canonical input"

# ---- 80x24: one above the other ------------------------------------------
start_session v 80 24 "$BOTFIELD --paused --compare $SET $MAP"
seen '^ B team\.red\.aim=classic '
ok $? "80x24: B's half is labelled with its setting"
screen | grep -q '^ A team\.red\.aim=exact '
ok $? "and A's with the map's own value"
[ "$(screen | grep -c '^ [AB] .* shots 0  hits 0  ko 0 ')" -eq 2 ]
ok $? "both show their counts at tick 0"
[ "$(screen | grep -n '^ [AB] ' | cut -d: -f1 | tr '\n' ' ')" = "2 13 " ]
ok $? "A on the second row, B half way down"
screen | head -n 1 | grep -q 'same to tick 0'
ok $? "the status line: the same so far"
screen | head -n 1 | grep -q 'on: marks  same to tick 0 '
ok $? "at 80 columns the overlays on show whole and the map's name gives way to it"

# label_counts SIDE: "shots N hits N ko N" of that half's label (no diffs).
label_counts() {
    screen | grep "^ $1 " | sed 's/([-+][0-9]*)//g' |
        sed 's/.* shots \([0-9]*\)  hits \([0-9]*\)  ko \([0-9]*\) .*/\1 \2 \3/'
}
# Forty steps with `.`, one at a time: both halves against headless runs.
"$BOTFIELD" --headless --ticks 40 --summary "$MAP" >"$TMPD/a40"
"$BOTFIELD" --headless --ticks 40 --set "$SET" --summary "$MAP" >"$TMPD/b40"
steps 40
seen '^ tick 40 '
ok $? "40 presses of . step both worlds to tick 40"
expect_eq "A's counts are the headless run's at tick 40" "$(label_counts A)" \
    "$(field "$TMPD/a40" shots) $(field "$TMPD/a40" hits) $(ko "$TMPD/a40")"
expect_eq "B's counts are the --set run's at tick 40" "$(label_counts B)" \
    "$(field "$TMPD/b40" shots) $(field "$TMPD/b40" hits) $(ko "$TMPD/b40")"
screen | head -n 1 | grep -q "differ from tick $div "
ok $? "stepping finds the traces' first differing tick too ($div)"

tm send-keys -t v g 6 0 0 Enter
seen '^ tick 600 ' 30
ok $? "g 600 Enter goes to tick 600"
expect_eq "A's counts are the headless run's" "$(label_counts A)" "$sa $ha $ka"
expect_eq "B's counts are the --set run's" "$(label_counts B)" "$sb $hb $kb"
d=$((sb - sa))
[ $d -gt 0 ] && d="+$d"
screen | grep '^ B ' | grep -q "shots $sb($d)"
ok $? "B's label shows the difference in shots ($d)"
screen | head -n 1 | grep -q "differ from tick $div "
ok $? "the status line names the first differing tick, the traces' ($div)"
screen | head -n 1 | grep -q '!'
ok $? "and the timeline marks it"

tm send-keys -t v Home
seen '^ tick 0 '
[ "$(screen | grep -c '^ [AB] .* shots 0  hits 0  ko 0 ')" -eq 2 ]
ok $? "Home: both halves back at tick 0"
tm send-keys -t v End
seen '^ tick 600 '
expect_eq "End: B at tick 600 again" "$(label_counts B)" "$sb $hb $kb"
# A step back: both worlds at the tick before the last shot's.
"$BOTFIELD" --headless --ticks 300 --set "$SET" --summary "$MAP" >"$TMPD/b300"
tm send-keys -t v PageUp PageUp PageUp PageUp PageUp
seen '^ tick 0 '
tm send-keys -t v g 3 0 1 Enter
seen '^ tick 301 '
tm send-keys -t v ,
seen '^ tick 300 '
expect_eq "g 301, then a step back: B's counts are the --set run's at tick 300" \
    "$(label_counts B)" "$(field "$TMPD/b300" shots) $(field "$TMPD/b300" hits) $(ko "$TMPD/b300")"
# ids (i): an overlay shows in both halves (rows 3-12 are A's map, 14-23 B's).
ids_in() { screen | sed -n "$1,$2p" | grep -c 'red\.[0-9]'; }
[ "$(ids_in 3 12)" -eq 0 ] && [ "$(ids_in 14 23)" -eq 0 ]
ok $? "no ids on the map before i"
tm send-keys -t v i
seen 'red\.[0-9]'
[ "$(ids_in 3 12)" -gt 0 ] && [ "$(ids_in 14 23)" -gt 0 ]
ok $? "i: the ids in both halves"
tm send-keys -t v i
tm send-keys -t v Tab
seen '│turret\.red'
[ "$(screen | grep -c '│turret\.red *$')" -eq 2 ]
ok $? "Tab selects in both: each half has its inspector"

# ---- a wide terminal: left and right -------------------------------------
tm resize-window -t v -x 200 -y 50
seen '^ A team\.red\.aim=exact .*│ B team\.red\.aim=classic '
ok $? "200x50: A on the left, B on the right, on one row"
screen | head -n 1 | grep -q 'on: marks  forest  [a-z]* .*tick '
ok $? "and the status line has room for the map's name again"
tm send-keys -t v End
seen '^ tick 600 '
expect_eq "A's counts there" "$(screen | grep '^ A ' | sed 's/│.*//' | sed 's/.* shots \([0-9]*\)  hits \([0-9]*\)  ko \([0-9]*\) .*/\1 \2 \3/')" "$sa $ha $ka"
expect_eq "B's counts there" "$(screen | grep '^ A ' | sed 's/.*│ B //' | sed 's/([-+][0-9]*)//g' | sed 's/.* shots \([0-9]*\)  hits \([0-9]*\)  ko \([0-9]*\) .*/\1 \2 \3/')" "$sb $hb $kb"
tm send-keys -t v Tab Tab
seen '│tank\.red\.1'
[ "$(screen | grep -c '│aim exact *$')" -eq 1 ] && [ "$(screen | grep -c '│aim classic *$')" -eq 1 ]
ok $? "tank.red.1's inspector: aim exact in A's (above), aim classic in B's (below)"
tm send-keys -t v q

# ---- a map changed on disk: both worlds reload ----------------------------
mkdir "$TMPD/m"
cp "$MAP" "$TMPD/m/forest.ini"
start_session w 80 24 "$BOTFIELD --paused --compare $SET $TMPD/m/forest.ini"
wait_for w '^ A team\.red\.aim=exact '
tm send-keys -t w g 3 0 0 Enter
wait_for w "differ from tick $div "
# The map itself now says what B sets: the two worlds are the same.
sed 's/^\[team\.red\]$/[team.red]\naim = classic/' "$MAP" >"$TMPD/m/new.ini"
mv "$TMPD/m/new.ini" "$TMPD/m/forest.ini"
wait_for w '^ A team\.red\.aim=classic '
ok $? "after the map changed on disk, A's label has its new value"
tm send-keys -t w g 3 0 0 Enter
wait_for w '^ tick 300 .*same to tick 300 ' 20
ok $? "and B was reloaded too: the same to tick 300"
tm send-keys -t w q
done_testing
