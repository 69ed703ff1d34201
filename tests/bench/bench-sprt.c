/* bench-sprt.c — how well --sprt decides and how fast the ratings settle,
 * from measured game pairs (tests/bench/ladder.sh plays them and pipes
 * them here; not run alone by make bench: it needs its input).
 *
 * Input: one line a seed, "A B": NEW's half points (0, 1, 2) in the
 * seed's two games, sides swapped.  The pairs' distribution is the
 * "true" one.  Each of the repeated tests resamples pairs from it (with
 * replacement) with our own seeded generator, and runs the same
 * sequential test as --sprt (sprt.c) until it decides: the games it took,
 * and whether it decided wrongly.  The true difference is the measured
 * pairs' Elo; the null case swaps NEW and OLD in half the pairs drawn (a
 * difference of exactly 0, the same spread).  The intervals: --ladder's
 * Bradley-Terry fit (ratings.c) on the first n pairs. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tour/ratings.h"
#include "tour/sprt.h"

enum { TESTS = 200, MAX_PAIRS = 500000 };

static uint64_t rng_state = 1;

/* splitmix64: small, seeded, the same numbers on every machine. */
static uint64_t next_u64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static long below(long n)
{
    return (long)(next_u64() % (uint64_t)n);
}

struct pair { int first, second; };

/* One test: pairs drawn until the LLR crosses a bound (or MAX_PAIRS).
 * null: each pair drawn is, one time in two, seen from OLD's side. */
static enum sprt_verdict one_test(const struct pair *p, long n, double elo0, double elo1,
                                  double lower, double upper, int null, long *games)
{
    long counts[SPRT_CELLS] = { 0 };
    for (long k = 1; k <= MAX_PAIRS; k++) {
        const struct pair *d = &p[below(n)];
        int cell = sprt_cell(d->first, d->second);
        if (null && (next_u64() & 1))
            cell = SPRT_CELLS - 1 - cell;
        counts[cell]++;
        enum sprt_verdict v = sprt_verdict(sprt_llr(counts, elo0, elo1), lower, upper);
        if (v != SPRT_CONTINUE) {
            *games = 2 * k;
            return v;
        }
    }
    *games = 2L * MAX_PAIRS;
    return SPRT_CONTINUE;
}

/* TESTS repeated tests: the mean and the largest number of games, and
 * how many ended H0, H1 or undecided. */
static void repeated(const char *name, const struct pair *p, long n, double elo0, double elo1,
                     int null)
{
    double lower, upper;
    sprt_bounds(0.05, 0.05, &lower, &upper);
    long sum = 0, most = 0, h[3] = { 0, 0, 0 };
    for (int t = 0; t < TESTS; t++) {
        long g;
        enum sprt_verdict v = one_test(p, n, elo0, elo1, lower, upper, null, &g);
        sum += g;
        most = g > most ? g : most;
        h[v]++;
    }
    printf("bench sprt_%s_mean_games %.0f games (elo0 %.1f, elo1 %.1f, alpha = beta = 0.05; "
           "%d tests, the longest %ld)\n", name, (double)sum / TESTS, elo0, elo1, TESTS, most);
    printf("bench sprt_%s_verdicts H1 %ld, H0 %ld, undecided %ld of %d\n", name, h[SPRT_H1],
           h[SPRT_H0], h[SPRT_CONTINUE], TESTS);
}

/* The 95% interval's width of NEW's rating from the first n pairs. */
static double width(const struct pair *p, long n)
{
    struct rating_game *g = malloc((size_t)(2 * n) * sizeof *g);
    struct rating r[2];
    double w = NAN;
    if (!g)
        return w;
    for (long k = 0; k < n; k++) {
        g[2 * k] = (struct rating_game){ 0, 1, p[k].first };
        g[2 * k + 1] = (struct rating_game){ 0, 1, p[k].second };
    }
    if (ratings_fit(2, g, 2 * n, 1, r) == 0)
        w = r[0].hi - r[0].lo;
    free(g);
    return w;
}

static struct pair *read_pairs(long *n)
{
    long cap = 1024;
    struct pair *p = malloc((size_t)cap * sizeof *p);
    int a, b;
    *n = 0;
    while (p && scanf("%d %d", &a, &b) == 2) {
        if (a < 0 || a > 2 || b < 0 || b > 2) {
            fprintf(stderr, "bench-sprt: half points %d %d: each 0 to 2\n", a, b);
            free(p);
            return NULL;
        }
        if (*n == cap) {
            struct pair *q = realloc(p, (size_t)(cap *= 2) * sizeof *p);
            if (!q)
                free(p);
            p = q;
        }
        if (p)
            p[(*n)++] = (struct pair){ a, b };
    }
    return p;
}

int main(void)
{
    long n;
    struct pair *p = read_pairs(&n);
    if (!p || n < 2) {
        fprintf(stderr, "bench-sprt: want two pairs or more on standard input\n");
        free(p);
        return 1;
    }
    long counts[SPRT_CELLS] = { 0 };
    for (long k = 0; k < n; k++)
        counts[sprt_cell(p[k].first, p[k].second)]++;
    struct sprt_estimate e = sprt_estimate(counts);
    printf("bench sprt_measured %ld pairs (%ld games): pentanomial %ld %ld %ld %ld %ld, "
           "NEW's score %.4f, %+.1f Elo [%+.1f, %+.1f]\n", n, 2 * n, counts[0], counts[1],
           counts[2], counts[3], counts[4], e.score, e.elo, e.lo, e.hi);
    printf("bench sprt_resampling pairs drawn from the %ld measured with replacement, "
           "splitmix64 seeded 1\n", n);
    /* A 5-point win-rate difference: a score of 0.55, about 35 Elo. */
    double five = sprt_elo_of_score(0.55);
    repeated("true", p, n, 0, five, 0);
    printf("bench sprt_true_wrong %s\n", e.elo >= five ? "H0 is wrong (true Elo >= elo1)"
           : e.elo <= 0 ? "H1 is wrong (true Elo <= elo0)"
           : "neither (true Elo between elo0 and elo1)");
    repeated("null", p, n, 0, five, 1);
    printf("bench sprt_null_wrong H1 is wrong (true Elo 0 = elo0)\n");
    for (long m = 25; m <= n; m *= 2)
        printf("bench ladder_interval_width %.1f Elo after %ld games\n", width(p, m), 2 * m);
    printf("bench ladder_interval_width %.1f Elo after %ld games\n", width(p, n), 2 * n);
    free(p);
    return 0;
}
