#!/bin/sh
# The bundled example (python3 -m botfield.train, botfield-env(3)), cut
# short: it trains, measures against a random policy, and writes a Lua bot
# and a map that the program loads, checks and runs.  (The whole example,
# 150 generations, is measured by make bench: a few minutes.)
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/env-lib.sh"
env_unsanitized "the training example"
py=$NUMPY_PY
if [ -z "$py" ]; then
    skip "the training example" "no python3 here has NumPy (apt-get install python3-numpy)"
    echo "1..$tap_n"
    exit 0
fi
cd "$TMPD" || exit 1
"$py" -m botfield.train "$top_srcdir/maps/learn.ini" --out "$TMPD/out" --generations 3 \
    --pairs 4 --episodes 2 --eval 16 >"$TMPD/log" 2>&1
st=$?
# its exit status says whether it beat the random policy: not asked here
[ "$st" -le 1 ]
ok $? "it trains and evaluates (exit $st)"
grep -q '^trained: [0-9]*/16 wins (.*95%); random: [0-9]*/16' "$TMPD/log"
ok $? "it reports wins of both policies with intervals"
[ -s "$TMPD/out/policy.lua" ] && [ -s "$TMPD/out/map.ini" ]
ok $? "it writes the bot and the map"
grep -q '^bot = policy.lua' "$TMPD/out/map.ini" && ! grep -q '^player = true' "$TMPD/out/map.ini"
ok $? "the map's agent runs the bot, and is no player tank"
"$BOTFIELD" --check "$TMPD/out/map.ini" >"$TMPD/check" 2>&1
st=$?
[ "$st" -ne 0 ] && note "$(cat "$TMPD/check")"
ok "$st" "botfield --check accepts the map and the bot"
"$BOTFIELD" --headless --seconds 10 --trace "$TMPD/t" "$TMPD/out/map.ini" >/dev/null 2>"$TMPD/err"
st=$?
[ "$st" -ne 0 ] && note "$(cat "$TMPD/err")"
ok "$st" "the trained bot runs headless"
! grep -q '"type":"bot_error"' "$TMPD/t"
ok $? "the trained bot raises no error ($(grep -o '"message":"[^"]*"' "$TMPD/t" | head -1))"
for bad in "--eval 0" "--pairs 0" "--episodes 0" "--generations -1" "--sigma 0"; do
    # shellcheck disable=SC2086
    "$py" -m botfield.train "$top_srcdir/maps/learn.ini" --out "$TMPD/bad" $bad >"$TMPD/bad.log" 2>&1
    st=$?
    [ "$st" -eq 2 ] && ! grep -q Traceback "$TMPD/bad.log"
    ok $? "$bad: a usage error (exit $st), no traceback"
done
echo "1..$tap_n"
[ "$tap_failed" -eq 0 ]
