/* test-avoid.c — collision avoidance: the article's classic decisions on
 * hand-built scenes, predictive encounters run through the tick, the grid
 * walk against the brute-force oracle, and tanks kept on the map. */
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "core/avoid/avoid.h"
#include "core/avoid/ttc.h"
#include "core/aim/aim.h"
#include "core/decide.h"
#include "core/shell_index.h"
#include "core/tick.h"
#include "core/world.h"

static int add_tank(struct world *w, double x, double y, double heading_deg,
                    enum avoid_method m, enum drive b, double speed)
{
    struct vehicle_params p;
    world_default_params(&p, VK_TANK);
    p.avoid = m;
    p.drive = b;
    p.speed = speed;
    char id[32];
    snprintf(id, sizeof id, "tank.%zu", w->vehicles.n + 1);
    if (w->teams.n == 0)
        world_add_team(w, "t", 0);
    int i = world_add_vehicle(w, id, VK_TANK, 0, &p, v2(x, y), deg2rad(heading_deg));
    w->vehicles.p[i].speed = speed;
    return i;
}

static void start(struct world *w)
{
    check_int(world_finish(w), ==, 0);
    world_moved(w);
}

/* Runs only the decide step of tank 0 with the behaviour's intent being
 * "straight on at cruising speed". */
static struct decision D;       /* tank 0's last decision */

static struct vehicle *decide0(struct world *w)
{
    struct vehicle *v = &w->vehicles.p[0];
    struct tick_ctx *c = tick_ready(w);
    decision_start(w, 0, &D);
    D.want.speed = v->p->speed;
    const struct decide_view dv = tick_view(w, c, 0);
    avoid_decide(&dv, 0, &D);
    v->avoid = D.avoid;         /* its record, as act applies it */
    return v;
}

/* ---- classic: the article's decisions ----------------------------------- */

TEST(classic_ahead_left_turns_right)
{
    struct world w;
    world_init(&w, 1000, 1000);
    add_tank(&w, 500, 500, 0, AVOID_CLASSIC, DRIVE_STRAIGHT, 60);
    add_tank(&w, 560, 490, 180, AVOID_NONE, DRIVE_HOLD, 0);  /* y up: left */
    start(&w);
    struct vehicle *v = decide0(&w);
    check_int(v->avoid.threat, ==, 1);
    check_int(v->avoid.turn, ==, 1);
    check_near(D.want.turn, deg2rad(0.5), 1e-12);     /* 30 deg/s, 60 ticks/s */
    check_near(v->avoid.hit_point.x, 500 + v2_dist(v2(500, 500), v2(560, 490)), 1e-9);
    check_near(v->avoid.hit_point.y, 500, 1e-9);
    world_free(&w);
}

TEST(classic_ahead_right_turns_left)
{
    struct world w;
    world_init(&w, 1000, 1000);
    add_tank(&w, 500, 500, 90, AVOID_CLASSIC, DRIVE_STRAIGHT, 60);   /* heading down */
    add_tank(&w, 490, 570, 0, AVOID_NONE, DRIVE_HOLD, 0);  /* heading +y: x- is its right */
    start(&w);
    struct vehicle *v = decide0(&w);
    check_int(v->avoid.threat, ==, 1);
    check_int(v->avoid.turn, ==, -1);
    check_near(D.want.turn, -deg2rad(0.5), 1e-12);
    world_free(&w);
}

TEST(classic_dead_ahead_turns_right)
{
    struct world w;
    world_init(&w, 1000, 1000);
    add_tank(&w, 500, 500, 0, AVOID_CLASSIC, DRIVE_STRAIGHT, 60);
    add_tank(&w, 580, 500, 180, AVOID_CLASSIC, DRIVE_STRAIGHT, 60);
    start(&w);
    struct vehicle *v = decide0(&w);
    check_int(v->avoid.turn, ==, 1);        /* the article's else branch */
    world_free(&w);
}

