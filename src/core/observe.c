/* observe.c — what an agent observes (observe.h). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "observe.h"
#include "trees.h"
#include "vec.h"
#include "world.h"

/* One near thing: its distance and its index, for a partial sort. */
struct near { double d; int k; };

/* Keeps the K nearest in n[0 .. *cnt), nearest first (K is small: an
 * insertion into a sorted run). */
static void keep_near(struct near *n, int *cnt, int K, double d, int k)
{
    int at;
    if (*cnt < K)
        at = (*cnt)++;
    else if (K > 0 && d < n[K - 1].d)
        at = K - 1;             /* the farthest kept makes room */
    else
        return;
    while (at > 0 && n[at - 1].d > d) {
        n[at] = n[at - 1];
        at--;
    }
    n[at] = (struct near){ d, k };
}

/* rel in the hull's frame: forward along dir, right clockwise of it (y
 * down: the screen's right of a tank heading up). */
static void frame(vec2 rel, vec2 dir, double range, float *fwd, float *right)
{
    *fwd = (float)((rel.x * dir.x + rel.y * dir.y) / range);
    *right = (float)((-rel.x * dir.y + rel.y * dir.x) / range);
}

static void own(const struct world *w, const struct vehicle *v, int seen, int K, float *o)
{
    double limit = w->duration * w->tick_rate;
    double ms = vehicle_top_speed(v), rel = angle_diff(v->turret, v->heading);
    double reload = v->p->reload > 0 ? v->gun.reload_left / v->p->reload : 0;
    o[0] = 1;
    o[1] = v->p->health > 0 ? (float)v->health / (float)v->p->health : 0;
    o[2] = (float)(w->width > 0 ? v->pos.x / w->width * 2 - 1 : 0);
    o[3] = (float)(w->height > 0 ? v->pos.y / w->height * 2 - 1 : 0);
    o[4] = (float)v->dir.x;
    o[5] = (float)v->dir.y;
    o[6] = (float)(ms > 0 ? v->speed / ms : 0);
    o[7] = (float)cos(rel);
    o[8] = (float)sin(rel);
    o[9] = (float)(reload < 0 ? 0 : reload > 1 ? 1 : reload);
    o[10] = (float)(limit > 0 && w->tick < limit ? 1 - (double)w->tick / limit : 0);
    o[11] = K > 0 ? (float)(seen < K ? seen : K) / (float)K : 0;
}

static int enemy_of(const struct vehicle *me, const struct vehicle *t)
{
    return t->alive && t != me && (me->team < 0 || t->team != me->team);
}

/* The enemies vehicle i saw this tick, nearest first; how many it saw. */
static int seen_enemies(const struct world *w, int i, struct near *n, int K, int *cnt)
{
    const struct vehicle *me = world_vehicle(w, i);
    int seen = 0;
    *cnt = 0;
    for (int k = me->sight_first; k < me->sight_first + me->sight_count; k++) {
        int t = world_sight_seen(w, k);
        if (t < 0 || !enemy_of(me, world_vehicle(w, t)))
            continue;
        seen++;
        keep_near(n, cnt, K, v2_len(v2_sub(world_vehicle(w, t)->pos, me->pos)), t);
    }
    return seen;
}

/* Up to this many trees, a ray tests each (the nearest entry is the same
 * number the tree grid's walk finds, sooner: the walk visits some 25
 * cells a ray on a small map). */
#define FEW_TREES 48

/* A circle a ray may meet, in segment_circle_entry's terms from the hull
 * (m = hull - centre, cc = |m|^2 - r^2), worked out once for all R rays
 * rather than once a ray: the same numbers, so the same hits. */
struct ray_circle { vec2 m; double cc; };

/* The circle's entry along d (a = |d|^2) if sooner than best: as
 * segment_circle_entry(p, d, c, r), for a circle the hull is outside. */
static inline double ray_entry(const struct ray_circle *c, vec2 d, double a, double best)
{
    double b = v2_dot(c->m, d), disc = b * b - a * c->cc;
    /* (one test, seldom true: two would each be a coin toss to predict) */
    if (!((b < 0) & (disc >= 0)))
        return best;                            /* behind the hull, or off the ray */
    double t = c->cc / (-b + sqrt(disc));
    return t <= 1 && t < best ? t : best;
}

/* Circle (c, r) for rays of length range from p: 0 when the hull is
 * inside it (every ray meets it at once), -1 when no ray can reach it, 1
 * when *out holds it. */
static int ray_circle(vec2 p, vec2 c, double r, double range, struct ray_circle *out)
{
    out->m = v2_sub(p, c);
    double l2 = v2_len2(out->m);
    out->cc = l2 - r * r;
    if (out->cc <= 0)
        return 0;
    return l2 > (range + r) * (range + r) ? -1 : 1;
}

