/* sprt_run.c — botfield --sprt NEW.lua OLD.lua: seed after seed, a pair
 * of games with the sides swapped, the pentanomial counts and their LLR
 * (sprt.c) after each pair, until the LLR crosses a bound or --max-games.
 * The results are taken in seed order (games.c), so the verdict and every
 * line printed are the same for any --jobs: a pair that finished early
 * waits for those before it. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "ladder_impl.h"
#include "sprt.h"

struct sprt_state {
    const struct ladder_options *o;
    double lower, upper;
    long counts[SPRT_CELLS];
    int first;                  /* NEW's half points in the pair's first game */
    enum sprt_verdict verdict;
    long games;
    int failed;
};

/* (+ 0.0 turns -0 into 0: "-0.0" reads as a result.) */
static void progress(const struct sprt_state *st, double llr)
{
    struct sprt_estimate e = sprt_estimate(st->counts);
    printf("games %ld  LLR %.3f (%.3f, %.3f)  Elo %+.1f [%+.1f, %+.1f]  pairs %ld %ld %ld %ld %ld\n",
           st->games, llr, st->lower, st->upper, e.elo + 0.0, e.lo + 0.0, e.hi + 0.0, st->counts[0],
           st->counts[1], st->counts[2], st->counts[3], st->counts[4]);
    fflush(stdout);
}

/* Game 2k has NEW on the first team, game 2k+1 on the second. */
static int sprt_game_done(void *ctx, long i, const struct game_result *r)
{
    struct sprt_state *st = ctx;
    if (r->half0 < 0) {
        fprintf(stderr, "botfield: --sprt: game %ld failed: %s\n", i + 1,
                r->why ? r->why : "out of memory");
        st->failed = 1;
        return 1;
    }
    st->games++;
    int new_half = i % 2 == 0 ? r->half0 : 2 - r->half0;
    if (i % 2 == 0) {
        st->first = new_half;
        return 0;
    }
    st->counts[sprt_cell(st->first, new_half)]++;
    double llr = sprt_llr(st->counts, st->o->elo0, st->o->elo1);
    progress(st, llr);
    st->verdict = sprt_verdict(llr, st->lower, st->upper);
    return st->verdict != SPRT_CONTINUE;
}

static int verdict(const struct sprt_state *st)
{
    const struct ladder_options *o = st->o;
    if (st->failed)
        return 4;
    if (st->verdict == SPRT_H1) {
        printf("H1: %s is better than %s (elo1 %g is likelier than elo0 %g) after %ld games\n",
               o->bots[0], o->bots[1], o->elo1, o->elo0, st->games);
        return 0;
    }
    if (st->verdict == SPRT_H0) {
        printf("H0: %s is not better than %s (elo0 %g is likelier than elo1 %g) after %ld games\n",
               o->bots[0], o->bots[1], o->elo0, o->elo1, st->games);
        return 1;
    }
    printf("undecided: no bound crossed after %ld games (--max-games %ld, --seeds %llu-%llu)\n",
           st->games, o->max_games, (unsigned long long)o->lo, (unsigned long long)o->hi);
    return 3;
}

int sprt_run(const struct ladder_options *o, const struct games_setup *s)
{
    long pairs = (long)(o->hi - o->lo + 1);
    if (pairs > o->max_games / 2)
        pairs = o->max_games / 2;
    struct game *games = calloc((size_t)pairs * 2 + 1, sizeof *games);
    if (!games)
        return 4;
    for (long p = 0; p < pairs; p++) {
        games[2 * p] = (struct game){ o->lo + (uint64_t)p, { 0, 1 } };
        games[2 * p + 1] = (struct game){ o->lo + (uint64_t)p, { 1, 0 } };
    }
    struct sprt_state st = { .o = o, .verdict = SPRT_CONTINUE };
    sprt_bounds(o->alpha, o->beta, &st.lower, &st.upper);
    int rc = ladder_play(o, s, games, pairs * 2, sprt_game_done, &st);
    free(games);
    if (rc)
        return rc == 2 ? 2 : 4;
    fflush(stdout);
    return verdict(&st);
}
