#include <stdlib.h>
#include <string.h>

#include "grid.h"
#include "grow.h"

/* Cells a grid of `items` things may have: GRID_MAX_CELLS, and no more
 * than GRID_CELLS_PER_ITEM a thing (plus a few).  More cells than things
 * only cost: every tick clears the vehicle grid's counts, and a sight
 * query walks every row of the tree grid its wedge crosses, so a long
 * thin map (1 x 1,000,000) over small cells would cost millions of rows a
 * query for one tree. */
#define GRID_CELLS_PER_ITEM 64
#define GRID_MIN_CELLS 1024
static double grid_cells_for(size_t items)
{
    double m = (double)items * GRID_CELLS_PER_ITEM + GRID_MIN_CELLS;
    return m < GRID_MAX_CELLS ? m : GRID_MAX_CELLS;
}

/* Cells of at least `cell` but few enough that the grid stays bounded:
 * at most `maxcells`, the side doubled until they fit. */
static double grid_fit(double width, double height, double cell, double maxcells,
                       int *nx, int *ny)
{
    for (;;) {
        double fx = ceil(width / cell), fy = ceil(height / cell);
        if (fx < 1) fx = 1;
        if (fy < 1) fy = 1;
        if (fx * fy <= maxcells) {
            *nx = (int)fx;
            *ny = (int)fy;
            return cell;
        }
        cell *= 2;
    }
}

static int circle_touches_box(vec2 c, double r, double x0, double y0,
                              double x1, double y1)
{
    double dx = c.x < x0 ? x0 - c.x : c.x > x1 ? c.x - x1 : 0;
    double dy = c.y < y0 ? y0 - c.y : c.y > y1 ? c.y - y1 : 0;
    return dx * dx + dy * dy <= r * r;
}

/* Cell k's side along one axis of n cells; the border cells reach out to
 * infinity, as grid_cell_of() clamps, so a tree past the map's edge is
 * still listed in the cells beside it (a sight line may pass there). */
static double side_lo(int k, double cell) { return k == 0 ? -INFINITY : k * cell; }
static double side_hi(int k, int n, double cell)
{
    return k == n - 1 ? INFINITY : (k + 1) * cell;
}

/* Visits each cell whose square overlaps the circle; two passes (count,
 * then fill) share this walk. */
#define FOR_TREE_CELLS(g, t, cx, cy)                                          \
    for (int cy = grid_cell_of((t)->c.y - (t)->r, (g)->cell, (g)->ny);        \
         cy <= grid_cell_of((t)->c.y + (t)->r, (g)->cell, (g)->ny); cy++)     \
        for (int cx = grid_cell_of((t)->c.x - (t)->r, (g)->cell, (g)->nx);    \
             cx <= grid_cell_of((t)->c.x + (t)->r, (g)->cell, (g)->nx); cx++) \
            if (circle_touches_box((t)->c, (t)->r,                            \
                    side_lo(cx, (g)->cell), side_lo(cy, (g)->cell),           \
                    side_hi(cx, (g)->nx, (g)->cell),                          \
                    side_hi(cy, (g)->ny, (g)->cell)))

/* An upper bound on the listings of the trees in g (each tree's bounding
 * box of cells, in doubles: it cannot overflow), stopping once past
 * `limit`. */
static double tree_grid_bound(const struct tree_grid *g, const struct tree *trees,
                              int n, double limit)
{
    double sum = 0;
    for (int i = 0; i < n && sum <= limit; i++) {
        const struct tree *t = &trees[i];
        double cx = grid_cell_of(t->c.x + t->r, g->cell, g->nx)
                  - grid_cell_of(t->c.x - t->r, g->cell, g->nx) + 1;
        double cy = grid_cell_of(t->c.y + t->r, g->cell, g->ny)
                  - grid_cell_of(t->c.y - t->r, g->cell, g->ny) + 1;
        sum += cx * cy;
    }
    return sum;
}

int tree_grid_build(struct tree_grid *g, const struct tree *trees, int n,
                    double width, double height, double cell)
{
    memset(g, 0, sizeof *g);
    double maxcells = grid_cells_for(n > 0 ? (size_t)n : 0);
    g->cell = grid_fit(width, height, cell, maxcells, &g->nx, &g->ny);
    /* Big trees over small cells: coarser cells until the listings fit
     * (see GRID_MAX_ENTRIES); a single cell takes one per tree. */
    while (tree_grid_bound(g, trees, n, GRID_MAX_ENTRIES) > GRID_MAX_ENTRIES) {
        if (g->nx == 1 && g->ny == 1)
            return -1;
        g->cell = grid_fit(width, height, g->cell * 2, maxcells, &g->nx, &g->ny);
    }
    size_t ncells = (size_t)g->nx * (size_t)g->ny;
    g->start = calloc(ncells + 1, sizeof *g->start);
    if (!g->start)
        return -1;
    for (int i = 0; i < n; i++)
        FOR_TREE_CELLS(g, &trees[i], cx, cy)
            g->start[(size_t)cy * g->nx + cx + 1]++;
    for (size_t c = 0; c < ncells; c++)
        g->start[c + 1] += g->start[c];
    g->items = calloc((size_t)g->start[ncells] + GRID_ITEMS_PAD, sizeof *g->items);
    int *fill = malloc(ncells * sizeof *fill);
    if (!g->items || !fill) {
        free(fill);
        tree_grid_free(g);
        return -1;
    }
    memcpy(fill, g->start, ncells * sizeof *fill);
    for (int i = 0; i < n; i++)
        FOR_TREE_CELLS(g, &trees[i], cx, cy)
            g->items[fill[(size_t)cy * g->nx + cx]++] = i;
    free(fill);
    return 0;
}

