#!/bin/sh
# The arena's own screens on a watch (botfield-arena(7), WATCHING): a
# banner when one of my bots starts a match, the live matches (m; Enter
# watches the one chosen, from its start), the ladder (A); and a live
# match of bots whose intents never change goes on tick by tick (its
# ticks are told by the match's progress, not only by its lines).
# Timing: alice's and bob's pair (two matches, sides swapped) fills both
# live slots; carol submits once she watches, so her pair starts under her
# eyes when theirs ends, and the switch below is between her two matches,
# just begun.  They last 20 s here, not the map's 10, so that a slow
# (sanitizer) build does not see the match it chose end before it looks.
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"
L="$top_srcdir/tests/maps/ladder"
A="$TMPD/arena"
mkdir -p "$A"
sed 's/^duration = 10$/duration = 20/' "$L/duel.ini" >"$A/duel.ini"
printf '[arena]\nname = screens\nmaps = duel.ini\nsubmit_every = 0\nlive = 2\nworkers = 2\n' >"$A/arena.ini"
"$BOTFIELD" serve "$A" 2>"$TMPD/serve.err" & dpid=$!
trap 'kill $dpid 2>/dev/null; wait $dpid 2>/dev/null; tm kill-server 2>/dev/null; rm -rf "$TMPD"' EXIT
i=0; while ! grep -q serving "$TMPD/serve.err" && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
# idle bots: each sets its intents once, so a match adds no line for 10 s
submit() {
    { cat "$L/idle.lua"; echo "-- $1's"; } >"$TMPD/$1.lua"
    SSH_ORIGINAL_COMMAND="submit idle" "$BOTFIELD" arena-shell "$A" "$1" <"$TMPD/$1.lua" \
        >/dev/null 2>"$TMPD/err"
    expect_eq "$1 submits a bot" "$?" 0
}
submit alice
submit bob
start_session v 80 24 "SSH_ORIGINAL_COMMAND=watch $BOTFIELD arena-shell $A carol"
seen '^ tick [0-9]+ .* live ' 20
ok $? "carol watches a live match"
t1=$(screen | sed -n 's/^ tick \([0-9]*\) .*/\1/p')
sleep 2
t2=$(screen | sed -n 's/^ tick \([0-9]*\) .*/\1/p')
[ -n "$t1" ] && [ -n "$t2" ] && [ "$t2" -ge $((t1 + 60)) ] && [ "$t2" -le 1200 ]
ok $? "a match whose lines stop still goes on: tick $t1, then $t2 two seconds later"
submit carol
seen 'your carol/idle starts match [0-9]+ against (alice|bob)/idle' 40
ok $? "a banner says when carol's bot starts a match"
n=$(screen | sed -n 's/.*your carol\/idle starts match \([0-9]*\) .*/\1/p')
[ -n "$n" ] && [ "$n" -le 4 ]
ok $? "... in the next pair started (match $n): the bot with fewest games first, though no fit knows theirs yet"
tm send-keys -t v m
seen '^ live matches'
ok $? "m shows the live matches"
seen '^ >? +[0-9]+  [a-z]+/idle  vs  [a-z]+/idle   \(watching\)'
ok $? "... the one watched marked"
n=$(screen | grep -Ec '^ [> ] +[0-9]+  [a-z]+/idle  vs  ')
expect_eq "... both live matches listed" "$n" 2
cur=$(screen | sed -n 's/^ [> ] *\([0-9]*\)  .*(watching)$/\1/p')
other=$(screen | grep -E '^ [> ] +[0-9]+  ' | grep -v '(watching)' | sed -n 's/^ [> ] *\([0-9]*\)  .*/\1/p')
# the chosen line moved onto the other match: down, or up from the last
rows=$(screen | grep -E '^ [> ] +[0-9]+  ' | sed -n 's/^ \([> ]\) *\([0-9]*\)  .*/\1\2/p')
at=$(echo "$rows" | grep -n '^>' | cut -d: -f1)
to=$(echo "$rows" | grep -n "^ $other\$" | cut -d: -f1)
if [ -n "$at" ] && [ -n "$to" ] && [ "$to" -gt "$at" ]; then tm send-keys -t v j
elif [ -n "$at" ] && [ -n "$to" ]; then tm send-keys -t v k
fi
# Enter, then m at once: m comes before the switch to the other match,
# and the list stays open over it
tm send-keys -t v Enter m
seen "^ [> ] +$other  .*\\(watching\\)"
ok $? "... watching match $other now (it was $cur), the list open over the switch"
tm send-keys -t v Escape
seen '^ tick [0-9]+ ' 10
ok $? "Esc goes back to the map"
tm send-keys -t v A
seen '^ ladder: 3 bots, [0-9]+ matches'
ok $? "A shows the ladder"
seen '^ +[123]  carol/idle '
ok $? "... with carol's bot"
tm send-keys -t v Escape
seen '^ tick [0-9]+ '
ok $? "Esc closes it"
tm send-keys -t v q
sleep 0.5
expect_eq "the daemon serves on" "$(SSH_ORIGINAL_COMMAND=bots "$BOTFIELD" arena-shell "$A" carol >/dev/null 2>&1; echo $?)" 0
done_testing
