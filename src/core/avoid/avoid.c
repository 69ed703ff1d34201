/* avoid.c — the dispatcher: one decision per tank, by its method. */
#include "avoid_impl.h"
#include "decide_guard.h"

int avoid_shares_gaps(const struct vehicle *v)
{
    return vehicle_entry(v, 0).shares;
}

static void decide(const struct world *w, int i, int brute, int method,
                   const struct decide_view *c, struct decision *restrict d)
{
    const struct vehicle *v = world_vehicle(w, i);
    /* The new record, written whole here; predictive reads last tick's
     * (its turn and held plan) from the vehicle. */
    struct avoid_info *a = &d->avoid;
    const struct avoid_info *last = &v->avoid;
    a->plan_k = last->plan_k;
    a->plan_m = last->plan_m;
    a->threat = -1;
    a->turn = 0;
    a->steer = 0;
    a->limited = 0;
    a->threat_dist = 0;
    a->hit_point = v->pos;
    a->tca = a->dca = 0;
    a->speed_scale = v->p->speed > 0 ? d->want.speed / v->p->speed : 0;
    a->held = 0;
    a->danger = 0;
    a->shell = a->shell_seen = 0;
    a->shell_count = 0;
    switch ((enum avoid_method)method) {
    case AVOID_NONE:       break;
    case AVOID_CLASSIC:    avoid_classic(w, i, brute, d); break;
    case AVOID_PREDICTIVE: avoid_predictive(w, i, brute, last, c, d); break;
    }
}

void avoid_decide(const struct decide_view *c, int i, struct decision *d)
{
    const struct world *w = c->w;
    decide(w, i, c->tick->avoid_brute, world_vehicle(w, i)->p->avoid, c, d);
}

void avoid_decide_with(const struct decide_view *c, int i, int method,
                       struct decision *d)
{
    const struct world *w = c->w;
    decide(w, i, c->tick->avoid_brute, method, c, d);
}

void avoid_decide_brute(const struct decide_view *c, int i, struct decision *d)
{
    const struct world *w = c->w;
    decide(w, i, 1, world_vehicle(w, i)->p->avoid, c, d);
}
