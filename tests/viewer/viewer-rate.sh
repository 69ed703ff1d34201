#!/bin/sh
# --rate on a slow link: the viewer runs behind tests/lib/rate-relay.py, which
# reads its terminal eagerly (as sshd does) and passes 1200 bytes a second
# on.  Without a budget the screen fell further behind every second (10 s
# behind after 25 s of the default map); with --rate 1200 frames are
# skipped, and every screen seen (its status line's tick) is within a
# second of the simulation, whose pace is taken from where a pause stops
# it.  Then --rate and --fps refuse bad values, and b / B change the
# budget at run time.
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"
if ! command -v python3 >/dev/null; then
    skip "the viewer behind a 1200 bytes/s link" "python3 is needed for the relay"
    done_testing
    exit
fi
RELAY="$top_srcdir/tests/lib/rate-relay.py"
now() { date +%s.%N; }

start_session v 80 24 "python3 $RELAY 1200 $BOTFIELD --paused --rate 1200"
# The first screen is all of it (a few seconds at 1200 bytes/s).
seen ' tick 0 .* paused' 30 && settle
t0=$(now)
tm send-keys -t v ' '
# A screen a third of a second for 10 s: "time tick seconds" lines.  A
# status line seen half redrawn (its tick and seconds from two frames)
# is dropped below.
: >"$TMPD/samples"
end=$(echo "$t0 + 10" | bc)
while [ "$(echo "$(now) < $end" | bc)" = 1 ]; do
    t=$(now)
    screen | head -1 | sed -n "s/^ tick \([0-9]*\)  \([0-9.]*\)s .*/$t \1 \2/p" >>"$TMPD/samples"
    sleep 0.3
done
tp=$(now)
tm send-keys -t v ' '
# The pause's frame: its tick is where the simulation stood at tp.
seen ' tick [0-9]+ .* paused' 20 && settle
last=$(screen | head -1 | sed -n 's/^ tick \([0-9]*\) .*/\1/p')
note "paused at tick ${last:-?}"
# The simulation's ticks a second from the run; the lag of each screen
# seen: how long before it was captured the simulation was at its tick.
awk -v t0="$t0" -v tp="$tp" -v last="${last:-0}" '
    function abs(x) { return x < 0 ? -x : x }
    BEGIN { pace = last / (tp - t0); worst = 0; n = 0 }
    abs($3 * 60 - $2) <= 1 && $2 > 0 {
        lag = ($1 - t0) - $2 / pace
        if (lag > worst) worst = lag
        n++
    }
    END {
        printf "# %d screens; the simulation at %.1f ticks/s; the screen at most %.2f s behind\n", n, pace, worst
        exit !(n >= 5 && last > 0 && worst < 1.0)
    }' "$TMPD/samples"
st=$?
# Under ThreadSanitizer the viewer itself runs several times slower than
# the simulation's clock asks (it falls behind with no link at all): the
# bound is measured by the other builds.
if grep -q -a -e __tsan_init "$BOTFIELD" 2>/dev/null; then
    skip "--rate 1200 behind a 1200 bytes/s link: the screen never more than a second behind" \
        "ThreadSanitizer slows the viewer itself past the bound"
else
    ok $st "--rate 1200 behind a 1200 bytes/s link: the screen never more than a second behind"
fi

# b / B: the budget at run time, said in the status line.
tm send-keys -t v b
seen 'terminal budget 600 bytes/s' 20
ok $? "b halves the budget"
tm send-keys -t v B B B B B B
seen 'terminal budget: none' 20
ok $? "B doubles it, past 19200 to none"
tm kill-session -t v

for bad in "--rate 50" "--rate -1" "--rate x" "--fps 0" "--fps 61" "--fps 2.5"; do
    # shellcheck disable=SC2086
    err=$("$BOTFIELD" $bad 2>&1 </dev/null)
    st=$?
    opt=${bad%% *}
    { [ $st -eq 2 ] && printf '%s' "$err" | grep -q "^botfield: $opt .*: expected a whole number"; }
    ok $? "$bad is refused, saying what is allowed"
done
"$BOTFIELD" --headless --rate 1200 --ticks 1 2>"$TMPD/err" >/dev/null
st=$?
{ [ $st -eq 2 ] && grep -q "^botfield: --headless --rate 1200: that is the viewer's" "$TMPD/err"; }
ok $? "--rate with --headless is refused"
done_testing
