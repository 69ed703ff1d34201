"""botfield for learning agents: libbotfield through ctypes (botfield-env(3)).

Three shapes over the same worlds:

  Env          one world, one agent: Gymnasium's reset(seed) and step(action)
  VecEnv       B worlds stepped in one call: arrays of B * A rows
  ParallelEnv  one world, several agents: PettingZoo's parallel API (dicts
               by agent id)

With NumPy the observations, rewards and flags are NumPy arrays that the
library writes in place (no copies: each step overwrites them; copy what
you keep); without NumPy they are plain lists.  Bad input raises
ValueError (shapes, types, NaN or out-of-range actions) or botfield.Error
(a map that does not load, an agent that names no vehicle, a finished
episode stepped): the C library's message, never a crash.
"""
import ctypes
import math
import os

try:
    import numpy as _np
except ImportError:             # plain lists then
    _np = None

__all__ = ["Env", "VecEnv", "ParallelEnv", "Error", "Box", "ACTIONS",
           "TERMINATED", "TRUNCATED", "obs_size"]

ACTIONS = 5                     # turn, speed, turret, fire, radar
ACTION_NAMES = ("turn", "speed", "turret", "fire", "radar")
OWN, ENEMY, SHELL = 12, 6, 5
TERMINATED, TRUNCATED = 1, 2
_MAX_WORLDS = 65536


class Error(RuntimeError):
    """The library refused a call: .code is its BF_E_* number."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def obs_size(nearest=4, rays=8):
    """The floats of one agent's observation."""
    return OWN + (ENEMY + SHELL) * nearest + rays


class _Config(ctypes.Structure):
    _fields_ = [("map", ctypes.c_char_p), ("agents", ctypes.c_char_p),
                ("worlds", ctypes.c_int), ("nearest", ctypes.c_int),
                ("rays", ctypes.c_int), ("weights", ctypes.POINTER(ctypes.c_double)),
                ("auto_reset", ctypes.c_int),
                ("set", ctypes.POINTER(ctypes.c_char_p)), ("nset", ctypes.c_int)]


_FLOATS = ctypes.POINTER(ctypes.c_float)
_BYTES = ctypes.POINTER(ctypes.c_uint8)
_lib = None


def _library_path():
    path = os.environ.get("BOTFIELD_LIBRARY")
    if path:
        return path
    # run from botfield's sources (PYTHONPATH=src/env/python): the library
    # built there, in the source folder or in build/
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..")
    for d in (".libs", os.path.join("build", ".libs")):
        p = os.path.join(top, d, "libbotfield.so")
        if os.path.exists(p) and not os.path.exists(os.path.join(os.path.dirname(__file__), "_where.py")):
            return os.path.normpath(p)
    try:
        from . import _where    # written by make install
        return _where.LIBRARY
    except ImportError:
        import ctypes.util
        return ctypes.util.find_library("botfield") or "libbotfield.so.0"


def _load():
    global _lib
    if _lib is not None:
        return _lib
    lib = ctypes.CDLL(_library_path())
    env_p = ctypes.c_void_p
    lib.bf_open.argtypes = [ctypes.POINTER(_Config), ctypes.POINTER(env_p),
                            ctypes.c_char_p, ctypes.c_size_t]
    lib.bf_close.argtypes = [env_p]
    lib.bf_close.restype = None
    for name in ("bf_worlds", "bf_agents", "bf_obs_size"):
        getattr(lib, name).argtypes = [env_p]
    lib.bf_agent_id.argtypes = [env_p, ctypes.c_int]
    lib.bf_agent_id.restype = ctypes.c_char_p
    lib.bf_agent_team.argtypes = [env_p, ctypes.c_int]
    lib.bf_agent_team.restype = ctypes.c_char_p
    lib.bf_reset.argtypes = [env_p, ctypes.c_int, ctypes.c_uint64, _FLOATS]
    lib.bf_step.argtypes = [env_p, _FLOATS, _FLOATS, _FLOATS, _BYTES]
    lib.bf_record.argtypes = [env_p, ctypes.c_int, ctypes.c_char_p]
    lib.bf_trace.argtypes = [env_p, ctypes.c_int, ctypes.c_char_p]
    lib.bf_winner.argtypes = [env_p, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p),
                              ctypes.POINTER(ctypes.c_long)]
    lib.bf_error.argtypes = [env_p]
    lib.bf_error.restype = ctypes.c_char_p
    _lib = lib
    return lib


