/* shell.c — the shell phase: guns fire, shells fly, hit, miss.
 *
 * A shell flies straight at shell_speed.  Each tick it sweeps the segment it
 * covers, so a fast shell cannot pass through a tank between two ticks, and
 * stops at the first of: a tank or turret whose circle it meets (friend or
 * foe, never its shooter; the circle moves along the vehicle's own motion
 * during the tick, so the test is between two moving bodies), a tree (the
 * cells of the tree grid along the segment, in order, by grid_walk), the
 * map edge, or the end of its range.
 *
 * Hits are found against the vehicles alive when the phase begins and are
 * applied afterwards, so the order of the shells never changes who is hit:
 * two shells meeting one tank in the same tick both hit it.  A knocked-out
 * vehicle stays as a wreck that blocks nothing and does nothing. */
#include <math.h>
#include <string.h>

#include "aim/aim.h"
#include "decide.h"
#include "grow.h"
#include "par.h"
#include "score.h"
#include "stages.h"
#include "trees.h"
#include "world.h"

/* Fewer shells than this fly on one thread (waking the others costs
 * more than they save). */
#define SHELLS_PAR_MIN 256

/* Where the segment leaves the map, as s in [0, 1]; +inf when it stays. */
static double edge_exit(const struct world *w, vec2 p, vec2 d)
{
    double s = INFINITY;
    if (d.x < 0) s = fmin(s, -p.x / d.x);
    if (d.x > 0) s = fmin(s, (w->width - p.x) / d.x);
    if (d.y < 0) s = fmin(s, -p.y / d.y);
    if (d.y > 0) s = fmin(s, (w->height - p.y) / d.y);
    return s < 0 ? 0 : s;
}

/* Where a vehicle that moved straight from `from` to `pos` this tick is
 * at its time t. */
static vec2 moved_at(const struct world *w, vec2 from, vec2 pos, double t)
{
    return v2_add(from, v2_scale(v2_sub(pos, from), t / w->dt));
}

struct near_scan {
    const struct world *w;
    const struct shell *sh;
    const struct shell_body *bodies;    /* NULL: read the vehicles */
    vec2 p, d;
    double t0, tau;
    double best;
    int hit;
};

/* Vehicle i, from `from` to `pos` with `radius`, against the scan's
 * shell: the shell relative to the vehicle over the segment's time. */
static void near_test(struct near_scan *n, int i, vec2 from, vec2 pos, double radius)
{
    vec2 a = moved_at(n->w, from, pos, n->t0);
    vec2 b = moved_at(n->w, from, pos, n->t0 + n->tau);
    vec2 rel = v2_sub(n->d, v2_sub(b, a));
    double s = segment_circle_entry(n->p, rel, a, radius);
    if (s >= 0 && (s < n->best || (s == n->best && i < n->hit))) {
        n->best = s;
        n->hit = i;
    }
}

static void near_visit(const struct vgrid_entry *e, void *ctx)
{
    struct near_scan *n = ctx;
    if (e->index == n->sh->shooter)
        return;
    if (n->bodies) {
        const struct shell_body *b = &n->bodies[e->index];
        if (b->radius >= 0)
            near_test(n, e->index, b->from, b->pos, b->radius);
        return;
    }
    const struct vehicle *v = &n->w->vehicles.p[e->index];
    if (v->alive && v->kind != VK_CAR)
        near_test(n, e->index, v->from, v->pos, v->p->radius);
}

/* Shell sh's flight this tick: where it ends, and what it hit or why it
 * missed, against the world as the phase began (writes only sh). */
static void shell_fly(const struct world *w, struct shell *sh, double maxr,
                      double maxmove, const struct shell_body *bodies)
{
    double dt = w->dt;
    double t0 = sh->delay, tau = dt - sh->delay;
    sh->delay = 0;
    if (tau <= 0)
        return;
    vec2 d = v2_scale(sh->vel, tau);
    double len = v2_len(d);
    double left = sh->range - sh->travelled;
    double best = 1;
    int why = -1;                           /* miss reason, or -1 */
    if (len > left) {
        best = len > 0 ? left / len : 0;
        why = MISS_RANGE;
    }
    double se = edge_exit(w, sh->pos, d);
    if (se < best) {
        best = se;
        why = MISS_EDGE;
    }
    if (trees_first_hit(w, sh->pos, d, &best) >= 0)
        why = MISS_TREE;

    struct near_scan n = { w, sh, bodies, sh->pos, d, t0, tau, INFINITY, -1 };
    if (w->scratch.vgrid.start && w->scratch.vgrid.n > 64) {
        vec2 mid = v2_add(sh->pos, v2_scale(d, 0.5 * best));
        vehicle_grid_query(&w->scratch.vgrid, mid, 0.5 * len * best + maxr + maxmove,
                           near_visit, &n);
    } else {
        for (size_t j = 0; j < w->vehicles.n; j++) {
            struct vgrid_entry e;
            memset(&e, 0, sizeof e);
            e.index = (int)j;
            near_visit(&e, &n);     /* (n.bodies: the same values) */
        }
    }
    /* A vehicle in front of a tree (or at the same distance) is hit. */
    if (n.hit >= 0 && n.best <= best) {
        best = n.best;
        sh->hit = n.hit;
        sh->alive = 0;
    } else if (why >= 0) {
        sh->miss = why;
        sh->alive = 0;
    }
    sh->pos = v2_add(sh->pos, v2_scale(d, best));
    sh->travelled += len * best;
}

