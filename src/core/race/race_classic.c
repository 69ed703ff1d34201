/* race_classic.c — the article's speed rule (Nick Turner's racing AI tutorial), kept faithful:
 * the turning circle from 10 projected ticks (r = v^2/a), its centre square
 * off the nose on the turning side, brake while the next waypoint's centre
 * is inside it or in the blind spot, else accelerate. */
#include <math.h>

#include "race_rules.h"
#include "explain.h"
#include "world.h"
#include "decide_guard.h"

/* The article's NumTicks. */
#define CLASSIC_TICKS 10

void race_classic_decide(struct race_ctx *c)
{
    const struct vehicle *v = c->v;
    struct race_info *ri = c->info;
    double dt = c->w->dt;
    /* Our angles grow clockwise (y down): rel > 0 is the article's right. */
    int side = c->rel < 0 ? -1 : 1;
    double r = race_radius_classic(v->speed, v->p->turn_rate, dt, CLASSIC_TICKS);
    vec2 centre = race_circle_centre(v, r, side, dt, 0);
    ri->circle_r = r;
    ri->circle_c = centre;

    /* The article: If Distance < CircleRadius brake, ElseIf
     * Abs(RelativeAngle) > BackAngle brake, Else accelerate.  At speed 0
     * the radius is 0 and nothing is inside (its overflow guard). */
    double target = v->p->max_speed;
    if (c->d->why)
        c->d->why->race.ran = 1;
    if (v2_dist(centre, c->wp[c->next].c) < r) {
        target = v->p->min_speed;
        ri->reason = BRAKE_CIRCLE;
        if (c->d->why) {
            /* the article's rule: the next waypoint inside the circle,
             * slow to min_speed */
            struct explain_race *x = &c->d->why->race;
            x->corner = c->next;
            x->corner_speed = x->allowed = target;
            x->corner_dist = v2_dist(v->pos, c->wp[c->next].c);
        }
    } else if (fabs(c->rel) > v->p->back_angle) {
        target = v->p->min_speed;
        ri->reason = BRAKE_BLIND_SPOT;
    }
    ri->target_speed = target;
    c->d->want.speed = race_accel_to(v, target, dt);
}