TEST(classic_turn_scales_with_turn_rate_and_tick_rate)
{
    struct world w;
    world_init(&w, 1000, 1000);
    w.tick_rate = 30;
    add_tank(&w, 500, 500, 0, AVOID_CLASSIC, DRIVE_STRAIGHT, 60);
    world_params_mut(&w, 0)->turn_rate = deg2rad(90);
    add_tank(&w, 560, 490, 180, AVOID_NONE, DRIVE_HOLD, 0);
    start(&w);
    decide0(&w);
    check_near(D.want.turn, deg2rad(3), 1e-12);
    world_free(&w);
}

TEST(classic_ignores_behind_beside_and_out_of_range)
{
    struct world w;
    world_init(&w, 1000, 1000);
    add_tank(&w, 500, 500, 0, AVOID_CLASSIC, DRIVE_STRAIGHT, 60);
    add_tank(&w, 440, 495, 0, AVOID_NONE, DRIVE_HOLD, 0);    /* behind */
    add_tank(&w, 500, 440, 0, AVOID_NONE, DRIVE_HOLD, 0);    /* beside */
    add_tank(&w, 605, 500, 0, AVOID_NONE, DRIVE_HOLD, 0);    /* ahead, 105 > 100 */
    start(&w);
    struct vehicle *v = decide0(&w);
    check_int(v->avoid.threat, ==, -1);
    check_int(v->avoid.turn, ==, 0);
    check_num(D.want.turn, ==, 0);
    check_num(D.want.speed, ==, 60);
    world_free(&w);
}

TEST(classic_only_the_closest_threat_counts)
{
    struct world w;
    world_init(&w, 1000, 1000);
    add_tank(&w, 500, 500, 0, AVOID_CLASSIC, DRIVE_STRAIGHT, 60);
    add_tank(&w, 580, 510, 0, AVOID_NONE, DRIVE_HOLD, 0);    /* ahead-right, 80.6 */
    add_tank(&w, 560, 495, 0, AVOID_NONE, DRIVE_HOLD, 0);    /* ahead-left, 60.2 */
    add_tank(&w, 505, 470, 0, AVOID_NONE, DRIVE_HOLD, 0);    /* closer, no threat */
    start(&w);
    struct vehicle *v = decide0(&w);
    check_int(v->avoid.threat, ==, 2);
    check_int(v->avoid.turn, ==, 1);
    check_near(v->avoid.threat_dist, v2_dist(v2(500, 500), v2(560, 495)), 1e-12);
    /* Without the closest, the other decides: it is on the right. */
    w.vehicles.p[2].alive = 0;
    world_moved(&w);
    v = decide0(&w);
    check_int(v->avoid.threat, ==, 1);
    check_int(v->avoid.turn, ==, -1);
    world_free(&w);
}

TEST(classic_tests_one_radius_not_the_sum)
{
    /* Documented weakness: the hit point 30 units off the other centre is
     * outside its radius (20), so no threat, though the tanks (20 + 20)
     * will touch. */
    struct world w;
    world_init(&w, 1000, 1000);
    add_tank(&w, 500, 500, 0, AVOID_CLASSIC, DRIVE_STRAIGHT, 60);
    add_tank(&w, 580, 470, 0, AVOID_NONE, DRIVE_HOLD, 0);
    start(&w);
    struct vehicle *v = decide0(&w);
    check_int(v->avoid.threat, ==, -1);
    world_free(&w);
}

/* ---- predictive: shells (dodge) ----------------------------------------- */

/* A shell in flight at `at`, heading dir (radians) at speed, fired by
 * shooter; its id is the shell count so far. */
static void put_shell(struct world *w, int shooter, vec2 at, double dir, double speed)
{
    WORLD_RESERVE(w->shells, w->shells.n + 1);
    struct shell *s = &w->shells.p[w->shells.n++];
    memset(s, 0, sizeof *s);
    s->id = (long)w->shells.n;
    s->pos = s->start = at;
    s->vel = v2_scale(v2_dir(dir), speed);
    s->range = 2000;
    s->shooter = shooter;
    s->target = s->hit = s->miss = -1;
    s->alive = 1;
}

