-- avoid.lua: the article's collision avoidance ("Self driving tanks that
-- don't collide"), ported to botfield's bot API almost line for line.
--
-- A bot is a script with a function tick(me, world, mem, out) that runs
-- every tick: read `me` (this tank) and `world` (what it knows), set the
-- intents in `out` (turn in deg/s, speed, turret, fire).  Here the tank
-- wanders like the built-in tanks and, when another tank is in the way,
-- turns half a degree a tick away from it, as the article does.

local collisionRange = 100   -- the article's constant: look this far ahead

-- The article keeps all tanks in a global `Tanks`; a bot knows its allies
-- and the enemies it sees this tick, so that is its list of tanks.
local function Tanks(world)
  local all = {}
  for _, t in ipairs(world.allies) do all[#all + 1] = t end
  for _, t in ipairs(world.enemies) do all[#all + 1] = t end
  return all
end

local function dist(ax, ay, bx, by) return math.sqrt((ax - bx) ^ 2 + (ay - by) ^ 2) end

-- Returns the turn in degrees per tick, or nil when nothing is in the way.
local function CheckForCollisions(me, world)
  -- look for tanks within collision distance (collisionRange);
  -- minDist holds the shortest distance so far, we aren't interested
  -- unless it is within collision range, so start with that
  local minDist, minP, minT = collisionRange, nil, nil
  local a = math.rad(me.heading)
  local dir = {x = math.cos(a), y = math.sin(a)}       -- where we are going
  for _, t in ipairs(Tanks(world)) do                  -- (never self: not in the lists)
    local d = dist(me.x, me.y, t.x, t.y)
    if d < minDist then                                -- this tank is closest so far
      local p = {x = me.x + d * dir.x, y = me.y + d * dir.y}   -- calc "hit point"
      if dist(p.x, p.y, t.x, t.y) < 2 * me.radius then -- we will hit!
        minDist = d                                    -- store distance to tank
        minP = p                                       -- and the "hit point"
        minT = t                                       -- and the other tank position
      end
    end
  end
  if minT then                                         -- we need to turn to avoid a tank
    -- this formula is positive if our "hit point" is on the left of the
    -- other tank (the article's x, z are our x, y)
    if (minP.x - me.x) * (minT.y - me.y) - (minP.y - me.y) * (minT.x - me.x) > 0 then
      -- botfield's y axis points down, so a positive turn is clockwise:
      -- the article's rotate(0.5) becomes a turn the other way
      return -0.5
    else
      return 0.5
    end
  end
end

function tick(me, world, mem, out)
  local turn = CheckForCollisions(me, world)
  if turn then
    out.turn = turn / world.dt         -- degrees a tick -> degrees a second
    draw.circle(me.x, me.y, collisionRange, "yellow")
  else
    out.turn, out.speed = wander()     -- the built-in wander, with its edge rule
  end
end
