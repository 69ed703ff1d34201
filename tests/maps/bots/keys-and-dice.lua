-- keys-and-dice.lua: a test bot whose every decision goes through pairs()
-- over string keys and math.random, the two places where a plain Lua
-- would differ from run to run (hash order, an unseeded generator).
function init(me, mem)
  mem.score = {}
end

function tick(me, world, mem, out)
  -- a fresh table of string keys each tick, filled in a random order
  local t = {}
  for k = 1, 12 do
    t["k" .. math.random(1, 40)] = k
  end
  local order, sum = {}, 0
  for key, v in pairs(t) do
    order[#order + 1] = key
    sum = sum + v * #order
    mem.score[key] = (mem.score[key] or 0) + v
  end
  if world.tick % 20 == 0 then log(table.concat(order, " ")) end
  out.turn = (sum % 61) - 30
  out.speed = math.random() * me.max_speed
end
