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

static void wander_decide(struct world *w, struct vehicle *v)
{
    struct wander_state *s = &v->wander;
    double step = v->p->turn_rate * w->dt;
    double margin = v->p->radius + 2 * v->p->speed * w->dt
                  + (v->p->turn_rate > 0 ? v->p->speed / v->p->turn_rate : 0);
    vec2 d = v->dir;
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

/* angle_norm() is the identity on (-pi, pi]: a tick without a turn keeps
 * the heading, and its cached direction, as they are (no remainder, no
 * sincos for the many tanks driving straight). */
static int normalised(double a)
{
    return a > -M_PI && a <= M_PI;
}

/* Moves vehicle i; with count set, counts it into the next vehicle grid
 * on the way (vehicle_grid_count_begin ran). */
static inline void act_one(struct world *w, size_t i, int count)
{
    struct vehicle *v = &w->vehicles.p[i];
    double dt = w->dt;
    v->touching_edge = 0;
    if (v->alive) {
        if (v->want_turret != 0 || !normalised(v->turret))
            v->turret = angle_norm(v->turret + v->want_turret);
        if (v->kind != VK_TURRET) {
            if (v->want_turn != 0 || !normalised(v->heading))
                vehicle_turned(w, v, v->want_turn, &v->heading, &v->dir);
            v->speed = v->want_speed;
            v->pos = v2_add(v->pos, v2_scale(v->dir, v->speed * dt));
            int tx = keep_inside(&v->pos.x, v->p->radius, w->width);
            int ty = keep_inside(&v->pos.y, v->p->radius, w->height);
            if (tx || ty) {
                v->touching_edge = 1;
                w->stats.edge_hits++;
            }
        }
    }
    if (count)
        vehicle_grid_count(&w->vgrid, (int)i, v->alive, v->pos, v->p->radius, v->speed);
}

/* ---- detect: collisions and separation ---------------------------------- */

/* Sorts the pairs (unique keys) ascending: an LSD radix sort by bytes,
 * skipping the bytes all keys share (indices stay below 2^20, so most
 * are), through tmp[n]; insertion sort for a few.  The same order as any
 * sort, in a fraction of qsort's time for the thousands of overlaps a
 * crowd of classic tanks has every tick. */
static void sort_pairs(uint64_t *p, uint64_t *tmp, size_t n)
{
    if (n < 32) {
        for (size_t i = 1; i < n; i++) {
            uint64_t x = p[i];
            size_t j = i;
            for (; j > 0 && p[j - 1] > x; j--)
                p[j] = p[j - 1];
            p[j] = x;
        }
        return;
    }
    uint64_t diff = 0;
    for (size_t i = 1; i < n; i++)
        diff |= p[i] ^ p[0];
    uint64_t *src = p, *dst = tmp;
    for (int shift = 0; shift < 64; shift += 8) {
        if (!(diff >> shift & 0xff))
            continue;
        size_t count[257] = { 0 };
        for (size_t i = 0; i < n; i++)
            count[(src[i] >> shift & 0xff) + 1]++;
        for (int b = 1; b <= 256; b++)
            count[b] += count[b - 1];
        for (size_t i = 0; i < n; i++)
            dst[count[src[i] >> shift & 0xff]++] = src[i];
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != p)
        memcpy(p, src, n * sizeof *p);
}

struct pairs {
    uint64_t *p; size_t n, cap;
};

static int pairs_push(struct pairs *s, int a, int b)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        uint64_t *p = realloc(s->p, cap * sizeof *p);
        if (!p)
            return -1;
        s->p = p;
        s->cap = cap;
    }
    s->p[s->n++] = (uint64_t)a << 32 | (uint32_t)b;     /* a < b */
    return 0;
}

/* The smallest separation of the pairs whose centres lie within `reach`
 * of each other on both axes (a superset: whole cells), and, when out is
 * not NULL, the overlapping pairs.  Each pair is seen once, from the one
 * that comes first in the grid (cell by cell, row by row, then in its
 * cell): that one looks forward only -- the rest of its own cell, the
 * cells after it in its row, the rows below -- and the other lies there
 * whenever the two are within reach. */
