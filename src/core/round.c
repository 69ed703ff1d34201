/* round.c — a match of several rounds (round.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "round.h"
#include "score.h"
#include "tick.h"

long round_ticks(const struct world *w)
{
    return lround(w->duration * w->tick_rate);
}

int round_over(const struct world *w)
{
    return w->ended || w->tick - w->round_start >= round_ticks(w);
}

int round_match_over(const struct world *w)
{
    return w->round >= w->rounds && round_over(w);
}

uint64_t round_seed(const struct world *w, int r)
{
    return w->seed + (uint64_t)(r - 1);
}

int round_result(const struct world *w)
{
    if (w->ended)
        return w->winner;
    /* time up: with two teams or more alive, the higher score wins */
    int left = 0;
    for (size_t t = 0; t < w->teams.n; t++)
        left += w->teams.p[t].alive > 0;
    if (tick_teams_started(w) < 2 || left < 2)
        return -1;
    struct score_sum *teams = calloc(w->teams.n + 1, sizeof *teams);
    if (!teams)
        return -1;
    score_teams(w, teams);
    int winner = score_winner(w, teams);
    free(teams);
    return winner;
}

void round_totals(const struct world *w, struct score_sum *teams, struct score_sum *vehicles)
{
    for (size_t t = 0; teams && t < w->teams.n; t++)
        teams[t] = (struct score_sum){ 0, 0, 0, 0, 0 };
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        struct score_sum s = score_vehicle(w, v);
        if (v->team >= 0 && i < w->round_totals.n) {
            const struct vehicle_score *b = &w->round_totals.p[i];
            s.damage += b->damage;
            s.kills += b->kills;
            s.survival += b->survival;
            s.last += b->last;
            s.score = SCORE_DAMAGE * s.damage + SCORE_KILL * s.kills
                      + SCORE_SURVIVAL * s.survival + SCORE_LAST * s.last;
        }
        if (vehicles)
            vehicles[i] = s;
        if (teams && v->team >= 0) {
            struct score_sum *t = &teams[v->team];
            t->damage += s.damage;
            t->kills += s.kills;
            t->survival += s.survival;
            t->last += s.last;
            t->score += s.score;
        }
    }
}

int round_match_winner(const struct world *w, int *wins)
{
    size_t nt = w->teams.n;
    int *own = wins ? wins : calloc(nt + 1, sizeof *own);
    if (!own)
        return -1;
    for (size_t t = 0; t < nt; t++)
        own[t] = 0;
    for (size_t k = 0; k < w->round_winners.n; k++)
        if (w->round_winners.p[k] >= 0 && (size_t)w->round_winners.p[k] < nt)
            own[w->round_winners.p[k]]++;
    int last = round_over(w) ? round_result(w) : -1;
    if (last >= 0 && (size_t)last < nt)
        own[last]++;
    if (!wins)
        free(own);
    /* the match is won on the total score, not on rounds won */
    struct score_sum *teams = calloc(nt + 1, sizeof *teams);
    if (!teams)
        return -1;
    round_totals(w, teams, NULL);
    int best = tick_teams_started(w) >= 2 ? score_winner(w, teams) : -1;
    free(teams);
    return best;
}

/* The round over's scores join each vehicle's totals (reserved). */
static void add_round_scores(struct world *w)
{
    for (size_t i = w->round_totals.n; i < w->vehicles.n; i++)
        w->round_totals.p[i] = (struct vehicle_score){ 0, 0, 0, 0 };
    w->round_totals.n = w->vehicles.n;
    for (size_t i = 0; i < w->vehicles.n; i++) {
        struct score_sum s = score_vehicle(w, &w->vehicles.p[i]);
        struct vehicle_score *t = &w->round_totals.p[i];
        t->damage += (int)s.damage;
        t->kills += (int)s.kills;
        t->survival += (int)s.survival;
        t->last += (int)s.last;
    }
}

int round_begin(struct world *w, struct world *fresh)
{
    if (fresh->vehicles.n != w->vehicles.n || fresh->racers.n != w->racers.n
        || fresh->teams.n != w->teams.n
        || WORLD_RESERVE(w->round_winners, w->round_winners.n + 1)
        || WORLD_RESERVE(w->round_totals, w->vehicles.n))
        return -1;
    /* Each vehicle's settings interned in w (fresh's pool goes with it),
     * its id kept (the same string in w's pool). */
    const char **ids = malloc((w->vehicles.n + 1) * sizeof *ids);
    if (!ids)
        return -1;
    for (size_t i = 0; i < w->vehicles.n; i++) {
        ids[i] = w->vehicles.p[i].id;
        if (world_set_params(w, (int)i, fresh->vehicles.p[i].p)) {
            free(ids);
            return -1;
        }
    }
    const struct vehicle_params **ps = malloc((w->vehicles.n + 1) * sizeof *ps);
    struct world_snapshot s;
    if (!ps || world_snapshot_save(fresh, &s)) {
        free(ps);
        free(ids);
        return -1;
    }
    for (size_t i = 0; i < w->vehicles.n; i++)
        ps[i] = w->vehicles.p[i].p;
    /* The tick, the run's counters and the player's held keys go on;
     * the round over joins the winners. */
    w->round_winners.p[w->round_winners.n++] = round_result(w);
    add_round_scores(w);
    free(s.round_winners);
    s.round_winners = w->round_winners.p;
    s.nround_winners = w->round_winners.n;
    free(s.round_totals);
    s.round_totals = w->round_totals.p;
    s.nround_totals = w->round_totals.n;
    s.tick = w->tick;
    s.stats = w->stats;
    s.player_in = w->player.in;
    s.round = w->round + 1;
    s.round_start = w->tick;
    /* Random trees differ by round: fresh's are this round's (its random
     * tanks were placed against them); the restore then keeps them. */
    if (w->round_map)
        world_take_trees(w, fresh, s.round);
    int rc = world_snapshot_restore(w, &s);
    for (size_t i = 0; rc == 0 && i < w->vehicles.n; i++) {
        w->vehicles.p[i].id = ids[i];
        w->vehicles.p[i].p = ps[i];
    }
    s.round_winners = NULL;         /* (w's own) */
    s.round_totals = NULL;
    world_snapshot_free(&s);
    free(ps);
    free(ids);
    return rc;
}
