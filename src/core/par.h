/* par.h — the stages' blocks on threads, the same bytes for any number
 * of them.
 *
 * OpenMP (GCC's libgomp; configure's AC_OPENMP) runs the loops; the
 * determinism is ours: the vehicles are cut into contiguous chunks, each
 * chunk writes only its own slots (its vehicles' decisions, and its own
 * lists of sight records, events and aim records), and the chunks' lists
 * are then joined in chunk order, which is vehicle order.  No thread
 * reads what another writes during a stage, and no sum of floating-point
 * numbers depends on the thread count, so --threads 1 and --threads 8
 * write the same trace.  A build without OpenMP runs everything on the
 * calling thread. */
#ifndef BOTFIELD_PAR_H
#define BOTFIELD_PAR_H

#include <stddef.h>

#include "vec.h"
#include "aim/aim.h"

struct world;
struct tick_ctx;
struct sight_out;
struct sight_store;

/* The threads a stage of w may use: w->threads, at least 1; 1 without
 * OpenMP, or with fewer than PAR_MIN_LIVE live tanks and turrets in
 * teams.  The count never changes a result, only how soon it comes. */
#define PAR_MIN_LIVE 512
int par_threads(const struct world *w);

/* The cores this process may run on (--threads' default); 1 without
 * OpenMP. */
int par_default_threads(void);

/* The highest --threads accepted. */
#define PAR_MAX_THREADS 256

/* Swaps two WORLD_ARRAYs of the same element type (pointer, n, cap). */
void par_swap_array(void *a, void *b);

/* Chunks of vehicles: n vehicles in *nchunks runs of about equal length;
 * chunk k is [par_chunk_lo(n, nc, k), par_chunk_lo(n, nc, k + 1)).  The
 * stages deal them out statically (schedule(static): thread t always
 * takes the same contiguous run of chunks, the vehicles grid_stage.c gives
 * it too), so what a thread writes in one stage (the sight records, the
 * decisions, the vehicles it moves) is what it reads in the next, still
 * in its own core's cache: on the 2-core machine the battle's ticks 2 to
 * 60 on two threads took 8.7-9.0 ms with static chunks against 9.3-9.6
 * with chunks handed out as threads came free (dynamic: a chunk's
 * records were read by the other core half the time); interleaved
 * chunks (static, 1) gained nothing. */
size_t par_chunks(size_t n, int threads);
static inline size_t par_chunk_lo(size_t n, size_t nchunks, size_t k)
{
    return n * k / nchunks;
}

/* A shell fired by the act pass, and the heading of its shot event (the
 * gun's aim direction, which its velocity rounds). */
struct par_fired {
    struct shell shell;
    double heading;
};

/* A block of the decide and act stages (act.c): what it counts (its
 * lane's aim records and events), where its lists land in the world's,
 * what its act pass adds up.  A cache line of room apart, as they are side by
 * side and written by different threads. */
struct par_chunk {
    size_t aims, steps, events;     /* where its lane's lists land */
    size_t naims;                   /* its lane's aim records */
    size_t nevents;                 /* its aim events */
    int swapped;                    /* its lists became the world's (one
                                       block): nothing to copy */
    long edge_hits;
    /* the shells the block's vehicles fire, in vehicle order, made as
     * each acts (shell_fire: its records in this core's cache), which
     * the shells stage joins to the world's list block after block, so
     * in vehicle order; fired_fail: the list could not grow (a shell
     * lost: the tick's error) */
    struct par_fired *fired; size_t nfired, capfired;
    int fired_fail;
    char pad_[64];
};

/* The tick context's per-thread and per-chunk buffers (par.c), made on
 * first use and kept from tick to tick; NULL when memory ran out. */
struct par_state {
    struct sight_store *stores; size_t nstores;     /* one per thread */
    struct sight_out *outs; size_t nouts;           /* one per chunk */
    struct tick_ctx *lanes; size_t nlanes;          /* one per chunk */
    struct par_chunk *chunks; size_t nchunks;       /* one per chunk */
    int *cells; size_t capcells;    /* one per vehicle (grid_stage.c) */
    int *order; size_t caporder;    /* one per vehicle (grid_stage.c) */
    /* chunks[0 .. fired_nc) list this tick's shells fired: set by the
     * decide and act stage (one block or many), used and cleared by the
     * shells stage */
    size_t fired_nc;
    /* the shells' flight: what it reads of each vehicle (shell.c) */
    struct shell_body *bodies; size_t capbodies;
};

/* What a shell's flight reads of a vehicle, copied from its record by
 * the threads' bounds pass (shell.c): where it was as the tick began and
 * is now, and its radius; -1 when it is no target (a wreck, a car). */
struct shell_body {
    vec2 from, pos;
    double radius;
};
struct par_state *par_state_for(struct tick_ctx *c, int threads, size_t nchunks);
void par_state_free(struct par_state *p);

#endif
