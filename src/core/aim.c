#include "aim.h"
#include "world.h"

/* Placeholder until the aiming issue: guns never fire. */
void aim_decide(struct world *w, int i)
{
    w->vehicles.p[i].aim.sought = 0;
}

void shells_update(struct world *w)
{
    (void)w;
}
