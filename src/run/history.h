/* history.h — going back (and forward again) through the run.
 *
 * Full snapshots of the world's state in two sets, bounded together in
 * bytes whatever the map size:
 *
 * - a coarse set spread over the whole run, tick 0 to the furthest tick
 *   computed, by what the ticks cost to compute: a snapshot every
 *   HISTORY_BASE ticks or HISTORY_STEP_COST seconds of computing,
 *   whichever comes first, on a tick that is a multiple of HISTORY_FINE
 *   (on any tick after HISTORY_DEAR_COST seconds of computing);
 *   when the set is full, the two neighbouring stretches that were
 *   cheapest to compute together become one (the snapshot between them
 *   goes).  With room for C snapshots and T seconds of computing so far,
 *   no stretch longer than HISTORY_BASE ticks costs more than about
 *   2T/(C-2) to recompute, and tick 0 is always kept.  The cost is the thread's CPU time between first computations
 *   of consecutive ticks: a map whose first minute is dense and the rest
 *   calm keeps more snapshots in its first minute.
 * - a few recent ones, every HISTORY_FINE ticks of what was last computed
 *   or recomputed, so that stepping back tick by tick (`,`) near where one
 *   is recomputes little.
 *
 * Going to tick t restores the newest snapshot before t and steps forward
 * again: the core is deterministic, so the result is exactly that state,
 * the tick's decision records included.  Snapshots after the tick shown
 * are kept (the run would compute them again identically), so going
 * forward again costs no more than going back.
 *
 * The history also knows the furthest tick computed (`end`) and the ticks
 * with events that matter (event_index.h), recorded when first computed.
 *
 * With Lua bots, each snapshot also keeps every bot's mem (plain data):
 * a restore rebuilds the bots' Lua states from their scripts and loads
 * mem back (bot_world_restore), since a Lua state itself cannot be
 * copied.  A mem that was not plain data when a snapshot was due leaves
 * that snapshot without bots: it is never used to step back (a replay
 * from it would be wrong), and history_goto() says so. */
#ifndef BOTFIELD_HISTORY_H
#define BOTFIELD_HISTORY_H

#include <stddef.h>

#include "../core/world.h"
#include "../bot/bot_world.h"
#include "event_index.h"

#define HISTORY_BASE 60             /* the coarse set's spacing at most, */
#define HISTORY_STEP_COST 0.02      /* or this many seconds of computing */
#define HISTORY_DEAR_COST 0.1       /* or this many, off the 20-tick grid */
#define HISTORY_MAX 256             /* coarse snapshots at most */
#define HISTORY_FINE 20             /* spacing of the recent ones */
#define HISTORY_RECENT 16           /* recent snapshots at most */
#define HISTORY_BYTES (64u << 20)   /* all of them: at most this much memory
                                       (and never fewer than 3 snapshots) */

struct history_snap {
    struct world_snapshot w;
    struct bot_world_mem m;         /* every bot's mem at w.tick */
    int bots_ok;                    /* m holds them (always, without bots) */
    size_t bytes;
    double cost;                    /* seconds to compute it from the
                                       coarse snapshot before it */
};

struct history {
    struct history_snap *coarse;    /* sorted by tick; coarse[0]: tick 0 */
    int n, cap;
    double cost;                    /* computing since the last coarse one */
    double cpu_mark;                /* CPU time at the last first computation */
    struct history_snap recent[HISTORY_RECENT];
    int nrecent, cap_recent, next_recent;   /* a ring: next one replaced */
    size_t bytes;                   /* of every snapshot kept */
    size_t max_bytes;               /* HISTORY_BYTES (a test sets less) */
    long end;                       /* the furthest tick computed */
    struct event_index events;      /* ticks 1..end with events that matter */
    struct bot_world *bots;         /* the world's bots, NULL: none */
};

/* Saves tick 0 of a freshly loaded (or restarted) world and its bots
 * (NULL: none); 0 or -1.  max_bytes 0: HISTORY_BYTES. */
int history_init(struct history *h, const struct world *w, struct bot_world *bots);
int history_init_bytes(struct history *h, const struct world *w,
                       struct bot_world *bots, size_t max_bytes);
void history_free(struct history *h);

/* After each forward step: keeps a snapshot when the tick is due, and on a
 * tick never computed before moves `end` and records its events.
 * 0; -1 when memory ran out (going back then recomputes more); -2 when
 * a bot's mem was not plain data (err says why): the snapshot is kept
 * without the bots and going back stops short of it. */
int history_note(struct history *h, const struct world *w, char *err, size_t n);

/* The oldest tick that can be reached: always 0 (kept for callers). */
long history_oldest(const struct history *h);

/* The tick of the snapshot a go to `target` would start from (-1: none). */
long history_base(const struct history *h, long target);

/* Brings w to tick `target` (0..end): from the newest snapshot before it,
 * or by stepping on from the present when that is nearer.  on_step is
 * called after each computed step (the viewer's own per-tick
 * bookkeeping), on_restore first when a snapshot is restored, with its
 * tick.  Returns 0, 1 when the target is out of 0..end, 2 when the
 * snapshot it needs has no bots (*blocked: its tick), -1 when memory ran
 * out or the bots could not be rebuilt. */
struct history_hooks {
    void (*on_restore)(void *ctx, long tick);
    void (*on_step)(void *ctx);
    void *ctx;
    /* Computes one tick of w: the front end's session_step (session.h);
     * NULL: the core's tick_step alone.  0, or nonzero when it failed. */
    int (*step)(void *ctx);
};
int history_goto(struct history *h, struct world *w, long target,
                 const struct history_hooks *hooks, long *blocked);
/* The same for target <= w->tick. */
int history_back(struct history *h, struct world *w, long target,
                 const struct history_hooks *hooks, long *blocked);

/* Forgets everything after tick t (a bot script changed: the future is
 * another): snapshots, events, and `end` becomes t. */
void history_cut(struct history *h, long t);

/* Back to tick 0, forgetting the rest; 0 or -1. */
int history_restart(struct history *h, struct world *w,
                    const struct history_hooks *hooks);

#endif
