/* avoid_predictive.c — the project's avoidance, in two layers.
 *
 * Steering (velocity obstacles, sampled as in van den Berg et al.'s RVO,
 * 2008): when the motion the behaviour wants would bring some neighbour
 * within the safety distance (both radii plus a margin) inside the
 * horizon, score a small set of candidate motions -- a sustained turn rate
 * from hard left to hard right times full, half or no speed -- by their
 * smallest time to collision over every neighbour in range and the walls,
 * and by how far they stray from what the behaviour wants; take the best.
 * Another predictive tank is assumed to do half of the avoiding (the
 * reciprocal velocity 2v' - v), anything else to keep its velocity.  The
 * candidate set is symmetric and walked from the right, so a perfectly
 * symmetric encounter always resolves the same way: both turn right.
 *
 * Separation (a hard rule under the steering): before the move, a pair's
 * gap g is centre distance minus both radii.  A predictive tank may close
 * it by at most g/2 along the line between the centres (by all of it,
 * less the other's present approach, against anything else), and may not
 * touch a wall; it slows, or stops, to obey.  Two predictive tanks then
 * close a gap by less than g together, so they never overlap -- whatever
 * the steering chose.  Turning in place stays allowed, so a stopped tank
 * turns away and goes on. */
#include "avoid_impl.h"

#ifndef HORIZON
#define HORIZON 2.0         /* seconds of look-ahead */
#endif
/* A candidate turn rate held this long sets the candidate's heading:
 * turning is slow (30 deg/s), so this is where the turn has got to.  The
 * constants were tuned on the 300-tank crowd (tests/maps/crowd300.ini) for
 * the highest mean speed; collisions do not depend on them. */
#ifndef REACT
#define REACT 0.5
#endif
#ifndef MARGIN_FRAC
#define MARGIN_FRAC 0.25    /* comfort margin, in radii of the deciding tank */
#endif
#define TURN_STEPS 3        /* candidate turn rates k/3 of the limit */
#define NSPEEDS 3
#define NCAND ((2 * TURN_STEPS + 1) * NSPEEDS)
#ifndef W_DEVIATE
#define W_DEVIATE 1.0       /* a full stop costs 1 */
#endif
#ifndef W_COLLIDE
#define W_COLLIDE 1.0
#endif
#ifndef W_SIDE
#define W_SIDE 0.5          /* changing sides against last tick's turn */
#endif
#define EPS 1e-6            /* keeps a gap strictly open despite rounding */
#define MAX_CONSTRAINTS 32

static const double speed_fracs[NSPEEDS] = { 1.0, 0.5, 0.0 };

/* Time until a circle of radius R around the origin is entered by a point
 * at p moving with velocity v; 0 when inside already, INFINITY never. */
static inline double time_to_enter(vec2 p, vec2 v, double R)
{
    double c = v2_len2(p) - R * R;
    double b = v2_dot(p, v);
    /* Inside already (within the margin): what matters is whether the
     * motion closes in or opens up. */
    if (b >= 0)
        return INFINITY;
    if (c < 0)
        return 0;
    double a = v2_len2(v);
    double disc = b * b - a * c;
    if (disc < 0)
        return INFINITY;
    return c / (-b + sqrt(disc));   /* the smaller root, without cancellation */
}

struct constraint { vec2 u; double share; };

struct scan {
    /* the deciding tank */
    vec2 pos, vel, pref;
    double radius, margin, step_len, dt;
    /* pass 1 */
    double threat_t;            /* smallest time to collision for pref */
    int threat;
    double threat_d;
    struct constraint con[MAX_CONSTRAINTS];
    int ncon, overflow;
    /* pass 2 */
    vec2 cand[NCAND];
    double ttc[NCAND];
};

static inline int better_threat(double t, int idx, const struct scan *s)
{
    return t < s->threat_t || (t == s->threat_t && s->threat >= 0 && idx < s->threat);
}

