"""The Python module over libbotfield (botfield-env(3)), run by
env-python.sh with NumPy and without.  Prints TAP."""
import math
import os
import sys

import botfield

MAP = os.path.join(os.environ["top_srcdir"], "maps", "learn.ini")
DUEL = os.path.join(os.environ["top_srcdir"], "maps", "bots-duel.ini")
try:
    import numpy as np
except ImportError:
    np = None
if os.environ.get("NO_NUMPY"):
    assert np is None or botfield._np is None, "NO_NUMPY run found NumPy"
n = 0
failed = 0


def ok(cond, what):
    global n, failed
    n += 1
    print(("ok" if cond else "not ok"), n, "-", what)
    failed += not cond


def raises(exc, fn, text=""):
    try:
        fn()
    except exc as e:
        return text in str(e)
    except Exception as e:          # the wrong kind
        print("# raised", type(e).__name__, e)
        return False
    return False


kind = "NumPy" if botfield._np is not None else "lists"
env = botfield.Env(MAP)
obs, info = env.reset(seed=4)
ok(len(obs) == botfield.obs_size() == 12 + 11 * 4 + 8, f"{kind}: Env.reset: the observation's size")
ok(obs[0] == 1.0 and all(-1 <= x <= 1 for x in obs), f"{kind}: alive, every float in [-1, 1]")
if botfield._np is not None:
    ok(isinstance(obs, np.ndarray) and obs.dtype == np.float32, "NumPy: an ndarray of float32")
else:
    ok(isinstance(obs, list), "no NumPy: a plain list")
steps, total, end = 0, 0.0, None
while True:
    obs, r, term, trunc, info = env.step([0.0, -1.0, 0.0, -1.0, 0.0])
    steps += 1
    total += r
    if term or trunc:
        end = (term, trunc, info)
        break
ok(end[0] and total == 0 and end[2].get("winner") == "bot",
   f"{kind}: a still, silent agent is knocked out: terminated, reward 0, the bot wins")
ok(raises(botfield.Error, lambda: env.step([0, 0, 0, 0, 0]), "reset"),
   f"{kind}: stepping a finished episode: botfield.Error saying to reset")
ok(raises(ValueError, lambda: (env.reset(seed=1), env.step([0, float("nan"), 0, 0, 0])),
          "action 1 (speed) = nan"), f"{kind}: a NaN action: ValueError naming it")
ok(raises(ValueError, lambda: env.step([0, 2, 0, 0, 0]), "[-1, 1]"),
   f"{kind}: an action out of [-1, 1]: ValueError")
ok(raises(ValueError, lambda: env.step([0, 0, 0]), ""), f"{kind}: 3 actions, not 5: ValueError")
ok(raises((TypeError, ValueError), lambda: env.step(["a", 0, 0, 0, 0]), ""),
   f"{kind}: a string action: TypeError or ValueError")
env.close()

ok(raises(ValueError, lambda: botfield.VecEnv(MAP, worlds=0), "worlds = 0"),
   f"{kind}: worlds = 0: ValueError")
ok(raises(ValueError, lambda: botfield.VecEnv(MAP, worlds=10 ** 9), "worlds"),
   f"{kind}: worlds = 10**9: ValueError")
ok(raises(TypeError, lambda: botfield.VecEnv(MAP, worlds=2.5), "int"),
   f"{kind}: worlds = 2.5: TypeError")
ok(raises(botfield.Error, lambda: botfield.VecEnv("/nonexistent/x.ini"), "/nonexistent/x.ini"),
   f"{kind}: a map that does not load: botfield.Error with its path")
bad = os.path.join(os.environ["TMPD"], "bad.ini")
with open(bad, "w") as f:
    f.write("[map]\nwidth = -3\n")
ok(raises(botfield.Error, lambda: botfield.VecEnv(bad), "width"),
   f"{kind}: a broken map: botfield.Error naming the key")
ok(raises(botfield.Error, lambda: botfield.VecEnv(MAP, agents="tank.ghost"), "tank.ghost"),
   f"{kind}: an agent that names no vehicle: botfield.Error")

# B worlds: world k is the single env of seed + k
B = 8
v = botfield.VecEnv(MAP, worlds=B, auto_reset=True)
o = v.reset(20)
one = botfield.VecEnv(MAP, worlds=1, auto_reset=False)
o1 = one.reset(23)
same = list(o[3]) == list(o1[0])
for t in range(200):
    acts = [[math.sin(0.1 * t + k), 0.5, math.cos(0.07 * t), 1.0 if t % 9 == 0 else -1.0, 0.0]
            for k in range(B)]
    ob, rw, te, tr, _ = v.step(acts)
    ob1, rw1, te1, tr1, _ = one.step([acts[3]])
    same &= list(ob[3]) == list(ob1[0]) and float(rw[3]) == float(rw1[0]) and bool(te[3]) == bool(te1[0])
    if te1[0] or tr1[0]:
        break
ok(same, f"{kind}: VecEnv world 3 of seed 20 is the one-world env of seed 23, step by step")
ok(raises(ValueError, lambda: v.step([[0, 0, 0, 0, 0]] * (B - 1)), ""),
   f"{kind}: {B - 1} action rows for {B} worlds: ValueError")
