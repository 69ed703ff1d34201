/* ladder_impl.h — what ladder.c (the options, --ladder) and sprt_run.c
 * (--sprt) share. */
#ifndef BOTFIELD_LADDER_IMPL_H
#define BOTFIELD_LADDER_IMPL_H

#include <stdint.h>

#include "games.h"

/* Games in one command at most: as --seeds' runs (tour_impl.h). */
#define LADDER_MAX_GAMES 1000000L

struct ladder_options {
    int ladder, sprt, chart;
    const char *map, *csv, *anchor;
    const char *games;          /* --games FILE: the results read, not played */
    int has_seeds;
    uint64_t lo, hi;            /* --seeds lo-hi */
    long jobs, max_games;
    double elo0, elo1, alpha, beta;
    int nbots;
    char **bots;                /* the operands, as given */
};

/* The processes at a time: --jobs, or the number of cores. */
long ladder_jobs(const struct ladder_options *o);

/* The games played (0, or 1 when a process could not start), or with
 * --games read from game lines played elsewhere (0, or 2). */
int ladder_play(const struct ladder_options *o, const struct games_setup *s,
                const struct game *games, long n, game_done_fn done, void *ctx);

/* --sprt once the options and the map are read: its exit status. */
int sprt_run(const struct ladder_options *o, const struct games_setup *s);

#endif
