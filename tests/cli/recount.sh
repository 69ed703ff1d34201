#!/bin/sh
# The summary agrees with the trace it ends, for every bundled map:
# tests/lib/check-traces.py recounts collisions, shots, hits, knockouts, laps
# and best laps from the events, min_separation and edge_hits (exactly,
# --exact-edges) from the state lines, and checks every line is JSON with
# finite numbers.  A tampered summary must be caught, or the check is blind.
. "$top_srcdir/tests/lib/lib.sh"
if ! command -v python3 >/dev/null; then
    skip "recount summaries from traces" "python3 not installed"
    done_testing
    exit
fi
CHECK="$top_srcdir/tests/lib/check-traces.py"

# recounted TRACE WHAT: check-traces.py --exact-edges passes TRACE.
recounted() {
    python3 "$CHECK" --exact-edges "$1" >"$TMPD/out" 2>&1
    st=$?
    [ $st -ne 0 ] && note "$(cat "$TMPD/out")"
    ok $st "$2"
}

for map in "$top_srcdir"/maps/*.ini; do
    name=$(basename "$map")
    "$BOTFIELD" --headless --seconds 15 --trace "$TMPD/$name.jsonl" "$map"
    expect_eq "$name: the run exits 0" "$?" 0
    recounted "$TMPD/$name.jsonl" "$name: the summary matches a recount of its trace"
done

# The scores and the winner recounted from the hit and knockout lines,
# over whole battles on several seeds (won by the last team standing or,
# at the duration, on score).
for map in default.ini forest.ini turret.ini bots-duel.ini; do
    for seed in 1 2 3; do
        "$BOTFIELD" --headless --seed "$seed" --trace "$TMPD/s.jsonl" "$top_srcdir/maps/$map"
        expect_eq "$map seed $seed: the run exits 0" "$?" 0
        recounted "$TMPD/s.jsonl" "$map seed $seed: the scores and winner match a recount"
        tail -n 1 "$TMPD/s.jsonl" | grep -o '"won_by":[a-z"_]*' >>"$TMPD/won_by"
    done
done
note "$(sort "$TMPD/won_by" | uniq -c)"

# A summary off by one is caught: a collision too many, an edge touch too
# few (which only --exact-edges sees: the default check is an upper bound).
T="$TMPD/default.ini.jsonl"
for change in collisions:1 edge_hits:-1 vehicle_damage:1 winner:0; do
    key=${change%:*}
    python3 - "$T" "$key" "${change#*:}" >"$TMPD/tampered" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
summary = json.loads(lines[-1])
if sys.argv[2] == "vehicle_damage":    # a vehicle's damage one too many
    v = next(iter(summary["vehicle_damage"]))
    summary["vehicle_damage"][v] += int(sys.argv[3])
elif sys.argv[2] == "winner":       # the other team said to win
    summary["winner"] = [t for t in summary["knockouts"] if t != summary["winner"]][0]
else:
    summary[sys.argv[2]] += int(sys.argv[3])
print("\n".join(lines[:-1] + [json.dumps(summary)]))
PY
    ! python3 "$CHECK" --exact-edges "$TMPD/tampered" >"$TMPD/out" 2>&1 &&
        grep -q "$key[^:]*: summary" "$TMPD/out"
    ok $? "a summary with $change is caught"
done
done_testing
