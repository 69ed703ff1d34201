/* race_line_plan.c — planning the racing line and its speed profile
 * (race_line.h says what and why); the cache of plans. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "race_line.h"
#include "race_line_impl.h"
#include "race.h"
#include "world.h"

/* Coarse spacing of the first line, and the halvings that refine it. */
#define LINE_COARSE_STEP 30.0
#define LINE_REFINE 3
/* Smoothing sweeps on the coarse line and after each halving. */
#define LINE_ITER_COARSE 3000
#define LINE_ITER_FINE 400
/* Share of the contact distance (waypoint r + car r) the anchor keeps off
 * its edge, room for the follower's error. */
#define LINE_MARGIN 0.15
/* Share of the turn rate the speed profile spends on the line's own
 * curvature.  All of it: the follower's look-ahead cuts the corners a
 * little inside the line (towards the centres) instead of needing spare
 * turn, and it laps within 0.3% of the profile on every bundled track. */
#define LINE_GRIP 1.0
/* Replans that pull an anchor inwards when the walk would skip. */
#define LINE_TRIES 8
/* The weight of the squared first differences in the shortened line's
 * smoothing (draft_smooth): 0.01 gains little on wide discs, 0.2 cuts the
 * fast car's corners too tight (measured on generated wide tracks). */
#define LINE_LAM 0.05
/* The least gain in planned lap time for which the shortened line is
 * taken, else the least-curvature line stays: taken for any gain, two of
 * test-race-line's hundred four-car grids collided (tight random tracks,
 * where it gains little); with 2% none does and wide discs keep theirs. */
#define LINE_LAM_GAIN 0.02
/* The planner's work is its point updates: every smoothing sweep visits
 * each point, and one try is LINE_ITER_COARSE sweeps of the first line
 * then LINE_ITER_FINE of each halving (2, 4, 8 times as many points):
 * LINE_TRY_SWEEPS sweeps' worth of the first line.  A 30-unit step round a
 * track on a 1,000,000-unit map gave some 70,000 points and half a minute
 * of planning on the first tick, and the replans made it nine times that.
 * So the first line has at most LINE_COARSE_MAX points (the step grows to
 * fit; the bundled tracks need at most 170), and a plan may spend at most
 * LINE_WORK_MAX updates in all, some 50 ms: the tries it can afford are
 * made (racing-line.ini's cars take five, 6.7 million), and a track whose
 * one try costs more (some 270 waypoints or more, three points each at
 * least) is not planned: its cars steer the classic way, as on a track of
 * fewer than three waypoints. */
#define LINE_COARSE_MAX 400
#define LINE_TRY_SWEEPS (LINE_ITER_COARSE + LINE_ITER_FINE * (2 + 4 + 8))
#define LINE_WORK_MAX 7000000L


/* Room for m points (m >= 0). */
static int draft_grow(struct draft *d, int m)
{
    return grow_reserve(&d->pt, &d->cap, (size_t)m, sizeof *d->pt);
}

/* The first line's spacing: LINE_COARSE_STEP, or more round a track too
 * long for LINE_COARSE_MAX points. */
static double draft_step(const struct waypoint *wp, int n)
{
    double len = 0;
    for (int k = 0; k < n; k++)
        len += v2_dist(wp[k].c, wp[(k + 1) % n].c);
    return len / LINE_COARSE_MAX > LINE_COARSE_STEP ? len / LINE_COARSE_MAX
                                                    : LINE_COARSE_STEP;
}

/* The points leg a-b is cut into (three at least). */
static int draft_pieces(vec2 a, vec2 b, double step)
{
    double pieces = ceil(v2_dist(a, b) / step);
    return pieces < 3 ? 3 : (int)pieces;
}

/* The first line's points in all (every try starts from the same line). */
static double draft_points(const struct waypoint *wp, int n)
{
    double step = draft_step(wp, n), m = 0;
    for (int k = 0; k < n; k++)
        m += draft_pieces(wp[k].c, wp[(k + 1) % n].c, step);
    return m;
}