static inline void pass1_visit(void *ctx, const struct vgrid_entry *e, double d2)
{
    struct scan *s = ctx;
    vec2 rel = v2_sub(e->pos, s->pos);
    double d = sqrt(d2);
    double gap = d - (s->radius + e->radius);
    /* The separation rule's share of this gap; only a few neighbours are
     * ever close enough for it to bind. */
    vec2 u = d > 0 ? v2_scale(rel, 1.0 / d) : v2(1, 0);
    double share;
    if (e->shares)
        share = gap / 2;
    else {
        double approach = -v2_dot(e->vel, u) * s->dt;
        share = gap - (approach > 0 ? approach : 0);
    }
    share -= EPS;
    if (share < s->step_len) {
        if (s->ncon < MAX_CONSTRAINTS)
            s->con[s->ncon++] = (struct constraint){ u, share };
        else
            s->overflow = 1;
    }
    double t = time_to_enter(rel, v2_sub(e->vel, s->pref),
                             s->radius + e->radius + s->margin);
    if (t < HORIZON && better_threat(t, e->index, s)) {
        s->threat_t = t;
        s->threat = e->index;
        s->threat_d = d;
    }
}

static inline void pass2_visit(void *ctx, const struct vgrid_entry *e, double d2)
{
    struct scan *s = ctx;
    (void)d2;
    vec2 rel = v2_sub(e->pos, s->pos);
    double R = s->radius + e->radius + s->margin;
    for (int c = 0; c < NCAND; c++) {
        /* Reciprocal: against a tank that avoids too, 2v' - v, as if it
         * takes the other half of the change. */
        vec2 mine = e->shares ? v2_sub(v2_scale(s->cand[c], 2), s->vel) : s->cand[c];
        double t = time_to_enter(rel, v2_sub(e->vel, mine), R);
        if (t < s->ttc[c])
            s->ttc[c] = t;
    }
}

/* Time until a circle at p moving with v touches a wall of the map. */
static double wall_time(const struct world *w, vec2 p, double r, vec2 v)
{
    double t = INFINITY;
    if (v.x < 0) t = fmin(t, (p.x - r) / -v.x);
    if (v.x > 0) t = fmin(t, (w->width - r - p.x) / v.x);
    if (v.y < 0) t = fmin(t, (p.y - r) / -v.y);
    if (v.y > 0) t = fmin(t, (w->height - r - p.y) / v.y);
    return t > 0 ? t : 0;
}

static double penalty(double t)
{
    if (t >= HORIZON)
        return 0;
    if (t <= 0)
        return 1e6;
    return W_COLLIDE * (HORIZON / t - 1);
}

/* The fastest speed, up to want, at which moving along dir keeps every
 * constraint and stays off the walls. */
static double speed_cap(const struct world *w, const struct scan *s,
                        vec2 dir, double want)
{
    double cap = want;
    double dt = w->dt;
    for (int k = 0; k < s->ncon; k++) {
        double a = v2_dot(dir, s->con[k].u);
        if (a > 0 && cap * dt * a > s->con[k].share)
            cap = s->con[k].share > 0 ? s->con[k].share / (a * dt) : 0;
    }
    double r = s->radius;
    double room[4] = { s->pos.x - r, w->width - r - s->pos.x,
                       s->pos.y - r, w->height - r - s->pos.y };
    double out[4] = { -dir.x, dir.x, -dir.y, dir.y };
    for (int k = 0; k < 4; k++) {
        double share = room[k] - EPS;
        if (out[k] > 0 && cap * dt * out[k] > share)
            cap = share > 0 ? share / (out[k] * dt) : 0;
    }
    return cap;
}