/* Tank 0 drives east at (500, 500); tank 1, an enemy far away, fires. */
static void shell_scene(struct world *w)
{
    world_init(w, 1000, 1000);
    add_tank(w, 500, 500, 0, AVOID_PREDICTIVE, DRIVE_STRAIGHT, 60);
    add_tank(w, 950, 950, 180, AVOID_NONE, DRIVE_HOLD, 0);
    world_add_team(w, "u", 1);
    w->vehicles.p[1].team = 1;
    start(w);
}

TEST(predictive_dodges_a_seen_shell)
{
    struct world w;
    shell_scene(&w);
    /* 17 degrees off the nose (inside the 45-degree cone, no tree), aimed
     * at where the tank will be in 1.5 s */
    put_shell(&w, 1, v2(800, 420), atan2(80, -210), 149.8);
    struct vehicle *v = decide0(&w);
    check_int(v->avoid.threat, ==, -1);
    check_int(v->avoid.shell, ==, 1);
    check_int(v->avoid.steer, ==, 1);
    check(D.want.turn != 0 || D.want.speed < 60);  /* not the behaviour's motion */
    check_int(v->avoid.shell_count, ==, 1);
    check_int(v->avoid.shell_seen, ==, 1);
    /* dodge = no: the shell is no threat */
    world_params_mut(&w, 0)->dodge = 0;
    v = decide0(&w);
    check_int(v->avoid.shell, ==, 0);
    check_int(v->avoid.steer, ==, 0);
    check_num(D.want.turn, ==, 0);
    world_free(&w);
}

TEST(predictive_ignores_unseen_and_own_shells)
{
    struct world w;
    shell_scene(&w);
    put_shell(&w, 1, v2(300, 500), 0, 400);        /* from behind: unseen */
    put_shell(&w, 0, v2(700, 500), M_PI, 400);     /* its own */
    struct vehicle *v = decide0(&w);
    check_int(v->avoid.shell, ==, 0);
    check_int(v->avoid.steer, ==, 0);
    check_int(v->avoid.shell_count, ==, 0);
    check_num(D.want.turn, ==, 0);
    /* a friend's shell hits too: it is dodged */
    w.vehicles.p[1].team = 0;
    w.shells.p[1].shooter = 1;
    v = decide0(&w);
    check_int(v->avoid.shell, ==, 2);
    check_int(v->avoid.steer, ==, 1);
    world_free(&w);
}

TEST(predictive_new_shell_replans_at_once)
{
    struct world w;
    shell_scene(&w);
    w.tick = 3;                 /* not tank 0's re-plan tick (every 8th) */
    struct vehicle *v = decide0(&w);
    check_int(v->avoid.steer, ==, 0);
    put_shell(&w, 1, v2(700, 500), M_PI, 400);
    v = decide0(&w);
    check_int(v->avoid.shell, ==, 1);
    check_int(v->avoid.steer, ==, 1);
    /* the next tick holds that plan; a second shell re-plans again */
    w.tick = 4;
    v = decide0(&w);
    check_int(v->avoid.steer, ==, 1);
    check_int(v->avoid.shell, ==, 1);
    world_free(&w);
}

/* ---- predictive encounters, run through the tick ------------------------ */

struct run_result { long collisions; double min_sep; };

static struct run_result run_for(struct world *w, double seconds)
{
    long n = (long)(seconds * w->tick_rate);
    for (long t = 0; t < n; t++)
        tick_step(w);
    struct run_result r = { w->stats.collisions, w->stats.min_separation };
    return r;
}

TEST(predictive_head_on)
{
    struct world w;
    world_init(&w, 2000, 1000);
    add_tank(&w, 700, 500, 0, AVOID_PREDICTIVE, DRIVE_STRAIGHT, 60);
    add_tank(&w, 1300, 500, 180, AVOID_PREDICTIVE, DRIVE_STRAIGHT, 60);
    start(&w);
    int first_turn[2] = { 0, 0 };
    for (int t = 0; t < 20 * 60; t++) {
        tick_step(&w);
        for (int k = 0; k < 2; k++)
            if (!first_turn[k] && w.vehicles.p[k].avoid.turn)
                first_turn[k] = w.vehicles.p[k].avoid.turn;
    }
    check_int(w.stats.collisions, ==, 0);
    check_num(w.stats.min_separation, >, 0);
    /* Exactly symmetric: both break it the same way, to the right. */
    check_int(first_turn[0], ==, 1);
    check_int(first_turn[1], ==, 1);
    /* They got past each other. */
    check_num(w.vehicles.p[0].pos.x, >, w.vehicles.p[1].pos.x);
    world_free(&w);
}