/* The first line: the polyline of centres, each leg cut into pieces. */
static int draft_start(struct draft *d, const struct waypoint *wp, int n)
{
    d->m = 0;
    double step = draft_step(wp, n);
    for (int k = 0; k < n; k++) {
        vec2 a = wp[k].c, b = wp[(k + 1) % n].c;
        int q = draft_pieces(a, b, step);
        if (draft_grow(d, d->m + q) || !d->pt)
            return -1;
        d->anchor[k] = d->m;
        for (int j = 0; j < q; j++)
            d->pt[d->m++] = v2_add(a, v2_scale(v2_sub(b, a), (double)j / q));
    }
    return 0;
}

/* Halves every segment (anchors keep their points). */
static int draft_refine(struct draft *d, int n)
{
    int m = d->m;
    if (draft_grow(d, 2 * m))
        return -1;
    for (int i = m - 1; i >= 0; i--) {
        vec2 a = d->pt[i], b = d->pt[(i + 1) % m];
        d->pt[2 * i] = a;
        d->pt[2 * i + 1] = v2_scale(v2_add(a, b), 0.5);
    }
    d->m = 2 * m;
    for (int k = 0; k < n; k++)
        d->anchor[k] *= 2;
    return 0;
}

/* The article's skip rule on the line: once a car has left the disc of
 * the waypoint it reached last, a waypoint whose next one is nearer
 * counts as skipped.  A guarded waypoint t keeps the free points heading
 * for it (past the last disc) nearer t than the one after by twice its
 * margin:
 * d(q, after) - d(q, t) = 2 s D / (d(q, t) + d(q, after)), s how far q
 * stands on t's side of the two centres' bisector and D their distance,
 * so a point short of the s that gives the margin moves across to it
 * (a point short by more than t's contact distance is left: the line is
 * not kept there, and tearing it would be worse). */
struct guards {
    unsigned char *on;          /* n: waypoint t guarded */
    int any;
    const double *reach, *margin;
};

static vec2 guard_keep(vec2 q, const struct waypoint *wp, int n, int k,
                       const struct guards *g)
{
    int t = k % n, kp = (k + n - 1) % n, k1 = (t + 1) % n;
    if (v2_dist(q, wp[kp].c) < g->reach[kp] - g->margin[kp])
        return q;               /* still in the disc just reached */
    vec2 u = v2_sub(wp[t].c, wp[k1].c);
    double D = v2_len(u);
    if (!(D > 0))
        return q;
    u = v2_scale(u, 1 / D);
    vec2 mid = v2_scale(v2_add(wp[t].c, wp[k1].c), 0.5);
    double side = v2_dot(v2_sub(q, mid), u);
    /* twice the margin: the sweeps move q again, and the follower cuts
     * inside the line (1.1 times left seed 11's zigzag 20 skipping) */
    double need = 2.0 * g->margin[t] * (v2_dist(q, wp[t].c) + v2_dist(q, wp[k1].c)) / (2 * D);
    /* only a point a step short: one far beyond the bisector stays (no
     * nearby line keeps it, and moving it would tear the line apart) */
    if (side >= need || need - side > g->reach[t])
        return q;
    return v2_add(q, v2_scale(u, need - side));
}

/* Gauss-Seidel sweeps towards the least sum of squared second differences
 * plus lam times the squared first ones (each point the best for its four
 * neighbours), every anchor kept inside its disc (centre wp[k].c, radius
 * allow[k]).  lam 0: the least curvature, which pushes the line out to the
 * discs' far edges; lam > 0 also shortens it, the better where the car
 * would drive the curvier line at max_speed anyway (wide discs). */
