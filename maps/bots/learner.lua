-- learner.lua: a tank that learns over the rounds of a match which way to
-- fight pays here.
--
-- A map with [match] rounds = N plays N rounds; each starts from the map
-- anew, and every bot is rebuilt from its script: its globals and locals
-- are gone, init runs again, but mem is kept.  So what a bot must learn
-- goes in mem (plain data: numbers, strings, tables of those), and
-- world.round and world.rounds say which round this is.
--
-- The bot knows a few tactics and, like a gambler before a row of slot
-- machines (the multi-armed bandit), must find the best by playing them:
-- it tries each once, then plays the one with the best average reward,
-- with a bonus for the ones tried least (UCB1: Auer, Cesa-Bianchi and
-- Fischer, 2002) so that a tactic unlucky once gets another chance.

-- What to do on seeing an enemy: keep = nil wanders on as a built-in tank
-- does; a number faces the enemy (we see along the hull) and drives at it
-- until it is that close, then holds still.
local TACTICS = {
  {name = "wander"},
  {name = "close", keep = 250},
  {name = "far", keep = 600},
}

-- The smallest difference between two directions, in (-180, 180].
local function angdiff(a, b) return (a - b + 180) % 360 - 180 end

-- UCB1: the tactic with the best average reward plus sqrt(2 ln n / n_i),
-- a bonus that shrinks as tactic i is tried more; any untried one first.
local function choose(stats)
  local total = 0
  for i = 1, #TACTICS do total = total + stats[i].n end
  local best, best_value
  for i = 1, #TACTICS do
    local s = stats[i]
    if s.n == 0 then return i end
    local value = s.sum / s.n + math.sqrt(2 * math.log(total) / s.n)
    if not best or value > best_value then best, best_value = i, value end
  end
  return best
end

-- A new round: book what the last round's tactic earned, pick this one's.
local function new_round(world, mem)
  if mem.tactic then
    local s = mem.stats[mem.tactic]
    s.n, s.sum = s.n + 1, s.sum + mem.earned
    log(string.format("round %d: %s earned %d", mem.round, TACTICS[mem.tactic].name, mem.earned))
  end
  mem.round = world.round
  mem.tactic = choose(mem.stats)
  mem.earned = 0
  log(string.format("round %d of %d: trying %s", world.round, world.rounds, TACTICS[mem.tactic].name))
end

-- The reward: +1 for each hit our shells make, -1 for each we take (the
-- events of the previous tick; a hit goes to its shooter and its target).
local function count(me, world, mem)
  for _, ev in ipairs(world.events) do
    if ev.type == "hit" then
      if ev.shooter == me.id then mem.earned = mem.earned + 1 end
      if ev.target == me.id then mem.earned = mem.earned - 1 end
    end
  end
end

-- The enemy to fight: the one fought last tick while still seen, else
-- the nearest.
local function target(world, mem)
  local best
  for _, e in ipairs(world.enemies) do
    if e.id == mem.target then return e end
    if not best or e.distance < best.distance then best = e end
  end
  return best
end

function init(me, mem)
  -- init runs at the start of every round, with mem as the last round
  -- left it: set up only what is not there yet
  if not mem.stats then
    mem.stats = {}
    for i = 1, #TACTICS do mem.stats[i] = {n = 0, sum = 0} end
  end
end

function tick(me, world, mem, out)
  if mem.round ~= world.round then new_round(world, mem) end
  count(me, world, mem)
  local tactic = TACTICS[mem.tactic]
  draw.text(me.x, me.y - 30, tactic.name)

  local e = target(world, mem)
  mem.target = e and e.id
  if e and tactic.keep then
    out.turn, out.speed = avoid.predictive(e.bearing, e.distance > tactic.keep and me.max_speed or 0)
  else
    local turn, speed = wander()
    out.turn, out.speed = avoid.predictive(me.heading + turn * world.dt, speed)
  end

  -- Fight as ever: lead the shot, fire once the turret points there.
  if e then
    local dir = aim.exact(e)
    if dir then
      out.turret = dir
      out.fire = me.gun_ready and math.abs(angdiff(dir, me.turret)) <= me.turret_rate * world.dt
    end
  end
end
