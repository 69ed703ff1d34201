/* event_index.h — the ticks where something that matters happened.
 *
 * `n` and `N` jump to the next and previous of them and the timeline marks
 * them: a shot, a hit, a knockout, a collision, a lap, a bot error.  A tick
 * is recorded once, when it is first computed (ticks are computed in
 * order, so the index stays sorted); a replay of it changes nothing.  One
 * entry per tick with such events, at most EVENT_INDEX_MAX of them (16
 * bytes each): a longer run stops recording and says so. */
#ifndef BOTFIELD_EVENT_INDEX_H
#define BOTFIELD_EVENT_INDEX_H

#include <stddef.h>

struct world;
struct bot_world;

#define EVENT_INDEX_MAX (1L << 20)

enum {
    EVX_SHOT = 1, EVX_HIT = 2, EVX_KNOCKOUT = 4, EVX_COLLISION = 8,
    EVX_LAP = 16, EVX_BOT_ERROR = 32
};

struct event_tick {
    long tick;
    unsigned kinds;             /* EVX_* bits */
};

struct event_index {
    struct event_tick *p;
    size_t n, cap;
    int full;                   /* stopped recording: EVENT_INDEX_MAX or
                                   out of memory */
};

/* The EVX_* bits of the world's events this tick (and of its bots' errors;
 * bw NULL: none). */
unsigned event_index_kinds(const struct world *w, const struct bot_world *bw);

/* Records w->tick when it has such events; the tick must be newer than
 * every one recorded.  0, or -1 when the index stopped recording. */
int event_index_note(struct event_index *x, const struct world *w,
                     const struct bot_world *bw);

/* Forgets the ticks after `tick` (a changed script: the future is
 * another). */
void event_index_cut(struct event_index *x, long tick);

/* The first recorded tick > t (dir > 0) or the last < t (dir < 0); -1:
 * none. */
long event_index_next(const struct event_index *x, long t, int dir);

void event_index_free(struct event_index *x);

#endif