static void draft_smooth(struct draft *d, const struct waypoint *wp, int n,
                         const double *allow, const struct guards *g, int iters, double lam)
{
    int m = d->m;
    vec2 *p = d->pt;
    for (int it = 0; it < iters; it++) {
        int k = 0;
        for (int i = 0; i < m; i++) {
            /* the neighbours round the loop, without a division a point
             * (four of them were most of a plan's time) */
            int ia = i - 2, ib = i - 1, ic = i + 1, ie = i + 2;
            ia += ia < 0 ? m : 0;
            ib += ib < 0 ? m : 0;
            ic -= ic >= m ? m : 0;
            ie -= ie >= m ? m : 0;
            if (m < 3) {
                ia = (i + m - 2) % m;
                ib = (i + m - 1) % m;
                ic = (i + 1) % m;
                ie = (i + 2) % m;
            }
            vec2 a = p[ia], b = p[ib];
            vec2 c = p[ic], e = p[ie];
            vec2 q = v2_scale(v2_sub(v2_scale(v2_add(b, c), 4 + lam), v2_add(a, e)),
                              1.0 / (6 + 2 * lam));
            if (k < n && d->anchor[k] == i) {
                vec2 off = v2_sub(q, wp[k].c);
                double l = v2_len(off);
                if (l > allow[k])
                    q = v2_add(wp[k].c, v2_scale(off, allow[k] / l));
                k++;
            } else if (g->any && g->on[k % n]) {
                q = guard_keep(q, wp, n, k, g);
            }
            p[i] = q;
        }
    }
}

/* Walks the line as race_detect would walk a car along it (from waypoint
 * 0's anchor, once round and on to it again): flags each waypoint it
 * would skip and returns how many.  "Would skip" keeps the follower's
 * margin: the one after coming within margin of as close as the one due
 * counts, except while the line is still well inside the disc just
 * reached (the car there touches it: race_detect skips nothing then).
 * Past a skip the walk goes on as the car would, but flags nothing more
 * until it reaches a waypoint: what follows a skip is often only its
 * consequence (the walk is then out of step with the line). */
int draft_skips(const struct draft *d, const struct world *w,
                       const struct waypoint *wp, int n, const double *reach,
                       const double *margin, unsigned char *flag)
{
    int m = d->m, next = 1 % n, prev = 0, skips = 0, in_step = 1;
    memset(flag, 0, (size_t)n);
    for (int t = 1; t <= m; t++) {
        vec2 q = d->pt[(d->anchor[0] + t) % m];
        for (int guard = 0; guard < n; guard++) {
            double dk = v2_dist(q, wp[next].c);
            if (dk < reach[next] - margin[next]) {
                prev = next;
                next = (next + 1) % n;
                in_step = 1;
                continue;
            }
            if (v2_dist(q, wp[prev].c) < reach[prev] - margin[prev])
                break;
            int k1 = (next + 1) % n;
            if (v2_dist(q, wp[k1].c) < dk + margin[next] && race_clear(w, q, wp[k1].c)) {
                if (in_step) {
                    skips += !flag[next];
                    flag[next] = 1;
                }
                in_step = 0;
                prev = next;
                next = k1;
                continue;
            }
            break;
        }
    }
    return skips;
}

/* A plan as its builder holds it: the same arrays, writable. */
struct plan_store {
    struct race_plan pub;               /* first: race_plan_free casts */
    vec2 *pt;
    double *s, *v, *cap;
    int *anchor;
};

/* The speed point i of the closed line pt[0..m) may take on its own
 * curvature (race_line.h); sh is sin(turn_rate dt / 2). */
double line_cap(const vec2 *pt, int m, int i, const struct vehicle_params *p, double dt,
                double sh)
{
    /* the circle through the points LINE_CURVE_SPAN either side */
    int k = LINE_CURVE_SPAN % m;
    vec2 a = pt[(i + m - k) % m], b = pt[i], c = pt[(i + k) % m];
    double cr = fabs(v2_cross(v2_sub(b, a), v2_sub(c, b)));
    double num = v2_dist(a, b) * v2_dist(b, c) * v2_dist(a, c);
    double cap = p->max_speed;
    if (cr > 1e-12 && 0.5 * p->turn_rate * dt > 0) {
        double rho = num / (2 * cr);
        double vc = LINE_GRIP * 2 * rho * sh / dt;
        if (vc < cap)
            cap = vc;
    }
    if (cap < p->min_speed)
        cap = p->min_speed;     /* it cannot brake below, see race_accel_to */
    return cap;
}

