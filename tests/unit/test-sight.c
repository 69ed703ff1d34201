/* test-sight.c — the grid walk, the candidate trees, both sight methods
 * against hand-worked answers and a brute-force ray caster, the
 * thresholds, the degenerate cases and the sense phase (issue 4). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "core/world.h"
#include "core/tick.h"

/* ---- a small deterministic generator for the scenes --------------------- */

#include "../lib/scene-rng.h"

/* ---- grid walk ---------------------------------------------------------- */

#define MAXC 4096
struct walked { int n; int x[MAXC], y[MAXC]; int stop_after; };

static int rec(int cx, int cy, void *ctx)
{
    struct walked *w = ctx;
    if (w->n < MAXC) {
        w->x[w->n] = cx;
        w->y[w->n] = cy;
    }
    w->n++;
    return w->stop_after && w->n >= w->stop_after;
}

static int walk(struct walked *w, double cell, int nx, int ny, vec2 a, vec2 b)
{
    memset(w, 0, sizeof *w);
    return grid_walk(cell, nx, ny, a, b, rec, w);
}

static int has(const struct walked *w, int x, int y)
{
    for (int i = 0; i < w->n; i++)
        if (w->x[i] == x && w->y[i] == y)
            return 1;
    return 0;
}

/* Every step goes to a 4-neighbour and no cell comes twice. */
static int well_formed(const struct walked *w)
{
    for (int i = 1; i < w->n; i++)
        if (abs(w->x[i] - w->x[i - 1]) + abs(w->y[i] - w->y[i - 1]) != 1)
            return 0;
    for (int i = 0; i < w->n; i++)
        for (int j = i + 1; j < w->n; j++)
            if (w->x[i] == w->x[j] && w->y[i] == w->y[j])
                return 0;
    return 1;
}

TEST(walk_axis_parallel)
{
    struct walked w;
    /* Along a row, left to right, then right to left. */
    check_int(walk(&w, 40, 10, 10, v2(5, 50), v2(170, 50)), ==, 5);
    for (int i = 0; i < 5; i++) {
        check_int(w.x[i], ==, i);
        check_int(w.y[i], ==, 1);
    }
    check_int(walk(&w, 40, 10, 10, v2(170, 50), v2(5, 50)), ==, 5);
    check_int(w.x[0], ==, 4);
    check_int(w.x[4], ==, 0);
    /* Down a column. */
    check_int(walk(&w, 40, 10, 10, v2(300, 10), v2(300, 390)), ==, 10);
    check(well_formed(&w));
    check_int(w.x[9], ==, 7);
    check_int(w.y[9], ==, 9);
    /* Up a column, exactly on a vertical border: one column, no NaN. */
    check_int(walk(&w, 40, 10, 10, v2(80, 390), v2(80, 10)), ==, 10);
    check(well_formed(&w));
}

TEST(walk_same_cell)
{
    struct walked w;
    check_int(walk(&w, 40, 10, 10, v2(45, 45), v2(75, 70)), ==, 1);
    check_int(w.x[0], ==, 1);
    check_int(w.y[0], ==, 1);
    check_int(walk(&w, 40, 10, 10, v2(45, 45), v2(45, 45)), ==, 1);
}

TEST(walk_borders_and_corners)
{
    struct walked w;
    /* Starting on a border, heading away from the cell floor() picks. */
    walk(&w, 40, 10, 10, v2(80, 50), v2(10, 50));
    check(well_formed(&w));
    check(has(&w, 1, 1) && has(&w, 0, 1));
    check_int(w.x[w.n - 1], ==, 0);
    /* Through cell corners exactly: the diagonal cells and a side cell at
     * each corner (the segment touches it there). */
    check_int(walk(&w, 40, 10, 10, v2(0, 0), v2(120, 120)), ==, 7);
    check(well_formed(&w));
    check(has(&w, 0, 0) && has(&w, 1, 1) && has(&w, 2, 2) && has(&w, 3, 3));
    /* Ending exactly on the map's far corner. */
    check_int(walk(&w, 40, 10, 10, v2(0, 0), v2(400, 400)), ==, 19);
    check(well_formed(&w));
    check_int(w.x[w.n - 1], ==, 9);
    check_int(w.y[w.n - 1], ==, 9);
}

TEST(walk_leaving_the_map)
{
    struct walked w;
    /* Out through the right edge: stops at the last column. */
    check_int(walk(&w, 40, 10, 10, v2(350, 50), v2(1000, 60)), ==, 2);
    check_int(w.x[1], ==, 9);
    /* In from outside: starts at the edge cell. */
    walk(&w, 40, 10, 10, v2(-100, 50), v2(50, 50));
    check_int(w.x[0], ==, 0);
    check_int(w.n, ==, 2);
    /* Wholly outside, and along the outside of an edge. */
    check_int(walk(&w, 40, 10, 10, v2(-100, -50), v2(500, -10)), ==, 0);
    check_int(walk(&w, 40, 10, 10, v2(500, 50), v2(900, 350)), ==, 0);
    /* Across the whole map, corner to corner outside it. */
    walk(&w, 40, 10, 10, v2(-40, -40), v2(440, 440));
    check(well_formed(&w));
    check_int(w.x[0], ==, 0);
    check_int(w.x[w.n - 1], ==, 9);
    /* NaN and a degenerate grid visit nothing. */
    check_int(walk(&w, 40, 10, 10, v2(NAN, 5), v2(5, 5)), ==, 0);
    check_int(walk(&w, 0, 10, 10, v2(5, 5), v2(50, 5)), ==, 0);
    /* The callback stops the walk. */
    memset(&w, 0, sizeof w);
    w.stop_after = 3;
    check_int(grid_walk(40, 10, 10, v2(5, 5), v2(395, 5), rec, &w), ==, 3);
}

/* Does segment a-b meet the box [x0,x1]x[y0,y1]? (Liang-Barsky) */
static int seg_box(vec2 a, vec2 b, double x0, double y0, double x1, double y1)
{
    double t0 = 0, t1 = 1, d[2] = { b.x - a.x, b.y - a.y };
    double lo[2] = { x0, y0 }, hi[2] = { x1, y1 }, o[2] = { a.x, a.y };
    for (int k = 0; k < 2; k++) {
        if (d[k] == 0) {
            if (o[k] < lo[k] || o[k] > hi[k])
                return 0;
            continue;
        }
        double u = (lo[k] - o[k]) / d[k], v = (hi[k] - o[k]) / d[k];
        if (u > v) { double x = u; u = v; v = x; }
        if (u > t0) t0 = u;
        if (v < t1) t1 = v;
    }
    return t0 <= t1;
}

