/* tour_impl.h — what the files of src/tour/ share (not main.c's API). */
#ifndef BOTFIELD_TOUR_IMPL_H
#define BOTFIELD_TOUR_IMPL_H

#include <stddef.h>
#include <stdio.h>

#include "tour.h"

/* Runs in one command, seeds times combinations: what one machine does in
 * hours; beyond it, botfield-parallel splits the range. */
#define TOUR_MAX_RUNS 1000000

/* ---- options.c ---------------------------------------------------------- */

/* Combinations of the --set values (1 without a list). */
long tour_combos(const struct tour_options *t);
/* The settings of combination c into out (t->nsets of them): their count. */
int tour_combo_sets(const struct tour_options *t, long combo, struct map_set *out);

/* ---- runner.c ----------------------------------------------------------- */

/* Every run of the tournament in a pool of processes, then the output:
 * the exit status (0; 1 when a run failed or output could not be written). */
int tour_run(struct tour_options *t, const struct tour_cli *cli);

/* ---- aggregate.c -------------------------------------------------------- */

struct agg;
struct agg *agg_new(void);
void agg_free(struct agg *a);
/* One line of run output (a "run" line; an "aggregate" line is skipped):
 * 0, or -1 with *why saying what is wrong (malloc'd). */
int agg_add(struct agg *a, const char *line, char **why);
/* Prints the runs in order of their settings' first appearance and of
 * seed, each group followed by its aggregate line; or, with --chart, the
 * chart; and writes --csv.  The exit status: 0, 1 when a run failed or
 * an output could not be written, 2 when a seed of a group came twice. */
int agg_finish(struct agg *a, const struct tour_options *t, int ascii);
/* A tournament's runs arrive in order: prints the last group's runs not
 * yet printed and, when group_complete, its aggregate (nothing with
 * --chart), so output streams; agg_finish then prints the rest, the same
 * bytes in all.  0, or -1 when output failed. */
int agg_emit(struct agg *a, const struct tour_options *t, int group_complete);
/* --aggregate FILE...: the files' run lines through agg_add. */
int tour_aggregate_files(struct tour_options *t, const struct tour_cli *cli);

/* ---- stats.c ------------------------------------------------------------ */

struct interval { double p, lo, hi; };     /* k/n and its 95% interval */
/* The Wilson score interval of k successes in n trials (n > 0). */
struct interval wilson95(long k, long n);
/* Mean and sample standard deviation of x[0..n) (sd 0 when n < 2). */
void mean_sd(const double *x, long n, double *mean, double *sd);
/* The 95% Student's t interval of the mean of x[0..n), n >= 2: p is the
 * mean. */
struct interval mean95(const double *x, long n);

/* ---- name_index.c ------------------------------------------------------- */

/* Names, or pairs of names (sub NULL: a name alone), to indices: a hash
 * table that does not own the names. */
struct name_slot { const char *name, *sub; int index; };
struct name_index { struct name_slot *slot; size_t cap, n; };
/* The index stored for (name, sub), or -1. */
int name_find(const struct name_index *x, const char *name, const char *sub);
/* Stores (name, sub), not yet in x, as index: 0, or -1 out of memory. */
int name_add(struct name_index *x, const char *name, const char *sub, int index);
void name_index_free(struct name_index *x);

/* ---- what the aggregate line says, for csv.c and chart.c --------------- */

struct team_stat { char *name; long wins; struct interval iv; };

struct group_stat {
    char *label;                /* "team.red.turn_rate=20 sight.method=exact" */
    char **keys, **values; int nkeys;   /* its settings */
    long runs, failed, ok, draws;
    struct interval draw_iv;
    struct team_stat *teams; int nteams;
};

/* ---- chart.c, csv.c ----------------------------------------------------- */

/* The chart of the groups, 80 columns, on f: braille when utf8. */
int chart_draw(FILE *f, const struct group_stat *g, int ng, int utf8);

struct json_t;
/* One header and a row a run (json objects of run lines, in order). */
int csv_write(const char *path, struct json_t *const *runs, long n);

#endif
