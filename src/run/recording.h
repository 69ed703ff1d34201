/* recording.h — a run written to a recording as it goes (--record):
 * the header with the map's text, every bot's script, a checkpoint hash of
 * the whole state every RECORD_CHECKPOINT_TICKS ticks, the reloads on the
 * ticks they happen, and an end line.  Each line is flushed as written.
 *
 * Ticks are recorded the first time they are computed: the viewer's
 * steps back and forward again over known ticks write nothing (see
 * botfield(6), RECORDINGS, for what a change after a step back does). */
#ifndef BOTFIELD_RECORDING_H
#define BOTFIELD_RECORDING_H

#include <stdint.h>
#include <stdio.h>

struct world;
struct bot_world;

struct recorded_script { char *path; char sha256[65]; };
struct recorded_intent;

struct recording {
    FILE *f;                    /* NULL: not recording (or stopped) */
    char *file;
    long frontier;              /* the furthest tick recorded */
    struct recorded_script *scripts;    /* the last text written per path */
    size_t nscripts;
    /* 1: after each new tick, an intent line for every script-driven
     * vehicle whose bot's intent changed (the first: all), and checkpoint
     * and end lines with "world" too (botfield(6), RECORDINGS).  Set by
     * the caller after recording_open() (the arena's matches); 0: the
     * recording as ever.  recording_open() sets it when a vehicle is a
     * process bot's. */
    int intents;
    struct recorded_intent *last;       /* per vehicle, the last written */
    size_t nlast;
};

/* The hash of checkpoints: the core's state and the bots' mem. */
uint64_t recording_hash(const struct world *w, struct bot_world *bw);

struct map_set;

/* Creates `file` and writes the header and the scripts of w's bots.
 * map_path NULL: the built-in map; map_text: the exact text of the file
 * w was loaded from, and set (nset of them) the --set settings the run
 * applied to it: a replay applies them again.  0, or -1 with the message
 * on stderr. */
int recording_open(struct recording *rec, const char *file, const struct world *w,
                   const struct bot_world *bw, const char *map_path, const char *map_text,
                   const struct map_set *set, int nset);
/* After a step: a checkpoint when a new tick is due one.  0 or -1. */
int recording_tick(struct recording *rec, const struct world *w, struct bot_world *bw);
/* A live reload of scripts: bot_source lines (at w's tick) for the
 * scripts whose text changed since written, each followed by a
 * bot_reload line per vehicle now running it.  0 or -1. */
int recording_scripts(struct recording *rec, const struct world *w,
                      const struct bot_world *bw);
/* The map reloaded at `tick` into nw (with its bots nb): its new
 * scripts, then the reload line; the count starts again at 0. */
int recording_reload(struct recording *rec, long tick, const char *map_text,
                     const struct world *nw, const struct bot_world *nb);
/* The player's input, changed at w's tick (its held intents from the
 * next step on).  0, or -1 with the message on stderr. */
int recording_input(struct recording *rec, const struct world *w);
/* A live tuning of section.key to value at w's tick (in effect from the
 * next step on).  0, or -1 with the message on stderr. */
int recording_tune(struct recording *rec, const struct world *w, const char *section,
                   const char *key, const char *value);
/* The end line at w's tick (when w is the furthest tick recorded), then
 * closes.  0, or -1 with the message on stderr. */
int recording_close(struct recording *rec, const struct world *w, struct bot_world *bw);
/* Closes without an end line (nothing when closed). */
void recording_stop(struct recording *rec);

#endif
