/* sight_stage.c — the sense stage (sight_update), written once over a
 * block of observers [lo, hi): sense_range.  One thread runs one block,
 * the whole crowd, whose lists are the world's own arrays swapped in (no
 * copy); threads run par_chunks() blocks (par.h), the records and their
 * details those of the one block, byte for byte.  The records are the
 * tick's sight events too (sight_event_of): none is written twice.
 *
 * In the one block each observer gathers its targets and looks at them
 * at once, while they are in the cache.  Blocks on threads first gather
 * (gather_range: one record a target), so the blocks' counts place every
 * block's records in the world's list before any is written; each block
 * then looks (the same sense_range) and writes its records straight
 * into their place: no block buffer for them and no copy (a battle's
 * 120,000 records a tick are 15 MiB).  Only the details whose counts come with
 * the queries — hidden intervals, walked cells, candidate trees — go to
 * the block's own lists, joined in block order after. */
#include <stdlib.h>
#include <string.h>

#include "sight_impl.h"
#include "sight_out.h"
#include "decide.h"
#include "grow.h"
#include "par.h"

#ifdef _OPENMP
#include <omp.h>
#endif

void sight_out_free(struct sight_out *o)
{
    free(o->sights.p);
    free(o->intervals.p);
    free(o->spans);
    free(o->trees);
    free(o->targets);
    free(o->per);
    memset(o, 0, sizeof *o);
}

/* Every vehicle's list empty (memory ran out: no record at all rather
 * than lists that point past the records or hold a gap). */
static void no_records(struct world *w)
{
    for (size_t i = 0; i < w->vehicles.n; i++)
        w->vehicles.p[i].sight_first = w->vehicles.p[i].sight_count = 0;
}

/* gather (blocks on threads), observers [lo, hi): their targets into
 * o, with how many each has.  o->per is left short (capper < hi - lo)
 * only when it could not grow: the block's observers then look at
 * nothing. */
static void gather_range(const struct world *w, struct sight_out *o,
                         struct sight_store *st, size_t lo, size_t hi)
{
    o->ntargets = 0;
    o->fail = 0;
    if (grow_reserve(&o->per, &o->capper, hi - lo, sizeof *o->per)) {
        o->fail = 1;
        return;
    }
    for (size_t i = lo; i < hi; i++) {
        if (sight_collect(w, st, i))
            o->fail = 1;
        size_t n = st->ntargets;
        if (n && grow_reserve(&o->targets, &o->captargets, o->ntargets + n,
                              sizeof *o->targets)) {
            o->fail = 1;
            n = 0;
        }
        if (n)
            memcpy(o->targets + o->ntargets, st->targets, n * sizeof *o->targets);
        o->per[i - lo] = (int)n;
        o->ntargets += n;
    }
}

/* Between the passes: each chunk's records placed after the chunks
 * before it, and the world's list given room for all (it may move:
 * nothing is writing it).  0, or -1 when it could not grow. */
static int place_records(struct world *w, struct sight_out *outs, size_t nc)
{
    size_t ns = 0;
    for (size_t k = 0; k < nc; k++) {
        outs[k].at.sights = ns;
        ns += outs[k].ntargets;
    }
    return WORLD_RESERVE(w->now.sights, ns) ? -1 : 0;
}

/* sense, observers [lo, hi): each looks at its targets, its records and
 * details into o, its sight_first moved to where o's records
 * land in the world's (o->at.sights).  The targets are gathered here,
 * observer by observer (one block), or were by gather_range (gathered:
 * o->per, o->targets; blocks on threads). */
