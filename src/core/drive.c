/* drive.c — the drive row of the behaviour table: how a vehicle moves when
 * nothing else decides.  A car races; a turret holds; a tank drives by its
 * `behaviour` key: wander, patrol (the race steering, at cruising speed),
 * straight or hold.  ("Drive" names these, apart from the behaviour
 * modules -- avoid, sight, aim, race -- the tick is made of.) */
#include "drive.h"
#include "wander/wander.h"
#include "world.h"
#include "decide_guard.h"

void drive_decide(const struct decide_view *c, int i, struct decision *d)
{
    const struct world *w = c->w;
    const struct vehicle *v = world_vehicle(w, i);
    if (v->kind == VK_CAR) {
        race_decide(c, i, d);
        return;
    }
    if (v->kind == VK_TURRET) {
        d->want.speed = 0;
        return;
    }
    switch (v->p->drive) {
    case DRIVE_WANDER:   wander_decide(c, i, d); break;
    case DRIVE_PATROL:   race_decide(c, i, d); break;
    case DRIVE_STRAIGHT: d->want.speed = v->p->speed; break;
    case DRIVE_HOLD:     d->want.speed = 0; break;
    }
}