double line_passes(const double *cap, const double *s, int m, const struct vehicle_params *p,
                   double *v)
{
    int lo = 0;
    for (int i = 0; i < m; i++) {
        v[i] = cap[i];
        if (cap[i] < cap[lo])
            lo = i;
    }
    /* Cyclic passes from the slowest point, where the speed is known. */
    for (int t = 0; t < m; t++) {
        int a = (lo + t) % m, b = (a + 1) % m;
        double up = sqrt(v[a] * v[a] + 2 * p->accel * (s[a + 1] - s[a]));
        if (up < v[b])
            v[b] = up;
    }
    for (int t = 0; t < m; t++) {
        int b = (lo + m - t) % m, a = (b + m - 1) % m;
        double down = sqrt(v[b] * v[b] + 2 * p->brake * (s[a + 1] - s[a]));
        if (down < v[a])
            v[a] = down;
    }
    double lap = 0;
    for (int i = 0; i < m; i++) {
        double mean = 0.5 * (v[i] + v[(i + 1) % m]);
        lap += mean > 0 ? (s[i + 1] - s[i]) / mean : INFINITY;
    }
    return lap;
}

double line_profile(const vec2 *pt, int m, const double *s,
                    const struct vehicle_params *p, double dt,
                    double *capv, double *v)
{
    double sh = sin(0.5 * p->turn_rate * dt);
    for (int i = 0; i < m; i++)
        capv[i] = line_cap(pt, m, i, p, dt, sh);
    return line_passes(capv, s, m, p, v);
}

/* The arc lengths s[0..m] of the closed line pt[0..m). */
void line_lengths(const vec2 *pt, int m, double *s)
{
    s[0] = 0;
    for (int i = 0; i < m; i++)
        s[i + 1] = s[i] + v2_dist(pt[i], pt[(i + 1) % m]);
}

/* The speed profile of a finished line (race_line.h). */
static void plan_profile(struct plan_store *st)
{
    struct race_plan *pl = &st->pub;
    pl->lap_time = line_profile(st->pt, pl->m, st->s, pl->p, pl->dt, st->cap, st->v);
}

void race_plan_free(struct race_plan *pl)
{
    if (!pl)
        return;
    struct plan_store *st = (struct plan_store *)pl;
    free(st->pt);
    free(st->s);
    free(st->v);
    free(st->cap);
    free(st->anchor);
    free(st);
}

/* The plan smoothed with lam (draft_smooth), its tries taken from
 * *tries_left; NULL when none is left or memory runs out. */
