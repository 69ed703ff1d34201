#!/bin/sh
# The arena's ladder at scale (botfield-arena(7), budgets): 1,000 bots and
# 100,000 finished matches in an arena folder, through the ladder engine
# (tests/arena/test-ladder with ARENA_BENCH=1): how long the daemon takes
# to open them, a refit of all the ratings (in a child), and how long
# `ladder` and `matches` take to answer while that refit runs, against
# the budget of one second.  Run by `make bench` from the build directory.
PROG=${ARENA_LADDER_PROG:-./tests/arena/test-ladder}
out=$(ARENA_BENCH=1 "$PROG" 2>&1) || { printf '%s\n' "$out"; exit 1; }
printf '%s\n' "$out" | grep '^#' | sed 's/^# /bench arena_ladder /'
printf '%s\n' "$out" | sed -n 's/.*ladder + matches answered in \([0-9.]*\) s.*/\1/p' | awk '
    { printf "budget arena_ladder_answer %s: %.3f s to answer ladder and matches with 100,000 matches, at most 1\n", $1 <= 1 ? "within" : "OVER", $1; n++ }
    END { if (!n) { print "bench arena_ladder: no figure read"; exit 1 } }'
