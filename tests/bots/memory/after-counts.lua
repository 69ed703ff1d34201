-- Uses up its call's 32 counts of bot_memory (a long loop near the
-- limit), then grows: only the backstop on Lua's bytes (4x + 1 MiB)
-- stops it, at a point that follows Lua's per-state hash seed because
-- string keys are churned meanwhile.  How far it got shows in its turn.
local keys = {}
for i = 1, 4000 do keys[i] = "k" .. i end
local n = 0
function tick(me, world, mem, out)
  log("reached", n)
  out.turn = n % 61 - 30
  local x = 0
  for i = 1, 2000000 do x = x + i end
  local big, u, small = {}, {}, {}
  for i = 1, 131072 do big[i] = i end
  n = 0
  for j = 1, 4000 do
    u[keys[j]] = true
    if j > 1500 then u[keys[j - 1500]] = nil end
    small[#small + 1] = {j,j,j,j,j,j,j,j,j,j,j,j,j,j,j,j}
    n = j
  end
end
