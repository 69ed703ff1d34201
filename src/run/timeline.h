/* timeline.h — the inputs a run is given on their ticks, one log for all
 * of them: the player's held input and the tuned values (a replay's
 * recorded ones as the live ones).  Stepping back, seeking and replaying
 * read it; a recording writes each change as it is made.
 *
 * One rule for every kind: a change at tick t drops every entry after t
 * (a change in the past starts another future), and a player's input at
 * t replaces the one already at t (one input a tick; tunings of one tick
 * all stay, in order). */
#ifndef BOTFIELD_TIMELINE_H
#define BOTFIELD_TIMELINE_H

#include <stddef.h>

#include "core/player.h"

enum timeline_kind { TIMELINE_INPUT, TIMELINE_TUNE };

struct timeline_entry {
    long tick;                      /* in effect from this tick's step on */
    enum timeline_kind kind;
    struct player_input in;         /* TIMELINE_INPUT */
    char *section, *key, *value;    /* TIMELINE_TUNE */
};

struct timeline {
    struct timeline_entry *p;       /* by tick */
    size_t n, cap;
};

/* The player's input from tick on.  0, or -1 out of memory (the
 * timeline then holds no entry after tick). */
int timeline_input(struct timeline *t, long tick, const struct player_input *in);
/* section.key = value from tick on.  0, or -1 out of memory (as above). */
int timeline_tune(struct timeline *t, long tick, const char *section, const char *key,
                  const char *value);

/* The entries of the ticks up to `tick`: [0, timeline_upto(t, tick)). */
size_t timeline_upto(const struct timeline *t, long tick);
/* The input given at exactly `tick`, or NULL. */
const struct player_input *timeline_input_at(const struct timeline *t, long tick);

/* Every entry dropped (a new world); the memory kept. */
void timeline_clear(struct timeline *t);
void timeline_free(struct timeline *t);

#endif
