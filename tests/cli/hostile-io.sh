#!/bin/sh
# Hostile files and command lines against what botfield reads and writes
# besides the map: a recording or a file of run lines that never ends a
# line (/dev/zero, an endless stream) is refused at its line limit, not
# read until memory runs out; an output file that is one of the run's own
# inputs (the recording replayed, the map of a tournament, a file of run
# lines being aggregated) is refused before anything is written; an
# output that cannot be opened leaves the other outputs as they were.
. "$top_srcdir/tests/lib/lib.sh"
MAP="$TMPD/default.ini"
cp "$top_srcdir/maps/default.ini" "$MAP"
chmod u+w "$MAP"
tmo=
command -v timeout >/dev/null 2>&1 && tmo="timeout 120"
# Outside a sanitizer build, address space is capped so that the old
# unbounded read fails here instead of taking the machine's memory (a
# sanitizer's shadow memory does not run under such a cap).
cap=
grep -q -a -e __asan_init -e __tsan_init "$BOTFIELD" 2>/dev/null || cap="ulimit -v 2000000"

# ---- lines without an end ---------------------------------------------------
# A recording of NUL bytes is not text: refused at its first line.
(eval "$cap"; head -c 100000000 /dev/zero | $tmo "$BOTFIELD" --headless --replay - \
    >"$TMPD/out" 2>"$TMPD/err")
st=$?
expect_eq "a recording of NUL bytes: exit 2" "$st" 2
grep -q "^botfield: -:1: a NUL byte at byte 1; a recording is text" "$TMPD/err"
st=$?
[ $st -ne 0 ] && note "$(head -c 400 "$TMPD/err")"
ok $st "a recording of NUL bytes: says it is not text, naming the line"

# An endless line of text: refused when it passes the longest line a
# recording can hold, without reading the rest.
(eval "$cap"; yes x | tr -d '\n' | $tmo "$BOTFIELD" --headless --replay - \
    >"$TMPD/out" 2>"$TMPD/err")
st=$?
expect_eq "an endless line as a recording: exit 2 (no hang, no memory exhausted)" "$st" 2
grep -q "^botfield: -:1: a line longer than [0-9]* bytes; at most [0-9]* are allowed" "$TMPD/err"
st=$?
[ $st -ne 0 ] && note "$(head -c 400 "$TMPD/err")"
ok $st "an endless line as a recording: says the limit"

# The same for the run lines read by --aggregate.
(eval "$cap"; yes x | tr -d '\n' | $tmo "$BOTFIELD" --aggregate - \
    >"$TMPD/out" 2>"$TMPD/err")
st=$?
expect_eq "an endless line of run lines: exit 2" "$st" 2
grep -q "^botfield: (standard input):1: a line longer than [0-9]* bytes" "$TMPD/err"
st=$?
[ $st -ne 0 ] && note "$(head -c 400 "$TMPD/err")"
ok $st "an endless line of run lines: says the limit"
(eval "$cap"; head -c 100000000 /dev/zero | $tmo "$BOTFIELD" --aggregate - \
    >"$TMPD/out" 2>"$TMPD/err")
st=$?
expect_eq "run lines of NUL bytes: exit 2" "$st" 2
grep -q "^botfield: (standard input):1: a NUL byte" "$TMPD/err"
ok $? "run lines of NUL bytes: says it is not text"

# ---- an output over an input -------------------------------------------------
"$BOTFIELD" --headless --ticks 700 --record "$TMPD/run.rec" "$MAP" >/dev/null
sum=$(cksum <"$TMPD/run.rec")
ln -s run.rec "$TMPD/link.rec"
for t in "$TMPD/run.rec" "$TMPD/link.rec" "$TMPD/./run.rec"; do
    "$BOTFIELD" --headless --replay "$TMPD/run.rec" --trace "$t" >"$TMPD/out" 2>"$TMPD/err"
    st=$?
    [ "$st" -eq 2 ] && grep -q "that is the recording being replayed" "$TMPD/err" \
        && [ "$(cksum <"$TMPD/run.rec")" = "$sum" ]
    ok $? "--replay R --trace $(basename "$t"): exit 2, the recording untouched (got $st)"
