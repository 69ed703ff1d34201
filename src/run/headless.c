#include "config.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "headless.h"
#include "stop.h"
#include "bot/bot.h"
#include "bot/bot_world.h"
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
    fprintf(stderr, "botfield: %s %s: %s\n", what, path, trace_strerror(errno));
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
        fprintf(stderr, "botfield: tick %ld: %s; the trace stops here (a bug: "
                "please report it with the map)\n", w->tick, trace_error());
        return 1;
    }
    /* The trace file, or standard output (a trace to "-", the summary) */
    return f && !to_stdout && ferror(f) ? fail("cannot write the trace", path)
                                        : fail("cannot write", "standard output");
}

/* The run; the files it writes end on whole lines when it stops early
 * (a signal: stop.h, or a trace that cannot be written: the recording
 * still gets its end line at the last tick computed). */
static int run(struct world *w, const struct headless_options *o)
{
    FILE *f = NULL;
    int to_stdout = 0;
    if (o->trace) {
        to_stdout = strcmp(o->trace, "-") == 0;
        f = to_stdout ? stdout : fopen(o->trace, "w");
        if (!f)
            return fail("cannot write the trace", o->trace);
    }
    /* Without --ticks/--seconds a run lasts the map's duration, or less
     * when the battle is won or every car has finished. */
    long limit = o->ticks >= 0 ? o->ticks : lround(w->duration * w->tick_rate);
    int stop_at_end = o->ticks < 0;
    long every = o->trace_every > 0 ? o->trace_every : 1;
    int rc = 0, broken = 0, stopped = 0;
    long states_at = w->tick;       /* the last tick whose states are written */
    struct headless_hooks *hk = o->hooks;
    const struct bot_world *bots = hk ? hk->bots : o->bots;

    /* Decision records cost nothing unless asked for. */
    w->explain = f && o->decisions;
    w->threads = o->threads;
    w->threads_min = o->threads_min;
    if (f && (trace_begin(f, w, lua_named(w)) || trace_states(f, w)))
        broken = 1;
    while (!broken && w->tick < limit && !(stop_at_end && w->ended)) {
        if (stop_signal()) {
            stopped = 1;
            break;
        }
        if (hk) {
            int new_world = 0;
            int h = hk->before(hk, w, &new_world);
            bots = hk->bots;
            if (hk->limit >= 0)
                limit = hk->limit;
            if (h) {
                rc = h == 1 ? 0 : h == 2 ? 2 : 1;
                if (h == 1)
                    break;
                goto out;
            }
            if (new_world) {
                w->explain = f && o->decisions;
                w->threads = o->threads;
                w->threads_min = o->threads_min;
                states_at = w->tick;
            }
            if (new_world && f && (trace_begin(f, w, lua_named(w)) || trace_states(f, w))) {
                broken = 1;
                break;
            }
            if (w->tick >= limit)
                break;
        }
        if (tick_step(w)) {
            fprintf(stderr, "botfield: out of memory at tick %ld\n", w->tick);
            rc = 1;
            goto out;
        }
        if (f) {
            if (trace_events(f, w) || bot_world_trace(bots, w, f)
                || (w->explain && trace_decisions(f, w)))
                broken = 1;
            /* The last tick always gets its states, so a trace ends with
             * the final state whatever K is. */
            else if (w->tick % every == 0 || w->tick == limit || (stop_at_end && w->ended)) {
                broken = trace_states(f, w) != 0;
                states_at = w->tick;
            }
        }
        /* (after a trace that broke too: the recording knows this tick) */
        if (hk && hk->after(hk, w)) {
            rc = 1;
            goto out;
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
    if (hk && hk->finish(hk, w))
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

int headless_run(struct world *w, const struct headless_options *o)
{
    stop_arm();
    int rc = run(w, o);
    /* Every file closed on whole lines: now die of the signal, if one
     * came, as the parent expects. */
    stop_die();
    stop_disarm();
    return rc;
}
