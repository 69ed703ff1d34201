/* The world and the tick (src/core/world.c, tick.c): movement, the map
 * edge, collisions counted once, snapshots that restore exactly, and
 * determinism. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/rng.h"

#include "../lib/tap.h"
#include "core/state_hash.h"
#include "core/tick.h"
#include "core/world.h"

static int add_tank(struct world *w, const char *id, vec2 pos, double heading,
                    enum drive b, double speed)
{
    struct vehicle_params p;
    world_default_params(&p, VK_TANK);
    p.drive = b;
    p.speed = speed;
    p.avoid = AVOID_NONE;
    return world_add_vehicle(w, id, VK_TANK, -1, &p, pos, heading);
}

TEST(straight_moves_speed_dt)
{
    struct world w;
    world_init(&w, 1000, 1000);
    add_tank(&w, "tank.a", v2(100, 500), 0, DRIVE_STRAIGHT, 60);
    add_tank(&w, "tank.b", v2(500, 100), M_PI / 2, DRIVE_STRAIGHT, 30);
    add_tank(&w, "tank.c", v2(800, 800), 1, DRIVE_HOLD, 60);
    check_int(world_finish(&w), ==, 0);
    world_moved(&w);
    for (int i = 0; i < 60; i++)
        tick_step(&w);
    check_int(w.tick, ==, 60);
    check_near(w.vehicles.p[0].pos.x, 160, 1e-9);
    check_near(w.vehicles.p[0].pos.y, 500, 1e-9);
    check_near(w.vehicles.p[1].pos.y, 130, 1e-9);
    check_near(w.vehicles.p[2].pos.x, 800, 0);
    check_num(w.vehicles.p[2].speed, ==, 0);
    world_free(&w);
}

TEST(edge_holds_and_counts)
{
    struct world w;
    world_init(&w, 300, 300);
    add_tank(&w, "tank.a", v2(250, 150), 0, DRIVE_STRAIGHT, 60);
    check_int(world_finish(&w), ==, 0);
    world_moved(&w);
    for (int i = 0; i < 120; i++)
        tick_step(&w);
    /* 30 units to go at 1 unit a tick: touches from tick 30 on. */
    check_near(w.vehicles.p[0].pos.x, 280, 1e-9);
    check_int(w.stats.edge_hits, ==, 91);
    world_free(&w);
}

TEST(wanderers_never_leave)
{
    struct world w;
    world_init(&w, 600, 400);
    w.seed = 9;
    char id[32];
    for (int i = 0; i < 30; i++) {
        snprintf(id, sizeof id, "tank.%d", i);
        add_tank(&w, id, v2(40 + (i % 6) * 100, 40 + (i / 6) * 80), i, DRIVE_WANDER, 60 + i * 3);
    }
    check_int(world_finish(&w), ==, 0);
    world_moved(&w);
    int outside = 0;
    double turned = 0;
    for (int t = 0; t < 60 * 120; t++) {
        double before[30];
        for (int i = 0; i < 30; i++)
            before[i] = w.vehicles.p[i].heading;
        tick_step(&w);
        for (int i = 0; i < 30; i++) {
            const struct vehicle *v = &w.vehicles.p[i];
            outside += v->pos.x < v->p->radius || v->pos.x > 600 - v->p->radius
                    || v->pos.y < v->p->radius || v->pos.y > 400 - v->p->radius;
            turned += fabs(angle_norm(v->heading - before[i]));
        }
    }
    check_int(outside, ==, 0);
    check_num(turned, >, 30 * 2 * M_PI);     /* they do wander */
    world_free(&w);
}

TEST(collision_counted_once)
{
    struct world w;
    world_init(&w, 1000, 1000);
    add_tank(&w, "tank.a", v2(400, 500), 0, DRIVE_STRAIGHT, 60);
    add_tank(&w, "tank.b", v2(600, 500), M_PI, DRIVE_STRAIGHT, 60);
    check_int(world_finish(&w), ==, 0);
    world_moved(&w);
    int events = 0;
    long first = -1;
    for (int t = 0; t < 240; t++) {
        tick_step(&w);
        for (size_t k = 0; k < w.now.events.n; k++)
            if (w.now.events.p[k].kind == EV_COLLISION) {
                events++;
                if (first < 0)
                    first = w.tick;
                check_num(w.now.events.p[k].u.collision.distance, <, 40);
            }
    }
    /* They close 2 units a tick from 200 apart: overlap (< 40) at tick 81. */
    check_int(events, ==, 1);
    check_int(first, ==, 81);
    check_int(w.stats.collisions, ==, 1);
    check_num(w.stats.min_separation, <, -39);
    world_free(&w);
}

static void run_ticks(struct world *w, int n)
{
    for (int i = 0; i < n; i++)
        tick_step(w);
}

