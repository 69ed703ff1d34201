/* grid_par.c — the detect stage's vehicle grid (tick.c's grid stage) on
 * threads: a battle's 10,000 vehicle records read by both cores.
 *
 * The counting sort's two passes go to threads: first each live
 * vehicle's cell (and the runs' largest radius and |speed|: a maximum is
 * the same in any order), each thread a fixed run of vehicles; then the
 * entries written, each thread a fixed run of slots.  Between them, on
 * one thread and over those cells alone, the count, the sums and every
 * entry's slot, in vehicle order as the one-thread build places them:
 * the same grid, entry for entry.  The second pass goes by slot, not by
 * vehicle: a run of vehicles lands all over the grid, so the two threads
 * wrote entries side by side in the same cache lines, which then went
 * back and forth between the cores (that pass took as long as the whole
 * one-thread build). */
#include <math.h>

#include "entries.h"
#include "grow.h"
#include "par.h"
#include "stages.h"
#include "world.h"

int grid_build_par(struct world *w, int threads, double min_cell)
{
    size_t n = w->vehicles.n;
    struct par_state *p = w->ctx ? par_state_for(w->ctx, threads, par_chunks(n, threads)) : NULL;
    if (!p || grow_reserve(&p->cells, &p->capcells, n, sizeof *p->cells)
        || grow_reserve(&p->order, &p->caporder, n, sizeof *p->order))
        return 1;
    struct vehicle_grid *g = &w->vgrid;
    /* room for every vehicle, as the one-thread build */
    if (vehicle_grid_begin(g, (int)n, w->width, w->height, min_cell))
        return -1;
    int *cells = p->cells;          /* a vehicle's cell; -1: a wreck */
    int *order = p->order;          /* the vehicle of each slot */
    double maxr = 0, maxs = 0;
    int live = 0;
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
#endif
    {
        double r = 0, s = 0;
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
        for (size_t i = 0; i < n; i++) {
            const struct vehicle *v = &w->vehicles.p[i];
            if (!v->alive) {
                cells[i] = -1;
                continue;
            }
            if (v->p->radius > r)
                r = v->p->radius;
            if (fabs(v->speed) > s)
                s = fabs(v->speed);
            cells[i] = vehicle_grid_cell(g, v->pos);
        }
#ifdef _OPENMP
#pragma omp critical(grid_par_max)
#endif
        {
            if (r > maxr)
                maxr = r;
            if (s > maxs)
                maxs = s;
        }
#ifdef _OPENMP
#pragma omp barrier
#pragma omp single
#endif
        {
            int k = 0;
            for (size_t i = 0; i < n; i++)
                if (cells[i] >= 0)
                    vehicle_grid_count_cell(g, k++, cells[i]);
            vehicle_grid_sum(g, k, maxr, maxs);
            live = k;
            k = 0;
            for (size_t i = 0; i < n; i++)
                if (cells[i] >= 0)
                    order[vehicle_grid_slot(g, k++)] = (int)i;
        }
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
        for (int s = 0; s < live; s++)
            g->items[s] = vehicle_entry(&w->vehicles.p[order[s]], order[s]);
    }
    w->vgrid_tick = w->tick;
    return 0;
}
