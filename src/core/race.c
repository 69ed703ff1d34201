#include "race.h"
#include "world.h"

/* Placeholder until the racing issue: cars stand still. */
void race_decide(struct world *w, int i)
{
    struct vehicle *v = &w->vehicles.p[i];
    v->want_speed = 0;
    v->want_turn = 0;
}

void race_detect(struct world *w)
{
    (void)w;
}