TEST(snapshot_restores_exactly)
{
    struct world w;
    world_init(&w, 800, 600);
    char id[32];
    for (int i = 0; i < 20; i++) {
        snprintf(id, sizeof id, "tank.%d", i);
        add_tank(&w, id, v2(50 + (i % 5) * 150, 50 + (i / 5) * 130), i, DRIVE_WANDER, 60);
    }
    world_finish(&w);
    world_moved(&w);
    run_ticks(&w, 100);
    struct world_snapshot s;
    check_int(world_snapshot_save(&w, &s), ==, 0);
    run_ticks(&w, 300);
    struct vehicle *after = malloc(w.vehicles.n * sizeof *after);
    memcpy(after, w.vehicles.p, w.vehicles.n * sizeof *after);
    long coll = w.stats.collisions;
    check_int(world_snapshot_restore(&w, &s), ==, 0);
    check_int(w.tick, ==, 100);
    world_moved(&w);
    run_ticks(&w, 300);
    int same = 1;
    for (size_t i = 0; i < w.vehicles.n; i++)
        same &= memcmp(&w.vehicles.p[i].pos, &after[i].pos, sizeof(vec2)) == 0
             && w.vehicles.p[i].heading == after[i].heading;
    check(same);
    check_int(w.stats.collisions, ==, coll);
    free(after);
    world_snapshot_free(&s);
    world_free(&w);
}

/* Ids live in the world's pool: many of them fill several chunks, one
 * longer than a chunk gets its own, and none moves as more are added. */
TEST(ids_pooled_and_stable)
{
    struct world w;
    world_init(&w, 100000, 100000);
    enum { N = 20000 };
    static const char *first[N];
    char id[32];
    for (int i = 0; i < N; i++) {
        snprintf(id, sizeof id, "tank.%d", i);
        check_int(add_tank(&w, id, v2(50 + (i % 100) * 100, 50 + (i / 100) * 100), 0,
                           DRIVE_HOLD, 0), ==, i);
        first[i] = w.vehicles.p[i].id;
    }
    size_t big = 100000;
    char *lid = malloc(big + 1);
    memset(lid, 'x', big);
    lid[big] = 0;
    check_int(add_tank(&w, lid, v2(5, 5), 0, DRIVE_HOLD, 0), ==, N);
    check_str(w.vehicles.p[N].id, lid);
    check_int(add_tank(&w, "tank.last", v2(7, 7), 0, DRIVE_HOLD, 0), ==, N + 1);
    int same = 1;
    for (int i = 0; i < N; i++) {
        snprintf(id, sizeof id, "tank.%d", i);
        same &= w.vehicles.p[i].id == first[i] && strcmp(first[i], id) == 0;
    }
    check(same);
    check_int(world_find_vehicle(&w, "tank.12345"), ==, 12345);
    check_int(world_find_vehicle(&w, "tank.last"), ==, N + 1);
    /* nobody aims before the first tick */
    check(world_aim(&w, &w.vehicles.p[0]) == NULL);
    free(lid);
    world_free(&w);
}

/* A crowd that never sees anyone decides and acts in one pass (act.c);
 * the same crowd stepped in two passes must give the same bits, tick by
 * tick, and the same grid. */
static void crowd(struct world *w, int unfused)
{
    world_init(w, 2000, 2000);
    w->seed = 7;
    struct rng r;
    rng_seed(&r, 7, 1);
    for (int i = 0; i < 400; i++) {
        char id[24];
        snprintf(id, sizeof id, "tank.%d", i);
        struct vehicle_params p;
        world_default_params(&p, VK_TANK);
        p.drive = DRIVE_WANDER;
        p.avoid = i % 3 ? AVOID_CLASSIC : AVOID_PREDICTIVE;
        world_add_vehicle(w, id, VK_TANK, -1, &p,
                          v2(rng_range(&r, 50, 1950), rng_range(&r, 50, 1950)),
                          rng_range(&r, -M_PI, M_PI));
    }
    world_finish(w);
    check_int(tick_set_options(w, &(struct tick_options){ .unfused = unfused }), ==, 0);
}

TEST(fused_pass_equals_two_passes)
{
    struct world a, b;
    crowd(&a, 0);
    crowd(&b, 1);
    int differ = 0, fused = 0, kept = 0;
    for (int t = 0; t < 600; t++) {
        tick_step(&a);
        tick_step(&b);
        fused += tick_decision(&a, 0) == NULL;
        kept += tick_decision(&b, 0) != NULL;
        for (size_t i = 0; i < a.vehicles.n; i++) {
            const struct vehicle *u = &a.vehicles.p[i], *v = &b.vehicles.p[i];
            differ += memcmp(&u->pos, &v->pos, sizeof u->pos) != 0
                   || memcmp(&u->heading, &v->heading, sizeof u->heading) != 0
                   || memcmp(&u->speed, &v->speed, sizeof u->speed) != 0
                   || memcmp(&u->rng, &v->rng, sizeof u->rng) != 0
                   || u->avoid.threat != v->avoid.threat;
        }
        differ += a.scratch.vgrid.n != b.scratch.vgrid.n || a.stats.collisions != b.stats.collisions;
        for (int k = 0; k < a.scratch.vgrid.n && k < b.scratch.vgrid.n; k++)
            differ += a.scratch.vgrid.items[k].index != b.scratch.vgrid.items[k].index
                   || memcmp(&a.scratch.vgrid.items[k].pos, &b.scratch.vgrid.items[k].pos,
                             sizeof a.scratch.vgrid.items[k].pos) != 0;
    }
    check_int(fused, ==, 600);      /* the crowd took the fused pass */
    check_int(kept, ==, 600);       /* and the oracle the two passes */
    check_int(differ, ==, 0);
    check_int(a.stats.collisions, >, 0);    /* a crowd that meets */
    world_free(&a);
    world_free(&b);
}