TEST(walk_vs_brute_force)
{
    int bad_missing = 0, bad_extra = 0, bad_form = 0;
    for (int it = 0; it < 3000; it++) {
        double cell = rr(5, 60);
        int nx = 1 + (int)rr(0, 30), ny = 1 + (int)rr(0, 30);
        double W = nx * cell, H = ny * cell;
        vec2 a = v2(rr(-0.3 * W, 1.3 * W), rr(-0.3 * H, 1.3 * H));
        vec2 b = v2(rr(-0.3 * W, 1.3 * W), rr(-0.3 * H, 1.3 * H));
        if (it % 5 == 0) b.y = a.y;             /* axis-parallel */
        if (it % 7 == 0) b.x = a.x;
        if (it % 11 == 0) a.x = cell * (int)rr(0, nx);  /* on a border */
        struct walked w;
        walk(&w, cell, nx, ny, a, b);
        if (!well_formed(&w))
            bad_form++;
        double e = 1e-9 * cell;
        for (int cy = 0; cy < ny; cy++)
            for (int cx = 0; cx < nx; cx++) {
                double x0 = cx * cell, y0 = cy * cell;
                int strictly = seg_box(a, b, x0 + e, y0 + e, x0 + cell - e, y0 + cell - e);
                int loosely = seg_box(a, b, x0 - e, y0 - e, x0 + cell + e, y0 + cell + e);
                int got = has(&w, cx, cy);
                if (strictly && !got)
                    bad_missing++;
                if (got && !loosely)
                    bad_extra++;
            }
    }
    check_int(bad_missing, ==, 0);
    check_int(bad_extra, ==, 0);
    check_int(bad_form, ==, 0);
}

static int ext_rec(int cx, int cy, void *ctx) { return rec(cx, cy, ctx); }

/* The extended walk: border cells reach out to infinity. */
TEST(walk_ext_vs_brute_force)
{
    int bad_missing = 0, bad_extra = 0, bad_form = 0;
    for (int it = 0; it < 3000; it++) {
        double cell = rr(5, 60);
        int nx = 1 + (int)rr(0, 20), ny = 1 + (int)rr(0, 20);
        double W = nx * cell, H = ny * cell;
        vec2 a = v2(rr(-0.5 * W, 1.5 * W), rr(-0.5 * H, 1.5 * H));
        vec2 b = v2(rr(-0.5 * W, 1.5 * W), rr(-0.5 * H, 1.5 * H));
        if (it % 5 == 0) b.y = a.y;
        if (it % 7 == 0) b.x = a.x;
        struct walked w;
        memset(&w, 0, sizeof w);
        grid_walk_ext(cell, nx, ny, a, b, ext_rec, &w);
        if (!well_formed(&w))
            bad_form++;
        double e = 1e-9 * cell, big = 1e9;
        for (int cy = 0; cy < ny; cy++)
            for (int cx = 0; cx < nx; cx++) {
                double x0 = cx ? cx * cell : -big, y0 = cy ? cy * cell : -big;
                double x1 = cx < nx - 1 ? (cx + 1) * cell : big;
                double y1 = cy < ny - 1 ? (cy + 1) * cell : big;
                int strictly = seg_box(a, b, x0 + e, y0 + e, x1 - e, y1 - e);
                int loosely = seg_box(a, b, x0 - e, y0 - e, x1 + e, y1 + e);
                int got = has(&w, cx, cy);
                bad_missing += strictly && !got;
                bad_extra += got && !loosely;
            }
    }
    check_int(bad_missing, ==, 0);
    check_int(bad_extra, ==, 0);
    check_int(bad_form, ==, 0);
}

/* The row form of the walk visits the same cells, row by row. */
TEST(walk_rows_vs_walk)
{
    int bad = 0, rows = 0;
    for (int it = 0; it < 3000; it++) {
        double cell = rr(5, 60);
        int nx = 1 + (int)rr(0, 20), ny = 1 + (int)rr(0, 20), clip = it & 1;
        double W = nx * cell, H = ny * cell;
        vec2 a = v2(rr(-0.5 * W, 1.5 * W), rr(-0.5 * H, 1.5 * H));
        vec2 b = v2(rr(-0.5 * W, 1.5 * W), rr(-0.5 * H, 1.5 * H));
        if (it % 5 == 0) b.y = a.y;
        if (it % 7 == 0) b.x = a.x;
        if (it % 11 == 0) a.y = cell * (int)rr(0, ny);
        int lo[32], hi[32];
        for (int r = 0; r < ny; r++) {
            lo[r] = 1 << 30;
            hi[r] = -1;
        }
        grid_walk_rows(cell, nx, ny, a, b, clip, lo, hi);
        struct walked w;
        memset(&w, 0, sizeof w);
        (clip ? grid_walk : grid_walk_ext)(cell, nx, ny, a, b, ext_rec, &w);
        /* Every cell the walk crosses (more than touches) lies in its
         * row's run ... */
        double e = 1e-9 * cell, big = 1e9;
        for (int i = 0; i < w.n; i++) {
            int c = w.x[i], r = w.y[i];
            double x0 = c ? c * cell : -big, y0 = r ? r * cell : -big;
            double x1 = c < nx - 1 ? (c + 1) * cell : big;
            double y1 = r < ny - 1 ? (r + 1) * cell : big;
            if (seg_box(a, b, x0 + e, y0 + e, x1 - e, y1 - e))
                bad += c < lo[r] || c > hi[r];
        }
        /* ... and every cell of a run is one the segment touches. */
        for (int r = 0; r < ny; r++)
            for (int c = lo[r]; c <= hi[r]; c++) {
                rows++;
                double x0 = c ? c * cell : -big, y0 = r ? r * cell : -big;
                double x1 = c < nx - 1 ? (c + 1) * cell : big;
                double y1 = r < ny - 1 ? (r + 1) * cell : big;
                if (clip) {
                    x0 = c * cell; y0 = r * cell; x1 = x0 + cell; y1 = y0 + cell;
                }
                bad += !seg_box(a, b, x0 - e, y0 - e, x1 + e, y1 + e);
            }
    }
    check_int(bad, ==, 0);
    check_int(rows, >, 10000);
}

/* A random convex polygon of 1 to 5 vertices in order round it: a sight
 * wedge (observer, outermost corners, far side), a rectangle, a triangle,
 * a segment or a point, sometimes snapped to cell borders or level. */
static int random_convex(vec2 *v, double cell, double W, double H)
{
    int kind = (int)rr(0, 5), n = 0;
    vec2 c = v2(rr(-0.3 * W, 1.3 * W), rr(-0.3 * H, 1.3 * H));
    double a = rr(-M_PI, M_PI), l = rr(0, 3 * cell), h = rr(0, 2 * cell);
    vec2 ax = v2_scale(v2_dir(a), l), bx = v2_scale(v2_perp(v2_dir(a)), h);
    vec2 k[4] = { v2_add(c, v2_add(ax, bx)), v2_add(c, v2_sub(ax, bx)),
                  v2_sub(c, v2_add(ax, bx)), v2_add(c, v2_sub(bx, ax)) };
    switch (kind) {
    case 0: {                               /* a wedge, as gather builds it */
        vec2 o = v2(rr(-0.3 * W, 1.3 * W), rr(-0.3 * H, 1.3 * H));
        if (fabs(v2_dot(v2_sub(o, c), v2_dir(a))) <= l + 1e-9
            && fabs(v2_cross(v2_dir(a), v2_sub(o, c))) <= h + 1e-9)
            o = v2_add(c, v2_scale(v2_dir(a + 1), 3 * (l + h) + 1));
        /* The hull of o and the corners by gift wrapping from o. */
        vec2 p[5] = { o, k[0], k[1], k[2], k[3] };
        int used[5] = { 1, 0, 0, 0, 0 }, cur = 0;
        v[n++] = o;
        for (;;) {
            int best = -1;
            for (int i = 0; i < 5; i++) {
                if (i == cur) continue;
                if (best < 0) { best = i; continue; }
                double x = v2_cross(v2_sub(p[best], p[cur]), v2_sub(p[i], p[cur]));
                if (x < 0 || (x == 0 && v2_dist2(p[i], p[cur]) > v2_dist2(p[best], p[cur])))
                    best = i;
            }
            if (best == 0 || used[best] || n == 5)
                break;
            used[best] = 1;
            v[n++] = p[best];
            cur = best;
        }
        break;
    }
    case 1:
        for (int i = 0; i < 4; i++)
            v[n++] = k[i];
        break;
    case 2:
        v[n++] = k[0];
        v[n++] = k[1];
        v[n++] = v2_add(c, v2(rr(-cell, cell), rr(-cell, cell)));
        if (v2_cross(v2_sub(v[1], v[0]), v2_sub(v[2], v[0])) < 0) {
            vec2 t = v[1];
            v[1] = v[2];
            v[2] = t;
        }
        break;
    case 3:
        v[n++] = k[0];
        v[n++] = k[2];
        break;
    default:
        v[n++] = c;
        break;
    }
    for (int i = 0; i < n; i++) {
        if (rnd() < 0.2) v[i].x = cell * (int)rr(-2, W / cell + 2);
        if (rnd() < 0.2) v[i].y = cell * (int)rr(-2, H / cell + 2);
    }
    if (n >= 2 && rnd() < 0.1)
        v[1].y = v[0].y;                    /* a level edge */
    return n;
}

