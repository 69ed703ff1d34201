/* record_hooks.c — the viewer's --record and --replay (record_hooks.h).
 *
 * Both follow the furthest tick computed, the frontier: a recording
 * writes each tick the first time it is computed and a replay applies
 * and checks each recorded line the first time its tick is reached, so
 * stepping back and forward again over known ticks changes neither.  A
 * change after a step back (a script saved while behind the frontier)
 * cannot be kept in a file written as the run goes: the recording stops
 * there, with a message, and replays up to its last line.  A map reload
 * is written on the frontier tick: the map before it is replayed up to
 * there, then the new one from its tick 0 (the viewer swaps its world as
 * its own reload does, history and all). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "record_hooks.h"
#include "drive.h"
#include "follow.h"
#include "tune_panel.h"
#include "../run/recording.h"
#include "../run/replay_run.h"
#include "../run/session.h"
#include "../io/replay_read.h"

struct view_rec {
    struct recording rec;       /* --record (rec.f NULL: not, or stopped) */
    int replay;                 /* run holds a replay */
    struct replay_run run;      /* --replay */
};

int record_hooks_replay_open(const struct view_options *o, struct view_options *ro,
                             struct world *w, struct view_rec **vr)
{
    *vr = calloc(1, sizeof **vr);
    if (!*vr) {
        fprintf(stderr, "botfield: out of memory\n");
        return 1;
    }
    int rc;
    if (o->follow) {            /* --follow: what the stream holds so far */
        struct replay rp;
        rc = follow_open(o->follow, &rp);
        if (!rc)
            rc = replay_run_open_read(&(*vr)->run, o->follow->name, &rp, w);
    } else
        rc = replay_run_open(&(*vr)->run, o->replay, w);
    if (rc) {
        free(*vr);
        *vr = NULL;
        return rc;
    }
    (*vr)->replay = 1;
    *ro = *o;
    ro->bots = (*vr)->run.bots;
    ro->paused = !o->follow;    /* a replay opens paused at tick 0; a
                                   followed one runs to its live end */
    return 0;
}

/* The last tick of the replay's recording (its end line, or the last
 * whole line of one cut short), so seeking stops there; -1: no replay. */
long record_hooks_last_tick(const struct app *a)
{
    if (!a->rec || !a->rec->replay)
        return -1;
    long last = 0;
    const struct replay_line *l = a->rec->run.rp.lines;
    for (size_t k = 0; k < a->rec->run.rp.n; k++)
        if (l[k].tick > last)
            last = l[k].tick;
    return last;
}

int record_hooks_start(struct app *a)
{
    const struct view_options *o = a->opt;
    if (!o->record)
        return 0;
    if (!a->rec && !(a->rec = calloc(1, sizeof *a->rec))) {
        fprintf(stderr, "botfield: out of memory\n");
        return 1;
    }
    if (recording_open(&a->rec->rec, o->record, &a->world, a->bots, o->map_path,
                       o->map_text ? o->map_text : "", o->map.set, o->map.nset))
        return 1;
    a->run.rec = &a->rec->rec;
    return 0;
}

/* The replay differs from the recording here: the run pauses, and a seek
 * (End, g, PgDn, n) stops on this tick rather than going on past it
 * without a word; the message says which. */
static void tell_divergence(struct app *a, const struct replay_run *run)
{
    char msg[512];
    replay_run_divergence(run, msg, sizeof msg);
    int seeking = seek_halt(a);
    app_message(a, 1, "%s%s", seeking ? "seek stopped here: " : "", msg);
    a->paused = 1;
}

/* The session's hooks: a recorded map reload swaps the viewer's world as
 * its own reload does, history and all. */
static int swap(void *ctx, struct world *nw, struct bot_world *nb)
{
    struct app *a = ctx;
    long t = a->world.tick;
    if (app_swap_world(a, nw, nb))
        return -1;
    app_message(a, 0, "tick %ld: the recording reloads its map (tick 0 again)", t);
    return 0;
}

/* The replay's lines of a tick, applied: recorded tunings and inputs are
 * kept in the tune and drive logs, so a step back and forward again
 * applies them on their ticks as live ones would be. */
