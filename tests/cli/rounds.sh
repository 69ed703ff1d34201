#!/bin/sh
# [match] rounds = N, headless: a bot's mem kept across rounds (it counts
# them), its init run again each round, world.round/world.rounds; each
# round's start is the map's with seed + round - 1; a round line at each
# round's end, the rounds in the summary; the same trace from a second
# run, on 2 threads and from the replay of a recording; --ticks bounds
# the whole match; rounds judged on score at time up, their scores on the
# round lines, the match's totals their sums and its winner the higher total.
. "$top_srcdir/tests/lib/lib.sh"

cat >"$TMPD/count.lua" <<'LUA'
function init(me, mem)
  mem.inits = (mem.inits or 0) + 1
end
function tick(me, w, mem, out)
  if mem.seen ~= w.round then
    mem.seen = w.round
    mem.rounds = (mem.rounds or 0) + 1
    log(string.format('round %s of %s (%s): rounds seen %d, inits %d', w.round, w.rounds,
                      math.type(w.round), mem.rounds, mem.inits))
  end
  out.fire = true
end
LUA
cat >"$TMPD/m.ini" <<'EOF2'
[map]
width = 800
height = 600
seed = 7
duration = 3
[match]
rounds = 3
[tree.1]
x = 400
y = 300
r = 20
[team.red]
random = 2
[team.blue]
random = 2
[tank.r]
team = red
x = 100
y = 300
bot = count.lua
EOF2
"$BOTFIELD" --headless --record "$TMPD/m.rec" --trace "$TMPD/a" "$TMPD/m.ini" 2>"$TMPD/err"
expect_eq "the match exits 0" "$?" 0
expect_eq "the bot counts the rounds in mem, its init runs each round" \
    "$(grep '"type":"log"' "$TMPD/a" | sed 's/.*"text":"\(.*\)"}$/\1/')" \
    "round 1 of 3 (integer): rounds seen 1, inits 1
