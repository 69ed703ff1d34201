#include <stdlib.h>
#include <string.h>

#include "tick.h"
#include "world.h"

/* ---- behaviour: wander, straight, hold ---------------------------------- */

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
 * `turn` at its turn rate and speed, then drives on for a second. */
static double edge_arc_clearance(const struct world *w, const struct vehicle *v,
                                 double turn)
{
    const int chunk = 6;        /* ticks a sample stands for */
    double step = v->p->turn_rate * w->dt * chunk;
    double dist = v->p->speed * w->dt * chunk, r = v->p->radius;
    double h = v->heading, left = turn, best = INFINITY;
    vec2 p = v->pos;
    int n = (int)ceil(fabs(turn) / step) + (int)ceil(w->tick_rate / chunk);
    for (int k = 0; k < n; k++) {
        double t = clampd(left, -step, step);
        left -= t;
        h += t;
        p = v2_add(p, v2_scale(v2_dir(h), dist));
        double c = fmin(fmin(p.x - r, w->width - r - p.x),
                        fmin(p.y - r, w->height - r - p.y));
        if (c < best)
            best = c;
    }
    return best;
}

static void wander_decide(struct world *w, struct vehicle *v)
{
    struct wander_state *s = &v->wander;
    double step = v->p->turn_rate * w->dt;
    double margin = v->p->radius + 2 * v->p->speed * w->dt
                  + (v->p->turn_rate > 0 ? v->p->speed / v->p->turn_rate : 0);
    vec2 d = v2_dir(v->heading);
    int outward = (v->pos.x < margin && d.x < 0) || (v->pos.x > w->width - margin && d.x > 0)
               || (v->pos.y < margin && d.y < 0) || (v->pos.y > w->height - margin && d.y > 0);
    /* Into a corner, turning away from one edge runs along the other:
     * start earlier, a turning diameter out. */
    double wide = margin + (v->p->turn_rate > 0 ? v->p->speed / v->p->turn_rate : 0);
    int cx = (v->pos.x < wide && d.x < 0) || (v->pos.x > w->width - wide && d.x > 0);
    int cy = (v->pos.y < wide && d.y < 0) || (v->pos.y > w->height - wide && d.y > 0);
    outward = outward || (cx && cy);

    if (outward && !s->edge_turn) {
        double big = rng_range(&v->rng, M_PI / 2, M_PI);
        double cr = edge_arc_clearance(w, v, big), cl = edge_arc_clearance(w, v, -big);
        int right = fabs(cr - cl) < 1e-6 ? (int)(rng_u32(&v->rng) & 1) : cr > cl;
        s->turn_left = right ? big : -big;
        s->edge_turn = 1;
    } else if (s->turn_left == 0 && rng_unit(&v->rng) < w->dt / WANDER_MEAN_GAP) {
        s->turn_left = rng_range(&v->rng, -WANDER_MAX_TURN, WANDER_MAX_TURN);
    }
    double t = clampd(s->turn_left, -step, step);
    s->turn_left -= t;
    if (s->turn_left == 0)
        s->edge_turn = 0;
    v->want_turn = t;
    v->want_speed = v->p->speed;
}

static void behaviour_decide(struct world *w, int i)
{
    struct vehicle *v = &w->vehicles.p[i];
    v->want_turn = 0;
    v->want_speed = v->speed;
    v->want_turret = 0;
    v->want_fire = 0;
    if (v->kind == VK_CAR) {
        race_decide(w, i);
        return;
    }
    if (v->kind == VK_TURRET) {
        v->want_speed = 0;
        return;
    }
    switch (v->p->behaviour) {
    case BEHAVIOUR_WANDER:   wander_decide(w, v); break;
    case BEHAVIOUR_PATROL:   race_decide(w, i); break;
    case BEHAVIOUR_STRAIGHT: v->want_speed = v->p->speed; break;
    case BEHAVIOUR_HOLD:     v->want_speed = 0; break;
    }
}

