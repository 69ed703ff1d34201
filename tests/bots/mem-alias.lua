-- hostile: one string held in many places of mem; written out at each
-- place it would outgrow the heap a thousandfold, so the save must fail
-- (size limit: twice bot_memory), quickly and without memory to spare
function init(me, mem)
  local s = string.rep("x", 32 * 1024)
  mem.t = {}
  for i = 1, 2000 do mem.t[i] = s end
  mem.dag = {1}
  for i = 1, 40 do mem.dag = {mem.dag, mem.dag, k = mem.dag} end
end
function tick(me, world, mem, out)
  mem.t[#mem.t + 1] = mem.t[1]
end
