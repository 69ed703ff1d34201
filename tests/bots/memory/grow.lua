-- Grows toward bot_memory while churning string keys; when the limit
-- stops it, it lets go of what it kept and grows again: how far each
-- round got shows in its turn.
local keep, churn, n = {}, {}, 0
function tick(me, world, mem, out)
  keep = keep or {}
  local ok = pcall(function()
    for i = 1, 200 do
      n = n + 1
      churn["c" .. n] = n
      churn["c" .. (n - 50)] = nil
      keep[#keep + 1] = "v" .. n
    end
  end)
  if not ok then keep = nil end  -- no new table: the heap is full
  out.turn = n % 61 - 30
end
