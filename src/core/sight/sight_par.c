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

/* A chunk's lists (in buffer o) copied to their place a; its observers'
 * first records, and its records' firsts, moved by where it starts. */
static void join_chunk(struct world *w, const struct sight_out *o,
                       const struct sight_out_at *a, size_t lo, size_t hi)
{
    /* (an empty list may have no array: not even NULL + 0) */
    if (o->sights.n) {
        /* one block copy (a struct assignment a record is a few dozen
         * scalar moves: 5 % of a battle's instructions), then the firsts
         * moved where there is something to move them by (never in a
         * world without trees) */
        struct sight_record *r = w->sights.p + a->sights;
        memcpy(r, o->sights.p, o->sights.n * sizeof *r);
        if (a->intervals || a->spans || a->trees)
            for (size_t k = 0; k < o->sights.n; k++) {
                r[k].first_interval += (int)a->intervals;
                r[k].first_span += (int)a->spans;
                r[k].first_tree += (int)a->trees;
            }
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

/* The join as the chunks finish (sight_update_par): chunk after chunk in
 * order, each placed once it and every chunk before it are observed. */
struct placing {
    struct world *w;
    int claimed;                    /* a chunk was claimed for a copy */
    size_t next;                    /* the first chunk not placed */
    struct sight_out_at at;         /* where it goes */
    struct sight_out_at cap;        /* the room in the world's lists */
    int full;                       /* a chunk did not fit: it and the
                                       later ones are joined after */
    /* The buffers not in use, lowest on top (NULL: chunk k uses buffer
     * k).  A chunk's buffer is given back once its lists are copied, so
     * a few buffers go round: a few MiB of memory touched rather than a
     * chunk's worth each (the first tick's page faults), and the same
     * lines in the cache from chunk to chunk. */
    int *free; size_t nfree;
};

/* x for `placed` of nc chunks, reckoned for all of them and an eighth
 * more. */
static size_t reckon(size_t x, size_t placed, size_t nc)
{
    return x + x / placed * (nc - placed) + x / 8;
}

/* The world's lists grown for all the chunks, reckoned from the first
 * `placed` (the first tick, when the lists have no room yet): only while
 * no chunk is being copied into them, since they may move.  0, or -1
 * when they could not grow (the chunks are then joined after). */
static int room_early(struct placing *pl, size_t placed, size_t nc)
{
    struct world *w = pl->w;
    struct sight_store *ws = &w->sight_store;
    const struct sight_out_at *a = &pl->at;
    if (WORLD_RESERVE(w->sights, reckon(a->sights, placed, nc))
        || WORLD_RESERVE(w->sight_intervals, reckon(a->intervals, placed, nc))
        || WORLD_RESERVE(w->events, reckon(a->events, placed, nc))
        || grow_reserve(&ws->spans, &ws->capspans, reckon(a->spans, placed, nc),
                        sizeof *ws->spans)
        || grow_reserve(&ws->trees, &ws->captrees, reckon(a->trees, placed, nc),
                        sizeof *ws->trees))
        return -1;
    struct sight_out_at cap = { w->sights.cap, w->sight_intervals.cap, w->events.cap,
                                ws->capspans, ws->captrees };
    pl->cap = cap;
    return 0;
}

static int pool_take(struct placing *pl, size_t k)
{
    return pl->free ? pl->free[--pl->nfree] : (int)k;
}

static void pool_give(struct placing *pl, int b)
{
    if (pl->free)
        pl->free[pl->nfree++] = b;
}

static int fits(const struct sight_out_at *a, const struct sight_out_at *cap)
{
    return a->sights <= cap->sights && a->intervals <= cap->intervals
        && a->events <= cap->events && a->spans <= cap->spans
        && a->trees <= cap->trees;
}

/* Chunk k is observed: the chunks from pl->next on that are observed
 * too, in order, get their places; those that fit in the room the
 * world's lists have are claimed for the caller to copy, [*lo, *hi).
 * Under the caller's lock. */
static void place_ready(struct placing *pl, struct sight_out *outs, size_t nc,
                        size_t k, size_t *lo, size_t *hi)
{
    outs[k].done = 1;
    *lo = *hi = pl->next;
    for (; pl->next < nc && outs[pl->next].done; pl->next++) {
        struct sight_out *c = &outs[pl->next];
        const struct sight_out *o = &outs[c->buf];
        c->at = pl->at;
        pl->at.sights += o->sights.n;
        pl->at.intervals += o->intervals.n;
        pl->at.events += o->events.n;
        pl->at.spans += o->nspans;
        pl->at.trees += o->ntrees;
        /* (room made while nothing is being copied: the first tick's
         * chunks are copied as they go too, and give their buffers
         * back) */
        if (!pl->full && (fits(&pl->at, &pl->cap)
                          || (!pl->claimed && !room_early(pl, pl->next + 1, nc)
                              && fits(&pl->at, &pl->cap)))) {
            pl->claimed = 1;
            c->joined = 1;
            *hi = pl->next + 1;
        } else {
            pl->full = 1;
        }
    }
}

/* After every chunk is placed: the world's lists their length, grown
 * first for chunks that did not fit (no_records when they cannot grow):
 * 0; -1 when a chunk ran out of memory (its records stop short, as the
 * one-thread loop's would); -2 when the lists could not grow. */
static int place_done(struct world *w, const struct placing *pl,
                      const struct sight_out *outs, size_t nc)
{
    int rc = 0;
    for (size_t k = 0; k < nc; k++)
        if (outs[k].fail)
            rc = -1;
    const struct sight_out_at *a = &pl->at;
    struct sight_store *ws = &w->sight_store;
    if (WORLD_RESERVE(w->sights, a->sights)
        || WORLD_RESERVE(w->sight_intervals, a->intervals)
        || WORLD_RESERVE(w->events, a->events)
        || grow_reserve(&ws->spans, &ws->capspans, a->spans, sizeof *ws->spans)
        || grow_reserve(&ws->trees, &ws->captrees, a->trees, sizeof *ws->trees)) {
        no_records(w);
        return -2;
    }
    w->sights.n = a->sights;
    w->sight_intervals.n = a->intervals;
    w->events.n = a->events;
    ws->nspans = a->spans;
    ws->ntrees = a->trees;
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
    const struct sight_store *ws = &w->sight_store;
    struct placing pl = {
        w, 0, 0, { 0, 0, w->events.n, 0, 0 },
        { w->sights.cap, w->sight_intervals.cap, w->events.cap, ws->capspans, ws->captrees },
        0, NULL, 0
    };
    /* (before any thread looks: a chunk's last tick must not read as
     * done) */
    for (size_t k = 0; k < nc; k++)
        outs[k].done = outs[k].joined = 0;
    pl.free = malloc(nc * sizeof *pl.free);
    for (size_t k = 0; pl.free && k < nc; k++)
        pl.free[pl.nfree++] = (int)(nc - 1 - k);
    int rc = 0;
    /* One team of threads.  Observe: chunks handed out as threads come
     * free, each copied to its place in the world's lists as soon as it
     * and the chunks before it are done (while its lists are still in the
     * cache, beside the other threads' work), when the room the lists
     * have from earlier ticks holds it.  Then the lists' lengths (one
     * thread), and the chunks that did not fit, each copy independent
     * once it knows where it goes. */
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
            int b;
#ifdef _OPENMP
#pragma omp critical(sight_place)
#endif
            b = pool_take(&pl, k);
            struct sight_out *o = &outs[b];
            o->sights.n = o->intervals.n = o->events.n = 0;
            o->nspans = o->ntrees = 0;
            int fail = 0;
            for (size_t i = par_chunk_lo(n, nc, k), hi = par_chunk_lo(n, nc, k + 1); i < hi; i++)
                if (sight_observe(w, o, st, i))
                    fail = 1;
            outs[k].fail = fail;
            outs[k].buf = b;
            size_t lo, hi;
#ifdef _OPENMP
#pragma omp critical(sight_place)
#endif
            place_ready(&pl, outs, nc, k, &lo, &hi);
            for (size_t j = lo; j < hi; j++)
                join_chunk(w, &outs[outs[j].buf], &outs[j].at,
                           par_chunk_lo(n, nc, j), par_chunk_lo(n, nc, j + 1));
#ifdef _OPENMP
#pragma omp critical(sight_place)
#endif
            for (size_t j = lo; j < hi; j++)
                pool_give(&pl, outs[j].buf);
        }
#ifdef _OPENMP
#pragma omp single
#endif
        rc = place_done(w, &pl, outs, nc);
        if (rc != -2 && pl.full) {
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
            for (size_t k = 0; k < nc; k++)
                if (!outs[k].joined)
                    join_chunk(w, &outs[outs[k].buf], &outs[k].at,
                               par_chunk_lo(n, nc, k), par_chunk_lo(n, nc, k + 1));
        }
    }
    free(pl.free);
    return rc < 0 ? -1 : 0;
}
