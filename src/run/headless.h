/* headless.h — run a world as fast as possible, writing a trace and a
 * summary (botfield(6), HEADLESS OUTPUT). */
#ifndef BOTFIELD_HEADLESS_H
#define BOTFIELD_HEADLESS_H

struct world;
struct bot_world;

struct headless_options {
    long ticks;             /* -1: until the map's duration or the end */
    const char *trace;      /* NULL: none; "-": standard output */
    long trace_every;       /* state lines every K ticks */
    int summary;            /* print the summary on standard output */
    struct bot_world *bots;         /* the world's bots (their lines go in
                                       the trace), NULL: none */
    int decisions;          /* decide lines in the trace (records kept) */
    int threads;            /* --threads: the world's, par.h */
    int threads_min;        /* the world's threads_min */
};

/* Runs w (and o->bots) through a session (session.h).  Returns the
 * process exit status: 0, or 1 when the trace cannot be written or memory
 * ran out (the message goes to standard error). */
int headless_run(struct world *w, const struct headless_options *o);

/* The runs from now on in this process go at most ticks_per_second ticks
 * a second of real time (> 0; 0: flat out, the default): an arena's live
 * match, played in a child of its own, at its map's tick_rate. */
void headless_pace(double ticks_per_second);
/* A paced run writes, after each tick's lines, the tick as an int64 at
 * offset 0 of fd (-1: none): the arena's watchers learn from it that
 * ticks without a line of their own are whole. */
void headless_progress(int fd);

/* --headless --record: the run of w and bots, recorded into rec (opened:
 * recording_open), which is closed after.  headless_run()'s exit status. */
struct recording;
int recording_headless(struct recording *rec, struct world *w, struct bot_world *bots,
                       const struct headless_options *o);

/* --headless --replay FILE: the recording recomputed with o's trace
 * options (its ticks ignored: the recording says).  The exit status: 0, 1
 * when the state diverges (said with the tick) or a write fails, 2 a bad
 * recording. */
int replay_headless(const char *file, const struct headless_options *o);

/* A trace written beside a session that another caller steps
 * (libbotfield's bf_trace): the lines of a headless run with state lines
 * every tick, so the trace of a recorded episode is byte for byte
 * `--headless --replay`'s.  Each returns 0, or 1 when the trace broke. */
#include <stdio.h>
struct headless_trace { FILE *f; int round_written, trees_written; };
int headless_trace_begin(FILE *f, struct world *w, struct headless_trace *t);
/* After each step (not a map reload's). */
int headless_trace_tick(struct headless_trace *t, const struct world *w,
                        const struct bot_world *bots);
/* The summary line, at the end of the episode. */
int headless_trace_end(struct headless_trace *t, const struct world *w);

#endif
