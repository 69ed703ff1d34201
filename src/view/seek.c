/* seek.c — going to any tick: the keys' actions, the `g` prompt, and the
 * forward computation spread over the loop's turns. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "seek.h"
#include "tui.h"
#include "../bot/bot_world.h"
#include "../core/round.h"

void seek_reset(struct seek *s)
{
    long limit = s->limit;
    memset(s, 0, sizeof *s);
    s->limit = limit;
    s->goal = -1;
}

long seek_end_tick(const struct app *a)
{
    return a->seek.limit >= 0 ? a->seek.limit : a->hist.end;
}

long seek_stop_tick(const struct app *a)
{
    /* a match: its rounds at their longest (the timeline's span; the
     * match may end sooner, app_step stops there) */
    long rounds = a->world.rounds > 1 ? a->world.rounds : 1;
    return a->seek.limit >= 0 ? -1 : rounds * round_ticks(&a->world);
}

/* The last tick there is: the recording's or the map's duration's. */
static long last_tick(const struct app *a)
{
    return a->seek.limit >= 0 ? a->seek.limit : seek_stop_tick(a);
}

/* Computes on from the furthest tick computed: reaching it first through
 * the history when that is quicker than stepping from here. */
static void compute_to(struct app *a, long goal, int event)
{
    if (a->world.tick < a->hist.end && history_base(&a->hist, a->hist.end) > a->world.tick
        && app_goto(a, a->hist.end) < 0)
        return;
    a->seek.goal = goal;
    a->seek.goal_event = event;
    app_message(a, 0, "computing to %stick %ld (any key stops)",
                event ? "the next event, at most " : "", goal);
}

void seek_to(struct app *a, long tick)
{
    a->paused = 1;
    a->seek.goal = -1;
    if (tick < 0)
        tick = 0;
    long last = last_tick(a);
    if (last >= 0 && tick > last) {
        app_message(a, 0, "the run ends at tick %ld", last);
        tick = last;
    }
    if (tick <= a->hist.end)
        app_goto(a, tick);
    else
        compute_to(a, tick, 0);
    a->dirty = 1;
}

void seek_end(struct app *a)
{
    seek_to(a, seek_end_tick(a));
}

/* Appends ", " (after the first) and the text to buf. */
static void add_part(char *buf, size_t n, const char *text)
{
    size_t l = strlen(buf);
    if (l + 1 < n)
        snprintf(buf + l, n - l, "%s%s", l ? ", " : "", text);
}

/* What happened on the tick shown, the most telling first: knockouts,
 * hits (who hit whom), shots (by whom, at whom), collisions, laps, a bot
 * error; of each kind the first two and how many more. */
static void describe_tick(const struct app *a, char *buf, size_t n)
{
    static const enum event_kind order[] = { EV_KNOCKOUT, EV_HIT, EV_SHOT,
                                             EV_COLLISION, EV_LAP };
    const struct world *w = &a->world;
    buf[0] = 0;
    for (size_t o = 0; o < sizeof order / sizeof order[0]; o++) {
        int count = 0;
        for (size_t k = 0; k < w->now.events.n; k++) {
            const struct event *e = &w->now.events.p[k];
            if (e->kind != order[o] || count++ >= 2)
                continue;
            char part[160];
            const char *x = vehicle_name(a, e->a), *y = vehicle_name(a, e->b);
            if (e->kind == EV_KNOCKOUT)
                snprintf(part, sizeof part, "%s knocked out", x);
            else if (e->kind == EV_HIT)
                snprintf(part, sizeof part, "%s hit %s", x, y);
            else if (e->kind == EV_SHOT && e->b >= 0)
                snprintf(part, sizeof part, "a shot by %s at %s", x, y);
            else if (e->kind == EV_SHOT)
                snprintf(part, sizeof part, "a shot by %s", x);
            else if (e->kind == EV_COLLISION && e->b >= 0)
                snprintf(part, sizeof part, "%s and %s collide", x, y);
            else if (e->kind == EV_COLLISION)
                snprintf(part, sizeof part, "%s collides", x);
            else
                snprintf(part, sizeof part, "%s ends lap %d", x, e->u.lap.lap);
            add_part(buf, n, part);
        }
        if (count > 2) {
            char more[48];
            snprintf(more, sizeof more, "%d more %s", count - 2, event_kind_names[order[o]]);
            add_part(buf, n, more);
        }
    }
    if (a->bots && bot_world_errors(a->bots) > 0)
        add_part(buf, n, "a bot error");
    if (!buf[0])
        snprintf(buf, n, "an event");
}