if botfield._np is not None:
    a = np.zeros((B, 5), np.float32)
    ob, rw, te, tr, _ = v.step(a)
    ok(ob is v._obs and v._a is a, "NumPy: the observations and float32 actions are not copied")
    ok(raises(TypeError, lambda: v.step(np.array([["x"] * 5] * B)), ""),
       "NumPy: an array of strings: TypeError")
v.close()
one.close()

# record: the viewer's --replay file
rec = os.path.join(os.environ["TMPD"], "ep.rec")
e = botfield.Env(MAP)
e.reset(seed=2)
e.record(rec)
while True:
    _, _, te, tr, _ = e.step([0.3, 1.0, 0.5, 1.0, 0.0])
    if te or tr:
        break
e.close()
head = open(rec).readline()
ok('"type":"recording"' in head and '"map_path":"learn.ini"' in head, f"{kind}: Env.record wrote a recording")

# PettingZoo's parallel shape: two agents on the bundled duel of bots
p = botfield.ParallelEnv(DUEL, agents="team.red,team.blue", set=["map.duration=20"])
obs, infos = p.reset(seed=3)
ok(sorted(obs) == sorted(p.possible_agents) == sorted(p.agents) and len(p.agents) == 2,
   f"{kind}: ParallelEnv.reset: an observation per agent")
steps = 0
while p.agents and steps < 5000:
    acts = {a: [0.0, 1.0, 0.2, 1.0, 0.0] for a in p.agents}
    obs, rew, term, trunc, infos = p.step(acts)
    steps += 1
ok(not p.agents and steps > 1, f"{kind}: ParallelEnv: agents leave when done ({steps} steps)")
ok(raises(ValueError, lambda: p.step({"tank.nobody": [0] * 5}), "tank.nobody"),
   f"{kind}: ParallelEnv: an unknown agent id: ValueError")
p.close()
# wrong arguments are Python errors, never a silent wrap or an AttributeError
v = botfield.VecEnv(MAP, worlds=2)
v.reset(1)
ok(raises(ValueError, lambda: v.reset_world(0, -1), "seed"),
   f"{kind}: reset_world with seed -1: ValueError (not wrapped to 2**64 - 1)")
ok(raises(ValueError, lambda: v.reset_world(0, 2 ** 70), "seed"),
   f"{kind}: reset_world with seed 2**70: ValueError (not wrapped)")
ok(raises(ValueError, lambda: v.agent_team(1), "agent"),
   f"{kind}: agent_team of no agent: ValueError")
ok(raises(ValueError, lambda: v.agent_team(2 ** 32), "agent"),
   f"{kind}: agent_team(2**32): ValueError (not agent 0's team)")
ok(raises(ValueError, lambda: v.record(0, os.path.join(os.environ["TMPD"], "x\0y.rec")), "NUL"),
   f"{kind}: a recording path with a NUL byte: ValueError (not cut there)")
v.close()
ok(raises(botfield.Error, lambda: v.agent_team(0), "closed"),
   f"{kind}: agent_team after close: botfield.Error")
ok(raises(ValueError, lambda: botfield.VecEnv(MAP + "\0.ini"), "NUL"),
   f"{kind}: a map path with a NUL byte: ValueError (not cut there)")
ok(raises(TypeError, lambda: botfield.VecEnv(MAP, set="map.duration=20"), "set"),
   f"{kind}: set given one string, not a list of them: TypeError")
# One actions buffer written in place step after step (as a policy does):
# each step reads what it holds then, and a bad value in it is still
# refused; done flags are new arrays each step, not one reused.
if np is not None:
    buf = np.zeros((2, 5), np.float32)
    w1 = botfield.VecEnv(MAP, worlds=2, auto_reset=False)
    w2 = botfield.VecEnv(MAP, worlds=2, auto_reset=False)
    w1.reset(5)
    w2.reset(5)
    same, dones = True, []
    for t in range(60):
        buf[:, 0] = math.sin(t / 5)
        buf[:, 1] = 1.0 if t < 30 else -1.0
        o1, r1, te1, tr1, _ = w1.step(buf)
        o2, r2, te2, tr2, _ = w2.step(buf.copy())
        same = same and (o1 == o2).all() and (r1 == r2).all()
        dones.append(te1)
    ok(same, "NumPy: one buffer written in place each step = a new array each step")
    dones[0][:] = True
    ok(not dones[1].any(), "NumPy: a step's done flags are its own array")
    buf.shape = (5, 2)
    ok(raises(ValueError, lambda: w1.step(buf), "shape"),
       "NumPy: the reused buffer reshaped in place: ValueError naming the shape")
    buf.shape = (2, 5)
    w3 = botfield.VecEnv(MAP, worlds=1)
    w3.reset(1)
    ok(raises(ValueError, lambda: w3.step(None), "shape"),
       "NumPy: a first step of None: ValueError, not AttributeError")
    w3.close()
    buf[0, 1] = float("nan")
    ok(raises(ValueError, lambda: w1.step(buf), "nan"),
       "NumPy: a NaN written into the reused buffer: ValueError")
    w1.close()
    w2.close()
print(f"1..{n}")
sys.exit(1 if failed else 0)
