/* history.c — snapshots and recomputation for going back and forth. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "history.h"
#include "../core/tick.h"

/* The thread's CPU time: what computing costs, without the waits between
 * ticks of a run shown at its own pace. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static size_t snapshot_bytes(const struct world *w)
{
    return w->vehicles.n * sizeof(struct vehicle)
         + w->racers.n * sizeof(struct racer)
         + w->shells.n * sizeof(struct shell)
         + w->overlaps.n * sizeof(uint64_t)
         + w->now.aims.n * sizeof(struct aim_info)
         + 2 * (w->teams.n + 1) * sizeof(int) + sizeof(struct history_snap);
}

static void snap_free(struct history *h, struct history_snap *s)
{
    world_snapshot_free(&s->w);
    bot_world_mem_free(&s->m);
    h->bytes -= s->bytes < h->bytes ? s->bytes : h->bytes;
    memset(s, 0, sizeof *s);
}

/* 0, -1 (memory), -2 (a mem not plain data: kept without bots). */
static int snap_save(struct history *h, const struct world *w, struct history_snap *s,
                     char *err, size_t n)
{
    memset(s, 0, sizeof *s);
    if (world_snapshot_save(w, &s->w))
        return -1;
    s->bytes = snapshot_bytes(w);
    h->bytes += s->bytes;
    if (bot_world_save(h->bots, &s->m, err, n))
        return -2;
    for (size_t i = 0; i < s->m.n; i++)
        s->bytes += s->m.len[i];
    h->bytes += s->bytes - snapshot_bytes(w);
    s->bots_ok = 1;
    return 0;
}

int history_init_bytes(struct history *h, const struct world *w,
                       struct bot_world *bots, size_t max_bytes)
{
    memset(h, 0, sizeof *h);
    h->bots = bots;
    h->max_bytes = max_bytes ? max_bytes : HISTORY_BYTES;
    h->cpu_mark = cpu_now();
    size_t b = snapshot_bytes(w);
    size_t total = h->max_bytes / (b ? b : 1);
    /* An eighth of the room for the recent ones, the rest spread over the
     * run; at least tick 0, one more and one recent on a huge map. */
    size_t r = total / 8;
    h->cap_recent = r > HISTORY_RECENT ? HISTORY_RECENT : r < 1 ? 1 : (int)r;
    size_t c = total > (size_t)h->cap_recent ? total - (size_t)h->cap_recent : 0;
    h->cap = c > HISTORY_MAX ? HISTORY_MAX : c < 2 ? 2 : (int)c;
    h->coarse = calloc((size_t)h->cap, sizeof *h->coarse);
    if (!h->coarse)
        return -1;
    char err[256];
    /* A fresh world's mem is an empty table: always plain data. */
    if (snap_save(h, w, &h->coarse[0], err, sizeof err))
        return -1;
    h->n = 1;
    h->end = w->tick;
    return 0;
}

int history_init(struct history *h, const struct world *w, struct bot_world *bots)
{
    return history_init_bytes(h, w, bots, 0);
}

void history_free(struct history *h)
{
    for (int i = 0; i < h->n; i++)
        snap_free(h, &h->coarse[i]);
    for (int i = 0; i < h->nrecent; i++)
        snap_free(h, &h->recent[i]);
    free(h->coarse);
    h->coarse = NULL;
    h->n = h->nrecent = 0;
    event_index_free(&h->events);
}

