-- mem with keys of every kind, cleared and re-added (Lua's own order of
-- them follows the state's string hash seed; the saved bytes must not),
-- and a bad value at a place that sorts first: the save names it
function init(me, mem)
  for i = 1, 200 do mem["k" .. i] = i; mem[i * 0.5] = tostring(i) end
  for i = 1, 200, 3 do mem["k" .. i] = nil end
  mem[true] = {x = 1, [false] = {}}
  mem.deep = {{{{{{{{"deep"}}}}}}}}
end
function tick(me, world, mem, out)
  mem["k" .. math.random(1, 400)] = math.random()
  if world.tick % 2 == 0 then mem[false] = print or tostring else mem[false] = nil end
end
