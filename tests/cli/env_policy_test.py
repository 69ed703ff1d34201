"""A policy run through libbotfield and the same policy as a Lua bot
(agent.observe, agent.act) drive the agent the same way, tick for tick:
the observation a step returns is what the bot reads when it next decides.
Run by env-policy-bot.sh; argv: map, the botfield program, a folder.
Prints TAP."""
import os
import random
import re
import subprocess
import sys

import botfield

MAP, BOTFIELD, TMP = sys.argv[1:4]
n = failed = 0


def ok(cond, what):
    global n, failed
    n += 1
    print(("ok" if cond else "not ok"), n, "-", what)
    failed += not cond


def states(path):
    return [l for l in open(path) if '"type":"state"' in l]


for seed in (3, 8, 11):
    rng = random.Random(seed)
    env = botfield.Env(MAP)
    O = env._v.obs_size
    W = [[rng.uniform(-1, 1) for _ in range(O + 1)] for _ in range(5)]

    def policy(obs):
        # sign of W obs + b, summed in the order the Lua bot sums: +-1 are
        # exact in the library's float actions
        out = []
        for row in W:
            s = row[O]
            for j in range(O):
                s = s + row[j] * float(obs[j])
            out.append(1.0 if s > 0 else -1.0)
        return out

    obs, _ = env.reset(seed=seed)
    lib_trace = os.path.join(TMP, f"lib{seed}.trace")
    env.trace(lib_trace)
    steps = 0
    while True:
        obs, r, te, tr, info = env.step(policy(obs))
        steps += 1
        if te or tr:
            break
    env.close()
    rows = ",\n".join("{" + ", ".join(repr(x) for x in row) + "}" for row in W)
    with open(os.path.join(TMP, "sign.lua"), "w") as f:
        f.write(f"""local W = {{
{rows}
}}
local n = #W[1] - 1
function tick(me, world, mem, out)
  local obs = agent.observe()
  local a = {{}}
  for i = 1, 5 do
    local s = W[i][n + 1]
    for j = 1, n do s = s + W[i][j] * obs[j] end
    a[i] = s > 0 and 1 or -1
  end
  agent.act(out, a)
end
""")
    text = open(MAP).read()
    text = re.sub(r"(?m)^player = true\n", "", text)
    text = text.replace("[tank.agent]\n", "[tank.agent]\nbot = sign.lua\n")
    with open(os.path.join(TMP, "map.ini"), "w") as f:
        f.write(text)
    bot_trace = os.path.join(TMP, f"bot{seed}.trace")
    rc = subprocess.call([BOTFIELD, "--headless", "--seed", str(seed), "--trace", bot_trace,
                          os.path.join(TMP, "map.ini")], stdout=subprocess.DEVNULL)
    ok(rc == 0, f"seed {seed}: the Lua bot's run exits 0")
    a, b = states(lib_trace), states(bot_trace)
    first = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), None)
    if first is not None:
        print("# first difference:\n# lib " + a[first].strip() + "\n# bot " + b[first].strip())
    ok(first is None and len(a) == len(b) and steps > 50,
       f"seed {seed}: the library's {len(a)} state lines ({steps} steps) are the bot's, "
       "byte for byte")
print(f"1..{n}")
sys.exit(1 if failed else 0)