static struct race_plan *plan_build_lam(const struct world *w, const struct waypoint *wp,
                                        int n, const struct vehicle_params *p, double dt,
                                        double lam, double *tries_left)
{
    double tries_max = *tries_left;
    if (tries_max < 1)
        return NULL;
    struct plan_store *st = calloc(1, sizeof *st);
    struct race_plan *pl = st ? &st->pub : NULL;
    struct draft d = { 0, 0, NULL, malloc((size_t)n * sizeof(int)) };
    double *allow = malloc((size_t)n * 3 * sizeof *allow);
    unsigned char *flag = calloc((size_t)n * 2, 1);
    if (!pl || !d.anchor || !allow || !flag)
        goto fail;
    struct guards g = { flag + n, 0, allow + n, allow + 2 * n };
    double *reach = allow + n, *margin = allow + 2 * n;
    for (int k = 0; k < n; k++) {
        reach[k] = wp[k].r + p->radius;
        margin[k] = LINE_MARGIN * reach[k];
        allow[k] = reach[k] - margin[k];
    }
    for (int tries = 0; ; tries++) {
        if (draft_start(&d, wp, n))
            goto fail;
        draft_smooth(&d, wp, n, allow, &g, LINE_ITER_COARSE, lam);
        for (int r = 0; r < LINE_REFINE; r++) {
            if (draft_refine(&d, n))
                goto fail;
            draft_smooth(&d, wp, n, allow, &g, LINE_ITER_FINE, lam);
        }
        int skips = draft_skips(&d, w, wp, n, reach, margin, flag);
        *tries_left -= 1;
        if (skips == 0 || tries >= LINE_TRIES || tries + 1 >= tries_max)
            break;
        /* every waypoint the walk skipped, at once (a try is dear): pull
         * its anchor (and so the line) towards its centre; skipped again,
         * also guard the way into it */
        for (int k = 0; k < n; k++)
            if (flag[k]) {
                /* (not one no car reaches cleanly: --check's warning) */
                if (!g.on[k] && allow[k] < reach[k] - margin[k]
                    && !race_skipped_at_once(w, wp, n, p, dt, k)) {
                    g.on[k] = 1;
                    g.any = 1;
                }
                allow[k] *= 0.5;
            }
    }
    int m = d.m;
    pl->p = p;
    pl->wp = wp;
    pl->n = n;
    pl->dt = dt;
    pl->m = m;
    pl->pt = st->pt = d.pt;
    pl->anchor = st->anchor = d.anchor;
    d.pt = NULL;
    d.anchor = NULL;
    pl->s = st->s = malloc((size_t)(m + 1) * sizeof *st->s);
    pl->v = st->v = malloc((size_t)m * sizeof *st->v);
    pl->cap = st->cap = malloc((size_t)m * sizeof *st->cap);
    if (!st->s || !st->v || !st->cap)
        goto fail;
    line_lengths(st->pt, m, st->s);
    plan_profile(st);
    free(allow);
    free(flag);
    return pl;
fail:
    free(d.pt);
    free(d.anchor);
    free(allow);
    free(flag);
    race_plan_free(pl);
    return NULL;
}

/* The chosen line made faster on its own lap (race_line_descend.c), its
 * profile made again; as it was when memory runs out. */
static void plan_descend(struct race_plan *pl, const struct world *w)
{
    struct plan_store *st = (struct plan_store *)pl;
    int n = pl->n;
    double *reach = malloc((size_t)n * 3 * sizeof *reach);
    if (!reach)
        return;
    double *margin = reach + n, *allow = reach + 2 * n;
    for (int k = 0; k < n; k++) {
        reach[k] = pl->wp[k].r + pl->p->radius;
        margin[k] = LINE_MARGIN * reach[k];
        allow[k] = reach[k] - margin[k];
    }
    struct draft d = { pl->m, (size_t)pl->m, st->pt, st->anchor };
    if (line_descend(&d, w, pl->wp, n, reach, margin, allow, pl->p, pl->dt) == 0) {
        line_lengths(st->pt, pl->m, st->s);
        plan_profile(st);
    }
    free(reach);
}

/* The least-curvature line, and where the budget leaves tries for it the
 * line shortened with LINE_LAM (Kapania's point, in one step: the least
 * curvature is not the least time where the car is at max_speed anyway):
 * the second only when its speed profile laps LINE_LAM_GAIN faster (a
 * track where shortening gains little keeps its line and its trace). */
struct race_plan *race_plan_build(const struct world *w, const struct waypoint *wp,
                                  int n, const struct vehicle_params *p, double dt)
{
    if (n < 3)
        return NULL;
    /* the tries the budget affords (none: no plan) */
    double tries = floor(LINE_WORK_MAX / (draft_points(wp, n) * LINE_TRY_SWEEPS));
    struct race_plan *best = plan_build_lam(w, wp, n, p, dt, 0, &tries);
    struct race_plan *other = best ? plan_build_lam(w, wp, n, p, dt, LINE_LAM, &tries) : NULL;
    if (other && other->lap_time < (1 - LINE_LAM_GAIN) * best->lap_time) {
        race_plan_free(best);
        best = other;
    } else {
        race_plan_free(other);
    }
    if (best)
        plan_descend(best, w);
    return best;
}

