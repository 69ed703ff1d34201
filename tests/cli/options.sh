#!/bin/sh
# The options are one table (src/cli/cli_options.c): --help lists every option
# the man page's OPTIONS section documents and no other, and an option
# given with a mode its row does not list is refused (exit 2, nothing
# written), the message naming the option, the mode and what it takes.
. "$top_srcdir/tests/lib/lib.sh"
MAP="$top_srcdir/maps/duel.ini"
MAN="$top_srcdir/man/botfield.6.in"

# The option names in --help's option lines, and in the man page's
# OPTIONS section (its .B/.BI lines right after a .TP).
"$BOTFIELD" --help | sed -n 's/^      --\([a-z-]*\).*/\1/p' | sort >"$TMPD/help"
awk '/^\.SH OPTIONS/ { on = 1; next } /^\.SH/ { on = 0 }
     on && tp && /^\.BI? \\-\\-/ { print }
     { tp = /^\.TP/ }' "$MAN" | sed 's/^\.BI* \\-\\-\([a-z\\-]*\).*/\1/; s/\\-/-/g; s/"//g' \
    | sort >"$TMPD/man"
n=$(wc -l <"$TMPD/help")
[ "$n" -ge 20 ]
ok $? "--help lists the options ($n)"
expect_eq "every option of --help is in the man page's OPTIONS" \
    "$(comm -23 "$TMPD/help" "$TMPD/man" | tr '\n' ' ')" ""
expect_eq "every option of the man page's OPTIONS is in --help" \
    "$(comm -13 "$TMPD/help" "$TMPD/man" | tr '\n' ' ')" ""

# refused WHAT GREP ARGS...: exit 2, nothing on stdout, no file made,
# stderr's first line matching GREP.
refused() {
    what=$1 re=$2
    shift 2
    rm -f "$TMPD/made"
    "$BOTFIELD" "$@" >"$TMPD/out" 2>"$TMPD/err"
    st=$?
    [ "$st" -eq 2 ] && [ ! -s "$TMPD/out" ] && [ ! -e "$TMPD/made" ] \
        && head -n 1 "$TMPD/err" | grep -q -- "$re"
    ok $? "$what: exit 2, $(head -n 1 "$TMPD/err" | cut -c1-90) (got $st)"
}
refused "--check with --record" "^botfield: --check --record $TMPD/made: --check only loads the map: it takes MAP, --set and --seed" \
    --check --record "$TMPD/made" "$MAP"
refused "--replay with --seed" "^botfield: --replay $TMPD/r.rec --seed 3: a replay repeats the run .*: it takes .*--threads" \
    --headless --replay "$TMPD/r.rec" --seed 3
refused "--compare with --trace" "^botfield: --compare team.red.fov=30 --trace $TMPD/made: --compare runs two worlds" \
    --headless --compare team.red.fov=30 --trace "$TMPD/made" "$MAP"
refused "--aggregate with --headless" "^botfield: --aggregate --headless: --aggregate only reads run lines.*--csv and --chart" \
    --aggregate --headless "$MAP"
refused "--summary in the viewer" "^botfield: --summary: that needs --headless: .*the viewer takes MAP, --paused" \
    --summary "$MAP"
refused "--csv without --seeds" "^botfield: --csv $TMPD/made: a tournament's option: it needs --ladder, --aggregate or --seeds" \
    --headless --csv "$TMPD/made" "$MAP"
# --trace-every 1 and --trace-decisions were let through where they do
# nothing (a tournament ran and ignored them): refused as every option is.
refused "--trace-every 1 in the viewer" "^botfield: --trace-every 1: that needs --headless" \
    --trace-every 1 "$MAP"
refused "--trace-decisions in a tournament" "^botfield: --seeds 1-2 --trace-decisions: --seeds runs" \
    --headless --seeds 1-2 --ticks 1 --trace-decisions "$MAP"
# --set is for one run as much as for a tournament: --threads goes with it.
"$BOTFIELD" --headless --ticks 2 --threads 2 --set team.hunters.fov=30 "$MAP" >"$TMPD/out" 2>"$TMPD/err"
expect_eq "--set with --threads runs one battle (exit 0)" "$?" 0
# --ladder and --sprt are rows of the table too: listed by --help, and
# their options refused with the other modes as any option is.
L="$top_srcdir/tests/maps/ladder"
for o in ladder sprt map anchor elo0 elo1 alpha beta max-games; do
    "$BOTFIELD" --help | grep -q -- "^      --$o"
    ok $? "--help lists --$o"
done
refused "--ladder with --headless" "^botfield: --ladder --headless: --ladder plays every pair.*: it takes BOT.lua BOT.lua..., .*--anchor" \
    --ladder "$L/shoot.lua" "$L/idle.lua" --map "$L/duel.ini" --headless
refused "--ladder with --sprt" "^botfield: --ladder --sprt: --ladder plays every pair" \
    --ladder --sprt "$L/shoot.lua" "$L/idle.lua" --map "$L/duel.ini"
refused "--sprt with --csv" "^botfield: --csv $TMPD/made: a tournament's option: it needs --ladder, --aggregate or --seeds" \
    --sprt "$L/shoot.lua" "$L/idle.lua" --map "$L/duel.ini" --csv "$TMPD/made"
refused "--elo1 with --ladder" "^botfield: --elo1 3: .*: it needs --sprt" \
    --ladder "$L/shoot.lua" "$L/idle.lua" --map "$L/duel.ini" --elo1 3
refused "--map without --ladder" "^botfield: --map $MAP: .*: it needs --ladder or --sprt" \
    --headless --map "$MAP"
refused "--sprt with --trace" "^botfield: --sprt --trace $TMPD/made: --sprt tests NEW.lua" \
    --sprt "$L/shoot.lua" "$L/idle.lua" --map "$L/duel.ini" --trace "$TMPD/made"
refused "--ladder with --ascii" "^botfield: --ladder --ascii: --ladder plays" \
    --ladder "$L/shoot.lua" "$L/idle.lua" --map "$L/duel.ini" --ascii
done_testing