done

cp "$MAP" "$TMPD/csv.ini"
msum=$(cksum <"$MAP")
"$BOTFIELD" --headless --seeds 1-2 --ticks 5 --csv "$TMPD/csv.ini" "$TMPD/csv.ini" \
    >"$TMPD/out" 2>"$TMPD/err"
st=$?
[ "$st" -eq 2 ] && grep -q -- "--csv $TMPD/csv.ini: that is the map file itself" "$TMPD/err" \
    && [ "$(cksum <"$TMPD/csv.ini")" = "$msum" ] && [ ! -s "$TMPD/out" ]
ok $? "--seeds --csv MAP MAP: exit 2 before any run, the map untouched (got $st)"

"$BOTFIELD" --headless --seeds 1-2 --ticks 5 "$MAP" >"$TMPD/runs.jsonl"
rsum=$(cksum <"$TMPD/runs.jsonl")
"$BOTFIELD" --aggregate --csv "$TMPD/runs.jsonl" "$TMPD/runs.jsonl" >"$TMPD/out" 2>"$TMPD/err"
st=$?
[ "$st" -eq 2 ] && grep -q "that is a file of run lines being read" "$TMPD/err" \
    && [ "$(cksum <"$TMPD/runs.jsonl")" = "$rsum" ]
ok $? "--aggregate --csv F F: exit 2, F untouched (got $st)"
"$BOTFIELD" --aggregate --csv "$TMPD/runs.csv" "$TMPD/runs.jsonl" >"$TMPD/out" 2>"$TMPD/err"
expect_eq "--aggregate --csv to another file still works" "$?" 0
expect_eq "and writes a header and two rows" "$(wc -l <"$TMPD/runs.csv" | tr -d ' ')" 3

# ---- an output that cannot be opened -----------------------------------------
mkdir "$TMPD/dir"
for t in "$TMPD/dir" "$TMPD/no/such/t.jsonl"; do
    cp "$TMPD/run.rec" "$TMPD/keep.rec"
    "$BOTFIELD" --headless --ticks 5 --record "$TMPD/keep.rec" --trace "$t" "$MAP" \
        >"$TMPD/out" 2>"$TMPD/err"
    st=$?
    [ "$st" -eq 1 ] && grep -q "cannot write the trace" "$TMPD/err" \
        && [ "$(cksum <"$TMPD/keep.rec")" = "$sum" ]
    ok $? "--record R --trace $(basename "$t") (cannot be opened): exit 1, R as it was (got $st)"
done

# ---- a recording that claims more ticks than it holds -----------------------
# A recorder writes a checkpoint every 600 ticks, so a line more than 600
# ticks after the last checkpoint (or the start) is not a recording's: an
# end line at tick 2^62 would otherwise keep a replay computing for ever.
sed '$s/"tick":700,/"tick":4611686018427387903,/' "$TMPD/run.rec" >"$TMPD/far.rec"
$tmo "$BOTFIELD" --headless --replay "$TMPD/far.rec" --trace "$TMPD/far.jsonl" >"$TMPD/out" 2>"$TMPD/err"
expect_eq "an end line at tick 2^62 after a checkpoint at 600: exit 2 at once" "$?" 2
grep -q "far.rec:3: end at tick 4611686018427387903 with no checkpoint since tick 600; a recording has one every 600 ticks" "$TMPD/err"
st=$?
[ $st -ne 0 ] && note "$(cat "$TMPD/err")"
ok $st "an end line at tick 2^62: the line and the rule named"
[ ! -e "$TMPD/far.jsonl" ]
ok $? "an end line at tick 2^62: no trace written"
sed '/"type":"checkpoint"/d' "$TMPD/run.rec" >"$TMPD/gap.rec"
"$BOTFIELD" --headless --replay "$TMPD/gap.rec" >"$TMPD/out" 2>"$TMPD/err"
expect_eq "the checkpoint at 600 taken out (end at 700): exit 2" "$?" 2
grep -q "gap.rec:2: end at tick 700 with no checkpoint since tick 0 (the start)" "$TMPD/err"
st=$?
[ $st -ne 0 ] && note "$(cat "$TMPD/err")"
ok $st "the checkpoint at 600 taken out: said"
"$BOTFIELD" --headless --replay "$TMPD/run.rec" >"$TMPD/out" 2>"$TMPD/err"
expect_eq "the recording as written still replays" "$?" 0

