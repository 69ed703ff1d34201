/* sight-walk-oracle.c — the old candidate walk (see the header), copied
 * from sight.c as it stood: the frame's outermost corners, the wedge
 * polygon, grid_convex_rows (its sweep as it stood too, old_convex_rows,
 * so that the test checks the new sweep's own changes), a mark per tree. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sight-walk-oracle.h"
#include "core/grid.h"
#include "core/sight/sight_impl.h"

/* ---- grid_convex_rows as it stood (src/core/grid.c before the walk took
 * the sweep's rows as it goes) ---- */
static inline int col_of(double u, int n)
{
    if (!(u >= 0))
        return 0;
    return u < n ? (int)u : n - 1;
}

/* One side of a convex polygon, from its top vertex down to its bottom
 * one: at the edge from vertex i (x0, y0) to the next, whose y is yend,
 * with slope s = dx/dy. */
struct chain { int i, next, dir; double x0, y0, s, yend; };

static inline double dmin(double a, double b) { return a < b ? a : b; }
static inline double dmax(double a, double b) { return a > b ? a : b; }

/* c moved down past the vertices at or above yadv, widening [*xl, *xh]
 * by them, and [*nl, *nh] too by those at or below ycarry: on the border
 * (within the slack), they are in the next band as well.  Once at the
 * bottom it stays there (yend = inf).  By value, so that inlined the chain
 * lives in registers. */
static inline struct chain chain_to(struct chain c, const double *px,
                                    const double *py, int n, int bot,
                                    double yadv, double ycarry,
                                    double *xl, double *xh,
                                    double *nl, double *nh)
{
    while (c.i != bot && py[c.next] <= yadv) {
        c.i = c.next;
        c.next += c.dir;
        if (c.next == n) c.next = 0;
        if (c.next < 0) c.next = n - 1;
        *xl = dmin(*xl, px[c.i]);
        *xh = dmax(*xh, px[c.i]);
        if (py[c.i] >= ycarry) {
            *nl = dmin(*nl, px[c.i]);
            *nh = dmax(*nh, px[c.i]);
        }
    }
    c.x0 = px[c.i];
    c.y0 = py[c.i];
    if (c.i == bot) {
        c.s = 0;
        c.yend = INFINITY;
    } else {
        /* The loop stopped at a vertex below the one it is at: dy > 0. */
        c.s = (px[c.next] - c.x0) / (py[c.next] - c.y0);
        c.yend = py[c.next];
    }
    return c;
}

/* Column of x (cell units, finite), clamped as grid_cell_of() does:
 * clamped to [0, n - 1/2] first, truncation gives the same column without
 * a branch. */
static inline int col_clamp(double u, double umax)
{
    return (int)dmin(dmax(u, 0), umax);
}

/* A convex polygon crosses every horizontal line at most twice, so its
 * extent in a band of rows is that of its vertices inside the band and of
 * its two crossings of each of the band's borders.  The two chains from the
 * top vertex down to the bottom one (one each way round) give those
 * crossings: a border costs two multiply-adds and the polygon one division
 * per edge, where walking its edges one by one (grid_walk_rows) visits
 * about twice as many rows, each with its own bookkeeping.  The rows are
 * swept once, top to bottom.  Works in cell units, like grid_walk_rows. */
