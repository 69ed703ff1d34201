-- kits/lua/bot.lua: the starter kits' strategy (kits/python/bot.py, kits/c/bot.c)
-- as a Lua bot, to compare with them: dodge an enemy shell on a collision
-- course, else face the enemy and close to 300 units, else wander clear
-- of trees and walls; lead the shot, fire once the turret points there.
-- Unlike dodger.lua it uses no built-in (aim.*, avoid.*, wander).

local MARGIN, HORIZON = 8, 3

local function angdiff(a, b) return (a - b + 180) % 360 - 180 end
local function velocity(h, s) local a = math.rad(h) return s * math.cos(a), s * math.sin(a) end

-- How close a shell passes if we drive at (heading, speed), and when.
local function closest(me, s, heading, speed)
  local sx, sy = velocity(s.heading, s.speed)
  local mx, my = velocity(heading, speed)
  local px, py, vx, vy = s.x - me.x, s.y - me.y, sx - mx, sy - my
  local vv, t = vx * vx + vy * vy, 0
  if vv > 0 then t = math.max(0, math.min(HORIZON, -(px * vx + py * vy) / vv)) end
  return math.sqrt((px + vx * t) ^ 2 + (py + vy * t) ^ 2), t
end

-- The turn, at full speed, that passes furthest from every threat; nil
-- when no enemy shell is on a collision course.
local function escape(me, world)
  local list = {}
  for _, s in ipairs(world.shells) do
    if not s.mine and s.team ~= me.team then
      local d, t = closest(me, s, me.heading, me.speed)
      if d < me.radius + MARGIN and t > 0 then list[#list + 1] = s end
    end
  end
  if #list == 0 then return nil end
  local best, best_gap
  for _, turn in ipairs({-me.turn_rate, 0, me.turn_rate}) do
    local gap = math.huge
    for _, s in ipairs(list) do gap = math.min(gap, (closest(me, s, me.heading + turn * 0.5, me.max_speed))) end
    if not best_gap or gap > best_gap then best, best_gap = turn, gap end
  end
  return best
end

-- The direction whose shell meets e: the smallest t > 0 with
-- |p + v t| = shell_speed t.
local function lead(me, e)
  local px, py = e.x - me.x, e.y - me.y
  local vx, vy = velocity(e.heading, e.speed)
  local a = vx * vx + vy * vy - me.shell_speed ^ 2
  local b, c, t = 2 * (px * vx + py * vy), px * px + py * py, -1
  if math.abs(a) < 1e-9 then
    if b < 0 then t = -c / b end
  else
    local disc = b * b - 4 * a * c
    if disc < 0 then return nil end
    local t1, t2 = (-b - math.sqrt(disc)) / (2 * a), (-b + math.sqrt(disc)) / (2 * a)
    if t1 > 0 and (t2 <= 0 or t1 < t2) then t = t1 elseif t2 > 0 then t = t2 end
  end
  if t <= 0 then return nil end
  return math.deg(math.atan(py + vy * t, px + vx * t))
end

-- A turn toward heading, away from a tree or wall within 60 units ahead.
local function steer_clear(me, world, heading)
  local ax, ay = velocity(me.heading, 1)
  local look = me.radius + 60
  for _, t in ipairs(world.trees(look + 20)) do
    local dx, dy = t.x - me.x, t.y - me.y
    local ahead, side = dx * ax + dy * ay, dx * ay - dy * ax
    if ahead > 0 and ahead < look and math.abs(side) < t.r + me.radius + 4 then
      return side > 0 and me.turn_rate or -me.turn_rate
    end
  end
  local nx, ny = me.x + ax * look, me.y + ay * look
  if not (nx > 0 and nx < world.width and ny > 0 and ny < world.height) then return me.turn_rate end
  return math.max(-me.turn_rate, math.min(me.turn_rate, angdiff(heading, me.heading) * 2))
end

function tick(me, world, mem, out)
  local e
  for _, x in ipairs(world.enemies) do if not e or x.distance < e.distance then e = x end end
  local turn = escape(me, world)
  if turn then
    out.turn, out.speed = turn, me.max_speed
  elseif e then
    out.turn, out.speed = steer_clear(me, world, e.bearing), e.distance > 300 and me.max_speed or 0
  else
    out.turn, out.speed = steer_clear(me, world, me.heading + 20), me.max_speed
  end
  local aim = e and lead(me, e)
  if aim then
    out.turret = aim
    out.fire = me.gun_ready and math.abs(angdiff(aim, me.turret)) <= me.turret_rate * world.dt
  end
end