void tree_grid_free(struct tree_grid *g)
{
    free(g->start);
    free(g->items);
    memset(g, 0, sizeof *g);
}

/* Liang-Barsky: narrows [t0, t1] to where p*t <= q; 0 when empty. */
static int clip_side(double p, double q, double *t0, double *t1)
{
    if (p == 0)
        return q >= 0;
    double t = q / p;
    if (p < 0) {
        if (t > *t1) return 0;
        if (t > *t0) *t0 = t;
    } else {
        if (t < *t0) return 0;
        if (t < *t1) *t1 = t;
    }
    return 1;
}

/* The walk counts its steps instead of comparing t with the end: it takes
 * exactly |ex - cx| + |ey - cy| steps and never steps an axis past the end
 * cell, so rounding can neither loop forever nor overshoot.  An axis the
 * segment is parallel to has an infinite crossing time and is never
 * stepped; at an exact corner crossing x steps first. */
static int walk(double cell, int nx, int ny, vec2 a, vec2 b, int clip,
                grid_walk_fn fn, void *ctx)
{
    if (!(cell > 0) || nx <= 0 || ny <= 0)
        return 0;
    double dx = b.x - a.x, dy = b.y - a.y, t0 = 0, t1 = 1;
    if (!isfinite(dx) || !isfinite(dy))
        return 0;
    if (clip && (!clip_side(-dx, a.x, &t0, &t1)
                 || !clip_side(dx, nx * cell - a.x, &t0, &t1)
                 || !clip_side(-dy, a.y, &t0, &t1)
                 || !clip_side(dy, ny * cell - a.y, &t0, &t1)))
        return 0;
    int cx = grid_cell_of(a.x + t0 * dx, cell, nx);
    int cy = grid_cell_of(a.y + t0 * dy, cell, ny);
    int ex = grid_cell_of(a.x + t1 * dx, cell, nx);
    int ey = grid_cell_of(a.y + t1 * dy, cell, ny);
    int sx = ex > cx ? 1 : -1, sy = ey > cy ? 1 : -1;
    /* Crossing times of the next vertical and horizontal borders, in the
     * segment's parameter t (0 at a, 1 at b), and the time per cell. */
    double tx = INFINITY, ty = INFINITY, ddx = INFINITY, ddy = INFINITY;
    if (dx != 0) {
        tx = ((cx + (dx > 0)) * cell - a.x) / dx;
        ddx = cell / fabs(dx);
    }
    if (dy != 0) {
        ty = ((cy + (dy > 0)) * cell - a.y) / dy;
        ddy = cell / fabs(dy);
    }
    int steps = abs(ex - cx) + abs(ey - cy), visited = 0;
    for (;;) {
        visited++;
        if (fn(cx, cy, ctx) || steps-- == 0)
            break;
        if (cy == ey || (cx != ex && tx <= ty)) {
            cx += sx;
            tx += ddx;
        } else {
            cy += sy;
            ty += ddy;
        }
    }
    return visited;
}

int grid_walk(double cell, int nx, int ny, vec2 a, vec2 b,
              grid_walk_fn fn, void *ctx)
{
    return walk(cell, nx, ny, a, b, 1, fn, ctx);
}

/* Unclipped, the same walk does the extended grid: grid_cell_of() already
 * clamps the end cells, and from a clamped cell the next border it computes
 * is the first inner one. */
int grid_walk_ext(double cell, int nx, int ny, vec2 a, vec2 b,
                  grid_walk_fn fn, void *ctx)
{
    return walk(cell, nx, ny, a, b, 0, fn, ctx);
}

/* Column of x in cell units, clamped as grid_cell_of() does; truncation is
 * floor for the non-negative values it keeps. */
static inline int col_of(double u, int n)
{
    if (!(u >= 0))
        return 0;
    return u < n ? (int)u : n - 1;
}

/* Within one row Amanatides & Woo only step x, so the cells a segment
 * visits in a row are one run, from the column where it enters the row to
 * the column where it leaves: one step per row instead of one per cell.
 * The sense phase calls this for every pair, so it works in cell units and
 * multiplies instead of dividing. */
