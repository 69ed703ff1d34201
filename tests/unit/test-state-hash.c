/* The state hash (src/core/state_hash.c, bot_world_hash): equal for two
 * worlds loaded from the same map, different when any one part of the
 * state a tick reads changes, and the bots' mem counted. */
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "../lib/map-fixture.h"
#include "bot/bot_world.h"
#include "core/state_hash.h"
#include "core/tick.h"
#include "core/world.h"
#include "io/map.h"

static const char map[] =
    "[map]\nname = h\nwidth = 800\nheight = 600\nseed = 3\n"
    "[trees]\nrandom = 10\n"
    "[team.red]\n[team.blue]\n"
    "[tank.a]\nteam = red\nx = 100\ny = 300\n"
    "[tank.b]\nteam = blue\nx = 700\ny = 300\nheading = 180\n"
    "[turret.t]\nteam = red\nx = 400\ny = 100\n"
    "[track]\nlaps = 2\n"
    "[waypoint.1]\nx = 100\ny = 100\nr = 20\n[waypoint.2]\nx = 700\ny = 500\nr = 20\n"
    "[car.c]\nx = 300\ny = 500\n";

static void load(struct world *w)
{
    int rc = fixture_load_text("h.ini", map, w);
    check_int(rc, ==, 0);
    if (rc) {
        printf("Bail out! the test map does not load\n");
        exit(1);
    }
}

TEST(same_map_same_hash)
{
    struct world a, b;
    load(&a);
    load(&b);
    check(state_hash(&a) == state_hash(&b));
    for (int i = 0; i < 200; i++) {
        tick_step(&a);
        tick_step(&b);
    }
    check(state_hash(&a) == state_hash(&b));
    uint64_t h = state_hash(&a);
    tick_step(&a);
    check(state_hash(&a) != h);
    world_free(&a);
    world_free(&b);
}

/* Each change on a fresh copy of a stepped world must move the hash. */
#define CHANGED(what, ...)                                              \
    do {                                                                \
        struct world w;                                                 \
        load(&w);                                                       \
        for (int i = 0; i < 30; i++)                                    \
            tick_step(&w);                                              \
        uint64_t before = state_hash(&w);                               \
        check(state_hash(&w) == before);                                \
        __VA_ARGS__;                                                         \
        if (!check(state_hash(&w) != before))                           \
            tap_note("the hash missed a change of %s", what);           \
        world_free(&w);                                                 \
    } while (0)

TEST(every_part_counts)
{
    CHANGED("tick", w.tick++);
    CHANGED("position", w.vehicles.p[0].pos.x += 1e-9);
    CHANGED("direction", w.vehicles.p[0].dir.y += 1e-12);
    CHANGED("heading", w.vehicles.p[1].heading += 1e-9);
    CHANGED("speed", w.vehicles.p[1].speed += 1);
    CHANGED("turret", w.vehicles.p[2].turret += 0.1);
    CHANGED("health", w.vehicles.p[0].health++);
    CHANGED("alive", w.vehicles.p[1].alive = 0);
    CHANGED("rng", w.vehicles.p[0].rng.state++);
    CHANGED("wander", w.vehicles.p[0].wander.turn_left += 0.5);
    CHANGED("gun reload", w.vehicles.p[0].gun.reload_left += 0.5);
    CHANGED("gun target", w.vehicles.p[2].gun.target = 3);
    CHANGED("avoid plan", w.vehicles.p[0].avoid.plan_k = 2);
    CHANGED("avoid held", w.vehicles.p[0].avoid.held ^= 1);
    CHANGED("params", world_params_mut(&w, 0)->turn_rate += 0.01);
    CHANGED("racer", w.racers.p[0].race.next ^= 1);
    CHANGED("laps", w.racers.p[0].race.laps++);
    CHANGED("player input", w.player.in.turn += 1);
    CHANGED("score damage", w.vehicles.p[0].score.damage++);
    CHANGED("score kills", w.vehicles.p[1].score.kills++);
    CHANGED("score survival", w.vehicles.p[0].score.survival = 2);
    CHANGED("score last", w.vehicles.p[2].score.last = 3);
    CHANGED("shell", {
        struct shell s = { .id = 1, .pos = { 1, 2 }, .vel = { 3, 4 }, .start = { 1, 2 }, .range = 800,
                           .shooter = 0, .target = 1, .alive = 1, .hit = -1, .miss = -1 };
        WORLD_RESERVE(w.shells, w.shells.n + 1);
        w.shells.p[w.shells.n++] = s;
    });
    CHANGED("overlaps", {
        WORLD_RESERVE(w.overlaps, w.overlaps.n + 1);
        w.overlaps.p[w.overlaps.n++] = (uint64_t)0 << 32 | 1;
    });
    CHANGED("collisions", w.stats.collisions++);
    CHANGED("shots", w.stats.shots++);
    CHANGED("hits", w.stats.hits++);
    CHANGED("team alive", w.teams.p[1].alive--);
    CHANGED("ended", w.ended = 1);
    CHANGED("winner", w.winner = 1);
}

