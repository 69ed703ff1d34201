#!/bin/sh
# The command line of the decision records: --trace-decisions adds decide
# lines (one per live vehicle per tick) and changes nothing else in the
# trace; it needs --trace; a headless run with no output option prints
# the summary.
. "$top_srcdir/tests/lib/lib.sh"
MAP="$top_srcdir/maps/forest.ini"

out=$("$BOTFIELD" --headless --ticks 10 "$MAP")
ok $? "a headless run with no output option exits 0"
printf '%s\n' "$out" | python3 -c '
import json, sys
ls = sys.stdin.read().splitlines()
assert len(ls) == 1 and json.loads(ls[0])["type"] == "summary" and json.loads(ls[0])["ticks"] == 10, ls'
ok $? "and prints the summary, one line"

"$BOTFIELD" --headless --ticks 10 --trace-decisions "$MAP" >"$TMPD/out" 2>"$TMPD/err"
expect_eq "--trace-decisions without --trace: exit 2" "$?" 2
grep -q -- '--trace-decisions .*needs --trace' "$TMPD/err"
ok $? "with a message saying it needs --trace"
[ ! -s "$TMPD/out" ]
ok $? "and nothing on standard output"

"$BOTFIELD" --headless --ticks 300 --trace "$TMPD/plain" "$MAP" &&
"$BOTFIELD" --headless --ticks 300 --trace "$TMPD/why" --trace-decisions "$MAP"
ok $? "runs with and without decide lines"
grep -v '"type":"decide"' "$TMPD/why" | cmp -s - "$TMPD/plain"
ok $? "the trace with decide lines, less them, is the trace without (byte for byte)"
python3 - "$TMPD/why" <<'PY'
import json, sys
alive, decided = {}, {}
for l in open(sys.argv[1]):
    o = json.loads(l)
    if o["type"] == "state" and o["alive"] and o["tick"] < 300:
        alive.setdefault(o["tick"] + 1, set()).add(o["id"])
    if o["type"] == "decide":
        decided.setdefault(o["tick"], []).append(o["id"])
for t in range(1, 301):
    got = decided.get(t, [])
    assert len(got) == len(set(got)) and set(got) == alive.get(t, set()), (t, got)
PY
ok $? "one decide line per vehicle alive at the tick's start, every tick"
for m in race bots-duel; do
    "$BOTFIELD" --headless --ticks 600 --trace "$TMPD/$m.jsonl" --trace-decisions \
        "$top_srcdir/maps/$m.ini"
done
python3 "$top_srcdir/tests/lib/check-traces.py" "$TMPD/why" "$TMPD/race.jsonl" \
    "$TMPD/bots-duel.jsonl" >"$TMPD/check" 2>&1
ok $? "traces with decide lines: JSON, finite numbers, null only where allowed"
sed 's/^/# /' "$TMPD/check" | head -n 10
# Shells named: every hit and miss names a shell its shooter fired
# before, each shell ends once, and a hit is at its target's position.
"$BOTFIELD" --headless --ticks 1800 --trace "$TMPD/turret.jsonl" "$top_srcdir/maps/turret.ini"
python3 - "$TMPD/turret.jsonl" <<'PY'
import json, math, sys
fired, ended, pos, n = {}, set(), {}, 0
for l in open(sys.argv[1]):
    o = json.loads(l)
    if o["type"] == "state":
        pos[o["id"]] = (o["x"], o["y"])
    elif o["type"] == "shot":
        assert o["shell"] == len(fired) + 1, o
        fired[o["shell"]] = o["shooter"]
    elif o["type"] in ("hit", "miss"):
        assert fired.get(o["shell"]) == o["shooter"] and o["shell"] not in ended, o
        ended.add(o["shell"])
        n += 1
        if o["type"] == "hit":
            # within a tick's travel of the target's last state (20 + 2 ticks at 120)
            x, y = pos[o["target"]]
            assert math.hypot(o["x"] - x, o["y"] - y) < 30, (o, x, y)
assert n >= 5, n
PY
ok $? "shot, hit and miss lines: each shell named once fired, ended once, hit where its target is"
done_testing
