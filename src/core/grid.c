#include <stdlib.h>
#include <string.h>

#include "grid.h"
#include "world.h"

/* Cells of at least `cell` but few enough that the grid stays bounded. */
static double grid_fit(double width, double height, double cell, int *nx, int *ny)
{
    for (;;) {
        double fx = ceil(width / cell), fy = ceil(height / cell);
        if (fx < 1) fx = 1;
        if (fy < 1) fy = 1;
        if (fx * fy <= GRID_MAX_CELLS) {
            *nx = (int)fx;
            *ny = (int)fy;
            return cell;
        }
        cell *= 2;
    }
}

static int circle_touches_cell(vec2 c, double r, double x0, double y0, double s)
{
    double dx = c.x < x0 ? x0 - c.x : c.x > x0 + s ? c.x - (x0 + s) : 0;
    double dy = c.y < y0 ? y0 - c.y : c.y > y0 + s ? c.y - (y0 + s) : 0;
    return dx * dx + dy * dy <= r * r;
}

/* Visits each cell whose square overlaps the circle; two passes (count,
 * then fill) share this walk. */
#define FOR_TREE_CELLS(g, t, cx, cy)                                          \
    for (int cy = grid_cell_of((t)->c.y - (t)->r, (g)->cell, (g)->ny);        \
         cy <= grid_cell_of((t)->c.y + (t)->r, (g)->cell, (g)->ny); cy++)     \
        for (int cx = grid_cell_of((t)->c.x - (t)->r, (g)->cell, (g)->nx);    \
             cx <= grid_cell_of((t)->c.x + (t)->r, (g)->cell, (g)->nx); cx++) \
            if (circle_touches_cell((t)->c, (t)->r, cx * (g)->cell,           \
                                    cy * (g)->cell, (g)->cell))

int tree_grid_build(struct tree_grid *g, const struct tree *trees, int n,
                    double width, double height, double cell)
{
    memset(g, 0, sizeof *g);
    g->cell = grid_fit(width, height, cell, &g->nx, &g->ny);
    size_t ncells = (size_t)g->nx * (size_t)g->ny;
    g->start = calloc(ncells + 1, sizeof *g->start);
    if (!g->start)
        return -1;
    for (int i = 0; i < n; i++)
        FOR_TREE_CELLS(g, &trees[i], cx, cy)
            g->start[(size_t)cy * g->nx + cx + 1]++;
    for (size_t c = 0; c < ncells; c++)
        g->start[c + 1] += g->start[c];
    g->items = malloc(((size_t)g->start[ncells] + 1) * sizeof *g->items);
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

int vehicle_grid_build(struct vehicle_grid *g, const struct world *w,
                       double min_cell)
{
    int nx, ny;
    double cell = grid_fit(w->width, w->height, min_cell > 0 ? min_cell : 1,
                           &nx, &ny);
    size_t ncells = (size_t)nx * (size_t)ny;
    if ((int)ncells + 1 > g->ncells_cap) {
        int *s = realloc(g->start, (ncells + 1) * sizeof *s);
        if (!s)
            return -1;
        g->start = s;
        g->ncells_cap = (int)ncells + 1;
    }
    int nv = (int)w->vehicles.n;
    if (nv > g->cap) {
        struct vgrid_entry *it = realloc(g->items, (size_t)nv * sizeof *it);
        if (!it)
            return -1;
        g->items = it;
        g->cap = nv;
    }
    g->cell = cell;
    g->nx = nx;
    g->ny = ny;
    memset(g->start, 0, (ncells + 1) * sizeof *g->start);

    /* Counting sort: count per cell, prefix sums, then place. */
    const struct vehicle *v = w->vehicles.p;
    for (int i = 0; i < nv; i++)
        if (v[i].alive) {
            int c = grid_cell_of(v[i].pos.y, cell, ny) * nx
                  + grid_cell_of(v[i].pos.x, cell, nx);
            g->start[c + 1]++;
        }
    for (size_t c = 0; c < ncells; c++)
        g->start[c + 1] += g->start[c];
    g->n = g->start[ncells];
    for (int i = 0; i < nv; i++) {
        if (!v[i].alive)
            continue;
        int c = grid_cell_of(v[i].pos.y, cell, ny) * nx
              + grid_cell_of(v[i].pos.x, cell, nx);
        struct vgrid_entry *e = &g->items[g->start[c]++];
        e->pos = v[i].pos;
        e->vel = v2_scale(v2_dir(v[i].heading), v[i].speed);
        e->radius = v[i].p.radius;
        e->index = i;
    }
    /* The placing pass moved every start one cell on: shift back. */
    for (size_t c = ncells; c > 0; c--)
        g->start[c] = g->start[c - 1];
    g->start[0] = 0;
    return 0;
}

void vehicle_grid_free(struct vehicle_grid *g)
{
    free(g->start);
    free(g->items);
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
