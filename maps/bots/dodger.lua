-- dodger.lua: a tank that sees shells coming and steps out of their way.
--
-- world.shells lists the shells in flight this tank sees this tick (in its
-- view cone, within view_range, no tree in between), each with its
-- position, heading and speed.  A shell flies straight, so we can tell
-- where it will pass: its closest approach to us.  When an enemy shell
-- will pass closer than our radius, we are on its collision course and we
-- drive on, turning, to be elsewhere when it arrives.  The rest of the
-- time it faces the enemy it sees and fights it.

local MARGIN = 8        -- pass at least this far outside our hull
local HORIZON = 3       -- seconds: a shell further off than that can wait

-- The smallest difference between two directions, in (-180, 180].
local function angdiff(a, b) return (a - b + 180) % 360 - 180 end

-- A velocity {x, y} from a heading in degrees and a speed.
local function velocity(heading, speed)
  local a = math.rad(heading)
  return speed * math.cos(a), speed * math.sin(a)
end

-- Closest approach of a shell to us if we drive at (heading, speed):
-- in our frame the shell moves at (its velocity - ours), in a straight
-- line; the time t of the closest point is where the relative position
-- stops shrinking, -(p . v) / (v . v), kept within [0, HORIZON].
-- Returns the distance then and the time.
local function closest(me, shell, heading, speed)
  local sx, sy = velocity(shell.heading, shell.speed)
  local mx, my = velocity(heading, speed)
  local px, py = shell.x - me.x, shell.y - me.y      -- where it is, from us
  local vx, vy = sx - mx, sy - my                    -- how it moves, for us
  local vv = vx * vx + vy * vy
  local t = 0
  if vv > 0 then t = math.max(0, math.min(HORIZON, -(px * vx + py * vy) / vv)) end
  local dx, dy = px + vx * t, py + vy * t
  return math.sqrt(dx * dx + dy * dy), t
end

-- The enemy shells on a collision course if we keep driving as we do.
local function threats(me, world)
  local list = {}
  for _, s in ipairs(world.shells) do
    -- our own shells (mine) and our team's are not aimed at us: watch
    -- the enemy's
    if not s.mine and s.team ~= me.team then
      local d, t = closest(me, s, me.heading, me.speed)
      if d < me.radius + MARGIN and t > 0 then list[#list + 1] = s end
    end
  end
  return list
end

-- The move that keeps furthest from every threat: try a few, keep the
-- best.  A tank cannot strafe and turns slowly (turn_rate), so in the
-- second or so a shell takes to arrive, what it can do is drive on at
-- full speed, turning left, right or not at all.
local function escape(me, list)
  local best, best_gap
  for _, speed in ipairs({me.max_speed}) do
    for _, turn in ipairs({-me.turn_rate, 0, me.turn_rate}) do
      -- the heading we will have half a second from now, roughly
      local heading = me.heading + turn * 0.5
      local gap = math.huge
      for _, s in ipairs(list) do gap = math.min(gap, (closest(me, s, heading, speed))) end
      if not best or gap > best_gap then
        best, best_gap = {turn = turn, speed = speed}, gap
      end
    end
  end
  return best
end

-- The enemy to fight: the one we fought last tick while we still see it
-- (switching targets wastes turret turns), else the nearest.
local function target(world, mem)
  local best
  for _, e in ipairs(world.enemies) do
    if e.id == mem.target then return e end
    if not best or e.distance < best.distance then best = e end
  end
  return best
end

function tick(me, world, mem, out)
  local e = target(world, mem)
  mem.target = e and e.id

  -- 1. Driving: dodge first, else face the enemy, else wander.
  local list = threats(me, world)
  if #list > 0 then
    local move = escape(me, list)
    -- avoid.predictive takes the heading and speed we want and returns a
    -- turn and speed that get there without ramming anyone
    out.turn, out.speed = avoid.predictive(me.heading + move.turn * world.dt, move.speed)
    for _, s in ipairs(list) do
      draw.line(me.x, me.y, s.x, s.y, "yellow")
      local _, t = closest(me, s, me.heading, me.speed)
      local sx, sy = velocity(s.heading, s.speed)
      draw.mark(s.x + sx * t, s.y + sy * t, "red")
    end
  elseif e then
    -- Keep the enemy in sight: we see along the hull, so face it, closing
    -- in to 300 units and holding there, where a built-in tank wanders on
    -- and loses sight of its target.  A tank holding still is a sitting
    -- duck: avoid.predictive dodges shells only while the tank moves, so
    -- here our own dodge above is what saves it.
    out.turn, out.speed = avoid.predictive(e.bearing, e.distance > 300 and me.max_speed or 0)
  else
    -- wander() is the built-in wander; through avoid.predictive it drives
    -- exactly as a built-in tank does
    local turn, speed = wander()
    out.turn, out.speed = avoid.predictive(me.heading + turn * world.dt, speed)
  end

  -- 2. Fighting: lead the shot with aim.exact, and fire only once the
  -- turret points there (a shell leaves along the turret, so firing while
  -- it still turns wastes the reload).
  if e then
    local dir = aim.exact(e)
    if dir then
      out.turret = dir
      local aligned = math.abs(angdiff(dir, me.turret)) <= me.turret_rate * world.dt
      out.fire = me.gun_ready and aligned
    end
  end
end
