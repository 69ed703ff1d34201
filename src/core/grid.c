#include <stdlib.h>
#include <string.h>

#include "grid.h"
#include "grid_convex.h"
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
    int cy = grid_col_of(ay + t0 * dy, ny), ey = grid_col_of(ay + t1 * dy, ny);
    int sy = ey > cy ? 1 : -1, up = sy > 0;
    double slope = dy != 0 ? dx / dy : 0;
    for (;;) {
        /* Where the segment leaves this row: the end, or the next border. */
        double xout = cy == ey ? xend : ax + ((cy + up) - ay) * slope;
        int c0 = grid_col_of(xin, nx), c1 = grid_col_of(xout, nx);
        int l = c0 < c1 ? c0 : c1, h = c0 < c1 ? c1 : c0;
        lo[cy] = l < lo[cy] ? l : lo[cy];
        hi[cy] = h > hi[cy] ? h : hi[cy];
        if (cy == ey)
            break;
        cy += sy;
        xin = xout;
    }
}

/* The sweep is grid_convex.h's, each run into the arrays. */
struct rows_out { int *lo, *hi; };

static inline void put_row(void *ctx, int r, int lo, int hi)
{
    struct rows_out *o = ctx;
    o->lo[r] = lo;
    o->hi[r] = hi;
}

int grid_convex_rows(double cell, int nx, int ny, const vec2 *v, int n,
                     int *r0, int *r1, int *lo, int *hi)
{
    struct rows_out o = { lo, hi };
    return grid_convex_sweep(cell, nx, ny, v, n, r0, r1, put_row, &o);
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