round 2 of 3 (integer): rounds seen 2, inits 2
round 3 of 3 (integer): rounds seen 3, inits 3"
expect_eq "a round line at each round's end (the map's duration), won on score" \
    "$(grep '"type":"round"' "$TMPD/a" | sed 's/,"damage".*//')" \
    '{"type":"round","tick":180,"round":1,"rounds":3,"winner":"blue","won_by":"score"
{"type":"round","tick":360,"round":2,"rounds":3,"winner":"red","won_by":"score"
{"type":"round","tick":540,"round":3,"rounds":3,"winner":null,"won_by":"score"'
grep -q '"ticks":540,.*"rounds":{"1":"blue","2":"red","3":null},"round_wins":{"red":1,"blue":1},"winner":"red","won_by":"score",' "$TMPD/a"
ok $? "the summary: the rounds split 1-1, the match won by red on the total score"
# The match's totals recounted from the round lines: each field by team
# summed over the rounds; the winner the higher total; the vehicles'
# totals add up to their teams'.
python3 - "$TMPD/a" >"$TMPD/recount" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
rounds = [l for l in lines if l["type"] == "round"]
s = lines[-1]
bad = []
fields = ("damage", "kills", "survival", "last", "scores")
for k in fields:
    for t in s[k]:
        want = sum(r[k][t] for r in rounds)
        if s[k][t] != want:
            bad.append("%s %s: summary %s, rounds %s" % (k, t, s[k][t], want))
    if sum(s["vehicle_" + k].values()) != sum(s[k].values()):
        bad.append("vehicle_%s: the vehicles' sum is not the teams'" % k)
for r in rounds:
    sc = r["scores"]
    if sc["red"] != 10 * r["damage"]["red"] + 20 * r["kills"]["red"] + 5 * r["survival"]["red"] + 10 * r["last"]["red"]:
        bad.append("round %d: red's score is not its fields'" % r["round"])
    best = max(sc.values())
    top = [t for t in sc if sc[t] == best]
    if r["winner"] != (top[0] if len(top) == 1 else None):
        bad.append("round %d: winner %s, scores %s" % (r["round"], r["winner"], sc))
tot = s["scores"]
best = max(tot.values())
top = [t for t in tot if tot[t] == best]
if s["winner"] != (top[0] if len(top) == 1 else None):
    bad.append("match winner %s, totals %s" % (s["winner"], tot))
if len(rounds) != 3 or sum(tot.values()) == 0:
    bad.append("nothing to recount")
print("\n".join(bad))
PY
expect_eq "the summary's totals recount from the round lines" "$(cat "$TMPD/recount")" ""
# A match in a tournament: its summary is the run line, the aggregate
# counts the matches' winners and their total scores.
"$BOTFIELD" --headless --seeds 7-8 --jobs 1 "$TMPD/m.ini" >"$TMPD/tour" 2>"$TMPD/err"
expect_eq "--seeds on a match: exit 0, two run lines and the aggregate" \
    "$? $(grep -c '"type":"run","seed":[78],.*"rounds":{"1":' "$TMPD/tour") $(grep -c '"type":"aggregate"' "$TMPD/tour")" "0 2 1"
grep -q '"type":"run","seed":7,.*"winner":"red","won_by":"score",.*"scores":{"red":45,"blue":40}' "$TMPD/tour"
ok $? "seed 7's run line: the match's winner and total scores"

# Round 2's first tick is tick 1 of a one-round run with seed 8: the
# positions are the map's with seed + 1 (random tanks, headings).
sed '/^\[match\]/,/^rounds/d' "$TMPD/m.ini" >"$TMPD/one.ini"
"$BOTFIELD" --headless --seed 8 --ticks 1 --trace "$TMPD/s8" "$TMPD/one.ini"
pos() { grep "\"type\":\"state\",\"tick\":$2," "$1" | sed 's/"tick":[0-9]*,//'; }
expect_eq "round 2 starts as seed 8 does" "$(pos "$TMPD/a" 181)" "$(pos "$TMPD/s8" 1)"
[ -n "$(pos "$TMPD/s8" 1)" ]
ok $? "(there are states to compare)"
"$BOTFIELD" --headless --seed 7 --ticks 1 --trace "$TMPD/s7" "$TMPD/one.ini"
[ "$(pos "$TMPD/s7" 1)" != "$(pos "$TMPD/s8" 1)" ]
ok $? "seeds 7 and 8 place the tanks differently"

"$BOTFIELD" --headless --trace "$TMPD/b" "$TMPD/m.ini"
cmp -s "$TMPD/a" "$TMPD/b"
ok $? "a second run: the same trace"
BOTFIELD_THREADS_ALWAYS=1 "$BOTFIELD" --headless --threads 2 --trace "$TMPD/t2" "$TMPD/m.ini"
cmp -s "$TMPD/a" "$TMPD/t2"
ok $? "on 2 threads: the same trace"
"$BOTFIELD" --headless --replay "$TMPD/m.rec" --trace "$TMPD/c" 2>"$TMPD/err"
st=$?
[ $st -ne 0 ] && note "$(cat "$TMPD/err")"
expect_eq "the replay exits 0" "$st" 0
cmp -s "$TMPD/a" "$TMPD/c"
ok $? "the replay of a 3-round match: the same trace, byte for byte"

"$BOTFIELD" --headless --ticks 200 --trace "$TMPD/d" "$TMPD/m.ini"
expect_eq "--ticks bounds the match: it stops in round 2" \
    "$(grep -c '"type":"round"' "$TMPD/d") $(tail -n 1 "$TMPD/d" | sed 's/.*"ticks":\([0-9]*\),.*/\1/')" "1 200"

# A round won: the battle's winner, and the match's by rounds won.
cat >"$TMPD/w.ini" <<'EOF2'
[map]
width = 600
height = 200
seed = 3
duration = 20
[match]
rounds = 2
[team.red]
[team.blue]
[tank.r]
team = red
x = 100
y = 100
heading = 0
health = 9
[turret.b]
team = blue
x = 500
y = 100
EOF2
"$BOTFIELD" --headless --trace "$TMPD/w" "$TMPD/w.ini"
expect_eq "two rounds won by red" \
    "$(grep -o '"round":[0-9],"rounds":2,"winner":"[a-z]*"' "$TMPD/w")" \
    '"round":1,"rounds":2,"winner":"red"
"round":2,"rounds":2,"winner":"red"'
grep -q '"round_wins":{"red":2,"blue":0},"winner":"red","won_by":"score",' "$TMPD/w"
ok $? "the match's winner: the higher total score"
expect_eq "rounds won by the last team standing" \
    "$(grep '"type":"round"' "$TMPD/w" | grep -c '"won_by":"last_standing","damage"')" 2
# The traces as every trace must be (round lines' fields, the match's
# totals the rounds' sums), a match stopped in a round too.
expect_eq "the matches' traces pass the schema and the recount" \
    "$(python3 "$top_srcdir/tests/lib/trace-schema.py" "$TMPD/a" "$TMPD/w" "$TMPD/d" 2>&1
       python3 "$top_srcdir/tests/lib/check-traces.py" "$TMPD/a" "$TMPD/w" "$TMPD/d" 2>&1)" ""
# A mem that cannot be kept stops the match at its round's end, said.
sed 's/count.lua/bad.lua/' "$TMPD/m.ini" >"$TMPD/mb.ini"
printf 'function tick(me, w, mem, out)\n  mem.f = function() end\nend\n' >"$TMPD/bad.lua"
"$BOTFIELD" --headless "$TMPD/mb.ini" >/dev/null 2>"$TMPD/err"
expect_eq "a mem that is not plain data: exit 1" "$?" 1
grep -q "tick 180: round 2 cannot start: bad.lua: mem cannot be saved: mem.f is a function" "$TMPD/err"
ok $? "it says the round, the bot and why"
done_testing
