/* decide_par.c — the decide stage on threads (par.h).  A decision writes
 * its own struct decision and record; what it appends to the tick
 * context (aim records, solver probes) goes to its chunk's lane, a tick
 * context of its own that shares the per-vehicle slots, and the lanes'
 * lists are joined in chunk (= vehicle) order, their indices moved to
 * where they land: the store the one-thread loop leaves, byte for byte. */
#include <string.h>

#include "decide.h"
#include "explain.h"
#include "grow.h"
#include "par.h"
#include "stages.h"
#include "world.h"

int decide_par_ok(const struct world *w)
{
    /* The bots each have their own Lua state, allocator and hook, but
     * src/bot/ gives them one sight scratch, one list of drawn lines and
     * one error count; the racing lines are a cache filled on first use;
     * the tests' all-pairs avoidance keeps its maxima in the context:
     * those decide on the calling thread. */
    return !w->brain && w->racers.n == 0 && !w->avoid_brute;
}

/* Lane k as a tick context: the shared slots (decisions, records), its
 * own lists emptied. */
static void lane_start(struct tick_ctx *l, const struct tick_ctx *c)
{
    l->d = c->d;
    l->dcap = c->dcap;
    l->race = c->race;
    l->racecap = c->racecap;
    l->why = c->why;
    l->whycap = c->whycap;
    l->plans = NULL;
    l->naims = l->nsteps = 0;
    l->failed = 0;
    l->brute_max_ok = 0;
    l->kept = 0;
}

int decide_stage_par(const struct world *w, struct tick_ctx *c, int threads)
{
    size_t n = w->vehicles.n, nc = par_chunks(n, threads);
    struct par_state *p = par_state_for(c, threads, nc);
    /* the decision records grown before the threads start: a record's
     * store must not move under another thread (explain.c) */
    if (!p || (w->explain && n > c->whycap
               && grow_reserve(&c->why, &c->whycap, n, sizeof *c->why))) {
        /* no room for the threads' buffers: the one-thread loop */
        for (size_t i = 0; i < n; i++)
            decide_one(w, i, c);
        return 0;
    }
    struct tick_ctx *lanes = p->lanes;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
#endif
    for (size_t k = 0; k < nc; k++) {
        struct tick_ctx *l = &lanes[k];
        lane_start(l, c);
        for (size_t i = par_chunk_lo(n, nc, k), hi = par_chunk_lo(n, nc, k + 1); i < hi; i++)
            decide_one(w, i, l);
    }
    /* The lanes' aim records and probes after the context's, in order. */
    for (size_t k = 0; k < nc; k++) {
        struct tick_ctx *l = &lanes[k];
        size_t a0 = c->naims, s0 = c->nsteps;
        if (l->failed)
            c->failed = 1;
        if (grow_reserve(&c->aims, &c->aimcap, a0 + l->naims, sizeof *c->aims)
            || grow_reserve(&c->steps, &c->stepcap, s0 + l->nsteps, sizeof *c->steps)) {
            /* this chunk's records and the later ones' lost: their
             * vehicles point at none */
            for (size_t i = par_chunk_lo(n, nc, k); i < n; i++)
                c->d[i].aim_slot = -1;
            return -1;
        }
        for (size_t j = 0; j < l->naims; j++) {
            struct aim_info *ai = &c->aims[a0 + j];
            *ai = l->aims[j];
            if (ai->nsteps > 0)
                ai->first_step += (int)s0;
        }
        if (l->nsteps)
            memcpy(c->steps + s0, l->steps, l->nsteps * sizeof *c->steps);
        c->naims += l->naims;
        c->nsteps += l->nsteps;
        if (a0 == 0)
            continue;
        for (size_t i = par_chunk_lo(n, nc, k), hi = par_chunk_lo(n, nc, k + 1); i < hi; i++)
            if (c->d[i].aim_slot >= 0)
                c->d[i].aim_slot += (int)a0;
    }
    return 0;
}
