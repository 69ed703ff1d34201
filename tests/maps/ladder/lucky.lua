-- lucky.lua: as shoot.lua, but fires only now and then (math.random is
-- seeded by the run: the same seed, the same game).
function tick(me, world, mem, out)
  local target = world.enemies[1]
  if target then
    out.turret = aim.exact(target) or target.bearing
    out.fire = me.gun_ready and math.random() < 0.02
  end
end
