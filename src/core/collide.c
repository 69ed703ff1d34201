/* collide.c — the detect stage's collisions: every overlapping pair
 * (exact, through the vehicle grid of the tick's end), a collision event
 * for each pair that starts overlapping, and the run's smallest separation
 * (min_separation, exact at any map size). */
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "grow.h"
#include "par.h"
#include "stages.h"
#include "world.h"

/* Sorts the pairs (unique keys) ascending: an LSD radix sort by bytes,
 * skipping the bytes all keys share (indices stay below 2^20, so most
 * are), through tmp[n]; insertion sort for a few.  The same order as any
 * sort, in a fraction of qsort's time for the thousands of overlaps a
 * crowd of classic tanks has every tick. */
static void sort_pairs(uint64_t *p, uint64_t *tmp, size_t n)
{
    if (n < 32) {
        for (size_t i = 1; i < n; i++) {
            uint64_t x = p[i];
            size_t j = i;
            for (; j > 0 && p[j - 1] > x; j--)
                p[j] = p[j - 1];
            p[j] = x;
        }
        return;
    }
    uint64_t diff = 0;
    for (size_t i = 1; i < n; i++)
        diff |= p[i] ^ p[0];
    uint64_t *src = p, *dst = tmp;
    for (int shift = 0; shift < 64; shift += 8) {
        if (!(diff >> shift & 0xff))
            continue;
        size_t count[257] = { 0 };
        for (size_t i = 0; i < n; i++)
            count[(src[i] >> shift & 0xff) + 1]++;
        for (int b = 1; b <= 256; b++)
            count[b] += count[b - 1];
        for (size_t i = 0; i < n; i++)
            dst[count[src[i] >> shift & 0xff]++] = src[i];
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != p)
        memcpy(p, src, n * sizeof *p);
}

struct pairs {
    uint64_t *p; size_t n, cap;
};

/* How far past touching the collision scan looks first. */
#define SEPARATION_SLACK 2.0
/* Far above a root's rounding at any map size, far below a distance that
 * matters. */
#define SEPARATION_ROOM 1e-6
/* Fewer vehicles than this are scanned on one thread. */
#define COLLIDE_PAR_MIN 4096

static int pairs_push(struct pairs *s, int a, int b)
{
    if (grow_reserve(&s->p, &s->cap, s->n + 1, sizeof *s->p))
        return -1;
    s->p[s->n++] = (uint64_t)a << 32 | (uint32_t)b;     /* a < b */
    return 0;
}

/* The smallest separation of the pairs whose centres lie within `reach`
 * of each other on both axes (a superset: whole cells), and, when out is
 * not NULL, the overlapping pairs.  Each pair is seen once, from the one
 * that comes first in the grid (cell by cell, row by row, then in its
 * cell): that one looks forward only -- the rest of its own cell, the
 * cells after it in its row, the rows below -- and the other lies there
 * whenever the two are within reach. */
static double scan_range(const struct vehicle_grid *g, double reach,
                         struct pairs *out, int *fail, int lo, int hi)
{
    double best = INFINITY;
    for (int a = lo; a < hi; a++) {
        const struct vgrid_entry *me = &g->items[a];
        vec2 p = me->pos;
        /* Its row, as the build placed it (same function, same input):
         * per entry, not per cell, so a huge sparse grid costs nothing. */
        int cy0 = grid_cell_of(p.y, g->cell, g->ny);
        int x0 = grid_cell_of(p.x - reach, g->cell, g->nx);
        int x1 = grid_cell_of(p.x + reach, g->cell, g->nx);
        int y1 = grid_cell_of(p.y + reach, g->cell, g->ny);
        for (int cy = cy0; cy <= y1; cy++) {
            const int *row = g->start + (size_t)cy * g->nx;
            /* In its own row: what follows it, its cell's rest first. */
            const struct vgrid_entry *e = cy == cy0 ? g->items + a + 1 : g->items + row[x0];
            const struct vgrid_entry *end = g->items + row[x1 + 1];
            for (; e < end; e++) {
                double rs = me->radius + e->radius;
                double d2 = v2_dist2(p, e->pos);
                /* The root only for a pair that may set the minimum or
                 * overlap: d - rs < best, i.e. d < best + rs, with room
                 * (SEPARATION_ROOM) for the roundings: a pair left out
                 * could never be the minimum, so which pairs a scan
                 * leaves out (it depends on the order, on threads) never
                 * changes it. */
                double lim = best + rs + SEPARATION_ROOM;
                if (!(d2 < lim * lim) && !(d2 < rs * rs))
                    continue;
                double sep = sqrt(d2) - rs;
                if (sep < best)
                    best = sep;
                if (sep < 0 && out
                    && pairs_push(out, me->index < e->index ? me->index : e->index,
                                  me->index < e->index ? e->index : me->index))
                    *fail = 1;
            }
        }
    }
    return best;
}


/* The scan over all of g's entries, on `threads` (par.h): each thread a
 * fixed run of entries (static: the run grid_stage.c wrote, still in its
 * core's cache), its pairs in its own list, joined after.  The pairs are
 * sorted afterwards and the minimum is the same number in any order: the
 * same result on any number of threads. */
