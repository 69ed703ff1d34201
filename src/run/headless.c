#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <unistd.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "headless.h"
#include "recording.h"
#include "replay_run.h"
#include "say.h"
#include "session.h"
#include "stop.h"
#include "bot/bot.h"
#include "bot/bot_world.h"
#include "core/round.h"
#include "core/tick.h"
#include "core/world.h"
#include "io/trace.h"

static int fail(const char *what, const char *path)
{
    /* A pipe closed under a run stopped by its SIGPIPE: the run dies of
     * the signal, as it would have without a handler, and says nothing
     * (botfield --trace - map | head). */
    if (stop_signal() == SIGPIPE)
        return 1;
    run_say("%s %s: %s\n", what, path, trace_strerror(errno));
    return 1;
}

/* botfield(6) HEADLESS OUTPUT: the header carries the Lua version, bots or not (a map
 * without bots names the Lua it would run them with).  Returns the
 * version for trace_begin. */
static const char *lua_named(struct world *w)
{
    if (!w->bot_engine)
        w->bot_engine = bot_lua_version();
    return PACKAGE_VERSION;
}

/* Why the trace broke off, said once: 1. */
static int trace_failed(const struct world *w, FILE *f, int to_stdout, const char *path)
{
    if (trace_error()) {
        /* A non-finite number reached the writer: a bug, said loudly. */
        run_say("tick %ld: %s; the trace stops here (a bug: "
                "please report it with the map)\n", w->tick, trace_error());
        return 1;
    }
    /* The trace file, or standard output (a trace to "-", the summary) */
    return f && !to_stdout && ferror(f) ? fail("cannot write the trace", path)
                                        : fail("cannot write", "standard output");
}

/* The tick the run stops on: --ticks, the map's duration, or where the
 * replay's recording ends in the world now running. */
static long run_limit(const struct session *s, const struct headless_options *o)
{
    if (s->replay) {
        long last = session_replay_last(s);
        return last == -1 ? LONG_MAX : last == -2 ? s->w->tick : last;
    }
    if (o->ticks < 0 && s->w->rounds > 1)
        return LONG_MAX;            /* the match ends with its last round */
    return o->ticks >= 0 ? o->ticks : lround(s->w->duration * s->w->tick_rate);
}

/* The run is over before --ticks: the battle won or the race finished,
 * or for a match its last round over (round.h). */
static int run_over(const struct world *w)
{
    return w->rounds > 1 ? round_match_over(w) : w->ended;
}

/* A match's round line, once, on the tick its round is over (0, or 1:
 * the trace broke). */
static int round_line(FILE *f, const struct world *w, int *written)
{
    if (w->rounds <= 1 || !round_over(w) || *written == w->round)
        return 0;
    *written = w->round;
    return trace_round(f, w) != 0;
}

/* A match with random trees: the trees of a round that started this
 * tick, before its events (0, or 1: the trace broke). */
static int round_trees_lines(FILE *f, const struct world *w, int *written)
{
    if (!w->round_map || w->round <= 1 || *written == w->round)
        return 0;
    *written = w->round;
    return trace_round_trees(f, w) != 0;
}

/* ---- a trace beside a session stepped elsewhere (headless.h) ---------- */

int headless_trace_begin(FILE *f, struct world *w, struct headless_trace *t)
{
    t->f = f;
    t->round_written = 0;
    t->trees_written = w->round;
    return trace_begin(f, w, lua_named(w)) || trace_states(f, w);
}

int headless_trace_tick(struct headless_trace *t, const struct world *w,
                        const struct bot_world *bots)
{
    return round_trees_lines(t->f, w, &t->trees_written) || trace_events(t->f, w)
        || bot_world_trace(bots, w, t->f) || trace_states(t->f, w)
        || round_line(t->f, w, &t->round_written);
}

int headless_trace_end(struct headless_trace *t, const struct world *w)
{
    return trace_summary(t->f, w) != 0;
}

/* A world's trace settings, and its header and first states (0, or 1:
 * the trace broke). */
static int begin(struct world *w, const struct headless_options *o, FILE *f)
{
    /* Decision records cost nothing unless asked for. */
    w->explain = f && o->decisions;
    w->threads = o->threads;
    w->threads_min = o->threads_min;
    return f && (trace_begin(f, w, lua_named(w)) || trace_states(f, w));
}

/* The replay stopped before or after the tick: said (a line that cannot
 * be applied was said where it failed).  1, or 0: it goes on. */
static int replay_failed(const struct session *s)
{
    if (s->news.diverged) {
        char msg[1024];
        replay_run_divergence(s->replay, msg, sizeof msg);
        run_say("%s\n", msg);
    }
    return s->news.diverged || s->news.stopped;
}

static double pace;         /* headless_pace(): ticks a second, 0 flat out */
static int progress_fd = -1;    /* headless_progress() */

void headless_progress(int fd)
{
    progress_fd = fd;
}

/* The tick whose lines are all written (flushed: the recorder flushes
 * each line), for the arena's watchers. */
static void tell_progress(long tick)
{
    int64_t t = tick;
    if (progress_fd >= 0 && pwrite(progress_fd, &t, sizeof t, 0) != (ssize_t)sizeof t)
        progress_fd = -1;       /* (watchers then wait for lines, as before) */
}

