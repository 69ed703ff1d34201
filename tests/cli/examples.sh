#!/bin/sh
# The example bots of the new senses (botfield-bots(7), EXAMPLES): each
# runs headless on its map without a bot error, and on seeds 1 to 20 its
# team wins at least as many battles as the built-in tanks do.  The runs
# are deterministic, so these counts are fixed for a build: a change to a
# bot, its map or the built-in behaviours that turns the tables fails here.
. "$top_srcdir/tests/lib/lib.sh"

# wins AGGREGATE TEAM: the n of TEAM's wins in a tournament's aggregate line
wins() {
    printf '%s\n' "$1" | sed -n "s/.*\"wins\":{.*\"$2\":{\"n\":\([0-9]*\),.*/\1/p"
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
done_testing
