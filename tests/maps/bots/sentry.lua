-- sentry.lua (tests/player-sight.sh): holds still, turns its turret to
-- the first enemy in world.enemies and fires when loaded.  It shoots only
-- at what its sight gives it.
function tick(me, world, mem, out)
  out.speed = 0
  local e = world.enemies[1]
  if e then
    local dir = aim.exact(e)
    if dir then
      out.turret = dir
      out.fire = me.gun_ready
    end
  end
end
