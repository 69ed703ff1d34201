/* round.c — a match of several rounds (round.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "round.h"

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
    return w->ended ? w->winner : -1;
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
    int best = -1, tie = 0;
    for (size_t t = 0; t < nt; t++) {
        if (own[t] == 0)
            continue;
        if (best < 0 || own[t] > own[best]) {
            best = (int)t;
            tie = 0;
        } else if (own[t] == own[best]) {
            tie = 1;
        }
    }
    if (!wins)
        free(own);
    return tie ? -1 : best;
}

int round_begin(struct world *w, const struct world *fresh)
{
    if (fresh->vehicles.n != w->vehicles.n || fresh->racers.n != w->racers.n
        || fresh->teams.n != w->teams.n
        || WORLD_RESERVE(w->round_winners, w->round_winners.n + 1))
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
    free(s.round_winners);
    s.round_winners = w->round_winners.p;
    s.nround_winners = w->round_winners.n;
    s.tick = w->tick;
    s.stats = w->stats;
    s.player_in = w->player.in;
    s.round = w->round + 1;
    s.round_start = w->tick;
    int rc = world_snapshot_restore(w, &s);
    for (size_t i = 0; rc == 0 && i < w->vehicles.n; i++) {
        w->vehicles.p[i].id = ids[i];
        w->vehicles.p[i].p = ps[i];
    }
    s.round_winners = NULL;         /* (w's own) */
    world_snapshot_free(&s);
    free(ps);
    free(ids);
    return rc;
}