static int near_poly(const vec2 *v, int n, double x0, double y0, double x1,
                     double y1)
{
    for (int i = 0; i < n; i++)
        if (seg_box(v[i], v[(i + 1) % n], x0, y0, x1, y1))
            return 1;
    return 0;
}

/* The rows of a convex polygon in one sweep: the cells walking its edges
 * touch, and no cell farther than the slack from it. */
TEST(convex_rows_vs_walk)
{
    int bad_missing = 0, bad_extra = 0, bad_rows = 0, slack = 0, rows = 0;
    for (int it = 0; it < 20000; it++) {
        double cell = rr(5, 60);
        int nx = 1 + (int)rr(0, 20), ny = 1 + (int)rr(0, 20);
        vec2 v[5];
        int n = random_convex(v, cell, nx * cell, ny * cell);
        /* Snapping may have left a polygon that is no longer convex (or
         * wound the wrong way); the walk of the edges fills the rows of
         * convex ones only. */
        int pos = 0, neg = 0;
        for (int i = 0; n >= 3 && i < n; i++)
            for (int j = 0; j < n; j++) {
                double x = v2_cross(v2_sub(v[(i + 1) % n], v[i]), v2_sub(v[j], v[i]));
                pos += x > 0;
                neg += x < 0;
            }
        int convex = !pos || !neg;
        if (!convex)
            continue;
        int lw[32], hw[32], lc[32], hc[32], r0, r1;
        for (int r = 0; r < ny; r++) {
            lw[r] = lc[r] = 1 << 30;
            hw[r] = hc[r] = -1;
        }
        for (int i = 0; i < n; i++)
            grid_walk_rows(cell, nx, ny, v[i], v[(i + 1) % n], 0, lw, hw);
        check_int(grid_convex_rows(cell, nx, ny, v, n, &r0, &r1, lc, hc), ==, 0);
        /* A cell of the extended grid, widened by the slack: does an edge
         * of the polygon touch it? */
        double e = 2 * GRID_POLY_SLACK * cell, big = 1e9;
#define NEAR_POLY(c, r) near_poly(v, n, (c) ? (c) * cell - e : -big,            \
                                  (r) ? (r) * cell - e : -big,                  \
                                  (c) < nx - 1 ? ((c) + 1) * cell + e : big,    \
                                  (r) < ny - 1 ? ((r) + 1) * cell + e : big)
        for (int r = 0; r < ny; r++) {
            int walked = hw[r] >= 0, swept = r >= r0 && r <= r1;
            if (walked && !swept) {
                bad_rows++;
                continue;
            }
            if (!swept)
                continue;
            rows++;
            if (!walked) {
                /* A slack row: the polygon ends within the slack of it. */
                slack++;
                for (int c = lc[r]; c <= hc[r]; c++)
                    bad_rows += !NEAR_POLY(c, r);
                continue;
            }
            bad_missing += lc[r] > lw[r] || hc[r] < hw[r];
            for (int c = lc[r]; c <= hc[r]; c++)
                if (c < lw[r] || c > hw[r])
                    bad_extra += !NEAR_POLY(c, r);
            slack += lc[r] < lw[r] || hc[r] > hw[r];
        }
#undef NEAR_POLY
    }
    check_int(bad_missing, ==, 0);
    check_int(bad_extra, ==, 0);
    check_int(bad_rows, ==, 0);
    check_int(rows, >, 30000);
    tap_note("%d rows, %d with a slack cell or row", rows, slack);
    /* Bad input: nothing set. */
    vec2 nan2[2] = { v2(NAN, 0), v2(10, 10) };
    int lo[4], hi[4], r0, r1;
    check_int(grid_convex_rows(10, 4, 4, nan2, 2, &r0, &r1, lo, hi), ==, -1);
    check_int(grid_convex_rows(0, 4, 4, nan2 + 1, 1, &r0, &r1, lo, hi), ==, -1);
}

/* The article's four compass points miss tree-cell overlaps; the grid
 * tests every cell of the bounding box against the circle. */
TEST(tree_grid_diagonal_and_centre_cells)
{
    struct world w;
    world_init(&w, 400, 400);
    w.cell = 40;
    world_add_tree(&w, v2(78, 78), 5);      /* near a corner: 4 cells */
    world_add_tree(&w, v2(200, 200), 70);   /* wider than a cell */
    check_int(world_finish(&w), ==, 0);
    const struct tree_grid *g = &w.tree_grid;
    int n0 = 0, diag = 0, n1 = 0, centre = 0;
    for (int c = 0; c < g->nx * g->ny; c++)
        for (int k = g->start[c]; k < g->start[c + 1]; k++) {
            if (g->items[k] == 0) {
                n0++;
                diag |= c == 2 * g->nx + 2;
            } else {
                n1++;
                centre |= c == 5 * g->nx + 5;
            }
        }
    check_int(n0, ==, 4);
    check(diag);            /* the diagonal cell the compass points miss */
    check(centre);
    /* Cells within 70 of (200, 200): count them by brute force. */
    int want = 0;
    for (int cy = 0; cy < 10; cy++)
        for (int cx = 0; cx < 10; cx++) {
            double dx = fmax(fmax(cx * 40 - 200.0, 0), 200.0 - (cx + 1) * 40);
            double dy = fmax(fmax(cy * 40 - 200.0, 0), 200.0 - (cy + 1) * 40);
            want += dx * dx + dy * dy <= 70 * 70;
        }
    check_int(n1, ==, want);
    world_free(&w);
}

/* ---- scenes ------------------------------------------------------------- */

static struct sight_shape rect_shape(vec2 c, double heading, double len, double wid)
{
    struct sight_shape t;
    memset(&t, 0, sizeof t);
    t.c = c;
    t.axis = v2_dir(heading);
    t.hl = len / 2;
    t.hw = wid / 2;
    return t;
}

