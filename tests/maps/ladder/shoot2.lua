-- shoot2.lua: shoot.lua again (two equal bots: a test that cannot decide).
function tick(me, world, mem, out)
  local target = world.enemies[1]
  if target then
    out.turret = aim.exact(target) or target.bearing
    out.fire = me.gun_ready
  end
end
