/* seek.c — going to any tick: the keys' actions, the `g` prompt, and the
 * forward computation spread over the loop's turns. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "seek.h"
#include "tui.h"

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
    if (a->seek.limit >= 0 && tick > a->seek.limit) {
        app_message(a, 0, "the run ends at tick %ld", a->seek.limit);
        tick = a->seek.limit;
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

void seek_event(struct app *a, int dir)
{
    long t = event_index_next(&a->hist.events, a->world.tick, dir);
    if (t >= 0) {
        seek_to(a, t);
        return;
    }
    a->paused = 1;
    long end = seek_end_tick(a);
    if (dir < 0 || (a->seek.limit >= 0 && a->world.tick >= end)) {
        app_message(a, 0, "no %s event (shot, hit, knockout, collision, lap, bot error)",
                    dir < 0 ? "earlier" : "later");
        return;
    }
    long goal = a->hist.end + lround(a->world.tick_rate * SEEK_EVENT_SECONDS);
    if (a->seek.limit >= 0 && goal > a->seek.limit)
        goal = a->seek.limit;
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
            app_message(a, 0, "next event: tick %ld", a->world.tick);
            break;
        }
        if (view_now() >= until)
            break;
    }
    if (s->goal >= 0 && a->world.tick >= s->goal) {
        if (s->goal_event)
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
