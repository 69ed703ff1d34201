/* explain.c — the decision records' store, in the tick context. */

#include "explain.h"
#include "grow.h"
#include "world.h"

NAMES_DEFINE(wander_rule_names, WANDER_RULE_LIST, WANDER_RULE_COUNT);
NAMES_DEFINE(sight_rule_names, SIGHT_RULE_LIST, SIGHT_RULE_COUNT);

struct explain *explain_start(const struct world *w, struct tick_ctx *c, int i)
{
    if (!w->explain)
        return NULL;
    /* Grown (if ever) at the tick's first record, so no record handed out
     * earlier in the tick moves. */
    if (w->vehicles.n > c->whycap
        && grow_reserve(&c->why, &c->whycap, w->vehicles.n, sizeof *c->why))
        return NULL;
    /* Only what says which parts were written: a part is read only when
     * its row wrote it this tick (a crowd's records are not cleared
     * whole, ~700 bytes each, every tick). */
    struct explain *e = &c->why[i];
    e->tick = w->tick;
    e->bot.ran = 0;
    e->wander.ran = 0;
    e->wander.drawn = 0;
    e->avoid.ran = 0;
    e->avoid.planned_now = 0;
    e->race.ran = 0;
    e->race.corner = -1;
    return e;
}

const struct explain *world_explain(const struct world *w, int i)
{
    const struct tick_ctx *c = w->scratch.ctx;
    if (!w->explain || !c || i < 0 || (size_t)i >= c->whycap
        || (size_t)i >= w->vehicles.n)
        return NULL;
    return c->why[i].tick == w->tick ? &c->why[i] : NULL;
}

void explain_avoid_done(struct explain *e, double planned,
                        const struct decision *d, int postponed)
{
    e->avoid.ran = 1;
    e->avoid.planned = planned;
    e->avoid.turn = d->want.turn;
    e->avoid.speed = d->want.speed;
    e->avoid.postponed = postponed;
    if (postponed && e->wander.ran) {
        /* the wander turn of this tick went back to be made later */
        e->wander.turn = 0;
        e->wander.left = d->wander.turn_left;
    }
}

void explain_cands(struct explain_avoid *x, const double *bound, double step,
                   double cruise, const double *fracs)
{
    x->planned_now = 1;
    for (int c = 0; c < EXPLAIN_CANDS; c++) {
        int k = EXPLAIN_TURN_STEPS - c / EXPLAIN_SPEEDS;
        x->cost[c] = bound[c];
        x->tried[c] = 0;
        x->cand_turn[c] = step * k / EXPLAIN_TURN_STEPS;
        x->cand_speed[c] = cruise * fracs[c % EXPLAIN_SPEEDS];
    }
}