static struct sight_shape circle_shape(vec2 c, double r)
{
    struct sight_shape t;
    memset(&t, 0, sizeof t);
    t.c = c;
    t.axis = v2(1, 0);
    t.r = r;
    t.circle = 1;
    return t;
}

static void outline_points(const struct sight_shape *t, vec2 *c, int *n)
{
    if (t->circle) {
        /* A fine polygon just outside the circle, for the hull test. */
        *n = 64;
        for (int i = 0; i < 64; i++)
            c[i] = v2_add(t->c, v2_scale(v2_dir(i * 2 * M_PI / 64), t->r / cos(M_PI / 64)));
        return;
    }
    vec2 a = v2_scale(t->axis, t->hl), b = v2_scale(v2_perp(t->axis), t->hw);
    c[0] = v2_add(t->c, v2_add(a, b));
    c[1] = v2_add(t->c, v2_sub(a, b));
    c[2] = v2_sub(t->c, v2_add(a, b));
    c[3] = v2_sub(t->c, v2_sub(a, b));
    *n = 4;
}

static double seg_dist(vec2 p, vec2 a, vec2 b)
{
    vec2 e = v2_sub(b, a);
    double l = v2_len2(e), s = l > 0 ? clampd(v2_dot(v2_sub(p, a), e) / l, 0, 1) : 0;
    return v2_dist(p, v2_add(a, v2_scale(e, s)));
}

static int cmp_pt(const void *x, const void *y)
{
    const vec2 *a = x, *b = y;
    if (a->x != b->x) return a->x < b->x ? -1 : 1;
    return (a->y > b->y) - (a->y < b->y);
}

/* Distance from p to the convex hull of pts (Andrew's monotone chain). */
static double hull_dist(vec2 p, vec2 *pts, int n)
{
    vec2 h[140];
    qsort(pts, (size_t)n, sizeof *pts, cmp_pt);
    int k = 0;
    for (int i = 0; i < n; i++) {
        while (k >= 2 && v2_cross(v2_sub(h[k - 1], h[k - 2]), v2_sub(pts[i], h[k - 2])) <= 0) k--;
        h[k++] = pts[i];
    }
    for (int i = n - 2, t = k + 1; i >= 0; i--) {
        while (k >= t && v2_cross(v2_sub(h[k - 1], h[k - 2]), v2_sub(pts[i], h[k - 2])) <= 0) k--;
        h[k++] = pts[i];
    }
    k--;
    if (k < 2)
        return v2_dist(p, pts[0]);
    int inside = 1;
    double best = INFINITY;
    for (int i = 0; i < k; i++) {
        vec2 a = h[i], b = h[(i + 1) % k];
        if (v2_cross(v2_sub(b, a), v2_sub(p, a)) < 0)
            inside = 0;
        double d = seg_dist(p, a, b);
        if (d < best) best = d;
    }
    return inside ? 0 : best;
}

/* A random scene: trees in a w x h map, a few of them hugging the target. */
static struct sight_shape random_scene(struct world *w, double W, double H,
                                       int ntrees, double cell, double rmax,
                                       vec2 *o)
{
    world_init(w, W, H);
    w->cell = cell;
    *o = v2(rr(0, W), rr(0, H));
    vec2 tc;
    do
        tc = v2(rr(0, W), rr(0, H));
    while (v2_dist(tc, *o) > 0.6 * W);
    struct sight_shape t = rnd() < 0.25
        ? circle_shape(tc, rr(0, 1) < 0.05 ? 0 : rr(3, 25))
        : rect_shape(tc, rr(-M_PI, M_PI), rr(0, 1) < 0.05 ? 0 : rr(10, 60),
                     rr(0, 1) < 0.1 ? 0 : rr(5, 30));
    for (int i = 0; i < ntrees; i++) {
        vec2 c = v2(rr(0, W), rr(0, H));
        if (i < 4) {
            /* Beside or over the target, so the careful path is taken. */
            double reach = t.circle ? t.r : hypot(t.hl, t.hw);
            c = v2_add(tc, v2_scale(v2_dir(rr(-M_PI, M_PI)), rr(0, reach + 20)));
        }
        world_add_tree(w, c, rr(2, rmax));
    }
    world_finish(w);
    return t;
}

TEST(candidates_complete)
{
    struct sight_scratch s;
    memset(&s, 0, sizeof s);
    int missing = 0, scenes = 0, found = 0;
    for (int it = 0; it < 2000; it++) {
        struct world w;
        vec2 o;
        struct sight_shape t = random_scene(&w, rr(100, 600), rr(100, 600),
                                            (int)rr(1, 80), rr(8, 80), rr(5, 120), &o);
        int n = sight_candidates(&w, o, &t, &s);
        check(n >= 0);
        vec2 pts[70];
        int np;
        outline_points(&t, pts, &np);
        pts[np++] = o;
        for (size_t i = 0; i < w.trees.n; i++) {
            vec2 tmp[70];
            memcpy(tmp, pts, sizeof pts);
            const struct tree *tr = &w.trees.p[i];
            if (hull_dist(tr->c, tmp, np) >= tr->r)
                continue;
            int in = 0;
            for (int k = 0; k < n; k++)
                in |= s.cand[k] == (int)i;
            missing += !in;
            found++;
        }
        /* Each candidate once. */
        for (int a = 0; a < n; a++)
            for (int b = a + 1; b < n; b++)
                missing += s.cand[a] == s.cand[b];
        scenes++;
        world_free(&w);
    }
    check_int(missing, ==, 0);
    check_int(found, >, 1000);
    tap_note("%d scenes, %d trees meeting the wedge, all found", scenes, found);
    sight_scratch_free(&s);
}

/* ---- the brute-force ray caster ----------------------------------------- */

static double ray_circle_t(vec2 o, vec2 m, vec2 c, double r)
{
    vec2 p = v2_sub(c, o);
    double b = v2_dot(m, p), c2 = v2_len2(p) - r * r;
    if (c2 <= 0)
        return 0;                       /* starts inside */
    double disc = b * b - c2;
    if (disc < 0 || b < 0)
        return INFINITY;
    return b - sqrt(disc);
}

static double ray_shape_t(vec2 o, vec2 m, const struct sight_shape *t)
{
    if (t->circle)
        return ray_circle_t(o, m, t->c, t->r);
    vec2 ax[2] = { t->axis, v2_perp(t->axis) };
    double h[2] = { t->hl, t->hw }, t0 = 0, t1 = INFINITY;
    vec2 rel = v2_sub(o, t->c);
    for (int k = 0; k < 2; k++) {
        double oo = v2_dot(rel, ax[k]), dd = v2_dot(m, ax[k]);
        if (dd == 0) {
            if (fabs(oo) > h[k]) return INFINITY;
            continue;
        }
        double a = (-h[k] - oo) / dd, b = (h[k] - oo) / dd;
        if (a > b) { double x = a; a = b; b = x; }
        t0 = fmax(t0, a);
        t1 = fmin(t1, b);
    }
    return t0 <= t1 ? t0 : INFINITY;
}

/* The visible fraction by casting `rays` rays at the centres of equal
 * parts of the target's angular width, each tested against every tree. */
