-- mem with every kind of plain data, changed each tick; drawings and logs
function init(me, mem)
  mem.n, mem.f, mem.s, mem.b = 0, 0.5, "x\0y", true
  mem.list = {1, 2.5, "three", {four = 4}}
  mem[1], mem[-2.5], mem[false] = "one", "neg", "no"
end

function tick(me, world, mem, out)
  mem.n = mem.n + 1
  mem.list[#mem.list + 1] = {tick = world.tick, x = me.x}
  if #mem.list > 20 then table.remove(mem.list, 1) end
  for i, e in ipairs(world.enemies) do
    local dir, t = aim.exact(e)
    draw.line(me.x, me.y, e.x, e.y, dir and "red" or "grey")
    log(i, e.id, dir, t)
  end
  for k, v in pairs(mem) do draw.text(me.x, me.y, tostring(k)) end
  out.turn, out.speed = avoid.predictive(me.heading + 10, me.max_speed)
  out.turret = me.turret + 1
  out.fire = me.gun_ready and #world.enemies > 0
end
