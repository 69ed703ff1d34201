-- Calls every built-in with extreme numbers (tests/maps/extremes/bot-extremes.ini).
local V = {0, -0.0, 1e308, -1e308, 5e-324, -5e-324, 1e-300, 90, 180, -180, 360, 720.5, 1e15, 2^53, 2^63, -2^63, math.maxinteger, math.mininteger, 1e6, 3}
local function pick(mem) mem.i = ((mem.i or 0) * 1103515245 + 12345) % 2147483648; return V[(mem.i % #V) + 1] end
function init(me, mem) mem.i = 7 end
function tick(me, world, mem, out)
  local n = 0
  for _, e in ipairs(world.enemies) do
    local d, t = aim.exact(e); local d2, t2 = aim.classic(e)
    n = n + 1
    local fake = {id = e.id, x = pick(mem), y = pick(mem), heading = pick(mem), speed = pick(mem)}
    pcall(aim.exact, fake); pcall(aim.classic, fake)
    if d then out.turret = d end
  end
  local h, s = pick(mem), pick(mem)
  pcall(avoid.predictive, h, s); pcall(avoid.classic, h, s)
  pcall(avoid.predictive, pick(mem), pick(mem)); pcall(avoid.classic, pick(mem), pick(mem))
  pcall(race.exact); pcall(race.classic); pcall(wander)
  pcall(sight.hidden_from, pick(mem), pick(mem))
  pcall(world.trees, pick(mem))
  pcall(draw.line, pick(mem), pick(mem), pick(mem), pick(mem), "red")
  pcall(draw.circle, pick(mem), pick(mem), pick(mem))
  pcall(draw.text, pick(mem), pick(mem), string.rep("é", 300))
  pcall(draw.mark, pick(mem), pick(mem))
  local t, sp = wander()
  out.turn = pick(mem); out.speed = pick(mem); out.turret = pick(mem); out.fire = (mem.i % 2 == 0)
  if mem.i % 5 == 0 then out.turn = t; out.speed = sp end
end