static void sense_range(struct world *w, struct sight_out *o, struct sight_store *st,
                        size_t lo, size_t hi, int gathered)
{
    int per = gathered && o->capper >= hi - lo;
    const int *t = o->targets;
    for (size_t i = lo; i < hi; i++) {
        struct vehicle *v = &w->vehicles.p[i];
        if (!v->alive) {
            /* A wreck looks at nothing (sight_collect): its list emptied
             * without the calls, and only once (a battle's late ticks
             * are mostly wrecks: 10,000 a tick for some 200 tanks).  An
             * empty list's first is never read (world.h). */
            if (gathered && per)
                t += (size_t)o->per[i - lo];    /* (none gathered) */
            if (v->sight_count) {
                v->sight_first = (int)o->sights.n + (int)o->at.sights;
                v->sight_count = 0;
            }
            continue;
        }
        const int *ti = t;
        size_t n;
        if (gathered) {
            n = per ? (size_t)o->per[i - lo] : 0;
            t += n;
        } else {
            if (sight_collect(w, st, i))
                o->fail = 1;
            ti = st->targets;
            n = st->ntargets;
        }
        if (sight_look_at(w, o, &st->scratch, i, ti, n))
            o->fail = 1;
        w->vehicles.p[i].sight_first += (int)o->at.sights;
    }
}

/* A block on threads looks with the world's record list lent at
 * o->at.sights (room for exactly o->ntargets, all a look can write; never
 * the block's to grow, keep or free; no pointer into an empty list: the
 * world's may be NULL), its details into its own lists.  o->sights.n is
 * left the records written (fewer only when memory ran out). */
static void look_block(struct world *w, struct sight_out *o, struct sight_store *st,
                       size_t lo, size_t hi)
{
    o->sights.p = o->ntargets ? w->now.sights.p + o->at.sights : NULL;
    o->sights.cap = o->ntargets;
    o->sights.n = o->intervals.n = o->nspans = o->ntrees = 0;
    sense_range(w, o, st, lo, hi, 1);
    o->sights.p = NULL;
    o->sights.cap = 0;
}

/* After the look: the details placed, the world's lists their lengths.
 * 0; -1 when memory ran out in a chunk (its records are all there, as
 * the one block's would be); -2 when a record is missing or the
 * lists could not grow (no_records).  *join: some detail to copy. */
static int place_details(struct world *w, struct sight_out *outs, size_t nc, int *join)
{
    struct sight_store *ws = &w->now.sight_store;
    size_t ns = 0, ni = 0, nsp = 0, ntr = 0;
    int rc = 0;
    for (size_t k = 0; k < nc; k++) {
        struct sight_out *o = &outs[k];
        if (o->sights.n != o->ntargets) {
            no_records(w);
            return -2;
        }
        if (o->fail)
            rc = -1;
        o->at.intervals = ni;
        o->at.spans = nsp;
        o->at.trees = ntr;
        ns += o->sights.n;
        ni += o->intervals.n;
        nsp += o->nspans;
        ntr += o->ntrees;
    }
    if (WORLD_RESERVE(w->now.sight_intervals, ni)
        || grow_reserve(&ws->spans, &ws->capspans, nsp, sizeof *ws->spans)
        || grow_reserve(&ws->trees, &ws->captrees, ntr, sizeof *ws->trees)) {
        no_records(w);
        return -2;
    }
    w->now.sights.n = ns;
    w->now.sight_intervals.n = ni;
    ws->nspans = nsp;
    ws->ntrees = ntr;
    *join = ni || nsp || ntr;
    return rc;
}

/* A chunk's details copied to their place; its records' firsts moved by
 * where they start (never in a world without trees). */
static void join_details(struct world *w, const struct sight_out *o)
{
    if (o->at.intervals || o->at.spans || o->at.trees) {
        struct sight_record *r = w->now.sights.p + o->at.sights;
        for (size_t k = 0; k < o->sights.n; k++) {
            r[k].first_interval += (int)o->at.intervals;
            r[k].first_span += (int)o->at.spans;
            r[k].first_tree += (int)o->at.trees;
        }
    }
    /* (an empty list may have no array: not even NULL + 0) */
    if (o->intervals.n)
        memcpy(w->now.sight_intervals.p + o->at.intervals, o->intervals.p,
               o->intervals.n * sizeof *o->intervals.p);
    if (o->nspans)
        memcpy(w->now.sight_store.spans + o->at.spans, o->spans, o->nspans * sizeof *o->spans);
    if (o->ntrees)
        memcpy(w->now.sight_store.trees + o->at.trees, o->trees, o->ntrees * sizeof *o->trees);
}