static double scan_pairs(const struct vehicle_grid *g, double reach,
                         struct pairs *out, int *fail, int threads)
{
    if (threads <= 1 || g->n < COLLIDE_PAR_MIN)
        return scan_range(g, reach, out, fail, 0, g->n);
    struct pairs part[PAR_MAX_THREADS];
    memset(part, 0, (size_t)threads * sizeof *part);
    double best = INFINITY;
    int bad = 0;
    size_t nc = par_chunks((size_t)g->n, threads);
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
#endif
    {
#ifdef _OPENMP
        struct pairs *mine = out ? &part[omp_get_thread_num()] : NULL;
#else
        struct pairs *mine = out ? &part[0] : NULL;
#endif
        double b = INFINITY;
        int f = 0;
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
        for (size_t k = 0; k < nc; k++)
            b = fmin(b, scan_range(g, reach, mine, &f,
                                   (int)par_chunk_lo((size_t)g->n, nc, k),
                                   (int)par_chunk_lo((size_t)g->n, nc, k + 1)));
#ifdef _OPENMP
#pragma omp critical
#endif
        {
            best = fmin(best, b);
            bad |= f;
        }
    }
    for (int t = 0; t < threads; t++) {
        if (out && part[t].n) {
            if (grow_reserve(&out->p, &out->cap, out->n + part[t].n, sizeof *out->p))
                bad = 1;
            else
                memcpy(out->p + out->n, part[t].p, part[t].n * sizeof *out->p);
            out->n += bad ? 0 : part[t].n;
        }
        free(part[t].p);
    }
    if (bad)
        *fail = 1;
    return best;
}

/* Collisions and the smallest separation, exact, through the grid.  The
 * scan reaches a little past touching (2 max_radius + SEPARATION_SLACK):
 * every overlapping pair is within it, and every pair it misses is at
 * least SEPARATION_SLACK apart.  So when that floor is above both this
 * tick's minimum and the run's, nothing missed could change min_separation
 * -- the case in any crowd; on a sparse map the scan widens (x4) until it
 * is, ending with all pairs once the reach spans the map. */
static double separation_scan(struct world *w, struct pairs *now, int *failp)
{
    int fail = 0;
    const struct vehicle_grid *g = &w->scratch.vgrid;
    double maxr = g->max_radius;
    double reach = 2 * maxr + SEPARATION_SLACK;
    int threads = par_threads(w);
    double best = scan_pairs(g, reach, now, &fail, threads);
    while (g->n >= 2 && fmin(best, w->stats.min_separation) > reach - 2 * maxr) {
        reach *= 4;
        if (reach >= w->width + w->height) {
            /* All pairs (vehicles may even stand off the map). */
            for (int a = 0; a < g->n; a++)
                for (int b = a + 1; b < g->n; b++) {
                    const struct vgrid_entry *x = &g->items[a], *y = &g->items[b];
                    double sep = v2_dist(x->pos, y->pos) - (x->radius + y->radius);
                    if (sep < best)
                        best = sep;
                }
            break;
        }
        double b2 = scan_pairs(g, reach, NULL, &fail, threads);
        best = fmin(best, b2);
    }
    *failp = fail;
    return best;
}

/* botfield(6) HEADLESS OUTPUT: min_separation is over the run, tick 0 (the vehicles as
 * loaded, the trace's first state lines) included: measured once on the
 * grid of tick 0, no collision event (events start on tick 1).  Measuring
 * again (a seek back to tick 0) changes nothing. */
int collide_measure_start(struct world *w)
{
    int fail = 0;
    if (w->tick != 0)
        return 0;
    double best = separation_scan(w, NULL, &fail);
    if (fail)
        return -1;
    if (best < w->stats.min_separation)
        w->stats.min_separation = best;
    return 0;
}

int collide_stage(struct world *w)
{
    struct pairs now = { NULL, 0, 0 };
    int fail = 0;
    double best = separation_scan(w, &now, &fail);
    if (fail) {
        free(now.p);
        return -1;
    }
    if (best < w->stats.min_separation)
        w->stats.min_separation = best;

    if (now.n > 1) {
        uint64_t *tmp = now.n >= 32 ? malloc(now.n * sizeof *tmp) : NULL;
        if (now.n >= 32 && !tmp) {
            free(now.p);
            return -1;
        }
        sort_pairs(now.p, tmp, now.n);
        free(tmp);
    }
    /* A pair that overlaps now but did not last tick starts a collision. */
    size_t k = 0;
    for (size_t i = 0; i < now.n; i++) {
        while (k < w->overlaps.n && w->overlaps.p[k] < now.p[i])
            k++;
        if (k < w->overlaps.n && w->overlaps.p[k] == now.p[i])
            continue;
        int a = (int)(now.p[i] >> 32), b = (int)(now.p[i] & 0xffffffffu);
        w->stats.collisions++;
        struct event *e = world_event(w, EV_COLLISION, a, b);
        if (e)
            e->u.collision.distance = v2_dist(w->vehicles.p[a].pos, w->vehicles.p[b].pos);
        else
            fail = 1;           /* the tick's error, not a lost event */
    }
    if (WORLD_RESERVE(w->overlaps, now.n)) {
        free(now.p);
        return -1;
    }
    if (now.n)
        memcpy(w->overlaps.p, now.p, now.n * sizeof *now.p);
    w->overlaps.n = now.n;
    free(now.p);
    return fail ? -1 : 0;
}

