#!/bin/sh
# A run stopped by a signal ends its files on whole lines, with everything
# computed so far, then dies of the signal (botfield(6), SIGNALS):
# - headless, SIGINT, SIGTERM, SIGQUIT and SIGHUP sent to a long run: the
#   recording ends with its end line (the tick reached and its hash), the
#   trace with that tick's states and the summary, --summary's line is
#   printed; the status is 128 + N; the recording replays (exit 0) to the
#   same trace.  These used to kill the run on the spot: no end line (up
#   to 599 ticks lost) and a trace cut in the middle of a line;
# - SIGPIPE, the trace written into a pipe whose reader left: the same for
#   the recording, status 141;
# - a run blocked on a write (a FIFO nobody reads): it still dies of the
#   signal (the grace), and at once of a second one;
# - the viewer under tmux: SIGQUIT (Ctrl-\) now ends it as q does, the
#   recording with its end line (it had one for INT, TERM and HUP only).
. "$top_srcdir/tests/lib/lib.sh"
MAP="$top_srcdir/maps/bots-duel.ini"

# A shell starts background jobs with SIGINT and SIGQUIT ignored, and a
# signal ignored on entry stays ignored (as under nohup): env gives them
# back their default (and SIGPIPE's, which a harness may ignore).
if env --default-signal=INT true 2>/dev/null; then
    DFL="env --default-signal=INT,QUIT,PIPE"
else
    DFL=
fi
# Under ThreadSanitizer the runtime takes SIGPIPE itself (viewer-exits.sh).
TSAN=0
grep -q -a -e __tsan_init "$BOTFIELD" 2>/dev/null && TSAN=1

# launch NAME ARGS...: botfield --headless in the background, long enough
# never to end by itself; its pid in $pid, a watchdog's in $dog (a run
# that ignores the signal is killed after a minute: status 137).
launch() {
    name=$1
    shift
    $DFL "$BOTFIELD" --headless --ticks 100000000 "$@" >"$TMPD/$name.out" \
        2>"$TMPD/$name.err" &
    pid=$!
    ( sleep 60; kill -9 "$pid" 2>/dev/null ) >/dev/null 2>&1 &
    dog=$!
}
# finish: waits for the run; its status in $st.
finish() {
    wait "$pid"
    st=$?
    kill "$dog" 2>/dev/null
    wait "$dog" 2>/dev/null
}
# under_way FILE: waits (up to a minute) for the recording's first
# checkpoint, so the signal comes in the middle of the run.
under_way() {
    i=0
    while [ $i -lt 600 ] && ! grep -q '"type":"checkpoint"' "$1" 2>/dev/null; do
        sleep 0.1
        i=$((i + 1))
    done
}
# whole FILE: 0 when FILE ends with a newline (its last line is whole).
whole() { [ -s "$1" ] && [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ]; }
# num SIG: the signal's number (dash's kill -l takes only numbers).
num() { case $1 in HUP) echo 1 ;; INT) echo 2 ;; QUIT) echo 3 ;; TERM) echo 15 ;; esac; }

# ---- headless: INT, TERM, QUIT, HUP ----------------------------------------------
for sig in INT TERM QUIT HUP; do
    if [ -z "$DFL" ] && { [ $sig = INT ] || [ $sig = QUIT ]; }; then
        skip "SIG$sig: headless run" "env --default-signal missing: a background job ignores SIG$sig"
        continue
    fi
    r="$TMPD/$sig.rec"
    t="$TMPD/$sig.trace"
    launch "$sig" --trace-every 50 --summary --record "$r" --trace "$t" "$MAP"
    under_way "$r"
    kill -s "$sig" "$pid"
    finish
    expect_eq "SIG$sig: the run dies of it (status 128 + $(num $sig))" "$st" $((128 + $(num $sig)))
    last=$(tail -n 1 "$r")
    end=$(printf '%s\n' "$last" | sed -n 's/^{"type":"end","tick":\([0-9]*\),"hash":"[0-9a-f]\{16\}"}$/\1/p')
    [ -n "$end" ] && [ "$end" -ge 600 ]
    ok $? "SIG$sig: the recording ends with its end line at the tick reached (${end:-none})"
    [ -z "$end" ] && note "last line: $(printf '%s' "$last" | cut -c 1-120)"
    whole "$t" && tail -n 1 "$t" | grep -q '^{"type":"summary",'
    ok $? "SIG$sig: the trace ends on a whole line, the summary"
    expect_eq "SIG$sig: the trace's last states are the end's tick" \
        "$(grep '"type":"state"' "$t" | tail -n 1 | sed 's/.*"tick":\([0-9]*\),.*/\1/')" "$end"
    grep -q "^{\"type\":\"summary\",\"ticks\":$end," "$TMPD/$sig.out"
    ok $? "SIG$sig: --summary printed, at that tick"
    [ -s "$TMPD/$sig.err" ] && note "stderr: $(cat "$TMPD/$sig.err")"
    "$BOTFIELD" --headless --replay "$r" --trace-every 50 --trace "$TMPD/$sig.replay" \
        2>"$TMPD/$sig.rerr"
    rst=$?
    [ $rst -ne 0 ] && note "$(cat "$TMPD/$sig.rerr")"
    expect_eq "SIG$sig: the recording replays (exit 0)" "$rst" 0
    cmp -s "$t" "$TMPD/$sig.replay"
    ok $? "SIG$sig: the replay's trace is the run's, byte for byte"