TEST(predictive_head_on_offset)
{
    struct world w;
    world_init(&w, 2000, 1000);
    add_tank(&w, 700, 500, 0, AVOID_PREDICTIVE, DRIVE_STRAIGHT, 60);
    add_tank(&w, 1300, 505, 180, AVOID_PREDICTIVE, DRIVE_STRAIGHT, 60);
    start(&w);
    struct run_result r = run_for(&w, 20);
    check_int(r.collisions, ==, 0);
    check_num(w.vehicles.p[0].pos.x, >, w.vehicles.p[1].pos.x);
    world_free(&w);
}

TEST(predictive_crossing)
{
    struct world w;
    world_init(&w, 2000, 2000);
    add_tank(&w, 700, 1000, 0, AVOID_PREDICTIVE, DRIVE_STRAIGHT, 60);
    add_tank(&w, 1000, 700, 90, AVOID_PREDICTIVE, DRIVE_STRAIGHT, 60);
    start(&w);
    struct run_result r = run_for(&w, 15);
    check_int(r.collisions, ==, 0);
    check_num(w.vehicles.p[0].pos.x, >, 1100);
    check_num(w.vehicles.p[1].pos.y, >, 1100);
    world_free(&w);
}

TEST(predictive_overtaking)
{
    struct world w;
    world_init(&w, 4000, 1000);
    add_tank(&w, 300, 500, 0, AVOID_PREDICTIVE, DRIVE_STRAIGHT, 90);
    add_tank(&w, 500, 500, 0, AVOID_PREDICTIVE, DRIVE_STRAIGHT, 30);
    start(&w);
    struct run_result r = run_for(&w, 30);
    check_int(r.collisions, ==, 0);
    check_num(w.vehicles.p[0].pos.x, >, w.vehicles.p[1].pos.x);
    world_free(&w);
}

TEST(predictive_against_a_tank_that_does_not_avoid)
{
    /* The other crosses our path and never yields: we take the whole gap.
     * (Straight at us it may still hit: tanks cannot reverse.) */
    struct world w;
    world_init(&w, 2000, 2000);
    add_tank(&w, 700, 1000, 0, AVOID_PREDICTIVE, DRIVE_STRAIGHT, 60);
    add_tank(&w, 1000, 700, 90, AVOID_NONE, DRIVE_STRAIGHT, 60);
    add_tank(&w, 1120, 1300, 270, AVOID_CLASSIC, DRIVE_STRAIGHT, 60);
    start(&w);
    struct run_result r = run_for(&w, 15);
    check_int(r.collisions, ==, 0);
    check_num(w.vehicles.p[0].pos.x, >, 1100);
    world_free(&w);
}

TEST(predictive_ring_does_not_deadlock)
{
    /* 16 tanks on a circle, all aimed at its centre. */
    struct world w;
    world_init(&w, 2000, 2000);
    int n = 16;
    vec2 start_pos[16];
    for (int k = 0; k < n; k++) {
        double a = 2 * M_PI * k / n;
        start_pos[k] = v2(1000 + 400 * cos(a), 1000 + 400 * sin(a));
        add_tank(&w, start_pos[k].x, start_pos[k].y, rad2deg(a) + 180,
                 AVOID_PREDICTIVE, DRIVE_STRAIGHT, 60);
    }
    start(&w);
    struct run_result r = run_for(&w, 40);
    check_int(r.collisions, ==, 0);
    int moved = 0;
    for (int k = 0; k < n; k++)
        moved += v2_dist(w.vehicles.p[k].pos, start_pos[k]) > 300;
    check_int(moved, ==, n);
    world_free(&w);
}

