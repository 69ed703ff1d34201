/* replay_run.h — a recording recomputed (--replay): the world and bots
 * built from the embedded map and scripts, the timed lines applied on
 * their ticks, every checkpoint compared with the recomputed state.
 *
 * Everything the world decides is checked before the first tick (each
 * map of the recording loads, each bot has its script, each script's
 * text matches its SHA-256, each input names a vehicle), so a bad
 * recording stops with exit 2 and nothing written. */
#ifndef BOTFIELD_REPLAY_RUN_H
#define BOTFIELD_REPLAY_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "io/map.h"
#include "io/replay_read.h"

struct world;
struct bot_world;

struct replay_run {
    struct bot_world *bots;     /* the bots of the world it runs (the
                                   session keeps them up to date) */
    const char *file;
    struct replay rp;
    size_t next;                /* the next line to apply or check */
    /* the scripts known so far, the newest text per path */
    const char **spath, **stext, **ssha;    /* (ssha: its line's sha256) */
    size_t ns;
    long diverged;              /* the first differing tick, -1: none */
    long scripts_applied;       /* bot_source lines applied so far */
    long tunes_applied;         /* tune lines applied so far */
    long diverged_line;
    struct map_set *sets;       /* the header's --set, applied to every map
                                   the recording loads (its reloads too) */
    const char *map_text;       /* the map running now (its tune lines
                                   read it: a team's tanks that set a key
                                   themselves keep theirs) */
    /* the intent lines, in file order, and each one's line index: a
     * vehicle whose bot has no script is driven by those of its map */
    struct bot_intent_at *intents;
    size_t *iline;
    size_t nintents;
    int stream;                 /* followed as it grows: more intents may come */
};

/* Reads and checks `file`, builds its first world into *w and its bots
 * (run->bots).  0; 2 with the message on stderr. */
int replay_run_open(struct replay_run *run, const char *file, struct world *w);
void replay_run_free(struct replay_run *run, struct world *w);

/* Before a step from w->tick: applies the lines of that tick (scripts,
 * inputs, tunings) up to a map reload (replay_run_reload's).  0 go on, 2
 * the state differs from a checkpoint of the tick (run->diverged; not
 * said), -1 fail (said on stderr). */
int replay_run_before(struct replay_run *run, struct world *w);
/* The next line, a map reload, built into *nw and *nb (the session
 * swaps them in).  0, or -1 said on stderr. */
int replay_run_reload(struct replay_run *run, struct world *nw, struct bot_world **nb);
/* After a step: checks the checkpoints of the tick.  0, or 1 when the
 * state differs (run->diverged; not said). */
int replay_run_check(struct replay_run *run, struct world *w);
/* "replay diverges at tick T (...)" into buf. */
void replay_run_divergence(const struct replay_run *run, char *buf, size_t n);
/* The tick the recording ends on, in the world now running. */
long replay_run_last_tick(const struct replay_run *run);


/* A recording read as it grows (--follow): rp (its header and the lines
 * so far, taken over) checked and its first world built, as
 * replay_run_open() does with a file.  0; 2 said on stderr. */
int replay_run_open_read(struct replay_run *run, const char *file, struct replay *rp,
                         struct world *w);
/* The lines appended from index `from` on, checked against the world
 * running (w): inputs, tunings and scripts.  0; 2 said on stderr. */
int replay_run_check_new(struct replay_run *run, size_t from, const struct world *w);

#endif
