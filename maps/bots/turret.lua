-- turret.lua: a gun turret that leads its shots.  It cannot drive
-- (me.max_speed is 0): it only turns its gun and fires.

function tick(me, world, mem, out)
  -- the closest enemy in sight
  local target
  for _, e in ipairs(world.enemies) do
    if not target or e.distance < target.distance then target = e end
  end

  if target then
    -- aim.exact: the direction where a shell meets the target, and when;
    -- nil and a reason when no shot can (out of range, too fast...)
    local dir, t_impact = aim.exact(target)
    if dir then
      out.turret = dir
      out.fire = me.gun_ready          -- the engine fires only when loaded
      draw.text(target.x, target.y - 25, string.format("%.1fs", t_impact))
    else
      out.turret = target.bearing      -- keep it in the sights meanwhile
    end
  else
    -- nothing seen: sweep slowly
    out.turret = me.turret + 20 * world.dt
  end
end
