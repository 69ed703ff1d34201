#!/bin/sh
# A policy through libbotfield and as a Lua bot (agent.observe,
# agent.act): the same run, state line for state line
# (env_policy_test.py).
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/env-lib.sh"
env_unsanitized "a policy through the library and as a bot"
py=$(command -v python3 || echo /usr/bin/python3)
"$py" "$top_srcdir/tests/cli/env_policy_test.py" "$top_srcdir/maps/learn.ini" "$BOTFIELD" "$TMPD" \
    >"$TMPD/out" 2>&1
st=$?
cat "$TMPD/out" | grep -v '^1\.\.' | while IFS= read -r line; do
    case $line in
        "ok "*|"not ok "*) ;;
        *) echo "# $line" ;;
    esac
done
total=$(grep -c '^ok\|^not ok' "$TMPD/out")
fails=$(grep -c '^not ok' "$TMPD/out")
grep '^ok\|^not ok' "$TMPD/out" | sed 's/^\(not ok\|ok\) [0-9]* - /\1 /' >"$TMPD/lines"
while IFS= read -r line; do
    case $line in
        "not ok "*) ok 1 "${line#not ok }" ;;
        "ok "*) ok 0 "${line#ok }" ;;
    esac
done <"$TMPD/lines"
[ "$st" -eq 0 ] || [ "$fails" -gt 0 ] || { note "exit $st"; cat "$TMPD/out" | head -20; ok 1 "the script ran"; }
[ "$total" -ge 6 ]
ok $? "all of its checks ran ($total)"
echo "1..$tap_n"
[ "$tap_failed" -eq 0 ]
