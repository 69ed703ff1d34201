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

int history_init(struct history *h, const struct world *w)
{
    memset(h, 0, sizeof *h);
    size_t b = snapshot_bytes(w);
    size_t cap = HISTORY_BYTES / (b ? b : 1);
    h->cap = cap > HISTORY_MAX ? HISTORY_MAX : cap < 2 ? 2 : (int)cap;
    return world_snapshot_save(w, &h->start);
}

static void drop_from(struct history *h, int i)
{
    for (int k = i; k < h->n; k++)
        world_snapshot_free(&h->ring[k]);
    h->n = i;
}

void history_free(struct history *h)
{
    drop_from(h, 0);
    world_snapshot_free(&h->start);
}

int history_note(struct history *h, const struct world *w)
{
    if (w->tick % HISTORY_EVERY != 0)
        return 0;
    if (h->n > 0 && h->ring[h->n - 1].tick >= w->tick)
        return 0;
    if (h->n == h->cap) {
        world_snapshot_free(&h->ring[0]);
        memmove(&h->ring[0], &h->ring[1], (size_t)(h->n - 1) * sizeof h->ring[0]);
        h->n--;
        memset(&h->ring[h->n], 0, sizeof h->ring[0]);
        h->dropped = 1;
    }
    if (world_snapshot_save(w, &h->ring[h->n]))
        return -1;
    h->n++;
    return 0;
}

long history_oldest(const struct history *h)
{
    /* Until the ring has dropped anything, tick 0 is still reachable. */
    return h->dropped && h->n > 0 ? h->ring[0].tick : 0;
}

static int replay(struct world *w, const struct world_snapshot *s, long target,
                  const struct history_hooks *k)
{
    if (world_snapshot_restore(w, s))
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
                 const struct history_hooks *hooks)
{
    if (target < 0 || target > w->tick)
        return 1;
    /* The newest snapshot strictly before the target, so that the replay
     * recomputes the target tick's sights and events too; tick 0 itself
     * has none to recompute. */
    const struct world_snapshot *s = NULL;
    int keep = 0;
    for (int i = h->n - 1; i >= 0; i--)
        if (h->ring[i].tick < target || (target == 0 && h->ring[i].tick == 0)) {
            s = &h->ring[i];
            keep = i + 1;
            break;
        }
    if (!s && h->dropped) {
        /* Only the oldest kept tick itself is left. */
        if (h->n == 0 || h->ring[0].tick != target)
            return 1;
        s = &h->ring[0];
        keep = 1;
    } else if (!s) {
        s = &h->start;
        keep = 0;
    }
    /* Later snapshots would be recomputed identically; dropping them keeps
     * the ring simple (always increasing, nothing beyond the present). */
    drop_from(h, keep);
    return replay(w, s, target, hooks);
}

int history_restart(struct history *h, struct world *w,
                    const struct history_hooks *hooks)
{
    drop_from(h, 0);
    h->dropped = 0;
    return replay(w, &h->start, 0, hooks);
}