/* The first tree or vehicle along each of R rays from the hull, evenly
 * round it from its heading: the fraction of the range before it (1:
 * none). */
static void rays(const struct world *w, int i, double range, int R, float *o)
{
    const struct vehicle *me = world_vehicle(w, i);
    struct ray_circle c[FEW_TREES];
    int nc = 0, inside = 0, few = w->trees.n <= FEW_TREES;
    for (size_t k = 0; few && k < w->trees.n; k++) {
        int in = ray_circle(me->pos, w->trees.p[k].c, w->trees.p[k].r, range, &c[nc]);
        inside |= in == 0;
        nc += in > 0;
    }
    /* (vehicles: the big battle has thousands, not kept) */
    for (size_t k = 0; !inside && k < w->vehicles.n; k++) {
        const struct vehicle *t = &w->vehicles.p[k];
        struct ray_circle v;
        if ((int)k != i && t->alive && ray_circle(me->pos, t->pos, t->p->radius, range, &v) == 0)
            inside = 1;
    }
    /* ray r's direction: the hull's turned r times by one step (a cosine
     * and a sine for all R, not for each) */
    vec2 u = me->dir, step = R > 0 ? v2_dir(2 * M_PI / R) : v2(1, 0);
    for (int r = 0; r < R; r++) {
        double best = 1;
        vec2 d = v2_scale(u, range);
        u = v2(u.x * step.x - u.y * step.y, u.x * step.y + u.y * step.x);
        if (inside) {
            o[r] = 0;
            continue;
        }
        double a = v2_len2(d);
        if (a <= 0) {
            o[r] = 1;
            continue;
        }
        for (int k = 0; k < nc; k++)
            best = ray_entry(&c[k], d, a, best);
        if (!few)
            trees_first_hit(w, me->pos, d, &best);
        for (size_t k = 0; k < w->vehicles.n; k++) {
            const struct vehicle *t = &w->vehicles.p[k];
            struct ray_circle v;
            if ((int)k != i && t->alive
                && ray_circle(me->pos, t->pos, t->p->radius, range, &v) > 0)
                best = ray_entry(&v, d, a, best);
        }
        o[r] = (float)best;
    }
}

int observe_size(int K, int R)
{
    return OBSERVE_OWN + (OBSERVE_ENEMY + OBSERVE_SHELL) * K + R;
}

void observe_vehicle(const struct world *w, int i, int K, int R, float *out)
{
    const struct vehicle *me = world_vehicle(w, i);
    memset(out, 0, (size_t)observe_size(K, R) * sizeof *out);
    if (!me->alive)
        return;                 /* a wreck sees nothing: all zeros */
    double range = me->p->view_range > 0 ? me->p->view_range : hypot(w->width, w->height);
    struct near n[OBSERVE_MAX_NEAREST] = { { 0, 0 } };
    int cnt, seen = seen_enemies(w, i, n, K, &cnt);
    own(w, me, seen, K, out);
    float *o = out + OBSERVE_OWN;
    for (int k = 0; k < cnt; k++, o += OBSERVE_ENEMY) {
        const struct vehicle *t = world_vehicle(w, n[k].k);
        vec2 rel = v2_sub(t->pos, me->pos);
        double b = angle_diff(atan2(rel.y, rel.x), me->turret);
        o[0] = 1;
        frame(rel, me->dir, range, &o[1], &o[2]);
        o[3] = (float)cos(b);
        o[4] = (float)sin(b);
        o[5] = t->p->health > 0 ? (float)t->health / (float)t->p->health : 0;
    }
    o = out + OBSERVE_OWN + OBSERVE_ENEMY * K;
    cnt = 0;
    for (size_t k = 0; k < w->shells.n; k++) {
        const struct shell *sh = world_shell(w, k);
        /* its own and its team's shells are no threat to it */
        if (!sh->alive || sh->shooter == i
            || (sh->shooter >= 0 && me->team >= 0
                && world_vehicle(w, sh->shooter)->team == me->team))
            continue;
        double d = v2_len(v2_sub(sh->pos, me->pos));
        if (d <= range)
            keep_near(n, &cnt, K, d, (int)k);
    }
    for (int k = 0; k < cnt; k++, o += OBSERVE_SHELL) {
        const struct shell *sh = world_shell(w, (size_t)n[k].k);
        double sp = v2_len(sh->vel);
        o[0] = 1;
        frame(v2_sub(sh->pos, me->pos), me->dir, range, &o[1], &o[2]);
        if (sp > 0)
            frame(sh->vel, me->dir, sp, &o[3], &o[4]);
    }
    rays(w, i, range, R, out + OBSERVE_OWN + (OBSERVE_ENEMY + OBSERVE_SHELL) * K);
}
