/* avoid_classic.c — the article's collision test ("Self driving tanks that
 * don't collide", Tank:CheckForCollisions), kept faithful, weaknesses and all:
 *   - it looks at the other tanks' positions only, never their motion;
 *   - the "hit point" (my position + distance x my direction) is tested
 *     against the other tank's radius alone, where touching needs the sum
 *     of both radii;
 *   - only the closest threat counts, and the turn is one small step a tick
 *     (0.5 degrees at 30 deg/s and 60 ticks/s), which cannot clear a
 *     head-on pair first seen at 100 units (the turning radius at speed 60
 *     is about 115 units);
 *   - it never slows down. */
#include "avoid_impl.h"
#include "decide_guard.h"

struct classic_scan {
    vec2 pos, dir;
    double best_d;          /* starts at collision_range, as minDist does */
    int best;               /* vehicle index, -1: none */
    vec2 best_hit, best_pos;
};

/* p:dist(t.pos) < Tank.radius, i.e. sqrt(q) < r, to the bit, with the
 * root (a second one, after the distance's, in one chain) taken only near
 * the border: a q below r^2 (1 - 2^-50) has a root that rounds below r,
 * one above r^2 (1 + 2^-50) a root above it (margins far wider than the
 * rounding of r^2 and of the bounds). */
static inline int hit_inside(double q, double r)
{
    double r2 = r * r;
    if (q < r2 * (1 - 0x1p-50))
        return 1;
    if (q > r2 * (1 + 0x1p-50))
        return 0;
    return sqrt(q) < r;
}

static inline void classic_visit(void *arg, const struct vgrid_entry *e, double d2)
{
    struct classic_scan *s = arg;
    double d = sqrt(d2);
    /* The article keeps the first of equally close tanks in its list
     * order; we keep the lowest index, so any walk gives the same. */
    if (d < s->best_d || (d == s->best_d && s->best >= 0 && e->index < s->best)) {
        vec2 hit = v2_add(s->pos, v2_scale(s->dir, d));
        if (hit_inside(v2_dist2(hit, e->pos), e->radius)) {
            s->best_d = d;
            s->best = e->index;
            s->best_hit = hit;
            s->best_pos = e->pos;
        }
    }
}

void avoid_classic(const struct world *w, int i, int brute, struct decision *d)
{
    const struct vehicle *v = world_vehicle(w, i);
    struct classic_scan s;
    s.pos = v->pos;
    s.dir = v->dir;
    s.best_d = v->p->collision_range;
    s.best = -1;
    avoid_neighbours(w, i, v->p->collision_range, brute, classic_visit, &s);
    if (s.best < 0)
        return;
    /* The article's cross product, (hit - me) x (other - me): with our y
     * pointing down it is > 0 when the other tank lies to the right of my
     * heading, so turn left, away from it; otherwise (left, or dead ahead
     * as the article's else branch has it) turn right. */
    double c = v2_cross(v2_sub(s.best_hit, s.pos), v2_sub(s.best_pos, s.pos));
    int turn = c > 0 ? -1 : 1;
    struct avoid_info *a = &d->avoid;
    a->threat = s.best;
    a->threat_dist = s.best_d;
    a->hit_point = s.best_hit;
    a->turn = turn;
    a->steer = 1;
    /* 0.5 degrees a tick in the article's 60 ticks/s and 30 deg/s. */
    d->want.turn = turn * v->p->turn_rate * w->dt;
}
