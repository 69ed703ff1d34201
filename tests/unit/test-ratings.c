/* Bradley-Terry ratings (src/tour/ratings.c) against an independent
 * recount (tests/lib/bt-recount.py: Hunter's MM iteration in Python), and
 * their determinism whatever the order of the games. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "core/rng.h"
#include "tour/ratings.h"

#define MAX_BOTS 8
#define MAX_GAMES 4000

struct scene {
    int n, anchor;
    long ng;
    struct rating_game g[MAX_GAMES];
};

static struct scene sc;

static void add(int a, int b, int half)
{
    sc.g[sc.ng++] = (struct rating_game){ a, b, half };
}

/* A game between a and b drawn from their true strengths (Elo), with a
 * draw one time in five. */
static void play(struct rng *r, const double *elo, int a, int b)
{
    double p = 1 / (1 + pow(10, (elo[b] - elo[a]) / 400));
    double u = rng_unit(r);
    add(a, b, u < 0.2 ? 1 : rng_unit(r) < p ? 2 : 0);
}

/* The recount's ratings and errors, or -1 when python3 cannot run. */
static int recount(double *elo, double *se)
{
    const char *top = getenv("top_srcdir");
    const char *tmp = getenv("TMPDIR");
    char path[4096], cmd[8192];
    snprintf(path, sizeof path, "%s/test-ratings-XXXXXX", tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    FILE *f = fdopen(fd, "w");
    fprintf(f, "%d %d %d\n", sc.n, sc.anchor, RATINGS_PRIOR_DRAWS);
    for (long k = 0; k < sc.ng; k++)
        fprintf(f, "%d %d %d\n", sc.g[k].a, sc.g[k].b, sc.g[k].half_points);
    fclose(f);
    snprintf(cmd, sizeof cmd, "python3 '%s/tests/lib/bt-recount.py' < '%s'",
             top ? top : ".", path);
    FILE *p = popen(cmd, "r");
    int got = 0;
    while (p && got < sc.n && fscanf(p, "%lf %lf", &elo[got], &se[got]) == 2)
        got++;
    int rc = p ? pclose(p) : -1;
    unlink(path);
    return rc == 0 && got == sc.n ? 0 : -1;
}

/* The fit of sc agrees with the recount within 1e-6 Elo. */
static void check_recount(void)
{
    struct rating out[MAX_BOTS];
    double elo[MAX_BOTS], se[MAX_BOTS];
    check_int(ratings_fit(sc.n, sc.g, sc.ng, sc.anchor, out), ==, 0);
    if (!check_int(recount(elo, se), ==, 0))
        return;
    for (int i = 0; i < sc.n; i++) {
        check_near(out[i].elo, elo[i], 1e-6);
        check_near(out[i].se, se[i], 1e-6);
        check_near(out[i].hi - out[i].lo, 2 * RATINGS_Z95 * se[i], 1e-6);
    }
}

TEST(random_league_matches_recount)
{
    static const double truth[] = { 0, 120, -80, 300, 40 };
    struct rng r;
    rng_seed(&r, 7, 1);
    sc.n = 5, sc.anchor = 0, sc.ng = 0;
    for (int k = 0; k < 600; k++) {
        int a = (int)rng_below(&r, 5), b = (int)rng_below(&r, 4);
        play(&r, truth, a, b >= a ? b + 1 : b);
    }
    check_recount();
}

TEST(named_anchor_matches_recount_and_shifts)
{
    static const double truth[] = { 0, 200, -150, 50 };
    struct rng r;
    rng_seed(&r, 11, 3);
    sc.n = 4, sc.ng = 0;
    for (int k = 0; k < 300; k++)
        play(&r, truth, k % 4, (k % 4 + 1 + (k / 4) % 3) % 4);
    struct rating first[4], third[4];
    sc.anchor = 0;
    check_int(ratings_fit(4, sc.g, sc.ng, 0, first), ==, 0);
    sc.anchor = 2;
    check_recount();
    /* The prior is the same for every pair: the anchor only shifts. */
    check_int(ratings_fit(4, sc.g, sc.ng, 2, third), ==, 0);
    for (int i = 0; i < 4; i++)
        check_near(third[i].elo, first[i].elo - first[2].elo, 1e-9);
    check_num(third[2].elo, ==, 0);
    check_num(third[2].se, ==, 0);
}

TEST(one_game)
{
    struct rating out[2];
    sc.n = 2, sc.anchor = 0, sc.ng = 0;
    add(0, 1, 2);
    check_recount();
    /* One win and one virtual draw: 3:1 odds, so 400 log10 3 below. */
    check_int(ratings_fit(2, sc.g, 1, 0, out), ==, 0);
    check_near(out[1].elo, -400 * log10(3), 1e-9);
    check_int(out[0].games, ==, 1);
    check_int(out[0].half_points, ==, 2);
    check(isfinite(out[1].lo) && out[1].lo < out[1].elo);
}

TEST(a_bot_that_won_everything_stays_finite)
{
    sc.n = 3, sc.anchor = 0, sc.ng = 0;
    for (int k = 0; k < 40; k++) {
        add(1, 0, 2);
        add(2, 1, 2);
        add(0, 2, 0);
    }
    check_recount();
    struct rating out[3];
    check_int(ratings_fit(3, sc.g, sc.ng, 0, out), ==, 0);
    check(isfinite(out[2].elo) && out[2].elo > out[1].elo && out[1].elo > 0);
}

TEST(disconnected_groups_and_an_idle_bot)
{
    sc.n = 5, sc.anchor = 0, sc.ng = 0;
    for (int k = 0; k < 30; k++) {
        add(0, 1, k % 3 ? 2 : 0);
        add(2, 3, k % 4 ? 0 : 1);
    }
    check_recount();
    struct rating out[5];
    check_int(ratings_fit(5, sc.g, sc.ng, 0, out), ==, 0);
    check_int(out[4].games, ==, 0);
    check(isfinite(out[2].se) && out[2].se > out[1].se);
}

/* The same games in another order, and with a and b exchanged: the same
 * bytes. */
TEST(any_order_same_bytes)
{
    static const double truth[] = { 0, 60, -40, 90, 10, -120 };
    struct rng r;
    rng_seed(&r, 3, 5);
    sc.n = 6, sc.anchor = 1, sc.ng = 0;
    for (int k = 0; k < 900; k++) {
        int a = (int)rng_below(&r, 6), b = (int)rng_below(&r, 5);
        play(&r, truth, a, b >= a ? b + 1 : b);
    }
    struct rating before[6], after[6];
    check_int(ratings_fit(6, sc.g, sc.ng, 1, before), ==, 0);
    for (long k = sc.ng - 1; k > 0; k--) {
        long j = (long)rng_below(&r, (uint32_t)k + 1);
        struct rating_game x = sc.g[k];
        sc.g[k] = sc.g[j];
        sc.g[j] = x;
        struct rating_game y = sc.g[k];
        if (rng_unit(&r) < 0.5)
            sc.g[k] = (struct rating_game){ y.b, y.a, 2 - y.half_points };
    }
    check_int(ratings_fit(6, sc.g, sc.ng, 1, after), ==, 0);
    check(memcmp(before, after, sizeof before) == 0);
}

TEST(bad_input_refused_and_out_untouched)
{
    struct rating out[2], keep[2];
    memset(out, 0x5a, sizeof out);
    memcpy(keep, out, sizeof out);
    struct rating_game self[] = { { 1, 1, 2 } }, range[] = { { 0, 2, 2 } },
        points[] = { { 0, 1, 3 } };
    check_int(ratings_fit(2, self, 1, 0, out), ==, -1);
    check_int(ratings_fit(2, range, 1, 0, out), ==, -1);
    check_int(ratings_fit(2, points, 1, 0, out), ==, -1);
    check_int(ratings_fit(2, points, 0, 2, out), ==, -1);
    check_int(ratings_fit(0, points, 0, 0, out), ==, -1);
    check(memcmp(out, keep, sizeof out) == 0);
}

TEST(a_single_bot_is_the_anchor)
{
    struct rating out[1];
    check_int(ratings_fit(1, NULL, 0, 0, out), ==, 0);
    check_num(out[0].elo, ==, 0);
    check_num(out[0].hi, ==, 0);
}

int main(void)
{
    run(random_league_matches_recount, "a random league: the fit is the MM recount's within 1e-6 Elo");
    run(named_anchor_matches_recount_and_shifts, "a named anchor: the recount's, and the anchor only shifts ratings");
    run(one_game, "one game: 400 log10 3 with the virtual draw, as the recount");
    run(a_bot_that_won_everything_stays_finite, "a bot that won every game: finite, as the recount");
    run(disconnected_groups_and_an_idle_bot, "groups that never met and an idle bot: finite, as the recount");
    run(any_order_same_bytes, "games shuffled and sides exchanged: the same bytes");
    run(bad_input_refused_and_out_untouched, "bad games refused, nothing written");
    run(a_single_bot_is_the_anchor, "one bot: rated 0");
    return tap_done();
}