/* A random crowd: n tanks, methods mixed when mix is set. */
static void crowd(struct world *w, double width, double height, int n,
                  uint64_t seed, int mix)
{
    world_init(w, width, height);
    w->seed = seed;
    struct rng r;
    rng_seed(&r, seed, 7);
    world_add_team(w, "t", 0);
    int placed = 0;
    for (int tries = 0; placed < n && tries < 100000; tries++) {
        double rad = mix ? rng_range(&r, 8, 30) : 20;
        vec2 p = v2(rng_range(&r, rad + 1, width - rad - 1),
                    rng_range(&r, rad + 1, height - rad - 1));
        int ok = 1;
        for (size_t j = 0; j < w->vehicles.n && ok; j++)
            ok = v2_dist(p, w->vehicles.p[j].pos) > rad + w->vehicles.p[j].p->radius + 1;
        if (!ok)
            continue;
        enum avoid_method m = mix ? (enum avoid_method)rng_below(&r, 3) : AVOID_PREDICTIVE;
        enum drive b = mix && rng_below(&r, 5) == 0 ? DRIVE_HOLD : DRIVE_WANDER;
        double speed = mix ? rng_range(&r, 20, 120) : 60;
        int i = add_tank(w, p.x, p.y, rng_range(&r, -180, 180), m, b, b == DRIVE_HOLD ? 0 : speed);
        world_params_mut(w, i)->radius = rad;
        if (mix)
            world_params_mut(w, i)->collision_range = rng_range(&r, 50, 200);
        placed++;
    }
}

TEST(predictive_crowd)
{
    struct world w;
    crowd(&w, 1500, 1500, 150, 11, 0);
    start(&w);
    struct run_result r = run_for(&w, 60);
    check_int(r.collisions, ==, 0);
    check_num(r.min_sep, >, 0);
    check_int(w.stats.edge_hits, ==, 0);
    world_free(&w);
}

/* ---- the grid against the brute-force oracle ---------------------------- */

/* Every tank's decision through the grid and through the all-pairs walk,
 * from the same intent; returns the number of tanks that differ. */
static int shell_threats;      /* decisions whose threat was a shell */

static int compare_decisions(struct world *w, int *threats)
{
    int differ = 0;
    for (size_t i = 0; i < w->vehicles.n; i++) {
        struct vehicle *v = &w->vehicles.p[i];
        if (!v->alive)
            continue;
        double turn = rng_range(&v->rng, -0.01, 0.01);
        double speed = v->p->speed * rng_unit(&v->rng);
        struct tick_ctx *c = tick_ready(w);
        struct decision dg, db;
        decision_start(w, (int)i, &dg);
        dg.want.turn = turn;
        dg.want.speed = speed;
        db = dg;
        const struct decide_view dv = tick_view(w, c, (int)i);
        /* the grid's side looks at the shells by cell, as the decide
         * stage does (act.c); the all-pairs side walks every shell */
        check_int(shell_index_make(&c->shell_index, w->shells.p, w->shells.n, AVOID_HORIZON), ==, 0);
        c->tick.shell_idx = &c->shell_index;
        avoid_decide(&dv, (int)i, &dg);
        c->tick.shell_idx = NULL;
        struct avoid_info a = dg.avoid;
        double t1 = dg.want.turn, s1 = dg.want.speed;
        decide_tick_brute(w, c);
        avoid_decide_brute(&dv, (int)i, &db);
        struct avoid_info *b = &db.avoid;
        int same = a.threat == b->threat && a.turn == b->turn && a.steer == b->steer
                && a.limited == b->limited && a.threat_dist == b->threat_dist
                && a.hit_point.x == b->hit_point.x && a.hit_point.y == b->hit_point.y
                && a.tca == b->tca && a.dca == b->dca && a.speed_scale == b->speed_scale
                && a.shell == b->shell && a.shell_seen == b->shell_seen
                && a.shell_count == b->shell_count
                && t1 == db.want.turn && s1 == db.want.speed;
        if (!same && differ < 3)
            tap_note("tank %zu: grid turn %.17g speed %.17g threat %d, brute turn %.17g speed %.17g threat %d",
                     i, t1, s1, a.threat, db.want.turn, db.want.speed, b->threat);
        differ += !same;
        *threats += a.threat >= 0;
        shell_threats += a.shell > 0;
    }
    return differ;
}

