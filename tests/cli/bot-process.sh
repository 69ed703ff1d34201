#!/bin/sh
# Process bots (botfield-bots(7), PROCESS BOTS): --bot-process runs a
# program of the user's in lockstep; what it answers drives its vehicle
# through the same clamps as a Lua bot's out; every way it can misbehave
# is its bot_error and the run goes on; a recording replays the run
# exactly without the program; nothing it starts outlives the run.
. "$top_srcdir/tests/lib/lib.sh"
MAP="$top_srcdir/maps/bots-duel.ini"
run() { # run TICKS PROGRAM [more options]: headless on MAP, trace in $TMPD/t
    t=$1; p=$2; shift 2
    "$BOTFIELD" --headless --ticks "$t" --bot-process "tank.red=$p" "$@" --trace "$TMPD/t" \
        "$MAP" >"$TMPD/out" 2>"$TMPD/err"
}
errors() { grep -c '"type":"bot_error","tick":[0-9]*,"id":"tank.red"' "$TMPD/t"; }
ANSWER="while read l; do echo '{\"turn\":10,\"speed\":50,\"fire\":true,\"log\":[\"hi\"]}'; done"

run 300 "$ANSWER" --record "$TMPD/r.rec"
expect_eq "an answering program: exit 0" "$?" 0
expect_eq "... no bot_error" "$(errors)" 0
grep -q '"type":"shot","tick":[0-9]*,"shooter":"tank.red"' "$TMPD/t"; ok $? "... its vehicle fires as it says"
grep -q '"type":"log","tick":1,"id":"tank.red","text":"hi"' "$TMPD/t"; ok $? "... its log lines are the trace's"
cp "$TMPD/t" "$TMPD/t1"
run 300 "$ANSWER"
cmp -s "$TMPD/t" "$TMPD/t1"; ok $? "the same program twice: the same trace"
"$BOTFIELD" --headless --replay "$TMPD/r.rec" --trace "$TMPD/tr" >/dev/null 2>"$TMPD/err"
expect_eq "its recording replays without the program: exit 0" "$?" 0
grep -v '"type":"log"' "$TMPD/t1" >"$TMPD/a"
grep -v '"type":"log"' "$TMPD/tr" >"$TMPD/b"
cmp -s "$TMPD/a" "$TMPD/b"; ok $? "... the same trace but the program's log lines"

# what it reads: init, a tick line a tick, then the end with the summary
run 30 "while read l; do printf '%s\\n' \"\$l\" >>$TMPD/seen; echo '{}'; done"
expect_eq "a program that keeps what it reads: exit 0" "$?" 0
head -1 "$TMPD/seen" | grep -q '^{"type":"init","id":"tank.red","map":{"width":1200,"height":900,"trees":\[{"x":'
ok $? "... its first line is the init line, with the map's trees"
expect_eq "... a tick line a tick" "$(grep -c '^{"type":"tick"' "$TMPD/seen")" 30
tail -1 "$TMPD/seen" | grep -q '^{"type":"end","result":{"type":"summary","ticks":30,'
ok $? "... its last line is the end line, with the summary ($(tail -1 "$TMPD/seen" | head -c 80))"
python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$TMPD/seen"
ok $? "... every line it read is JSON"

run 300 "$ANSWER" --bot-process "tank.blue=exit 0"
grep -q '"id":"tank.blue".*the process bot stopped: it exited with status 0' "$TMPD/t"
ok $? "two process bots: one that exits is said so"