/* ---- act ---------------------------------------------------------------- */

/* Keeps a circle inside the map; returns 1 when it touches the edge. */
static int keep_inside(double *x, double r, double size)
{
    if (2 * r >= size) {
        *x = size / 2;
        return 1;
    }
    if (*x - r <= 0) {
        *x = r;
        return 1;
    }
    if (*x + r >= size) {
        *x = size - r;
        return 1;
    }
    return 0;
}

static void act(struct world *w)
{
    for (size_t i = 0; i < w->vehicles.n; i++) {
        struct vehicle *v = &w->vehicles.p[i];
        v->touching_edge = 0;
        if (!v->alive)
            continue;
        v->turret = angle_norm(v->turret + v->want_turret);
        if (v->kind == VK_TURRET)
            continue;
        v->heading = angle_norm(v->heading + v->want_turn);
        v->speed = v->want_speed;
        v->pos = v2_add(v->pos, v2_scale(v2_dir(v->heading), v->speed * w->dt));
        int tx = keep_inside(&v->pos.x, v->p->radius, w->width);
        int ty = keep_inside(&v->pos.y, v->p->radius, w->height);
        if (tx || ty) {
            v->touching_edge = 1;
            w->stats.edge_hits++;
        }
    }
}

/* ---- detect: collisions and separation ---------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static double max_radius(const struct world *w)
{
    double m = 0;
    for (size_t i = 0; i < w->vehicles.n; i++)
        if (w->vehicles.p[i].p->radius > m)
            m = w->vehicles.p[i].p->radius;
    return m;
}

struct pair_scan {
    struct world *w;
    const struct vgrid_entry *me;
    double reach;               /* only pairs closer than this, centre-centre */
    double best;
    uint64_t *now; size_t n, cap;
    int fail;
};

static void pair_visit(const struct vgrid_entry *e, void *ctx)
{
    struct pair_scan *s = ctx;
    if (e->index <= s->me->index)
        return;                 /* each pair once, from its lower index */
    double d = v2_dist(s->me->pos, e->pos);
    double sep = d - (s->me->radius + e->radius);
    if (sep < s->best)
        s->best = sep;
    if (sep < 0) {
        if (s->n == s->cap) {
            size_t cap = s->cap ? 2 * s->cap : 64;
            uint64_t *p = realloc(s->now, cap * sizeof *p);
            if (!p) {
                s->fail = 1;
                return;
            }
            s->now = p;
            s->cap = cap;
        }
        s->now[s->n++] = (uint64_t)s->me->index << 32 | (uint32_t)e->index;
    }
}

/* The smallest separation over every live pair: brute force for a few
 * vehicles; otherwise through the grid, as far as a cell beyond touching
 * (further apart than that, a pair cannot set a run's minimum in a crowd;
 * a sparse large map may then report +inf-free values from nearer pairs). */
#define SEPARATION_BRUTE_MAX 1024

