#!/bin/sh
# An episode stepped through libbotfield (tests/lib/env-episode: a fixed
# policy), recorded, opens in the viewer with --replay: paused at tick 0;
# End goes to the episode's last tick; the agent, selected, is where the
# library's own trace has it there.
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"
"$top_builddir/tests/lib/env-episode" "$top_srcdir/maps/learn.ini" 5 "$TMPD/ep.rec" \
    "$TMPD/ep.trace" >"$TMPD/out" 2>"$TMPD/err"
st=$?
[ "$st" -ne 0 ] && note "$(cat "$TMPD/err")"
ok "$st" "an episode through the library, recorded"
last=$(sed -n 's/^ticks \([0-9]*\) .*/\1/p' "$TMPD/out")
start_session v 100 30 "$BOTFIELD --replay $TMPD/ep.rec"
seen '^ tick 0 .*paused'
ok $? "the viewer opens the episode paused at tick 0"
tm send-keys -t v End
seen "^ tick $last " 15
ok $? "End goes to the episode's last tick ($last)"
tm send-keys -t v Tab
seen '│tank\.agent' 3
ok $? "Tab selects the agent"
xy=$(grep "\"type\":\"state\",\"tick\":$last,\"id\":\"tank.agent\"" "$TMPD/ep.trace" |
     sed 's/.*"x":\([-0-9.e]*\),"y":\([-0-9.e]*\),.*/\1 \2/' | awk '{ printf "at %.0f, %.0f", $1, $2 }')
[ -n "$xy" ] && seen "$xy" 3
ok $? "the agent is where the library's trace has it at tick $last ($xy)"
echo "1..$tap_n"
[ "$tap_failed" -eq 0 ]