/* ---- where on the line ---------------------------------------------------- */

/* The segment holding arc length s (modulo the lap) and the share of it. */
static int plan_segment(const struct race_plan *pl, double s, double *t)
{
    double lap = pl->s[pl->m];
    s = fmod(s, lap);
    if (s < 0)
        s += lap;
    int lo = 0, hi = pl->m - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (pl->s[mid] <= s)
            lo = mid;
        else
            hi = mid - 1;
    }
    double len = pl->s[lo + 1] - pl->s[lo];
    *t = len > 0 ? (s - pl->s[lo]) / len : 0;
    return lo;
}

vec2 race_plan_point(const struct race_plan *pl, double s)
{
    double t;
    int i = plan_segment(pl, s, &t);
    vec2 a = pl->pt[i], b = pl->pt[(i + 1) % pl->m];
    return v2_add(a, v2_scale(v2_sub(b, a), t));
}

double race_plan_speed(const struct race_plan *pl, double s)
{
    double t;
    int i = plan_segment(pl, s, &t);
    return pl->v[i] + t * (pl->v[(i + 1) % pl->m] - pl->v[i]);
}

double race_plan_corner_speed(const struct race_plan *pl, double s)
{
    double t;
    int i = plan_segment(pl, s, &t), m = pl->m, k = 1;
    double low = race_plan_speed(pl, s);
    /* past the rise out of the last corner and the straight after it */
    for (; k <= m && pl->v[(i + k) % m] >= low; k++)
        low = pl->v[(i + k) % m];
    /* down to the low */
    for (; k <= m && pl->v[(i + k) % m] <= low; k++)
        low = pl->v[(i + k) % m];
    return low;
}

/* Points either side of the anchors searched by race_plan_locate. */
#define LOCATE_SLACK 8

double race_plan_locate(const struct race_plan *pl, vec2 pos, int from, int to,
                        double *dist)
{
    int m = pl->m;
    int count = (to - from + m) % m + 2 * LOCATE_SLACK;
    if (count > m)
        count = m;
    double best = INFINITY, at = 0;
    for (int c = 0; c < count; c++) {
        int j = ((from - LOCATE_SLACK + c) % m + m) % m;
        vec2 a = pl->pt[j], b = pl->pt[(j + 1) % m];
        vec2 ab = v2_sub(b, a);
        double l2 = v2_len2(ab);
        double t = l2 > 0 ? clampd(v2_dot(v2_sub(pos, a), ab) / l2, 0, 1) : 0;
        double dd = v2_dist2(pos, v2_add(a, v2_scale(ab, t)));
        if (dd < best) {
            best = dd;
            at = pl->s[j] + t * (pl->s[j + 1] - pl->s[j]);
        }
    }
    *dist = sqrt(best);
    return at;
}

/* ---- the cache ------------------------------------------------------------ */

struct race_plans {
    struct race_plan **p;
    size_t n, cap;
};

const struct race_plan *race_plans_get(struct race_plans **cache,
                                       const struct world *w,
                                       const struct waypoint *wp, int n,
                                       const struct vehicle_params *p, double dt)
{
    if (n < 3)
        return NULL;
    struct race_plans *c = *cache;
    if (!c && !(c = *cache = calloc(1, sizeof *c)))
        return NULL;
    for (size_t i = 0; i < c->n; i++) {
        const struct race_plan *pl = c->p[i];
        if (pl->p == p && pl->wp == wp && pl->n == n && pl->dt == dt)
            return pl;
    }
    if (grow_reserve(&c->p, &c->cap, c->n + 1, sizeof *c->p))
        return NULL;
    struct race_plan *pl = race_plan_build(w, wp, n, p, dt);
    if (pl)
        c->p[c->n++] = pl;
    return pl;
}

void race_plans_free(struct race_plans *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++)
        race_plan_free(c->p[i]);
    free(c->p);
    free(c);
}