void headless_pace(double ticks_per_second)
{
    pace = ticks_per_second > 0 ? ticks_per_second : 0;
}

/* A paced run sleeps until its tick is due, so people watching a live
 * match see it at the map's speed. */
static void pace_tick(const struct timespec *t0, long ticks)
{
    if (pace <= 0)
        return;
    double due = (double)ticks / pace;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double left = due - (double)(now.tv_sec - t0->tv_sec)
                - 1e-9 * (double)(now.tv_nsec - t0->tv_nsec);
    if (left > 0) {
        struct timespec d = { (time_t)left, (long)((left - floor(left)) * 1e9) };
        nanosleep(&d, NULL);
    }
}

/* The run; the files it writes end on whole lines when it stops early
 * (a signal: stop.h, or a trace that cannot be written: the recording
 * still gets its end line at the last tick computed). */
static int run(struct session *s, const struct headless_options *o)
{
    FILE *f = NULL;
    int to_stdout = 0;
    if (o->trace) {
        to_stdout = strcmp(o->trace, "-") == 0;
        f = to_stdout ? stdout : fopen(o->trace, "w");
        if (!f)
            return fail("cannot write the trace", o->trace);
    }
    struct world *w = s->w;
    /* Without --ticks/--seconds a run lasts the map's duration, or less
     * when the battle is won or every car has finished. */
    long limit = run_limit(s, o);
    int stop_at_end = o->ticks < 0 && !s->replay;
    long every = o->trace_every > 0 ? o->trace_every : 1;
    int rc = 0, broken = begin(w, o, f), stopped = 0, round_written = 0;
    int trees_written = w->round;   /* the header has the first round's */
    long states_at = w->tick;       /* the last tick whose states are written */
    long paced = 0;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (!broken && w->tick < limit && !(stop_at_end && run_over(w))) {
        if (stop_signal()) {
            stopped = 1;
            break;
        }
        pace_tick(&t0, ++paced);
        int r = session_step(s);
        if (r == SESSION_FAILED || replay_failed(s) || s->news.rec_failed) {
            rc = 1;
            goto out;
        }
        tell_progress(w->tick);
        if (r == SESSION_NEW_WORLD) {
            /* a recorded map reload: the trace starts again with its header */
            limit = run_limit(s, o);
            states_at = w->tick;
            round_written = 0;
            trees_written = w->round;
            if ((broken = begin(w, o, f)))
                break;
            continue;
        }
        if (f) {
            if (round_trees_lines(f, w, &trees_written) || trace_events(f, w) || bot_world_trace(*s->bots, w, f)
                || (w->explain && trace_decisions(f, w)))
                broken = 1;
            /* The last tick always gets its states, so a trace ends with
             * the final state whatever K is. */
            else if (w->tick % every == 0 || w->tick == limit || (stop_at_end && run_over(w))) {
                broken = trace_states(f, w) != 0;
                states_at = w->tick;
            }
            if (!broken)
                broken = round_line(f, w, &round_written);
        }
    }
    /* Stopped by a signal, a run ends as one of that many ticks does:
     * the last tick's states, then the summary (a replay of its
     * recording writes the same trace). */
    if (f && !broken && stopped && states_at != w->tick && trace_states(f, w))
        broken = 1;
    if (f && !broken && trace_summary(f, w))
        broken = 1;
    /* With no output asked for, the summary: a run never ends silently. */
    if (!broken && (o->summary || !o->trace) && trace_summary(stdout, w))
        broken = 1;
    /* (after a trace that broke too: the recording knows this tick) */
    if (session_finish(s))
        rc = 1;
    if (broken)
        rc = trace_failed(w, f, to_stdout, o->trace);
out:
    if (f && !to_stdout && fclose(f) && rc == 0)
        return fail("cannot write the trace", o->trace);
    if (fflush(stdout) && rc == 0)
        return fail("cannot write", "standard output");
    return rc;
}

static int run_armed(struct session *s, const struct headless_options *o)
{
    stop_arm();
    int rc = run(s, o);
    /* Every file closed on whole lines: now die of the signal, if one
     * came, as the parent expects. */
    stop_die();
    stop_disarm();
    return rc;
}

int headless_run(struct world *w, const struct headless_options *o)
{
    struct bot_world *bots = o->bots;
    struct session s;
    session_init(&s, w, &bots);
    return run_armed(&s, o);
}

int recording_headless(struct recording *rec, struct world *w, struct bot_world *bots,
                       const struct headless_options *o)
{
    struct session s;
    session_init(&s, w, &bots);
    s.rec = rec;
    int rc = run_armed(&s, o);
    recording_stop(rec);
    return rc;
}

int replay_headless(const char *file, const struct headless_options *base)
{
    struct replay_run run;
    struct world w;
    int rc = replay_run_open(&run, file, &w);
    if (rc)
        return rc;
    struct session s;
    session_init(&s, &w, &run.bots);
    s.replay = &run;
    s.replaying = 1;
    /* A run of 0 ticks ends where it starts: its end line is checked here
     * (the session checks only ticks stepped to). */
    if (replay_run_check(&run, &w)) {
        s.news.diverged = 1;
        replay_failed(&s);
        rc = 1;
    } else {
        struct headless_options o = *base;
        o.bots = NULL;
        rc = run_armed(&s, &o);
    }
    replay_run_free(&run, &w);
    world_free(&w);
    return rc;
}
