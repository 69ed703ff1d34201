#!/bin/sh
# The tuning panel (T) in the viewer, recording: a tuned aim takes effect
# on the next tick and the run goes on from where it was (the tank's
# position continuous, the new method in the inspector); stepping back
# before the change shows the old value, forward again the new; a typed
# bad value gets the map's message; W saves only the changed values into
# a map full of comments and odd spacing (the bytes compared with a file
# built here); a file changed on disk is overwritten only after y; the
# recording's tune lines replay headless to the recorded checkpoints.
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"
MAP="$TMPD/tune.ini"
REC="$TMPD/tune.rec"
TAB=$(printf '\t')

cat >"$MAP" <<EOF
; a map full of comments
[map]
name   =  tune test   ; the name
width=800
height${TAB}=${TAB}600
seed = 5

[team.red]
color = red
random = 1
   aim   =   exact    # the team's solver
[team.blue]
color = blue

[tank.a]
team = red
x = 100
y = 300
heading = 0
turn_rate   =  30   ; degrees a second

[tank.b]
team = blue
x = 700
y = 300
heading = 180
EOF
# What W must leave: the same bytes but the four values tuned.
cat >"$TMPD/expected.ini" <<EOF
; a map full of comments
[map]
name   =  tune test   ; the name
width=800
height${TAB}=${TAB}600
seed = 5

[team.red]
color = red
random = 1
   aim   =   classic    # the team's solver
[team.blue]
color = blue

[tank.a]
aim = classic
team = red
x = 100
y = 300
heading = 0
turn_rate   =  45   ; degrees a second

[tank.b]
team = blue
x = 700
y = 300
heading = 180
[sight]
threshold = 0.22
EOF

start_session v 150 40 "$BOTFIELD --paused --record $REC $MAP"

seen '^ tick 0 '
ok $? "the viewer starts paused at tick 0, recording"
tm send-keys -t v Tab
seen '│tank\.a'
ok $? "tank.a selected"
steps 10
seen '^ tick 10 '
ok $? "10 steps"
# The inspector's position line: "at X, Y".
pos() { screen | sed -n 's/.*│at \([0-9.-]*\), \([0-9.-]*\).*/\1 \2/p' | head -n 1; }
p10=$(pos)
tm send-keys -t v T
seen 'tune \[tank\.a\]'
ok $? "T opens the panel on the selected tank's section"
seen '>length +40 +\(0\.\.10000\]'
ok $? "each key with its value and range from the key table"
tm send-keys -t v Up -
seen 'tick 10: \[tank\.a\] aim = classic from the next tick on'
ok $? "Up reaches aim, - cycles it to classic (said on the status line)"
seen '│aim classic'
ok $? "the inspector shows the new method at once"
steps 1
seen '^ tick 11 '
p11=$(pos)
note "tank.a at $p10 on tick 10, at $p11 on tick 11"
echo "$p10 $p11" | awk '{ dx = $3 - $1; dy = $4 - $2; exit !(dx > 0 && dx <= 1.01 && dy * dy < 0.01) }'
ok $? "the run goes on from the same state: one tick's move (at most 1 unit), no restart"
seen '│aim classic'
ok $? "tick 11: aim classic"
tm send-keys -t v , ,
seen '^ tick 9 '
seen '│aim exact'
ok $? "stepping back before the change (tick 9) shows the old method"
steps 1
seen '^ tick 10 '
seen '│aim classic'
ok $? "forward again to tick 10: the change applies again"
steps 1
seen '^ tick 11 '
[ "$(pos)" = "$p11" ]
ok $? "and tick 11 is where it was, to the unit shown ($(pos))"

# A typed value: checked as a map line, with the map's message.
tm send-keys -t v Down Down Down Down Down Enter BSpace BSpace a b c Enter
seen "$MAP: \\[tank\\.a\\] turn_rate = abc: not a number \\(expected more than 0, up to 36000\\)"
ok $? "a typed bad value: the map's message, naming the file, section and key"
tm send-keys -t v Enter BSpace BSpace BSpace 4 5 Enter
seen 'tick 11: \[tank\.a\] turn_rate = 45 from the next tick on'
ok $? "a typed good value applies"
# Typing after Enter replaces the value shown (60 over 45 once gave
# 4560); Ctrl-U clears what is typed; then 45 again, for W below.
tm send-keys -t v Enter 6 0 Enter
seen 'tick 11: \[tank\.a\] turn_rate = 60 from the next tick on'
ok $? "typed after Enter, a value replaces the one shown"
tm send-keys -t v Enter 1 2 C-u 7 5 Enter
seen 'tick 11: \[tank\.a\] turn_rate = 75 from the next tick on'
ok $? "Ctrl-U clears what is typed"
tm send-keys -t v Enter 4 5 Enter
seen 'tick 11: \[tank\.a\] turn_rate = 45 from the next tick on'
# The team's aim, and [sight]'s threshold (a section the map lacks).
tm send-keys -t v s
seen 'tune \[team\.red\]'
ok $? "s: the team's keys"
seen '>length +40 '
tm send-keys -t v Up
seen '>aim +exact '
ok $? "the team's aim is that of its tank that takes it (tank.red.1: exact; tank.a set its own)"
tm send-keys -t v -
seen 'tick 11: \[team\.red\] aim = classic'
ok $? "the team's aim tuned"
tm send-keys -t v s
seen 'tune \[sight\]'
tm send-keys -t v +
seen 'tick 11: \[sight\] threshold = 0.22'
ok $? "s again: [sight]; + steps the threshold up a coarse step (0.2 to 0.22)"

