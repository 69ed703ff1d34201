function tick(me, world, mem, out) end
