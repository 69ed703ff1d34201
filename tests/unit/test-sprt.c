/* The pentanomial SPRT (src/tour/sprt.c) against an independent recount
 * (tests/lib/sprt-recount.py), and simulated tests that must decide the
 * right way. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "core/rng.h"
#include "tour/sprt.h"

#define CASES 12

static const double designs[][2] = { { 0, 5 }, { -1.75, 0.25 }, { 0, 10 }, { -5, 0 } };

/* The recount's LLR of each line into out, or -1 when python3 cannot run. */
static int recount(long counts[][SPRT_CELLS], int n, double out[])
{
    const char *top = getenv("top_srcdir"), *tmp = getenv("TMPDIR");
    char path[4096], cmd[8192];
    snprintf(path, sizeof path, "%s/test-sprt-XXXXXX", tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    FILE *f = fdopen(fd, "w");
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < SPRT_CELLS; k++)
            fprintf(f, "%ld ", counts[i][k]);
        fprintf(f, "%.17g %.17g\n", designs[i % 4][0], designs[i % 4][1]);
    }
    fclose(f);
    snprintf(cmd, sizeof cmd, "python3 '%s/tests/lib/sprt-recount.py' < '%s'",
             top ? top : ".", path);
    FILE *p = popen(cmd, "r");
    int got = 0;
    while (p && got < n && fscanf(p, "%lf", &out[got]) == 1)
        got++;
    int rc = p ? pclose(p) : -1;
    unlink(path);
    return rc == 0 && got == n ? 0 : -1;
}

TEST(llr_matches_recount)
{
    long counts[CASES][SPRT_CELLS] = {
        { 10, 20, 50, 30, 12 }, { 0, 0, 0, 0, 3 }, { 3, 0, 0, 0, 0 },
        { 0, 0, 7, 0, 0 }, { 1, 0, 0, 0, 1 }, { 0, 0, 0, 0, 0 },
    };
    struct rng r;
    rng_seed(&r, 5, 9);
    for (int i = 6; i < CASES; i++)
        for (int k = 0; k < SPRT_CELLS; k++)
            counts[i][k] = (long)rng_below(&r, i < 9 ? 40 : 20000);
    double want[CASES];
    if (!check_int(recount(counts, CASES, want), ==, 0))
        return;
    for (int i = 0; i < CASES; i++)
        check_near(sprt_llr(counts[i], designs[i % 4][0], designs[i % 4][1]), want[i],
                   1e-9 * fmax(1, fabs(want[i])));
}

TEST(known_values)
{
    double lo, hi;
    sprt_bounds(0.05, 0.05, &lo, &hi);
    check_near(lo, -2.9444389791664403, 1e-12);
    check_near(hi, 2.9444389791664403, 1e-12);
    sprt_bounds(0.05, 0.1, &lo, &hi);
    check_near(lo, log(0.1 / 0.95), 1e-12);
    check_near(hi, log(0.9 / 0.05), 1e-12);
    /* Three pairs won twice, -1.75 against 0.25: 0.02 as fishtest's
     * published examples round it. */
    const long three[SPRT_CELLS] = { 0, 0, 0, 0, 3 };
    check_near(sprt_llr(three, -1.75, 0.25), 0.0173182, 1e-6);
    check_int(sprt_verdict(3, lo, hi), ==, SPRT_H1);
    check_int(sprt_verdict(-2.3, lo, hi), ==, SPRT_H0);
    check_int(sprt_verdict(0.5, lo, hi), ==, SPRT_CONTINUE);
}

TEST(cells_and_estimate)
{
    check_int(sprt_cell(2, 2), ==, 4);
    check_int(sprt_cell(0, 1), ==, 1);
    check_int(sprt_cell(2, 0), ==, 2);
    check_int(sprt_cell(3, 0), ==, -1);
    const long even[SPRT_CELLS] = { 10, 20, 40, 20, 10 };
    const long more[SPRT_CELLS] = { 40, 80, 160, 80, 40 };
    struct sprt_estimate a = sprt_estimate(even), b = sprt_estimate(more);
    check_near(a.elo, 0, 1e-9);
    check_near(a.hi, -a.lo, 1e-9);
    check_num(a.hi, >, 0);
    /* Four times the pairs: half the width. */
    check_near(b.hi - b.lo, (a.hi - a.lo) / 2, 0.5);
    const long ahead[SPRT_CELLS] = { 0, 10, 20, 40, 30 };
    struct sprt_estimate c = sprt_estimate(ahead);
    check_near(c.elo, sprt_elo_of_score(0.725), 1e-9);
    check_near(sprt_score_of_elo(c.elo), 0.725, 1e-12);
    const long none[SPRT_CELLS] = { 0 };
    check(isinf(sprt_estimate(none).hi));
}

/* One game's half points for NEW at a true Elo difference, draws 30%. */
static int game(struct rng *r, double elo)
{
    double s = sprt_score_of_elo(elo), u = rng_unit(r);
    return u < s - 0.15 ? 2 : u < s + 0.15 ? 1 : 0;
}

/* Tests run until a bound is crossed: how many ended in H1. */
static int h1_count(double truth, double elo0, double elo1, int runs, uint64_t seed)
{
    double lo, hi;
    sprt_bounds(0.05, 0.05, &lo, &hi);
    int h1 = 0;
    for (int t = 0; t < runs; t++) {
        struct rng r;
        rng_seed(&r, seed, (uint64_t)t);
        long counts[SPRT_CELLS] = { 0 };
        enum sprt_verdict v = SPRT_CONTINUE;
        for (long pair = 0; pair < 200000 && v == SPRT_CONTINUE; pair++) {
            counts[sprt_cell(game(&r, truth), game(&r, truth))]++;
            v = sprt_verdict(sprt_llr(counts, elo0, elo1), lo, hi);
        }
        h1 += v == SPRT_H1;
        check_int(v, !=, SPRT_CONTINUE);
    }
    tap_note("truth %g against %g/%g: H1 in %d of %d", truth, elo0, elo1, h1, runs);
    return h1;
}

TEST(clear_differences_decide_right)
{
    check_int(h1_count(40, 0, 10, 20, 1), ==, 20);
    check_int(h1_count(-30, 0, 10, 20, 2), ==, 0);
}

TEST(at_the_bounds_errors_stay_near_alpha)
{
    /* At elo1 H1 should win 95% of the time, at elo0 H0 95%: over 40
     * tests each, at most 4 wrong (a fixed seed: this either holds or
     * not, never flakes). */
    check_int(h1_count(10, 0, 10, 40, 3), >=, 36);
    check_int(h1_count(0, 0, 10, 40, 4), <=, 4);
}

int main(void)
{
    run(llr_matches_recount, "the LLR is the Python recount's within 1e-9");
    run(known_values, "Wald's bounds, a published LLR, the verdicts");
    run(cells_and_estimate, "pair cells; the estimate and its interval");
    run(clear_differences_decide_right, "+40 and -30 Elo against 0/10: always the right verdict");
    run(at_the_bounds_errors_stay_near_alpha, "at elo0 and elo1: wrong at most 4 times in 40");
    return tap_done();
}