static double ray_cast(const struct world *w, vec2 o, const struct sight_shape *t,
                       int rays, double *width)
{
    double base = atan2(t->c.y - o.y, t->c.x - o.x), lo, hi;
    if (t->circle) {
        double D = v2_dist(o, t->c), a = asin(t->r / D);
        lo = -a;
        hi = a;
    } else {
        vec2 pts[4];
        int np;
        outline_points(t, pts, &np);
        lo = INFINITY;
        hi = -INFINITY;
        for (int i = 0; i < 4; i++) {
            double a = angle_diff(atan2(pts[i].y - o.y, pts[i].x - o.x), base);
            lo = fmin(lo, a);
            hi = fmax(hi, a);
        }
    }
    *width = hi - lo;
    int seen = 0;
    for (int k = 0; k < rays; k++) {
        double a = base + lo + (hi - lo) * (k + 0.5) / rays;
        vec2 m = v2_dir(a);
        double th = ray_shape_t(o, m, t), tt = INFINITY;
        for (size_t i = 0; i < w->trees.n; i++) {
            double x = ray_circle_t(o, m, w->trees.p[i].c, w->trees.p[i].r);
            if (x < tt) tt = x;
        }
        seen += !(tt < th);
    }
    return (double)seen / rays;
}

static int on_top(vec2 o, const struct sight_shape *t)
{
    if (t->circle)
        return v2_dist(o, t->c) <= t->r;
    vec2 d = v2_sub(o, t->c);
    return fabs(v2_dot(d, t->axis)) <= t->hl && fabs(v2_dot(d, v2_perp(t->axis))) <= t->hw;
}

TEST(exact_vs_ray_caster)
{
    struct sight_scratch s;
    memset(&s, 0, sizeof s);
    int scenes = 0, bad = 0, partial = 0;
    double worst = 0;
    for (int it = 0; it < 400; it++) {
        struct world w;
        vec2 o;
        struct sight_shape t = random_scene(&w, 400, 400, (int)rr(5, 30), rr(20, 60), rr(5, 30), &o);
        if (on_top(o, &t)) {
            world_free(&w);
            continue;
        }
        struct sight_result res;
        double got = sight_query(&w, SIGHT_EXACT, o, &t, &s, &res);
        double width;
        double want = ray_cast(&w, o, &t, 20000, &width);
        if (res.degenerate == SIGHT_POINT) {
            world_free(&w);
            continue;
        }
        double err = fabs(got - want);
        if (err > worst) worst = err;
        partial += got > 0.01 && got < 0.99;
        check_near(res.width, width, 1e-9);
        if (err > 0.001) {
            bad++;
            tap_note("scene %d: exact %.6f, ray caster %.6f", it, got, want);
        }
        /* The hidden intervals add up to what is not visible. */
        double hid = 0;
        for (size_t k = 0; k < s.nhidden; k++) {
            check(s.hidden[k].a0 < s.hidden[k].a1);
            check(s.hidden[k].a0 >= 0 && s.hidden[k].a1 <= res.width);
            if (k) check(s.hidden[k].a0 > s.hidden[k - 1].a1);
            hid += s.hidden[k].a1 - s.hidden[k].a0;
        }
        check_near(hid, (1 - got) * res.width, 1e-9);
        scenes++;
        world_free(&w);
    }
    check_int(bad, ==, 0);
    check_int(scenes, >, 300);
    check_int(partial, >, 50);
    tap_note("%d scenes (%d partly visible), worst |exact - rays| %.2g", scenes,
             partial, worst);
    sight_scratch_free(&s);
}

/* Angles wrap at ±180°: a target due west, trees on both sides of the
 * seam. */
TEST(exact_wraps_at_180)
{
    struct sight_scratch s;
    memset(&s, 0, sizeof s);
    int bad = 0;
    for (int it = 0; it < 100; it++) {
        struct world w;
        world_init(&w, 600, 400);
        vec2 o = v2(500, 200);
        struct sight_shape t = rect_shape(v2(rr(150, 350), 200 + rr(-2, 2)),
                                          rr(-M_PI, M_PI), 40, 24);
        for (int i = 0; i < 6; i++)
            world_add_tree(&w, v2(rr(360, 470), 200 + rr(-30, 30)), rr(2, 10));
        world_finish(&w);
        double width, want = ray_cast(&w, o, &t, 20000, &width);
        double got = sight_query(&w, SIGHT_EXACT, o, &t, &s, NULL);
        bad += fabs(got - want) > 0.001;
        world_free(&w);
    }
    check_int(bad, ==, 0);
    sight_scratch_free(&s);
}

/* ---- classic ------------------------------------------------------------ */

static struct world *empty_world(struct world *w)
{
    world_init(w, 2000, 1800);
    world_finish(w);
    return w;
}

/* The article's own example: the target spans 0.5 to 0.7 radians, a tree
 * 0.45 to 0.55.  Its table {0.5, 0.51, ..., 0.7} loses 0.50..0.55 and
 * keeps 15 of 21 points, read as 15/20.  With 20 points at the centres of
 * equal parts (0.505, 0.515, ..., 0.695) the tree removes 0.505..0.545,
 * five points: 15/20 = 75 %, and an open view is 20/20, not 21/20. */
TEST(classic_article_example)
{
    struct world w;
    world_init(&w, 2000, 1800);
    vec2 o = v2(100, 100);
    /* A turret 400 away at 0.6 rad, r = 400 tan 0.1: its approximate
     * tangents c ± r perp are at exactly 0.6 ± 0.1. */
    struct sight_shape t = circle_shape(v2_add(o, v2_scale(v2_dir(0.6), 400)),
                                        400 * tan(0.1));
    /* A tree 100 away at 0.5 rad, r = 100 tan 0.05: 0.45 to 0.55. */
    world_add_tree(&w, v2_add(o, v2_scale(v2_dir(0.5), 100)), 100 * tan(0.05));
    world_finish(&w);
    struct sight_scratch s;
    memset(&s, 0, sizeof s);
    struct sight_result res;
    check_near(sight_query(&w, SIGHT_CLASSIC, o, &t, &s, &res), 0.75, 1e-12);
    check_near(res.a0, 0.5, 1e-12);
    check_near(res.a1, 0.7, 1e-12);
    check_int(s.nhidden, ==, 1);
    check_near(s.hidden[0].a1 - s.hidden[0].a0, 0.05, 1e-12);
    struct sight_interval iv;
    check_int(sight_hidden_angles(&s, &res, &iv, 1), ==, 1);
    check_near(iv.a0, 0.5, 1e-12);
    check_near(iv.a1, 0.55, 1e-12);
    /* 10 samples: centres 0.51, 0.53, 0.55 (the end counts), ...: 3 gone. */
    /* 7 samples, 0.2/7 apart: centres 0.514, 0.543, 0.571: two gone. */
    w.sight.samples = 7;
    check_near(sight_query(&w, SIGHT_CLASSIC, o, &t, &s, NULL), 5.0 / 7, 1e-12);
    /* Exact: the blocked directions are 2 asin(r/d) wide, the target
     * 2 asin(R/D): 1 - (0.55'-0.5)/(0.7'-0.5'). */
    double R = 400 * tan(0.1), r = 100 * tan(0.05);
    double a = asin(R / 400), b = asin(r / 100);
    double want = 1 - ((0.5 + b) - (0.6 - a)) / (2 * a);
    check_near(sight_query(&w, SIGHT_EXACT, o, &t, &s, NULL), want, 1e-12);
    world_free(&w);
    /* An open view is 100 %, never 105 %. */
    struct world e;
    check_num(sight_query(empty_world(&e), SIGHT_CLASSIC, o, &t, &s, NULL), ==, 1);
    check_num(sight_query(&e, SIGHT_EXACT, o, &t, &s, NULL), ==, 1);
    world_free(&e);
    sight_scratch_free(&s);
}

