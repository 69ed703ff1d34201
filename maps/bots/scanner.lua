-- scanner.lua: a tank that sees through a radar and keeps it on its prey.
--
-- On a map that gives a tank `sensor = radar`, its view cone (fov wide)
-- points where the radar points, not where the hull or the turret do.
-- The radar turns on its own, at most me.radar_rate degrees a second,
-- toward out.radar (an absolute direction, as out.turret is).  A bot's
-- radar turns only when asked: left alone it stays put.  me.radar says
-- where it points now, me.fov how wide the cone is.
--
-- The built-in tanks sweep their radar round and round, and so see an
-- enemy only while the beam passes over it.  This bot sweeps too, but
-- once the beam finds an enemy it locks on: every tick it points the
-- radar where the enemy will be, so it keeps seeing it, and can aim and
-- fire all the time it does.

-- The smallest difference between two directions, in (-180, 180].
local function angdiff(a, b) return (a - b + 180) % 360 - 180 end

local function bearing(fx, fy, tx, ty) return math.deg(math.atan(ty - fy, tx - fx)) end

-- The enemy to lock on: the one locked last tick while it is still seen
-- (a lock that jumps between enemies loses both), else the nearest.
local function target(world, mem)
  local best
  for _, e in ipairs(world.enemies) do
    if mem.lock and e.id == mem.lock.id then return e end
    if not best or e.distance < best.distance then best = e end
  end
  return best
end

-- Where the radar should point this tick.
local function radar(me, world, mem, e)
  if e then
    -- Locked: point at where the enemy will be next tick (it moves; so do
    -- we), so it stays in the middle of the cone.
    local a = math.rad(e.heading)
    local nx = e.x + e.speed * math.cos(a) * world.dt
    local ny = e.y + e.speed * math.sin(a) * world.dt
    -- mem keeps the lock (plain numbers) for when the enemy slips out
    mem.lock = {id = e.id, x = e.x, y = e.y, tick = world.tick}
    draw.line(me.x, me.y, e.x, e.y, "red")
    return bearing(me.x, me.y, nx, ny)
  end
  local lost = mem.lock and (world.tick - mem.lock.tick) * world.dt  -- seconds
  if lost and lost < 2 then
    -- Lost it for a moment (behind a tree, or it crossed the cone faster
    -- than the radar turns): search to either side of where it was, the
    -- swing growing with the time since, the side changing every quarter
    -- of a second.
    local swing = me.fov * (1 + 2 * lost)
    local side = math.floor(lost * 4) % 2 == 0 and 1 or -1
    draw.line(me.x, me.y, mem.lock.x, mem.lock.y, "yellow")
    return bearing(me.x, me.y, mem.lock.x, mem.lock.y) + side * swing / 2
  end
  -- Nothing to follow: sweep clockwise, asking each tick for as far as
  -- the radar turns in a tick (it turns the shortest way toward out.radar,
  -- so asking for more than 180 degrees would turn it back).
  mem.lock = nil
  return me.radar + me.radar_rate * world.dt
end

function tick(me, world, mem, out)
  local e = target(world, mem)
  out.radar = radar(me, world, mem, e)

  -- Drive as a built-in tank does: wander, through the avoidance.
  local turn, speed = wander()
  out.turn, out.speed = avoid.predictive(me.heading + turn * world.dt, speed)

  -- Fight: lead the shot and fire once the turret points there.
  if e then
    local dir = aim.exact(e)
    if dir then
      out.turret = dir
      out.fire = me.gun_ready and math.abs(angdiff(dir, me.turret)) <= me.turret_rate * world.dt
    end
  end
end