# ---- a script a recording cannot carry ---------------------------------------
# A recording holds each script as a JSON string, which carries UTF-8
# only: a script saved as Latin-1 (a comment's "é" as one byte 0xe9) was
# recorded with U+FFFD in its place, and its replay then refused the
# recording (the text no longer matched its SHA-256).  Recording such a
# script is refused at once, naming it and its line, before the file is
# touched.
mkdir -p "$TMPD/l1"
printf -- '-- a bot\n-- caf\351 au lait\nfunction tick(me, world, mem, out)\nend\n' >"$TMPD/l1/latin1.lua"
printf '[map]\nwidth = 500\nheight = 500\n[team.a]\n[team.b]\n[tank.1]\nteam = a\nx = 100\ny = 100\nbot = latin1.lua\n[tank.2]\nteam = b\nx = 400\ny = 400\n' >"$TMPD/l1/m.ini"
cp "$TMPD/run.rec" "$TMPD/l1/old.rec"
"$BOTFIELD" --headless --ticks 10 --record "$TMPD/l1/old.rec" "$TMPD/l1/m.ini" >"$TMPD/out" 2>"$TMPD/err"
st=$?
expect_eq "recording a Latin-1 script: exit 1" "$st" 1
grep -q "cannot record the bot script latin1.lua: line 2 holds a byte that is not UTF-8" "$TMPD/err"
st=$?
[ $st -ne 0 ] && note "$(cat "$TMPD/err")"
ok $st "recording a Latin-1 script: the script and its line named"
[ "$(cksum <"$TMPD/l1/old.rec")" = "$sum" ]
ok $? "recording a Latin-1 script: the file given to --record is untouched"
"$BOTFIELD" --headless --ticks 10 --summary "$TMPD/l1/m.ini" >"$TMPD/out" 2>"$TMPD/err"
expect_eq "the same map runs unrecorded (Lua takes any bytes)" "$?" 0

# ---- an option given twice --------------------------------------------------
# getopt keeps the last value: --trace a --trace b wrote only b and said
# nothing.  An option that takes one value is refused when given twice.
for args in "--trace $TMPD/a.jsonl --trace $TMPD/b.jsonl" "--record $TMPD/a.rec --record $TMPD/b.rec" \
            "--ticks 1 --ticks 2" "--seconds 1 --seconds 2" "--seed 1 --seed 2" \
            "--trace-every 2 --trace-every 3" "--threads 1 --threads 2"; do
    rm -f "$TMPD/a.jsonl" "$TMPD/b.jsonl" "$TMPD/a.rec" "$TMPD/b.rec"
    # shellcheck disable=SC2086
    "$BOTFIELD" --headless $args "$MAP" >"$TMPD/out" 2>"$TMPD/err"
    st=$?
    opt=${args%% *}
    [ "$st" -eq 2 ] && grep -q -- "^botfield: $opt given twice" "$TMPD/err" \
        && [ ! -e "$TMPD/a.jsonl" ] && [ ! -e "$TMPD/b.jsonl" ] && [ ! -e "$TMPD/a.rec" ] \
        && [ ! -e "$TMPD/b.rec" ] && [ ! -s "$TMPD/out" ]
    st2=$?
    [ $st2 -ne 0 ] && note "$(cat "$TMPD/err")"
    ok $st2 "$args: exit 2, nothing written (got $st)"
done
"$BOTFIELD" --headless --replay "$TMPD/run.rec" --replay "$TMPD/run.rec" >"$TMPD/out" 2>"$TMPD/err"
expect_eq "--replay given twice: exit 2" "$?" 2
for args in "--seeds 1-2 --seeds 3-4" "--seeds 1-2 --jobs 1 --jobs 2" "--seeds 1-2 --csv $TMPD/a.csv --csv $TMPD/b.csv"; do
    # shellcheck disable=SC2086
    "$BOTFIELD" --headless --ticks 1 $args "$MAP" >"$TMPD/out" 2>"$TMPD/err"
    st=$?
    [ "$st" -eq 2 ] && [ ! -s "$TMPD/out" ] && grep -q "given twice" "$TMPD/err"
    ok $? "$args: exit 2 before any run (got $st)"