static int old_convex_rows(double cell, int nx, int ny, const vec2 *v, int n,
                     int *r0, int *r1, int *lo, int *hi)
{
    if (!(cell > 0) || nx <= 0 || ny <= 0 || n < 1 || n > GRID_POLY_MAX)
        return -1;
    double inv = 1 / cell, px[GRID_POLY_MAX], py[GRID_POLY_MAX], zero = 0;
    int top = 0, bot = 0;
    for (int i = 0; i < n; i++) {
        px[i] = v[i].x * inv;
        py[i] = v[i].y * inv;
        /* x * 0 is 0 for a finite x and NaN otherwise: one test for all. */
        zero += px[i] * 0 + py[i] * 0;
        top = py[i] < py[top] ? i : top;
        bot = py[i] >= py[bot] ? i : bot;
    }
    if (zero != 0)
        return -1;
    /* The first lowest and the last highest: on a level polygon the
     * chains still go round it (top == bot only when n == 1).  Rounding
     * must not lose a cell: the rows and columns take in what lies within
     * the slack e of them, a vertex that close to a border counts in both
     * bands (a level edge there lies in both). */
    const double e = GRID_POLY_SLACK, xmax = nx - 0.5;
    int ra = col_of(py[top] - e, ny), rb = col_of(py[bot] + e, ny);
    double xl = px[top], xh = px[top], nl = INFINITY, nh = -INFINITY;
    struct chain a = { top, top + 1 == n ? 0 : top + 1, 1, 0, 0, 0, 0 };
    struct chain b = { top, top == 0 ? n - 1 : top - 1, -1, 0, 0, 0, 0 };
    if (py[top] >= ra + 1 - e) {
        nl = nh = px[top];
    }
    a = chain_to(a, px, py, n, bot, py[top], ra + 1 - e, &xl, &xh, &nl, &nh);
    b = chain_to(b, px, py, n, bot, py[top], ra + 1 - e, &xl, &xh, &nl, &nh);
    for (int r = ra; r < rb; r++) {
        double y = r + 1;       /* this band's lower border */
        if (y + e >= a.yend)
            a = chain_to(a, px, py, n, bot, y + e, y - e, &xl, &xh, &nl, &nh);
        if (y + e >= b.yend)
            b = chain_to(b, px, py, n, bot, y + e, y - e, &xl, &xh, &nl, &nh);
        /* A chain may stand at a vertex just below y: its crossing of y
         * is that vertex. */
        double xa = a.x0 + dmax(y - a.y0, 0) * a.s;
        double xb = b.x0 + dmax(y - b.y0, 0) * b.s;
        double l = dmin(xa, xb), h = dmax(xa, xb);
        lo[r] = col_clamp(dmin(xl, l) - e, xmax);
        hi[r] = col_clamp(dmax(xh, h) + e, xmax);
        xl = dmin(l, nl);
        xh = dmax(h, nh);
        nl = INFINITY;
        nh = -INFINITY;
    }
    /* The last band: what is left of both chains, the vertices the loop
     * has not passed (below rb + e) and those it carried (from rb - e),
     * taken without a branch; all of them when it is the only band (which
     * may be clamped, and reach up past rb). */
    double ylast = ra == rb ? -INFINITY : rb - e;
    for (int i = 0; i < n; i++) {
        int in = py[i] >= ylast;
        xl = in ? dmin(xl, px[i]) : xl;
        xh = in ? dmax(xh, px[i]) : xh;
    }
    lo[rb] = col_clamp(xl - e, xmax);
    hi[rb] = col_clamp(xh + e, xmax);
    *r0 = ra;
    *r1 = rb;
    return 0;
}

/* frame_init's outermost corners of a rectangle (the first lowest and the
 * first highest pseudo-angle); 1 when o is inside or on the outline. */
static int outer_corners(vec2 o, const struct sight_shape *t, vec2 *u,
                         int *il, int *ih)
{
    vec2 d = v2_sub(t->c, o);
    double D = v2_len(d);
    *il = *ih = 0;
    if (t->circle) {
        if (!(D > t->r))
            return 1;
    } else {
        vec2 tp = v2_perp(t->axis);
        double lx = fabs(v2_dot(d, t->axis)), ly = fabs(v2_dot(d, tp));
        if (lx <= t->hl && ly <= t->hw)
            return 1;
    }
    *u = v2_scale(d, 1 / D);
    if (t->circle)
        return 0;
    vec2 ta = v2(v2_dot(*u, t->axis), v2_cross(*u, t->axis)), tp = v2_perp(ta);
    vec2 a = v2_scale(ta, t->hl), b = v2_scale(tp, t->hw);
    vec2 c[4] = {
        v2(D + a.x + b.x, a.y + b.y), v2(D + a.x - b.x, a.y - b.y),
        v2(D - a.x - b.x, -a.y - b.y), v2(D - a.x + b.x, -a.y + b.y)
    };
    double plo = sight_pa(c[0].x, c[0].y), phi = plo;
    for (int i = 1; i < 4; i++) {
        double p = sight_pa(c[i].x, c[i].y);
        *il = p < plo ? i : *il;
        plo = p < plo ? p : plo;
        *ih = p > phi ? i : *ih;
        phi = p > phi ? p : phi;
    }
    return 0;
}

