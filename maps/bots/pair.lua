-- pair.lua: two tanks of one team that tell each other what they see.
--
-- out.say sends a message to the team: plain data, as mem holds (a
-- number, a string, a table of those; at most 256 bytes once encoded).
-- Every tank of the team alive on the next tick hears it in
-- world.messages, a list of {from, data}; the sender hears its own
-- message too, and enemies never do.  So a tank that sees an enemy says
-- where it is, and its ally, which may be looking the other way, turns
-- toward it: two guns on one enemy instead of one each.

-- The smallest difference between two directions, in (-180, 180].
local function angdiff(a, b) return (a - b + 180) % 360 - 180 end

local function bearing(fx, fy, tx, ty) return math.deg(math.atan(ty - fy, tx - fx)) end

-- The enemy to fight among those I see: the one my leader fights, when I
-- see it too (two guns on one enemy knock it out in half the time, and
-- then the fight is two against one), else the one I fought last tick (a
-- turret that swings between targets hits neither), else the nearest.
-- Only one of us may follow the other (the leader is the ally whose id
-- sorts first): two tanks that each took the other's target would swap
-- targets every tick.
local function target(me, world, mem, told)
  local follow = told and told.from < me.id
  local best, mine
  for _, e in ipairs(world.enemies) do
    if follow and e.id == told.id then return e end
    if e.id == mem.target then mine = e end
    if not best or e.distance < best.distance then best = e end
  end
  return mine or best
end

-- What an ally told us last tick: the freshest target, or nil.  Skip our
-- own message (it comes back to us) and anything too old to trust.
local function heard(me, world)
  local best
  for _, m in ipairs(world.messages) do
    local d = m.data
    if m.from ~= me.id and type(d) == "table" and world.tick - d.tick < 60 then
      if not best or d.tick > best.tick then best = d; best.from = m.from end
    end
  end
  return best
end

-- Lead the shot, and fire once the turret points there.
local function fight(me, world, out, e)
  local dir = aim.exact(e)
  if dir then
    out.turret = dir
    out.fire = me.gun_ready and math.abs(angdiff(dir, me.turret)) <= me.turret_rate * world.dt
  end
end

function tick(me, world, mem, out)
  local t = heard(me, world)
  local e = target(me, world, mem, t)
  mem.target = e and e.id

  if e then
    -- 1. I see one: tell the team where (the id, so an ally that sees it
    -- too picks the same one; the tick, so it knows how old the news is).
    out.say = {id = e.id, x = e.x, y = e.y, tick = world.tick}
    fight(me, world, out, e)
    -- Keep it in sight: we see along the hull, so face it, closing in to
    -- 300 units and holding there (a built-in tank wanders on and loses
    -- sight of its target as its hull turns away).
    out.turn, out.speed = avoid.predictive(e.bearing, e.distance > 300 and me.max_speed or 0)
    return
  end

  -- 2. I see no one: did my ally?  Then turn toward it (our sight looks
  -- along the hull), the turret ahead of the hull, ready to shoot.
  if t then
    mem.target = t.id                  -- once in sight, fight that one
    local dir = bearing(me.x, me.y, t.x, t.y)
    out.turn, out.speed = avoid.predictive(dir, me.max_speed)
    out.turret = dir
    draw.line(me.x, me.y, t.x, t.y, "cyan")
    return
  end

  -- 3. Nobody knows of anyone: wander as a built-in tank does.
  local turn, speed = wander()
  out.turn, out.speed = avoid.predictive(me.heading + turn * world.dt, speed)
end
