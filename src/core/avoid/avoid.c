/* avoid.c — the dispatcher: one decision per tank, by its method. */
#include "avoid_impl.h"

int avoid_shares_gaps(const struct vehicle *v)
{
    return vgrid_entry_of(v, 0).shares;
}

static void decide(struct world *w, int i, int brute)
{
    struct vehicle *v = &w->vehicles.p[i];
    struct avoid_info *a = &v->avoid;
    /* Predictive reads back last tick's record (its turn and held plan);
     * the others need no copy. */
    struct avoid_info last;
    if (v->p->avoid == AVOID_PREDICTIVE)
        last = *a;
    a->threat = -1;
    a->turn = 0;
    a->steer = 0;
    a->limited = 0;
    a->threat_dist = 0;
    a->hit_point = v->pos;
    a->tca = a->dca = 0;
    a->speed_scale = v->p->speed > 0 ? v->want_speed / v->p->speed : 0;
    a->held = 0;
    a->danger = 0;
    switch (v->p->avoid) {
    case AVOID_NONE:       break;
    case AVOID_CLASSIC:    avoid_classic(w, i, brute); break;
    case AVOID_PREDICTIVE: avoid_predictive(w, i, brute, &last); break;
    }
}

void avoid_decide(struct world *w, int i)
{
    decide(w, i, w->avoid_brute);
}

void avoid_decide_brute(struct world *w, int i)
{
    decide(w, i, 1);
}