done

# ---- SIGPIPE: the trace into a pipe whose reader left ------------------------------
if [ "$TSAN" = 1 ] || [ -z "$DFL" ]; then
    for c in "status 141" "the recording ends with its end line" "the recording replays"; do
        skip "SIGPIPE: $c" "ThreadSanitizer takes SIGPIPE itself, or no env --default-signal"
    done
else
    r="$TMPD/pipe.rec"
    { $DFL "$BOTFIELD" --headless --ticks 100000000 --record "$r" --trace - "$MAP" \
          2>"$TMPD/pipe.err"; echo $? >"$TMPD/pipe.st"; } | head -c 300000 >/dev/null
    expect_eq "SIGPIPE: the run dies of it, silently (status 141)" \
        "$(cat "$TMPD/pipe.st")$(cat "$TMPD/pipe.err")" 141
    tail -n 1 "$r" | grep -q '^{"type":"end","tick":[1-9][0-9]*,"hash":"[0-9a-f]\{16\}"}$'
    ok $? "SIGPIPE: the recording ends with its end line"
    "$BOTFIELD" --headless --replay "$r" >/dev/null 2>"$TMPD/pipe.rerr"
    expect_eq "SIGPIPE: the recording replays (exit 0)" "$?" 0
fi

# ---- a run blocked on a write ----------------------------------------------------------
# The trace goes into a FIFO whose reader never reads: the run blocks once
# the pipe is full and never gets back to its loop.
blocked() {    # blocked NAME: the run started, blocked; the reader's pid in $reader
    mkfifo "$TMPD/$1.fifo"
    sleep 120 <"$TMPD/$1.fifo" &
    reader=$!
    launch "$1" --record "$TMPD/$1.rec" --trace "$TMPD/$1.fifo" "$MAP"
    sleep 2
}
blocked grace
kill -s TERM "$pid"
finish
kill "$reader" 2>/dev/null
# (ThreadSanitizer holds a signal until the thread leaves its write: the
# grace's alarm never comes there, and the test's own kill ends the run)
if [ "$TSAN" = 1 ]; then
    skip "blocked on a write: the run still dies of SIGTERM (the grace)" \
        "ThreadSanitizer holds signals while a write blocks"
else
    expect_eq "blocked on a write: the run still dies of SIGTERM (the grace)" "$st" 143
fi
whole "$TMPD/grace.rec"
ok $? "blocked on a write: the recording ends on a whole line"
"$BOTFIELD" --headless --replay "$TMPD/grace.rec" >/dev/null 2>&1
expect_eq "blocked on a write: the recording replays (exit 0)" "$?" 0

if [ "$TSAN" = 1 ]; then
    skip "blocked on a write: a second signal kills at once" \
        "ThreadSanitizer holds signals while a write blocks"
elif [ -n "$DFL" ]; then
    blocked second
    kill -s INT "$pid"
    sleep 0.5
    kill -s TERM "$pid"
    finish
    kill "$reader" 2>/dev/null
    # (the grace would have ended it by SIGINT: 130)
    expect_eq "blocked on a write: a second signal kills at once (SIGTERM: 143)" "$st" 143
else
    skip "blocked on a write: a second signal kills at once" "no env --default-signal"
fi

