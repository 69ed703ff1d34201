/* test-history — the viewer's history (src/run/history.c): the spacing of
 * its snapshots, its memory bound, and that going to any tick is exact.
 *
 * What it proves: after N ticks of maps/crowd.ini with room for a few
 * dozen snapshots, no stretch between two spread snapshots costs more
 * than 2T/(C-2) to recompute (T: the computing so far, C: the spread
 * snapshots' room) unless it is at most HISTORY_BASE ticks long, and on
 * this evenly costly map the longest is at most 4N/C ticks; the bytes
 * never pass the bound; history_goto back and forth recomputes at most
 * the longest stretch and lands on the very state the first run had; with room for less than one snapshot the history still keeps at
 * most three; the event index of maps/default.ini holds exactly the ticks
 * with a shot, hit, knockout or collision, and next/previous walk it. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "../lib/map-fixture.h"
#include "core/tick.h"
#include "core/world.h"
#include "io/map.h"
#include "run/history.h"

/* FNV-1a over what the viewer shows of the state. */
static uint64_t state_hash(const struct world *w)
{
    uint64_t h = 1469598103934665603ull;
#define MIX(p, n) do { const unsigned char *b_ = (const void *)(p); \
        for (size_t i_ = 0; i_ < (n); i_++) { h ^= b_[i_]; h *= 1099511628211ull; } } while (0)
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        MIX(&v->pos, sizeof v->pos);
        MIX(&v->heading, sizeof v->heading);
        MIX(&v->speed, sizeof v->speed);
        MIX(&v->alive, sizeof v->alive);
    }
    MIX(&w->tick, sizeof w->tick);
    MIX(&w->shells.n, sizeof w->shells.n);
    MIX(&w->stats.collisions, sizeof w->stats.collisions);
    MIX(&w->stats.shots, sizeof w->stats.shots);
    MIX(&w->now.events.n, sizeof w->now.events.n);
#undef MIX
    return h;
}

static long steps;
static void count_step(void *ctx) { (void)ctx; steps++; }

#define N 6000L

static void spacing_and_exactness(void)
{
    struct world w;
    if (fixture_load_map("crowd.ini", &w))
        exit(99);        /* no world, nothing to test: a hard error */
    struct history h;
    /* The room of about 40 snapshots of this map. */
    check_int(history_init(&h, &w, NULL), ==, 0);
    size_t one = h.bytes;
    history_free(&h);
    check_int(history_init_bytes(&h, &w, NULL, 40 * one), ==, 0);
    tap_note("one snapshot %zu bytes; room for %d spread and %d recent", one, h.cap,
             h.cap_recent);
    uint64_t *ref = calloc(N + 1, sizeof *ref);
    ref[0] = state_hash(&w);
    size_t most = h.bytes;
    char err[256];
    int bad = 0;
    for (long t = 1; t <= N; t++) {
        tick_step(&w);
        ref[t] = state_hash(&w);
        bad |= history_note(&h, &w, err, sizeof err) != 0;
        if (h.bytes > most)
            most = h.bytes;
    }
    check(!bad);
    check_int(h.end, ==, N);
    check_int(most, <=, h.max_bytes);
    check_int(h.n, <=, h.cap);
    /* Every stretch between two spread snapshots: short, or merged when
     * it was among the cheapest, so no dearer than 2T/(C-2). */
    double total = 0;
    for (int i = 1; i < h.n; i++)
        total += h.coarse[i].cost;
    /* (cap - 4: a merge for bytes may come a snapshot or two early) */
    double bound = 2 * total / (h.cap - 4);
    int over = 0;
    long k = 0;
    for (int i = 1; i < h.n; i++) {
        long ticks = h.coarse[i].w.tick - h.coarse[i - 1].w.tick;
        over += ticks > HISTORY_BASE && h.coarse[i].cost > bound + 1e-12;
        if (ticks > k)
            k = ticks;
    }
    check_int(over, ==, 0);
    k = k > N - h.coarse[h.n - 1].w.tick ? k : N - h.coarse[h.n - 1].w.tick;
    long worst = 0;
    for (long t = 0; t <= N; t++) {
        long b = history_base(&h, t);
        if (b < 0 || t - b > worst)
            worst = b < 0 ? N + 1 : t - b;
    }
    tap_note("after %ld ticks (%.3f s of computing): %d snapshots, %zu bytes (bound %zu); "
             "the longest stretch %ld ticks, the farthest tick %ld past a snapshot, "
             "no stretch dearer than %.4f s", N, total, h.n + h.nrecent, h.bytes,
             h.max_bytes, k, worst, bound);
    check_int(worst, <=, k);
    /* A map evenly costly: the stretches are even too (at most about
     * 4N/C ticks). */
    check_int(k, <=, 4 * N / (h.cap - 2));
    /* Back and forth, from far and near: exact, and never more than K
     * ticks recomputed. */
    static const long go[] = { 0, N, N / 2 + 1, 17, N - 1, 1, N / 3, N / 3 - 1, N / 3 + 7, N };
    struct history_hooks hk = { NULL, count_step, NULL, NULL };
    for (size_t i = 0; i < sizeof go / sizeof go[0]; i++) {
        steps = 0;
        long blocked = -1;
        check_int(history_goto(&h, &w, go[i], &hk, &blocked), ==, 0);
        check_int(w.tick, ==, go[i]);
        check(state_hash(&w) == ref[go[i]]);
        check_int(steps, <=, k);
    }
    /* Step back tick by tick near a place: the recent snapshots keep each
     * step short. */
    long most_steps = 0, all_steps = 0, nback = 0;
    for (long t = N / 3 + 6; t > N / 3 - 200; t--, nback++) {
        steps = 0;
        check_int(history_back(&h, &w, t, &hk, NULL), ==, 0);
        all_steps += steps;
        if (steps > most_steps)
            most_steps = steps;
        if (state_hash(&w) != ref[t]) {
            check(!"a step back differs from the first run");
            break;
        }
    }
    tap_note("stepping back one tick at a time recomputed at most %ld ticks, %.1f on "
             "average", most_steps, (double)all_steps / nback);
    check_int(most_steps, <=, k);
    check_int(all_steps, <=, nback * HISTORY_FINE);
    check_int(history_goto(&h, &w, N + 1, &hk, NULL), ==, 1);
    check_int(history_goto(&h, &w, -1, &hk, NULL), ==, 1);

    /* A script changed at tick 100: the rest is forgotten. */
    check_int(history_goto(&h, &w, 100, &hk, NULL), ==, 0);
    history_cut(&h, 100);
    check_int(h.end, ==, 100);
    check_int(history_base(&h, 101), <=, 100);
    history_free(&h);
    free(ref);
    world_free(&w);
}

