/* replay_check.c — hashes of computed ticks, to notice a replay that
 * differs (see replay_check.h). */
#include "config.h"

#include <string.h>
#include <xxhash.h>

#include "replay_check.h"
#include "../core/state_hash.h"
#include "../core/world.h"
#include "../bot/bot_world.h"

void replay_check_reset(struct replay_check *c)
{
    c->first = 0;
    c->newest = -1;
}

/* Chained: each piece is hashed with the hash so far as its seed.  Fields
 * one by one, never whole structs, so padding bytes never count. */
static uint64_t mix(uint64_t h, const void *p, size_t n)
{
    return XXH3_64bits_withSeed(p, n, h);
}

uint64_t replay_check_hash(const struct world *w, const struct bot_world *bw)
{
    /* The whole state (the core's hash: recordings check the same), then
     * what the bots said. */
    uint64_t h = state_hash(w);
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        /* What a bot said this tick: a counter kept in a global shows up
         * in its log even when it does not steer by it.  (A wreck's bot
         * did not run: its report is the last one it gave.) */
        const struct bot_report *r = v->alive ? bot_world_report(bw, (int)i) : NULL;
        if (!r)
            continue;
        for (int k = 0; k < r->n_log; k++)
            h = mix(h, r->log[k], strlen(r->log[k]));
        h = mix(h, r->error, strlen(r->error));
    }
    return h;
}

int replay_check_note(struct replay_check *c, const struct world *w,
                      const struct bot_world *bw)
{
    long t = w->tick;
    uint64_t h = replay_check_hash(w, bw);
    size_t slot = (size_t)(t % REPLAY_CHECK_TICKS);
    if (c->newest >= c->first && t >= c->first && t <= c->newest
        && t > c->newest - REPLAY_CHECK_TICKS)
        /* Keep the first computed: every later replay compares with it. */
        return c->h[slot] != h;
    if (t == c->newest + 1 && c->newest >= c->first) {
        c->h[slot] = h;
        c->newest = t;
        if (c->newest - c->first >= REPLAY_CHECK_TICKS)
            c->first = c->newest - REPLAY_CHECK_TICKS + 1;
        return 0;
    }
    if (t > c->newest) {
        /* A gap (the first tick held, or after a reset): start anew. */
        c->first = c->newest = t;
        c->h[slot] = h;
    }
    /* Older than what is held: nothing to compare with. */
    return 0;
}
