-- hostile: an endless __close handler run while an error unwinds
function tick(me, world, mem, out)
  pcall(function()
    local x <close> = setmetatable({}, {__close = function() while true do end end})
    error("boom")
  end)
  out.turn = 1
end
