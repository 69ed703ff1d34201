#!/bin/sh
# The example bots of the new senses (botfield-bots(7), EXAMPLES): each
# runs headless on its map without a bot error, and on seeds 1 to 20 its
# team wins at least as many battles (matches, for the learner) as the
# built-in tanks do.  The runs are deterministic, so these counts are
# fixed for a build: a change to a bot, its map or the built-in behaviours
# that turns the tables fails here.
. "$top_srcdir/tests/lib/lib.sh"

# wins AGGREGATE TEAM: the n of TEAM's wins in a tournament's aggregate
# line (in its "wins" object: "scores" names the teams too)
wins() {
    printf '%s\n' "$1" | sed -n 's/.*"wins":{\(.*\)},"draws".*/\1/p' |
        sed -n "s/.*\"$2\":{\"n\":\([0-9]*\),.*/\1/p"
}

# example MAP BOT_TEAM OTHER_TEAM
example() {
    map="$top_srcdir/maps/$1"
    for seed in 1 2 3; do
        "$BOTFIELD" --headless --seed "$seed" --trace "$TMPD/t" "$map"
        expect_eq "$1 seed $seed: the run exits 0" "$?" 0
        expect_eq "$1 seed $seed: no bot_error" "$(grep -c '"type":"bot_error"' "$TMPD/t")" 0
    done
    agg=$("$BOTFIELD" --headless --seeds 1-20 --jobs 2 "$map" | tail -n 1)
    expect_eq "$1: no run of seeds 1-20 failed" \
        "$(printf '%s\n' "$agg" | sed -n 's/.*"failed":\([0-9]*\),.*/\1/p')" 0
    won=$(wins "$agg" "$2")
    lost=$(wins "$agg" "$3")
    note "$1: seeds 1-20: $2 (bots) won $won, $3 (built-in) won $lost"
    [ -n "$won" ] && [ -n "$lost" ] && [ "$won" -ge "$lost" ]
    ok $? "$1: the bots win at least as many of seeds 1-20 as the built-in tanks"
}

example bots-dodge.ini red blue
example bots-radar.ini red blue
example bots-pair.ini red blue

# A match of rounds: the match winners of seeds 1 to 20, run one by one
# (a tournament's run line takes no rounds array).
map="$top_srcdir/maps/bots-rounds.ini"
won=0 lost=0
for seed in $(seq 1 20); do
    "$BOTFIELD" --headless --seed "$seed" --trace "$TMPD/t" --summary "$map" >"$TMPD/s"
    st=$?
    [ "$st" -eq 0 ] || note "bots-rounds.ini seed $seed: exit $st"
    errors=$(grep -c '"type":"bot_error"' "$TMPD/t")
    [ "$errors" -eq 0 ] || note "bots-rounds.ini seed $seed: $errors bot_error lines"
    [ "$st" -eq 0 ] && [ "$errors" -eq 0 ]
    ok $? "bots-rounds.ini seed $seed: the match runs without a bot_error"
    case $(cat "$TMPD/s") in
    *'"winner":"red"}'*) won=$((won + 1)) ;;
    *'"winner":"blue"}'*) lost=$((lost + 1)) ;;
    esac
    if [ "$seed" -eq 1 ]; then
        # mem lasts across rounds: round 2 books round 1's tactic and
        # tries the next, which it could not know without mem
        grep -q '"id":"tank.r1","text":"round 1: wander earned' "$TMPD/t"
        ok $? "bots-rounds.ini: the learner books round 1 in round 2"
        grep -q '"id":"tank.r1","text":"round 2 of 8: trying close"' "$TMPD/t"
        ok $? "bots-rounds.ini: and tries another tactic in round 2"
    fi
done
note "bots-rounds.ini: seeds 1-20: red (bots) won $won matches, blue (built-in) $lost"
[ "$won" -ge "$lost" ]
ok $? "bots-rounds.ini: the bots win at least as many matches of seeds 1-20 as the built-in tanks"
done_testing
