/* race_exact.c — our speed rule, beyond Nick Turner's racing AI tutorial.
 *
 * The article's circle test, but with the motion model's exact circle and
 * the exact condition for reaching a waypoint with volume from it
 * (race_reach_speed); then a look-ahead the article leaves to the reader:
 * each of the next few waypoints gets a corner speed, and the car brakes
 * in time for the tightest of them (v^2 <= v_corner^2 + 2 brake d), so it
 * neither orbits a waypoint nor crawls along a straight. */
#include <math.h>

#include "race_rules.h"
#include "explain.h"
#include "world.h"
#include "decide_guard.h"

/* Corners looked at, at most; fewer when the braking distance from
 * max_speed runs out first. */
#define EXACT_LOOKAHEAD 12

/* Share of the contact distance the turning circle must reach into. */
#define EXACT_REACH_MARGIN 0.25

/* The fastest speed through waypoint j on a line from `in` to `out`: the
 * circular arc tangent to both legs that passes within `reach` of the
 * corner has radius reach cos(phi/2) / (1 - cos(phi/2)) for a deflection
 * phi; and it must fit in half of the shorter leg (its tangent points lie
 * rho tan(phi/2) from the corner), or a chicane's arcs would overlap and
 * the car would leave each corner still turning from the last.  A radius
 * is a speed through race_radius_exact's relation. */
static double corner_speed(vec2 in, vec2 out, double leg, double reach,
                           double turn_rate, double dt)
{
    double phi = fabs(angle_diff(v2_angle(out), v2_angle(in)));
    double h = cos(0.5 * phi);
    if (1 - h <= 1e-12)
        return INFINITY;
    double rho = reach * h / (1 - h);
    double fit = 0.5 * leg / tan(0.5 * phi);
    if (fit < rho)
        rho = fit;
    return 2 * rho * sin(0.5 * turn_rate * dt) / dt;
}

void race_exact_decide(struct race_ctx *c)
{
    const struct vehicle *v = c->v;
    struct race_info *ri = c->info;
    const struct waypoint *wp = c->wp;
    double dt = c->w->dt;
    int side = c->rel < 0 ? -1 : 1;
    double r = race_radius_exact(v->speed, v->p->turn_rate, dt);
    ri->circle_r = r;
    ri->circle_c = race_circle_centre(v, r, side, dt, 1);

    double target = v->p->max_speed;
    enum brake_reason why = BRAKE_NONE;

    /* The next waypoint must stay reachable from the circle we drive, and
     * by a margin: a circle that just grazes the contact distance is a
     * fixed point, an orbit kept forever at exactly that speed. */
    double vr = race_reach_speed(v->pos, v->heading, wp[c->next].c,
                                 EXACT_REACH_MARGIN * (wp[c->next].r + v->p->radius),
                                 v->p->turn_rate, dt);
    if (vr < target) {
        target = vr;
        why = BRAKE_CIRCLE;
    }
    struct explain_race *x = c->d->why ? &c->d->why->race : NULL;
    if (x) {
        x->ran = 1;
        x->reach_speed = vr;
    }

    /* The look-ahead: `run` is the path length to waypoint j's centre, the
     * car switching to j+1 `reach` before it; this tick's move is taken off
     * so the braking starts one tick early rather than one late. */
    double horizon = v->p->max_speed * v->p->max_speed / (2 * v->p->brake)
                   + v->p->max_speed * dt;
    vec2 in = v2_sub(wp[c->next].c, v->pos);
    double run = v2_len(in);
    int count = c->n < EXACT_LOOKAHEAD ? c->n : EXACT_LOOKAHEAD;
    for (int m = 0; m < count; m++) {
        int j = (c->next + m) % c->n, j1 = (j + 1) % c->n;
        double reach = wp[j].r + v->p->radius;
        double d = run - reach - v->speed * dt;
        if (d > horizon)
            break;
        vec2 out = v2_sub(wp[j1].c, wp[j].c);
        double leg = fmin(v2_dist(wp[j].c, wp[(j + c->n - 1) % c->n].c), v2_len(out));
        double vc = corner_speed(in, out, leg, reach, v->p->turn_rate, dt);
        double allowed = sqrt(vc * vc + 2 * v->p->brake * (d > 0 ? d : 0));
        if (allowed < target) {
            target = allowed;
            why = BRAKE_AHEAD;
            if (x) {
                x->corner = j;
                x->corner_speed = vc;
                x->corner_dist = d > 0 ? d : 0;
                x->allowed = allowed;
            }
        }
        in = out;
        run += v2_len(out);
    }

    /* The article's blind spot: a waypoint far off the nose means turn
     * tightly, slowly, rather than drive a huge circle. */
    if (fabs(c->rel) > v->p->back_angle) {
        target = v->p->min_speed;
        why = BRAKE_BLIND_SPOT;
    }
    ri->target_speed = target;
    c->d->want.speed = race_accel_to(v, target, dt);
    ri->reason = c->d->want.speed < v->speed + v->p->accel * dt ? why : BRAKE_NONE;
}
