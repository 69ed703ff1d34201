#!/bin/sh
# botfield-bots(7) read literally, as a bot writer would: small bots that log what
# the contract promises, run headless, checked in the trace.
. "$top_srcdir/tests/lib/lib.sh"

# run MAP BOT TICKS: the trace's log and bot_error lines in $TMPD/out
run() {
    cp "$2" "$TMPD/b.lua"
    "$BOTFIELD" --headless --ticks "$3" --trace "$TMPD/t" "$1"
    rc=$?
    expect_eq "$(basename "$2" .lua): the run exits 0" "$rc" 0
    grep '"type":"log"\|"type":"bot_error"' "$TMPD/t" > "$TMPD/out"
}
has() {     # has DESCRIPTION LINE: LINE is in $TMPD/out
    grep -qxF "$2" "$TMPD/out"
    ok $? "$1"
}

# one tank alone, and a field with every kind of vehicle
cat > "$TMPD/alone.ini" <<'MAP'
[map]
name = alone
width = 600
height = 400
seed = 7
[team.red]
color = red
[tank.a]
team = red
x = 100
y = 200
heading = 0
bot = b.lua
MAP

# log(...) writes a trace line, init's too (botfield-bots(7): "a line ... in the
# inspector and in the trace"); init's 8 lines come with the first tick's
cat > "$TMPD/init-log.lua" <<'LUA'
function init(me, mem) log("init", me.id) for i = 1, 10 do log(i) end end
function tick(me, world, mem, out) if world.tick == 1 then log("tick") end end
LUA
run "$TMPD/alone.ini" "$TMPD/init-log.lua" 2
has "init's log is in the trace" '{"type":"log","tick":1,"id":"tank.a","text":"init tank.a"}'
expect_eq "init keeps at most 8 lines" "$(grep -c '"tick":1,"id":"tank.a","text":"[0-9]*"' "$TMPD/out")" 7
has "the first tick's log follows" '{"type":"log","tick":1,"id":"tank.a","text":"tick"}'

