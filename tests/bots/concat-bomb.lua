-- hostile: doubling a string until the allocation cap stops it
function tick(me, world, mem, out)
  local s = "x"
  while true do s = s .. s end
end
