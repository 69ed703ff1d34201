"""Train a small policy on a botfield map and play it as a bot.

    python3 -m botfield.train [MAP] [--out DIR] [--generations N] ...

A linear policy (action = tanh(W obs + b), 5 x (obs + 1) numbers) trained by
evolution strategies (antithetic pairs, ranked returns) in NumPy, over
many worlds stepped at once through libbotfield.  Then it is measured
against a random policy on 200 seeds it never trained on (wins with a 95%
Wilson interval), and written to DIR as a Lua bot (DIR/policy.lua, its
weights a table, reading agent.observe() and acting with agent.act()) and
a copy of the map whose agent runs it (DIR/map.ini): `botfield DIR/map.ini`
shows it in the viewer (botfield-env(3), THE EXAMPLE).
"""
import argparse
import math
import os
import sys
import time

import botfield

try:
    import numpy as np
except ImportError:
    sys.exit("botfield.train: NumPy is needed (Debian: apt-get install python3-numpy)")

MAPS = os.environ.get("BOTFIELD_MAPS", "")


def default_map():
    for d in (MAPS, os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "maps")):
        p = os.path.join(d, "learn.ini")
        if d and os.path.exists(p):
            return p
    try:
        from . import _where
        return os.path.join(_where.MAPS, "learn.ini")
    except (ImportError, AttributeError):
        sys.exit("botfield.train: name the map (maps/learn.ini of botfield's sources)")


def act(theta, obs):
    """Actions of each world's policy: theta (B, 5, O + 1), obs (B, O)."""
    o = obs.shape[1]
    return np.tanh(np.einsum("bij,bj->bi", theta[:, :, :o], obs) + theta[:, :, o])


def first_episodes(env, policy, seed, steps):
    """The return and the winner of each world's first episode, its
    actions policy(obs) (rows of the worlds' observations)."""
    obs = env.reset(seed)
    total = np.zeros(env.worlds)
    live = np.ones(env.worlds, dtype=bool)
    winners = [""] * env.worlds
    for _ in range(steps):
        obs, r, term, trunc, info = env.step(policy(obs).astype(np.float32))
        total += np.where(live, r, 0.0)
        ended = (term | trunc) & live
        for b in np.flatnonzero(ended):
            winners[b] = info["winner"][int(b)]
        live &= ~ended
        if not live.any():
            break
    return total, winners


def wilson(k, n, z=1.96):
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def evaluate(mapp, theta, seeds, steps, team, rng=None):
    """Wins of theta's policy (None: uniformly random actions) on seeds."""
    env = botfield.VecEnv(mapp, worlds=len(seeds), auto_reset=True)
    if theta is None:
        policy = lambda obs: rng.uniform(-1, 1, size=(env.worlds, 5))
    else:
        many = np.repeat(theta[None], env.worlds, 0)
        policy = lambda obs: act(many, obs)
    _, winners = first_episodes(env, policy, seeds[0], steps)
    env.close()
    return sum(w == team for w in winners)


def lua_bot(theta, nearest, rays):
    rows = ",\n".join("  {" + ", ".join(repr(float(x)) for x in row) + "}" for row in theta)
    return f"""-- A policy trained by botfield.train (botfield-env(3)): action =
-- tanh(W obs + b), obs = agent.observe({nearest}, {rays}), the numbers the
-- library gave it while it learnt.
local W = {{
{rows}
}}
local n = #W[1] - 1

function tick(me, world, mem, out)
  local obs = agent.observe({nearest}, {rays})
  local a = {{}}
  for i = 1, 5 do
    local s = W[i][n + 1]
    for j = 1, n do s = s + W[i][j] * obs[j] end
    local e = math.exp(-2 * math.abs(s))
    local t = (1 - e) / (1 + e)
    a[i] = s < 0 and -t or t
  end
  agent.act(out, a)
end
"""