# world.events: "a type as in the trace and its fields", as the trace
# writes them (shell, x, y, booleans; no target when the shot had none);
# a waypoint's index alone counts from 1, like world.waypoints
cat > "$TMPD/field.ini" <<'MAP'
[map]
name = field
width = 1000
height = 800
seed = 3
[track]
waypoints = 200 150 25, 700 150 25, 700 600 20
[team.red]
color = red
[team.blue]
color = blue
[car.c]
x = 200
y = 120
bot = b.lua
[turret.t]
team = blue
x = 500
y = 500
facing = -90
fov = 360
bot = b.lua
[tank.k]
team = red
x = 500
y = 300
heading = 90
speed = 10
range = 1
; it does not step aside from the shell it sees: the hit lands where
; this test expects it
dodge = no
MAP
cat > "$TMPD/events.lua" <<'LUA'
local function show(e)
  local t = {}
  for k, v in pairs(e) do t[#t + 1] = k .. "=" .. tostring(v) .. ":" .. (math.type(v) or type(v)) end
  return table.concat(t, " ")
end
function tick(me, world, mem, out)
  if me.kind == "turret" then out.fire = me.gun_ready end
  for _, e in ipairs(world.events) do
    if e.type ~= "sight" or world.tick == 2 then log(show(e)) end
  end
  if me.kind == "car" and world.tick == 3 then error("oops") end
end
LUA
run "$TMPD/field.ini" "$TMPD/events.lua" 40
has "a shot event carries the trace's fields (shell; no target)" \
  '{"type":"log","tick":2,"id":"turret.t","text":"heading=-90.0:float shell=1:integer shooter=turret.t:string tick=1:integer type=shot:string x=500.0:float y=500.0:float"}'
grep -q '"tick":29,"id":"turret.t","text":"shell=1:integer shooter=turret.t:string target=tank.k:string tick=28:integer type=hit:string x=500.0:float y=324.5' "$TMPD/out"
ok $? "a hit event carries shell, x and y"
has "a sight event's seen is a boolean, with the method" \
  '{"type":"log","tick":2,"id":"turret.t","text":"from=turret.t:string method=exact:string seen=true:boolean tick=1:integer to=tank.k:string type=sight:string visible=1.0:float"}'
has "waypoint_reached: index 1 is world.waypoints[1] (the trace's index 0)" \
  '{"type":"log","tick":2,"id":"car.c","text":"id=car.c:string index=1:integer tick=1:integer type=waypoint_reached:string"}'
grep -q '"type":"waypoint_reached","tick":1,"id":"car.c","index":0}' "$TMPD/t"
ok $? "(the trace's line for it has index 0)"
has "a bot_error event carries error, id and tick" \
  '{"type":"log","tick":4,"id":"car.c","text":"error=b.lua:11: oops:string id=car.c:string tick=3:integer type=bot_error:string"}'

# the built-in methods on each kind, as botfield-bots(7) says (the contract is
# silent on a car's avoid.* or a turret's race.*)
cat > "$TMPD/kinds.lua" <<'LUA'
function tick(me, world, mem, out)
  if world.tick ~= 1 then return end
  local function n(...) return select("#", ...) .. ":" .. tostring((...)) end
  log(me.kind, n(avoid.predictive(0, 1)), n(avoid.classic(0, 1)), n(wander()),
      n(race.exact()), n(race.classic()), aim.exact("tank.k"))
  log(me.kind, pcall(avoid.predictive, 0/0, 1))
end
LUA
run "$TMPD/field.ini" "$TMPD/kinds.lua" 1
has "a car: avoid.* and wander() give nil, race.* two numbers, aim nil, \"not seen\"" \
  '{"type":"log","tick":1,"id":"car.c","text":"car 1:nil 1:nil 1:nil 2:0.0 2:0.0 nil not seen"}'
grep -q '"id":"turret.t","text":"turret 1:nil 1:nil 1:nil 1:nil 1:nil -90.0 0.4' "$TMPD/out"
ok $? "a turret: avoid.*, wander() and race.* give nil; aim a direction and a time"
grep -q '"id":"turret.t","text":"turret false .*not a finite number' "$TMPD/out"
ok $? "a NaN argument is an error"

# out: a value that is not a finite number (or boolean, for fire) is an
# error of that tick, named; nil keeps the default; the engine clamps
cat > "$TMPD/out.lua" <<'LUA'
local cases = { {"speed", 0/0}, {"turret", -math.huge}, {"speed", "5"},
  {"fire", 1}, {"turn", nil}, {"speed", -5}, {"turn", 1000} }
function tick(me, world, mem, out)
  local c = cases[world.tick]
  if c then out[c[1]] = c[2] end
  if world.tick == 8 then log(me.speed, me.heading) end
end
LUA
run "$TMPD/alone.ini" "$TMPD/out.lua" 8
has "out.speed = NaN is an error" '{"type":"bot_error","tick":1,"id":"tank.a","error":"b.lua: out.speed is not a finite number (nan)"}'
has "out.turret = -inf is an error, named as -inf" '{"type":"bot_error","tick":2,"id":"tank.a","error":"b.lua: out.turret is not a finite number (-inf)"}'
has "out.speed = \"5\" (a string) is an error" '{"type":"bot_error","tick":3,"id":"tank.a","error":"b.lua: out.speed is not a finite number (a string)"}'
has "out.fire = 1 is an error" '{"type":"bot_error","tick":4,"id":"tank.a","error":"b.lua: out.fire is not a boolean (a number)"}'
expect_eq "nil, and the clamped values, are no error" "$(grep -c '"tick":[5-8],.*bot_error' "$TMPD/out")" 0
has "speed clamps to 0, turn to turn_rate (30 deg/s for one tick)" '{"type":"log","tick":8,"id":"tank.a","text":"0.0 0.5"}'

# mem that is not plain data: botfield-bots(7) says it is not an error of
# the tick (only saving it fails: the viewer's history, a reload)
cat > "$TMPD/mem.lua" <<'LUA'
function tick(me, world, mem, out)
  mem.n = (mem.n or 0) + 1
  if world.tick == 2 then mem.f = function() end end
  if world.tick == 3 then local t = {} t.t = t mem.c = t end
  log(mem.n)
end
LUA
run "$TMPD/alone.ini" "$TMPD/mem.lua" 4
expect_eq "a function or a cycle in mem raises no bot_error" "$(grep -c bot_error "$TMPD/out")" 0
has "mem lasts from tick to tick" '{"type":"log","tick":4,"id":"tank.a","text":"4"}'

# log: at most 200 bytes and 8 lines a tick; a cut keeps UTF-8 whole (the
# trace would show U+FFFD for the half character), a NUL is U+FFFD
cat > "$TMPD/log.lua" <<'LUA'
function tick(me, world, mem, out)
  if world.tick ~= 1 then return end
  log(string.rep("y", 300))
  log("x" .. string.rep("\u{e9}", 150))
  log("a\0b", nil, 1.5, true, {})
  for i = 1, 8 do log(i) end
end
LUA
run "$TMPD/alone.ini" "$TMPD/log.lua" 1
y200=$(printf '%200s' '' | tr ' ' y)
has "a long line is cut at 200 bytes" "{\"type\":\"log\",\"tick\":1,\"id\":\"tank.a\",\"text\":\"$y200\"}"
e99=$(printf '%99s' '' | sed 's/ /\xc3\xa9/g')
has "a cut never splits a UTF-8 character" "{\"type\":\"log\",\"tick\":1,\"id\":\"tank.a\",\"text\":\"x$e99\"}"
has "log separates its arguments by spaces, as tostring; NUL is U+FFFD" \
  "$(printf '{"type":"log","tick":1,"id":"tank.a","text":"a\357\277\275b nil 1.5 true table"}')"
expect_eq "8 lines a tick" "$(grep -c '"type":"log"' "$TMPD/out")" 8

# world.waypoints: "the track", for a vehicle with no route of its own too;
# a patrol's own route (botfield-bots(7)); next_waypoint counts from 1
cat > "$TMPD/track.ini" <<'MAP'
[map]
name = track
width = 800
height = 600
seed = 5
[track]
waypoints = 100 100 20, 700 100 20, 700 500 20
[team.red]
color = red
[tank.p]
team = red
x = 100
y = 300
heading = 0
behaviour = patrol
route = 400 300 20, 400 500 20
bot = b.lua
[tank.q]
team = red
x = 100
y = 500
heading = 0
bot = b.lua
[car.c]
x = 100
y = 130
bot = b.lua
MAP
cat > "$TMPD/waypoints.lua" <<'LUA'
function tick(me, world, mem, out)
  local w = {}
  for i, p in ipairs(world.waypoints) do w[#w + 1] = p.x .. "/" .. p.y .. "/" .. p.r end
  if world.tick == 1 then log(world.next_waypoint, table.concat(w, " ")) end
end
LUA
run "$TMPD/track.ini" "$TMPD/waypoints.lua" 1
has "a wandering tank sees the map's track" \
  '{"type":"log","tick":1,"id":"tank.q","text":"0 100.0/100.0/20.0 700.0/100.0/20.0 700.0/500.0/20.0"}'
has "a car: the track, heading for waypoint 1" \
  '{"type":"log","tick":1,"id":"car.c","text":"1 100.0/100.0/20.0 700.0/100.0/20.0 700.0/500.0/20.0"}'
has "a patrol: its own route" \
  '{"type":"log","tick":1,"id":"tank.p","text":"1 400.0/300.0/20.0 400.0/500.0/20.0"}'

# events in a crowd: 80 enemies that see and aim at me must not push the
# hit on me out of world.events (the shot at me is the shooter's only)
{
    printf '[map]\nname = crowd\nwidth = 1000\nheight = 1000\nseed = 9\n'
    printf '[team.red]\ncolor = red\nhealth = 5\n'
    printf '[team.blue]\ncolor = blue\nfov = 360\nbehaviour = hold\nspeed = 1\nrange = 1\n'
    printf '[tank.a]\nteam = red\nx = 500\ny = 500\nheading = 0\nfov = 360\nbot = b.lua\n'
    printf '[turret.g]\nteam = blue\nx = 500\ny = 300\nfacing = 90\nfov = 360\nrange = 800\n'
    for i in 0 1 2 3 4 5 6 7; do
        for j in 0 1 2 3 4 5 6 7 8 9; do
            printf '[tank.b%s%s]\nteam = blue\nx = %s\ny = %s\n' $i $j $((100 + i * 40)) $((600 + j * 35))
        done
    done
} > "$TMPD/crowd.ini"
cat > "$TMPD/crowd.lua" <<'LUA'
function tick(me, world, mem, out)
  for _, e in ipairs(world.events) do
    if e.type == "shot" or e.type == "hit" then log(e.type, e.shooter, e.tick) end
  end
end
LUA
run "$TMPD/crowd.ini" "$TMPD/crowd.lua" 40
shot=$(sed -n 's/.*"type":"shot","tick":\([0-9]*\),"shooter":"turret.g","target":"tank.a".*/\1/p' "$TMPD/t")
hit=$(sed -n 's/.*"type":"hit","tick":\([0-9]*\),"shooter":"turret.g","target":"tank.a".*/\1/p' "$TMPD/t")
[ -n "$shot" ] && [ -n "$hit" ]
ok $? "(the turret shoots tank.a and hits it: ticks $shot, $hit)"
! grep -q '"id":"tank.a","text":"shot ' "$TMPD/out"
ok $? "the shot at me is not in my world.events (a shot goes to its shooter only)"
has "the hit reaches world.events in a crowd" "{\"type\":\"log\",\"tick\":$((hit + 1)),\"id\":\"tank.a\",\"text\":\"hit turret.g $hit\"}"

# limits: a broken budget names the file and line, pcall cannot swallow
# it; init has ten times the budget; 60 abandoned ticks disable the bot
cat > "$TMPD/limits.lua" <<'LUA'
function init(me, mem)
  local n = 0
  for i = 1, 300000 do n = n + 1 end
  mem.n = n
end
function tick(me, world, mem, out)
  if world.tick == 1 then log("init", mem.n) end
  if world.tick == 2 then
    local ok = pcall(function() while true do end end)
    log("went on after the budget", ok)
  end
  if world.tick >= 3 then out.speed = 5 error("again") end
end
LUA
run "$TMPD/alone.ini" "$TMPD/limits.lua" 64
has "init may run ten times the budget" '{"type":"log","tick":1,"id":"tank.a","text":"init 300000"}'
has "the budget's error names file and line; pcall cannot swallow it" \
  '{"type":"bot_error","tick":2,"id":"tank.a","error":"b.lua:9: instruction budget exceeded (100000 instructions)"}'
expect_eq "(nothing ran after it)" "$(grep -c 'went on' "$TMPD/out")" 0
has "the 60th abandoned tick in a row (ticks 2 to 61) disables the bot, saying why" \
  '{"type":"bot_error","tick":61,"id":"tank.a","error":"b.lua: bot disabled until its script is reloaded: 60 abandoned ticks in a row; the last: b.lua:12: again"}'
expect_eq "then no more errors" "$(grep -c '"tick":6[234],.*bot_error' "$TMPD/out")" 0
grep -q '"type":"state","tick":63,"id":"tank.a",.*"speed":0,' "$TMPD/t"
ok $? "a disabled bot's vehicle stops"

# me: every field, with its units (degrees, seconds, per second)
cat > "$TMPD/me.lua" <<'LUA'
function tick(me, world, mem, out)
  if world.tick ~= 1 then return end
  local t = {}
  for k, v in pairs(me) do t[#t + 1] = k .. "=" .. tostring(v) end
  log(table.concat(t, " "):sub(1, 200))
  log(table.concat(t, " "):sub(201))
end
LUA
run "$TMPD/field.ini" "$TMPD/me.lua" 1
has "a car's me: no team, no gun; max_speed and its driving limits its own" '{"type":"log","tick":1,"id":"car.c","text":"accel=100.0 back_angle=120.0 brake=200.0 fov=45.0 gun_ready=false heading=90.0 health=1.0 id=car.c kind=car max_speed=200.0 min_speed=20.0 radius=10.0 range=800.0 reload_left=0.0 shell_speed=400.0 spe"}'
has "(and the rest)" '{"type":"log","tick":1,"id":"car.c","text":"ed=0.0 team= turn_rate=180.0 turret=90.0 turret_rate=90.0 view_range=800.0 x=200.0 y=120.0"}'
has "a turret's me: max_speed 0; its sensor the turret, a radar at its facing" '{"type":"log","tick":1,"id":"turret.t","text":"fov=360.0 gun_ready=true heading=-90.0 health=1.0 id=turret.t kind=turret max_speed=0.0 radar=-90.0 radar_rate=45.0 radius=15.0 range=800.0 reload_left=0.0 sensor=turret shell_speed=400.0 speed=0.0 te"}'
has "(and the rest)" '{"type":"log","tick":1,"id":"turret.t","text":"am=blue turn_rate=30.0 turret=-90.0 turret_rate=90.0 view_range=800.0 x=500.0 y=500.0"}'

# the sandbox: what is there, what is absent; the Determinism section
cat > "$TMPD/sandbox.lua" <<'LUA'
function tick(me, world, mem, out)
  if world.tick ~= 1 then return end
  local miss, pres = {}, {}
  local want = {"assert","error","ipairs","next","pairs","pcall","select","tonumber","tostring","type","rawequal","rawget","rawset","rawlen","setmetatable","getmetatable","string","table","math","utf8"}
  for _, n in ipairs(want) do if _G[n] == nil then miss[#miss + 1] = n end end
  local gone = {"io","os","package","require","dofile","loadfile","load","debug","collectgarbage","coroutine","xpcall","print"}
  for _, n in ipairs(gone) do if _G[n] ~= nil then pres[#pres + 1] = n end end
  for _, n in ipairs({"dump", "match", "gmatch", "gsub"}) do if string[n] ~= nil then pres[#pres + 1] = "string." .. n end end
  if math.randomseed ~= nil then pres[#pres + 1] = "math.randomseed" end
  log("missing:" .. table.concat(miss, ","), "present:" .. table.concat(pres, ","))
  log("find is plain", string.find("a.b", "."), ("x%d"):find("%d"))
  log(tostring({}), tostring(tick), (pcall(string.format, "%p", {})))
  log(pcall(setmetatable, {}, {__gc = true}), (pcall(setmetatable, {}, {__mode = "k"})))
  local o = {}
  for k in pairs({b = 1, a = 1, [3] = 1, [1] = 1, [true] = 1, [false] = 1, [2.5] = 1, B = 1}) do o[#o + 1] = tostring(k) end
  log("pairs", table.concat(o, " "), (pcall(pairs, {[{}] = 1})))
  local ok, e = pcall(error, setmetatable({}, {__tostring = function() log("called") return "x" end}))
  error(e)
end
LUA
run "$TMPD/alone.ini" "$TMPD/sandbox.lua" 1
has "the listed functions are there, the absent ones absent" '{"type":"log","tick":1,"id":"tank.a","text":"missing: present:"}'
has "string.find is plain" '{"type":"log","tick":1,"id":"tank.a","text":"find is plain 2 2 3"}'
has "tostring gives the type; %p is refused" '{"type":"log","tick":1,"id":"tank.a","text":"table function false"}'
has "setmetatable refuses __gc and __mode" '{"type":"log","tick":1,"id":"tank.a","text":"false false"}'
has "pairs: booleans, numbers, strings in byte order" '{"type":"log","tick":1,"id":"tank.a","text":"pairs false true 1 2.5 3 B a b false"}'
has "an error object that is not a string: its type, no __tostring" '{"type":"bot_error","tick":1,"id":"tank.a","error":"(error object is a table value)"}'

# agent.observe and agent.act (BUILT-IN METHODS): 12 + 11 K + R numbers,
# the first 1 while alive; the action as intents; a bad action an error
cat > "$TMPD/agent.lua" <<'LUA'
function tick(me, world, mem, out)
  local o = agent.observe()
  if world.tick == 1 then
    log(#o, o[1], o[2], o[3], o[5], o[6], #agent.observe(0, 16), #agent.observe(16, 64))
    agent.act(out, {0, 1, 0, 1, 0})
    log(out.speed == me.max_speed, out.fire, out.turn, out.turret == me.turret)
  else
    agent.act(out, {0, 2, 0, 0, 0})
  end
end
LUA
run "$TMPD/alone.ini" "$TMPD/agent.lua" 2
has "agent.observe(): 64 numbers; alive, full health, x scaled, heading 0; K 0 R 16: 28; K 16 R 64: 252" \
    '{"type":"log","tick":1,"id":"tank.a","text":"64 1.0 1.0 -0.66666668653488 1.0 0.0 28 252"}'
has "agent.act(out, {0, 1, 0, 1, 0}): full speed, fire, no turn, the turret kept" \
    '{"type":"log","tick":1,"id":"tank.a","text":"true true 0.0 true"}'
has "agent.act with a[2] = 2: the tick's error names the entry and the range" \
    '{"type":"bot_error","tick":2,"id":"tank.a","error":"b.lua:8: agent.act: a[2] (speed) must be a number in [-1, 1], not 2"}'

done_testing
