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
    free(x->cell_start_buf);
    free(x->cell_item_buf);
    free(x->cell_box_buf);
    *x = (struct shell_index){ 0 };
}

/* v's cell in [0, n) */
static inline int cell_of(double v, int n)
{
    return shell_index_cell(v, n);
}

/* The cell a shell at pos goes in (its row by the index's ny, column by
 * nx; lx, ly the lowest corner). */
static inline size_t cell_at(const struct shell_index *x, vec2 pos, double lx, double ly)
{
    return (size_t)cell_of((pos.y - ly) * x->inv, x->ny) * (size_t)x->nx
         + (size_t)cell_of((pos.x - lx) * x->inv, x->nx);
}

/* Shell k's item and its box in floats, (x0, -x1, y0, -y1)
 * (shell_box_near). */
static void put_item(struct shell_pt *it, float *b, const struct shell *sh, uint32_t k,
                     double horizon)
{
    vec2 end = v2_add(sh->pos, v2_scale(sh->vel, horizon));
    *it = (struct shell_pt){
        fmin(sh->pos.x, end.x), fmax(sh->pos.x, end.x),
        fmin(sh->pos.y, end.y), fmax(sh->pos.y, end.y),
        sh->pos, sh->vel, v2_len(sh->vel), k };
    b[0] = shell_float(it->bx0);
    b[1] = shell_float(-it->bx1);
    b[2] = shell_float(it->by0);
    b[3] = shell_float(-it->by1);
}

int shell_index_make(struct shell_index *x, const struct shell *shells, size_t n,
                     double horizon)
{
    shell_index_clear(x);
    double lx = INFINITY, ly = INFINITY, hx = -INFINITY, hy = -INFINITY, vmax = 0;
    if (!(horizon >= 0) || !isfinite(horizon))
        return -1;
    size_t alive = 0;
    for (size_t k = 0; k < n; k++) {
        const struct shell *sh = &shells[k];
        if (!sh->alive)
            continue;
        if (!isfinite(sh->pos.x) || !isfinite(sh->pos.y))
            return -1;
        if (!isfinite(sh->vel.x) || !isfinite(sh->vel.y))
            return -1;
        alive++;
        vmax = fmax(vmax, v2_len(sh->vel));
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
    x->cell = cell;
    x->horizon = horizon;
    x->vmax = vmax;
    x->nx = alive ? (int)((hx - lx) * x->inv) + 1 : 1;
    x->ny = alive ? (int)((hy - ly) * x->inv) + 1 : 1;
    size_t cells = (size_t)x->nx * (size_t)x->ny;
    if (grow_reserve(&x->cell_start_buf, &x->startcap, cells + 1, sizeof *x->cell_start_buf)
        || grow_reserve(&x->cell_item_buf, &x->itemcap, alive ? alive : 1,
                        sizeof *x->cell_item_buf)
        || grow_reserve(&x->cell_box_buf, &x->boxcap, 4 * (alive ? alive : 1),
                        sizeof *x->cell_box_buf))
        return -1;
    uint32_t *start = x->cell_start_buf;
    struct shell_pt *item = x->cell_item_buf;
    float *box = x->cell_box_buf;
    for (size_t c = 0; c <= cells; c++)
        start[c] = 0;
    /* counted into start[c + 1], summed, then placed in the shells' order:
     * each cell's items ascend */
    for (size_t k = 0; k < n; k++) {
        const struct shell *sh = &shells[k];
        if (sh->alive)
            start[cell_at(x, sh->pos, lx, ly) + 1]++;
    }
    for (size_t c = 0; c < cells; c++)
        start[c + 1] += start[c];
    for (size_t k = 0; k < n; k++) {
        const struct shell *sh = &shells[k];
        if (sh->alive) {
            uint32_t j = start[cell_at(x, sh->pos, lx, ly)]++;
            put_item(&item[j], box + 4 * (size_t)j, sh, (uint32_t)k, horizon);
        }
    }
    /* start[c] now holds cell c's end: shifted back to its start */
    for (size_t c = cells; c > 0; c--)
        start[c] = start[c - 1];
    start[0] = 0;
    x->start = start;
    x->item = item;
    x->box = box;
    x->from = shells;
    x->n = n;
    return 0;
}

/* A bound computed in floats that stays outside the exact one: the
 * relative error of a distance test on doubles is some 1e-16, of a
 * coordinate's cell at most one rounding of its size. */
static inline double hair(vec2 p, double r, const struct shell_index *x)
{
    return 1e-9 * (r + fabs(p.x) + fabs(p.y) + fabs(x->x0) + fabs(x->y0) + 1);
}

void shell_walk_start(struct shell_walk *it, const struct shell_index *x, vec2 p, double r)
{
    it->x = x;
    it->cy = 0;
    it->cy1 = x->ny - 1;
    it->all = !isfinite(p.x) || !isfinite(p.y) || !(r >= 0) || !isfinite(r);
    if (it->all)
        return;
    double m = hair(p, r, x);
    r += m;
    it->r2 = r * r;
    it->lo = x->y0 - m - p.y;
    it->hi = x->y0 + x->cell + m - p.y;
    it->px = (p.x - x->x0) * x->inv;
    it->hair = 2 * m * x->inv + 1e-9;
    double ay = (p.y - r - x->y0) * x->inv, by = (p.y + r - x->y0) * x->inv;
    /* (cell_of is floor clamped, and rounding is monotone: a shell at y
     * >= p.y - r has a cell no lower than the bound's) */
    it->cy = cell_of(ay, x->ny);
    it->cy1 = cell_of(by, x->ny);
    if (by < 0 || ay >= x->ny)
        it->cy1 = it->cy - 1;   /* no row: the circle passes them all by */
}
