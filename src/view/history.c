/* history.c — snapshots and replay for stepping back. */
#include "config.h"

#include <string.h>

#include "history.h"
#include "../core/tick.h"

static size_t snapshot_bytes(const struct world *w)
{
    return w->vehicles.n * sizeof(struct vehicle)
         + w->shells.n * sizeof(struct shell)
         + w->overlaps.n * sizeof(uint64_t)
         + w->aims.n * sizeof(struct aim_info)
         + 2 * (w->teams.n + 1) * sizeof(int) + sizeof(struct world_snapshot);
}

static void snap_free(struct history_snap *s)
{
    world_snapshot_free(&s->w);
    bot_world_mem_free(&s->m);
    s->bots_ok = 0;
}

/* 0, -1 (memory), -2 (a mem not plain data: kept without bots). */
static int snap_save(struct history *h, const struct world *w, struct history_snap *s,
                     char *err, size_t n)
{
    memset(s, 0, sizeof *s);
    if (world_snapshot_save(w, &s->w))
        return -1;
    if (bot_world_save(h->bots, &s->m, err, n))
        return -2;
    s->bots_ok = 1;
    return 0;
}

int history_init(struct history *h, const struct world *w, struct bot_world *bots)
{
    memset(h, 0, sizeof *h);
    h->bots = bots;
    size_t b = snapshot_bytes(w);
    size_t cap = HISTORY_BYTES / (b ? b : 1);
    h->cap = cap > HISTORY_MAX ? HISTORY_MAX : cap < 2 ? 2 : (int)cap;
    char err[256];
    /* A fresh world's mem is an empty table: always plain data. */
    return snap_save(h, w, &h->start, err, sizeof err) ? -1 : 0;
}

static void drop_from(struct history *h, int i)
{
    for (int k = i; k < h->n; k++)
        snap_free(&h->ring[k]);
    h->n = i;
}

void history_free(struct history *h)
{
    drop_from(h, 0);
    snap_free(&h->start);
}

int history_note(struct history *h, const struct world *w, char *err, size_t n)
{
    if (w->tick % HISTORY_EVERY != 0)
        return 0;
    if (h->n > 0 && h->ring[h->n - 1].w.tick >= w->tick)
        return 0;
    if (h->n == h->cap) {
        snap_free(&h->ring[0]);
        memmove(&h->ring[0], &h->ring[1], (size_t)(h->n - 1) * sizeof h->ring[0]);
        h->n--;
        memset(&h->ring[h->n], 0, sizeof h->ring[0]);
        h->dropped = 1;
    }
    int rc = snap_save(h, w, &h->ring[h->n], err, n);
    if (rc == -1) {
        snap_free(&h->ring[h->n]);
        return -1;
    }
    h->n++;
    return rc;
}

long history_oldest(const struct history *h)
{
    /* Until the ring has dropped anything, tick 0 is still reachable. */
    return h->dropped && h->n > 0 ? h->ring[0].w.tick : 0;
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
    while (w->tick < target) {
        if (tick_step(w))
            return -1;
        if (k && k->on_step)
            k->on_step(k->ctx);
    }
    return 0;
}

int history_back(struct history *h, struct world *w, long target,
                 const struct history_hooks *hooks, long *blocked)
{
    if (target < 0 || target > w->tick)
        return 1;
    /* The newest snapshot strictly before the target, so that the replay
     * recomputes the target tick's sights and events too; tick 0 itself
     * has none to recompute. */
    const struct history_snap *s = NULL;
    int keep = 0;
    for (int i = h->n - 1; i >= 0; i--)
        if (h->ring[i].w.tick < target || (target == 0 && h->ring[i].w.tick == 0)) {
            s = &h->ring[i];
            keep = i + 1;
            break;
        }
    if (!s && h->dropped) {
        /* Only the oldest kept tick itself is left. */
        if (h->n == 0 || h->ring[0].w.tick != target)
            return 1;
        s = &h->ring[0];
        keep = 1;
    } else if (!s) {
        s = &h->start;
        keep = 0;
    }
    if (!s->bots_ok) {
        /* Without the bots' mem the replay would not be the past. */
        if (blocked)
            *blocked = s->w.tick;
        return 2;
    }
    /* Later snapshots would be recomputed identically; dropping them keeps
     * the ring simple (always increasing, nothing beyond the present). */
    drop_from(h, keep);
    return replay(h, w, s, target, hooks);
}

int history_restart(struct history *h, struct world *w,
                    const struct history_hooks *hooks)
{
    drop_from(h, 0);
    h->dropped = 0;
    return replay(h, w, &h->start, 0, hooks);
}