done
"$BOTFIELD" --headless --headless --summary --summary --ticks 1 "$MAP" >"$TMPD/out" 2>"$TMPD/err"
expect_eq "a flag given twice is still fine" "$?" 0

# ---- messages that quote a stranger's bytes --------------------------------
# An error quotes the value, section or line it is about; a control byte
# there (ESC starts a terminal's escape sequences: clear the screen, set
# the title, ...) reached the user's terminal as it was.  Every message
# now writes such bytes as \xHH, and a value's newline no longer cuts the
# message short.
noesc() {   # noesc WHAT FILE PATTERN: FILE has no control byte but \n, and holds PATTERN
    if LC_ALL=C grep -q "$(printf '[\001-\011\013-\037\177]')" "$2"; then
        note "$(od -c "$2" | head -n 8)"; ok 1 "$1: no control byte reaches the terminal"
    else
        ok 0 "$1: no control byte reaches the terminal"
    fi
    grep -qF -- "$3" "$2"
    st=$?
    [ $st -ne 0 ] && note "$(cat "$2")"
    ok $st "$1: the byte is quoted as an escape"
}
printf '[map]\nwidth = 100\nheight = 100\nseed = \033]0 pwned\007\033[2J5\n[tank.\033[31m]\n' >"$TMPD/esc.ini"
"$BOTFIELD" --check "$TMPD/esc.ini" >"$TMPD/out" 2>"$TMPD/err"
expect_eq "a map with ESC bytes: exit 2" "$?" 2
noesc "a map with ESC in a value and a section name" "$TMPD/err" 'seed = \x1b]0 pwned\x07\x1b[2J5: not a whole number'
grep -qF '[tank.\x1b[31m]' "$TMPD/err"
ok $? "the section name is quoted with the escape too"

{ head -n 1 "$TMPD/run.rec"
  printf '%s\n' '{"type":"tune","tick":5,"section":"team.red","key":"speed","value":"5\nx=1\u001b[2J"}'
  tail -n +2 "$TMPD/run.rec"; } >"$TMPD/tune-nl.rec"
"$BOTFIELD" --headless --replay "$TMPD/tune-nl.rec" >"$TMPD/out" 2>"$TMPD/err"
expect_eq "a tune value with a newline and ESC: exit 2" "$?" 2
noesc "a tune value with a newline and ESC" "$TMPD/err" 'speed = 5\x0ax=1\x1b[2J: not a number'
expect_eq "a tune value with a newline: one line of message" "$(wc -l <"$TMPD/err" | tr -d ' ')" 1

# (ESC ( B, not ESC [: a '[' is refused as an array before jansson quotes anything.)
printf '{"type":"run","seed":1,"set":{},"x":\033(B}\n' >"$TMPD/esc.jsonl"
"$BOTFIELD" --aggregate "$TMPD/esc.jsonl" >"$TMPD/out" 2>"$TMPD/err"
expect_eq "a run line with an ESC byte: exit 2" "$?" 2
noesc "a run line with an ESC byte" "$TMPD/err" '\x1b'

mkdir -p "$TMPD/escbot"
printf 'function tick(me, world, mem, out)\n  x = "\033[2J\nend\n' >"$TMPD/escbot/b.lua"
printf '[map]\nwidth = 500\nheight = 500\n[team.a]\n[tank.1]\nteam = a\nx = 100\ny = 100\nbot = b.lua\n' >"$TMPD/escbot/m.ini"
"$BOTFIELD" --check "$TMPD/escbot/m.ini" >"$TMPD/out" 2>"$TMPD/err"
expect_eq "a bot script with an ESC byte in a syntax error: exit 2" "$?" 2
# The bot layer quotes a script's bytes as Lua escapes (\27), before the
# loader's own quoting, which then finds nothing left to escape.
noesc "a bot script's syntax error quoting an ESC byte" "$TMPD/err" '"\27[2J'