/* The largest radius and move of this tick so far, with vehicle v. */
static inline void move_bounds(const struct vehicle *v, double *maxr, double *maxmove)
{
    if (!v->alive || v->kind == VK_CAR)
        return;
    *maxr = fmax(*maxr, v->p->radius);
    *maxmove = fmax(*maxmove, v2_dist(v->pos, v->from));
}

/* What the flight's neighbour test reads of vehicle v (near_visit). */
static inline struct shell_body shell_body_of(const struct vehicle *v)
{
    struct shell_body b = { v->from, v->pos, -1 };
    if (v->alive && v->kind != VK_CAR)
        b.radius = v->p->radius;
    return b;
}

/* bounds, vehicles [lo, hi): the largest radius and move of this tick
 * into *maxr, *maxmove, and (bodies) each vehicle's motion copied. */
static void bounds_range(const struct world *w, struct shell_body *bodies,
                         size_t lo, size_t hi, double *maxr, double *maxmove)
{
    for (size_t i = lo; i < hi; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        move_bounds(v, maxr, maxmove);
        if (bodies)
            bodies[i] = shell_body_of(v);
    }
}

/* flight, shells [lo, hi). */
static void fly_range(const struct world *w, size_t lo, size_t hi, double maxr,
                      double maxmove, const struct shell_body *bodies)
{
    for (size_t i = lo; i < hi; i++)
        shell_fly(w, &w->shells.p[i], maxr, maxmove, bodies);
}

/* Shells a block of the flight on threads: handed out as threads come
 * free (a shell's cost varies with the trees and vehicles near it). */
#define SHELLS_BLOCK 64

/* The bounds for the neighbour query, then each shell's flight: one
 * block each on one thread; on threads par_chunks() blocks of vehicles
 * and SHELLS_BLOCK blocks of shells.  Every shell writes only itself and
 * reads the world as the phase began, and a maximum is the same number
 * in any order, so the shells end the same whatever the blocks.
 *
 * On threads the bounds' pass (each thread the vehicles it moved in act:
 * par.h's static runs, lines still in its cache) also copies each
 * vehicle's motion into `bodies`, when there is room for them: the
 * flight's neighbour tests then read one 40-byte body, not two of the
 * vehicle's cache lines and its params.  Those reads go all over the
 * crowd, half of them to vehicles the other core moved: on two threads
 * they were the flight's cost (two threads took as long as one), while
 * the bodies are a quarter of the lines, written in one sweep each. */
static void shells_fly(struct world *w, int threads, struct shell_body *bodies)
{
    size_t n = w->vehicles.n, ns = w->shells.n;
    double maxr = 0, maxmove = 0;
    if (threads <= 1) {
        /* the one block each, with no team of threads to start */
        bounds_range(w, bodies, 0, n, &maxr, &maxmove);
        fly_range(w, 0, ns, maxr, maxmove, bodies);
        return;
    }
    size_t nb = par_chunks(n, threads), nsb = (ns + SHELLS_BLOCK - 1) / SHELLS_BLOCK;
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
#endif
    {
        double r = 0, m = 0;
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
        for (size_t k = 0; k < nb; k++)
            bounds_range(w, bodies, par_chunk_lo(n, nb, k), par_chunk_lo(n, nb, k + 1), &r, &m);
#ifdef _OPENMP
#pragma omp critical(shells_max)
#endif
        {
            maxr = fmax(maxr, r);
            maxmove = fmax(maxmove, m);
        }
#ifdef _OPENMP
#pragma omp barrier
#pragma omp for schedule(dynamic)
#endif
        for (size_t k = 0; k < nsb; k++)
            fly_range(w, k * SHELLS_BLOCK, k + 1 == nsb ? ns : (k + 1) * SHELLS_BLOCK,
                      maxr, maxmove, bodies);
    }
}

