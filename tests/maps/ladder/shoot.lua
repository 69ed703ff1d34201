-- shoot.lua: aims at the closest enemy it sees and fires when loaded.
function tick(me, world, mem, out)
  local target = world.enemies[1]
  if target then
    out.turret = aim.exact(target) or target.bearing
    out.fire = me.gun_ready
  end
end
