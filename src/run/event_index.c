/* event_index.c — the sorted list of ticks with events that matter. */
#include "config.h"

#include <stdlib.h>

#include "event_index.h"
#include "../bot/bot_world.h"
#include "../core/world.h"

unsigned event_index_kinds(const struct world *w, const struct bot_world *bw)
{
    unsigned k = 0;
    for (size_t i = 0; i < w->now.events.n; i++)
        switch (w->now.events.p[i].kind) {
        case EV_SHOT: k |= EVX_SHOT; break;
        case EV_HIT: k |= EVX_HIT; break;
        case EV_KNOCKOUT: k |= EVX_KNOCKOUT; break;
        case EV_COLLISION: k |= EVX_COLLISION; break;
        case EV_LAP: k |= EVX_LAP; break;
        default: break;
        }
    if (bw && bot_world_errors(bw) > 0)
        k |= EVX_BOT_ERROR;
    return k;
}

int event_index_note(struct event_index *x, const struct world *w,
                     const struct bot_world *bw)
{
    unsigned k = event_index_kinds(w, bw);
    if (!k)
        return 0;
    if (x->full)
        return -1;
    if (x->n > 0 && x->p[x->n - 1].tick >= w->tick)
        return 0;           /* already recorded: a replayed tick */
    if (x->n == x->cap) {
        size_t cap = x->cap ? x->cap * 2 : 256;
        struct event_tick *p = (size_t)EVENT_INDEX_MAX < cap ? NULL
                               : realloc(x->p, cap * sizeof *p);
        if (!p) {
            x->full = 1;
            return -1;
        }
        x->p = p;
        x->cap = cap;
    }
    x->p[x->n++] = (struct event_tick){ w->tick, k };
    return 0;
}

/* The index of the first entry with a tick > t. */
static size_t after(const struct event_index *x, long t)
{
    size_t lo = 0, hi = x->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (x->p[mid].tick <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void event_index_cut(struct event_index *x, long tick)
{
    x->n = after(x, tick);
    x->full = 0;
}

long event_index_next(const struct event_index *x, long t, int dir)
{
    if (dir > 0) {
        size_t i = after(x, t);
        return i < x->n ? x->p[i].tick : -1;
    }
    size_t i = after(x, t - 1);     /* the first >= t */
    return i > 0 ? x->p[i - 1].tick : -1;
}

void event_index_free(struct event_index *x)
{
    free(x->p);
    x->p = NULL;
    x->n = x->cap = 0;
    x->full = 0;
}
