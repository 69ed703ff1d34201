/* wander.c — the built-in wander: random turns from the vehicle's own
 * stream, and the edge turn of "Self driving tanks that don't collide"
 * (close to the edge and heading out, a large random turn). */
#include <math.h>

#include "wander.h"
#include "explain.h"
#include "world.h"
#include "decide_guard.h"


/* Wander turns are drawn from the vehicle's own stream: on average one new
 * turn every WANDER_MEAN_GAP seconds, of up to WANDER_MAX_TURN either way. */
#define WANDER_MEAN_GAP 3.0
#define WANDER_MAX_TURN (M_PI / 2)

/* The article's edge rule: close to the edge and heading out of the map, a
 * large random turn (90 to 180 degrees) left or right.  The article picks
 * the side at random; but from, say, 45 degrees off a wall the wrong side
 * swings the nose straight at it first, and near a corner one side runs
 * into the other wall: that is how its tanks touched the edge.  So the
 * size stays random and the side is the one whose arc keeps further from
 * every edge (random only when both are alike, as straight at an edge far
 * from corners).  "Close" is one turning radius plus the tank's own
 * radius plus two ticks of travel, so the turn can complete before the
 * edge even heading straight at it. */

/* The smallest clearance between the tank and the edges while it turns by
 * `turn` at its turn rate and speed, then drives on for a second.  A sample
 * stands for 6 ticks; a turn that would need more than EDGE_ARC_SAMPLES
 * of them (a turn rate under about 0.7 deg/s at 60 ticks a second) is
 * sampled EDGE_ARC_SAMPLES times, each standing for a longer stretch: at
 * most EDGE_ARC_SAMPLES + ceil(tick_rate / 6) <= 423 samples, whatever
 * the turn rate (it only picks the side of the edge turn). */
#define EDGE_ARC_SAMPLES 256
static double edge_arc_clearance(const struct world *w, const struct vehicle *v,
                                 double turn)
{
    const int chunk = 6;        /* ticks a sample stands for */
    double step = v->p->turn_rate * w->dt * chunk;
    double dist = v->p->speed * w->dt * chunk, r = v->p->radius;
    double h = v->heading, left = turn, best = INFINITY;
    vec2 p = v->pos;
    /* Compared before any conversion to int: fabs(turn) / step may be
     * huge or infinite (step underflows to 0 at the smallest rates). */
    double turns = ceil(fabs(turn) / step), arc = dist;
    if (!(turns <= EDGE_ARC_SAMPLES)) {
        /* Each sample covers 1/EDGE_ARC_SAMPLES of the turn and the
         * distance driven meanwhile, capped at a few times the map (past
         * which every clearance is as negative as it matters). */
        double cap = 4 * (w->width + w->height);
        arc = dist > 0 ? dist * (fabs(turn) / (EDGE_ARC_SAMPLES * step)) : 0;
        if (!(arc <= cap))
            arc = cap;
        step = fabs(turn) / EDGE_ARC_SAMPLES;
        turns = EDGE_ARC_SAMPLES;
    }
    int nturn = (int)turns, n = nturn + (int)ceil(w->tick_rate / chunk);
    for (int k = 0; k < n; k++) {
        double t = clampd(left, -step, step);
        left -= t;
        h += t;
        p = v2_add(p, v2_scale(v2_dir(h), k < nturn ? arc : dist));
        double c = fmin(fmin(p.x - r, w->width - r - p.x),
                        fmin(p.y - r, w->height - r - p.y));
        if (c < best)
            best = c;
    }
    return best;
}

void wander_decide(const struct decide_view *c, int i, struct decision *restrict d)
{
    const struct world *restrict w = c->w;
    const struct vehicle *v = world_vehicle(w, i);
    struct wander_state *s = &d->wander;
    double step = v->p->turn_rate * w->dt;
    double margin = v->p->radius + 2 * v->p->speed * w->dt
                  + (v->p->turn_rate > 0 ? v->p->speed / v->p->turn_rate : 0);
    vec2 u = v->dir;
    int outward = (v->pos.x < margin && u.x < 0) || (v->pos.x > w->width - margin && u.x > 0)
               || (v->pos.y < margin && u.y < 0) || (v->pos.y > w->height - margin && u.y > 0);
    /* Into a corner, turning away from one edge runs along the other:
     * start earlier, a turning diameter out. */
    double wide = margin + (v->p->turn_rate > 0 ? v->p->speed / v->p->turn_rate : 0);
    int cx = (v->pos.x < wide && u.x < 0) || (v->pos.x > w->width - wide && u.x > 0);
    int cy = (v->pos.y < wide && u.y < 0) || (v->pos.y > w->height - wide && u.y > 0);
    outward = outward || (cx && cy);

    if (outward && !s->edge_turn) {
        double big = rng_range(&d->rng, M_PI / 2, M_PI);
        double cr = edge_arc_clearance(w, v, big), cl = edge_arc_clearance(w, v, -big);
        int alike = fabs(cr - cl) < 1e-6;
        int right = alike ? (int)(rng_u32(&d->rng) & 1) : cr > cl;
        s->turn_left = right ? big : -big;
        s->edge_turn = 1;
        if (d->why) {
            d->why->wander.drawn = s->turn_left;
            d->why->wander.clear_right = cr;
            d->why->wander.clear_left = cl;
            d->why->wander.side_random = alike;
        }
    } else if (s->turn_left == 0 && rng_unit(&d->rng) < w->dt / WANDER_MEAN_GAP) {
        s->turn_left = rng_range(&d->rng, -WANDER_MAX_TURN, WANDER_MAX_TURN);
        if (d->why)
            d->why->wander.drawn = s->turn_left;
    }
    double t = clampd(s->turn_left, -step, step);
    if (d->why) {
        struct explain_wander *x = &d->why->wander;
        x->ran = 1;
        x->rule = s->turn_left == 0 ? WANDER_NONE : s->edge_turn ? WANDER_EDGE : WANDER_RANDOM;
        x->margin = margin;
        x->turn = t;
        x->left = s->turn_left - t;
    }
    s->turn_left -= t;
    if (s->turn_left == 0)
        s->edge_turn = 0;
    d->want.turn = t;
    d->want.speed = v->p->speed;
}

