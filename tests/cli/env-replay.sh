#!/bin/sh
# An episode stepped through libbotfield, recorded and traced, is the run
# `botfield --headless --replay` recomputes from its recording: the two
# traces are byte for byte the same (the agents' actions are recorded as
# intents), on a duel and on a map of many agents and Lua bots.
. "$top_srcdir/tests/lib/lib.sh"
EP="$top_builddir/tests/lib/env-episode"

episode() {     # episode WHAT MAP SEED [AGENTS]
    "$EP" "$2" "$3" "$TMPD/rec" "$TMPD/lib.trace" $4 >"$TMPD/out" 2>"$TMPD/err"
    st=$?
    [ "$st" -ne 0 ] && note "$(cat "$TMPD/err")"
    ok "$st" "$1: the episode runs through the library"
    ( cd "$TMPD" && "$BOTFIELD" --headless --replay "$TMPD/rec" --trace "$TMPD/replay.trace" \
        >/dev/null 2>"$TMPD/err2" )
    st=$?
    [ "$st" -ne 0 ] && note "$(cat "$TMPD/err2")"
    ok "$st" "$1: its recording replays headless without divergence"
    cmp -s "$TMPD/lib.trace" "$TMPD/replay.trace"
    st=$?
    [ "$st" -ne 0 ] && note "$(cmp "$TMPD/lib.trace" "$TMPD/replay.trace" 2>&1)"
    ok "$st" "$1: the library's trace and the replay's are byte for byte the same"
    n=$(grep -c '"type":"state"' "$TMPD/lib.trace")
    [ "$n" -gt 100 ]
    ok $? "$1: the trace has the episode's states ($n lines)"
}

episode "learn.ini seed 5" "$top_srcdir/maps/learn.ini" 5
grep -q '"type":"summary"' "$TMPD/lib.trace"
ok $? "the trace ends with the summary"
episode "learn.ini seed 6" "$top_srcdir/maps/learn.ini" 6
# several agents beside Lua bots: the bundled bots' duel, its first team
# driven by the library
episode "bots-duel.ini, team.red as agents" "$top_srcdir/maps/bots-duel.ini" 2 team.red
# a match of rounds: a round's first tick senses its new world (a sense
# run ahead for the observation saw the round before: the library's
# first ticks of each round once saw nothing)
episode "bots-rounds.ini, team.red as agents" "$top_srcdir/maps/bots-rounds.ini" 4 team.red
# ... and where the tanks see each other from a round's first tick (one
# hit ends a round): bots-rounds.ini's start out of each other's sight
cat >"$TMPD/rounds.ini" <<'EOF'
[map]
width = 600
height = 400
seed = 3
duration = 30
[match]
rounds = 5
[team.red]
health = 1
[team.blue]
health = 1
[tank.r]
team = red
x = 200
y = 200
heading = 0
[tank.b]
team = blue
x = 400
y = 200
heading = 180
EOF
episode "five rounds face to face, tank.r an agent" "$TMPD/rounds.ini" 1 tank.r

# the same seed and actions twice: the same trace
"$EP" "$top_srcdir/maps/learn.ini" 5 "$TMPD/rec2" "$TMPD/t2" >/dev/null 2>&1
"$EP" "$top_srcdir/maps/learn.ini" 5 "$TMPD/rec3" "$TMPD/t3" >/dev/null 2>&1
cmp -s "$TMPD/t2" "$TMPD/t3"
ok $? "the same seed and actions twice give the same trace"
"$EP" "$top_srcdir/maps/learn.ini" 9 "$TMPD/rec4" "$TMPD/t4" >/dev/null 2>&1
cmp -s "$TMPD/t2" "$TMPD/t4"
[ $? -ne 0 ]
ok $? "another seed gives another trace"
echo "1..$tap_n"
[ "$tap_failed" -eq 0 ]
