#!/bin/sh
# Seeking in a replay: a recording of a headless run of the default map
# (seed 7, 3000 ticks) opened with --replay; `g 1500 Enter` shows tick 1500
# at once with the world of the recorded run, `n` lands on the next shot of
# its trace, End stops at the recording's last tick.  With its tick 600
# checkpoint tampered, End, `g 1000` and PgDn from tick 595 each stop at
# tick 600 and say why (they once went on past it without a word).
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"
MAP="$top_srcdir/maps/default.ini"
REC="$TMPD/run.rec"

"$BOTFIELD" --headless --ticks 3000 --seed 7 --trace "$TMPD/trace" --record "$REC" "$MAP"
ok $? "a headless run of 3000 ticks, recorded"
shots() { grep '"type":"shot"' "$TMPD/trace" | sed 's/.*"tick":\([0-9]*\).*/\1/' | uniq; }
next_shot() { shots | awk -v t="$1" '$1 > t { print; exit }'; }

start_session v 100 30 "$BOTFIELD --replay $REC"

seen '^ tick 0 .*paused'
ok $? "the replay opens paused at tick 0"
tm send-keys -t v g 1 5 0 0 Enter
seen '^ tick 1500 ' 3
ok $? "g 1500 Enter on a replay shows tick 1500 at once"
tm send-keys -t v Tab
seen '│tank\.' 3
ok $? "Tab selects a tank"
id=$(screen | sed -n 's/.*│\(tank\.[^ ]*\).*/\1/p' | head -1)
xy=$(grep "\"type\":\"state\",\"tick\":1500,\"id\":\"$id\"" "$TMPD/trace" |
     sed 's/.*"x":\([-0-9.e]*\),"y":\([-0-9.e]*\),.*/\1 \2/' | awk '{ printf "at %.0f, %.0f", $1, $2 }')
seen "$xy" 3
ok $? "$id is where the recorded run had it at tick 1500 ($xy)"
tm send-keys -t v Escape
n1=$(next_shot 1500)
tm send-keys -t v n
seen "^ tick $n1 " 5
ok $? "n lands on the next shot of the recording's trace (tick $n1)"
tm send-keys -t v End
seen '^ tick 3000 ' 10
ok $? "End goes to the recording's last tick, 3000"
tm send-keys -t v PgDn
sleep 0.5
seen '^ tick 3000 ' 2
ok $? "and no seek goes past it"
tm send-keys -t v Home
seen '^ tick 0 ' 3
ok $? "Home goes back to tick 0"
tm send-keys -t v q
tm kill-session -t v 2>/dev/null

sed '/"tick":600,"hash"/s/"hash":"[0-9a-f]*"/"hash":"0123456789abcdef"/' "$REC" >"$TMPD/bad.rec"
# seek_stops NAME KEYS...: a replay of bad.rec, the keys, then tick 600
# and the divergence said.
seek_stops() {
    name=$1; shift
    start_session "$name" 100 30 "$BOTFIELD --replay $TMPD/bad.rec"
    wait_for "$name" '^ tick 0 .*paused' || return 1
    for k in "$@"; do
        case $k in
        @*) # a seek done first: a key pressed during a seek stops it
            # there, and a slow build (ThreadSanitizer) seeks slowly
            wait_for "$name" "^ tick ${k#@} " 60 || return 1 ;;
        *)  tm send-keys -t "$name" "$k"
            sleep 0.2 ;;
        esac
    done
    wait_for "$name" 'seek stopped here: replay diverges at tick 600' 10 || return 1
    sleep 0.5
    wait_for "$name" '^ tick 600 .*paused' 2 || return 1
    screen_read "$name" | grep -q 'replay diverges at tick 600'
}
seek_stops e End
ok $? "End on a replay that diverges at tick 600 stops there and says so"
seek_stops g g 1 0 0 0 Enter
ok $? "g 1000 stops at tick 600 and says so"
seek_stops p g 5 9 5 Enter @595 PgDn
ok $? "PgDn from tick 595 stops at tick 600 and says so"
done_testing
