/* replay_check.h — does a recomputed tick equal the one first computed?
 *
 * Stepping back replays ticks from a snapshot; the core is deterministic,
 * and so is a bot that keeps its state in mem (the snapshots keep mem).  A
 * bot that keeps state elsewhere (a global, an upvalue) is rebuilt from
 * its script on a restore and so replays differently.  This keeps a
 * 64-bit hash of every computed tick (the core's state_hash() and the
 * bots' log lines and errors) for the last REPLAY_CHECK_TICKS ticks, and
 * compares when a tick is computed again. */
#ifndef BOTFIELD_REPLAY_CHECK_H
#define BOTFIELD_REPLAY_CHECK_H

#include <stdint.h>

struct world;
struct bot_world;

#define REPLAY_CHECK_TICKS 4096

struct replay_check {
    uint64_t h[REPLAY_CHECK_TICKS]; /* tick t at t % REPLAY_CHECK_TICKS */
    long first, newest;             /* the ticks held: first..newest */
};

/* Forgets every tick (a new map, a changed script: the past is another). */
void replay_check_reset(struct replay_check *c);

/* The hash of the world's state after a step. */
uint64_t replay_check_hash(const struct world *w, const struct bot_world *bw);

/* After computing tick w->tick: 1 when it was computed before and came out
 * different, else 0 (and it is remembered). */
int replay_check_note(struct replay_check *c, const struct world *w,
                      const struct bot_world *bw);

#endif
