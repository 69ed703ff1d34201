/* grid_stage.c — the vehicle grid stage (tick.c's grid and detect
 * stages), written once over blocks: the live vehicles' entries
 * (entries.h) sorted into cells by a counting sort of two block passes.
 *
 *   cells    cells_range, vehicles [lo, hi): each live vehicle's cell
 *            (-1: a wreck), the block's largest radius and |speed| (a
 *            maximum is the same in any order).
 *   place    (one thread, over the cells alone) the count, the sums and
 *            every entry's slot, in vehicle order: the same grid, entry
 *            for entry, whatever the blocks.
 *   entries  entries_range, slots [lo, hi): each slot's entry written.
 *            By slot, not by vehicle: a run of vehicles lands all over
 *            the grid, so two threads wrote entries side by side in the
 *            same cache lines, which then went back and forth between
 *            the cores (that pass took as long as the whole build).
 *
 * One thread runs each pass as one block; threads run par_chunks()
 * blocks, dealt out statically (par.h).  Where the fused decide and act
 * sweep already made the entries (act.c: one block, each entry made while
 * its record was in the cache), they are counted and placed as they are:
 * no vehicle record read at all. */
#include <math.h>

#include "entries.h"
#include "grow.h"
#include "par.h"
#include "stages.h"
#include "world.h"

/* The vehicle grid's smallest cell side. */
#ifndef VGRID_MIN_CELL
#define VGRID_MIN_CELL 100
#endif

/* A block's largest radius and |speed|. */
struct grid_max { double r, s; };

/* cells, vehicles [lo, hi). */
static struct grid_max cells_range(const struct world *w, const struct vehicle_grid *g,
                                   int *cells, size_t lo, size_t hi)
{
    struct grid_max m = { 0, 0 };
    for (size_t i = lo; i < hi; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        if (!v->alive) {
            cells[i] = -1;
            continue;
        }
        if (v->p->radius > m.r)
            m.r = v->p->radius;
        if (fabs(v->speed) > m.s)
            m.s = fabs(v->speed);
        cells[i] = vehicle_grid_cell(g, v->pos);
    }
    return m;
}

/* place: the live vehicles counted into their cells, then the vehicle of
 * each slot into order; the entries there are. */
static int place_entries(struct vehicle_grid *g, const int *cells, int *order,
                         size_t n, struct grid_max m)
{
    int k = 0;
    for (size_t i = 0; i < n; i++)
        if (cells[i] >= 0)
            vehicle_grid_count_cell(g, k++, cells[i]);
    vehicle_grid_sum(g, k, m.r, m.s);
    k = 0;
    for (size_t i = 0; i < n; i++)
        if (cells[i] >= 0)
            order[vehicle_grid_slot(g, k++)] = (int)i;
    return k;
}

/* entries, slots [lo, hi). */
static void entries_range(const struct world *w, struct vehicle_grid *g,
                          const int *order, size_t lo, size_t hi)
{
    for (size_t s = lo; s < hi; s++)
        g->items[s] = vehicle_entry(&w->vehicles.p[order[s]], order[s]);
}

/* The three passes, each in par_chunks() blocks on `threads`, or one
 * block each on the calling thread. */
static void grid_blocks(const struct world *w, struct vehicle_grid *g, int *cells,
                        int *order, int threads)
{
    size_t n = w->vehicles.n;
    if (threads <= 1) {
        /* the one block each, with no team of threads to start (on a
         * small map that is most of the stage) */
        struct grid_max m = cells_range(w, g, cells, 0, n);
        entries_range(w, g, order, 0, (size_t)place_entries(g, cells, order, n, m));
        return;
    }
    size_t nb = par_chunks(n, threads);
    struct grid_max m = { 0, 0 };
    size_t live = 0;
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
#endif
    {
        struct grid_max t = { 0, 0 };
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
        for (size_t k = 0; k < nb; k++) {
            struct grid_max b = cells_range(w, g, cells, par_chunk_lo(n, nb, k),
                                            par_chunk_lo(n, nb, k + 1));
            t.r = fmax(t.r, b.r);
            t.s = fmax(t.s, b.s);
        }
#ifdef _OPENMP
#pragma omp critical(grid_max)
#endif
        {
            m.r = fmax(m.r, t.r);
            m.s = fmax(m.s, t.s);
        }
#ifdef _OPENMP
#pragma omp barrier
#pragma omp single
#endif
        live = (size_t)place_entries(g, cells, order, n, m);
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
        for (size_t k = 0; k < nb; k++)
            entries_range(w, g, order, par_chunk_lo(live, nb, k),
                          par_chunk_lo(live, nb, k + 1));
    }
}

/* grid: the vehicle grid of w's live vehicles.  The detect stage builds
 * it for the tick's end, which is the next tick's start: vgrid_tick says
 * which tick's start it holds, so tick_ready builds it only for a world
 * that was just made, restored or changed by hand (world_moved). */
int grid_stage(struct world *w)
{
    double cell = 2 * world_max_radius(w);
    if (cell < VGRID_MIN_CELL)
        cell = VGRID_MIN_CELL;
    struct vehicle_grid *g = &w->scratch.vgrid;
    struct tick_ctx *c = w->scratch.ctx;
    size_t n = w->vehicles.n;
    /* room for every vehicle (the wrecks are left out): one pass fewer
     * over the records than counting the live ones first */
    if (vehicle_grid_begin(g, (int)n, w->width, w->height, cell))
        return -1;
    if (c && c->entries_ready) {
        c->entries_ready = 0;
        for (size_t k = 0; k < c->nentries; k++)
            vehicle_grid_count(g, (int)k, c->entries[k].pos);
        vehicle_grid_sum(g, (int)c->nentries, c->entries_maxr, c->entries_maxs);
        for (size_t k = 0; k < c->nentries; k++)
            vehicle_grid_put(g, (int)k, &c->entries[k]);
        w->scratch.vgrid_tick = w->tick;
        return 0;
    }
    int threads = par_threads(w);
    struct par_state *p = c ? par_state_for(c, threads, threads > 1 ? par_chunks(n, threads) : 1)
                            : NULL;
    if (!p || grow_reserve(&p->cells, &p->capcells, n, sizeof *p->cells)
        || grow_reserve(&p->order, &p->caporder, n, sizeof *p->order))
        return -1;
    grid_blocks(w, g, p->cells, p->order, threads);
    w->scratch.vgrid_tick = w->tick;
    return 0;
}