/* The index of the last coarse snapshot with a tick < t (-1: none). */
static int coarse_before(const struct history *h, long t)
{
    int lo = 0, hi = h->n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (h->coarse[mid].w.tick < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - 1;
}

/* Makes room in the coarse set: the snapshot between the two neighbouring
 * stretches cheapest to compute together goes (never tick 0 nor the
 * newest; with only those, the newest).  0: nothing left to drop. */
static int merge_one(struct history *h)
{
    if (h->n < 2)
        return 0;
    int drop = h->n - 1;
    if (h->n >= 3) {
        drop = 1;
        for (int i = 2; i <= h->n - 2; i++)
            if (h->coarse[i].cost + h->coarse[i + 1].cost
                < h->coarse[drop].cost + h->coarse[drop + 1].cost)
                drop = i;
        h->coarse[drop + 1].cost += h->coarse[drop].cost;
    } else
        h->cost += h->coarse[drop].cost;
    snap_free(h, &h->coarse[drop]);
    memmove(&h->coarse[drop], &h->coarse[drop + 1],
            (size_t)(h->n - drop - 1) * sizeof *h->coarse);
    h->n--;
    memset(&h->coarse[h->n], 0, sizeof *h->coarse);
    return 1;
}

/* At a tick computed for the first time: a coarse snapshot when
 * HISTORY_BASE ticks or HISTORY_STEP_COST seconds passed since the last. */
static int note_coarse(struct history *h, const struct world *w, char *err, size_t n)
{
    long t = w->tick;
    /* On the recent ones' grid too, so that which snapshot a step back
     * starts from does not depend on how fast the machine is; off it only
     * after ticks so dear that recomputing them would show. */
    int due = t - h->coarse[h->n - 1].w.tick >= HISTORY_BASE || h->cost >= HISTORY_STEP_COST;
    if (!(due && t % HISTORY_FINE == 0) && h->cost < HISTORY_DEAR_COST)
        return 0;
    size_t need = snapshot_bytes(w);
    /* Room first: in count, and in bytes while anything but tick 0 can go. */
    while ((h->n == h->cap || h->bytes + need > h->max_bytes) && merge_one(h))
        ;
    if (h->n == h->cap)
        return 0;
    struct history_snap *s = &h->coarse[h->n];
    int rc = snap_save(h, w, s, err, n);
    if (rc == -1) {
        snap_free(h, s);
        return -1;
    }
    s->cost = h->cost;
    h->cost = 0;
    h->n++;
    return rc;
}

static int note_recent(struct history *h, const struct world *w, char *err, size_t n)
{
    long t = w->tick;
    /* (Even when a spread one has the tick: that one may go, later.) */
    if (t % HISTORY_FINE != 0)
        return 0;
    for (int i = 0; i < h->nrecent; i++)
        if (h->recent[i].w.tick == t)
            return 0;
    int at = h->next_recent;
    if (at < h->nrecent)
        snap_free(h, &h->recent[at]);
    int rc = snap_save(h, w, &h->recent[at], err, n);
    if (rc == -1) {
        snap_free(h, &h->recent[at]);
        /* The slot stays empty: fill it from the end of the ring. */
        if (at < h->nrecent) {
            h->recent[at] = h->recent[h->nrecent - 1];
            memset(&h->recent[--h->nrecent], 0, sizeof h->recent[0]);
        }
        h->next_recent = h->nrecent;
        return -1;
    }
    if (at == h->nrecent)
        h->nrecent++;
    h->next_recent = (at + 1) % h->cap_recent;
    return rc;
}

int history_note(struct history *h, const struct world *w, char *err, size_t n)
{
    int rc = 0;
    if (w->tick > h->end) {
        double c = cpu_now();
        h->cost += c - h->cpu_mark;
        h->cpu_mark = c;
        h->end = w->tick;
        event_index_note(&h->events, w, h->bots);
        rc = note_coarse(h, w, err, n);
    }
    if (rc == 0)
        rc = note_recent(h, w, err, n);
    return rc;
}

long history_oldest(const struct history *h)
{
    (void)h;
    return 0;
}

/* The snapshot to start from for `target`: the newest strictly before it,
 * so that the replay recomputes the target tick's sights and events too;
 * tick 0 itself has none to recompute. */
static const struct history_snap *base_of(const struct history *h, long target)
{
    int i = target == 0 ? 0 : coarse_before(h, target);
    const struct history_snap *s = i >= 0 ? &h->coarse[i] : NULL;
    for (int k = 0; k < h->nrecent; k++) {
        const struct history_snap *r = &h->recent[k];
        if (r->w.tick < target && (!s || r->w.tick > s->w.tick))
            s = r;
    }
    return s;
}

long history_base(const struct history *h, long target)
{
    const struct history_snap *s = base_of(h, target);
    return s ? s->w.tick : -1;
}

/* Steps w on to target, noting the recent snapshots on the way (a later
 * step back near the target then recomputes little). */
static int step_to(struct history *h, struct world *w, long target,
                   const struct history_hooks *k)
{
    char err[256];
    while (w->tick < target) {
        if (k && k->step ? k->step(k->ctx) : tick_step(w))
            return -1;
        if (k && k->on_step)
            k->on_step(k->ctx);
        history_note(h, w, err, sizeof err);
    }
    return 0;
}

static int replay(struct history *h, struct world *w, const struct history_snap *s,
                  long target, const struct history_hooks *k)
{
    if (world_snapshot_restore(w, &s->w))
        return -1;
    /* The bots' Lua states are rebuilt even when mem did not change: a
     * global or an upvalue of the present must not leak into the past. */
    if (bot_world_restore(h->bots, &s->m))
        return -1;
    if (k && k->on_restore)
        k->on_restore(k->ctx, w->tick);
    return step_to(h, w, target, k);
}

static int go(struct history *h, struct world *w, long target,
              const struct history_hooks *hooks, long *blocked)
{
    if (target < 0 || target > h->end)
        return 1;
    if (target == w->tick)
        return 0;
    const struct history_snap *s = base_of(h, target);
    /* Forward, and no snapshot nearer than the present: step on. */
    if (target > w->tick && (!s || s->w.tick <= w->tick))
        return step_to(h, w, target, hooks);
    if (!s)
        return 1;
    if (!s->bots_ok) {
        /* Without the bots' mem the replay would not be the past. */
        if (blocked)
            *blocked = s->w.tick;
        return 2;
    }
    return replay(h, w, s, target, hooks);
}

int history_goto(struct history *h, struct world *w, long target,
                 const struct history_hooks *hooks, long *blocked)
{
    int rc = go(h, w, target, hooks, blocked);
    /* The recomputation is no part of the next new tick's cost. */
    h->cpu_mark = cpu_now();
    return rc;
}

int history_back(struct history *h, struct world *w, long target,
                 const struct history_hooks *hooks, long *blocked)
{
    if (target > w->tick)
        return 1;
    return history_goto(h, w, target, hooks, blocked);
}

void history_cut(struct history *h, long t)
{
    int k = coarse_before(h, t + 1) + 1;
    for (int i = k; i < h->n; i++)
        snap_free(h, &h->coarse[i]);
    h->n = k > 1 ? k : 1;
    int r = 0;
    for (int i = 0; i < h->nrecent; i++) {
        if (h->recent[i].w.tick > t)
            snap_free(h, &h->recent[i]);
        else
            h->recent[r++] = h->recent[i];
    }
    for (int i = r; i < h->nrecent; i++)
        memset(&h->recent[i], 0, sizeof h->recent[0]);
    h->nrecent = r;
    h->next_recent = r % h->cap_recent;
    if (h->end > t)
        h->end = t;
    h->cost = 0;
    h->cpu_mark = cpu_now();
    event_index_cut(&h->events, t);
}

int history_restart(struct history *h, struct world *w,
                    const struct history_hooks *hooks)
{
    history_cut(h, 0);
    return replay(h, w, &h->coarse[0], 0, hooks);
}
