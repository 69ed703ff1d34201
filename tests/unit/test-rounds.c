/* test-rounds — a match of several rounds stepped through the session
 * (src/run/session.c) with a Lua bot that counts the rounds in its mem,
 * and the viewer's history (src/run/history.c) going back and forth
 * across the rounds' starts: every tick reached by a step back or a seek
 * has the state and the bots' hash it had when first computed, and the
 * round, its start and the rounds won come back with it. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "../lib/map-fixture.h"
#include "bot/bot_world.h"
#include "core/round.h"
#include "core/state_hash.h"
#include "core/world.h"
#include "io/map.h"
#include "run/history.h"
#include "run/session.h"

static const char map[] =
    "[map]\nwidth = 800\nheight = 600\nseed = 5\nduration = 1\n"
    "[match]\nrounds = 3\n"
    "[tree.1]\nx = 400\ny = 300\nr = 20\n"
    "[team.red]\nrandom = 2\n[team.blue]\nrandom = 2\n"
    "[tank.r]\nteam = red\nx = 100\ny = 300\nbot = count.lua\n";

static const char script[] =
    "function tick(me, w, mem, out)\n"
    "  if mem.seen ~= w.round then mem.seen = w.round; mem.n = (mem.n or 0) + 1 end\n"
    "  out.turn = mem.n * 10\n"
    "end\n";

static struct session sess;

static int step(void *ctx)
{
    (void)ctx;
    return session_step(&sess) != SESSION_STEPPED;
}

static uint64_t hash_all(struct world *w, struct bot_world *bw)
{
    return bot_world_hash(bw, state_hash(w));
}

static char dir[] = "/tmp/test-rounds-XXXXXX";

TEST(rounds_back_and_forth)
{
    char path[128];
    snprintf(path, sizeof path, "%s/count.lua", dir);
    FILE *f = fopen(path, "w");
    if (!f || fputs(script, f) < 0 || fclose(f))
        exit(99);

    struct world w;
    struct bot_world *bw = NULL;
    char *err = NULL;
    if (fixture_load_text("rounds.ini", map, &w) || bot_world_attach(&w, dir, &bw, &err)) {
        tap_note("load: %s", err ? err : "the map");
        exit(99);
    }
    check_int(w.rounds, ==, 3);
    check(w.round_text != NULL);
    session_init(&sess, &w, &bw);
    struct history h;
    check_int(history_init(&h, &w, bw), ==, 0);

    /* The whole match once, each tick's hashes kept. */
    enum { N = 3 * 60 };
    static uint64_t ref[N + 1];
    static int round_of[N + 1];
    ref[0] = hash_all(&w, bw);
    round_of[0] = 1;
    char why[256];
    while (!round_match_over(&w) && w.tick < N) {
        check_int(session_step(&sess), ==, SESSION_STEPPED);
        check_int(history_note(&h, &w, why, sizeof why), ==, 0);
        ref[w.tick] = hash_all(&w, bw);
        round_of[w.tick] = w.round;
    }
    check_int(w.tick, ==, N);
    check_int(w.round, ==, 3);
    check_int((long)w.round_winners.n, ==, 2);
    check_int(round_of[60], ==, 1);
    check_int(round_of[61], ==, 2);
    check_int(round_of[121], ==, 3);

    /* Back and forth across the rounds' starts: the same states. */
    static const long go[] = { 30, 61, 60, 150, 1, 121, 120, 179, 59, 180, 62 };
    struct history_hooks hk = { NULL, NULL, NULL, step };
    for (size_t i = 0; i < sizeof go / sizeof go[0]; i++) {
        long blocked = -1;
        check_int(history_goto(&h, &w, go[i], &hk, &blocked), ==, 0);
        check_int(w.tick, ==, go[i]);
        check_int(w.round, ==, round_of[go[i]]);
        check_int((long)w.round_winners.n, ==, round_of[go[i]] - 1);
        check(hash_all(&w, bw) == ref[go[i]]);
    }

    history_free(&h);
    session_free(&sess);
    bot_world_free(&w, bw);
    world_free(&w);
    unlink(path);
}

/* The trees and their grid, hashed (FNV-1a over their bytes). */
static uint64_t trees_hash(const struct world *w)
{
    uint64_t h = 1469598103934665603ull;
    const unsigned char *b = (const unsigned char *)w->trees.p;
    for (size_t i = 0; i < w->trees.n * sizeof *w->trees.p; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    const struct tree_grid *g = &w->tree_grid;
    size_t cells = (size_t)g->nx * (size_t)g->ny;
    for (size_t i = 0; g->start && i <= cells; i++)
        h = (h ^ (uint64_t)g->start[i]) * 1099511628211ull;
    for (int i = 0; g->start && i < g->start[cells]; i++)
        h = (h ^ (uint64_t)g->items[i]) * 1099511628211ull;
    return h;
}

static const char forest[] =
    "[map]\nwidth = 800\nheight = 500\nseed = 5\nduration = 1\n"
    "[match]\nrounds = 3\n"
    "[trees]\nrandom = 40\nmin_radius = 10\nmax_radius = 25\n"
    "[team.red]\nrandom = 4\n[team.blue]\nrandom = 4\n";

TEST(rounds_random_trees)
{
    struct world w;
    struct bot_world *bw = NULL;
    if (fixture_load_text("forest.ini", forest, &w))
        exit(99);
    session_init(&sess, &w, &bw);
    struct history h;
    check_int(history_init(&h, &w, bw), ==, 0);
    enum { N = 3 * 60 };
    static uint64_t trees[N + 1], ref[N + 1];
    trees[0] = trees_hash(&w);
    ref[0] = state_hash(&w);
    char why[256];
    while (!round_match_over(&w) && w.tick < N) {
        check_int(session_step(&sess), ==, SESSION_STEPPED);
        check_int(history_note(&h, &w, why, sizeof why), ==, 0);
        trees[w.tick] = trees_hash(&w);
        ref[w.tick] = state_hash(&w);
    }
    check_int(w.tick, ==, N);
    check(trees[60] == trees[0]);
    check(trees[61] != trees[60]);          /* round 2 drew its own */
    check(trees[121] != trees[61]);
    /* round 2's trees are those of the map loaded with seed 6 */
    struct world six;
    struct map_options opt = { .has_seed = 1, .seed = 6 };
    struct map_error err = { NULL, 0 };
    check_int(map_load_text("forest.ini", forest, sizeof forest - 1, &opt, &six, &err), ==, 0);
    check(trees_hash(&six) == trees[61]);
    world_free(&six);
    map_error_free(&err);

    /* Seeking back from round 2 into round 1 (and on): each tick's trees. */
    static const long go[] = { 150, 30, 61, 60, 1, 121, 120, 179, 59, 90 };
    struct history_hooks hk = { NULL, NULL, NULL, step };
    for (size_t i = 0; i < sizeof go / sizeof go[0]; i++) {
        long blocked = -1;
        check_int(history_goto(&h, &w, go[i], &hk, &blocked), ==, 0);
        check_int(w.tick, ==, go[i]);
        check(trees_hash(&w) == trees[go[i]]);
        check(state_hash(&w) == ref[go[i]]);
    }
    history_free(&h);
    session_free(&sess);
    world_free(&w);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 99;
    run(rounds_back_and_forth, "a 3-round match with a bot: stepping back and seeking "
        "across the rounds' starts gives each tick's state, bots and round again");
    run(rounds_random_trees, "a 3-round match of random trees: each round has its seed's "
        "trees, and a seek back across a round's start has that round's trees again");
    rmdir(dir);
    return tap_done();
}
