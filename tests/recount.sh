#!/bin/sh
# The summary agrees with the trace it ends: collisions, shots, hits,
# knockouts, laps and best laps recounted from the events, min_separation
# and edge_hits recomputed from the state lines, for every bundled map.
. "$top_srcdir/tests/lib.sh"
if ! command -v python3 >/dev/null; then
    skip "recount summaries from traces" "python3 not installed"
    done_testing
    exit
fi
for map in "$top_srcdir"/maps/*.ini; do
    name=$(basename "$map")
    "$BOTFIELD" --headless --seconds 15 --trace "$TMPD/t.jsonl" "$map"
    python3 - "$TMPD/t.jsonl" >"$TMPD/out" 2>&1 <<'PY'
import json, math, sys
from collections import defaultdict
lines = [json.loads(l) for l in open(sys.argv[1])]
head, summary = lines[0], lines[-1]
W, H = head["width"], head["height"]
ent = {o["id"]: o for o in lines if o["type"] == "entity"}
ev = defaultdict(list)
states = defaultdict(dict)
for o in lines:
    if o["type"] == "state":
        states[o["tick"]][o["id"]] = o
    else:
        ev[o["type"]].append(o)
bad = []
def same(what, got, want, tol=0):
    if (got is None or want is None) and got != want or \
       (got is not None and want is not None and abs(got - want) > tol):
        bad.append(f"{what}: summary {got}, recount {want}")
same("collisions", summary["collisions"], len(ev["collision"]))
same("shots", summary["shots"], len(ev["shot"]))
same("hits", summary["hits"], len(ev["hit"]))
ko = defaultdict(int)
for o in ev["knockout"]:
    ko[ent[o["id"]]["team"]] += 1
for team, n in summary["knockouts"].items():
    same("knockouts " + team, n, ko[team])
laps = defaultdict(int); best = {}
for o in ev["lap"]:
    laps[o["id"]] += 1
    best[o["id"]] = min(best.get(o["id"], math.inf), o["time"])
for car, n in summary["laps"].items():
    same("laps " + car, n, laps[car])
    same("best lap " + car, summary["best_lap"][car], best.get(car), 1e-9)
# Separation over ticks 0..N (botfield(6) HEADLESS OUTPUT: over the run, the vehicles as
# loaded included); edge touches after every update (ticks 1..N).
minsep, edge = math.inf, 0
for t, st in states.items():
    alive = [(s["x"], s["y"], ent[i]["radius"], ent[i]["kind"]) for i, s in st.items() if s["alive"]]
    for k, (x, y, r, kind) in enumerate(alive):
        if t > 0 and kind != "turret" and (x - r <= 1e-9 or x + r >= W - 1e-9 or y - r <= 1e-9 or y + r >= H - 1e-9):
            edge += 1
        for (x2, y2, r2, _) in alive[k + 1:]:
            minsep = min(minsep, math.hypot(x - x2, y - y2) - r - r2)
if len(states) == summary["ticks"] + 1:
    same("min_separation", summary["min_separation"], minsep if minsep < math.inf else None, 1e-9)
    same("edge_hits", summary["edge_hits"], edge)
else:
    bad.append("not every tick has state lines")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
    st=$?
    [ $st -ne 0 ] && note "$(cat "$TMPD/out")"
    ok $st "$name: the summary matches a recount of its trace"
done
done_testing