# ---- run lines with impossible numbers ----------------------------------------
# --aggregate checked each field's JSON type only: a negative count or lap
# time (a corrupted or forged file) went into the means (a hit rate of
# -2.5, a best lap of -5 s) and a knockout count that was a string was
# skipped.  Each is refused with its file, line and field.
"$BOTFIELD" --headless --seeds 1-1 --ticks 300 "$MAP" | grep '"type":"run"' >"$TMPD/one.jsonl"
"$BOTFIELD" --headless --seeds 1-1 --ticks 300 "$top_srcdir/maps/race.ini" | grep '"type":"run"' >"$TMPD/race.jsonl"
# refused RUNS WHAT EDIT...: each EDIT (a sed expression, ':', the field
# it spoils) made to the run lines RUNS is refused by --aggregate.
refused() {
    runs=$1 what=$2
    shift 2
    for m in "$@"; do
        sed "${m%:*}" "$runs" >"$TMPD/bad.jsonl"
        "$BOTFIELD" --aggregate "$TMPD/bad.jsonl" >"$TMPD/out" 2>"$TMPD/err"
        st=$?
        [ "$st" -eq 2 ] && grep -q "bad.jsonl:1: a run line without a valid field ${m##*:}" "$TMPD/err"
        ok $? "$what edited by '${m%:*}': exit 2, the field named (got $st)"
    done
}
refused "$TMPD/one.jsonl" "a run line" \
    's/"hits":[0-9]*/"hits":-5/:hits' 's/"ticks":[0-9]*/"ticks":-1/:ticks' \
    's/"seconds":[0-9.]*/"seconds":-5/:seconds' 's/"collisions":[0-9]*/"collisions":-2/:collisions' \
    's/"knockouts":{"red":[0-9]*/"knockouts":{"red":"x"/:knockouts' \
    's/"knockouts":{"red":[0-9]*/"knockouts":{"red":-3/:knockouts' \
    's/"scores":{"red":[0-9-]*/"scores":{"red":"x"/:scores' \
    's/"scores":{"red":[0-9-]*/"scores":{"red":1.5/:scores'
refused "$TMPD/race.jsonl" "a race's run line" \
    's/"best_lap":{"car.red":[^,}]*/"best_lap":{"car.red":-5/:best_lap' \
    's/"best_lap":{"car.red":[^,}]*/"best_lap":{"car.red":"x"/:best_lap' \
    's/"laps":{"car.red":[0-9]*/"laps":{"car.red":-1/:laps'
"$BOTFIELD" --aggregate "$TMPD/one.jsonl" >"$TMPD/out" 2>"$TMPD/err"
expect_eq "the battle's run line as written aggregates (exit 0)" "$?" 0
"$BOTFIELD" --aggregate "$TMPD/race.jsonl" >"$TMPD/out" 2>"$TMPD/err"
expect_eq "the race's run line as written aggregates (exit 0)" "$?" 0

# ---- an output over a bot's script ----------------------------------------------
# The map itself is protected from --trace and --record; its bots' scripts
# were not: --trace bots/hunter.lua overwrote the script with the trace.
cp -R "$top_srcdir/maps" "$TMPD/m2"
chmod -R u+w "$TMPD/m2"
ssum=$(cksum <"$TMPD/m2/bots/hunter.lua")
ln -s bots/hunter.lua "$TMPD/m2/hunter-link.lua"
for opt in --trace --record; do
    for t in "$TMPD/m2/bots/hunter.lua" "$TMPD/m2/bots/../bots/hunter.lua" "$TMPD/m2/hunter-link.lua"; do
        "$BOTFIELD" --headless --ticks 2 $opt "$t" "$TMPD/m2/bots-duel.ini" >"$TMPD/out" 2>"$TMPD/err"
        st=$?
        [ "$st" -eq 2 ] && grep -q "that is the bot script bots/hunter.lua of tank" "$TMPD/err" \
            && [ "$(cksum <"$TMPD/m2/bots/hunter.lua")" = "$ssum" ]
        st2=$?
        [ $st2 -ne 0 ] && note "$(cat "$TMPD/err")"
        ok $st2 "$opt $(echo "$t" | sed "s|$TMPD/m2/||"): exit 2, the bot's script untouched (got $st)"
    done
