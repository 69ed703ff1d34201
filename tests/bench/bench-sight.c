/* bench-sight — sight queries per second (make bench), issue 4.
 *
 * One query: how much of one tank can one point see, through the grid.
 * On the article's map (2000 x 1800, 200 trees of radius 15 to 30, 40-unit
 * cells) and on a 20,000 x 18,000 map with 20,000 trees (the same density,
 * 225,000 cells): classic and exact through the grid, and exact over all
 * trees (no grid), the brute force the grid is measured against.  Then the
 * mean |classic - exact| over random scenes.  Observers and targets stand
 * clear of trees, as tanks do; targets are 40 x 24 hulls at any heading,
 * up to 800 away (the default view_range).  Processor time of this one
 * thread (so other work on the machine does not count), one core; lines
 * read "bench <name> <value> <unit>".  Exact and classic are timed in
 * alternating rounds over the same queries and each reported as its
 * median round, with the spread, so that a burst of load on a shared
 * machine falls on both and shows, and their ratio compares like with
 * like. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/world.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t rs = 88172645463325252u;
static double rnd(void)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return (double)(rs >> 11) / 9007199254740992.0;
}
static double rr(double a, double b) { return a + (b - a) * rnd(); }

static void make_map(struct world *w, double W, double H, int ntrees,
                     double rmin, double rmax)
{
    world_init(w, W, H);
    w->cell = 40;
    for (int i = 0; i < ntrees; i++) {
        double r = rr(rmin, rmax);
        world_add_tree(w, v2(rr(r, W - r), rr(r, H - r)), r);
    }
    if (world_finish(w)) {
        fprintf(stderr, "bench-sight: out of memory\n");
        exit(1);
    }
}

/* Clear of every tree by `gap` (brute force: only used to set up). */
static int clear(const struct world *w, vec2 p, double gap)
{
    for (size_t i = 0; i < w->trees.n; i++)
        if (v2_dist(p, w->trees.p[i].c) < w->trees.p[i].r + gap)
            return 0;
    return 1;
}

struct query { vec2 o; struct sight_shape t; };

static struct query *make_queries(const struct world *w, int n, double range)
{
    struct query *q = malloc((size_t)n * sizeof *q);
    for (int i = 0; i < n; i++) {
        vec2 o, c;
        do
            o = v2(rr(20, w->width - 20), rr(20, w->height - 20));
        while (!clear(w, o, 20));
        do {
            double a = rr(-M_PI, M_PI), d = range * sqrt(rnd());
            c = v2_add(o, v2_scale(v2_dir(a), d));
        } while (c.x < 20 || c.y < 20 || c.x > w->width - 20 || c.y > w->height - 20
                 || v2_dist(o, c) < 50 || !clear(w, c, 20));
        memset(&q[i].t, 0, sizeof q[i].t);
        q[i].o = o;
        q[i].t.c = c;
        q[i].t.axis = v2_dir(rr(-M_PI, M_PI));
        q[i].t.hl = 20;
        q[i].t.hw = 12;
    }
    return q;
}

static volatile double sink;

/* Queries per second, repeating the set for at least min_wall seconds. */
static double rate(const struct world *w, int method, const struct query *q,
                   int n, int brute, double min_wall, struct sight_scratch *s)
{
    int *all = NULL;
    if (brute) {
        all = malloc(w->trees.n * sizeof *all);
        for (size_t i = 0; i < w->trees.n; i++)
            all[i] = (int)i;
    }
    double t0 = now(), t, acc = 0;
    long done = 0;
    do {
        for (int i = 0; i < n; i++)
            acc += brute ? sight_visible(w, method, q[i].o, &q[i].t, all,
                                         (int)w->trees.n, s, NULL)
                         : sight_query(w, method, q[i].o, &q[i].t, s, NULL);
        done += n;
        t = now() - t0;
    } while (t < min_wall);
    sink = acc;
    free(all);
    return done / t;
}

static double cand_rate(const struct world *w, const struct query *q, int n,
                        double min_wall, struct sight_scratch *s, double *mean)
{
    double t0 = now(), t;
    long done = 0, total = 0;
    do {
        for (int i = 0; i < n; i++)
            total += sight_candidates(w, q[i].o, &q[i].t, s);
        done += n;
        t = now() - t0;
    } while (t < min_wall);
    *mean = (double)total / done;
    return done / t;
}