/* A tank broadside: width from the four corners, worked by hand. */
TEST(classic_hull_corners_by_hand)
{
    struct world w;
    world_init(&w, 2000, 1800);
    vec2 o = v2(100, 100);
    /* Target at (500, 100) heading 90°: corners x 488 / 512, y 80 / 120;
     * the outermost as seen from o are (488, 80) and (488, 120): the
     * width is ±atan(20/388). */
    struct sight_shape t = rect_shape(v2(500, 100), M_PI / 2, 40, 24);
    /* A tree at (300, 100), r = 5: approximate tangents ±atan(5/200). */
    world_add_tree(&w, v2(300, 100), 5);
    world_finish(&w);
    struct sight_scratch s;
    memset(&s, 0, sizeof s);
    struct sight_result res;
    double got = sight_query(&w, SIGHT_CLASSIC, o, &t, &s, &res);
    double half = atan(20.0 / 388), tree = atan(5.0 / 200), step = 2 * half / 20;
    check_near(res.width, 2 * half, 1e-12);
    /* Points at -half + (j + 1/2) step within ±tree. */
    int gone = 0;
    for (int j = 0; j < 20; j++)
        gone += fabs(-half + (j + 0.5) * step) <= tree;
    /* half = 2.951°, tree = 1.432°, step 0.295°: the five points either
     * side of the centre, at ±0.148°, ±0.443°, ..., ±1.328°. */
    check_int(gone, ==, 10);
    check_near(got, (20 - gone) / 20.0, 1e-12);
    /* Exact: asin(5/200) either side, over the same width. */
    check_near(sight_query(&w, SIGHT_EXACT, o, &t, &s, NULL),
               1 - asin(5.0 / 200) / half, 1e-12);
    world_free(&w);
    sight_scratch_free(&s);
}

/* Classic's tangents are too narrow close up: at d = 1.2 r the tree looks
 * atan(1/1.2) = 39.8° wide each side instead of asin(1/1.2) = 56.4°. */
TEST(classic_narrow_close_up)
{
    struct world w;
    world_init(&w, 2000, 1800);
    vec2 o = v2(1000, 900);
    world_add_tree(&w, v2(1012, 900), 10);
    world_finish(&w);
    /* A long hull broadside, 30 ahead: ±atan(100/18) wide. */
    struct sight_shape t = rect_shape(v2(1030, 900), M_PI / 2, 200, 24);
    struct sight_scratch s;
    memset(&s, 0, sizeof s);
    double half = atan(100.0 / 18);
    double exact = sight_query(&w, SIGHT_EXACT, o, &t, &s, NULL);
    check_near(exact, 1 - asin(10.0 / 12) / half, 1e-12);
    double classic = sight_query(&w, SIGHT_CLASSIC, o, &t, &s, NULL);
    int gone = 0;
    for (int j = 0; j < 20; j++)
        gone += fabs(-half + (j + 0.5) * (2 * half / 20)) <= atan(10.0 / 12);
    check_near(classic, (20 - gone) / 20.0, 1e-12);
    check_num(classic, >, exact + 0.15);
    check_near(1 - atan(1 / 1.2) / asin(1 / 1.2), 0.29, 0.005);
    world_free(&w);
    sight_scratch_free(&s);
}

/* A tree near the observer that just covers the target's extent, or
 * just misses it by a sliver, straight ahead and off to a side: the
 * shortcut that ends a query on a covering tree (sight_exact.c, covers)
 * must leave every sliver to the weighing, down to a relative 1e-7 of
 * the radius. */
TEST(exact_just_covers_or_misses)
{
    struct world w;
    vec2 o = v2(100, 900);
    /* outermost corners (580, 900 ± 12): the extent is ±theta */
    struct sight_shape t = rect_shape(v2(600, 900), 0, 40, 24);
    double theta = atan(12.0 / 480);
    struct sight_scratch s;
    memset(&s, 0, sizeof s);
    const double side[] = { 0, 3, -5 };
    for (int k = 0; k < 3; k++) {
        vec2 c = v2(200, 900 + side[k]);
        double d = v2_dist(c, o), phi = fabs(atan2(side[k], 100));
        double just = d * sin(theta + phi);   /* the radius that just covers */
        for (double delta = 1e-2; delta >= 1e-7; delta /= 10) {
            for (int miss = 0; miss < 2; miss++) {
                double r = just * (miss ? 1 - delta : 1 + delta);
                world_init(&w, 2000, 1800);
                world_add_tree(&w, c, r);
                world_finish(&w);
                struct sight_result res;
                double v = sight_query(&w, SIGHT_EXACT, o, &t, &s, &res);
                double a = asin(r / d);
                double lo = fmax(-theta, phi - a), hi = fmin(theta, phi + a);
                double want = 1 - fmax(hi - lo, 0) / (2 * theta);
                if (miss) {
                    check_num(v, >, 0);
                    check_near(v, want, 1e-9);
                    check_int(s.nhidden, ==, 1);
                    check_num(s.hidden[0].a1 - s.hidden[0].a0, <, res.width);
                } else {
                    check_num(v, ==, 0);
                    check_int(s.nhidden, ==, 1);
                    check_num(s.hidden[0].a0, ==, 0);
                    check_num(s.hidden[0].a1, ==, res.width);
                }
                world_free(&w);
            }
        }
    }
    sight_scratch_free(&s);
}

/* Two scenes from an attack on that shortcut, both partly visible (a
 * quad-precision ray caster sees 0.0966 and 0.108 of the target): at
 * subnormal scale, where the squares underflow and both sides of its test
 * read 0, and a target 1e-16 wide, narrower than pseudo-angles resolve.
 * The shortcut once called both wholly hidden; it must stay out of both. */
TEST(exact_shortcut_stays_out_of_degenerate_scales)
{
    struct sight_scratch s;
    memset(&s, 0, sizeof s);
    struct world w;
    world_init(&w, 10, 10);
    w.cell = 1;
    world_add_tree(&w, v2(1.5344053555426977e-157, 6.9997583209108144e-158),
                   1.4339591169770372e-157);
    world_finish(&w);
    struct sight_shape t;
    memset(&t, 0, sizeof t);
    t.c = v2(1.9244216944654292e-157, 1.4508741303255271e-157);
    t.axis = v2(-0.69211649548714671, 0.72178581080164672);
    t.hl = 1.9055164956199496e-157;
    t.hw = 9.9999999999999994e-158;
    check_num(sight_query(&w, SIGHT_EXACT, v2(1e-160, 5e-161), &t, &s, NULL), >, 0);
    world_free(&w);

    world_init(&w, 21, 21);
    w.cell = 1;
    world_add_tree(&w, v2(2.20585071387173, -0.84574163604860486), 4.7994288015518318e-16);
    world_finish(&w);
    memset(&t, 0, sizeof t);
    t.c = v2(2.113881784482917, -1.1055918758721539);
    t.circle = 1;
    t.r = 5e-16;
    t.axis = v2(1, 0);
    check_num(sight_query(&w, SIGHT_EXACT, v2(4.406557046409092, 5.3721633900437737), &t,
                          &s, NULL), >, 0);
    world_free(&w);
    sight_scratch_free(&s);
}