done

# ---- a CSV that cannot be written ---------------------------------------------
# --csv was opened only once every battle had run: a tournament of
# thousands of battles ran for nothing.  It is now said at once.
for c in "$TMPD/dir" "$TMPD/no/such/runs.csv"; do
    "$BOTFIELD" --headless --seeds 1-3 --ticks 5 --csv "$c" "$MAP" >"$TMPD/out" 2>"$TMPD/err"
    st=$?
    [ "$st" -eq 1 ] && [ ! -s "$TMPD/out" ] && grep -q -- "^botfield: --csv $c: cannot write: " "$TMPD/err"
    ok $? "--seeds --csv $(basename "$c") (cannot be written): exit 1 before any run (got $st)"
done

# --chart draws a group's settings and the teams' names from the run
# lines it read: an ESC there was drawn to the terminal as it was.
sed 's/"set":{}/"set":{"team.red.aim":"\\u001b[2Jx"}/; s/"winner":null/"winner":"\\u001b]0;t\\u0007"/' \
    "$TMPD/one.jsonl" >"$TMPD/escrun.jsonl"
"$BOTFIELD" --aggregate --chart "$TMPD/escrun.jsonl" >"$TMPD/chart" 2>"$TMPD/err"
expect_eq "--aggregate --chart of run lines with ESC bytes: exit 0" "$?" 0
noesc "--chart of run lines with ESC bytes in a setting and a team" "$TMPD/chart" 'team.red.aim=\x1b[2Jx'

# A divergence names the recorder's versions, as the recording gives them.
sed '1s/"version":"[^"]*"/"version":"9\\u001b[2J"/; 2s/"hash":"[0-9a-f]*"/"hash":"0000000000000000"/' \
    "$TMPD/run.rec" >"$TMPD/escver.rec"
"$BOTFIELD" --headless --replay "$TMPD/escver.rec" >"$TMPD/out" 2>"$TMPD/err"
expect_eq "a recording with ESC in its version, diverging: exit 1" "$?" 1
noesc "a divergence naming a version with an ESC byte" "$TMPD/err" 'recorded with botfield 9\x1b[2J'

# ---- the viewer on a recording that is not a file ----------------------------
# As for a map, the viewer never waits for a writer: a FIFO (or standard
# input, its keyboard) as the recording is refused at once.
if mkfifo "$TMPD/rec.fifo" 2>/dev/null; then
    ${tmo:+timeout 10} "$BOTFIELD" --replay "$TMPD/rec.fifo" </dev/null >"$TMPD/out" 2>"$TMPD/err"
    st=$?
    expect_eq "the viewer on a FIFO recording: exit 2, no hang" "$st" 2
    grep -q "rec.fifo: is not a regular file (a FIFO, device or socket)" "$TMPD/err"
    ok $? "the viewer on a FIFO recording: says it is not a regular file"
else
    ok 1 "mkfifo works here"
fi
${tmo:+timeout 10} "$BOTFIELD" --replay - </dev/null >"$TMPD/out" 2>"$TMPD/err"
expect_eq "the viewer on standard input as the recording: exit 2" "$?" 2
grep -q "the viewer reads its keys from standard input" "$TMPD/err"
ok $? "the viewer on standard input as the recording: says why"
"$BOTFIELD" --headless --replay - <"$TMPD/run.rec" >"$TMPD/out" 2>"$TMPD/err"
expect_eq "a headless replay still reads standard input" "$?" 0

# ---- the viewer's options in a headless run ----------------------------------
# --paused and --speed shape the viewer only; a headless run ignored them
# without a word (as --check refuses every option it would ignore).
for args in "--paused" "--speed 2"; do
    # shellcheck disable=SC2086
    "$BOTFIELD" --headless --ticks 1 $args "$MAP" >"$TMPD/out" 2>"$TMPD/err"
    st=$?
    [ "$st" -eq 2 ] && [ ! -s "$TMPD/out" ] && grep -q -- "^botfield: --headless $args: that is the viewer's" "$TMPD/err"
    ok $? "--headless $args: exit 2, says it is the viewer's (got $st)"