int oracle_candidates(const struct world *w, vec2 o, const struct sight_shape *t,
                      struct sight_span *spans, size_t *nspans, int *cand)
{
    const struct tree_grid *g = &w->tree_grid;
    *nspans = 0;
    if (!g->start || g->nx <= 0 || w->trees.n == 0)
        return 0;
    vec2 u = v2(1, 0);
    int il, ih, on_top = outer_corners(o, t, &u, &il, &ih);
    vec2 c[4];
    if (t->circle) {
        c[0] = v2(t->c.x - t->r, t->c.y - t->r);
        c[1] = v2(t->c.x + t->r, t->c.y - t->r);
        c[2] = v2(t->c.x + t->r, t->c.y + t->r);
        c[3] = v2(t->c.x - t->r, t->c.y + t->r);
    } else {
        vec2 a = v2_scale(t->axis, t->hl), b = v2_scale(v2_perp(t->axis), t->hw);
        c[0] = v2_add(t->c, v2_add(a, b));
        c[1] = v2_add(t->c, v2_sub(a, b));
        c[2] = v2_sub(t->c, v2_add(a, b));
        c[3] = v2_add(t->c, v2_sub(b, a));
    }
    vec2 poly[5];
    int np = 0;
    if (!on_top && t->circle) {
        if (fabs(o.x - t->c.x) <= t->r && fabs(o.y - t->c.y) <= t->r) {
            on_top = 1;
        } else {
            double pl = 3, ph = -3;
            for (int i = 0; i < 4; i++) {
                vec2 d = v2_sub(c[i], o), q = v2(v2_dot(u, d), v2_cross(u, d));
                double p = sight_pa(q.x, q.y);
                if (p < pl) { pl = p; il = i; }
                if (p > ph) { ph = p; ih = i; }
            }
        }
    }
    if (on_top) {
        for (int i = 0; i < 4; i++)
            poly[np++] = c[i];
    } else if (il == ih) {
        poly[np++] = o;
        for (int i = 0; i < 4; i++)
            poly[np++] = c[i];
    } else {
        poly[np++] = o;
        int d = (ih - il) & 3;
        if (d == 2) {
            int m1 = (il + 1) & 3, m3 = (il + 3) & 3;
            poly[np++] = c[il];
            poly[np++] = c[v2_dist2(c[m1], o) > v2_dist2(c[m3], o) ? m1 : m3];
        } else {
            int step = d == 1 ? 3 : 1;
            for (int i = il; i != ih; i = (i + step) & 3)
                poly[np++] = c[i];
        }
        poly[np++] = c[ih];
    }
    int *lo = malloc((size_t)g->ny * sizeof *lo), *hi = malloc((size_t)g->ny * sizeof *hi);
    unsigned char *seen = calloc(w->trees.n, 1);
    int r0, r1, nc = 0;
    if (lo && hi && seen
        && old_convex_rows(g->cell, g->nx, g->ny, poly, np, &r0, &r1, lo, hi) == 0) {
        for (int r = r0; r <= r1; r++) {
            spans[*nspans].cy = r;
            spans[*nspans].c0 = lo[r];
            spans[(*nspans)++].c1 = hi[r];
            const int *row = g->start + (size_t)r * g->nx;
            for (int k = row[lo[r]]; k < row[hi[r] + 1]; k++) {
                int i = g->items[k];
                if (!seen[i]) {
                    seen[i] = 1;
                    cand[nc++] = i;
                }
            }
        }
    }
    free(lo);
    free(hi);
    free(seen);
    return nc;
}
