#!/bin/sh
# Seeking in the viewer, driven for real in a detached tmux (as
# tests/viewer/viewer.sh): `g 1500 Enter` shows tick 1500 at once and the world of
# a headless run at that tick; Home, End, PgUp and PgDn; `n` and `N` land
# on the ticks of the events of the trace; the prompt refuses what is not
# a number; a key stops a long computation; a bot error is an event.
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"
MAP="$top_srcdir/maps/default.ini"

start_session v 100 30 "$BOTFIELD --paused --seed 7 $MAP"

"$BOTFIELD" --headless --ticks 3000 --seed 7 --trace "$TMPD/trace" "$MAP"
ok $? "a headless run of 3000 ticks writes its trace"
# The ticks of the events that matter, in order.
grep -E '"type":"(shot|hit|knockout|collision|lap)"' "$TMPD/trace" |
    sed 's/.*"tick":\([0-9]*\).*/\1/' | uniq >"$TMPD/events"
next_after() { awk -v t="$1" '$1 > t { print; exit }' "$TMPD/events"; }
prev_before() { awk -v t="$1" '$1 < t { p = $1 } END { print p }' "$TMPD/events"; }
# at TICK ID: "at X, Y" as the inspector shows the vehicle in the trace.
at() {
    grep "\"type\":\"state\",\"tick\":$1,\"id\":\"$2\"" "$TMPD/trace" |
        sed 's/.*"x":\([-0-9.e]*\),"y":\([-0-9.e]*\),.*/\1 \2/' |
        awk '{ printf "at %.0f, %.0f\n", $1, $2 }'
}
shots_to() { awk -v t="$1" -F'"tick":' '/"type":"shot"/ { split($2, a, ","); if (a[1] <= t) n++ } END { print n + 0 }' "$TMPD/trace"; }

# press TICK DESCRIPTION KEY...: the keys, then the top line at TICK.
press() {
    t=$1 d=$2
    shift 2
    tm send-keys -t v "$@"
    seen "^ tick $t "
    ok $? "$d"
}
# where TICK: the selected vehicle is where the headless run has it.
where() {
    screen | grep -q "$(at "$1" "$id")"
    ok $? "the world is the headless run's at tick $1 ($id $(at "$1" "$id"))"
}

seen '^ tick 0 '
ok $? "the viewer starts paused at tick 0"

# ---- n before anything is computed: computes on to the first event ---------
first=$(next_after 0)
grep -q "\"type\":\"shot\",\"tick\":$first," "$TMPD/trace"
ok $? "the first event of the trace is a shot (tick $first)"
tm send-keys -t v n
seen "^ tick $first "
ok $? "n computes on and lands on the first shot, tick $first"

# ---- g 1500 Enter ---------------------------------------------------------
tm send-keys -t v g 1 5 0 0
seen 'go to tick: 1500_'
ok $? "g opens the prompt on the bottom line and shows the digits"
start=$(date +%s)
tm send-keys -t v Enter
seen '^ tick 1500 ' 3
ok $? "g 1500 Enter shows tick 1500"
[ $(( $(date +%s) - start )) -le 2 ]
ok $? "at once (within 2 s)"
tm send-keys -t v Tab
seen '│tank\.'
id=$(screen | sed -n 's/.*│\(tank\.[a-z0-9.]*\).*/\1/p' | head -n 1)
want=$(at 1500 "$id")
screen | grep -q "$want"
ok $? "the selected $id is where the headless run has it at tick 1500 ($want)"
screen | grep -q "shots $(shots_to 1500) "
ok $? "and the shot count is the trace's ($(shots_to 1500))"
screen | head -n 1 | grep -q '◆'
ok $? "the timeline on the top line marks the tick shown"
screen | head -n 1 | grep -q '•'
ok $? "and the events"

# ---- Home, End, PgUp, PgDn ------------------------------------------------
press 0 "Home goes to tick 0" Home
press 1500 "End comes back to the furthest tick computed, 1500" End
where 1500
press 900 "PgUp goes 10 s (600 ticks) back" PPage
where 900
press 1500 "PgDn goes 10 s forward" NPage
press 2100 "PgDn past the furthest tick computed computes it: tick 2100" NPage
where 2100

# ---- n and N --------------------------------------------------------------
press 900 "g 900 Enter" g 9 0 0 Enter
n1=$(next_after 900)
press "$n1" "n from tick 900: the next event of the trace, tick $n1" n
n2=$(next_after "$n1")
press "$n2" "n again: tick $n2" n
p=$(prev_before "$n1")
press "$p" "N twice: the event before tick $n1, tick $p" N N

# ---- the prompt's errors ----------------------------------------------------
tm send-keys -t v g 1 x
seen 'only digits'
ok $? "a letter in the prompt is refused, saying what is allowed"
tm send-keys -t v Escape
seen 'cancelled'
ok $? "Esc cancels the prompt"
seen "^ tick $p "
ok $? "and the tick stays $p"
tm send-keys -t v g Enter
seen 'no number typed'
ok $? "Enter without a number says so"
tm send-keys -t v Escape
press 200 "g 200 Enter goes back to tick 200" g 2 0 0 Enter
where 200

tm send-keys -t v q

# ---- a long computation stops on a key ------------------------------------
tm kill-session -t v
start_session v 100 30 "$BOTFIELD --paused $top_srcdir/maps/crowd.ini"
seen '^ tick 0 '
# crowd.ini has no event in its first ten minutes: n computes 36,000 ticks.
tm send-keys -t v n
seen 'computing to the next event'
ok $? "n on a map without events computes on, saying so"
tm send-keys -t v x
seen 'stopped at tick'
ok $? "a key stops it"
t1=$(screen | sed -n 's/^ tick \([0-9]*\) .*/\1/p')
sleep 0.5
t2=$(screen | sed -n 's/^ tick \([0-9]*\) .*/\1/p')
[ -n "$t1" ] && [ "$t1" -lt 36000 ] && [ "$t1" = "$t2" ]
ok $? "before the end, and the tick stays there ($t1 = $t2)"
tm kill-session -t v

# ---- a bot error is an event; none within ten minutes is said -------------
mkdir -p "$TMPD/lone"
cat >"$TMPD/lone/map.ini" <<'EOS'
[map]
name = lone
width = 1000
height = 1000
tick_rate = 10
duration = 1000
[team.a]
[tank.a]
team = a
x = 500
y = 500
bot = err.lua
EOS
cat >"$TMPD/lone/err.lua" <<'EOS'
function tick(me, world, mem, out)
  if world.tick == 40 then error("boom") end
end
EOS
"$BOTFIELD" --headless --ticks 100 --trace "$TMPD/lone.trace" "$TMPD/lone/map.ini"
te=$(sed -n 's/.*"type":"bot_error","tick":\([0-9]*\),.*/\1/p' "$TMPD/lone.trace" | head -n 1)
[ -n "$te" ]
ok $? "the headless run has the bot's error (tick $te)"
start_session v 100 30 "$BOTFIELD --paused $TMPD/lone/map.ini"
seen '^ tick 0 '
press "$te" "n lands on the tick of the bot error ($te)" n
tm send-keys -t v n
seen "no event up to tick $((te + 6000)) " 30
ok $? "n again: no event in the next ten minutes (6000 ticks at 10 a second), said"
press "$te" "N goes back to the bot error" N
tm send-keys -t v q
done_testing