TEST(grid_and_brute_force_decide_alike)
{
    int scenes = 0, threats = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        struct world w;
        /* Dense and sparse, mixed methods, radii, speeds and ranges. */
        crowd(&w, seed % 2 ? 800 : 2500, 700, 160, seed, 1);
        start(&w);
        for (int step = 0; step < 5; step++) {
            run_for(&w, 1.5);
            check_int(compare_decisions(&w, &threats), ==, 0);
            scenes++;
        }
        world_free(&w);
    }
    check_int(scenes, ==, 30);
    check_int(threats, >, 500);     /* the scenes did have threats */
}

/* Random shells over the crowd: anyone's, any way, a few slow enough to
 * be dodged; every tank sees all round (fov 360) or the default cone. */
static void spray_shells(struct world *w, struct rng *r, int n)
{
    w->shells.n = 0;
    for (int k = 0; k < n; k++) {
        vec2 at = v2(rng_range(r, 0, w->width), rng_range(r, 0, w->height));
        put_shell(w, (int)rng_below(r, (uint32_t)w->vehicles.n), at,
                  rng_range(r, -M_PI, M_PI), rng_range(r, 50, 400));
    }
}

/* n more shells heading at tank t from all round within 250 of it: more
 * that may matter to it than a re-plan sorts on the stack (it then walks
 * every shell, as the all-pairs side does). */
static void crowd_shells(struct world *w, struct rng *r, int n)
{
    /* the first live predictive tank that dodges and sees all round */
    size_t t = 0;
    while (t < w->vehicles.n
           && !(w->vehicles.p[t].alive && w->vehicles.p[t].p->avoid == AVOID_PREDICTIVE
                && w->vehicles.p[t].p->dodge && w->vehicles.p[t].p->fov >= 2 * M_PI))
        t++;
    check(t < w->vehicles.n);
    if (t == w->vehicles.n)
        return;
    vec2 at = w->vehicles.p[t].pos;
    for (int k = 0; k < n; k++) {
        double a = rng_range(r, -M_PI, M_PI), d = rng_range(r, 30, 250);
        vec2 from = v2_add(at, v2_scale(v2_dir(a), d));
        put_shell(w, (int)rng_below(r, (uint32_t)w->vehicles.n), from,
                  a + M_PI + rng_range(r, -0.3, 0.3), rng_range(r, 50, 400));
    }
}

TEST(grid_and_brute_force_decide_alike_with_shells)
{
    int scenes = 0, threats = 0;
    shell_threats = 0;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        struct world w;
        crowd(&w, seed % 2 ? 800 : 2500, 700, 160, seed, 1);
        struct rng r;
        rng_seed(&r, seed, 9);
        for (size_t i = 0; i < w.vehicles.n; i += 2)
            world_params_mut(&w, (int)i)->fov = 2 * M_PI;
        /* short sight on some: the cells' reach is the view range */
        for (size_t i = 0; i < w.vehicles.n; i += 3)
            world_params_mut(&w, (int)i)->view_range = 40 + 10 * (double)(i % 50);
        world_params_mut(&w, 1)->dodge = 0;
        start(&w);
        for (int step = 0; step < 5; step++) {
            run_for(&w, 0.5);
            spray_shells(&w, &r, 120);
            if (step == 4)
                crowd_shells(&w, &r, 1600);
            for (int k = 0; k < 8; k++) {        /* every tank's re-plan tick */
                check_int(compare_decisions(&w, &threats), ==, 0);
                w.tick++;
            }
            scenes++;
        }
        world_free(&w);
    }
    check_int(scenes, ==, 20);
    check_int(shell_threats, >, 100);   /* shells did decide */
}

