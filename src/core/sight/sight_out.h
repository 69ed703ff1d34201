/* sight_out.h — where the sense stage (sight_stage.c) writes one block
 * of observers' records: their sight records, hidden intervals, walked
 * cells and candidate trees.  The one block of one thread swaps the
 * world's own arrays in and out, so nothing is copied.  Blocks on
 * threads first gather their targets, which is how many records each
 * will write; their records then go straight to their places in the
 * world's list, and only the details (intervals, cells, trees), whose
 * counts come with the queries, are written to the block's own lists and
 * joined in vehicle order. */
#ifndef BOTFIELD_SIGHT_OUT_H
#define BOTFIELD_SIGHT_OUT_H

#include "world.h"

struct sight_out {
    WORLD_ARRAY(struct sight_record) sights;
    WORLD_ARRAY(struct sight_interval) intervals;
    struct sight_span *spans; size_t nspans, capspans;
    int *trees; size_t ntrees, captrees;
    /* A chunk's targets, observer after observer, and how many each
     * observer has (blocks on threads) */
    int *targets; size_t ntargets, captargets;
    int *per; size_t capper;
    int fail;                   /* memory ran out in this run */
    /* where its lists start in the world's */
    struct sight_out_at { size_t sights, intervals, spans, trees; } at;
    /* Chunks side by side go to different threads: a cache line of room
     * keeps one chunk's counters off the line the next one writes. */
    char pad_[64];
};

/* Vehicle i's targets, sorted, in st->targets[0 .. st->ntargets) (none
 * when it is no observer): one record each once looked at.  0, or -1
 * when memory ran out (the list then stops short). */
int sight_collect(const struct world *w, struct sight_store *st, size_t i);

/* Vehicle i looks at targets[0 .. n): a record, its details and an event
 * each, into out; sets its sight_first and sight_count.  0, or -1 when
 * memory ran out (a record that could not be kept is left out). */
int sight_look_at(struct world *w, struct sight_out *out, struct sight_scratch *s,
                  size_t i, const int *targets, size_t n);

void sight_out_free(struct sight_out *o);

#endif
