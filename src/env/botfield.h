/* botfield.h — botfield as a library for learning agents (libbotfield;
 * botfield-env(3) is the reference).
 *
 * bf_open() makes B worlds of one map; bf_step() steps them all with one
 * call: the agents' actions in, their observations, rewards and done
 * flags out, in arrays the caller owns (nothing is allocated per step).
 * Every vehicle the caller does not drive runs its built-in behaviour or
 * its Lua bot, as in botfield(6).  An episode can be recorded and replayed
 * in the viewer (botfield --replay FILE).
 *
 * The calls return BF_OK (0) or a negative BF_E_* code; bf_error() says
 * what, where and what is allowed.  An env is used from one thread at a
 * time; several envs may run on several threads. */
#ifndef BOTFIELD_LIB_H
#define BOTFIELD_LIB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BF_ABI_VERSION 1

enum bf_code {
    BF_OK = 0,
    BF_E_ARG = -1,      /* a bad argument: NULL, a count out of range */
    BF_E_MAP = -2,      /* the map does not load (bf_error: its problems) */
    BF_E_AGENT = -3,    /* an agent names no vehicle, or one that cannot
                           be driven */
    BF_E_ACTION = -4,   /* an action is NaN, infinite or outside [-1, 1];
                           nothing was stepped */
    BF_E_DONE = -5,     /* a world's episode is over: bf_reset() it first
                           (or open with auto_reset); nothing was stepped */
    BF_E_NOMEM = -6,    /* out of memory */
    BF_E_RECORD = -7,   /* the recording cannot be written */
    BF_E_STATE = -8     /* a call out of order: a recording or trace asked
                           for after the first step or twice, or a world
                           whose last reset failed (it has no episode) */
};

/* The most worlds one env holds, K nearest, and rays. */
#define BF_MAX_WORLDS 65536
#define BF_MAX_NEAREST 16
#define BF_MAX_RAYS 64

/* Actions per agent, each in [-1, 1]:
 *   0 turn    the hull's turn, a fraction of its turn_rate (+: clockwise)
 *   1 speed   -1 stopped .. 1 its cruising speed (speed = (a + 1) / 2 of it)
 *   2 turret  the turret's turn, a fraction of its turret_rate (+: clockwise)
 *   3 fire    > 0: fire when loaded, along the turret
 *   4 radar   the radar's turn, a fraction of its radar_rate (sensor = radar) */
#define BF_ACTIONS 5

/* The observation of an agent: BF_OWN floats of its own state, then K
 * enemies (BF_ENEMY each), K shells (BF_SHELL each), then R rays; its
 * length is bf_obs_size().  botfield-env(3) lists every float. */
#define BF_OWN 12
#define BF_ENEMY 6
#define BF_SHELL 5

/* done flags, per agent */
#define BF_TERMINATED 1     /* knocked out (in a match of rounds: the match
                               over), or the episode is won or lost */
#define BF_TRUNCATED 2      /* the map's duration ran out */

struct bf_config {
    const char *map;        /* a map file (botfield(6)); NULL: the built-in */
    const char *agents;     /* vehicles the caller drives, comma-separated:
                               ids (tank.me) or team.NAME; NULL or "": the
                               map's player tank */
    int worlds;             /* B: 1 .. BF_MAX_WORLDS */
    int nearest;            /* K: 0 .. BF_MAX_NEAREST (-1: 4) */
    int rays;               /* R: 0 .. BF_MAX_RAYS (-1: 8) */
    /* the reward: the agent's score fields gained this step, weighted:
     * damage, kills, survival, last (botfield(6), SCORES); NULL: the
     * score's own weights, 10 20 5 10 */
    const double *weights;
    int auto_reset;         /* 1: a world whose episode ends is reset at
                               once (the next seed), and its observation is
                               the new episode's first */
    const char *const *set; /* SECTION.KEY=VALUE, as --set; NULL: none */
    int nset;
};

struct bf_env;

/* A new env: 0 with *out set (bf_close it), or an error with *out NULL
 * and err (when not NULL) holding the message (at most errlen bytes). */
int bf_open(const struct bf_config *c, struct bf_env **out, char *err, size_t errlen);
void bf_close(struct bf_env *env);

int bf_worlds(const struct bf_env *env);        /* B */
int bf_agents(const struct bf_env *env);        /* A, agents a world */
int bf_obs_size(const struct bf_env *env);      /* floats an agent */
/* Agent a's vehicle id ("tank.me"); NULL out of range. */
const char *bf_agent_id(const struct bf_env *env, int a);

/* Starts world b's episode again with `seed` (b = -1: every world, world
 * k with seed + k), and writes its agents' observations into obs (B * A *
 * obs_size floats, world by world, agent by agent; NULL: none). */
int bf_reset(struct bf_env *env, int b, uint64_t seed, float *obs);

/* One tick of every world: actions (B * A * BF_ACTIONS) in; obs (B * A *
 * obs_size), rewards (B * A) and dones (B * A, BF_TERMINATED |
 * BF_TRUNCATED) out (any may be NULL).  A bad action, a world already
 * done without auto_reset, or a world without an episode steps nothing.
 * BF_E_NOMEM (a world could not step, or its auto_reset failed) or
 * BF_E_RECORD (a recording or trace could not be written) come after
 * every other world stepped: the first world's error, a BF_E_RECORD only
 * when nothing worse happened. */
int bf_step(struct bf_env *env, const float *actions, float *obs, float *rewards,
            uint8_t *dones);

/* Records world b's episode, from its start, into `file` (the viewer's
 * --replay reads it): called after bf_reset and before its first step.
 * The recording ends with the episode (or the next reset, or close). */
int bf_record(struct bf_env *env, int b, const char *file);
/* World b's episode as a headless run's trace (botfield(6), HEADLESS
 * OUTPUT), state lines every tick: byte for byte the trace of
 * `botfield --headless --replay` of its recording. Called as bf_record. */
int bf_trace(struct bf_env *env, int b, const char *file);

/* World b's result: its winning team's name ("" none yet, or a tie), and
 * its tick: of the episode running (a stop now: the team of the highest
 * score), or, right after auto_reset began the next, of the one that
 * ended.  *team is valid until the next call on the env. */
int bf_winner(const struct bf_env *env, int b, const char **team, long *tick);
/* Agent a's team name (the same in every world; "" none: a car); NULL
 * when a is out of range or no world has an episode. */
const char *bf_agent_team(const struct bf_env *env, int a);

/* The message of the env's last error ("" none). */
const char *bf_error(const struct bf_env *env);

#ifdef __cplusplus
}
#endif

#endif