/* Depth: a tree behind the target hides nothing for exact; classic has no
 * depth test, so one in the walked cells hides what it covers. */
TEST(tree_behind_target)
{
    struct world w;
    world_init(&w, 2000, 1800);
    vec2 o = v2(100, 100);
    struct sight_shape t = rect_shape(v2(500, 100), M_PI / 2, 40, 24);
    world_add_tree(&w, v2(526, 100), 10);       /* just behind, in its cell */
    world_finish(&w);
    struct sight_scratch s;
    memset(&s, 0, sizeof s);
    check_num(sight_query(&w, SIGHT_EXACT, o, &t, &s, NULL), ==, 1);
    check_num(sight_query(&w, SIGHT_CLASSIC, o, &t, &s, NULL), <, 1);
    world_free(&w);
    sight_scratch_free(&s);
}

/* ---- degenerate cases --------------------------------------------------- */

TEST(degenerate_cases)
{
    struct world w;
    world_init(&w, 2000, 1800);
    world_add_tree(&w, v2(100, 100), 20);
    world_add_tree(&w, v2(400, 100), 10);
    world_finish(&w);
    struct sight_scratch s;
    memset(&s, 0, sizeof s);
    struct sight_result res;
    struct sight_shape t = rect_shape(v2(600, 100), 0, 40, 24);
    for (int m = SIGHT_CLASSIC; m <= SIGHT_EXACT; m++) {
        /* Observer inside a tree (even at its very centre): sees nothing. */
        check_num(sight_query(&w, m, v2(105, 100), &t, &s, &res), ==, 0);
        check_int(res.degenerate, ==, SIGHT_INSIDE_TREE);
        check_num(sight_query(&w, m, v2(100, 100), &t, &s, &res), ==, 0);
        /* Target on top of the observer, even inside a tree: fully seen. */
        struct sight_shape top = rect_shape(v2(100, 100), 0.3, 40, 24);
        check_num(sight_query(&w, m, v2(100, 100), &top, &s, &res), ==, 1);
        check_int(res.degenerate, ==, SIGHT_ON_TOP);
        check(!isnan(res.a0) && !isnan(res.a1));
        struct sight_shape topc = circle_shape(v2(700, 700), 15);
        check_num(sight_query(&w, m, v2(710, 700), &topc, &s, &res), ==, 1);
        /* Zero-width targets: a point, and a stick seen end-on. */
        struct sight_shape pt = rect_shape(v2(600, 100), 0, 0, 0);
        check_num(sight_query(&w, m, v2(200, 100), &pt, &s, &res), ==, 0);
        check_int(res.degenerate, ==, SIGHT_POINT);
        check_num(sight_query(&w, m, v2(200, 140), &pt, &s, &res), ==, 1);
        struct sight_shape stick = rect_shape(v2(600, 300), 0, 40, 0);
        check_num(sight_query(&w, m, v2(200, 300), &stick, &s, &res), ==, 1);
        struct sight_shape dot = circle_shape(v2(600, 100), 0);
        check_num(sight_query(&w, m, v2(200, 100), &dot, &s, &res), ==, 0);
        /* Target touching a tree, tree touching the observer's line. */
        struct sight_shape touch = rect_shape(v2(400, 124), 0, 40, 28);
        double v = sight_query(&w, m, v2(200, 124), &touch, &s, &res);
        check(v >= 0 && v <= 1);
        check(!isnan(res.a0) && !isnan(res.width));
    }
    /* Touching, exactly: exact agrees with the rays. */
    struct sight_shape touch = rect_shape(v2(400, 124), 0, 40, 28);
    double width;
    check_near(sight_query(&w, SIGHT_EXACT, v2(200, 124), &touch, &s, NULL),
               ray_cast(&w, v2(200, 124), &touch, 20000, &width), 0.001);
    /* A tree with no radius hides nothing; an observer on a tree's rim is
     * outside it: exactly, it hides the half plane beyond the tangent, half
     * of a target straight ahead; classic's tangent points at d = r are
     * 45° off the line to the tree and miss the target. */
    world_free(&w);
    world_init(&w, 2000, 1800);
    world_add_tree(&w, v2(300, 100), 0);
    world_add_tree(&w, v2(100, 120), 20);
    world_finish(&w);
    check_near(sight_query(&w, SIGHT_EXACT, v2(100, 100), &t, &s, &res), 0.5, 1e-12);
    check_int(res.degenerate, ==, SIGHT_NORMAL);
    check_num(sight_query(&w, SIGHT_CLASSIC, v2(100, 100), &t, &s, &res), ==, 1);
    world_free(&w);
    sight_scratch_free(&s);
}

/* ---- thresholds --------------------------------------------------------- */

TEST(thresholds)
{
    struct sight_config c = { 0.20, 0.10, 0.40, 0.75, 20 };
    double fov = deg2rad(45);
    check_num(sight_threshold(&c, fov, 0, 0), ==, 0.20);
    check_num(sight_threshold(&c, fov, deg2rad(10), 1), ==, 0.10);
    /* Near the edge: more than 0.75 × 22.5° = 16.875° off the heading. */
    check_num(sight_threshold(&c, fov, deg2rad(16.8), 0), ==, 0.20);
    check_num(sight_threshold(&c, fov, deg2rad(17), 0), ==, 0.40);
    check_num(sight_threshold(&c, fov, -deg2rad(20), 0), ==, 0.40);
    check_num(sight_threshold(&c, fov, deg2rad(20), 1), ==, 0.40);  /* edge wins */
}

/* ---- the sense phase ---------------------------------------------------- */

static int add_tank(struct world *w, const char *id, int team, vec2 p,
                    double heading)
{
    struct vehicle_params vp;
    world_default_params(&vp, VK_TANK);
    vp.drive = DRIVE_HOLD;
    vp.speed = 0;
    return world_add_vehicle(w, id, VK_TANK, team, &vp, p, heading);
}

static const struct sight_record *find(const struct world *w, int a, int b)
{
    for (size_t i = 0; i < w->now.sights.n; i++)
        if (w->now.sights.p[i].observer == a && w->now.sights.p[i].target == b)
            return &w->now.sights.p[i];
    return NULL;
}

