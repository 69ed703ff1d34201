/* race_check.c — a track no car can drive cleanly (--check's warning):
 * a waypoint the skip rule passes as soon as a car leaves the disc of the
 * one before.  Not decision code: read once, when the map is checked. */
#include <math.h>

#include "race.h"
#include "world.h"

/* 1 when tree t could stand between a car near c (within reach) and
 * target: it comes within reach of the segment c-target, which holds
 * every such line of sight. */
static int tree_near_segment(const struct tree *t, vec2 c, vec2 target, double reach)
{
    vec2 d = v2_sub(target, c);
    double l2 = v2_len2(d);
    double s = l2 > 0 ? v2_dot(v2_sub(t->c, c), d) / l2 : 0;
    s = s < 0 ? 0 : s > 1 ? 1 : s;
    return v2_dist(t->c, v2_add(c, v2_scale(d, s))) < reach + t->r;
}

int race_skipped_at_once(const struct world *w, const struct waypoint *wp, int n,
                         const struct vehicle_params *p, double dt, int k)
{
    /* On a triangle the skip rule asks more (race_detect.c): never sure. */
    if (n <= 3 || k < 0 || k >= n)
        return 0;
    const struct waypoint *a = &wp[(k + n - 1) % n], *b = &wp[k], *c = &wp[(k + 1) % n];
    /* Where a car may be on the first tick out of a's disc: a tick's move
     * at most beyond its contact distance. */
    double out = a->r + p->radius + p->max_speed * dt;
    double d = v2_dist(b->c, c->c);
    if (d <= 0)
        return 0;
    /* a's disc so grown lies wholly nearer c than b (beyond the
     * bisector of b and c) and apart from b's contact disc, so that tick
     * touches no b and finds c the nearer */
    vec2 u = v2_scale(v2_sub(c->c, b->c), 1 / d);
    vec2 mid = v2_scale(v2_add(b->c, c->c), 0.5);
    if (v2_dot(v2_sub(a->c, mid), u) <= out
        || v2_dist(a->c, b->c) <= out + b->r + p->radius)
        return 0;
    /* and no tree can hide c from there (the skip needs a clear line) */
    for (size_t t = 0; t < w->trees.n; t++)
        if (tree_near_segment(&w->trees.p[t], a->c, c->c, out))
            return 0;
    return 1;
}
