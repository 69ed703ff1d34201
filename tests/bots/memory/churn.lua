-- String keys churned (added and deleted) while a tick fills a local
-- table until the per-tick cap or the budget stops it.
local t, n, probe = {}, 0, 0
function tick(me, world, mem, out)
  if world.tick % 2 == 1 then
    for i = 1, 3000 do n = n + 1; t["k" .. n] = n; t["k" .. (n - 29)] = nil end
    local g = {}
    for i = 1, 1e6 do g[i] = "s" .. i; probe = i end
  else
    out.turn = probe % 61 - 30
  end
end
