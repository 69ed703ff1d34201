-- Both caps met inside pcall, the error caught and the script going on:
-- every third tick a loop runs into the per-tick cap; every tick keeps
-- string-keyed data that churns and grows into bot_memory, and lets it
-- go when a memory error comes.
local keep, n, got = {}, 0, 0
local function burst()
  local g = {}
  for i = 1, 1e6 do g[i] = ("p"):rep(40) .. i; got = i end
end
local function grow()
  for i = 1, 300 do
    n = n + 1
    keep["q" .. n] = ("x"):rep(64) .. n
    keep["q" .. (n - 7)] = nil
    keep[#keep + 1] = n
  end
end
function tick(me, world, mem, out)
  keep = keep or {}
  if world.tick % 3 == 0 then pcall(burst) end
  if not pcall(grow) then keep = nil end
  out.turn = (got + n) % 61 - 30
end
