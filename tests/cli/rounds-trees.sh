#!/bin/sh
# [match] rounds with [trees] random and random tanks: each round's trees
# are its seed's (round 2's are those of a one-round run with seed + 1),
# written as tree lines as the round starts; its tanks are placed against
# them (none starts inside a tree); a recording replays to the same trace,
# and 1 or 2 threads give the same trace.
. "$top_srcdir/tests/lib/lib.sh"

MAP="$top_srcdir/tests/maps/rounds-trees.ini"
"$BOTFIELD" --headless --record "$TMPD/m.rec" --trace "$TMPD/a" "$MAP" 2>"$TMPD/err"
expect_eq "the match of random trees runs (exit 0, no message)" "$? $(cat "$TMPD/err")" "0 "

python3 "$top_srcdir/tests/lib/trace-schema.py" "$TMPD/a" >"$TMPD/schema" 2>&1
expect_eq "the trace keeps botfield(6)'s form (a round's trees after its round line)" \
    "$? $(cat "$TMPD/schema")" "0 "

# The tree lines of round R: the header's for round 1, then those after
# round R-1's round line.
trees() {
    awk -v want="$2" '/"type":"round"/ { r++ } /"type":"tree"/ && r == want - 1' "$1"
}
expect_eq "40 tree lines for each round" \
    "$(trees "$TMPD/a" 1 | wc -l) $(trees "$TMPD/a" 2 | wc -l) $(trees "$TMPD/a" 3 | wc -l)" "40 40 40"
[ "$(trees "$TMPD/a" 1)" != "$(trees "$TMPD/a" 2)" ] && [ "$(trees "$TMPD/a" 2)" != "$(trees "$TMPD/a" 3)" ]
ok $? "the trees differ from round to round"

# A one-round run with seed 6 (the map's 5, plus 1) has round 2's trees
# and starts as round 2 does (the tanks placed against those trees).
sed '/^\[match\]/,/^rounds/d' "$MAP" >"$TMPD/one.ini"
"$BOTFIELD" --headless --seed 6 --ticks 1 --trace "$TMPD/s6" "$TMPD/one.ini"
expect_eq "round 2's trees are seed 6's" "$(trees "$TMPD/a" 2)" "$(trees "$TMPD/s6" 1)"
t2=$(grep '"type":"round","tick":[0-9]*,"round":1,' "$TMPD/a" | sed 's/.*"tick":\([0-9]*\),.*/\1/')
pos() { grep "\"type\":\"state\",\"tick\":$2," "$1" | sed 's/"tick":[0-9]*,//'; }
expect_eq "round 2 starts as seed 6 does" "$(pos "$TMPD/a" $((t2 + 1)))" "$(pos "$TMPD/s6" 1)"

# No tank starts inside a tree: at each round's first tick (one step from
# its placement, a tank radius clear of every tree) each tank's centre is
# farther than its radius from every tree of that round.
python3 - "$TMPD/a" >"$TMPD/inside" <<'PY'
import json, math, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
radius = {l["id"]: l["radius"] for l in lines if l["type"] == "entity"}
rnd, trees, first, bad, checked = 1, {1: []}, {}, [], 0
for l in lines:
    if l["type"] == "round":
        rnd += 1
        trees[rnd] = []
    elif l["type"] == "tree":
        trees[rnd].append(l)
    elif l["type"] == "state" and l.get("x") is not None:
        first.setdefault(rnd, l["tick"])
        if l["tick"] != first[rnd] or rnd > 3:
            continue
        checked += 1
        for t in trees[rnd]:
            if math.hypot(l["x"] - t["x"], l["y"] - t["y"]) < t["r"] + radius[l["id"]]:
                bad.append("round %d: %s inside the tree at (%g, %g)" % (rnd, l["id"], t["x"], t["y"]))
if checked != 24:
    bad.append("%d first states, not 8 tanks in each of 3 rounds" % checked)
print("\n".join(bad))
PY
expect_eq "no tank starts inside a tree, in any round" "$(cat "$TMPD/inside")" ""

"$BOTFIELD" --headless --replay "$TMPD/m.rec" --trace "$TMPD/r" 2>"$TMPD/err"
expect_eq "the recording replays (exit 0)" "$?" 0
cmp -s "$TMPD/a" "$TMPD/r"
ok $? "the replay's trace is the run's"
"$BOTFIELD" --headless --threads 1 --trace "$TMPD/t1" "$MAP"
BOTFIELD_THREADS_ALWAYS=1 "$BOTFIELD" --headless --threads 2 --trace "$TMPD/t2" "$MAP"
cmp -s "$TMPD/a" "$TMPD/t1" && cmp -s "$TMPD/t1" "$TMPD/t2"
ok $? "1 and 2 threads: the same trace"
done_testing
