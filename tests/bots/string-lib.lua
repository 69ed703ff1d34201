-- the string, table, math and utf8 functions a bot may use
function tick(me, world, mem, out)
  local s = string.format("%5.2f|%d|%s|%q|%x", me.x, world.tick, me.id, "a\n", 255)
  local a, b = s:find("|", 1, true)
  local parts = {}
  local i = 1
  while true do
    local j = s:find("|", i)
    if not j then parts[#parts + 1] = s:sub(i) break end
    parts[#parts + 1] = s:sub(i, j - 1)
    i = j + 1
  end
  table.sort(parts)
  local u = utf8.char(72, 228, 8364, 128512)
  log(table.concat(parts, ","), utf8.len(u), s:upper():lower():rep(2, "-"), s:byte(1, 3))
  log(string.pack("<i4", 7):len(), select("#", table.unpack({1, 2, 3})), math.tointeger(3.0))
  log(math.random(1, 6), math.random(), math.floor(-2.5), math.max(1, 5, 3), 7 // 2, 7 % -3)
  out.turn = #parts + wander()
end