/* The two methods side by side over the same scenes. */
static void compare(const char *name, const struct world *w,
                    const struct query *q, int n, struct sight_scratch *s)
{
    double sum = 0, bias = 0, psum = 0, worst = 0;
    int partial = 0;
    for (int i = 0; i < n; i++) {
        double c = sight_query(w, SIGHT_CLASSIC, q[i].o, &q[i].t, s, NULL);
        double e = sight_query(w, SIGHT_EXACT, q[i].o, &q[i].t, s, NULL);
        double d = fabs(c - e);
        sum += d;
        bias += c - e;
        if (d > worst)
            worst = d;
        if ((c > 0 && c < 1) || (e > 0 && e < 1)) {
            partial++;
            psum += d;
        }
    }
    printf("bench sight_mean_abs_classic_minus_exact_%s %.4f fraction (%d scenes)\n",
           name, sum / n, n);
    printf("bench sight_mean_classic_minus_exact_%s %+.4f fraction\n", name, bias / n);
    printf("bench sight_mean_abs_diff_partial_%s %.4f fraction (%d of %d scenes partly visible)\n",
           name, partial ? psum / partial : 0, partial, n);
    printf("bench sight_max_abs_diff_%s %.4f fraction\n", name, worst);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define ROUNDS 7

static void run_map(const char *name, struct world *w, int nq, double wall,
                    int brute_queries)
{
    struct sight_scratch s;
    memset(&s, 0, sizeof s);
    struct query *q = make_queries(w, nq, 800);
    double mean, exr[ROUNDS], clr[ROUNDS];
    rate(w, SIGHT_EXACT, q, nq, 0, 0.05, &s);      /* scratch grown, warm */
    for (int r = 0; r < ROUNDS; r++) {
        exr[r] = rate(w, SIGHT_EXACT, q, nq, 0, wall / ROUNDS, &s);
        clr[r] = rate(w, SIGHT_CLASSIC, q, nq, 0, wall / ROUNDS, &s);
    }
    qsort(exr, ROUNDS, sizeof *exr, cmp_double);
    qsort(clr, ROUNDS, sizeof *clr, cmp_double);
    double ex = exr[ROUNDS / 2], cl = clr[ROUNDS / 2];
    double br = rate(w, SIGHT_EXACT, q, brute_queries, 1, wall, &s);
    double cr = cand_rate(w, q, nq, wall, &s, &mean);
    printf("bench sight_exact_%s %.0f queries/s (median of %d rounds, %.0f to %.0f)\n",
           name, ex, ROUNDS, exr[0], exr[ROUNDS - 1]);
    printf("bench sight_classic_%s %.0f queries/s (median of %d rounds, %.0f to %.0f)\n",
           name, cl, ROUNDS, clr[0], clr[ROUNDS - 1]);
    printf("bench sight_exact_over_classic_%s %.2f ratio\n", name, ex / cl);
    printf("bench sight_exact_brute_force_%s %.0f queries/s\n", name, br);
    printf("bench sight_grid_over_brute_force_%s %.1f ratio\n", name, ex / br);
    printf("bench sight_candidates_%s %.0f walks/s (%.1f trees each)\n", name, cr, mean);
    compare(name, w, q, nq, &s);
    free(q);
    sight_scratch_free(&s);
}

int main(void)
{
    struct world w;
    make_map(&w, 2000, 1800, 200, 15, 30);
    run_map("article", &w, 4096, 1.0, 4096);
    world_free(&w);

    make_map(&w, 20000, 18000, 20000, 15, 30);
    run_map("large", &w, 4096, 1.0, 256);
    world_free(&w);

    /* maps/forest.ini's wood: 220 trees of radius 10 to 24 on 1600 x 1200. */
    make_map(&w, 1600, 1200, 220, 10, 24);
    struct sight_scratch s;
    memset(&s, 0, sizeof s);
    struct query *q = make_queries(&w, 20000, 500);
    compare("forest", &w, q, 20000, &s);
    free(q);
    sight_scratch_free(&s);
    world_free(&w);
    return 0;
}
