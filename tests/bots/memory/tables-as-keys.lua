-- Tables and functions as keys (hashed by address), added and dropped,
-- while a list grows toward the limit and is let go when it stops it.
local bag, keys, list, n = {}, {}, {}, 0
function tick(me, world, mem, out)
  list = list or {}
  local ok = pcall(function()
    for i = 1, 150 do
      n = n + 1
      local k = { n }
      keys[n] = k
      bag[k] = function() return n end
      if n > 20 then
        bag[keys[n - 20]] = nil
        keys[n - 20] = nil
      end
      list[#list + 1] = { n, "m" .. n }
    end
  end)
  if not ok then list = nil end
  out.turn = n % 61 - 30
end
