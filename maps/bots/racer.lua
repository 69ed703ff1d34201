-- racer.lua: a race driver.  race.exact() is the built-in driver (the
-- turning circle of the car's own motion model, braking ahead of tight
-- corners); the bot adds its own touches around it.

function init(me, mem)
  mem.laps = 0
end

function tick(me, world, mem, out)
  out.turn, out.speed = race.exact()

  -- events: what happened to me on the previous tick
  for _, ev in ipairs(world.events) do
    if ev.type == "lap" then
      mem.laps = mem.laps + 1
      log("lap", mem.laps, "at", world.time)
    end
  end

  -- show where we are going
  local w = world.waypoints[world.next_waypoint]
  if w then
    draw.circle(w.x, w.y, w.r, "cyan")
    draw.line(me.x, me.y, w.x, w.y, "cyan")
  end
end