static int detect_collisions(struct world *w)
{
    struct pair_scan s;
    memset(&s, 0, sizeof s);
    s.w = w;
    s.best = INFINITY;
    const struct vehicle_grid *g = &w->vgrid;
    double maxr = max_radius(w);
    if (g->n <= SEPARATION_BRUTE_MAX) {
        for (int a = 0; a < g->n; a++) {
            s.me = &g->items[a];
            for (int b = 0; b < g->n; b++)
                pair_visit(&g->items[b], &s);
        }
    } else {
        s.reach = 2 * maxr + g->cell;
        for (int a = 0; a < g->n; a++) {
            s.me = &g->items[a];
            vehicle_grid_query(g, s.me->pos, s.reach, pair_visit, &s);
        }
    }
    if (s.fail) {
        free(s.now);
        return -1;
    }
    if (s.best < w->stats.min_separation)
        w->stats.min_separation = s.best;

    if (s.n > 1)            /* qsort's array must not be NULL, even empty */
        qsort(s.now, s.n, sizeof *s.now, cmp_u64);
    /* A pair that overlaps now but did not last tick starts a collision. */
    size_t k = 0;
    for (size_t i = 0; i < s.n; i++) {
        while (k < w->overlaps.n && w->overlaps.p[k] < s.now[i])
            k++;
        if (k < w->overlaps.n && w->overlaps.p[k] == s.now[i])
            continue;
        int a = (int)(s.now[i] >> 32), b = (int)(s.now[i] & 0xffffffffu);
        w->stats.collisions++;
        struct event *e = world_event(w, EV_COLLISION, a, b);
        if (e)
            e->u.collision.distance = v2_dist(w->vehicles.p[a].pos, w->vehicles.p[b].pos);
    }
    if (WORLD_RESERVE(w->overlaps, s.n)) {
        free(s.now);
        return -1;
    }
    if (s.n)
        memcpy(w->overlaps.p, s.now, s.n * sizeof *s.now);
    w->overlaps.n = s.n;
    free(s.now);
    return 0;
}

/* ---- the end ------------------------------------------------------------ */

int tick_teams_started(const struct world *w)
{
    int n = 0;
    for (size_t t = 0; t < w->teams.n; t++)
        if (w->teams.p[t].vehicles > 0)
            n++;
    return n;
}

static void detect_end(struct world *w)
{
    if (tick_teams_started(w) >= 2) {
        int left = 0, last = -1;
        for (size_t t = 0; t < w->teams.n; t++)
            if (w->teams.p[t].alive > 0) {
                left++;
                last = (int)t;
            }
        if (left <= 1) {
            w->ended = 1;
            w->winner = last;
        }
    }
    int cars = 0, finished = 0;
    for (size_t r = 0; r < w->racers.n; r++)      /* every car is a racer */
        if (w->vehicles.p[w->racers.p[r].vehicle].kind == VK_CAR) {
            cars++;
            finished += w->racers.p[r].race.finished != 0;
        }
    if (cars > 0 && finished == cars && w->track.n > 0)
        w->ended = 1;
}

/* ---- the step ----------------------------------------------------------- */

static double vgrid_cell(const struct world *w)
{
    double c = 2 * max_radius(w);
    return c > 50 ? c : 50;
}

int tick_prepare(struct world *w)
{
    return vehicle_grid_build(&w->vgrid, w, vgrid_cell(w));
}

int tick_step(struct world *w)
{
    int rc = 0;
    w->tick++;
    w->events.n = 0;
    w->aim_steps.n = 0;

    /* 1: the grid of the start of the tick is the one the last step built
     * after moving (positions have not changed since). */
    /* 2: sense */
    sight_update(w);
    /* 3: decide */
    for (size_t i = 0; i < w->vehicles.n; i++) {
        struct vehicle *v = &w->vehicles.p[i];
        if (!v->alive) {
            v->want_turn = v->want_speed = v->want_turret = 0;
            v->want_fire = 0;
            continue;
        }
        behaviour_decide(w, (int)i);
        if (v->kind == VK_TANK) {
            /* An avoidance turn replaces the behaviour's turn for this tick
             * (the article's CheckForCollisions takes the tick's turn); a
             * wander turn is postponed, not lost, so an edge turn still
             * completes once the threat is past. */
            double planned = v->want_turn;
            avoid_decide(w, (int)i);
            if (v->avoid.steer && v->p->behaviour == BEHAVIOUR_WANDER)
                v->wander.turn_left += planned;
        }
        if (v->kind != VK_CAR)
            aim_decide(w, (int)i);
    }
    /* 4: act */
    act(w);
    /* 5: shells */
    shells_update(w);
    /* 6: detect */
    if (tick_prepare(w) || detect_collisions(w))
        rc = -1;
    race_detect(w);
    detect_end(w);
    return rc;
}