/* "next event: tick 695: tank.red.1 hit tank.blue.2, ..." */
static void tell_event(struct app *a, const char *which)
{
    char what[400];
    describe_tick(a, what, sizeof what);
    app_message(a, 0, "%s event: tick %ld: %s", which, a->world.tick, what);
}

void seek_event(struct app *a, int dir)
{
    long t = event_index_next(&a->hist.events, a->world.tick, dir);
    if (t >= 0) {
        seek_to(a, t);
        if (a->world.tick == t)
            tell_event(a, dir > 0 ? "next" : "previous");
        return;
    }
    a->paused = 1;
    long last = last_tick(a);
    if (dir < 0 || (last >= 0 && a->world.tick >= last)) {
        app_message(a, 0, "no %s event (shot, hit, knockout, collision, lap, bot error)",
                    dir < 0 ? "earlier" : "later");
        return;
    }
    long goal = a->hist.end + lround(a->world.tick_rate * SEEK_EVENT_SECONDS);
    if (last >= 0 && goal > last)
        goal = last;
    compute_to(a, goal, 1);
}

void seek_prompt(struct app *a)
{
    a->seek.prompt = 1;
    a->seek.digits[0] = 0;
    a->paused = 1;
}

int seek_busy(const struct app *a)
{
    return a->seek.goal >= 0;
}

int seek_halt(struct app *a)
{
    if (a->seek.goal < 0)
        return 0;
    a->seek.goal = -1;
    return 1;
}

void seek_work(struct app *a, double until)
{
    struct seek *s = &a->seek;
    while (s->goal >= 0 && a->world.tick < s->goal && !a->quit) {
        if (app_step(a)) {
            s->goal = -1;
            return;
        }
        const struct event_index *x = &a->hist.events;
        if (s->goal_event && x->n > 0 && x->p[x->n - 1].tick == a->world.tick) {
            s->goal = -1;
            tell_event(a, "next");
            break;
        }
        if (view_now() >= until)
            break;
    }
    if (s->goal >= 0 && a->world.tick >= s->goal) {
        if (s->goal_event && a->world.tick == last_tick(a))
            app_message(a, 0, "no event up to tick %ld, where the run ends", a->world.tick);
        else if (s->goal_event)
            app_message(a, 0, "no event up to tick %ld (%d s on)", a->world.tick,
                        SEEK_EVENT_SECONDS);
        else
            a->msg[0] = 0;      /* the "computing" one: done */
        s->goal = -1;
    }
    /* app_step's ending check unpauses nothing; a seek stays paused. */
    a->paused = 1;
    a->dirty = 1;
}

static int is_enter(int ch)
{
    return ch == '\n' || ch == '\r' || ch == KEY_ENTER;
}

static void prompt_enter(struct app *a)
{
    struct seek *s = &a->seek;
    if (!s->digits[0]) {
        app_message(a, 1, "go to tick: no number typed (digits, then Enter; Esc cancels)");
        return;
    }
    s->prompt = 0;
    seek_to(a, strtol(s->digits, NULL, 10));
}

static int prompt_key(struct app *a, int ch)
{
    struct seek *s = &a->seek;
    size_t n = strlen(s->digits);
    if (ch == 27) {
        s->prompt = 0;
        app_message(a, 0, "go to tick: cancelled");
    } else if (is_enter(ch))
        prompt_enter(a);
    else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
        if (n > 0)
            s->digits[n - 1] = 0;
    } else if (ch >= '0' && ch <= '9') {
        if (n < SEEK_DIGITS) {
            s->digits[n] = (char)ch;
            s->digits[n + 1] = 0;
            a->msg[0] = 0;
        } else
            app_message(a, 1, "go to tick: at most %d digits", SEEK_DIGITS);
    } else if (ch != KEY_RESIZE && ch != KEY_MOUSE)
        app_message(a, 1, "go to tick: only digits (a tick number), then Enter; Esc cancels");
    a->dirty = 1;
    return 1;
}

int seek_key(struct app *a, int ch)
{
    if (a->seek.prompt)
        return prompt_key(a, ch);
    if (a->seek.goal >= 0 && ch != KEY_RESIZE && ch != KEY_MOUSE) {
        /* A key stops the computation; q still quits. */
        a->seek.goal = -1;
        app_message(a, 0, "stopped at tick %ld", a->world.tick);
        return ch != 'q';
    }
    return 0;
}
