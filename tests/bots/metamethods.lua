-- hostile: metamethod recursion, a cyclic error object, a mem cycle
function tick(me, world, mem, out)
  local t = setmetatable({}, {__index = function(t, k) return t[k] end})
  mem.self = mem
  local e = {} e.e = e
  if world.tick % 2 == 0 then error(e) end
  return t.x
end
