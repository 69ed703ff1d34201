/* ladder_impl.h — the ladder engine's state, shared by ladder_run.c (the
 * matches: pairing, children, reaping) and ladder_store.c (the results,
 * the ratings, the files and what the commands print). */
#ifndef BOTFIELD_ARENA_LADDER_IMPL_H
#define BOTFIELD_ARENA_LADDER_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include <jansson.h>

#include "ladder_run.h"
#include "private.h"
#include "store.h"
#include "tour/games.h"
#include "tour/ratings.h"

#define LADDER_NAME 33          /* [a-z0-9_-]{1,32} and its NUL */
#define LADDER_SHA 13           /* the version: 12 hex of the script's sha256 */
#define LADDER_LOG_LINES 200    /* a bot's log keeps its last lines */

/* A rating identity: one version of a bot (a new submission is a new
 * identity; the old one's results stay in the history). */
struct lbot {
    char person[LADDER_NAME], name[LADDER_NAME], sha[LADDER_SHA];
    int current;                /* the version in bots/ now */
    time_t submitted;           /* the script's mtime (current only) */
    struct rating r;            /* from the last fit */
    int rated;                  /* r is from a fit that knew it */
    long played;                /* its matches in results.jsonl, failed
                                   ones not (the fit may not know them yet) */
};

/* One finished match (results.jsonl). */
struct lresult {
    long id;
    int map;                    /* index into the settings' maps */
    uint64_t seed;
    int rounds;
    int bot[2];                 /* identities on team 0 and team 1 */
    int winner;                 /* 0, 1, -1 a draw, -2 failed */
    long score[2];
    char *failed;               /* why, for a failed match */
};

/* One of the maps, read once. */
struct lmap {
    char *path;                 /* dir/file */
    struct games_setup g;       /* its two teams and its vehicles' bot keys */
    double seconds;             /* its duration */
    double tick_rate;
    long budget, memory_kib;    /* its bots' strictest bot_budget, bot_memory */
};

/* A match being played (or waiting: pid 0). */
struct lmatch {
    long id;
    int map;
    uint64_t seed;
    int bot[2];
    pid_t pid;
    int live;                   /* paced at the map's tick_rate */
    struct timespec start;
    double wall;                /* seconds before it is killed */
};

struct arena_ladder {
    const struct arena_settings *s;
    const char *maps_dir;
    char *dir;
    struct lmap *maps;
    int nmaps;
    struct lbot *bots;
    int nbots, capbots;
    int *hash;                  /* identities by key: open addressing, -1 free */
    int hcap;
    struct lresult *res;
    long nres, capres;
    long failed;
    long next_id;               /* the next pair's first match */
    struct lmatch *run;         /* running and queued matches */
    int nrun, caprun;
    int workers;
    int refit;                  /* the ratings are stale */
    pid_t fit_pid;              /* the refit's child (ladder_fit.c), 0 none */
    int fit_fd, fit_n;          /* its pipe; how many identities it fits */
    char *fit_buf;              /* the ratings it hands back */
    size_t fit_got;
};

/* ladder_store.c */
int ladder_bot_find(struct arena_ladder *l, const char *person, const char *name,
                    const char *sha, int add);
int ladder_scan_bots(struct arena_ladder *l, char **err);
int ladder_scan_one(struct arena_ladder *l, const char *person, const char *name);
int ladder_read_results(struct arena_ladder *l, char **err);
int ladder_append_result(struct arena_ladder *l, const struct lresult *r);
int ladder_fit(struct arena_ladder *l);
int ladder_write_json(struct arena_ladder *l);
int *ladder_ranked(struct arena_ladder *l, int *n);
json_t *ladder_json(struct arena_ladder *l);
void ladder_bot_key(const struct lbot *b, char *out, size_t n);
/* ladder_fit.c */
int ladder_fit_start(struct arena_ladder *l);
void ladder_fit_poll(struct arena_ladder *l, int block);

/* ladder_text.c */
void ladder_finish(struct arena_ladder *l, const struct lmatch *m, int status);

#endif
