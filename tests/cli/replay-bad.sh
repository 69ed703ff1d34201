#!/bin/sh
# A recording is input like a map: each malformed one is refused with
# exit 2, a message naming the file and line, what is wrong and what is
# allowed, and nothing written (no trace).
. "$top_srcdir/tests/lib/lib.sh"

cp -R "$top_srcdir/maps" "$TMPD/maps"
chmod -R u+w "$TMPD/maps"
good="$TMPD/good.rec"
"$BOTFIELD" --headless --ticks 1300 --record "$good" "$TMPD/maps/bots-duel.ini" >/dev/null
expect_eq "the good recording has header, script, 2 checkpoints and end" "$(wc -l <"$good")" 5

# refused NAME LINE PATTERN: the recording $TMPD/NAME.rec is refused with
# exit 2, its message "FILE:LINE: ..." matching PATTERN, no trace made.
refused() {
    rm -f "$TMPD/trace"
    "$BOTFIELD" --headless --replay "$TMPD/$1.rec" --trace "$TMPD/trace" 2>"$TMPD/err"
    expect_eq "$1: exit 2" "$?" 2
    if grep -q "^botfield: $TMPD/$1.rec:$2: .*$3" "$TMPD/err"; then ok 0 "$1: line $2 named: $3"
    else note "$(cat "$TMPD/err")"; ok 1 "$1: line $2 named: $3"; fi
    [ ! -e "$TMPD/trace" ]
    ok $? "$1: no trace written"
}
# edit NAME LINE SED: the good recording with line LINE changed by SED
edit() { sed "$2$3" "$good" >"$TMPD/$1.rec"; }

edit badjson 3 's/}$/,}/'
refused badjson 3 'not JSON'
edit notobject 3 's/.*/[1,2]/'
refused notobject 3 'not a JSON object'
edit unknown 3 's/"checkpoint"/"snapshot"/'
refused unknown 3 'unknown type "snapshot"; the types are'
edit format2 1 's/"format":1/"format":2/'
refused format2 1 'format 2: this botfield reads format 1'
edit nohash 3 's/,"hash":"[0-9a-f]*"//'
refused nohash 3 'a checkpoint line without "hash"; it is required'
edit badhash 3 's/"hash":"[0-9a-f]*"/"hash":"12345"/'
refused badhash 3 '"hash" is not 16 hex digits'
edit strtick 3 's/"tick":600/"tick":"600"/'
refused strtick 3 '"tick" is not a tick'
edit extra 3 's/}$/,"x":1}/'
refused extra 3 'unknown key "x"'
edit back 4 's/"tick":1200/"tick":500/'
refused back 4 'at tick 500 after tick 600; ticks never go back'
edit notheader 1 's/"type":"recording"/"type":"checkpoint"/'
refused notheader 1 'not a recording.s header'
edit noseed 1 's/"seed":4,//'
refused noseed 1 'without "seed"'
edit escape 2 's|"path":"bots/hunter.lua"|"path":"../../hunter.lua"|'
refused escape 2 "leaves the map's folder"
edit sha 2 's/"sha256":"[0-9a-f]*"/"sha256":"0000000000000000000000000000000000000000000000000000000000000000"/'
refused sha 2 "SHA-256 is not the line's sha256"
edit nosource 2 's/.*/{"type":"checkpoint","tick":1,"hash":"0000000000000000"}/'
refused nosource 1 "no bot_source for it"
# an embedded map that does not load
edit badmap 1 's/seed = 4/seed = four/'
refused badmap 1 'its map does not load'
# inputs and tunings are read and checked (none is written yet)
{ head -n 2 "$good"; echo '{"type":"input","tick":120,"id":"tank.nobody","turn":-30,"speed":60,"turret":45,"fire":true}'; tail -n 3 "$good"; } >"$TMPD/input.rec"
refused input 3 'input for "tank.nobody": the map has no such vehicle'
{ head -n 2 "$good"; echo '{"type":"input","tick":120,"id":"tank.red","turn":-30,"speed":60,"turret":45,"fire":"yes"}'; tail -n 3 "$good"; } >"$TMPD/fire.rec"
refused fire 3 '"fire" is not true or false'
{ head -n 2 "$good"; echo '{"type":"tune","tick":300,"section":"tank.red","key":"turn_rate"}'; tail -n 3 "$good"; } >"$TMPD/tune.rec"
refused tune 3 'a tune line without "value"'
{ cat "$good"; tail -n 1 "$good"; } >"$TMPD/afterend.rec"
refused afterend 6 'after the end line; end is the last line'
printf '' >"$TMPD/empty.rec"
refused empty 0 'an empty file'
# A map larger than a map may be (64 MiB), embedded: refused by its size.
python3 -c '
import sys
sys.stdout.write("{\"type\":\"recording\",\"format\":1,\"version\":\"x\",\"lua\":\"x\",\"seed\":1,\"map_path\":\"\",\"map_text\":\"")
sys.stdout.write("; " + "x" * (64 * 1024 * 1024) + "\"}\n")' >"$TMPD/huge.rec"
refused huge 1 '"map_text" is 67108866 bytes; at most 67108864 are allowed'
rm -f "$TMPD/huge.rec"