TEST(sense_phase)
{
    struct world w;
    world_init(&w, 2000, 1800);
    int red = world_add_team(&w, "red", 0), blue = world_add_team(&w, "blue", 1);
    int a = add_tank(&w, "tank.a", red, v2(100, 900), 0);
    int b = add_tank(&w, "tank.b", blue, v2(500, 900), M_PI / 2);  /* ahead */
    int c = add_tank(&w, "tank.c", blue, v2(500, 1300), 0);        /* 45° off */
    int d = add_tank(&w, "tank.d", red, v2(400, 900), 0);          /* a friend */
    int e = add_tank(&w, "tank.e", blue, v2(1000, 905), 0);        /* out of range */
    int f = add_tank(&w, "tank.f", blue, v2(600, 1082), 0);        /* 20° off: near the edge */
    struct vehicle_params tp;
    world_default_params(&tp, VK_TURRET);
    tp.facing = M_PI;                       /* looks west, at a */
    int g = world_add_vehicle(&w, "turret.g", VK_TURRET, blue, &tp, v2(800, 900), M_PI);
    world_add_tree(&w, v2(300, 900), 10);
    check_int(world_finish(&w), ==, 0);
    world_moved(&w);
    sight_update(&w);
    const struct sight_record *r = find(&w, a, b);
    check(r != NULL);
    check(!find(&w, a, c));
    check(!find(&w, a, d));
    check(!find(&w, a, e));
    check(find(&w, a, f) != NULL);
    check(find(&w, a, g) != NULL);
    check(find(&w, g, a) != NULL);
    check(find(&w, g, d) != NULL);      /* an enemy of the turret */
    check(!find(&w, g, b));             /* its teammate */
    if (r) {
        check(r->visible > 0 && r->visible < 1);
        check_num(r->threshold, ==, 0.20);
        check_int(r->seen, ==, r->visible >= 0.20);
        check(r->n_trees >= 1 && r->n_spans >= 1);
        double hid = 0, ra0, ra1;
        sight_record_angles(r, &ra0, &ra1);
        for (int k = 0; k < r->n_intervals; k++) {
            const struct sight_interval *iv = &w.now.sight_intervals.p[r->first_interval + k];
            hid += iv->a1 - iv->a0;
            check(iv->a0 >= ra0 - 1e-12 && iv->a1 <= ra1 + 1e-12);
        }
        check_near(hid, (1 - r->visible) * (ra1 - ra0), 1e-9);
    }
    const struct sight_record *rf = find(&w, a, f);
    if (rf)
        check_num(rf->threshold, ==, 0.40);
    /* Records per observer, in target order, one event each. */
    const struct vehicle *va = &w.vehicles.p[a];
    for (int k = 1; k < va->sight_count; k++)
        check_int(w.now.sights.p[va->sight_first + k - 1].target, <,
                  w.now.sights.p[va->sight_first + k].target);
    /* The records are the sight events (none kept twice in the event
     * list): each record's event says what the record says. */
    int nev = 0, same = 1;
    for (size_t k = 0; k < w.now.events.n; k++)
        nev += w.now.events.p[k].kind == EV_SIGHT;
    check_int(nev, ==, 0);
    check_int(w.now.sights.n, >, 0);
    for (size_t k = 0; k < w.now.sights.n; k++) {
        const struct sight_record *sr = &w.now.sights.p[k];
        struct event e;
        sight_event_of(sr, &e);
        same &= e.kind == EV_SIGHT && e.a == sr->observer && e.b == sr->target
                && e.u.sight.visible == sr->visible && e.u.sight.seen == sr->seen
                && e.u.sight.method == SIGHT_EXACT;
    }
    check(same);
    /* A moving target needs only 10 %. */
    w.vehicles.p[b].speed = 60;
    w.now.events.n = 0;
    sight_update(&w);
    r = find(&w, a, b);
    check(r && r->threshold == 0.10);
    /* Dead vehicles neither look nor are seen. */
    w.vehicles.p[b].alive = 0;
    w.now.events.n = 0;
    sight_update(&w);
    check(!find(&w, a, b) && !find(&w, b, a));
    world_free(&w);
}

/* The vehicle grid picks the same pairs as testing them all. */
TEST(sense_grid_vs_all_pairs)
{
    struct world w;
    world_init(&w, 3000, 3000);
    int red = world_add_team(&w, "red", 0), blue = world_add_team(&w, "blue", 1);
    char id[32];
    for (int i = 0; i < 400; i++) {
        snprintf(id, sizeof id, "tank.%d", i);
        int k = add_tank(&w, id, i & 1 ? red : blue, v2(rr(0, 3000), rr(0, 3000)),
                         rr(-M_PI, M_PI));
        world_params_mut(&w, k)->fov = deg2rad(rr(20, 360));
        world_params_mut(&w, k)->view_range = rr(100, 900);
        world_params_mut(&w, k)->sight = i % 3 == 0 ? SIGHT_CLASSIC : SIGHT_EXACT;
    }
    for (int i = 0; i < 300; i++)
        world_add_tree(&w, v2(rr(0, 3000), rr(0, 3000)), rr(10, 30));
    check_int(world_finish(&w), ==, 0);
    /* Without a grid: all pairs. */
    sight_update(&w);
    size_t n = w.now.sights.n;
    struct sight_record *all = malloc(n * sizeof *all);
    memcpy(all, w.now.sights.p, n * sizeof *all);
    world_moved(&w);
    w.now.events.n = 0;
    sight_update(&w);
    check_int(w.now.sights.n, ==, (long long)n);
    int same = w.now.sights.n == n;
    for (size_t i = 0; same && i < n; i++)
        same = all[i].observer == w.now.sights.p[i].observer
            && all[i].target == w.now.sights.p[i].target
            && all[i].visible == w.now.sights.p[i].visible;
    check(same);
    check_int(n, >, 100);
    free(all);
    world_free(&w);
}

int main(void)
{
    run(walk_axis_parallel, "grid walk: rays parallel to an axis");
    run(walk_same_cell, "grid walk: start and end in one cell");
    run(walk_borders_and_corners, "grid walk: points on cell borders and corners");
    run(walk_leaving_the_map, "grid walk: rays leaving or outside the map");
    run(walk_vs_brute_force, "grid walk: every cell crossed, no other, on random segments");
    run(walk_ext_vs_brute_force, "grid walk over the extended grid: cells past the edge");
    run(walk_rows_vs_walk, "grid walk by rows: the same cells, one run a row");
    run(convex_rows_vs_walk, "convex polygon by rows: the cells its edges' walks touch");
    run(tree_grid_diagonal_and_centre_cells, "tree grid: diagonal and centre cells the compass points miss");
    run(candidates_complete, "candidates: every tree meeting the sight wedge, once");
    run(exact_vs_ray_caster, "exact agrees with a 20,000-ray caster within 0.001");
    run(exact_wraps_at_180, "exact: angles wrap at ±180°");
    run(classic_article_example, "classic: the article's 0.5-0.7 example, 20 points not 21");
    run(classic_hull_corners_by_hand, "classic: a broadside hull worked by hand");
    run(classic_narrow_close_up, "classic: narrow tangents close up (d = 1.2 r)");
    run(exact_just_covers_or_misses, "exact: a tree just covering the target, or just missing it");
    run(exact_shortcut_stays_out_of_degenerate_scales,
        "exact: the covering shortcut stays out of underflow and sub-resolution widths");
    run(tree_behind_target, "a tree behind the target: exact ignores it, classic does not");
    run(degenerate_cases, "degenerate cases give defined answers, never NaN");
    run(thresholds, "thresholds: 20 %, 10 % moving, 40 % near the edge, edge wins");
    run(sense_phase, "sense phase: pairs in cone and range, records, events");
    run(sense_grid_vs_all_pairs, "sense phase: the vehicle grid selects the same pairs");
    return tap_done();
}
