/* history.h — stepping back through the run.
 *
 * Full snapshots of the world's state every HISTORY_EVERY ticks, in a ring
 * bounded in count and in bytes (so memory stays bounded whatever the map
 * size).  Going back to tick t restores the newest snapshot before t and
 * steps forward again: the core is deterministic, so the result is exactly
 * the earlier state, this tick's decision records included.  The tick-0
 * snapshot is kept apart for a restart. */
#ifndef BOTFIELD_HISTORY_H
#define BOTFIELD_HISTORY_H

#include <stddef.h>

#include "../core/world.h"

#define HISTORY_EVERY 60            /* ticks between snapshots */
#define HISTORY_MAX 100             /* snapshots kept at most */
#define HISTORY_BYTES (64u << 20)   /* and at most this much memory */

struct history {
    struct world_snapshot start;    /* tick 0 */
    struct world_snapshot ring[HISTORY_MAX];
    int n, cap;                     /* ring[0] is the oldest */
    int dropped;                    /* the ring has forgotten ticks */
};

/* Saves tick 0 of a freshly loaded (or restarted) world; 0 or -1. */
int history_init(struct history *h, const struct world *w);
void history_free(struct history *h);

/* After each forward step: keeps a snapshot when the tick is due.
 * 0, or -1 when memory ran out (stepping back then reaches less far). */
int history_note(struct history *h, const struct world *w);

/* The oldest tick that can be reached. */
long history_oldest(const struct history *h);

/* Brings w back to tick `target` (<= w->tick).  on_step is called after
 * each replayed step (the viewer's own per-tick bookkeeping) with the tick
 * the replay starts from first passed to on_restore.  Returns 0, 1 when
 * the tick is no longer kept, -1 when memory ran out. */
struct history_hooks {
    void (*on_restore)(void *ctx, long tick);
    void (*on_step)(void *ctx);
    void *ctx;
};
int history_back(struct history *h, struct world *w, long target,
                 const struct history_hooks *hooks);

/* Back to tick 0, forgetting the rest; 0 or -1. */
int history_restart(struct history *h, struct world *w,
                    const struct history_hooks *hooks);

#endif