TEST(grid_and_brute_force_runs_are_identical)
{
    struct world a, b;
    crowd(&a, 900, 900, 120, 5, 1);
    crowd(&b, 900, 900, 120, 5, 1);
    check_int(tick_set_options(&b, &(struct tick_options){ .avoid_brute = 1 }), ==, 0);
    start(&a);
    start(&b);
    run_for(&a, 20);
    run_for(&b, 20);
    int same = 1;
    for (size_t i = 0; i < a.vehicles.n; i++)
        same &= a.vehicles.p[i].pos.x == b.vehicles.p[i].pos.x
             && a.vehicles.p[i].pos.y == b.vehicles.p[i].pos.y
             && a.vehicles.p[i].heading == b.vehicles.p[i].heading;
    check(same);
    check_int(a.stats.collisions, ==, b.stats.collisions);
    world_free(&a);
    world_free(&b);
}

/* ---- the map edge ------------------------------------------------------- */

TEST(no_tank_leaves_the_map)
{
    long outside = 0, ticks = 0;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        struct world w;
        crowd(&w, 700 + 200 * seed, 600, 120, 100 + seed, 1);
        start(&w);
        for (int t = 0; t < 120 * 60; t++, ticks++) {
            tick_step(&w);
            for (size_t i = 0; i < w.vehicles.n; i++) {
                const struct vehicle *v = &w.vehicles.p[i];
                double r = v->p->radius;
                outside += !(v->pos.x >= r && v->pos.x <= w.width - r
                             && v->pos.y >= r && v->pos.y <= w.height - r);
            }
        }
        world_free(&w);
    }
    check_int(outside, ==, 0);
    check_int(ticks, ==, 3 * 120 * 60);
}

TEST(edge_turn_keeps_a_lone_wanderer_off_the_edge)
{
    /* One tank, nobody to avoid, started well inside: the article's edge
     * turn (with our choice of side) must never let it touch the edge. */
    long hits = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        struct world w;
        world_init(&w, 1000, 800);
        w.seed = seed;
        add_tank(&w, 500, 400, 37.0 * seed, AVOID_NONE, DRIVE_WANDER, 60);
        start(&w);
        run_for(&w, 120);
        hits += w.stats.edge_hits;
        world_free(&w);
    }
    check_int(hits, ==, 0);
}

TEST(turned_direction_stays_the_headings)
{
    /* Turns rotate the cached direction instead of recomputing it
     * (vehicle_turned): after ten minutes of wandering and avoiding it
     * must still be the unit vector of the heading, to rounding. */
    struct world w;
    crowd(&w, 1200, 1000, 100, 21, 1);
    start(&w);
    run_for(&w, 600);
    double worst_len = 0, worst_angle = 0;
    for (size_t i = 0; i < w.vehicles.n; i++) {
        const struct vehicle *v = &w.vehicles.p[i];
        worst_len = fmax(worst_len, fabs(v2_len(v->dir) - 1));
        worst_angle = fmax(worst_angle, fabs(angle_diff(v2_angle(v->dir), v->heading)));
    }
    check_num(worst_len, <, 1e-14);
    check_num(worst_angle, <, 1e-11);
    world_free(&w);
}

/* ---- time to collision: the SSE2 path gives the scalar path's bits ------ */

TEST(ttc_sse2_matches_scalar)
{
    struct rng r;
    rng_seed(&r, 11, 3);
    int differ = 0, finite = 0, zero = 0, never = 0;
    for (int k = 0; k < 100000; k++) {
        struct ttc_set s;
        s.n = 1 + (int)(rng_u32(&r) % TTC_SET_MAX);
        double scale = k % 7 == 0 ? 1e-3 : k % 11 == 0 ? 1e6 : 100;
        for (int q = 0; q < s.n; q++) {
            vec2 rel = v2(rng_range(&r, -scale, scale), rng_range(&r, -scale, scale));
            vec2 vel = q % 5 == 0 ? v2(0, 0)
                     : v2(rng_range(&r, -80, 80), rng_range(&r, -80, 80));
            double R = rng_range(&r, 0, scale);
            ttc_set_put(&s, q, rel, vel, v2_len2(rel) - R * R, (int)(rng_u32(&r) & 1));
        }
        ttc_set_pad(&s);
        vec2 cand = k % 13 == 0 ? v2(0, 0) : v2(rng_range(&r, -80, 80), rng_range(&r, -80, 80));
        vec2 recip = v2(rng_range(&r, -160, 160), rng_range(&r, -160, 160));
        double start = k % 3 == 0 ? INFINITY : rng_range(&r, 0, 10);
        double a = ttc_set_min_scalar(&s, cand, recip, start);
        double b = ttc_set_min(&s, cand, recip, start);
        differ += memcmp(&a, &b, sizeof a) != 0;
        finite += isfinite(a) && a > 0;
        zero += a == 0;
        never += isinf(a);
    }
    check_int(differ, ==, 0);
    /* the cases cover every outcome */
    check_int(finite, >, 1000);
    check_int(zero, >, 1000);
    check_int(never, >, 100);
}

