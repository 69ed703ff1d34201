/* session.c — one simulation stepped with its inputs, recorder and
 * checks (session.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "session.h"
#include "say.h"
#include "recording.h"
#include "replay_run.h"
#include "bot/bot_world.h"
#include "core/round.h"
#include "core/tick.h"
#include "core/world.h"
#include "io/map.h"
#include "io/replay_read.h"

void session_init(struct session *s, struct world *w, struct bot_world **bots)
{
    memset(s, 0, sizeof *s);
    s->w = w;
    s->bots = bots;
    s->frontier = w->tick;
}

void session_free(struct session *s)
{
    timeline_free(&s->inputs);
}

void session_restart(struct session *s)
{
    s->frontier = s->w->tick;
}

long session_replay_last(const struct session *s)
{
    return s->replay ? replay_run_last_tick(s->replay) : -1;
}

/* The recorded map reload of this tick, swapped in: 0, or -1 when it
 * cannot be (the replay stops, said). */
static int reload(struct session *s)
{
    struct replay_run *run = s->replay;
    struct world nw;
    struct bot_world *nb = NULL;
    long t = s->w->tick;
    if (replay_run_reload(run, &nw, &nb)) {
        run_say("%s: tick %ld: the recording's map does not load\n",
                run->file, t);
        return -1;
    }
    const struct session_hooks *h = s->hooks;
    if (h && h->swap) {
        if (h->swap(h->ctx, &nw, nb))
            return -1;
    } else {
        bot_world_free(s->w, *s->bots);
        world_free(s->w);
        *s->w = nw;
        *s->bots = nb;
    }
    s->frontier = s->w->tick;
    return 0;
}

/* A recorded map reload due on this tick (its lines before it applied). */
static int reload_due(const struct session *s)
{
    const struct replay_run *run = s->replay;
    return run->next < run->rp.n && run->rp.lines[run->next].type == RL_RELOAD
        && run->rp.lines[run->next].tick == s->w->tick;
}

/* The replay's lines of the frontier tick: 1 when a map reload replaced
 * the world (the caller's SESSION_NEW_WORLD), else 0 (news says the rest). */
static int apply_lines(struct session *s)
{
    struct replay_run *run = s->replay;
    struct session_news *n = &s->news;
    int new_world = 0;
    for (;;) {
        run->bots = *s->bots;
        struct player_input in = s->w->player.in;
        long scripts = run->scripts_applied;
        n->first = run->next;
        int rc = replay_run_before(run, s->w);
        n->next = run->next;
        n->input = memcmp(&in, &s->w->player.in, sizeof in) != 0;
        n->scripts = run->scripts_applied != scripts;
        if (rc == 2)
            n->diverged = 1;
        else if (rc < 0)
            n->stopped = 1;
        if (s->hooks && s->hooks->applied)
            s->hooks->applied(s->hooks->ctx, n);
        if (rc) {
            s->replaying = 0;
            return new_world;
        }
        if (!reload_due(s))
            return new_world;
        if (reload(s)) {
            n->stopped = 2;
            s->replaying = 0;
            return new_world;
        }
        new_world = 1;
    }
}

/* The next round of a match, when the one running is over: its start
 * built from the map's text with its seed, moved into the world, and
 * every bot rebuilt with its mem (round.h).  0, or -1 (said). */
static int next_round(struct session *s)
{
    struct world *w = s->w;
    struct map_options opt = { .has_seed = 1, .seed = round_seed(w, w->round + 1) };
    struct map_error err = { NULL, 0 };
    struct world fresh;
    const char *name = w->map_path ? w->map_path : "the map";
    if (!w->round_text || map_load_text(name, w->round_text, w->round_text_len, &opt,
                                        &fresh, &err)) {
        run_say("tick %ld: round %d does not load: %s", w->tick,
                w->round + 1, err.text ? err.text : "no map text kept\n");
        map_error_free(&err);
        return -1;
    }
    int rc = round_begin(w, &fresh);
    world_free(&fresh);
    char why[256] = "out of memory";
    if (rc == 0 && *s->bots && bot_world_new_round(*s->bots, why, sizeof why))
        rc = -1;
    if (rc)
        run_say("tick %ld: round %d cannot start: %s\n", w->tick,
                w->round, why);
    return rc;
}

int session_step(struct session *s)
{
    memset(&s->news, 0, sizeof s->news);
    if (s->replay && s->replaying && s->w->tick == s->frontier && apply_lines(s))
        return SESSION_NEW_WORLD;
    if (s->w->round < s->w->rounds && round_over(s->w) && next_round(s))
        return SESSION_FAILED;
    if (tick_step(s->w)) {
        run_say("out of memory at tick %ld\n", s->w->tick);
        return SESSION_FAILED;
    }
    if (s->w->tick <= s->frontier)
        return SESSION_STEPPED;
    s->frontier = s->w->tick;
    if (s->rec && s->rec->f && recording_tick(s->rec, s->w, *s->bots))
        s->news.rec_failed = 1;
    if (s->replay && s->replaying) {
        s->replay->bots = *s->bots;
        if (replay_run_check(s->replay, s->w)) {
            s->news.diverged = 1;
            s->replaying = 0;
        } else if (s->replay->next >= s->replay->rp.n) {
            s->news.ended = 1;      /* (said once: nothing is left to do) */
            s->replaying = 0;
        }
    }
    return SESSION_STEPPED;
}

int session_finish(struct session *s)
{
    return s->rec && s->rec->f ? recording_close(s->rec, s->w, *s->bots) : 0;
}