# Write back.
tm send-keys -t v W
seen "saved 4 values into $MAP"
ok $? "W saves the four values tuned"
cmp "$MAP" "$TMPD/expected.ini"
ok $? "the file is the map's bytes but the values tuned (comments, spacing, order kept)"
[ $? -eq 0 ] || diff "$MAP" "$TMPD/expected.ini" | sed 's/^/# /'
sleep 1
screen | grep -q 'reloaded'
expect_eq "our own save is no change on disk to reload from" "$?" 1
seen '^ tick 11 '
ok $? "still at tick 11"

# Changed on disk (an edit that does not load, so the run keeps going):
# W asks; n leaves the file alone; y overwrites.
sed 's/^width=800$/width=-8/' "$MAP" >"$TMPD/edit" && mv "$TMPD/edit" "$MAP"
seen 'map not reloaded'
ok $? "an edit on disk that does not load: the run goes on"
cp "$MAP" "$TMPD/edited.ini"
tm send-keys -t v W
seen 'changed on disk since it was loaded: overwrite it\? \(y/n\)'
ok $? "W on a file changed on disk asks first"
tm send-keys -t v n
seen 'not saved'
cmp -s "$MAP" "$TMPD/edited.ini"
ok $? "n: the file is left as it is"
tm send-keys -t v W
seen 'overwrite it\?'
tm send-keys -t v y
seen "saved 4 values into $MAP"
sed 's/^width=800$/width=-8/' "$TMPD/expected.ini" >"$TMPD/expected2.ini"
cmp -s "$MAP" "$TMPD/expected2.ini"
ok $? "y: written over, the edit kept and the values saved"

steps 20
seen '^ tick 31 '
tm send-keys -t v T q
# Up to 60 s for the viewer to quit and write the recording's end line
# (its final hash, which the checks below need): a TSan build, or a
# machine running three test suites at once, took more than 5 s, once
# more than 30.
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

grep '"type":"tune"' "$REC" | sed 's/^/# /'
grep -q '"type":"tune","tick":10,"section":"tank.a","key":"aim","value":"classic"' "$REC"
ok $? "the recording has the tune line on its tick"
# (aim, turn_rate 45, 60, 75, 45, the team's aim, the threshold)
expect_eq "seven tune lines in all" "$(grep -c '"type":"tune"' "$REC")" 7
"$BOTFIELD" --headless --replay "$REC" --trace "$TMPD/t1" 2>"$TMPD/err"
expect_eq "the headless replay applies them and agrees with every checkpoint (exit 0)" "$?" 0
[ -s "$TMPD/err" ] && sed 's/^/# /' "$TMPD/err"
"$BOTFIELD" --headless --replay "$REC" --trace "$TMPD/t2" 2>/dev/null
cmp -s "$TMPD/t1" "$TMPD/t2"
ok $? "twice, the same trace byte for byte"
grep -q '"type":"aim","tick":10,"shooter":"tank.a",.*"method":"exact"' "$TMPD/t1" \
    && grep -q '"type":"aim","tick":11,"shooter":"tank.a",.*"method":"classic"' "$TMPD/t1"
ok $? "the trace: tank.a aims exact on tick 10, classic from tick 11"
# The viewer on the recording: its tune lines applied on their ticks, and
# kept, so stepping back before one shows the old value again.
start_session r 150 40 "$BOTFIELD --replay $REC"
wait_for r '^ tick 0 '
tm send-keys -t r Tab
wait_for r '│tank\.a'
steps r . 12
wait_for r '^ tick 12 ' && wait_for r '│aim classic'
ok $? "the viewer's replay: tank.a aims classic at tick 12, as tuned"
tm send-keys -t r , , ,
wait_for r '^ tick 9 ' && wait_for r '│aim exact'
ok $? "stepping back to tick 9 in the replay: exact again"
steps r . 2
wait_for r '^ tick 11 ' && wait_for r '│aim classic'
ok $? "forward again: classic"
tm send-keys -t r T Up -
wait_for r 'a replay runs as recorded up to tick 31: tune from there on' 30
ok $? "tuning inside the recorded ticks of a replay is refused, said"
tm send-keys -t r T q
tm kill-session -t r 2>/dev/null

grep -v '"type":"tune"' "$REC" >"$TMPD/untuned.rec"
"$BOTFIELD" --headless --replay "$TMPD/untuned.rec" >/dev/null 2>&1
expect_eq "without its tune lines the recording diverges (exit 1): they are what it ran" "$?" 1
sed 's/"key":"turn_rate","value":"45"/"key":"turn_rate","value":"-4"/' "$REC" >"$TMPD/bad.rec"
"$BOTFIELD" --headless --replay "$TMPD/bad.rec" 2>"$TMPD/err2" >/dev/null
expect_eq "a tune line with a bad value: exit 2" "$?" 2
grep -q 'bad.rec:[0-9]*: tune: .*\[tank.a\] turn_rate = -4: negative where it cannot be' "$TMPD/err2"
ok $? "named with its line, in the map's words"
done_testing