TEST(ttc_enter_cases)
{
    /* 10 units apart on x, radius 4: entered after 6 units at speed 2 */
    check_near(ttc_enter(v2(10, 0), v2(-2, 0), 100 - 16), 3, 1e-12);
    check(isinf(ttc_enter(v2(10, 0), v2(2, 0), 84)));      /* opening up */
    check(isinf(ttc_enter(v2(10, 0), v2(0, -2), 84)));     /* passing by */
    check_num(ttc_enter(v2(1, 0), v2(-1, 0), -15), ==, 0); /* inside, closing */
    check(isinf(ttc_enter(v2(1, 0), v2(1, 0), -15)));      /* inside, leaving */
}

int main(void)
{
    run(classic_ahead_left_turns_right, "classic: a threat ahead to the left turns right by 0.5 degrees");
    run(classic_ahead_right_turns_left, "classic: a threat ahead to the right turns left");
    run(classic_dead_ahead_turns_right, "classic: dead ahead turns right (the article's else)");
    run(classic_turn_scales_with_turn_rate_and_tick_rate, "classic: the turn is turn_rate x dt");
    run(classic_ignores_behind_beside_and_out_of_range, "classic: behind, beside and out of range are ignored");
    run(classic_only_the_closest_threat_counts, "classic: only the closest threat counts");
    run(classic_tests_one_radius_not_the_sum, "classic: the hit point is tested against one radius");
    run(predictive_head_on, "predictive: exactly head-on, both turn right and pass");
    run(predictive_head_on_offset, "predictive: nearly head-on");
    run(predictive_crossing, "predictive: crossing at right angles");
    run(predictive_overtaking, "predictive: a fast tank overtakes a slow one");
    run(predictive_against_a_tank_that_does_not_avoid, "predictive: across the paths of tanks that do not avoid");
    run(predictive_ring_does_not_deadlock, "predictive: a ring aimed at its centre does not deadlock");
    run(predictive_dodges_a_seen_shell, "predictive: a seen shell on a collision course is dodged (dodge = yes only)");
    run(predictive_ignores_unseen_and_own_shells, "predictive: unseen and own shells are ignored, a friend's dodged");
    run(predictive_new_shell_replans_at_once, "predictive: a newly seen threatening shell re-plans at once");
    run(predictive_crowd, "predictive: 150 wanderers for 60 s, no collision, no edge hit");
    run(grid_and_brute_force_decide_alike, "grid and brute force give identical decisions on random scenes");
    run(grid_and_brute_force_decide_alike_with_shells, "grid and brute force give identical decisions with shells in flight");
    run(grid_and_brute_force_runs_are_identical, "grid and brute force give identical runs");
    run(no_tank_leaves_the_map, "no tank leaves the map in long random runs");
    run(edge_turn_keeps_a_lone_wanderer_off_the_edge, "a lone wanderer never touches the edge");
    run(turned_direction_stays_the_headings, "turns keep the direction the unit vector of the heading");
    run(ttc_sse2_matches_scalar, "time to collision: the SSE2 path gives the scalar path's bits");
    run(ttc_enter_cases, "time to collision: entering, opening, passing, inside");
    return tap_done();
}
