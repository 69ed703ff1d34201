/* env_impl.h — libbotfield's inside: an env of B worlds (env.c) and the
 * observations of its agents (observe.c). */
#ifndef BOTFIELD_ENV_IMPL_H
#define BOTFIELD_ENV_IMPL_H

#include <stdio.h>

#include "botfield.h"
#include "core/score.h"
#include "core/world.h"
#include "io/map.h"
#include "run/headless.h"
#include "run/recording.h"
#include "run/session.h"

/* The bot key an agent's vehicle is given (a name, never read as a file):
 * a recording's replay drives it by the recorded intents. */
#define ENV_AGENT_BOT "agent.lua"

struct env_world {
    struct world w;
    int loaded;
    struct bot_world *bots;
    struct session s;
    struct recording rec;       /* rec.f NULL: not recording */
    struct headless_trace tr;   /* tr.f NULL: no trace */
    uint64_t seed;
    int done;                   /* the episode is over */
    int stepped;                /* steps since its reset */
    struct score_sum *last;     /* per agent: its score fields so far */
    /* the last episode's result, kept over an auto_reset */
    char winner[TEAM_NAME_MAX];
    long end_tick;
};

struct bf_env {
    char *map_path;             /* NULL: the built-in map */
    char *text;                 /* the map's text, read once */
    size_t len;
    struct map_kept *kept;      /* it read and checked, built at each reset */
    struct map_set *sets;       /* the caller's, then the agents' */
    char **set_mem;             /* the strings they point into */
    int nset, nset_mem;
    int B, A, K, R, O;
    int *veh;                   /* per agent: its vehicle index */
    char **ids;                 /* per agent: its vehicle id */
    double weights[4];
    int auto_reset;
    struct env_world *worlds;
    char err[2048];
};


#endif
