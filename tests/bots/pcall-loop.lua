-- hostile: catching the budget error and going on
function tick(me, world, mem, out)
  while true do pcall(function() while true do end end) end
end