/* The sanitizer build's guard (BOTFIELD_CHECK_FUSED): a decision that
 * reads a vehicle the fused pass already moved stops the program. */
#ifdef BOTFIELD_CHECK_FUSED
TEST(fused_guard_catches_a_misread)
{
    struct world w;
    crowd(&w, 0);
    pid_t pid = fork();
    if (pid == 0) {
        struct tick_ctx *c = tick_ready(&w);
        if (!c)
            _exit(4);
        c->acted = 10;
        const struct vehicle *v = world_vehicle(&w, 3);
        _exit(v != NULL ? 0 : 3);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    check(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
    world_free(&w);
}
#endif

/* A radar turns clockwise (+) at radar_rate a tick for the built-in
 * behaviours, the cone follows it; a hull sensor's radar never moves, and a
 * turret's default sensor is its gun. */
TEST(radar_turns_at_its_rate)
{
    struct world w;
    world_init(&w, 1000, 1000);
    struct vehicle_params p;
    world_default_params(&p, VK_TANK);
    p.drive = DRIVE_HOLD;
    p.avoid = AVOID_NONE;
    p.sensor = SENSOR_RADAR;
    p.radar_rate = deg2rad(90);
    check_int(world_add_vehicle(&w, "tank.r", VK_TANK, -1, &p, v2(300, 300), 0.5), ==, 0);
    check_int(add_tank(&w, "tank.h", v2(700, 700), 0.5, DRIVE_HOLD, 0), ==, 1);
    world_default_params(&p, VK_TURRET);
    check_int(p.sensor, ==, SENSOR_TURRET);
    check_int(world_add_vehicle(&w, "turret.t", VK_TURRET, -1, &p, v2(500, 100), 0), ==, 2);
    check_int(world_finish(&w), ==, 0);
    const struct vehicle *r = &w.vehicles.p[0], *h = &w.vehicles.p[1];
    check_near(r->radar, 0.5, 0);
    for (int i = 0; i < 30; i++)
        tick_step(&w);
    /* half a second at 90 deg/s: 45 degrees clockwise */
    check_near(r->radar, 0.5 + deg2rad(45), 1e-12);
    check_near(r->heading, 0.5, 0);
    check_near(vehicle_sensor_angle(r), r->radar, 0);
    check_near(vehicle_sensor_dir(r).x, cos(r->radar), 1e-15);
    check_near(vehicle_sensor_dir(r).y, sin(r->radar), 1e-15);
    check_near(h->radar, 0.5, 0);
    check_near(vehicle_sensor_angle(h), h->heading, 0);
    struct vehicle *t = &w.vehicles.p[2];
    t->turret = 1.25;
    check_near(vehicle_sensor_angle(t), 1.25, 0);
    check_near(vehicle_sensor_dir(t).y, sin(1.25), 1e-15);
    /* the radar is state: a snapshot restores it, and it is hashed */
    struct world_snapshot s;
    check_int(world_snapshot_save(&w, &s), ==, 0);
    for (int i = 0; i < 7; i++)
        tick_step(&w);
    check(r->radar != s.vehicles[0].radar);
    check_int(world_snapshot_restore(&w, &s), ==, 0);
    r = &w.vehicles.p[0];
    check_near(r->radar, 0.5 + deg2rad(45), 1e-12);
    world_snapshot_free(&s);
    uint64_t h0 = state_hash(&w);
    w.vehicles.p[1].radar += 0.25;
    check(state_hash(&w) != h0);
    world_free(&w);
}

int main(void)
{
    run(straight_moves_speed_dt, "straight and hold tanks move speed x dt a tick");
    run(edge_holds_and_counts, "the edge holds a tank and counts the ticks it touches");
    run(wanderers_never_leave, "wandering tanks never leave the map in two minutes");
    run(collision_counted_once, "a head-on overlap is one collision event, on the right tick");
    run(snapshot_restores_exactly, "a restored snapshot replays to the same state");
    run(radar_turns_at_its_rate, "a radar turns clockwise at radar_rate, the cone with it");
    run(ids_pooled_and_stable, "ids are pooled, survive growth and are found by name");
    run(fused_pass_equals_two_passes, "the fused decide+act pass gives the bits of two passes");
#ifdef BOTFIELD_CHECK_FUSED
    run(fused_guard_catches_a_misread, "a read of a moved vehicle aborts (BOTFIELD_CHECK_FUSED)");
#else
    tap_skip("a read of a moved vehicle aborts", "built without BOTFIELD_CHECK_FUSED (the sanitizer build has it)");
#endif
    return tap_done();
}
