/* shell_index.c — the shells in flight bucketed by cell (shell_index.h). */
#include <math.h>
#include <stdlib.h>

#include "aim/aim.h"
#include "grow.h"
#include "shell_index.h"

/* Cells about as many as the shells (one a cell on average), at least
 * MIN_CELL wide, at most MAX_CELLS a side. */
#define MIN_CELL 16.0
#define MAX_CELLS 1024

void shell_index_clear(struct shell_index *x)
{
    x->from = NULL;
    x->n = 0;
}

void shell_index_free(struct shell_index *x)
{
    free(x->start);
    free(x->item);
    *x = (struct shell_index){ 0 };
}

/* v's cell in [0, n) (v is a cell coordinate, NaN-free). */
static inline int cell_of(double v, int n)
{
    if (!(v > 0))
        return 0;
    if (v >= n - 1)
        return n - 1;
    return (int)v;
}

/* cell_of(floor(v) - 1, n) and cell_of(floor(v) + 1, n) without floor (a
 * library call here): (int) truncates as floor does from 0 up, and
 * below 0 both clamp alike. */
static inline int cell_below(double v, int n)
{
    if (!(v >= 1))
        return 0;
    if (v >= n)
        return n - 1;
    return (int)v - 1;
}

static inline int cell_above(double v, int n)
{
    if (!(v >= 0))
        return 0;
    if (v >= n - 2)
        return n - 1;
    return (int)v + 1;
}

int shell_index_make(struct shell_index *x, const struct shell *shells, size_t n)
{
    shell_index_clear(x);
    double lx = INFINITY, ly = INFINITY, hx = -INFINITY, hy = -INFINITY;
    size_t alive = 0;
    for (size_t k = 0; k < n; k++) {
        const struct shell *sh = &shells[k];
        if (!sh->alive)
            continue;
        if (!isfinite(sh->pos.x) || !isfinite(sh->pos.y))
            return -1;
        alive++;
        lx = fmin(lx, sh->pos.x);
        hx = fmax(hx, sh->pos.x);
        ly = fmin(ly, sh->pos.y);
        hy = fmax(hy, sh->pos.y);
    }
    if (n > UINT32_MAX - 1)
        return -1;
    double cell = MIN_CELL;
    if (alive) {
        double wdt = hx - lx, hgt = hy - ly;
        cell = fmax(cell, sqrt(wdt * hgt / (double)alive));
        cell = fmax(cell, fmax(wdt, hgt) / (MAX_CELLS - 1));
        if (!isfinite(cell))
            return -1;
    } else {
        lx = ly = 0;
    }
    x->x0 = lx;
    x->y0 = ly;
    x->inv = 1 / cell;
    x->nx = alive ? (int)((hx - lx) * x->inv) + 1 : 1;
    x->ny = alive ? (int)((hy - ly) * x->inv) + 1 : 1;
    size_t cells = (size_t)x->nx * (size_t)x->ny;
    if (grow_reserve(&x->start, &x->startcap, cells + 1, sizeof *x->start)
        || grow_reserve(&x->item, &x->itemcap, alive ? alive : 1, sizeof *x->item))
        return -1;
    uint32_t *start = x->start;
    for (size_t c = 0; c <= cells; c++)
        start[c] = 0;
    /* counted into start[c + 1], summed, then placed in the shells' order:
     * each cell's items ascend */
    for (size_t k = 0; k < n; k++) {
        const struct shell *sh = &shells[k];
        if (sh->alive)
            start[(size_t)cell_of((sh->pos.y - ly) * x->inv, x->ny) * (size_t)x->nx
                  + (size_t)cell_of((sh->pos.x - lx) * x->inv, x->nx) + 1]++;
    }
    for (size_t c = 0; c < cells; c++)
        start[c + 1] += start[c];
    for (size_t k = 0; k < n; k++) {
        const struct shell *sh = &shells[k];
        if (sh->alive) {
            size_t c = (size_t)cell_of((sh->pos.y - ly) * x->inv, x->ny) * (size_t)x->nx
                     + (size_t)cell_of((sh->pos.x - lx) * x->inv, x->nx);
            x->item[start[c]++] = (struct shell_pt){ sh->pos, sh->vel, v2_len(sh->vel),
                                                     (uint32_t)k };
        }
    }
    /* start[c] now holds cell c's end: shifted back to its start */
    for (size_t c = cells; c > 0; c--)
        start[c] = start[c - 1];
    start[0] = 0;
    x->from = shells;
    x->n = n;
    return 0;
}

struct shell_cells shell_index_cells(const struct shell_index *x, vec2 p, double r)
{
    struct shell_cells b = { 0, x->nx - 1, 0, x->ny - 1 };
    if (!isfinite(p.x) || !isfinite(p.y) || !(r >= 0) || !isfinite(r))
        return b;       /* every cell */
    double ax = (p.x - r - x->x0) * x->inv, bx = (p.x + r - x->x0) * x->inv;
    double ay = (p.y - r - x->y0) * x->inv, by = (p.y + r - x->y0) * x->inv;
    if (bx < -1 || ay > x->ny + 1 || by < -1 || ax > x->nx + 1) {
        b.cx1 = b.cy1 = -1;     /* no cell */
        return b;
    }
    /* a cell more each way: a shell on a cell's edge may be placed in the
     * next one by rounding */
    b.cx0 = cell_below(ax, x->nx);
    b.cx1 = cell_above(bx, x->nx);
    b.cy0 = cell_below(ay, x->ny);
    b.cy1 = cell_above(by, x->ny);
    return b;
}

void shell_index_row(const struct shell_index *x, const struct shell_cells *b, vec2 p,
                     double r, int cy, uint32_t *j0, uint32_t *j1)
{
    size_t row = (size_t)cy * (size_t)x->nx;
    int cx0 = b->cx0, cx1 = b->cx1;
    if (isfinite(p.x) && isfinite(p.y) && r >= 0 && isfinite(r)) {
        /* the row widened by a cell each way (rounding), then how far p
         * is from it across, and the circle's half-width there */
        double cell = 1 / x->inv;
        double lo = x->y0 + (cy - 1) * cell, hi = x->y0 + (cy + 2) * cell;
        double dy = p.y < lo ? lo - p.y : p.y > hi ? p.y - hi : 0;
        if (dy > r) {
            *j0 = *j1 = 0;
            return;
        }
        double hw = sqrt(r * r - dy * dy);
        int a = cell_below((p.x - hw - x->x0) * x->inv, x->nx);
        int z = cell_above((p.x + hw - x->x0) * x->inv, x->nx);
        cx0 = a > cx0 ? a : cx0;
        cx1 = z < cx1 ? z : cx1;
        if (cx0 > cx1) {
            *j0 = *j1 = 0;
            return;
        }
    }
    *j0 = x->start[row + (size_t)cx0];
    *j1 = x->start[row + (size_t)cx1 + 1];
}
