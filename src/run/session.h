/* session.h — one simulation with what steps it: its world and bots, the
 * inputs on its timeline (a replay's recorded lines: scripts, the
 * player's input, tunings, map reloads), its recorder and the replay's
 * checks.  Every mode steps through session_step(): headless runs (a
 * tournament's runs and a comparison's two sides are headless runs), the
 * replays, and the viewer, forward and when it recomputes a tick it went
 * back over.
 *
 * The session follows the furthest tick computed, the frontier: a replay's
 * lines are applied and its checkpoints checked, and a recording is
 * written, the first time a tick is reached, so stepping back and forward
 * again over known ticks changes neither.
 *
 * The world and the bots stay the front end's (the viewer swaps them with
 * its history and its second world): the session points at them. */
#ifndef BOTFIELD_SESSION_H
#define BOTFIELD_SESSION_H

#include <stddef.h>

#include "timeline.h"

struct world;
struct bot_world;
struct recording;
struct replay_run;

/* What session_step() returns. */
enum session_result {
    SESSION_STEPPED = 0,    /* one tick computed; news says what else */
    SESSION_NEW_WORLD = 1,  /* not stepped: a recorded map reload replaced
                               the world (its tick 0); step again */
    SESSION_FAILED = -1     /* not stepped: out of memory, or a match's next
                               round cannot start (said on stderr) */
};

/* What the last session_step() did besides computing the tick. */
struct session_news {
    size_t first, next;     /* the replay's lines applied before the tick */
    int input;              /* the player's input was set by one of them */
    int scripts;            /* a bot's script was replaced by one of them */
    int stopped;            /* the replay stopped before the tick: a line
                               could not be applied (1), or the map of a
                               reload (2) (said on stderr) */
    int diverged;           /* the replay stopped: the state differs from
                               the recording (replay_run_divergence) */
    int ended;              /* the replay's last line is applied: it is
                               done (the run may go on, live) */
    int rec_failed;         /* the recording cannot be written: it stopped
                               (said on stderr) */
};

/* A front end's say in a step (NULL members: the defaults). */
struct session_hooks {
    /* A recorded map reload: nw and nb replace the world and its bots
     * (the session's pointers stay).  NULL: the old ones are freed and
     * the new ones copied in.  0, or -1 when it cannot (the replay
     * stops). */
    int (*swap)(void *ctx, struct world *nw, struct bot_world *nb);
    /* After the replay's lines of a tick are applied, before the tick
     * (news: which). */
    void (*applied)(void *ctx, const struct session_news *news);
    void *ctx;
};

struct session {
    struct world *w;                /* the world stepped */
    struct bot_world **bots;        /* its bots (*bots NULL: none) */
    struct recording *rec;          /* NULL: not recording */
    struct replay_run *replay;      /* NULL: not replaying */
    int replaying;                  /* the replay goes on (it stops at a
                                       divergence or a line it cannot apply) */
    long frontier;                  /* the furthest tick computed */
    struct timeline inputs;         /* the player's inputs and the tunings
                                       given, on their ticks (the front end
                                       applies them: a tuning is told in
                                       its terms) */
    const struct session_hooks *hooks;      /* NULL: the defaults */
    struct session_news news;
};

/* A session of w and its bots, nothing recorded or replayed, no inputs. */
void session_init(struct session *s, struct world *w, struct bot_world **bots);
/* Frees its inputs (the world, bots, recording and replay are the front
 * end's). */
void session_free(struct session *s);

/* One tick: on the frontier, the replay's lines of the tick first (a map
 * reload: SESSION_NEW_WORLD); then the tick; then, on a new frontier, the
 * recording's checkpoint and the replay's checks. */
int session_step(struct session *s);

/* The end of a run: the recording's end line, then it is closed.  0, or
 * -1 when it cannot be written (said on stderr). */
int session_finish(struct session *s);

/* The world was replaced or restarted from its tick 0 by the front end (a
 * reload of its own): the frontier starts again there. */
void session_restart(struct session *s);

/* The last tick the replay's recording reaches in the world now running:
 * -1 when it stops on no tick (no end line: it goes on), -2 when the map
 * is reloaded on its first tick; -1 without a replay. */
long session_replay_last(const struct session *s);

#endif
