#!/bin/sh
# botfield(6) HEADLESS OUTPUT, line by line: every bundled map's trace checked field by field
# against an independent reading of the contract (tests/lib/trace-schema.py:
# each line type's fields and JSON types, the start lines' order, a tick's
# events before its states, the summary last), and the statements the
# schema alone cannot see.
. "$top_srcdir/tests/lib/lib.sh"
SCHEMA="$top_srcdir/tests/lib/trace-schema.py"

for m in "$top_srcdir"/maps/*.ini; do
    name=$(basename "$m" .ini)
    "$BOTFIELD" --headless --ticks 1200 --trace "$TMPD/$name.jsonl" "$m"
    st=$?
    [ $st -eq 0 ] && python3 "$SCHEMA" "$TMPD/$name.jsonl" >"$TMPD/out" 2>&1
    st=$(( st + $? ))
    [ $st -ne 0 ] && note "$(head -n 5 "$TMPD/out")"
    ok $st "$name.ini: every line has the fields botfield(6) HEADLESS OUTPUT names and order"
done

# "the header carries the Lua version": on a map without bots too
cat >"$TMPD/plain.ini" <<'MAP'
[map]
width = 500
height = 500
[track]
waypoints = 100 100 20, 400 100 20, 400 400 20
[car.a]
x = 250
y = 250
MAP
"$BOTFIELD" --headless --ticks 2 --trace "$TMPD/plain.jsonl" "$TMPD/plain.ini"
head -n 1 "$TMPD/plain.jsonl" | grep -q '"lua":"Lua 5\.4'
ok $? "a map without bots: the header names the Lua version"
# "entity lines carry every setting that shapes a decision (methods...)"
grep '"type":"entity"' "$TMPD/plain.jsonl" | grep -q '"steer":"line"'
ok $? "a car's entity line carries its steer method (the default, line)"

# "min_separation: the smallest ... between any two vehicles over the run":
# tick 0, the vehicles as loaded, included (here the car and the tank are
# closest as loaded and drive apart); measured on the first update, so a
# run of 0 ticks still says null
cat >"$TMPD/sep.ini" <<'MAP'
[map]
width = 1000
height = 1000
[track]
waypoints = 900 500 20, 950 900 20, 950 100 20
[car.a]
x = 500
y = 500
heading = 0
[team.red]
[tank.b]
team = red
x = 400
y = 500
heading = 180
behaviour = straight
MAP
for n in 1 30; do
    sep=$("$BOTFIELD" --headless --ticks $n --summary "$TMPD/sep.ini" | sed 's/.*"min_separation":\([^,]*\),.*/\1/')
    expect_eq "--ticks $n: min_separation is tick 0's (100 - 10 - 20)" "$sep" 70
done

# a bot's shot aims at no one: the shot line still has its target (null)
python3 - "$TMPD/bots-duel.jsonl" <<'PY'
import json, sys
shots = [json.loads(l) for l in open(sys.argv[1]) if '"type":"shot"' in l]
sys.exit(0 if shots and all("target" in s for s in shots)
         and any(s["target"] is None for s in shots) else 1)
PY
ok $? "bots-duel.ini: every shot line has a target, null for a bot's shot"

done_testing