# ---- the files written whole ----------------------------------------------------------
# --csv is written at the end of a tournament: past the file size limit
# (as on a full disk) it used to be left cut in the middle of a row; now
# the table is written beside it and renamed, so the old file stays.
if [ "$TSAN" = 1 ]; then
    # (ThreadSanitizer's runtime writes its own files, and dies of the limit)
    for c in "exit 1" "said" "the old file is left as it was" "no temporary file left"; do
        skip "--csv past the file size limit: $c" "ThreadSanitizer meets ulimit -f itself"
    done
else
    printf 'the old table\n' >"$TMPD/runs.csv"
    (ulimit -f 1; "$BOTFIELD" --headless --seeds 1-40 --ticks 5 --csv "$TMPD/runs.csv" \
        "$top_srcdir/maps/duel.ini" >/dev/null 2>"$TMPD/csv.err")
    expect_eq "--csv past the file size limit: exit 1" "$?" 1
    grep -q '^botfield: --csv .*runs.csv: cannot write: ' "$TMPD/csv.err"
    ok $? "--csv past the file size limit: said"
    expect_eq "--csv past the file size limit: the old file is left as it was" \
        "$(cat "$TMPD/runs.csv")" "the old table"
    expect_eq "--csv past the file size limit: no temporary file left" \
        "$(ls "$TMPD" | grep -c '^runs\.csv\.')" 0
fi
"$BOTFIELD" --headless --seeds 1-3 --ticks 5 --csv "$TMPD/runs.csv" \
    "$top_srcdir/maps/duel.ini" >/dev/null 2>&1
expect_eq "--csv: a table of 3 runs replaces it" "$(grep -c '^[0-9]' "$TMPD/runs.csv")" 3
# --replay in a tournament, --record with --aggregate: refused, not ignored.
"$BOTFIELD" --headless --seeds 1-2 --ticks 5 --replay "$TMPD/t.rec" \
    "$top_srcdir/maps/duel.ini" >/dev/null 2>"$TMPD/seeds.err"
expect_eq "--replay with --seeds: refused (exit 2)" "$?" 2
grep -q '^botfield: --seeds 1-2 --replay .*: --seeds runs a battle per seed' "$TMPD/seeds.err"
ok $? "--replay with --seeds: says why"
: >"$TMPD/empty.runs"
"$BOTFIELD" --aggregate --record "$TMPD/t.rec" "$TMPD/empty.runs" >/dev/null 2>"$TMPD/seeds.err"
expect_eq "--record with --aggregate: refused (exit 2)" "$?" 2
grep -q '^botfield: --aggregate --record .*: --aggregate only reads run lines, it runs nothing' "$TMPD/seeds.err"
ok $? "--record with --aggregate: says why"
[ ! -e "$TMPD/t.rec" ]
ok $? "--record with --aggregate: no file made"

# ---- the viewer ----------------------------------------------------------------------
TMUX_BIN=${TMUX_BIN:-$(command -v tmux)}
if [ -z "$TMUX_BIN" ] || [ ! -x "$TMUX_BIN" ]; then
    skip "the viewer's signals" "tmux not installed"
    done_testing
    exit
fi
. "$top_srcdir/tests/lib/tmux-lib.sh"
for sig in QUIT INT TERM HUP; do
    r="$TMPD/v$sig.rec"
    start_limited "v$sig" - --speed 64 --record "$r" "$MAP"
    wait_for "v$sig" 'tick [0-9]{4,}' 60 >/dev/null
    kill -s "$sig" "$(cat "$TMPD/v$sig.pid")"
    wait_for "v$sig" 'EXIT [0-9]+' 60
    expect_eq "viewer, SIG$sig: dies of it" \
        "$(screen "v$sig" | sed -n 's/^EXIT \([0-9][0-9]*\)$/\1/p')" $((128 + $(num $sig)))
    screen "v$sig" | grep -q RESTORED
    ok $? "viewer, SIG$sig: the terminal modes are restored"
    tail -n 1 "$r" | grep -q '^{"type":"end","tick":[1-9][0-9]*,"hash":"[0-9a-f]\{16\}"}$'
    ok $? "viewer, SIG$sig: the recording ends with its end line"
    "$BOTFIELD" --headless --replay "$r" >/dev/null 2>"$TMPD/v$sig.rerr"
    rst=$?
    [ $rst -ne 0 ] && note "$(cat "$TMPD/v$sig.rerr")"
    expect_eq "viewer, SIG$sig: the recording replays (exit 0)" "$rst" 0
    tm kill-session -t "v$sig"
done

done_testing
