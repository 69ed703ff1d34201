/* par.c — the thread count, the chunks, and the buffers the threaded
 * stages keep in the tick context (par.h). */
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "par.h"
#include "decide.h"
#include "grow.h"
#include "sight/sight_out.h"
#include "world.h"

int par_threads(const struct world *w)
{
#ifdef _OPENMP
    if (w->threads <= 1)
        return 1;
    /* A few hundred tanks are a fraction of a millisecond a tick: waking
     * the threads would cost more than they save (a battle's last
     * thousands of ticks). */
    int live = 0;
    for (size_t t = 0; t < w->teams.n; t++)
        live += w->teams.p[t].alive;
    int min = w->threads_min < 0 ? 0 : w->threads_min > 0 ? w->threads_min : PAR_MIN_LIVE;
    /* Clamped here too (the command line takes 1 to PAR_MAX_THREADS, but
     * a program may set w->threads itself): the stages keep arrays of
     * PAR_MAX_THREADS a thread. */
    int n = w->threads > PAR_MAX_THREADS ? PAR_MAX_THREADS : w->threads;
    return live >= min ? n : 1;
#else
    (void)w;
    return 1;
#endif
}

int par_default_threads(void)
{
#ifdef _OPENMP
    int n = omp_get_num_procs();
    if (n > PAR_MAX_THREADS)
        n = PAR_MAX_THREADS;
    return n > 1 ? n : 1;
#else
    return 1;
#endif
}

void par_swap_array(void *a, void *b)
{
    struct array { void *p; size_t n, cap; } *x = a, *y = b, t = *x;
    *x = *y;
    *y = t;
}

/* Sixteen chunks a thread: small enough for a sense chunk's targets and
 * details to stay in the cache between its passes (sight_stage.c), few
 * enough that placing them costs nothing.  (A world small enough for chunks of a
 * few vehicles runs on one thread anyway, unless the tests ask:
 * PAR_MIN_LIVE.)  A build may try others (-DPAR_CHUNKS_PER_THREAD=32):
 * on the idle 2-core machine, the 10,000-tank battle's first 60 ticks on
 * two threads ran at 97.4-100.5 ticks/s with 8, 100.5-101.9 with 16 and
 * 99.9-102.7 with 32 (four alternating runs each). */
#ifndef PAR_CHUNKS_PER_THREAD
#define PAR_CHUNKS_PER_THREAD 16
#endif
size_t par_chunks(size_t n, int threads)
{
    size_t k = (size_t)threads * PAR_CHUNKS_PER_THREAD;
    if (k > n)
        k = n;
    return k > 0 ? k : 1;
}

static void lane_free(struct tick_ctx *l)
{
    free(l->lane.aims);
    free(l->lane.steps);
    free(l->lane.avoid_buf);
}

void par_state_free(struct par_state *p)
{
    if (!p)
        return;
    for (size_t k = 0; k < p->nstores; k++)
        sight_store_free(&p->stores[k]);
    for (size_t k = 0; k < p->nouts; k++)
        sight_out_free(&p->outs[k]);
    for (size_t k = 0; k < p->nlanes; k++)
        lane_free(&p->lanes[k]);
    for (size_t k = 0; k < p->nchunks; k++)
        free(p->chunks[k].fired);
    free(p->stores);
    free(p->outs);
    free(p->lanes);
    free(p->chunks);
    free(p->cells);
    free(p->order);
    free(p->bodies);
    free(p);
}

/* Grows an array of structs to n, the new ones zeroed. */
static int grow_zeroed(void *pp, size_t *have, size_t n, size_t elem)
{
    if (n <= *have)
        return 0;
    void **p = pp;
    void *q = realloc(*p, n * elem);
    if (!q)
        return -1;
    memset((char *)q + *have * elem, 0, (n - *have) * elem);
    *p = q;
    *have = n;
    return 0;
}

struct par_state *par_state_for(struct tick_ctx *c, int threads, size_t nchunks)
{
    if (!c->par && !(c->par = calloc(1, sizeof *c->par)))
        return NULL;
    struct par_state *p = c->par;
    if (grow_zeroed(&p->stores, &p->nstores, (size_t)threads, sizeof *p->stores)
        || grow_zeroed(&p->outs, &p->nouts, nchunks, sizeof *p->outs)
        || grow_zeroed(&p->lanes, &p->nlanes, nchunks, sizeof *p->lanes)
        || grow_zeroed(&p->chunks, &p->nchunks, nchunks, sizeof *p->chunks))
        return NULL;
    return p;
}
