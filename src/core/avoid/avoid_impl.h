/* avoid_impl.h — what the avoidance methods share (private to avoid*.c):
 * the neighbour walk, through the vehicle grid or, as the tests' oracle and
 * the benchmark's baseline, over every vehicle.
 *
 * Both walks hand the visitor the same values (the grid's compact entry, or
 * the same entry computed from the vehicle) for the same set of neighbours
 * (centre strictly closer than `range`), only in another order; the methods
 * combine neighbours with order-free rules (min, max, ties broken by vehicle
 * index), so the two walks give identical decisions. */
#ifndef BOTFIELD_AVOID_IMPL_H
#define BOTFIELD_AVOID_IMPL_H

#include "world.h"
#include "entries.h"

typedef void (*avoid_visit)(void *ctx, const struct vgrid_entry *e, double d2);

/* The entry the grid would hold for vehicle j. */
static inline struct vgrid_entry avoid_entry(const struct vehicle *v, int j)
{
    return vehicle_entry(v, j);
}

/* Calls fn for every other live vehicle whose centre is closer than range
 * to tank i's.  Static inline with a constant fn, so the compiler inlines
 * the visitor into the loop. */
static inline void avoid_neighbours(const struct world *w, int i, double range,
                                    int brute, avoid_visit fn, void *ctx)
{
    vec2 p = world_vehicle(w, i)->pos;
    double r2 = range * range;
    if (brute) {
        const struct vehicle *v = world_vehicle(w, 0);
        for (int j = 0; j < (int)world_nvehicles(w); j++) {
            if (j == i || !v[j].alive)
                continue;
            double d2 = v2_dist2(p, v[j].pos);
            if (d2 < r2) {
                struct vgrid_entry e = avoid_entry(&v[j], j);
                fn(ctx, &e, d2);
            }
        }
        return;
    }
    const struct vehicle_grid *g = &w->scratch.vgrid;
    /* A superset of the cells within range (extra cells hold nobody in
     * range), found by multiplying: four divisions a query are felt. */
    double inv = 1 / g->cell;
    int x0 = grid_cell_lo(p.x - range, inv, g->nx);
    int x1 = grid_cell_hi(p.x + range, inv, g->nx);
    int y0 = grid_cell_lo(p.y - range, inv, g->ny);
    int y1 = grid_cell_hi(p.y + range, inv, g->ny);
    for (int cy = y0; cy <= y1; cy++) {
        const int *row = g->start + (size_t)cy * g->nx;
        const struct vgrid_entry *e = g->items + row[x0];
        const struct vgrid_entry *end = g->items + row[x1 + 1];
        for (; e < end; e++) {
            double d2 = v2_dist2(p, e->pos);
            if (d2 < r2 && e->index != i)
                fn(ctx, e, d2);
        }
    }
}

void avoid_classic(const struct world *w, int i, int brute, struct decision *d);
/* last: the tank's record of the previous tick (its turn, and the plan it
 * holds between re-plans). */
void avoid_predictive(const struct world *w, int i, int brute,
                      const struct avoid_info *last, const struct decide_view *c,
                      struct decision *d);

#endif
