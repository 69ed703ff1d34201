#include "sight.h"
#include "world.h"

/* Placeholder until the sight issue: nobody sees anybody. */
void sight_update(struct world *w)
{
    w->sights.n = 0;
    w->sight_intervals.n = 0;
    for (size_t i = 0; i < w->vehicles.n; i++)
        w->vehicles.p[i].sight_count = 0;
}