static double scan_pairs(const struct vehicle_grid *g, double reach,
                         struct pairs *out, int *fail)
{
    double best = INFINITY;
    for (int a = 0; a < g->n; a++) {
        const struct vgrid_entry *me = &g->items[a];
        vec2 p = me->pos;
        /* Its row, as the build placed it (same function, same input):
         * per entry, not per cell, so a huge sparse grid costs nothing. */
        int cy0 = grid_cell_of(p.y, g->cell, g->ny);
        int x0 = grid_cell_of(p.x - reach, g->cell, g->nx);
        int x1 = grid_cell_of(p.x + reach, g->cell, g->nx);
        int y1 = grid_cell_of(p.y + reach, g->cell, g->ny);
        for (int cy = cy0; cy <= y1; cy++) {
            const int *row = g->start + (size_t)cy * g->nx;
            /* In its own row: what follows it, its cell's rest first. */
            const struct vgrid_entry *e = cy == cy0 ? g->items + a + 1 : g->items + row[x0];
            const struct vgrid_entry *end = g->items + row[x1 + 1];
            for (; e < end; e++) {
                double rs = me->radius + e->radius;
                double d2 = v2_dist2(p, e->pos);
                /* The root only for a pair that may set the minimum or
                 * overlap: d - rs < best, i.e. d < best + rs. */
                double lim = best + rs;
                if (!(d2 < lim * lim) && !(d2 < rs * rs))
                    continue;
                double sep = sqrt(d2) - rs;
                if (sep < best)
                    best = sep;
                if (sep < 0 && out
                    && pairs_push(out, me->index < e->index ? me->index : e->index,
                                  me->index < e->index ? e->index : me->index))
                    *fail = 1;
            }
        }
    }
    return best;
}

/* How far past touching the collision scan looks first. */
#define SEPARATION_SLACK 2.0

/* Collisions and the smallest separation, exact, through the grid.  The
 * scan reaches a little past touching (2 max_radius + SEPARATION_SLACK):
 * every overlapping pair is within it, and every pair it misses is at
 * least SEPARATION_SLACK apart.  So when that floor is above both this
 * tick's minimum and the run's, nothing missed could change min_separation
 * -- the case in any crowd; on a sparse map the scan widens (x4) until it
 * is, ending with all pairs once the reach spans the map. */