def _int(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{name} = {value}: from {low} to {high}")
    return value


def _seed(seed):
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 64:
        raise ValueError(f"seed = {seed!r}: an int from 0 to 2**64 - 1")
    return seed


def _c(name, text):
    """text as a C string: a NUL byte would cut it short (another file)."""
    b = os.fsencode(text)
    if b"\0" in b:
        raise ValueError(f"{name}: {text!r} holds a NUL byte")
    return b


class Box:
    """A Gymnasium-like Box: low, high, shape, dtype, and sample()."""

    def __init__(self, low, high, shape, seed=None):
        self.low, self.high, self.shape, self.dtype = low, high, tuple(shape), "float32"
        import random
        self._rng = random.Random(seed)

    def sample(self):
        n = 1
        for d in self.shape:
            n *= d
        flat = [self._rng.uniform(self.low, self.high) for _ in range(n)]
        if _np is not None:
            return _np.array(flat, dtype=_np.float32).reshape(self.shape)
        return flat

    def contains(self, x):
        vals = list(_np.asarray(x).ravel()) if _np is not None else list(x)
        return len(vals) == math.prod(self.shape) and all(
            self.low <= v <= self.high for v in vals)

    def __repr__(self):
        return f"Box({self.low}, {self.high}, {self.shape}, float32)"


class VecEnv:
    """B worlds of one map, stepped in one call.  Rows are world by world,
    agent by agent: row b * agents + a is agent a of world b."""

    def __init__(self, map=None, worlds=1, agents=None, nearest=4, rays=8,
                 weights=None, auto_reset=True, set=()):
        _int("worlds", worlds, 1, _MAX_WORLDS)
        _int("nearest", nearest, 0, 16)
        _int("rays", rays, 0, 64)
        lib = _load()
        self._lib = lib
        self._env = None
        if isinstance(set, (str, bytes)):
            raise TypeError("set: a list of 'SECTION.KEY=VALUE' strings, not one string")
        sets = [_c("set", s) for s in set]
        self._keep = (ctypes.c_char_p * max(1, len(sets)))(*sets)
        w = None
        if weights is not None:
            weights = [float(x) for x in weights]
            if len(weights) != 4 or not all(math.isfinite(x) for x in weights):
                raise ValueError("weights: four finite numbers (damage, kills, survival, last)")
            w = (ctypes.c_double * 4)(*weights)
        self._w = w
        cfg = _Config(_c("map", map) if map else None,
                      _c("agents", agents) if isinstance(agents, str) else
                      _c("agents", ",".join(agents)) if agents else None,
                      worlds, nearest, rays,
                      ctypes.cast(w, ctypes.POINTER(ctypes.c_double)) if w else None,
                      1 if auto_reset else 0,
                      ctypes.cast(self._keep, ctypes.POINTER(ctypes.c_char_p)), len(sets))
        env = ctypes.c_void_p()
        err = ctypes.create_string_buffer(4096)
        rc = lib.bf_open(ctypes.byref(cfg), ctypes.byref(env), err, len(err))
        if rc:
            raise Error(rc, err.value.decode(errors="replace").strip())
        self._env = env
        self.worlds = lib.bf_worlds(env)
        self.agents_per_world = lib.bf_agents(env)
        self.obs_size = lib.bf_obs_size(env)
        self.agent_ids = [lib.bf_agent_id(env, a).decode()
                          for a in range(self.agents_per_world)]
        self.rows = self.worlds * self.agents_per_world
        self.observation_space = Box(-1.0, 1.0, (self.obs_size,))
        self.action_space = Box(-1.0, 1.0, (ACTIONS,))
        self._alloc()

    def _alloc(self):
        n, o = self.rows, self.obs_size
        if _np is not None:
            self._obs = _np.zeros((n, o), dtype=_np.float32)
            self._rew = _np.zeros(n, dtype=_np.float32)
            self._done = _np.zeros(n, dtype=_np.uint8)
            self._p = (self._obs.ctypes.data_as(_FLOATS), self._rew.ctypes.data_as(_FLOATS),
                       self._done.ctypes.data_as(_BYTES))
            self._none_done = bytes(n)
            self._a = self._a_ptr = None
        else:
            self._obs = (ctypes.c_float * (n * o))()
            self._rew = (ctypes.c_float * n)()
            self._done = (ctypes.c_uint8 * n)()
            self._act = (ctypes.c_float * (n * ACTIONS))()
            self._p = (ctypes.cast(self._obs, _FLOATS), ctypes.cast(self._rew, _FLOATS),
                       ctypes.cast(self._done, _BYTES))

    def _check(self, rc):
        if rc:
            msg = self._lib.bf_error(self._env).decode(errors="replace")
            if rc == -4:
                raise ValueError(msg)
            raise Error(rc, msg)

    def _live(self):
        if self._env is None:
            raise Error(-8, "the env is closed")

    def _out_obs(self):
        if _np is not None:
            return self._obs
        o = self.obs_size
        flat = list(self._obs)
        return [flat[r * o:(r + 1) * o] for r in range(self.rows)]

    def reset(self, seed=0, options=None):
        """Every world again, world k with seed + k: the observations."""
        self._live()
        self._check(self._lib.bf_reset(self._env, -1, _seed(seed), self._p[0]))
        return self._out_obs()

    def reset_world(self, b, seed):
        """World b alone, with seed; its rows of the observations updated."""
        self._live()
        _int("world", b, 0, self.worlds - 1)
        self._check(self._lib.bf_reset(self._env, b, _seed(seed), self._p[0]))
        return self._out_obs()

    def _actions(self, actions):
        if _np is not None:
            # the array of the last step again (a policy writing into one
            # buffer): its pointer is kept, as it is while we hold it
            # (its shape as it was then: one changed in place or resized
            # goes the whole way, checked again and its pointer taken anew)
            if self._a is not None and actions is self._a and actions.dtype == _np.float32 \
                    and actions.shape == self._a_shape and actions.flags.c_contiguous:
                return self._a_ptr
            a = _np.asarray(actions)
            if a.shape != (self.rows, ACTIONS) and a.shape != (self.rows * ACTIONS,):
                raise ValueError(f"actions: shape {a.shape}, expected ({self.rows}, {ACTIONS})")
            if a.dtype.kind not in "fiu":
                raise TypeError(f"actions: numbers, not {a.dtype}")
            a = _np.ascontiguousarray(a, dtype=_np.float32)   # no copy when it is so
            self._a, self._a_ptr, self._a_shape = a, a.ctypes.data_as(_FLOATS), a.shape
            return self._a_ptr
        flat = []
        for row in actions:
            row = list(row)
            if len(row) != ACTIONS:
                raise ValueError(f"actions: each row has {ACTIONS} numbers, not {len(row)}")
            flat.extend(row)
        if len(flat) != self.rows * ACTIONS:
            raise ValueError(f"actions: {len(flat) // ACTIONS} rows, expected {self.rows}")
        for k, v in enumerate(flat):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise TypeError(f"actions: row {k // ACTIONS}: {type(v).__name__} is no number")
            self._act[k] = v
        return ctypes.cast(self._act, _FLOATS)

    def step(self, actions):
        """One tick of every world: (obs, rewards, terminated, truncated, infos)."""
        self._live()
        p = self._actions(actions)
        rc = self._lib.bf_step(self._env, p, *self._p)
        record_error = None
        if rc == -7:
            # the worlds stepped; a recording or trace could not be written:
            # the step's results are kept, the error said
            record_error = self._lib.bf_error(self._env).decode(errors="replace")
            import warnings
            warnings.warn(f"botfield: {record_error}", RuntimeWarning, stacklevel=2)
        else:
            self._check(rc)
        if _np is not None and self._done.tobytes() == self._none_done:
            # (most steps end no episode: NumPy's operators cost more than
            # the step itself at B = 1)
            term = _np.zeros(self.rows, dtype=bool)
            trunc = _np.zeros(self.rows, dtype=bool)
            ended = ()
        elif _np is not None:
            term = (self._done & TERMINATED) != 0
            trunc = (self._done & TRUNCATED) != 0
            ended = _np.flatnonzero(term | trunc)
        else:
            d = list(self._done)
            term = [bool(x & TERMINATED) for x in d]
            trunc = [bool(x & TRUNCATED) for x in d]
            ended = [k for k, x in enumerate(d) if x]
        infos = self._infos(ended)
        if record_error:
            infos["record_error"] = record_error
        return self._obs if _np is not None else self._out_obs(), \
            self._rew if _np is not None else list(self._rew), term, trunc, infos

    def _infos(self, rows):
        """{"winner": {world: team}} for the worlds whose episode ended
        (every agent's row done: an agent knocked out while its team plays
        on has its own row done alone), kept over an auto_reset; "" a tie."""
        if not len(rows):
            return {}
        per = self.agents_per_world
        count = {}
        for r in rows:
            count[int(r) // per] = count.get(int(r) // per, 0) + 1
        worlds = sorted(b for b, n in count.items() if n == per)
        return {"winner": {b: self.winner(b)[0] for b in worlds}} if worlds else {}

    def record(self, world, path):
        """Records world's episode from its start (right after a reset) into
        path; botfield --replay PATH shows it."""
        self._live()
        self._check(self._lib.bf_record(self._env, _int("world", world, 0, self.worlds - 1),
                                        _c("path", path)))

    def trace(self, world, path):
        """World's episode as botfield --headless's trace (state every tick)."""
        self._live()
        self._check(self._lib.bf_trace(self._env, _int("world", world, 0, self.worlds - 1),
                                       _c("path", path)))

    def winner(self, world=0):
        """World's winning team so far ("": none or a tie), and its tick."""
        self._live()
        team, tick = ctypes.c_char_p(), ctypes.c_long()
        self._check(self._lib.bf_winner(self._env, _int("world", world, 0, self.worlds - 1),
                                        ctypes.byref(team), ctypes.byref(tick)))
        return team.value.decode(), tick.value

    def agent_team(self, a):
        self._live()
        a = _int("agent", a, 0, self.agents_per_world - 1)
        return self._lib.bf_agent_team(self._env, a).decode()

    def close(self):
        if self._env is not None:
            self._lib.bf_close(self._env)
            self._env = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


class Env:
    """One world, one agent, Gymnasium's calls: reset(seed) -> (obs, info);
    step(action) -> (obs, reward, terminated, truncated, info)."""

    def __init__(self, map=None, agent=None, **kw):
        kw.setdefault("auto_reset", False)
        self._v = VecEnv(map=map, worlds=1, agents=agent, **kw)
        # the one row of actions, written in place each step (VecEnv keeps
        # its pointer: no NumPy checks and cast a step)
        self._row = _np.zeros((1, ACTIONS), dtype=_np.float32) if _np is not None else None
        if self._v.agents_per_world != 1:
            n = self._v.agents_per_world
            self._v.close()
            raise ValueError(f"Env drives one agent; {n} are named (ParallelEnv drives several)")
        self.observation_space = self._v.observation_space
        self.action_space = self._v.action_space
        self.agent_id = self._v.agent_ids[0]

    def reset(self, seed=None, options=None):
        seed = 0 if seed is None else seed
        obs = self._v.reset(seed)
        return obs[0], {"seed": seed}

    def step(self, action):
        if _np is not None:
            a = _np.asarray(action)
            if a.shape != (ACTIONS,):
                raise ValueError(f"action: shape {a.shape}, expected ({ACTIONS},)")
            if a.dtype.kind not in "fiu":
                raise TypeError(f"action: numbers, not {a.dtype}")
            self._row[0] = a
            action = self._row
        else:
            action = [list(action)]
        obs, rew, term, trunc, _ = self._v.step(action)
        info = {}
        if term[0] or trunc[0]:
            info["winner"] = self._v.winner(0)[0]
        return obs[0], float(rew[0]), bool(term[0]), bool(trunc[0]), info

    def record(self, path):
        self._v.record(0, path)

    def trace(self, path):
        self._v.trace(0, path)

    def close(self):
        self._v.close()


class ParallelEnv:
    """One world, several agents, PettingZoo's parallel API: dicts by agent
    id.  An agent knocked out leaves `agents`; the episode ends with all."""

    metadata = {"name": "botfield", "is_parallelizable": True}

    def __init__(self, map=None, agents=None, **kw):
        kw.setdefault("auto_reset", False)
        self._v = VecEnv(map=map, worlds=1, agents=agents, **kw)
        self.possible_agents = list(self._v.agent_ids)
        self.agents = []
        self._spaces = {a: (self._v.observation_space, self._v.action_space)
                        for a in self.possible_agents}

    def observation_space(self, agent):
        return self._spaces[agent][0]

    def action_space(self, agent):
        return self._spaces[agent][1]

    def reset(self, seed=None, options=None):
        obs = self._v.reset(0 if seed is None else seed)
        self.agents = list(self.possible_agents)
        return ({a: obs[k] for k, a in enumerate(self.possible_agents)},
                {a: {} for a in self.possible_agents})

    def step(self, actions):
        if not isinstance(actions, dict):
            raise TypeError("actions: a dict by agent id")
        unknown = set(actions) - set(self.possible_agents)
        if unknown:
            raise ValueError(f"actions: no such agent {sorted(unknown)[0]!r}")
        rows = []
        for a in self.possible_agents:
            act = actions.get(a)
            if act is None:
                act = [0.0, -1.0, 0.0, -1.0, 0.0]       # a gone agent holds still
            rows.append(list(_np.asarray(act, dtype=_np.float32).ravel())
                        if _np is not None else list(act))
        if _np is not None:
            rows = _np.asarray(rows, dtype=_np.float32)
        obs, rew, term, trunc, _ = self._v.step(rows)
        live = list(self.agents)
        out = ({a: obs[k] for k, a in enumerate(self.possible_agents) if a in live},
               {a: float(rew[k]) for k, a in enumerate(self.possible_agents) if a in live},
               {a: bool(term[k]) for k, a in enumerate(self.possible_agents) if a in live},
               {a: bool(trunc[k]) for k, a in enumerate(self.possible_agents) if a in live},
               {a: {} for a in live})
        self.agents = [a for a in live if not (out[2][a] or out[3][a])]
        return out

    def record(self, path):
        self._v.record(0, path)

    def close(self):
        self._v.close()