void grid_walk_rows(double cell, int nx, int ny, vec2 a, vec2 b, int clip,
                    int *lo, int *hi)
{
    if (!(cell > 0) || nx <= 0 || ny <= 0)
        return;
    double inv = 1 / cell;
    double ax = a.x * inv, ay = a.y * inv;
    double dx = b.x * inv - ax, dy = b.y * inv - ay, t0 = 0, t1 = 1;
    if (!isfinite(dx) || !isfinite(dy))
        return;
    if (clip && (!clip_side(-dx, ax, &t0, &t1) || !clip_side(dx, nx - ax, &t0, &t1)
                 || !clip_side(-dy, ay, &t0, &t1) || !clip_side(dy, ny - ay, &t0, &t1)))
        return;
    double xin = ax + t0 * dx, xend = ax + t1 * dx;
    int cy = col_of(ay + t0 * dy, ny), ey = col_of(ay + t1 * dy, ny);
    int sy = ey > cy ? 1 : -1, up = sy > 0;
    double slope = dy != 0 ? dx / dy : 0;
    for (;;) {
        /* Where the segment leaves this row: the end, or the next border. */
        double xout = cy == ey ? xend : ax + ((cy + up) - ay) * slope;
        int c0 = col_of(xin, nx), c1 = col_of(xout, nx);
        int l = c0 < c1 ? c0 : c1, h = c0 < c1 ? c1 : c0;
        lo[cy] = l < lo[cy] ? l : lo[cy];
        hi[cy] = h > hi[cy] ? h : hi[cy];
        if (cy == ey)
            break;
        cy += sy;
        xin = xout;
    }
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
int grid_convex_rows(double cell, int nx, int ny, const vec2 *v, int n,
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

/* Room for ncells + 2 counters in *counts (two slots more than cells:
 * see the counting sort in vehicle_grid_build) and for nv entries. */
static int vgrid_reserve(struct vehicle_grid *g, size_t ncells, int nv)
{
    return grow_reserve(&g->start, &g->ncells_cap, ncells + 2, sizeof *g->start)
        || grow_reserve(&g->items, &g->cap, (size_t)nv, sizeof *g->items)
        || grow_reserve(&g->cell_of, &g->cell_cap, (size_t)nv, sizeof *g->cell_of) ? -1 : 0;
}

int vehicle_grid_begin(struct vehicle_grid *g, int n, double width, double height,
                       double min_cell)
{
    int nx, ny;
    double cell = grid_fit(width, height, min_cell > 0 ? min_cell : 1,
                           grid_cells_for((size_t)n), &nx, &ny);
    size_t ncells = (size_t)nx * (size_t)ny;
    if (vgrid_reserve(g, ncells, n))
        return -1;
    g->cell = cell;
    g->nx = nx;
    g->ny = ny;
    g->n = 0;
    memset(g->start, 0, (ncells + 2) * sizeof *g->start);
    return 0;
}

/* Counting sort.  Cell c is counted in start[c + 2]; the prefix sums then
 * leave in start[c + 1] where cell c begins, and placing moves that on to
 * where it ends -- which is where cell c + 1 begins: the finished array,
 * with no pass to shift it back.  Each entry's cell is kept from the
 * counting pass (vehicle_grid_count). */
void vehicle_grid_sum(struct vehicle_grid *g, int n, double max_radius, double max_speed)
{
    size_t ncells = (size_t)g->nx * (size_t)g->ny;
    int *start = g->start;
    for (size_t c = 2; c < ncells + 2; c++)
        start[c] += start[c - 1];
    g->n = n;
    g->max_radius = max_radius;
    g->max_speed = max_speed;
}

int vehicle_grid_build(struct vehicle_grid *g, const struct vgrid_entry *entries,
                       int n, double max_radius, double max_speed,
                       double width, double height, double min_cell)
{
    if (vehicle_grid_begin(g, n, width, height, min_cell))
        return -1;
    for (int k = 0; k < n; k++)
        vehicle_grid_count(g, k, entries[k].pos);
    vehicle_grid_sum(g, n, max_radius, max_speed);
    for (int k = 0; k < n; k++)
        vehicle_grid_put(g, k, &entries[k]);
    return 0;
}

void vehicle_grid_free(struct vehicle_grid *g)
{
    free(g->start);
    free(g->items);
    free(g->cell_of);
    memset(g, 0, sizeof *g);
}

void vehicle_grid_query(const struct vehicle_grid *g, vec2 p, double radius,
                        vgrid_fn fn, void *ctx)
{
    int x0 = grid_cell_of(p.x - radius, g->cell, g->nx);
    int x1 = grid_cell_of(p.x + radius, g->cell, g->nx);
    int y0 = grid_cell_of(p.y - radius, g->cell, g->ny);
    int y1 = grid_cell_of(p.y + radius, g->cell, g->ny);
    for (int cy = y0; cy <= y1; cy++) {
        const int *row = g->start + (size_t)cy * g->nx;
        for (int k = row[x0]; k < row[x1 + 1]; k++)
            fn(&g->items[k], ctx);
    }
}