static int detect_collisions(struct world *w)
{
    struct pairs now = { NULL, 0, 0 };
    int fail = 0;
    const struct vehicle_grid *g = &w->vgrid;
    double maxr = g->max_radius;
    double reach = 2 * maxr + SEPARATION_SLACK;
    double best = scan_pairs(g, reach, &now, &fail);
    while (g->n >= 2 && fmin(best, w->stats.min_separation) > reach - 2 * maxr) {
        reach *= 4;
        if (reach >= w->width + w->height) {
            /* All pairs (vehicles may even stand off the map). */
            for (int a = 0; a < g->n; a++)
                for (int b = a + 1; b < g->n; b++) {
                    const struct vgrid_entry *x = &g->items[a], *y = &g->items[b];
                    double sep = v2_dist(x->pos, y->pos) - (x->radius + y->radius);
                    if (sep < best)
                        best = sep;
                }
            break;
        }
        double b2 = scan_pairs(g, reach, NULL, &fail);
        best = fmin(best, b2);
    }
    if (fail) {
        free(now.p);
        return -1;
    }
    if (best < w->stats.min_separation)
        w->stats.min_separation = best;

    if (now.n > 1) {
        uint64_t *tmp = now.n >= 32 ? malloc(now.n * sizeof *tmp) : NULL;
        if (now.n >= 32 && !tmp) {
            free(now.p);
            return -1;
        }
        sort_pairs(now.p, tmp, now.n);
        free(tmp);
    }
    /* A pair that overlaps now but did not last tick starts a collision. */
    size_t k = 0;
    for (size_t i = 0; i < now.n; i++) {
        while (k < w->overlaps.n && w->overlaps.p[k] < now.p[i])
            k++;
        if (k < w->overlaps.n && w->overlaps.p[k] == now.p[i])
            continue;
        int a = (int)(now.p[i] >> 32), b = (int)(now.p[i] & 0xffffffffu);
        w->stats.collisions++;
        struct event *e = world_event(w, EV_COLLISION, a, b);
        if (e)
            e->u.collision.distance = v2_dist(w->vehicles.p[a].pos, w->vehicles.p[b].pos);
    }
    if (WORLD_RESERVE(w->overlaps, now.n)) {
        free(now.p);
        return -1;
    }
    if (now.n)
        memcpy(w->overlaps.p, now.p, now.n * sizeof *now.p);
    w->overlaps.n = now.n;
    free(now.p);
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

/* How many vehicles ahead the decide pass fetches records. */
#ifndef DECIDE_AHEAD
#define DECIDE_AHEAD 8
#endif

/* The vehicle grid's smallest cell side. */
#ifndef VGRID_MIN_CELL
#define VGRID_MIN_CELL 100
#endif

static double vgrid_cell(const struct world *w)
{
    double c = 2 * world_max_radius(w);
    return c > VGRID_MIN_CELL ? c : VGRID_MIN_CELL;
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
    w->aims.n = 0;
    w->aim_steps.n = 0;

    /* 1: the grid of the start of the tick is the one the last step built
     * after moving (positions have not changed since). */
    /* 2: sense */
    if (sight_update(w))
        rc = -1;
    /* 3 and 4: decide, then act.  When no decision can read another
     * vehicle's record -- avoidance reads its neighbours from the grid,
     * which holds the start of the tick; only a gun's target is read from
     * its record, and with no sight record this tick no gun has one; the
     * all-pairs avoidance of the tests reads records, so never then --
     * each vehicle acts right after it decides: the same outcome, with
     * one pass over the vehicles instead of two.  Act counts the vehicles
     * into the next grid as they move, unless shells fly this tick: a hit
     * may knock a counted vehicle out (no shells in flight and none fired:
     * no hit). */
    int together = !w->avoid_brute && w->sights.n == 0;
    int count = together && w->shells.n == 0
             && vehicle_grid_count_begin(&w->vgrid, w, vgrid_cell(w)) == 0;
    int fires = 0;
    for (size_t i = 0; i < w->vehicles.n; i++) {
        struct vehicle *v = &w->vehicles.p[i];
#ifdef __GNUC__
        /* Deciding and acting read most of a vehicle's record, several
         * cache lines a few hundred bytes apart: fetch a later one's
         * ahead, which the hardware does not. */
        if (i + DECIDE_AHEAD < w->vehicles.n)
            for (size_t o = 0; o < sizeof *v; o += 64)
                __builtin_prefetch((const char *)(v + DECIDE_AHEAD) + o, 1);
#endif
        if (!v->alive) {
            v->want_turn = v->want_speed = v->want_turret = 0;
            v->want_fire = 0;
            v->aim_slot = -1;   /* the store was emptied: a wreck seeks none */
        } else {
            behaviour_decide(w, (int)i);
            if (v->kind == VK_TANK) {
                /* An avoidance turn replaces the behaviour's turn for this
                 * tick (the article's CheckForCollisions takes the tick's
                 * turn); a wander turn is postponed, not lost, so an edge
                 * turn still completes once the threat is past. */
                double planned = v->want_turn;
                avoid_decide(w, (int)i);
                if (v->avoid.steer && v->p->behaviour == BEHAVIOUR_WANDER)
                    v->wander.turn_left += planned;
            }
            if (v->kind != VK_CAR && aim_decide(w, (int)i))
                rc = -1;
            fires += v->want_fire;
        }
        if (together)
            act_one(w, i, count);
    }
    w->fires = fires;
    if (!together) {
        count = w->shells.n == 0 && fires == 0
             && vehicle_grid_count_begin(&w->vgrid, w, vgrid_cell(w)) == 0;
        for (size_t i = 0; i < w->vehicles.n; i++)
            act_one(w, i, count);
    }
    int fused = count && fires == 0;
    /* 5: shells (reading the grid of the start of the tick) */
    shells_update(w);
    /* 6: detect */
    int grid_failed = 0;
    if (fused)
        vehicle_grid_place(&w->vgrid, w);
    else if (tick_prepare(w))
        grid_failed = 1;
    if (grid_failed || detect_collisions(w))
        rc = -1;
    race_detect(w);
    detect_end(w);
    return rc;
}