def write_bot(out, mapp, theta, agent, nearest, rays):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "policy.lua"), "w") as f:
        f.write(lua_bot(theta, nearest, rays))
    # the map, its agent driven by the policy (its bot key set, no player)
    section = "[" + agent + "]"
    lines, inside = [], False
    with open(mapp) as f:
        for line in f:
            s = line.strip()
            if s.startswith("["):
                if inside:
                    lines.append("bot = policy.lua\n")
                inside = s == section
            if inside and s.replace(" ", "").startswith(("player=", "bot=")):
                continue
            lines.append(line)
    if inside:
        lines.append("bot = policy.lua\n")
    with open(os.path.join(out, "map.ini"), "w") as f:
        f.writelines(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m botfield.train", description=__doc__.split("\n")[0])
    ap.add_argument("map", nargs="?", help="the map (default: the bundled learn.ini)")
    ap.add_argument("--out", default="trained", help="where the bot goes (default: ./trained)")
    ap.add_argument("--generations", type=int, default=150)
    ap.add_argument("--pairs", type=int, default=16, help="antithetic pairs a generation")
    ap.add_argument("--episodes", type=int, default=4, help="episodes per member")
    ap.add_argument("--sigma", type=float, default=0.1)
    ap.add_argument("--lr", type=float, default=0.1)
    ap.add_argument("--eval", type=int, default=200, help="seeds of the evaluation")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    # numbers the run cannot use: a usage error, not a traceback later
    for name, ok in (("--generations", a.generations >= 0), ("--pairs", a.pairs >= 1),
                     ("--episodes", a.episodes >= 1), ("--eval", 1 <= a.eval <= 65536),
                     ("--sigma", 0 < a.sigma < math.inf), ("--lr", math.isfinite(a.lr)),
                     ("--pairs * --episodes", 2 * a.pairs * a.episodes <= 65536)):
        if not ok:
            ap.error(f"{name}: out of range (generations >= 0, pairs and episodes >= 1, "
                     f"2 * pairs * episodes and eval from 1 to 65536, sigma > 0)")
    mapp = a.map or default_map()
    t0 = time.time()
    env = botfield.VecEnv(mapp, worlds=2 * a.pairs * a.episodes, auto_reset=True)
    agent, team = env.agent_ids[0], env.agent_team(0)
    O, steps = env.obs_size, 1_000_000
    rng = np.random.default_rng(a.seed)
    theta = np.zeros((5, O + 1))
    P, E = a.pairs, a.episodes
    for g in range(a.generations):
        eps = rng.standard_normal((P, 5, O + 1))
        pop = np.concatenate([theta + a.sigma * eps, theta - a.sigma * eps])
        members = np.repeat(pop, E, 0)
        ret, winners = first_episodes(env, lambda obs: act(members, obs), 1000 + g * env.worlds,
                                      steps)
        fit = ret.reshape(2 * P, E).mean(1)
        rank = np.empty(2 * P)
        rank[np.argsort(fit)] = np.arange(2 * P)
        rank = rank / (2 * P - 1) - 0.5
        theta += a.lr / (P * a.sigma) * np.einsum("p,pij->ij", rank[:P] - rank[P:], eps)
        if g % 10 == 0 or g == a.generations - 1:
            wins = sum(w == team for w in winners) / len(winners)
            print(f"generation {g:3d}: mean return {ret.mean():7.2f}, wins {wins:.2f}, "
                  f"{time.time() - t0:5.1f} s", flush=True)
    env.close()
    seeds = list(range(10 ** 6, 10 ** 6 + a.eval))
    k_t = evaluate(mapp, theta, seeds, steps, team)
    k_r = evaluate(mapp, None, seeds, steps, team, np.random.default_rng(a.seed + 1))
    lo_t, hi_t = wilson(k_t, a.eval)
    lo_r, hi_r = wilson(k_r, a.eval)
    print(f"trained: {k_t}/{a.eval} wins ({lo_t:.2f}-{hi_t:.2f}, 95%); "
          f"random: {k_r}/{a.eval} ({lo_r:.2f}-{hi_r:.2f}) on seeds it never trained on")
    write_bot(a.out, mapp, theta, agent, 4, 8)
    print(f"{time.time() - t0:.0f} s in all; the bot: {a.out}/policy.lua; watch it: "
          f"botfield {a.out}/map.ini")
    return 0 if k_t > k_r else 1


if __name__ == "__main__":
    sys.exit(main())