done

# ---- a compared world that does not load ----------------------------------
# The loader's message is about the map (its line, and the width it
# read); it must also say that the map loads without the compared key.
"$BOTFIELD" --headless --ticks 1 --compare map.width=10 "$MAP" >"$TMPD/out" 2>"$TMPD/err"
expect_eq "--compare map.width=10 on a map whose trees do not fit: exit 2" "$?" 2
grep -q "^botfield: the map loads, but not with --compare map.width=10" "$TMPD/err"
st=$?
[ $st -ne 0 ] && note "$(cat "$TMPD/err")"
ok $st "--compare map.width=10: says the compared setting is what fails"

# ---- the file size limit (ulimit -f) --------------------------------------------
# A headless output that reaches the limit is a write that fails (EFBIG),
# said with the file and the limit, exit 1 (botfield(6), EXIT STATUS), not
# a death by SIGXFSZ with no word.  4 blocks: 2 KiB in dash's 512-byte
# blocks, 4 KiB in bash's; every output below is far past either.
CROWD="$top_srcdir/maps/crowd.ini"
"$BOTFIELD" --headless --ticks 3000 --record "$TMPD/big.rec" "$CROWD" >/dev/null
# fsz WHAT NAME ARGS...: botfield under the limit, stdout into $TMPD/fsz.out;
# NAME is what the message must name.
fsz() {
    what=$1 name=$2; shift 2
    (ulimit -f 4 && exec "$BOTFIELD" "$@" >"$TMPD/fsz.out" 2>"$TMPD/err")
    st=$?
    [ $st -ne 1 ] && note "$(head -c 400 "$TMPD/err")"
    expect_eq "$what over the file size limit: exit 1 (not killed by SIGXFSZ)" \
        "$st" 1
    grep -q "^botfield: cannot write $name: file size limit reached" "$TMPD/err"
    ok $? "$what over the file size limit: says so, naming $name"
}
# ThreadSanitizer's runtime takes SIGXFSZ as deadly (exit 66) though
# botfield ignores it (tests/viewer/viewer-exits.sh): that build skips, saying so.
if grep -q -a -e __tsan_init "$BOTFIELD" 2>/dev/null; then
    for what in "--trace FILE" "--trace -" "--record FILE" "--replay --trace FILE" \
                "--seeds --csv FILE" "--seeds on standard output"; do
        skip "$what over the file size limit" "ThreadSanitizer's runtime takes SIGXFSZ itself"
    done
else
fsz "--trace FILE" "the trace $TMPD/t.jsonl" \
    --headless --ticks 100000 --trace "$TMPD/t.jsonl" "$CROWD"
fsz "--trace -" "standard output" --headless --ticks 100000 --trace - "$CROWD"
fsz "--record FILE" "the recording $TMPD/r.rec" \
    --headless --ticks 100000 --record "$TMPD/r.rec" "$CROWD"
fsz "--replay --trace FILE" "the trace $TMPD/t.jsonl" \
    --headless --replay "$TMPD/big.rec" --trace "$TMPD/t.jsonl"
# The tournament's outputs have their own writers: the signal is ignored
# for them too, so the CSV's failure is said (its message is src/tour's).
(ulimit -f 4 && exec "$BOTFIELD" --headless --seeds 1-200 --ticks 2 --csv "$TMPD/r.csv" \
    "$MAP" >/dev/null 2>"$TMPD/err")
st=$?
grep -q "^botfield: --csv $TMPD/r.csv: cannot write: file size limit reached" "$TMPD/err"
ok $(( $? + (st != 1) )) "--seeds --csv FILE over the file size limit: exit 1, said with the limit (got $st)"
(ulimit -f 4 && exec "$BOTFIELD" --headless --seeds 1-200 --ticks 2 "$MAP" \
    >"$TMPD/fsz.out" 2>"$TMPD/err")
st=$?
grep -q "^botfield: cannot write standard output: file size limit reached" "$TMPD/err"
ok $(( $? + (st != 1) )) "--seeds on standard output over the file size limit: exit 1, said with the limit (got $st)"
fi

done_testing
