#!/bin/sh
# --ladder and --sprt: games a second of --ladder, and from the pairs it
# played (two bots whose difference is measured on them) how many games
# the sequential test needs and how often it decides wrongly over 200
# repeated tests (pairs resampled by bench-sprt with its own seeded
# generator), and the ratings' intervals narrowing with games.  Run by
# `make bench` from the build directory; LADDER_BENCH_SECONDS sets how
# long to play (default 120).
BOTFIELD=${BOTFIELD:-./botfield}
SIM=${SPRT_SIM:-./tests/bench/bench-sprt}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
MAP="$SRC/tests/maps/ladder/duel.ini"
SECS=${LADDER_BENCH_SECONDS:-120}
CORES=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
T=$(mktemp -d "${TMPDIR:-/tmp}/ladder-bench.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

# Two bots of the test map that differ a little: each fires when its gun
# is loaded, one time in 50 (new.lua) or in 62.5 (old.lua).
cp "$SRC/tests/maps/ladder/lucky.lua" "$T/new.lua"
sed 's/< 0.02/< 0.016/' "$SRC/tests/maps/ladder/lucky.lua" >"$T/old.lua"

# Blocks of 500 seeds until the time is spent.
start=$(date +%s.%N) lo=1
while :; do
    hi=$((lo + 499))
    "$BOTFIELD" --ladder "$T/new.lua" "$T/old.lua" --map "$MAP" --seeds "$lo-$hi" \
        --jobs "$CORES" | grep '"type":"game"' >>"$T/games" || exit 1
    lo=$((hi + 1))
    now=$(date +%s.%N)
    awk -v a="$start" -v b="$now" -v s="$SECS" 'BEGIN { exit !(b - a >= s) }' && break
done
games=$(wc -l <"$T/games")
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
echo "$start $now $games" | awk -v c="$CORES" -v l="$load" '{
    printf "bench ladder_games_per_s %.1f games/s (%d games in %.1f s, --jobs %d; load average %s)\n",
        $3 / ($2 - $1), $3, $2 - $1, c, l }'

# NEW's half points in each seed's two games (the ladder plays new.lua on
# the first team, then on the second).
python3 - "$T/games" "$T/new.lua" >"$T/pairs" <<'PY' || exit 1
import json, sys
first = {}
for line in open(sys.argv[1]):
    g = json.loads(line)
    team = [t for t, b in g["bots"].items() if b == sys.argv[2]][0]
    half = 1 if g["winner"] is None else 2 if g["winner"] == team else 0
    if g["seed"] in first:
        print(first.pop(g["seed"]), half)
    else:
        first[g["seed"]] = half
PY
"$SIM" <"$T/pairs"
