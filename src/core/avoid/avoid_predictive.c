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
 * The search is the expensive part, so it runs every PLAN_EVERY ticks,
 * staggered by vehicle index (an even load per tick), and at once when a
 * neighbour enters the danger radius; in between the tank holds its
 * chosen turn rate and speed, which is what the candidate model assumes
 * anyway (each is a motion held for REACT seconds).  A re-plan reads only
 * the state of the tick, so runs stay deterministic and the grid and the
 * all-pairs walk still decide alike.
 *
 * Shells (dodge = yes): a shell in flight the tank sees (sight_sees_shell:
 * the rule a bot's world.shells follows) and did not fire joins the
 * neighbours as a point on its straight line: scored like a tank that
 * keeps its velocity, never sharing the avoiding, with no separation
 * constraint (a shell is too fast for the gap rule to mean anything).
 * Allies' shells count too: a shell hits friend or foe (shell.c).  A
 * threatening shell seen for the first time forces a re-plan at once.
 *
 * Separation (a hard rule under the steering): before the move, a pair's
 * gap g is centre distance minus both radii.  A predictive tank may close
 * it by at most g/2 along the line between the centres (by all of it,
 * less the other's present approach, against anything else), and may not
 * touch a wall; it slows, or stops, to obey.  Two predictive tanks then
 * close a gap by less than g together, so they never overlap -- whatever
 * the steering chose.  Turning in place stays allowed, so a stopped tank
 * turns away and goes on. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "avoid_impl.h"
#include "ttc.h"
#include "grow.h"
#include "explain.h"
#include "aim/aim.h"
#include "sight/sight.h"
#include "decide_guard.h"

#define HORIZON AVOID_HORIZON   /* seconds of look-ahead (avoid.h) */
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
_Static_assert(NCAND == EXPLAIN_CANDS && NSPEEDS == EXPLAIN_SPEEDS
               && TURN_STEPS == EXPLAIN_TURN_STEPS, "the record holds every candidate");
#ifndef W_DEVIATE
#define W_DEVIATE 1.0       /* a full stop costs 1 */
#endif
#ifndef W_COLLIDE
#define W_COLLIDE 1.0
#endif
#ifndef W_SIDE
#define W_SIDE 0.5          /* changing sides against last tick's turn */
#endif
/* Steering is re-planned every PLAN_EVERY ticks (staggered), or at once
 * when a neighbour comes into the danger radius. */
#ifndef PLAN_EVERY
#define PLAN_EVERY 8
#endif
#define EPS 1e-6            /* keeps a gap strictly open despite rounding */
#define MAX_CONSTRAINTS 32
/* A shell's hit knocks a tank out where a touch only bumps: a candidate's
 * shell penalty weighs this much more (at 4, a hit in 1.4 s costs more
 * than a full stop; at 1 the tank drove on into it). */
#ifndef W_SHELL
#define W_SHELL 4.0
#endif
#define MAX_SHELLS 32       /* shells a re-plan scores, the first in order */

static const double speed_fracs[NSPEEDS] = { 1.0, 0.5, 0.0 };

struct constraint { vec2 u; double share; };

/* A neighbour as both passes read it, gathered once from the grid (or the
 * all-pairs walk): relative position, velocity, the radius of its danger
 * circle and |rel|^2 - R^2, which every candidate's time_to_enter shares. */
struct nb {
    vec2 rel, vel;
    double R, c0;
    double t1;                  /* pass 1's time to collision for pref */
    int index, shares;          /* a shell: index -1, shares 0 */
};

struct scan {
    /* the deciding tank */
    vec2 pos, vel, pref;
    double radius, margin, step_len, dt;
    double reach_speed;         /* above every speed of mine either pass
                                   tries (see may_matter) */
    /* the neighbours in range */
    struct nb *nb;
    int n, cap, total;          /* total: in range, even past cap */
    /* pass 1 */
    double threat_t;            /* smallest time to collision for pref */
    int threat;
    long threat_shell;          /* the threat's shell id when it is one, else 0 */
    double threat_d;
    vec2 threat_rel, threat_vel;    /* its grid entry's, as of now */
    struct constraint con[MAX_CONSTRAINTS];
    int ncon, overflow;
    double bind_all2;           /* (the separation rule's reach for the
                                   widest, fastest neighbour)^2 */
    double danger2;             /* the danger radius, squared */
    int danger;                 /* neighbours inside it */
    /* the threatening shells seen (on a course into my safety distance
     * within the horizon at my present velocity) */
    int shell_count;
    long shell_seen;            /* their highest id, 0: none */
    /* the seen shells that may matter, scored apart from the vehicles */
    struct nb sh[MAX_SHELLS];
    int nsh;
};

static inline int better_threat(double t, int idx, const struct scan *s)
{
    return t < s->threat_t || (t == s->threat_t && s->threat >= 0 && idx < s->threat);
}

/* The separation rule's constraint from one neighbour at d2 (rel: its
 * centre from mine), if it can bind. */
static inline void separation(struct scan *s, vec2 rel, const struct vgrid_entry *e,
                              double d2)
{
    /* The rule binds only when the share drops below one step: for both
     * kinds that needs d < rs + 2 step + |vel| dt (|vel| <= |x| + |y|);
     * the 1e-3 absorbs rounding.  Most neighbours are further away than
     * even the widest such bound (bind_all) and skip the rest. */
    if (!(d2 < s->bind_all2))
        return;
    double rs = s->radius + e->radius;
    double bind = rs + 2 * s->step_len + (fabs(e->vel.x) + fabs(e->vel.y)) * s->dt + 1e-3;
    if (d2 < bind * bind) {
        double d = sqrt(d2);
        double gap = d - rs;
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
    }
}

/* Pass 1 for one neighbour: the separation rule's constraint, if it can
 * bind, and the threat to the behaviour's motion. */
static inline void pass1(struct scan *s, struct nb *n, const struct vgrid_entry *e,
                         double d2)
{
    separation(s, n->rel, e, d2);
    double t = ttc_enter(n->rel, v2_sub(e->vel, s->pref), n->c0);
    n->t1 = t;
    if (t < HORIZON && better_threat(t, e->index, s)) {
        s->threat_t = t;
        s->threat = e->index;
        s->threat_shell = 0;
        s->threat_d = sqrt(d2);
        s->threat_rel = n->rel;
        s->threat_vel = e->vel;
    }
}

/* Can a neighbour matter at all?  Every motion either pass tries for me
 * (the behaviour's, each candidate, and the reciprocal 2v' - v a sharing
 * neighbour is met with) is slower than s->reach_speed.  So if
 * |rel + vel t| >= R + reach_speed t for all t in [0, HORIZON], no time
 * to enter is below the horizon (no penalty, no threat), and the
 * neighbour is too far for the separation rule (that needs the gap
 * below two steps): it changes nothing, and both walks drop it alike.
 * g(t) = |rel + vel t|^2 - (R + m t)^2 is a quadratic: its minimum over
 * the interval is at an end or at its vertex.  R and m come inflated a
 * little, so rounding can only keep a neighbour, never drop one.  (The
 * caller keeps anything within the separation rule's reach first.) */
static inline int may_matter(vec2 rel, vec2 vel, double R, double m, double d2)
{
    double C = d2 - R * R;
    double A = v2_len2(vel) - m * m;
    double B = v2_dot(rel, vel) - R * m;
    /* Inside at 0, inside at HORIZON, or a convex g with its vertex inside
     * (0, HORIZON) and a real root.  Bitwise: no branch to mispredict. */
    return (C < 0) | ((A * HORIZON + 2 * B) * HORIZON + C < 0)
         | ((A > 0) & (B < 0) & (-B < A * HORIZON) & (B * B > A * C));
}

static inline void gather_visit(void *arg, const struct vgrid_entry *e, double d2)
{
    struct scan *s = arg;
    s->danger += d2 < s->danger2;
    vec2 rel = v2_sub(e->pos, s->pos);
    double R = s->radius + e->radius + s->margin;
    double rs = s->radius + e->radius;
    int binds = 0;
    if (d2 < s->bind_all2) {
        double bind = rs + 2 * s->step_len + (fabs(e->vel.x) + fabs(e->vel.y)) * s->dt + 1e-3;
        binds = d2 < bind * bind;
    }
    if (!binds && !may_matter(rel, e->vel, R + 1e-6, s->reach_speed, d2))
        return;
    if (s->total++ >= s->cap)
        return;
    struct nb *n = &s->nb[s->n++];
    n->rel = rel;
    n->vel = e->vel;
    n->R = R;
    n->c0 = v2_len2(n->rel) - n->R * n->R;
    n->index = e->index;
    n->shares = e->shares;
    pass1(s, n, e, d2);
}

/* Shell sh, seen by tank i and not its own (dodge = yes): the caller
 * tests the cheap bounds first, the sight rule last. */
static inline int shell_counts(const struct world *w, int i, const struct shell *sh)
{
    return sh->alive && sh->shooter != i && sight_sees_shell(w, i, sh);
}

/* A shell at rel moving with vel threatens my present motion: it enters
 * my safety distance within the horizon.  Counted into s. */
static inline void shell_threat_count(struct scan *s, const struct shell *sh, vec2 rel,
                                      double c0)
{
    if (ttc_enter(rel, v2_sub(sh->vel, s->vel), c0) < HORIZON) {
        s->shell_count++;
        if (sh->id > s->shell_seen)
            s->shell_seen = sh->id;
    }
}

/* The tick's shells by cell when it has them (the decide stage's, made
 * from these very shells), else NULL: walk every shell. */
static inline const struct shell_index *shells_by_cell(const struct world *w,
                                                       const struct decide_view *c)
{
    size_t n = world_nshells(w);
    return n ? shell_index_for(c->tick->shell_idx, world_shell(w, 0), n) : NULL;
}

/* Shell p, between re-plans: counted when it threatens (a shell further
 * than it and I can close within the horizon cannot) and I see it (no
 * further than my view range: sight_sees_shell's own first test); the
 * sight test, the dearest, last. */
static inline void look_one(const struct world *w, int i, struct scan *s,
                            const struct shell_pt *p, double R, double my, double range2)
{
    vec2 rel = v2_sub(p->pos, s->pos);
    double d2 = v2_len2(rel);
    if (!(d2 <= range2))
        return;
    /* not closing in: ttc_enter gives INFINITY, without its root */
    vec2 vr = v2_sub(p->vel, s->vel);
    if (!(v2_dot(rel, vr) < 0))
        return;
    double reach = R + (p->speed + my) * HORIZON;
    if (d2 < reach * reach && ttc_enter(rel, vr, d2 - R * R) < HORIZON) {
        const struct shell *sh = world_shell(w, p->k);
        if (shell_counts(w, i, sh))
            shell_threat_count(s, sh, rel, d2 - R * R);
    }
}

/* Between re-plans: the threatening shells seen (a new one forces a
 * re-plan): a count and the highest id, so any order of the shells
 * gives the same; by cell, those within my view range. */
static void shells_look(const struct world *w, const struct decide_view *c, int i,
                        struct scan *s)
{
    s->shell_count = 0;
    s->shell_seen = 0;
    const struct vehicle *v = world_vehicle(w, i);
    if (!v->p->dodge)
        return;
    double R = s->radius + s->margin, my = v2_len(s->vel);
    double range = v->p->view_range, range2 = range * range;
    const struct shell_index *x = shells_by_cell(w, c);
    if (!x) {
        for (size_t k = 0; k < world_nshells(w); k++) {
            const struct shell *sh = world_shell(w, k);
            struct shell_pt p = { .pos = sh->pos, .vel = sh->vel, .speed = v2_len(sh->vel),
                                  .k = (uint32_t)k };
            look_one(w, i, s, &p, R, my, range2);
        }
        return;
    }
    /* A shell that threatens me comes within R of me within the horizon
     * while I move at most my * HORIZON: I am within R + my * HORIZON of
     * its path, so in the box of its path widened by that. */
    double wide = R + my * HORIZON;
    wide += shell_index_hair(x, s->pos, wide + range);
    struct shell_walk it;
    uint32_t j0, j1;
    float qf[4];
    shell_box_query(s->pos, wide, qf);
    shell_query q = shell_query_of(qf);
    shell_walk_start(&it, x, s->pos, range);
    while (shell_walk_next(&it, &j0, &j1))
        for (uint32_t j = j0; j < j1; j++)
            if (shell_box_near(x->box + 4 * (size_t)j, q))
                look_one(w, i, s, &x->item[j], R, my, range2);
}

/* Shell k may matter to a re-plan: seen, not mine, and able to come near
 * enough within the horizon. */
static inline int shell_may_matter(const struct world *w, int i, const struct scan *s,
                                   const struct shell *sh, double R)
{
    vec2 rel = v2_sub(sh->pos, s->pos);
    return may_matter(rel, sh->vel, R + 1e-6, s->reach_speed, v2_len2(rel))
        && shell_counts(w, i, sh);
}

/* A shell that may matter, in the shells' order: counted, joins the
 * neighbours (the first MAX_SHELLS), and may become the deciding threat
 * (a tie with a vehicle keeps the vehicle, a tie between shells the
 * first). */
static void gather_one(struct scan *s, const struct shell *sh, double R)
{
    vec2 rel = v2_sub(sh->pos, s->pos);
    double d2 = v2_len2(rel);
    double c0 = d2 - R * R;
    shell_threat_count(s, sh, rel, c0);
    if (s->nsh >= MAX_SHELLS)
        return;
    struct nb *n = &s->sh[s->nsh++];
    n->rel = rel;
    n->vel = sh->vel;
    n->R = R;
    n->c0 = c0;
    n->index = -1;
    n->shares = 0;
    n->t1 = ttc_enter(rel, v2_sub(sh->vel, s->pref), c0);
    if (n->t1 < HORIZON && n->t1 < s->threat_t) {
        s->threat_t = n->t1;
        s->threat = -1;
        s->threat_shell = sh->id;
        s->threat_d = sqrt(d2);
        s->threat_rel = rel;
        s->threat_vel = sh->vel;
    }
}

/* The shells that may matter found by cell, into k[0, cap) in the shells'
 * order; how many, or -1 past cap. */
#define NEAR_SHELLS 256
static int near_shells(const struct world *w, const struct shell_index *x, int i,
                       const struct scan *s, double R, uint32_t *k, int cap)
{
    const struct vehicle *v = world_vehicle(w, i);
    double range = v->p->view_range, range2 = range * range;
    /* may_matter: within R + reach_speed * t of me at some t in the
     * horizon, so I am in the box of its path widened by that */
    double wide = R + 1e-6 + s->reach_speed * HORIZON;
    wide += shell_index_hair(x, s->pos, wide + range);
    int n = 0;
    struct shell_walk it;
    uint32_t j0, j1;
    float qf[4];
    shell_box_query(s->pos, wide, qf);
    shell_query q = shell_query_of(qf);
    shell_walk_start(&it, x, s->pos, range);
    while (shell_walk_next(&it, &j0, &j1)) {
        for (uint32_t j = j0; j < j1; j++) {
            const struct shell_pt *p = &x->item[j];
            if (!shell_box_near(x->box + 4 * (size_t)j, q))
                continue;
            vec2 rel = v2_sub(p->pos, s->pos);
            double d2 = v2_len2(rel);
            /* no further than my view range (sight_sees_shell's first
             * test) before the shell's record is read */
            if (!(d2 <= range2) || !may_matter(rel, p->vel, R + 1e-6, s->reach_speed, d2)
                || !shell_counts(w, i, world_shell(w, p->k)))
                continue;
            if (n == cap)
                return -1;
            /* insertion into order: the cells' items ascend within a
             * cell, not across them */
            int at = n++;
            while (at > 0 && k[at - 1] > p->k) {
                k[at] = k[at - 1];
                at--;
            }
            k[at] = p->k;
        }
    }
    return n;
}

/* A re-plan's shells: after the vehicles, in the shells' order (alike in
 * both walks and by cell), each seen shell that may matter. */
static void gather_seen_shells(const struct world *w, const struct decide_view *c, int i,
                               struct scan *s)
{
    s->shell_count = 0;
    s->shell_seen = 0;
    s->nsh = 0;
    if (!world_vehicle(w, i)->p->dodge)
        return;
    double R = s->radius + s->margin;
    const struct shell_index *x = shells_by_cell(w, c);
    if (x) {
        uint32_t k[NEAR_SHELLS];
        int n = near_shells(w, x, i, s, R, k, NEAR_SHELLS);
        if (n >= 0) {
            for (int j = 0; j < n; j++)
                gather_one(s, world_shell(w, k[j]), R);
            return;
        }
    }
    for (size_t k = 0; k < world_nshells(w); k++) {
        const struct shell *sh = world_shell(w, k);
        if (shell_may_matter(w, i, s, sh, R))
            gather_one(s, sh, R);
    }
}

/* Between re-plans: only the separation rule's constraints and the count
 * of neighbours in the danger radius. */
static inline void light_visit(void *arg, const struct vgrid_entry *e, double d2)
{
    struct scan *s = arg;
    s->danger += d2 < s->danger2;
    separation(s, v2_sub(e->pos, s->pos), e, d2);
}

/* fmin and fmax are library calls here (no -ffast-math); the values they
 * pick between are never NaN where these stand in (a NaN b is skipped
 * alike), and a zero's sign changes nothing downstream. */
static inline double dmin(double a, double b) { return b < a ? b : a; }
static inline double dmax(double a, double b) { return b > a ? b : a; }

/* Time until a circle at p moving with v touches a wall of the map. */
static double wall_time(const struct world *w, vec2 p, double r, vec2 v)
{
    double t = INFINITY;
    if (v.x < 0) t = dmin(t, (p.x - r) / -v.x);
    if (v.x > 0) t = dmin(t, (w->width - r - p.x) / v.x);
    if (v.y < 0) t = dmin(t, (p.y - r) / -v.y);
    if (v.y > 0) t = dmin(t, (w->height - r - p.y) / v.y);
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
    /* Far from every wall (more room than 1.5 steps, |dir| being 1 to
     * rounding), no wall can bind: the test below would change nothing. */
    double near = dmin(dmin(room[0], room[1]), dmin(room[2], room[3])) - EPS;
    if (near > 1.5 * cap * dt)
        return cap;
    double out[4] = { -dir.x, dir.x, -dir.y, dir.y };
    for (int k = 0; k < 4; k++) {
        double share = room[k] - EPS;
        if (out[k] > 0 && cap * dt * out[k] > share)
            cap = share > 0 ? share / (out[k] * dt) : 0;
    }
    return cap;
}

/* The cost of candidate c, as one expression, so the bound below and the
 * full evaluation round alike. */
static inline double cand_cost(double pen, double dev, int side, int last_turn)
{
    double cost = pen + dev;
    if (side && last_turn && side != last_turn)
        cost += W_SIDE;
    return cost;
}

/* The threat's record for the viewer: closest approach with both
 * velocities as they are now (the threat's from its grid entry, so the
 * record costs no visit to its vehicle). */
static void record_threat(const struct vehicle *v, struct avoid_info *a,
                          const struct scan *s)
{
    vec2 rel = s->threat_rel;
    vec2 rv = v2_sub(s->threat_vel, s->vel);
    double rv2 = v2_len2(rv);
    double tca = rv2 > 0 ? fmax(0, -v2_dot(rel, rv) / rv2) : 0;
    a->threat = s->threat;
    a->shell = s->threat_shell;
    a->threat_dist = s->threat_d;
    a->tca = tca;
    a->dca = v2_len(v2_add(rel, v2_scale(rv, tca)));
    a->hit_point = v2_add(v->pos, v2_scale(s->vel, tca));
}

/* The neighbours as columns for ttc_set_min, when they fit. */
static void set_fill(struct ttc_set *a, const struct scan *s)
{
    a->n = s->n;
    for (int q = 0; q < s->n; q++)
        ttc_set_put(a, q, s->nb[q].rel, s->nb[q].vel, s->nb[q].c0, s->nb[q].shares);
    ttc_set_pad(a);
}

/* The candidate motions, from the right (c = 0) to the left: my
 * direction turned by +-k/3 of the turn held for REACT (three sincos for
 * the six turns, by rotation), at each speed; their deviation from what
 * the behaviour wants, and their side. */
static void candidates(const struct vehicle *v, const struct scan *s, double cruise,
                       vec2 cand[NCAND], double dev[NCAND], int side[NCAND])
{
    double rate = v->p->turn_rate;
    double rc[TURN_STEPS + 1], rsn[TURN_STEPS + 1];
    rc[0] = 1;
    rsn[0] = 0;
    for (int k = 1; k <= TURN_STEPS; k++) {
        double t = rate * REACT * k / TURN_STEPS;
        rc[k] = cos(t);
        rsn[k] = sin(t);
    }
    int c = 0;
    for (int k = TURN_STEPS; k >= -TURN_STEPS; k--) {
        int ak = k < 0 ? -k : k;
        double sn = k < 0 ? -rsn[ak] : rsn[ak];
        vec2 dir = k == 0 ? v->dir
                 : v2(v->dir.x * rc[ak] - v->dir.y * sn, v->dir.y * rc[ak] + v->dir.x * sn);
        for (int m = 0; m < NSPEEDS; m++, c++) {
            cand[c] = v2_scale(dir, cruise * speed_fracs[m]);
            dev[c] = W_DEVIATE * v2_dist(cand[c], s->pref) / (cruise > 0 ? cruise : 1);
            side[c] = k > 0 ? 1 : k < 0 ? -1 : 0;
        }
    }
}

/* The order to try the candidates in: by (base cost, c), a NaN as +inf
 * (it never wins anyway).  Most are tried, so one insertion sort. */
static void by_base_cost(const double dev[NCAND], const int side[NCAND], int last_turn,
                         double base[NCAND], int order[NCAND])
{
    /* key is zeroed only because cppcheck cannot see that key[j - 1] is
     * written before it is read. */
    double key[NCAND] = { 0 };
    for (int c = 0; c < NCAND; c++) {
        base[c] = cand_cost(0, dev[c], side[c], last_turn);
        double k = base[c] == base[c] ? base[c] : INFINITY;
        int j = c;
        for (; j > 0 && key[j - 1] > k; j--) {   /* equal keys: lower c first */
            key[j] = key[j - 1];
            order[j] = order[j - 1];
        }
        key[j] = k;
        order[j] = c;
    }
}

/* The time to the first contact of motion m: with a wall, or with a
 * neighbour (reciprocal: against a tank that avoids too, 2m - v, as if it
 * takes the other half of the change); from the columns when they fit. */
static double contact_time(const struct world *w, const struct scan *s,
                           const struct ttc_set *set, int use_set, vec2 m)
{
    double ttc = wall_time(w, s->pos, s->radius, m);
    vec2 recip = v2_sub(v2_scale(m, 2), s->vel);
    if (use_set)
        return ttc_set_min(set, m, recip, ttc);
    for (int q = 0; q < s->n; q++) {
        const struct nb *n = &s->nb[q];
        double t = ttc_enter(n->rel, v2_sub(n->vel, n->shares ? recip : m), n->c0);
        ttc = t < ttc ? t : ttc;
    }
    return ttc;
}

/* Motion m's penalty for the shells: its time into the safety distance
 * of the first (a shell keeps its velocity), weighed by W_SHELL; 0 (as
 * penalty(inf)) with no shell, so a scene without shells scores as ever. */
static double shell_penalty(const struct scan *s, vec2 m)
{
    double t = INFINITY;
    for (int q = 0; q < s->nsh; q++) {
        const struct nb *n = &s->sh[q];
        double tq = ttc_enter(n->rel, v2_sub(n->vel, m), n->c0);
        t = tq < t ? tq : t;
    }
    return s->nsh ? W_SHELL * penalty(t) : 0;
}

/* The steering search: the best candidate motion for the neighbours in
 * s->nb; returns its index (turn step TURN_STEPS - c / NSPEEDS, speed
 * c % NSPEEDS).  Every candidate's cost is its penalty (>= 0) plus a
 * deviation known beforehand, so the candidates are tried from the
 * cheapest deviation up: one whose deviation alone cannot beat the best
 * cost so far ends the search.  The choice is exactly the exhaustive
 * one's: lowest cost, then the first in the walk from the right (lowest
 * c). */
static int steer(const struct world *w, const struct vehicle *v, struct scan *s,
                 double cruise, int last_turn, struct explain_avoid *x)
{
    vec2 cand[NCAND];
    double dev[NCAND], base[NCAND];
    int side[NCAND], order[NCAND];
    candidates(v, s, cruise, cand, dev, side);
    /* The neighbours again as columns (ttc.h), when they fit. */
    struct ttc_set set;
    int use_set = s->n <= TTC_SET_MAX;
    if (use_set)
        set_fill(&set, s);
    by_base_cost(dev, side, last_turn, base, order);
    if (x)
        explain_cands(x, base, v->p->turn_rate * w->dt, cruise, speed_fracs);
    /* If no cost compares (a NaN from a degenerate state), keep the
     * heading and stop rather than index speed_fracs[-1]. */
    int best = TURN_STEPS * NSPEEDS + NSPEEDS - 1;
    int found = 0;
    double best_cost = INFINITY;
    /* The seven stopping candidates are one motion (a zero velocity, +-0
     * alike in every term): its time is worked out once. */
    double stop_ttc = -1, stop_shell = 0;
    for (int o = 0; o < NCAND; o++) {
        int c = order[o];
        if (found && (base[c] > best_cost || (base[c] == best_cost && c > best)))
            break;
        int stop = speed_fracs[c % NSPEEDS] == 0;
        int again = stop && stop_ttc >= 0;
        double ttc = again ? stop_ttc : contact_time(w, s, &set, use_set, cand[c]);
        double shell = again ? stop_shell : shell_penalty(s, cand[c]);
        if (stop) {
            stop_ttc = ttc;
            stop_shell = shell;
        }
        double cost = cand_cost(penalty(ttc) + shell, dev[c], side[c], last_turn);
        if (x)
            explain_cand(x, c, cost);
        if (cost < best_cost || (found && cost == best_cost && c < best)) {
            best_cost = cost;
            best = c;
            found = 1;
        }
    }
    return best;
}

/* The scan's start: where I am and how I move; no threat yet. */
static void scan_start(struct scan *s, const struct world *w, const struct vehicle *v,
                       double top)
{
    s->pos = v->pos;
    s->radius = v->p->radius;
    s->margin = MARGIN_FRAC * v->p->radius;
    s->vel = v2_scale(v->dir, v->speed);
    s->step_len = top * w->dt;
    s->dt = w->dt;
    s->threat_t = INFINITY;
    s->threat = -1;
    s->threat_shell = 0;
    s->threat_d = 0;
    s->ncon = s->overflow = 0;
    s->danger = 0;
    s->shell_count = 0;
    s->shell_seen = 0;
    s->nsh = 0;
}

/* How far the search looks (*range), and the danger and binding radii
 * (into s): from the widest radius and the fastest speed around, the
 * grid's, or with no grid to ask, the tick's all-pairs product.  Returns
 * the danger radius. */
static double scan_reach(struct scan *s, const struct world *w, int brute,
                         const struct decide_view *c, double top, double *range)
{
    double maxr = world_vgrid_max_radius(w), maxs = world_vgrid_max_speed(w);
    if (brute) {
        /* the tick's product, made once before any decision (tick.c:
         * decide_tick_brute), not once a tank: n^2 otherwise */
        maxr = c->tick->brute_maxr;
        maxs = c->tick->brute_maxs;
    }
    /* Far enough for a neighbour as fast as I am, head-on, to matter
     * within the horizon. */
    *range = s->radius + maxr + s->margin + 2 * top * HORIZON;
    if (*range < s->radius + maxr + 1)
        *range = s->radius + maxr + 1;     /* a standing tank still keeps its gaps */
    /* The danger radius: where a neighbour could reach my safety distance
     * before my next scheduled re-plan. */
    double danger = dmin(*range, s->radius + maxr + s->margin
                                 + (top + maxs) * PLAN_EVERY * w->dt);
    s->danger2 = danger * danger;
    /* Neighbours the rule can bind for: d < rs + 2 step + |vel| dt, with
     * |x| + |y| of vel at most 1.5 maxs (1.5 > sqrt 2 absorbs rounding). */
    double bind = s->radius + maxr + 2 * s->step_len + 1.5 * maxs * w->dt + 1e-3;
    s->bind_all2 = bind * bind;
    return dmin(*range, dmax(danger, bind));
}

/* My fastest motion in either pass: the behaviour's (|pref| = cruise), a
 * candidate (at most cruise) or a reciprocal 2c - vel, where c is up to
 * cruise and turned at most rate * REACT from my heading: |2c - vel|^2 =
 * 4|c|^2 + speed^2 - 4 |c| speed cos(turn), with cos(x) >= 1 - x^2/2 and
 * |c| one of cruise, cruise / 2, 0.  The relative margins cover rounding. */
static double fastest(const struct vehicle *v, double top, double rate)
{
    double turn = fmin(rate * REACT, M_PI), cmin = fmax(1 - turn * turn / 2, -1);
    double sp = v->speed, m2 = top * top;
    for (int m = 0; m < NSPEEDS; m++) {
        double c = top * speed_fracs[m];
        double r2 = 4 * c * c + sp * sp - 4 * c * sp * cmin;
        if (r2 > m2)
            m2 = r2;
    }
    return sqrt(m2) * (1 + 1e-9) + 1e-9;
}

/* A re-plan: the neighbours gathered once (pass 1 runs as they come), into
 * a small buffer on the stack, or the lane's scratch when a crowd is
 * denser than that; where even that cannot grow, the tank stops
 * (overflow), which the separation rule always allows.  Then the steering
 * chosen against the threat, held in a. */
static void replan(const struct world *w, int i, int brute, const struct decide_view *c,
                   const struct vehicle *v, struct scan *s, double range, double cruise,
                   int last_turn, struct decision *d)
{
    struct avoid_info *a = &d->avoid;
    double top = cruise > 0 ? cruise : 0;
    s->ncon = s->overflow = 0;
    s->danger = 0;
    /* What the behaviour wants, its turn of this tick held for REACT. */
    s->pref = v2_scale(d->want.turn == 0 ? v->dir
                       : v2_dir(v->heading + d->want.turn * (REACT / w->dt)),
                       d->want.speed);
    s->reach_speed = fastest(v, top, v->p->turn_rate);
    struct nb local[64];
    s->nb = local;
    s->cap = 64;
    s->n = s->total = 0;
    avoid_neighbours(w, i, range, brute, gather_visit, s);
    gather_seen_shells(w, c, i, s);
    if (s->total > s->cap) {
        size_t need = (size_t)s->total * sizeof *s->nb;
        if (grow_reserve(&c->lane->avoid_buf, &c->lane->avoid_buf_cap, need, 1) == 0) {
            s->nb = c->lane->avoid_buf;
            s->cap = s->total;
            s->n = s->total = 0;
            s->threat_t = INFINITY;
            s->threat = -1;
            s->threat_shell = 0;
            s->threat_d = 0;
            s->ncon = s->overflow = 0;
            s->danger = 0;
            avoid_neighbours(w, i, range, brute, gather_visit, s);
            gather_seen_shells(w, c, i, s);
        } else {
            s->overflow = 1;
        }
    }
    a->held = 0;
    int threatened = s->threat >= 0 || s->threat_shell > 0;
    if (threatened && top > 0) {
        struct explain_avoid *x = d->why ? &d->why->avoid : NULL;
        int best = steer(w, v, s, cruise, last_turn, x);
        if (x)
            x->chosen = best;
        a->held = 1;
        a->plan_k = (signed char)(TURN_STEPS - best / NSPEEDS);
        a->plan_m = (signed char)(best % NSPEEDS);
    }
    if (threatened)
        record_threat(v, a, s);
    /* (s->nb points into this frame no more after it returns) */
    s->nb = NULL;
}

/* Between re-plans: the last plan held, and its threat record: the viewer
 * shows what the plan answered (looking the threat up afresh would cost a
 * visit to a far vehicle for every tank, every tick). */
static void hold(struct avoid_info *a, const struct avoid_info *last, double top)
{
    a->held = last->held && top > 0;
    a->plan_k = last->plan_k;
    a->plan_m = last->plan_m;
    a->threat = last->threat;
    a->shell = last->shell;
    a->threat_dist = last->threat_dist;
    a->tca = last->tca;
    a->dca = last->dca;
    a->hit_point = last->hit_point;
}

void avoid_predictive(const struct world *w, int i, int brute,
                      const struct avoid_info *last, const struct decide_view *c,
                      struct decision *d)
{
    const struct vehicle *v = world_vehicle(w, i);
    struct avoid_info *a = &d->avoid;
    double cruise = d->want.speed;  /* the behaviour's speed; 0: it holds */
    double top = cruise > 0 ? cruise : 0;
    struct scan s;
    scan_start(&s, w, v, top);
    double range;
    double reach = scan_reach(&s, w, brute, c, top, &range);

    /* Re-plan the steering every PLAN_EVERY ticks, staggered by index so
     * each tick re-plans an even share of the crowd; between re-plans hold
     * the chosen candidate, and gather only what the separation rule needs
     * (which runs every tick, so gaps stay as safe as ever).  A neighbour
     * entering the danger radius forces a re-plan at once. */
    int replanning = (unsigned long)(w->tick + i) % PLAN_EVERY == 0;
    if (!replanning) {
        /* The full pass sees nothing past range. */
        avoid_neighbours(w, i, reach, brute, light_visit, &s);
        if (s.danger > last->danger)
            replanning = 1;
        /* a threatening shell not seen at the last look: more of them,
         * or a newer one (ids only grow) */
        shells_look(w, c, i, &s);
        if (s.shell_count > last->shell_count || s.shell_seen > last->shell_seen)
            replanning = 1;
    }
    if (replanning)
        replan(w, i, brute, c, v, &s, range, cruise, last->turn, d);
    else
        hold(a, last, top);
    a->danger = (unsigned char)(s.danger < 255 ? s.danger : 255);
    a->shell_count = (unsigned char)(s.shell_count < 255 ? s.shell_count : 255);
    a->shell_seen = s.shell_seen;
    if (a->held) {
        int k = a->plan_k;
        d->want.turn = v->p->turn_rate * w->dt * k / TURN_STEPS;
        d->want.speed = cruise * speed_fracs[a->plan_m];
        a->turn = k > 0 ? 1 : k < 0 ? -1 : 0;
        a->steer = 1;
    }

    /* Exactly the direction act will move along. */
    double heading;
    vec2 dir;
    vehicle_turned(&c->lane->turns, v, d->want.turn, &heading, &dir);
    double cap = s.overflow ? 0 : speed_cap(w, &s, dir, d->want.speed);
    if (cap < d->want.speed) {
        d->want.speed = cap;
        a->limited = 1;
    }
    a->speed_scale = v->p->speed > 0 ? d->want.speed / v->p->speed : 0;
}
