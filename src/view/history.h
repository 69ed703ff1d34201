/* history.h — stepping back through the run.
 *
 * Full snapshots of the world's state every HISTORY_EVERY ticks, in a ring
 * bounded in count and in bytes (so memory stays bounded whatever the map
 * size).  Going back to tick t restores the newest snapshot before t and
 * steps forward again: the core is deterministic, so the result is exactly
 * the earlier state, this tick's decision records included.  The tick-0
 * snapshot is kept apart for a restart.
 *
 * With Lua bots, each snapshot also keeps every bot's mem (plain data):
 * a restore rebuilds the bots' Lua states from their scripts and loads
 * mem back (bot_world_restore), since a Lua state itself cannot be
 * copied.  A mem that was not plain data when a snapshot was due leaves
 * that snapshot without bots: it is never used to step back (a replay
 * from it would be wrong), and history_back() says so. */
#ifndef BOTFIELD_HISTORY_H
#define BOTFIELD_HISTORY_H

#include <stddef.h>

#include "../core/world.h"
#include "../bot/bot_world.h"

#define HISTORY_EVERY 60            /* ticks between snapshots */
#define HISTORY_MAX 100             /* snapshots kept at most */
#define HISTORY_BYTES (64u << 20)   /* and at most this much memory */

struct history_snap {
    struct world_snapshot w;
    struct bot_world_mem m;         /* every bot's mem at w.tick */
    int bots_ok;                    /* m holds them (always, without bots) */
};

struct history {
    struct history_snap start;      /* tick 0 */
    struct history_snap ring[HISTORY_MAX];
    int n, cap;                     /* ring[0] is the oldest */
    int dropped;                    /* the ring has forgotten ticks */
    struct bot_world *bots;         /* the world's bots, NULL: none */
};

/* Saves tick 0 of a freshly loaded (or restarted) world and its bots
 * (NULL: none); 0 or -1. */
int history_init(struct history *h, const struct world *w, struct bot_world *bots);
void history_free(struct history *h);

/* After each forward step: keeps a snapshot when the tick is due.
 * 0; -1 when memory ran out (stepping back then reaches less far); -2 when
 * a bot's mem was not plain data (err says why): the snapshot is kept
 * without the bots and stepping back stops short of it. */
int history_note(struct history *h, const struct world *w, char *err, size_t n);

/* The oldest tick that can be reached. */
long history_oldest(const struct history *h);

/* Brings w back to tick `target` (<= w->tick).  on_step is called after
 * each replayed step (the viewer's own per-tick bookkeeping) with the tick
 * the replay starts from first passed to on_restore.  Returns 0, 1 when
 * the tick is no longer kept, 2 when the snapshot it needs has no bots
 * (*blocked: its tick), -1 when memory ran out or the bots could not be
 * rebuilt. */
struct history_hooks {
    void (*on_restore)(void *ctx, long tick);
    void (*on_step)(void *ctx);
    void *ctx;
};
int history_back(struct history *h, struct world *w, long target,
                 const struct history_hooks *hooks, long *blocked);

/* Back to tick 0, forgetting the rest; 0 or -1. */
int history_restart(struct history *h, struct world *w,
                    const struct history_hooks *hooks);

#endif
