/* sight_out.h — where the sense stage writes one run of observers'
 * records: their sight records, hidden intervals, walked cells, candidate
 * trees and sight events.  One thread (par.h off) swaps the world's own
 * arrays in and out, so nothing is copied; with threads each chunk of
 * observers fills its own, and sight_par.c joins them in vehicle order. */
#ifndef BOTFIELD_SIGHT_OUT_H
#define BOTFIELD_SIGHT_OUT_H

#include "world.h"

struct sight_out {
    WORLD_ARRAY(struct sight_record) sights;
    WORLD_ARRAY(struct sight_interval) intervals;
    WORLD_ARRAY(struct event) events;
    struct sight_span *spans; size_t nspans, capspans;
    int *trees; size_t ntrees, captrees;
    int fail;                   /* memory ran out in this run */
    /* where its lists start in the world's once joined (sight_par.c) */
    struct sight_out_at { size_t sights, intervals, events, spans, trees; } at;
    int done;                   /* observed (sight_par.c) */
    int joined;                 /* copied to the world's lists */
    int buf;                    /* the sight_out whose lists hold its
                                   records (sight_par.c's buffer pool) */
    /* Chunks side by side go to different threads: a cache line of room
     * keeps one chunk's counters off the line the next one writes. */
    char pad_[64];
};

/* Vehicle i's observations into out, its targets gathered in st (its
 * scratch and target list; one store per thread).  Sets the vehicle's
 * sight_first (an index into out->sights) and sight_count.  0, or -1 when
 * memory ran out. */
int sight_observe(struct world *w, struct sight_out *out,
                  struct sight_store *st, size_t i);

/* The sense stage with threads (sight_par.c): 0, or -1 when memory ran
 * out; the records as the one-thread loop leaves them. */
int sight_update_par(struct world *w, int threads);

void sight_out_free(struct sight_out *o);

#endif