void shell_fire(const struct world *w, struct vehicle *v, int i,
                const struct aim_info *ai, struct shell *s)
{
    double dt = w->dt;
    double tf = clampd(ai->t_fire, 0, dt);
    memset(s, 0, sizeof *s);
    s->pos = s->start = v2_add(v->from, v2_scale(ai->vel, tf));
    s->vel = v2_scale(v2_dir(ai->aim_dir), v->p->shell_speed);
    s->range = v->p->range;
    s->delay = tf;
    s->shooter = i;
    s->target = ai->target;
    s->alive = 1;
    s->hit = s->miss = -1;
    s->impact = ai->aim_point;
    /* (w->tick was counted up as the step began: t_impact is from the
     * step's start, tick - 1.) */
    s->impact_time = (double)(w->tick - 1) * dt + ai->t_impact;
    v->gun.reload_left = v->p->reload + tf;
}

/* Shell s, fired (shell_fire) along `heading`, joins the world's list:
 * its id (the run's count of shots) and its shot event.  0, or -1 when
 * the list could not grow (the tick's error).  *fail: an event could not
 * be kept. */
static int shell_add(struct world *w, const struct shell *s, double heading, int *fail)
{
    if (WORLD_RESERVE(w->shells, w->shells.n + 1))
        return -1;
    struct shell *to = &w->shells.p[w->shells.n++];
    *to = *s;
    w->stats.shots++;
    to->id = w->stats.shots;
    struct event *e = world_event(w, EV_SHOT, to->shooter, to->target);
    if (e) {
        e->u.shot.shell = to->id;
        e->u.shot.x = to->pos.x;
        e->u.shot.y = to->pos.y;
        e->u.shot.heading = heading;            /* radians; the trace
                                                   writes degrees */
    } else {
        *fail = 1;
    }
    return 0;
}

/* A shell that ended this tick: its hit (and the knockout it makes) or
 * its miss, as events.  0, or 1 when an event could not be kept. */
static int shell_ended(struct world *w, const struct shell *sh)
{
    int fail = 0;
    if (sh->hit >= 0) {
        struct vehicle *t = &w->vehicles.p[sh->hit];
        int was_alive = t->alive;       /* (for the scores) */
        w->stats.hits++;
        struct event *e = world_event(w, EV_HIT, sh->shooter, sh->hit);
        if (e) {
            e->u.hit.shell = sh->id;
            e->u.hit.x = sh->pos.x;
            e->u.hit.y = sh->pos.y;
        } else {
            fail = 1;
        }
        if (t->alive && --t->health <= 0) {
            t->alive = 0;
            t->health = 0;
            t->speed = 0;
            t->gen++;
            if (t->team >= 0) {
                w->teams.p[t->team].alive--;
                w->teams.p[t->team].knockouts++;
            }
            if (!world_event(w, EV_KNOCKOUT, sh->hit, sh->shooter))
                fail = 1;
        }
        score_hit(w, sh->shooter, sh->hit, was_alive && !t->alive);
    } else if (sh->miss >= 0) {
        struct event *e = world_event(w, EV_MISS, sh->shooter, -1);
        if (e) {
            e->u.miss.reason = (enum miss_reason)sh->miss;
            e->u.miss.shell = sh->id;
            e->u.miss.x = sh->pos.x;
            e->u.miss.y = sh->pos.y;
        } else {
            fail = 1;
        }
    }
    return fail;
}

int shells_update(struct world *w, const struct tick_ctx *c)
{
    int fail = 0;               /* an event could not be kept */

    /* Shells that ended last tick were kept for the viewer (alive 0, at
     * the point where they ended); drop them now, in order. */
    size_t k = 0;
    for (size_t i = 0; i < w->shells.n; i++)
        if (w->shells.p[i].alive)
            w->shells.p[k++] = w->shells.p[i];
    w->shells.n = k;

    /* Fire: the shells the act pass made (shell_fire: each leaves the
     * gun's centre where the gun is at t_fire), block after block, so
     * vehicle after vehicle; the blocks' lists are this tick's, used
     * once. */
    struct par_state *p = c->par;
    for (size_t b = 0; p && b < p->fired_nc; b++)
        for (size_t j = 0; j < p->chunks[b].nfired; j++)
            if (shell_add(w, &p->chunks[b].fired[j].shell,
                          p->chunks[b].fired[j].heading, &fail))
                return -1;
    if (p)
        p->fired_nc = 0;
    if (w->shells.n == 0)
        return fail ? -1 : 0;

    int threads = w->shells.n < SHELLS_PAR_MIN && w->threads_min >= 0 ? 1 : par_threads(w);
    struct shell_body *bodies = NULL;
    if (threads > 1 && p
        && !grow_reserve(&p->bodies, &p->capbodies, w->vehicles.n, sizeof *p->bodies))
        bodies = p->bodies;     /* (no room: the flight reads the vehicles) */
    shells_fly(w, threads, bodies);

    /* Apply, in shell order. */
    for (size_t i = 0; i < w->shells.n; i++)
        if (!w->shells.p[i].alive)
            fail |= shell_ended(w, &w->shells.p[i]);
    score_settle(w);
    return fail ? -1 : 0;
}