# A well-formed input line for a tank that is not a player's is refused
# (an input drives the map's player tank only; tests/viewer/viewer-drive-record.sh
# replays real ones).
{ head -n 2 "$good"; echo '{"type":"input","tick":120,"id":"tank.red","turn":-30,"speed":60,"turret":45,"fire":true}'; tail -n 3 "$good"; } >"$TMPD/okinput.rec"
"$BOTFIELD" --headless --replay "$TMPD/okinput.rec" 2>"$TMPD/err"
expect_eq "an input line for tank.red, not a player, is refused" "$?" 2
grep -q ":3: input for \"tank.red\": not the map's player tank" "$TMPD/err"
ok $? "naming its line"

# A run of 0 ticks: its end line (tick 0) is checked too.
"$BOTFIELD" --headless --ticks 0 --record "$TMPD/zero.rec" "$TMPD/maps/default.ini"
"$BOTFIELD" --headless --replay "$TMPD/zero.rec" 2>"$TMPD/err"
expect_eq "a recording of 0 ticks replays: exit 0" "$?" 0
sed '$s/"hash":"[0-9a-f]*"/"hash":"0000000000000000"/' "$TMPD/zero.rec" >"$TMPD/zero2.rec"
"$BOTFIELD" --headless --replay "$TMPD/zero2.rec" 2>"$TMPD/err"
expect_eq "a recording of 0 ticks with a tampered end: exit 1" "$?" 1
grep -q 'diverges at tick 0 ' "$TMPD/err"
ok $? "a recording of 0 ticks with a tampered end: tick 0 named"

# The command line: a replay takes no map, seed or length; a missing file.
"$BOTFIELD" --headless --replay "$good" "$TMPD/maps/default.ini" 2>"$TMPD/err"
expect_eq "--replay with a MAP: exit 2" "$?" 2
"$BOTFIELD" --headless --replay "$good" --seed 3 2>"$TMPD/err"
expect_eq "--replay with --seed: exit 2" "$?" 2
"$BOTFIELD" --headless --replay "$good" --ticks 3 2>"$TMPD/err"
expect_eq "--replay with --ticks: exit 2" "$?" 2
"$BOTFIELD" --headless --replay "$TMPD/none.rec" 2>"$TMPD/err"
expect_eq "--replay of a missing file: exit 2" "$?" 2
grep -q "none.rec: cannot open the recording" "$TMPD/err"
ok $? "--replay of a missing file: said"
"$BOTFIELD" --headless --record "$TMPD/maps/default.ini" "$TMPD/maps/default.ini" 2>"$TMPD/err"
expect_eq "--record over the map itself: exit 2" "$?" 2
"$BOTFIELD" --headless --record "$TMPD/same" --trace "$TMPD/same" "$TMPD/maps/default.ini" 2>"$TMPD/err"
expect_eq "--record and --trace to one file: exit 2" "$?" 2
"$BOTFIELD" --check --record "$TMPD/x.rec" "$TMPD/maps/default.ini" 2>"$TMPD/err"
expect_eq "--check with --record: exit 2" "$?" 2
# The viewer reads and checks the recording before it needs a terminal.
"$BOTFIELD" --replay "$TMPD/format2.rec" </dev/null >/dev/null 2>"$TMPD/err"
expect_eq "the viewer on a bad recording: exit 2" "$?" 2
grep -q "format2.rec:1: format 2" "$TMPD/err"
ok $? "the viewer on a bad recording: the line named"
done_testing
