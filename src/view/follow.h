/* follow.h — the viewer on a recording as it grows (--follow, the
 * arena's watch): the lines that arrive are read without blocking in the
 * viewer's loop and appended to the replay, and the viewer computes the
 * ticks known so far.  It opens at the live end and stays there as the
 * recording grows, unless the user pauses, steps back or seeks (then it
 * stays where the user is; End goes live again). */
#ifndef BOTFIELD_FOLLOW_H
#define BOTFIELD_FOLLOW_H

#include <stddef.h>

struct replay;
struct replay_stream;
struct app;
struct view_options;

/* The stream followed (the caller's: it outlives a view_run, so the
 * arena's next recording on the same stream is read by the next one). */
struct view_follow {
    int fd;                     /* the stream (made non-blocking) */
    const char *name;           /* for messages */
    struct replay_stream *rs;   /* its reader */
    int regular;                /* a regular file: EOF means "not yet" */
    int eof;                    /* a pipe or socket that was closed */
    int next_at_end;            /* return from view_run at a recording's end,
                                   once the user saw it live (the arena) */
    int ended_for_next;         /* out: view_run returned for that */
    int screen;                 /* the arena's screen (matches, ladder) open
                                   then: the next recording opens on it */
    struct arena_view *arena;   /* the arena's watch (its screens:
                                   arena_view.h), NULL: not one */
    struct side_lines *side;    /* its own lines, taken out as they come
                                   (side_lines.h); both freed with f */
};

/* A stream on fd (taken over); NULL when memory ran out. */
struct view_follow *follow_new(int fd, const char *name);
void follow_free(struct view_follow *f);

/* The viewer on the stream (o's options; o->replay and o->follow are
 * set here), one recording after another while the stream holds more:
 * each one's end shown live for a few seconds, then the next one's
 * world.  The exit status of the last view_run. */
int view_follow_run(const struct view_options *o, struct view_follow *f);

/* Before the viewer starts: the recording's header and its starting
 * lines, read (blocking) into *rp.  0; 2 with the message on stderr. */
int follow_open(struct view_follow *f, struct replay *rp);

/* The app's loop: what arrived, read and applied to the replay. */
void follow_read(struct app *a);
/* 1 when the next tick may be computed: it is known (a line of a later
 * tick arrived) or the recording is whole. */
int follow_may_step(struct app *a);
/* After a step: the replay's "ended" is no end while lines may come. */
void follow_after_step(struct app *a);
/* Each loop turn: live, the ticks known computed (a frame's time at
 * most); the arena's next recording. */
void follow_catch_up(struct app *a);
/* A key: 1 when taken (End: live again); follow_key_after notes that
 * the user left the live end (paused, stepped back, seeked). */
int follow_key(struct app *a, int ch);
void follow_key_after(struct app *a, long tick_before, int paused_before);
/* The fd to poll (-1: none) and the ms to sleep at most (-1: any). */
int follow_poll_fd(const struct app *a);
int follow_timeout(const struct app *a, int timeout);

#endif
