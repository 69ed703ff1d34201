/* seek.h — going to any tick in the viewer: `g` and a number, Home, End,
 * PgUp and PgDn (ten seconds), `n` and `N` (the next and previous event
 * that matters), and the timeline that shows where they are.
 *
 * A tick already computed is reached through the history (history.h:
 * exact, a snapshot plus at most a bounded recomputation).  A tick past
 * the furthest one computed is computed, a frame's worth of ticks each
 * turn of the loop, so the screen shows the progress and a key stops it.
 * `n` past the furthest computed tick computes on until the next event
 * or SEEK_EVENT_SECONDS of simulated time, whichever comes first.
 *
 * In a live run the end is the furthest tick computed so far, and nothing
 * goes past the map's duration; a replay sets `limit` to its recording's
 * last tick, and nothing goes past it. */
#ifndef BOTFIELD_SEEK_H
#define BOTFIELD_SEEK_H

#define SEEK_JUMP_SECONDS 10        /* PgUp, PgDn */
#define SEEK_EVENT_SECONDS 600      /* how far `n` computes ahead at most */
#define SEEK_DIGITS 12

struct app;

struct seek {
    long limit;             /* -1: a live run; else the last tick there is */
    long goal;              /* computing forward to this tick; -1: not */
    int goal_event;         /* and stopping at the first event on the way */
    int prompt;             /* the `g` prompt is open */
    char digits[SEEK_DIGITS + 1];
};

/* A fresh state: nothing pending, no limit. */
void seek_reset(struct seek *s);

/* The last tick a seek can reach now: `limit`, or in a live run the
 * furthest computed. */
long seek_end_tick(const struct app *a);
/* The tick a live run stops at, as a headless run does: the map's
 * duration (-1 in a replay, which ends where its recording does). */
long seek_stop_tick(const struct app *a);

/* Goes to `tick` (clamped to 0.. and to `limit`) and pauses: at once when
 * it was computed, else by computing on (seek_work). */
void seek_to(struct app *a, long tick);
void seek_end(struct app *a);
/* The next (dir > 0) or previous event that matters. */
void seek_event(struct app *a, int dir);
/* Opens the `g` prompt. */
void seek_prompt(struct app *a);

/* The loop's hooks: a key for the prompt or a pending computation first
 * (1: it was taken); is a computation pending; do a part of it, until the
 * monotonic time `until`. */
int seek_key(struct app *a, int ch);
int seek_busy(const struct app *a);
/* Stops a seek under way (a replay diverged on its way: what comes after
 * is not the recording's run).  1 when one was. */
int seek_halt(struct app *a);
void seek_work(struct app *a, double until);

/* seek_draw.c: the timeline's width on the top line for this terminal
 * (0: none), drawing it there, and the prompt on the bottom line (1: it
 * was drawn). */
int seek_timeline_width(const struct app *a);
void seek_draw_timeline(struct app *a, int y, int x, int w);
/* The cell of the timeline (w wide) where `tick` is, -1: none. */
int seek_timeline_cell(const struct app *a, int w, long tick);
int seek_draw_prompt(struct app *a, int y);

#endif