static void applied(void *ctx, const struct session_news *n)
{
    struct app *a = ctx;
    const struct replay_run *run = a->run.replay;
    for (size_t k = n->first; k < n->next; k++)
        if (run->rp.lines[k].type == RL_TUNE)
            tune_note(a, run->rp.lines[k].section, run->rp.lines[k].key,
                      run->rp.lines[k].value);
    if (n->input)
        drive_note_input(a);
    /* A script replaced: the ticks computed before are another run's. */
    if (n->scripts)
        replay_check_reset(&a->check);
}

static const struct session_hooks view_hooks = { swap, applied, NULL };

void record_hooks_attach(struct app *a)
{
    static struct session_hooks hooks;
    hooks = view_hooks;
    hooks.ctx = a;
    session_init(&a->run, &a->world, &a->bots);
    a->run.hooks = &hooks;
    if (a->rec && a->rec->replay) {
        a->run.replay = &a->rec->run;
        a->run.replaying = 1;
    }
}

void record_hooks_after_step(struct app *a)
{
    const struct session_news *n = &a->run.news;
    if (n->rec_failed)
        app_message(a, 1, "the recording cannot be written: it stops here");
    if (n->diverged)
        tell_divergence(a, a->run.replay);
    else if (n->stopped)
        app_message(a, 1, n->stopped == 2 ? "the recording's map does not load: the replay "
                    "stops" : "the recording's script does not reload: the replay stops");
    else if (n->ended) {
        a->paused = 1;
        app_message(a, 0, "the recording ends at tick %ld; the run goes on live from here",
                    a->world.tick);
    }
}

/* A change (a script, an input, a tuned value) on tick `tick` can be
 * written only where the recording stands: after a step back the run
 * lived differs from the one recorded, so the recording stops there. */
static int at_frontier(struct app *a, struct recording *rec, long tick, const char *what)
{
    if (tick == rec->frontier)
        return 1;
    long f = rec->frontier;
    recording_stop(rec);
    app_message(a, 1, "recording stopped at tick %ld: %s after a step back, which a "
                "recording cannot keep", f, what);
    return 0;
}

void record_hooks_reloaded(struct app *a, long tick, const char *map_text)
{
    struct view_rec *vr = a->rec;
    if (!vr || !vr->rec.f)
        return;
    struct recording *rec = &vr->rec;
    if (map_text) {
        /* The new map from its tick 0, after the old one's furthest tick. */
        if (recording_reload(rec, rec->frontier, map_text, &a->world, a->bots))
            app_message(a, 1, "the recording cannot be written: it stops here");
        return;
    }
    if (!at_frontier(a, rec, tick, "a script changed"))
        return;
    if (recording_scripts(rec, &a->world, a->bots))
        app_message(a, 1, "the recording cannot be written: it stops here");
}

void record_hooks_input(struct app *a)
{
    struct view_rec *vr = a->rec;
    if (!vr || !vr->rec.f)
        return;
    struct recording *rec = &vr->rec;
    if (!at_frontier(a, rec, a->world.tick, "the player's input changed"))
        return;
    if (recording_input(rec, &a->world))
        app_message(a, 1, "the recording cannot be written: it stops here");
}

void record_hooks_tune(struct app *a, const char *section, const char *key,
                       const char *value)
{
    struct view_rec *vr = a->rec;
    if (!vr || !vr->rec.f)
        return;
    struct recording *rec = &vr->rec;
    if (!at_frontier(a, rec, a->world.tick, "a value was tuned"))
        return;
    if (recording_tune(rec, &a->world, section, key, value))
        app_message(a, 1, "the recording cannot be written: it stops here");
}

const char *record_hooks_map_text(const struct app *a)
{
    return a->rec && a->rec->run.map_text ? a->rec->run.map_text : NULL;
}

void record_hooks_finish(struct app *a)
{
    struct view_rec *vr = a->rec;
    if (!vr)
        return;
    if (vr->rec.f) {
        /* The end line needs the furthest tick's state: compute up to it
         * again (the core is deterministic) when the view is behind. */
        while (a->world.tick < vr->rec.frontier && session_step(&a->run) == SESSION_STEPPED)
            ;
        recording_close(&vr->rec, &a->world, a->bots);
    }
    recording_stop(&vr->rec);
    if (vr->run.rp.lines || vr->run.spath) {
        vr->run.bots = NULL;        /* the app's, freed with it */
        replay_run_free(&vr->run, &a->world);
    }
    free(vr);
    a->rec = NULL;
}
