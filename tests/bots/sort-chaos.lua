-- an inconsistent comparator, random keys, pairs over them
function tick(me, world, mem, out)
  local t = {}
  for i = 1, 100 do t[i] = math.random(1, 50) end
  table.sort(t, function(a, b) return math.random() < 0.5 end)
  local keys = {}
  for i = 1, 20 do keys["k" .. t[i]] = i end
  for k, v in pairs(keys) do out.turn = v end
end
