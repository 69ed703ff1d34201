#include "avoid.h"
#include "world.h"

/* Placeholder until the avoidance issue: every method behaves as none. */
void avoid_decide(struct world *w, int i)
{
    struct vehicle *v = &w->vehicles.p[i];
    v->avoid.threat = -1;
    v->avoid.turn = 0;
    v->avoid.speed_scale = 1;
}