/* A snapshot restored gives back the hash it had. */
TEST(snapshot_round_trip)
{
    struct world w;
    load(&w);
    for (int i = 0; i < 50; i++)
        tick_step(&w);
    struct world_snapshot s;
    check_int(world_snapshot_save(&w, &s), ==, 0);
    uint64_t h = state_hash(&w);
    for (int i = 0; i < 50; i++)
        tick_step(&w);
    check(state_hash(&w) != h);
    check_int(world_snapshot_restore(&w, &s), ==, 0);
    check(state_hash(&w) == h);
    world_snapshot_free(&s);
    world_free(&w);
}

/* The bots' mem: a bot that counts in mem changes the hash, a bot that
 * keeps nothing does not, and two runs agree. */
static const char bot_map[] =
    "[map]\nname = b\nwidth = 800\nheight = 600\n"
    "[team.red]\n[team.blue]\n"
    "[tank.a]\nteam = red\nx = 100\ny = 300\nbot = count.lua\n"
    "[tank.b]\nteam = blue\nx = 700\ny = 300\n";

static const char *const paths[] = { "count.lua" };

static int load_bots(struct world *w, struct bot_world **bw, const char *script)
{
    if (fixture_load_text("b.ini", bot_map, w))
        return -1;
    const char *texts[] = { script };
    struct bot_texts src = { 1, paths, texts };
    char *err = NULL;
    int rc = bot_world_attach_texts(w, &src, bw, &err);
    if (rc)
        tap_note("%s", err ? err : "?");
    free(err);
    return rc;
}

TEST(bots_mem_counts)
{
    static const char counter[] =
        "function tick(me, world, mem, out) mem.n = (mem.n or 0) + 1 end\n";
    struct world a, b;
    struct bot_world *ba = NULL, *bb = NULL;
    check_int(load_bots(&a, &ba, counter), ==, 0);
    check_int(load_bots(&b, &bb, counter), ==, 0);
    tick_step(&a);
    tick_step(&b);
    uint64_t core = state_hash(&a);
    check(bot_world_hash(ba, core) != core);
    check(bot_world_hash(ba, core) == bot_world_hash(bb, state_hash(&b)));
    check(bot_world_hash(NULL, core) == core);
    /* one more tick of mem alone: the core's hash would move anyway, so
     * compare the bots' part from the same seed */
    uint64_t h1 = bot_world_hash(ba, 42);
    tick_step(&a);
    check(bot_world_hash(ba, 42) != h1);
    /* the same text reloaded keeps mem: the hash is unchanged */
    char *err = NULL;
    check_int(bot_world_reload_text(ba, &a, "count.lua", counter, &err), ==, 0);
    free(err);
    bot_world_free(&a, ba);
    bot_world_free(&b, bb);
    world_free(&a);
    world_free(&b);
}

TEST(missing_text_is_an_error)
{
    struct world w;
    struct map_options o = { 0, 0, 0, NULL, 0 };
    struct map_error e = { NULL, 0 };
    check_int(map_load_text("b.ini", bot_map, strlen(bot_map), &o, &w, &e), ==, 0);
    const char *p[] = { "other.lua" }, *t[] = { "function tick() end" };
    struct bot_texts src = { 1, p, t };
    struct bot_world *bw = NULL;
    char *err = NULL;
    check_int(bot_world_attach_texts(&w, &src, &bw, &err), ==, -1);
    check(err && strstr(err, "count.lua") && strstr(err, "no bot_source"));
    free(err);
    world_free(&w);
}

int main(void)
{
    run(same_map_same_hash, "two worlds from one map hash alike, tick by tick");
    run(every_part_counts, "a change to any part of the state changes the hash");
    run(snapshot_round_trip, "a restored snapshot has its hash back");
    run(bots_mem_counts, "the bots' mem is in bot_world_hash");
    run(missing_text_is_an_error, "a bot without its embedded script is an error");
    return tap_done();
}