# each bad answer: that tick's error, the run goes on
bad() { # bad WHAT PROGRAM PATTERN
    run 20 "$2" --bot-timeout 200
    st=$?
    n=$(errors)
    grep -q -- "$3" "$TMPD/t"; f=$?
    [ $st -eq 0 ] && [ "$n" -ge 1 ] && [ $f -eq 0 ] && grep -q '"type":"summary"' "$TMPD/t"
    r=$?; [ $r -ne 0 ] && note "exit $st, $n errors: $(grep bot_error "$TMPD/t" | head -2) $(cat "$TMPD/err")"
    ok $r "$1: '$3', the run goes on"
}
bad "garbage" "while read l; do echo 'hello there'; done" "the answer is not JSON"
bad "NaN" "while read l; do echo '{\"turn\":NaN}'; done" "the answer is not JSON"
bad "a number for fire" "while read l; do echo '{\"fire\":1}'; done" "out.fire is not a boolean (a number)"
bad "an unknown field" "while read l; do echo '{\"shoot\":true}'; done" "the answer has a field 'shoot'"
bad "a line of 2 MB" "read l; head -c 2000000 /dev/zero | tr '\\\\0' a; echo" "it wrote a line over 1048576 bytes"
bad "no newline" "read l; printf '{}'; sleep 30" "no answer within 200 ms"
bad "never answers" "sleep 30" "no answer within 200 ms"
bad "closes its output" "exec >&-; sleep 30" "it closed its standard output"
bad "exits" "read l; exit 3" "it exited with status 3"
bad "not there" "/nonexistent/bot" "it exited with status 127"
expect_eq "... a program that stopped is said once" "$(errors)" 1
cat >"$TMPD/utf8.sh" <<'SH'
while read l; do printf '{"log":["\377"]}\n'; done
SH
bad "invalid UTF-8" "sh $TMPD/utf8.sh" "the answer is not JSON"

# a flood on standard error: 8 lines a tick at most
run 20 "yes flood >&2 & while read l; do echo '{}'; done"
expect_eq "a flood on standard error: exit 0" "$?" 0
most=$(grep '"type":"log"' "$TMPD/t" | sed 's/.*"tick":\([0-9]*\).*/\1/' | sort | uniq -c | sort -rn | awk 'NR==1{print $1}')
[ "${most:-0}" -ge 1 ] && [ "${most:-0}" -le 8 ]; ok $? "... at most 8 log lines a tick ($most)"

# what it starts is killed with it
run 20 "sleep 987654 & (sleep 987655 &); while read l; do echo '{}'; done"
sleep 0.2
pgrep -f 'sleep 98765[45]' >/dev/null; r=$?
[ $r -ne 0 ]; ok $? "children it left are gone after the run"

# only the person running botfield starts programs
"$BOTFIELD" --headless --replay "$TMPD/r.rec" --bot-process "tank.red=touch $TMPD/ran" >/dev/null 2>"$TMPD/err"
expect_eq "--bot-process with --replay: exit 2" "$?" 2
"$BOTFIELD" --headless --seeds 1-2 --bot-process "tank.red=touch $TMPD/ran" "$MAP" >/dev/null 2>"$TMPD/err"
expect_eq "--bot-process with --seeds: exit 2" "$?" 2
[ ! -e "$TMPD/ran" ]; ok $? "... nothing ran"
"$BOTFIELD" --headless --ticks 1 --bot-process "tank" "$MAP" >/dev/null 2>"$TMPD/err"
expect_eq "--bot-process without =COMMAND: exit 2" "$?" 2
grep -q "expected VEHICLE=COMMAND" "$TMPD/err"; ok $? "... saying what is expected"
"$BOTFIELD" --headless --ticks 1 --bot-process "tank.nope=true" "$MAP" >/dev/null 2>"$TMPD/err"
expect_eq "--bot-process of a vehicle the map lacks: exit 2" "$?" 2
grep -q "bot-process tank.nope: the map has no vehicle or team of that name" "$TMPD/err"
ok $? "... saying the map has no such vehicle"
run 60 "$ANSWER" --bot-process "team.blue=$ANSWER"
grep -q '"type":"shot","tick":[0-9]*,"shooter":"tank.blue"' "$TMPD/t"; ok $? "team.NAME: its vehicles are driven"
done_testing