static void huge_map_bound(void)
{
    struct world w;
    if (fixture_load_map("crowd.ini", &w))
        exit(99);        /* no world, nothing to test: a hard error */
    struct history h;
    /* Room for less than one snapshot: tick 0, one spread, one recent. */
    check_int(history_init_bytes(&h, &w, NULL, 1), ==, 0);
    char err[256];
    int most = 0;
    for (long t = 1; t <= 1000; t++) {
        tick_step(&w);
        history_note(&h, &w, err, sizeof err);
        if (h.n + h.nrecent > most)
            most = h.n + h.nrecent;
    }
    check_int(most, <=, 3);
    check_int(history_base(&h, 1000), >=, 0);
    long blocked;
    check_int(history_goto(&h, &w, 3, NULL, &blocked), ==, 0);
    check_int(w.tick, ==, 3);
    history_free(&h);
    world_free(&w);
}

static void event_index(void)
{
    struct world w;
    if (fixture_load_map("default.ini", &w))
        exit(99);        /* no world, nothing to test: a hard error */
    struct history h;
    check_int(history_init(&h, &w, NULL), ==, 0);
    char err[256];
    long want[4096];
    int nwant = 0;
    for (long t = 1; t <= 3000; t++) {
        tick_step(&w);
        int any = 0;
        for (size_t i = 0; i < w.now.events.n; i++) {
            enum event_kind k = w.now.events.p[i].kind;
            any |= k == EV_SHOT || k == EV_HIT || k == EV_KNOCKOUT || k == EV_COLLISION
                || k == EV_LAP;
        }
        if (any && nwant < 4096)
            want[nwant++] = t;
        history_note(&h, &w, err, sizeof err);
    }
    check_int(nwant, >, 3);
    check_int(h.events.n, ==, nwant);
    int same = 1;
    for (int i = 0; i < nwant && i < (int)h.events.n; i++)
        same &= h.events.p[i].tick == want[i];
    check(same);
    check_int(event_index_next(&h.events, 0, 1), ==, want[0]);
    check_int(event_index_next(&h.events, want[1], 1), ==, want[2]);
    check_int(event_index_next(&h.events, want[2], -1), ==, want[1]);
    check_int(event_index_next(&h.events, want[0], -1), ==, -1);
    check_int(event_index_next(&h.events, want[nwant - 1], 1), ==, -1);
    /* Replayed ticks add nothing. */
    check_int(history_goto(&h, &w, want[1], NULL, NULL), ==, 0);
    check_int(history_goto(&h, &w, 3000, NULL, NULL), ==, 0);
    check_int(h.events.n, ==, nwant);
    history_free(&h);
    world_free(&w);
}

int main(void)
{
    tap_run(spacing_and_exactness, "spacing, bytes and exactness (crowd.ini)");
    tap_run(huge_map_bound, "a map too big for the room: three snapshots at most");
    tap_run(event_index, "the event index (default.ini)");
    return tap_done();
}
