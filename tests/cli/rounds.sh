#!/bin/sh
# [match] rounds = N, headless: a bot's mem kept across rounds (it counts
# them), its init run again each round, world.round/world.rounds; each
# round's start is the map's with seed + round - 1; a round line at each
# round's end, the rounds in the summary; the same trace from a second
# run, on 2 threads and from the replay of a recording; --ticks bounds
# the whole match.
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
expect_eq "a round line at each round's end (the map's duration)" \
    "$(grep '"type":"round"' "$TMPD/a")" \
    '{"type":"round","tick":180,"round":1,"rounds":3,"winner":null}
{"type":"round","tick":360,"round":2,"rounds":3,"winner":null}
{"type":"round","tick":540,"round":3,"rounds":3,"winner":null}'
grep -q '"ticks":540,.*"rounds":\[{"round":1,"winner":null},{"round":2,"winner":null},{"round":3,"winner":null}\],"round_wins":{"red":0,"blue":0},"winner":null}$' "$TMPD/a"
ok $? "the summary: the rounds, each team's rounds won, no match winner"

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
grep -q '"round_wins":{"red":2,"blue":0},"winner":"red"}$' "$TMPD/w"
ok $? "the match's winner: the team with most rounds won"
# A mem that cannot be kept stops the match at its round's end, said.
sed 's/count.lua/bad.lua/' "$TMPD/m.ini" >"$TMPD/mb.ini"
printf 'function tick(me, w, mem, out)\n  mem.f = function() end\nend\n' >"$TMPD/bad.lua"
"$BOTFIELD" --headless "$TMPD/mb.ini" >/dev/null 2>"$TMPD/err"
expect_eq "a mem that is not plain data: exit 1" "$?" 1
grep -q "tick 180: round 2 cannot start: bad.lua: mem cannot be saved: mem.f is a function" "$TMPD/err"
ok $? "it says the round, the bot and why"
done_testing
