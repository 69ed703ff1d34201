-- busy.lua: a bot that calls every built-in method, logs, draws and
-- fails now and then, for tests/cli/threads.sh: hundreds of them decide on
-- several threads, and the trace must not tell how many.
function tick(me, world, mem, out)
  mem.n = (mem.n or 0) + 1
  out.turn, out.speed = wander()
  local e = world.enemies[1]
  if e then
    local dir = aim.exact(e) or aim.classic(e)
    if dir then
      out.turret = dir
      out.fire = me.gun_ready
    end
    draw.line(me.x, me.y, e.x, e.y, "red")
  end
  local turn, speed = avoid.predictive(me.heading, me.speed)
  if turn then out.turn, out.speed = turn, speed end
  local hidden = sight.hidden_from(me.x + 100, me.y + 50)
  if mem.n % 7 == 0 then
    log(string.format("%s hidden %.3f, %d trees near", me.id, hidden, #world.trees(150)))
  end
  if mem.n % 11 == (#me.id % 11) then
    error("busy: " .. me.id .. " fails on purpose at tick " .. world.tick)
  end
end
