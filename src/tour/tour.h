/* tour.h — tournaments and sweeps: one headless battle per seed (and per
 * value of a swept setting), run in a pool of processes, each run's
 * summary line and the aggregate of them all (botfield(6), TOURNAMENTS).
 *
 * main.c hands the options below to tour_option() and, once they are
 * read, calls tour_main(); everything else lives in this folder:
 *   options.c    the options, the sweep's combinations
 *   runner.c     the pool of child processes, results in seed order
 *   aggregate.c  run lines read back (also from files: --aggregate) and
 *                the aggregate line; stats.c its formulas
 *   csv.c        --csv;  chart.c  --chart */
#ifndef BOTFIELD_TOUR_H
#define BOTFIELD_TOUR_H

#include <stdint.h>
#include <stdio.h>

#include "io/map.h"

/* The options' codes for tour_option() (the table in cli_options.c). */
enum { TOUR_OPT_SEEDS = 512, TOUR_OPT_SET, TOUR_OPT_JOBS, TOUR_OPT_CSV,
       TOUR_OPT_CHART, TOUR_OPT_AGGREGATE };

/* One --set: its key and its value, or its list of values (a sweep). */
struct tour_set {
    const char *key;
    char **values;
    int nvalues;
};

struct tour_options {
    int given;                  /* any option of this file */
    int has_seeds, aggregate, chart;
    uint64_t lo, hi;            /* --seeds lo-hi */
    long jobs;                  /* 0: the number of cores */
    const char *csv;
    struct tour_set *sets; int nsets;
    struct map_set *one;        /* the single values as map settings */
};

/* What else the command line said, for the runs (the options were
 * checked against each other by then: cli_options.c). */
struct tour_cli {
    int ascii;
    long ticks;                 /* --ticks, or -1 */
    double seconds;             /* --seconds, or -1 */
    int nargs;                  /* the operands: the map, or --aggregate's files */
    char **args;
    const char *maps_dir;       /* where the bundled bots are */
    const char *record;         /* --record DIR: a recording per run, or NULL */
};

/* Reads one option: 0, or 2 after saying what is wrong. */
int tour_option(struct tour_options *t, int code, const char *arg);

/* A tournament or --aggregate: its exit status.  -1 when the options ask
 * for neither (only --set): `map` then carries the settings for the
 * ordinary run. */
int tour_main(struct tour_options *t, const struct tour_cli *cli,
              struct map_options *map);

#endif
