#!/bin/sh
# out.say and world.messages, headless: the say lines of the trace, what
# each bot heard (its team's messages of the last tick, never an enemy's),
# the same trace from a second run and from the replay of a recording.
. "$top_srcdir/tests/lib/lib.sh"

cat >"$TMPD/talk.lua" <<'LUA'
function tick(me, w, mem, out)
  local t = {}
  for _, m in ipairs(w.messages) do t[#t + 1] = m.from .. ':' .. m.data.r end
  log(table.concat(t, ' '))
  local r = math.random(1, 100)
  out.turn = r - 50
  out.say = {r = r, tag = 'a"b'}
end
LUA
cat >"$TMPD/talk.ini" <<'EOF2'
[map]
width = 1500
height = 1500
seed = 9
duration = 2
[team.red]
[team.blue]
[tank.r1]
team = red
x = 200
y = 200
bot = talk.lua
[tank.r2]
team = red
x = 200
y = 500
bot = talk.lua
[tank.b1]
team = blue
x = 1300
y = 1300
bot = talk.lua
EOF2
"$BOTFIELD" --headless --record "$TMPD/talk.rec" --trace "$TMPD/a" "$TMPD/talk.ini" 2>"$TMPD/err"
expect_eq "the run exits 0" "$?" 0
expect_eq "a say line a bot a tick" "$(grep -c '"type":"say"' "$TMPD/a")" 360
grep -q '^{"type":"say","tick":1,"id":"tank.r2","data":{"r":[0-9]*,"tag":"a\\"b"}}$' "$TMPD/a"
ok $? "a say line: its tick, id and data as JSON"
# tank.r1 hears, at tick 2, what r1 and r2 said at tick 1
r1=$(grep '"type":"say","tick":1,"id":"tank.r1"' "$TMPD/a" | sed 's/.*"r":\([0-9]*\).*/\1/')
r2=$(grep '"type":"say","tick":1,"id":"tank.r2"' "$TMPD/a" | sed 's/.*"r":\([0-9]*\).*/\1/')
grep -q "^{\"type\":\"log\",\"tick\":2,\"id\":\"tank.r1\",\"text\":\"tank.r1:$r1 tank.r2:$r2\"}$" "$TMPD/a"
ok $? "tick 2: tank.r1 heard its team's messages of tick 1"
expect_eq "no bot ever heard an enemy" \
    "$(grep '"type":"log"' "$TMPD/a" | grep -c '"id":"tank.b1","text":"[^"]*tank.r\|"id":"tank.r.","text":"[^"]*tank.b')" 0
"$BOTFIELD" --headless --trace "$TMPD/b" "$TMPD/talk.ini"
cmp -s "$TMPD/a" "$TMPD/b"
ok $? "a second run: the same trace"
"$BOTFIELD" --headless --replay "$TMPD/talk.rec" --trace "$TMPD/c" 2>"$TMPD/err"
st=$?
[ $st -ne 0 ] && note "$(cat "$TMPD/err")"
expect_eq "the replay exits 0" "$st" 0
cmp -s "$TMPD/a" "$TMPD/c"
ok $? "the replay of the recording: the same trace"
done_testing
