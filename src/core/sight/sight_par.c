/* sight_par.c — the sense stage on threads: each chunk of observers
 * (par.h) fills its own sight_out, and the chunks are joined in order, so
 * the records, their details and the events are those of the one-thread
 * loop, byte for byte. */
#include <stdlib.h>
#include <string.h>

#include "sight_impl.h"
#include "sight_out.h"
#include "decide.h"
#include "par.h"

#ifdef _OPENMP
#include <omp.h>
#endif

void sight_out_free(struct sight_out *o)
{
    free(o->sights.p);
    free(o->intervals.p);
    free(o->events.p);
    free(o->spans);
    free(o->trees);
    memset(o, 0, sizeof *o);
}

/* Chunk k's lists copied to their place; its observers' first records,
 * and its records' firsts, moved by where the chunk starts. */
static void join_chunk(struct world *w, const struct sight_out *o,
                       size_t lo, size_t hi)
{
    const struct sight_out_at *a = &o->at;
    struct sight_record *r = w->sights.p + a->sights;
    for (size_t k = 0; k < o->sights.n; k++) {
        r[k] = o->sights.p[k];
        r[k].first_interval += (int)a->intervals;
        r[k].first_span += (int)a->spans;
        r[k].first_tree += (int)a->trees;
    }
    if (o->intervals.n)
        memcpy(w->sight_intervals.p + a->intervals, o->intervals.p,
               o->intervals.n * sizeof *o->intervals.p);
    if (o->events.n)
        memcpy(w->events.p + a->events, o->events.p, o->events.n * sizeof *o->events.p);
    if (o->nspans)
        memcpy(w->sight_store.spans + a->spans, o->spans, o->nspans * sizeof *o->spans);
    if (o->ntrees)
        memcpy(w->sight_store.trees + a->trees, o->trees, o->ntrees * sizeof *o->trees);
    for (size_t i = lo; i < hi; i++)
        w->vehicles.p[i].sight_first += (int)a->sights;
}

/* Every vehicle's list empty (memory ran out: no record at all rather
 * than lists that point past the records). */
static void no_records(struct world *w)
{
    for (size_t i = 0; i < w->vehicles.n; i++)
        w->vehicles.p[i].sight_first = w->vehicles.p[i].sight_count = 0;
}

/* Where each chunk goes, in chunk (= vehicle) order, and room for all
 * of them in the world's lists: 0; -1 when a chunk ran out of memory (its
 * records stop short, as the one-thread loop's would); -2 when the lists
 * could not grow (no_records). */
static int place_chunks(struct world *w, struct sight_out *outs, size_t nc)
{
    struct sight_out_at a = { 0, 0, w->events.n, 0, 0 };
    int rc = 0;
    for (size_t k = 0; k < nc; k++) {
        struct sight_out *o = &outs[k];
        if (o->fail)
            rc = -1;
        o->at = a;
        a.sights += o->sights.n;
        a.intervals += o->intervals.n;
        a.events += o->events.n;
        a.spans += o->nspans;
        a.trees += o->ntrees;
    }
    struct sight_store *ws = &w->sight_store;
    if (WORLD_RESERVE(w->sights, a.sights)
        || WORLD_RESERVE(w->sight_intervals, a.intervals)
        || WORLD_RESERVE(w->events, a.events)
        || grow_reserve(&ws->spans, &ws->capspans, a.spans, sizeof *ws->spans)
        || grow_reserve(&ws->trees, &ws->captrees, a.trees, sizeof *ws->trees)) {
        no_records(w);
        return -2;
    }
    w->sights.n = a.sights;
    w->sight_intervals.n = a.intervals;
    w->events.n = a.events;
    ws->nspans = a.spans;
    ws->ntrees = a.trees;
    return rc;
}

int sight_update_par(struct world *w, int threads)
{
    size_t n = w->vehicles.n, nc = par_chunks(n, threads);
    struct par_state *p = par_state_for(w->ctx, threads, nc);
    if (!p) {
        no_records(w);
        return -1;
    }
    struct sight_out *outs = p->outs;
    struct sight_store *stores = p->stores;
    int rc = 0;
    /* One team of threads for the three steps: observe (chunks handed
     * out as threads come free), place (one thread), join (each chunk's
     * copy is independent once it knows where it goes). */
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
#endif
    {
#ifdef _OPENMP
        struct sight_store *st = &stores[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 1)
#else
        struct sight_store *st = &stores[0];
#endif
        for (size_t k = 0; k < nc; k++) {
            struct sight_out *o = &outs[k];
            o->sights.n = o->intervals.n = o->events.n = 0;
            o->nspans = o->ntrees = 0;
            o->fail = 0;
            for (size_t i = par_chunk_lo(n, nc, k), hi = par_chunk_lo(n, nc, k + 1); i < hi; i++)
                if (sight_observe(w, o, st, i))
                    o->fail = 1;
        }
#ifdef _OPENMP
#pragma omp single
#endif
        rc = place_chunks(w, outs, nc);
        if (rc != -2) {
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
            for (size_t k = 0; k < nc; k++)
                join_chunk(w, &outs[k], par_chunk_lo(n, nc, k), par_chunk_lo(n, nc, k + 1));
        }
    }
    return rc < 0 ? -1 : 0;
}
