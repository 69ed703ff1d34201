#!/bin/sh
# Process bots against a Lua bot: ticks per second of maps/bots-duel.ini
# (seed 2, 3600 ticks, a fixed count so every build does the same work)
# with tank.red the Python kit, the C kit (compiled here with -O2) and
# kits/lua/bot.lua, the same strategy; one run of each, alternated 3
# times so the machine's noise falls on all three; the best of the three.
# A process bot's tick is a line out and a line back over pipes, the
# kit's own work and the JSON on both sides.  Run by `make bench` from
# the build directory.
BOTFIELD=${BOTFIELD:-./botfield}
srcdir=$(cd "$(dirname "$0")/../.." && pwd)
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/botfield-kits.XXXXXX") || exit 1
trap 'rm -rf "$TMPD"' EXIT
TICKS=${KITS_BENCH_TICKS:-3600}
# the map and its bots copied, the Lua kit beside them: a bot's script
# lives in its map's folder
mkdir "$TMPD/maps" && cp -r "$srcdir/maps/bots-duel.ini" "$srcdir/maps/bots" "$TMPD/maps/" \
    && cp "$srcdir/kits/lua/bot.lua" "$TMPD/maps/bots/kit.lua" || exit 1
MAP="$TMPD/maps/bots-duel.ini"
if ! command -v python3 >/dev/null; then echo "bench kits: python3 is not installed"; exit 1; fi
${CC:-cc} -std=c11 -O2 -o "$TMPD/cbot" "$srcdir/kits/c/bot.c" -lm || exit 1

# secs KIND: wall-clock seconds of one run
secs() {
    case $1 in
    python) set -- --bot-process "tank.red=python3 $srcdir/kits/python/bot.py" ;;
    c) set -- --bot-process "tank.red=$TMPD/cbot" ;;
    lua) set -- --set tank.red.bot=bots/kit.lua ;;  # (the copy beside the map's)
    esac
    t0=$(date +%s.%N)
    "$BOTFIELD" --headless --ticks "$TICKS" --seed 2 "$@" "$MAP" >/dev/null || exit 1
    t1=$(date +%s.%N)
    echo "$t0 $t1" | awk '{ print $2 - $1 }'
}
for round in 1 2 3; do
    for k in python c lua; do echo "$k $(secs $k)"; done
done >"$TMPD/times" || exit 1
awk -v n="$TICKS" '
    { if (!($1 in best) || $2 < best[$1]) best[$1] = $2; all[$1] = all[$1] " " sprintf("%.0f", n / $2) }
    END {
        split("python c lua", ks, " ")
        for (i = 1; i <= 3; i++) { k = ks[i]
            printf "bench kits_%s_ticks_per_s %.0f ticks/s (best of 3 runs:%s; bots-duel, %d ticks)\n", k, n / best[k], all[k], n }
        printf "bench kits_c_over_python %.2f (ticks/s ratio)\n", best["python"] / best["c"]
        printf "bench kits_lua_over_c %.2f (ticks/s ratio)\n", best["c"] / best["lua"]
    }' "$TMPD/times"
