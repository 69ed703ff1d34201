-- hunter.lua: stays hidden in the forest from where it last saw an enemy,
-- and leads its shots with aim.exact.
--
-- `mem` is the bot's memory that survives stepping back, reloading the
-- script and replays: keep in it anything the bot must remember.

local function nearest(list)
  local best, bd = nil, math.huge
  for _, e in ipairs(list) do
    if e.distance < bd then best, bd = e, e.distance end
  end
  return best
end

local function bearing(fx, fy, tx, ty) return math.deg(math.atan(ty - fy, tx - fx)) end

function tick(me, world, mem, out)
  local e = nearest(world.enemies)
  if e then
    -- remember where it was (plain numbers in mem)
    mem.seen = {x = e.x, y = e.y, tick = world.tick}
    -- lead the shot: the direction that meets it, given its speed
    local dir, t = aim.exact(e)
    if dir then
      out.turret = dir
      out.fire = me.gun_ready
      draw.line(me.x, me.y, e.x, e.y, "red")
    end
  end

  if not mem.seen then                 -- nobody seen yet: roam
    out.turn, out.speed = wander()
    return
  end

  -- How much of my hull do the trees hide from where I saw it?
  local hidden = sight.hidden_from(mem.seen.x, mem.seen.y)
  draw.text(me.x, me.y - 30, string.format("hidden %.0f%%", hidden * 100))
  if hidden >= 0.8 then                -- well hidden: wait, gun on the spot
    out.speed = 0
    if not e then out.turret = bearing(me.x, me.y, mem.seen.x, mem.seen.y) end
    return
  end

  -- Exposed: go behind the nearest tree, on the far side from the enemy.
  local best, bd = nil, math.huge
  for _, t in ipairs(world.trees(400)) do
    local d = math.sqrt((t.x - me.x) ^ 2 + (t.y - me.y) ^ 2)
    if d < bd then best, bd = t, d end
  end
  if not best then
    out.turn, out.speed = wander()
    return
  end
  local away = math.atan(best.y - mem.seen.y, best.x - mem.seen.x)
  local gap = best.r + me.radius + 5
  local gx, gy = best.x + gap * math.cos(away), best.y + gap * math.sin(away)
  draw.mark(gx, gy, "green")
  -- avoid.* take the heading and speed we want and return a turn rate and
  -- speed that get there without hitting anything
  out.turn, out.speed = avoid.predictive(bearing(me.x, me.y, gx, gy), me.max_speed)
end
