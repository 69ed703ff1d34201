-- idle.lua: does nothing (the ladder's weakest bot).
function tick(me, world, mem, out)
end