void avoid_predictive(struct world *w, int i, int brute, int last_turn)
{
    struct vehicle *v = &w->vehicles.p[i];
    struct avoid_info *a = &v->avoid;
    double cruise = v->want_speed;  /* the behaviour's speed; 0: it holds */
    double rate = v->p->turn_rate;
    struct scan s;
    s.pos = v->pos;
    s.radius = v->p->radius;
    s.margin = MARGIN_FRAC * v->p->radius;
    s.vel = v2_scale(v->dir, v->speed);
    /* What the behaviour wants, its turn of this tick held for REACT. */
    s.pref = v2_scale(v->want_turn == 0 ? v->dir
                      : v2_dir(v->heading + v->want_turn * (REACT / w->dt)),
                      v->want_speed);
    double top = cruise > 0 ? cruise : 0;
    s.step_len = top * w->dt;
    s.dt = w->dt;
    s.threat_t = INFINITY;
    s.threat = -1;
    s.threat_d = 0;
    s.ncon = s.overflow = 0;

    /* Far enough for a neighbour as fast as I am, head-on, to matter
     * within the horizon. */
    double maxr = w->vgrid.max_radius;
    if (brute) {
        /* No grid to ask: the widest radius over the vehicles. */
        maxr = 0;
        for (size_t j = 0; j < w->vehicles.n; j++)
            if (w->vehicles.p[j].alive && w->vehicles.p[j].p->radius > maxr)
                maxr = w->vehicles.p[j].p->radius;
    }
    double range = s.radius + maxr + s.margin + 2 * top * HORIZON;
    if (range < s.radius + maxr + 1)
        range = s.radius + maxr + 1;   /* a standing tank still keeps its gaps */
    avoid_neighbours(w, i, range, brute, pass1_visit, &s);

    if (s.threat >= 0 && top > 0) {
        int c = 0;
        for (int k = TURN_STEPS; k >= -TURN_STEPS; k--)
            for (int m = 0; m < NSPEEDS; m++, c++) {
                double h = v->heading + rate * REACT * k / TURN_STEPS;
                s.cand[c] = v2_scale(v2_dir(h), cruise * speed_fracs[m]);
                s.ttc[c] = wall_time(w, s.pos, s.radius, s.cand[c]);
            }
        avoid_neighbours(w, i, range, brute, pass2_visit, &s);
        /* If no cost compares (a NaN from a degenerate state), keep the
         * heading and stop rather than index speed_fracs[-1]. */
        int best = TURN_STEPS * NSPEEDS + NSPEEDS - 1;
        double best_cost = INFINITY;
        c = 0;
        for (int k = TURN_STEPS; k >= -TURN_STEPS; k--)
            for (int m = 0; m < NSPEEDS; m++, c++) {
                double cost = penalty(s.ttc[c])
                            + W_DEVIATE * v2_dist(s.cand[c], s.pref) / (cruise > 0 ? cruise : 1);
                int side = k > 0 ? 1 : k < 0 ? -1 : 0;
                if (side && last_turn && side != last_turn)
                    cost += W_SIDE;
                if (cost < best_cost) {
                    best_cost = cost;
                    best = c;
                }
            }
        int k = TURN_STEPS - best / NSPEEDS;
        v->want_turn = rate * w->dt * k / TURN_STEPS;
        v->want_speed = cruise * speed_fracs[best % NSPEEDS];
        a->turn = k > 0 ? 1 : k < 0 ? -1 : 0;
        a->steer = 1;
    }
    if (s.threat >= 0) {
        const struct vehicle *t = &w->vehicles.p[s.threat];
        vec2 rel = v2_sub(t->pos, v->pos);
        vec2 rv = v2_sub(v2_scale(t->dir, t->speed), s.vel);
        double rv2 = v2_len2(rv);
        double tca = rv2 > 0 ? fmax(0, -v2_dot(rel, rv) / rv2) : 0;
        a->threat = s.threat;
        a->threat_dist = s.threat_d;
        a->tca = tca;
        a->dca = v2_len(v2_add(rel, v2_scale(rv, tca)));
        a->hit_point = v2_add(v->pos, v2_scale(s.vel, tca));
    }

    vec2 dir = v->want_turn == 0 && v->heading > -M_PI && v->heading <= M_PI
             ? v->dir : v2_dir(angle_norm(v->heading + v->want_turn));
    double cap = s.overflow ? 0 : speed_cap(w, &s, dir, v->want_speed);
    if (cap < v->want_speed) {
        v->want_speed = cap;
        a->limited = 1;
    }
    a->speed_scale = v->p->speed > 0 ? v->want_speed / v->p->speed : 0;
}
