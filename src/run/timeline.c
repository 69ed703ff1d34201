/* timeline.c — the inputs of a run on their ticks (timeline.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "timeline.h"
#include "core/grow.h"

static void entry_free(struct timeline_entry *e)
{
    free(e->section);
    free(e->key);
    free(e->value);
}

/* Drops the entries after tick, and the input of tick when one replaces
 * it (kind TIMELINE_INPUT); then room for one more.  0 or -1. */
static int make_room(struct timeline *t, long tick, enum timeline_kind kind)
{
    while (t->n > 0 && t->p[t->n - 1].tick > tick)
        entry_free(&t->p[--t->n]);
    if (kind == TIMELINE_INPUT) {
        /* the input of tick, among the tunings of tick, goes */
        size_t k = t->n;
        while (k > 0 && t->p[k - 1].tick == tick)
            k--;
        for (size_t i = k; i < t->n; i++)
            if (t->p[i].kind == TIMELINE_INPUT) {
                memmove(&t->p[i], &t->p[i + 1], (t->n - i - 1) * sizeof *t->p);
                t->n--;
                break;
            }
    }
    return grow_reserve(&t->p, &t->cap, t->n + 1, sizeof *t->p);
}

int timeline_input(struct timeline *t, long tick, const struct player_input *in)
{
    if (make_room(t, tick, TIMELINE_INPUT))
        return -1;
    t->p[t->n++] = (struct timeline_entry){ .tick = tick, .kind = TIMELINE_INPUT, .in = *in };
    return 0;
}

int timeline_tune(struct timeline *t, long tick, const char *section, const char *key,
                  const char *value)
{
    if (make_room(t, tick, TIMELINE_TUNE))
        return -1;
    struct timeline_entry e = { .tick = tick, .kind = TIMELINE_TUNE, .section = strdup(section),
                                .key = strdup(key), .value = strdup(value) };
    if (!e.section || !e.key || !e.value) {
        entry_free(&e);
        return -1;
    }
    t->p[t->n++] = e;
    return 0;
}

size_t timeline_upto(const struct timeline *t, long tick)
{
    /* binary search: the first entry after tick */
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->p[mid].tick <= tick)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

const struct player_input *timeline_input_at(const struct timeline *t, long tick)
{
    for (size_t k = timeline_upto(t, tick); k > 0 && t->p[k - 1].tick == tick; k--)
        if (t->p[k - 1].kind == TIMELINE_INPUT)
            return &t->p[k - 1].in;
    return NULL;
}

void timeline_clear(struct timeline *t)
{
    for (size_t i = 0; i < t->n; i++)
        entry_free(&t->p[i]);
    t->n = 0;
}

void timeline_free(struct timeline *t)
{
    timeline_clear(t);
    free(t->p);
    memset(t, 0, sizeof *t);
}
