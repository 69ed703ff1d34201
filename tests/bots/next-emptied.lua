-- hostile: next() over a table emptied of many keys scans the empty
-- slots for the price of the keys it finds (uncounted work, backstopped)
t = {}
for i = 1, 3000 do t[i] = true; t["s" .. i] = true end
for i = 1, 3000 do t[i] = nil; t["s" .. i] = nil end
function tick(me, world, mem, out)
  while true do local k = next(t) end
end