static int sense_blocks(struct world *w, int threads)
{
    size_t n = w->vehicles.n, nc = par_chunks(n, threads);
    struct par_state *p = par_state_for(w->scratch.ctx, threads, nc);
    if (!p) {
        no_records(w);
        return -1;
    }
    struct sight_out *outs = p->outs;
    struct sight_store *stores = p->stores;
    int placed = 0, rc = 0, join = 0;
    /* One team of threads; each thread the same chunks in both passes
     * (par.h: what it gathered and writes stays in its cache), the
     * placing between and after on one thread, then the details'
     * copies, each independent once it knows where it goes. */
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
#endif
    {
#ifdef _OPENMP
        struct sight_store *st = &stores[omp_get_thread_num()];
#pragma omp for schedule(static)
#else
        struct sight_store *st = &stores[0];
#endif
        for (size_t k = 0; k < nc; k++)
            gather_range(w, &outs[k], st, par_chunk_lo(n, nc, k), par_chunk_lo(n, nc, k + 1));
#ifdef _OPENMP
#pragma omp single
#endif
        placed = place_records(w, outs, nc) == 0;
        if (placed) {
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
            for (size_t k = 0; k < nc; k++)
                look_block(w, &outs[k], st, par_chunk_lo(n, nc, k),
                           par_chunk_lo(n, nc, k + 1));
#ifdef _OPENMP
#pragma omp single
#endif
            rc = place_details(w, outs, nc, &join);
            if (join) {
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
                for (size_t k = 0; k < nc; k++)
                    join_details(w, &outs[k]);
            }
        }
    }
    if (!placed) {
        no_records(w);
        return -1;
    }
    return rc < 0 ? -1 : 0;
}

/* One block, the whole crowd, on the calling thread: the world's arrays
 * are its lists, swapped in and back out (no copy). */
static int sense_one(struct world *w)
{
    struct sight_store *st = &w->now.sight_store;
    struct sight_out out;
    memset(&out, 0, sizeof out);
    par_swap_array(&out.sights, &w->now.sights);
    par_swap_array(&out.intervals, &w->now.sight_intervals);
    out.spans = st->spans;
    out.capspans = st->capspans;
    out.trees = st->trees;
    out.captrees = st->captrees;
    sense_range(w, &out, st, 0, w->vehicles.n, 0);
    par_swap_array(&out.sights, &w->now.sights);
    par_swap_array(&out.intervals, &w->now.sight_intervals);
    st->spans = out.spans;
    st->nspans = out.nspans;
    st->capspans = out.capspans;
    st->trees = out.trees;
    st->ntrees = out.ntrees;
    st->captrees = out.captrees;
    return out.fail ? -1 : 0;
}

/* Sight needs two teams with someone alive: a lone team (a crowd of
 * wanderers, a race) has no enemy to see, and the phase costs nothing. */
static int two_teams_alive(const struct world *w)
{
    int n = 0;
    for (size_t t = 0; t < w->teams.n && n < 2; t++)
        n += w->teams.p[t].alive > 0;
    return n >= 2;
}

int sight_update(struct world *w)
{
    struct sight_store *st = &w->now.sight_store;
    /* Every record list empty.  While there are no records every
     * vehicle's first and count are already 0 (snapshot restores keep
     * that too), so without two teams the vehicles are only visited
     * after a tick that had some. */
    int sense = two_teams_alive(w);
    if (!sense && w->now.sights.n > 0)
        no_records(w);
    w->now.sights.n = 0;
    w->now.sight_intervals.n = 0;
    st->nspans = 0;
    st->ntrees = 0;
    if (!sense)
        return 0;
    int threads = par_threads(w);
    if (threads > 1 && w->scratch.ctx)          /* the threads' buffers live there */
        return sense_blocks(w, threads);
    return sense_one(w);
}
