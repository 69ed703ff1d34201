/* Racing on waypoints (src/core/race.c, Nick Turner's racing AI tutorial): steering, the turning
 * circles of the speed rules, orbits, the skip rule, laps on maps/race.ini
 * and the lap time against the fastest possible lap. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "../lib/map-fixture.h"
#include "../lib/race-bound.h"
#include "core/race/race.h"
#include "core/tick.h"
#include "core/world.h"
#include "io/map.h"

/* ---- helpers ------------------------------------------------------------ */

/* A world with a track and one default car; the caller adds trees, then
 * calls finish(). */
static int add_car(struct world *w, vec2 pos, double heading, enum speed_rule rule)
{
    struct vehicle_params p;
    world_default_params(&p, VK_CAR);
    p.speed_rule = rule;
    p.steer = STEER_CLASSIC;    /* the article's steering: its rules under test */
    return world_add_vehicle(w, "car.t", VK_CAR, -1, &p, pos, heading);
}

static void finish(struct world *w)
{
    check_int(world_finish(w), ==, 0);
    world_moved(w);
}

struct race_log {
    int reached, skipped, laps, finishes;
};

static void count_events(const struct world *w, struct race_log *log)
{
    for (size_t e = 0; e < w->now.events.n; e++)
        switch (w->now.events.p[e].kind) {
        case EV_WAYPOINT_REACHED: log->reached++; break;
        case EV_WAYPOINT_SKIPPED: log->skipped++; break;
        case EV_LAP: log->laps++; break;
        case EV_FINISH: log->finishes++; break;
        default: break;
        }
}

/* ---- steering ----------------------------------------------------------- */

/* Runs car c's race decision alone and applies its record, as act does. */
static struct decision RD;
static void race1(struct world *w, int c)
{
    struct tick_ctx *tc = tick_ready(w);
    decision_start(w, c, &RD);
    const struct decide_view dv = tick_view(w, tc, c);
    race_decide(&dv, c, &RD);
    if (w->vehicles.p[c].racer >= 0)
        w->racers.p[w->vehicles.p[c].racer].info = tc->race[w->vehicles.p[c].racer];
}

TEST(angle_normalisation)
{
    /* The article's CheckAngle: any angle into (-pi, pi]. */
    check_near(angle_norm(deg2rad(350)), deg2rad(-10), 1e-12);
    check_near(angle_norm(deg2rad(-350)), deg2rad(10), 1e-12);
    check_near(angle_norm(deg2rad(540)), M_PI, 1e-12);
    check_num(angle_norm(-M_PI), ==, M_PI);
    check_near(angle_norm(deg2rad(720 + 45)), deg2rad(45), 1e-12);

    /* A waypoint 10 degrees to the left (anticlockwise on screen) of a car
     * heading 350 degrees is at 340: the relative angle is -10, not 350,
     * so the car turns left, by one tick's turn. */
    struct world w;
    world_init(&w, 1000, 1000);
    vec2 at = v2(500, 500);
    world_add_waypoint(&w, v2_add(at, v2_scale(v2_dir(deg2rad(340)), 300)), 10);
    int c = add_car(&w, at, deg2rad(350), SPEED_RULE_EXACT);
    finish(&w);
    race1(&w, c);
    double step = w.vehicles.p[c].p->turn_rate * w.dt;
    check_near(RD.want.turn, -step, 1e-12);
    check_int(world_racer(&w, &w.vehicles.p[c])->info.turn_dir, ==, -1);

    /* Within one tick's turn: turn exactly onto it, no zigzag. */
    vehicle_set_heading(&w.vehicles.p[c], deg2rad(341));
    race1(&w, c);
    check_near(RD.want.turn, deg2rad(-1), 1e-9);
    world_free(&w);
}

/* ---- turning circles ---------------------------------------------------- */

TEST(classic_radius_against_exact)
{
    double dt = 1.0 / 60, v = 200;
    /* th = 10 degrees a tick: the article's 10-tick estimate is
     * 10 sin(th/2) / sin(5 th) = 1.1378 times the exact radius: 14 % too
     * big (the chord-to-arc error of a 100-degree arc). */
    double om = deg2rad(10) / dt;
    double ex = race_radius_exact(v, om, dt), cl = race_radius_classic(v, om, dt, 10);
    double want = 10 * sin(deg2rad(5)) / sin(deg2rad(50));
    check_near(cl / ex, want, 1e-9);
    check_near(cl / ex, 1.1378, 1e-4);
    tap_note("classic / exact radius at 10 deg/tick: %.4f", cl / ex);

    /* The default car turns 3 degrees a tick: 1.1 % too big. */
    om = deg2rad(180);
    ex = race_radius_exact(v, om, dt);
    cl = race_radius_classic(v, om, dt, 10);
    check_near(cl / ex, 10 * sin(deg2rad(1.5)) / sin(deg2rad(15)), 1e-9);
    check_num(cl / ex - 1, <, 0.012);
    tap_note("classic / exact radius at 3 deg/tick: %.4f", cl / ex);

    /* At 36 degrees a tick the 10 projected ticks turn a full circle: no
     * change of velocity, no acceleration, an infinite radius (or a huge
     * one, by rounding). */
    om = deg2rad(36) / dt;
    check_num(race_radius_classic(v, om, dt, 10), >, 1e9);
    check(isfinite(race_radius_exact(v, om, dt)));

    /* The zero-speed guard. */
    check_num(race_radius_classic(0, om, dt, 10), ==, 0);
    check_num(race_radius_exact(0, om, dt), ==, 0);
}

TEST(exact_radius_is_the_driven_circle)
{
    /* A car turning flat out at constant speed: its positions lie on the
     * exact circle, centred where race_decide says. */
    struct world w;
    world_init(&w, 2000, 2000);
    world_add_waypoint(&w, v2(1000, 1000), 5);  /* straight to the right */
    int c = add_car(&w, v2(900, 1000), deg2rad(-90), SPEED_RULE_NONE);
    finish(&w);
    struct vehicle *v = &w.vehicles.p[c];
    v->speed = v->p->max_speed;
    race1(&w, c);
    vec2 centre = world_racer(&w, v)->info.circle_c;
    double r = world_racer(&w, v)->info.circle_r;
    check_near(r, race_radius_exact(v->p->max_speed, v->p->turn_rate, w.dt), 1e-9);
    double worst = 0;
    for (int t = 0; t < 15; t++) {
        tick_step(&w);
        double e = fabs(v2_dist(w.vehicles.p[c].pos, centre) - r);
        if (e > worst)
            worst = e;
    }
    check_num(worst, <, 1e-9);
    world_free(&w);
}

TEST(reach_speed_is_the_limit)
{
    /* At the speed race_reach_speed gives, the target lies exactly `reach`
     * inside the circle the car will drive (race_decide's centre). */
    struct world w;
    world_init(&w, 2000, 2000);
    vec2 target = v2(1040, 1060);
    world_add_waypoint(&w, target, 5);
    int c = add_car(&w, v2(1000, 1000), deg2rad(10), SPEED_RULE_NONE);
    finish(&w);
    struct vehicle *v = &w.vehicles.p[c];
    double reach = 12;
    double s = race_reach_speed(v->pos, v->heading, target, reach, v->p->turn_rate, w.dt);
    check(isfinite(s));
    v->speed = s;
    race1(&w, c);
    check_near(v2_dist(world_racer(&w, v)->info.circle_c, target), world_racer(&w, v)->info.circle_r - reach, 1e-9);
    /* Straight ahead: any speed will do; straight behind, any sensible
     * one (the article's blind spot is what slows a car for it). */
    check(isinf(race_reach_speed(v->pos, 0, v2(1500, 1000), reach, v->p->turn_rate, w.dt)));
    check_num(race_reach_speed(v->pos, 0, v2(500, 1000), reach, v->p->turn_rate, w.dt), >, 1e4);
    world_free(&w);
}

/* ---- orbits --------------------------------------------------------------- */

/* A car at full speed with its waypoint close on its right, inside its
 * turning circle (radius 64 at 200 units/s and 180 deg/s). */
static void tight_waypoint(enum speed_rule rule, struct race_log *log, double *closest)
{
    struct world w;
    world_init(&w, 2000, 2000);
    world_add_waypoint(&w, v2(1020, 1050), 5);
    world_add_waypoint(&w, v2(1500, 1500), 20);
    world_add_waypoint(&w, v2(500, 1500), 20);
    int c = add_car(&w, v2(1000, 1000), 0, rule);
    finish(&w);
    w.vehicles.p[c].speed = w.vehicles.p[c].p->max_speed;
    memset(log, 0, sizeof *log);
    *closest = INFINITY;
    for (int t = 0; t < 60 * 60 && log->reached == 0; t++) {
        tick_step(&w);
        count_events(&w, log);
        double d = v2_dist(w.vehicles.p[c].pos, w.track.p[0].c);
        if (d < *closest)
            *closest = d;
    }
    world_free(&w);
}

TEST(none_orbits_a_tight_waypoint)
{
    struct race_log log;
    double closest;
    tight_waypoint(SPEED_RULE_NONE, &log, &closest);
    /* A minute flat out: round and round, never within 15 of it. */
    check_int(log.reached, ==, 0);
    check_num(closest, >, 15);
    tap_note("none: closest approach %.1f in 60 s", closest);
}

TEST(speed_rules_reach_a_tight_waypoint)
{
    struct race_log log;
    double closest;
    tight_waypoint(SPEED_RULE_CLASSIC, &log, &closest);
    check_int(log.reached, ==, 1);
    tight_waypoint(SPEED_RULE_EXACT, &log, &closest);
    check_int(log.reached, ==, 1);
}

/* ---- missed waypoints ----------------------------------------------------- */

/* The car heads for waypoint 0 far ahead; waypoint 1 is much closer, to
 * the side: the skip rule jumps to it unless trees stand between. */
static int skips(int wall)
{
    struct world w;
    world_init(&w, 2000, 2000);
    world_add_waypoint(&w, v2(1400, 1000), 20);
    world_add_waypoint(&w, v2(1000, 1150), 20);
    world_add_waypoint(&w, v2(600, 1300), 20);
    if (wall)
        for (int x = 800; x <= 1200; x += 40)
            world_add_tree(&w, v2(x, 1075), 22);
    /* Past waypoint 0 as the rule wants it (farther from waypoint 2, the
     * one before it, than 0 is: 908 against 854) and nearer 1 than 0
     * (685 against 692), the wall between it and 1. */
    int c = add_car(&w, v2(960, 466), 0, SPEED_RULE_EXACT);
    finish(&w);
    struct race_log log = { 0, 0, 0, 0 };
    tick_step(&w);
    count_events(&w, &log);
    int next = world_race_state(&w, &w.vehicles.p[c]).next;
    check_int(next, ==, log.skipped ? 1 : 0);
    if (log.skipped) {
        check_int(w.now.events.p[0].kind, ==, EV_WAYPOINT_SKIPPED);
        check_int(w.now.events.p[0].u.waypoint.index, ==, 0);
    }
    check(race_clear(&w, w.vehicles.p[c].pos, w.track.p[1].c) == !wall);
    world_free(&w);
    return log.skipped;
}

TEST(skip_rule_needs_a_clear_line)
{
    check_int(skips(0), ==, 1);
    check_int(skips(1), ==, 0);
}

/* A triangle: on reaching waypoint 2 the one after the next (1) is the
 * one before the waypoint just reached, and nearer than the next (0);
 * the car has passed neither, so it skips neither and gets no lap until
 * it reaches 0 again.  (It skipped 0 and 1 in the tick it reached 2, and
 * was given a lap.) */
TEST(triangle_no_skip_back)
{
    struct world w;
    world_init(&w, 800, 600);
    world_add_waypoint(&w, v2(100, 100), 20);
    world_add_waypoint(&w, v2(700, 100), 20);
    world_add_waypoint(&w, v2(700, 500), 20);
    int c = add_car(&w, v2(100, 130), 0, SPEED_RULE_EXACT);
    finish(&w);
    struct race_log log = { 0, 0, 0, 0 };
    int expect = 0, reached = 0, laps_at_reach0 = -1;
    for (int k = 0; k < 60 * 30 && reached < 4; k++) {
        tick_step(&w);
        count_events(&w, &log);
        for (size_t e = 0; e < w.now.events.n; e++) {
            const struct event *ev = &w.now.events.p[e];
            if (ev->kind == EV_WAYPOINT_REACHED) {
                check_int(ev->u.waypoint.index, ==, expect);
                expect = (expect + 1) % 3;
                reached++;
            }
            if (ev->kind == EV_LAP)
                laps_at_reach0 = reached;
        }
    }
    check_int(log.skipped, ==, 0);
    check_int(reached, ==, 4);
    /* the one lap, in the tick waypoint 0 was reached the second time */
    check_int(laps_at_reach0, ==, 4);
    check_int(world_race_state(&w, &w.vehicles.p[c]).laps, ==, 1);
    world_free(&w);
}

/* ---- the bundled race ----------------------------------------------------- */

TEST(race_map_three_laps_in_order)
{
    struct world w;
    if (fixture_load_map("race.ini", &w)) {
        check(0);
        return;
    }
    int n = (int)w.track.n;
    int expect[64], skipped = 0;
    for (int i = 0; i < 64; i++)
        expect[i] = 0;
    check_int(w.vehicles.n, <=, 64);
    long limit = (long)(w.duration * w.tick_rate);
    while (!w.ended && w.tick < limit) {
        tick_step(&w);
        for (size_t e = 0; e < w.now.events.n; e++) {
            const struct event *ev = &w.now.events.p[e];
            if (ev->kind != EV_WAYPOINT_REACHED && ev->kind != EV_WAYPOINT_SKIPPED)
                continue;
            /* In order: each waypoint reached or skipped, none jumped. */
            if (ev->u.waypoint.index != expect[ev->a])
                check_int(ev->u.waypoint.index, ==, expect[ev->a]);
            expect[ev->a] = (ev->u.waypoint.index + 1) % n;
            skipped += ev->kind == EV_WAYPOINT_SKIPPED;
        }
    }
    check(w.ended);
    for (size_t i = 0; i < w.vehicles.n; i++) {
        const struct vehicle *v = &w.vehicles.p[i];
        check_int(world_race_state(&w, v).laps, ==, 3);
        check(world_race_state(&w, v).finished);
        check_num(world_race_state(&w, v).best_lap, >, 0);
        tap_note("%s: best lap %.3f s, finished at %.3f s", v->id, world_race_state(&w, v).best_lap,
                 world_race_state(&w, v).finish_time);
    }
    tap_note("waypoints skipped: %d", skipped);
    world_free(&w);
}

TEST(exact_within_bound)
{
    struct world w;
    if (fixture_load_map("race.ini", &w)) {
        check(0);
        return;
    }
    for (size_t i = 0; i < w.vehicles.n; i++)
        world_params_mut(&w, i)->speed_rule = SPEED_RULE_EXACT;
    long limit = (long)(w.duration * w.tick_rate);
    while (!w.ended && w.tick < limit)
        tick_step(&w);
    for (size_t i = 0; i < w.vehicles.n; i++) {
        const struct vehicle *v = &w.vehicles.p[i];
        double bound = race_bound_lap(w.track.p, (int)w.track.n, v->p, w.dt, 0.5);
        check_int(world_race_state(&w, v).laps, >=, 2);
        check_num(world_race_state(&w, v).best_lap, <=, 1.15 * bound);
        tap_note("%s exact: best lap %.3f s, bound %.3f s, ratio %.3f", v->id,
                 world_race_state(&w, v).best_lap, bound, world_race_state(&w, v).best_lap / bound);
    }
    world_free(&w);
}

TEST(bound_of_a_square)
{
    /* Four 90-degree corners of a 1000 square with generous waypoints: the
     * corners allow full speed, so a flying lap is 4000 / max_speed. */
    struct waypoint sq[4] = { { { 0, 0 }, 200 }, { { 1000, 0 }, 200 },
                              { { 1000, 1000 }, 200 }, { { 0, 1000 }, 200 } };
    struct vehicle_params p;
    world_default_params(&p, VK_CAR);
    check_near(race_bound_lap(sq, 4, &p, 1.0 / 60, 0.5), 4000 / p.max_speed, 1e-9);
    /* Tight ones: slower, and no faster than braking and accelerating
     * allow from a standstill at each corner. */
    for (int k = 0; k < 4; k++)
        sq[k].r = 0.001;
    p.radius = 0.001;
    double t = race_bound_lap(sq, 4, &p, 1.0 / 60, 0.5);
    check_num(t, >, 4000 / p.max_speed);
    double ramp = p.max_speed / p.accel + p.max_speed / p.brake;
    double ramp_len = p.max_speed * ramp / 2;
    check_near(t, 4 * (ramp + (1000 - ramp_len) / p.max_speed), 0.05);
}

TEST(floor_of_simple_tracks)
{
    /* Point waypoints on a square: the path is its perimeter. */
    struct waypoint sq[4] = { { { 0, 0 }, 0 }, { { 1000, 0 }, 0 },
                              { { 1000, 1000 }, 0 }, { { 0, 1000 }, 0 } };
    check_near(race_floor_length(sq, 4, 0), 4000, 1e-6);
    /* Three in a row, contact discs of 20: out from waypoint 0's disc to
     * waypoint 2's and back, waypoint 1 passed on the way. */
    struct waypoint row[3] = { { { 0, 0 }, 10 }, { { 1000, 0 }, 10 }, { { 2000, 0 }, 10 } };
    check_near(race_floor_length(row, 3, 10), 2 * 1960, 1e-6);
    /* Wide discs on the square cut every corner: shorter than 4000, and
     * no shorter than the inner square through the discs' inner points. */
    for (int k = 0; k < 4; k++)
        sq[k].r = 100;
    double l = race_floor_length(sq, 4, 0);
    check_num(l, <, 4000);
    check_num(l, >=, 4 * (1000 - 200) - 1e-6);
}

TEST(patrol_tank_follows_route)
{
    struct world w;
    world_init(&w, 2000, 2000);
    int team = world_add_team(&w, "red", 0);
    struct vehicle_params p;
    world_default_params(&p, VK_TANK);
    p.drive = DRIVE_PATROL;
    p.avoid = AVOID_NONE;
    p.route_first = (int)w.route_points.n;
    p.route_count = 4;
    world_add_route_point(&w, v2(500, 500), 20);
    world_add_route_point(&w, v2(1500, 500), 20);
    world_add_route_point(&w, v2(1500, 1500), 20);
    world_add_route_point(&w, v2(500, 1500), 20);
    int t = world_add_vehicle(&w, "tank.t", VK_TANK, team, &p, v2(1000, 1000), 0);
    finish(&w);
    int changes = 0, last = 0;
    for (int k = 0; k < 60 * 180; k++) {
        tick_step(&w);
        int next = world_race_state(&w, &w.vehicles.p[t]).next;
        if (next != last) {
            check_int(next, ==, (last + 1) % 4);
            changes++;
            last = next;
        }
        check_num(w.vehicles.p[t].speed, ==, p.speed);
    }
    /* 180 s at 60 units/s is 10,800 units: two laps of 4,000 and more. */
    check_int(changes, >=, 9);
    check_int(w.now.events.n, ==, 0);
    world_free(&w);
}

/* The start inside the last waypoint's disc, heading for waypoint 0: the
 * car has reached that one, and waypoint 1 being nearer than 0 is no skip
 * of 0 while it has not even left the disc it starts in.
 * (Every method skipped waypoint 0 on the first tick.) */
TEST(start_inside_last_disc)
{
    for (int rule = 0; rule < 3; rule++) {
        struct world w;
        world_init(&w, 1000, 800);
        world_add_waypoint(&w, v2(600, 300), 30);
        world_add_waypoint(&w, v2(500, 550), 30);
        world_add_waypoint(&w, v2(100, 450), 30);
        world_add_waypoint(&w, v2(250, 250), 150);
        /* inside waypoint 3's disc, nearer 1 (301) than 0 (323); 80 units
         * on, still inside, nearer 0 */
        int c = add_car(&w, v2(280, 345), 0, (enum speed_rule)rule);
        finish(&w);
        struct race_log log = { 0, 0, 0, 0 };
        /* to waypoint 0, its first arrival */
        for (int k = 0; k < 60 * 30 && !world_race_state(&w, &w.vehicles.p[c]).started; k++) {
            tick_step(&w);
            count_events(&w, &log);
        }
        tap_note("rule %d: skipped %d, reached %d", rule, log.skipped, log.reached);
        check_int(log.skipped, ==, 0);
        check_int(log.reached, ==, 1);
        check_int(world_race_state(&w, &w.vehicles.p[c]).started, ==, 1);
        world_free(&w);
    }
}

int main(void)
{
    run(angle_normalisation, "relative angle normalised, turn towards the waypoint's side");
    run(classic_radius_against_exact, "classic's 10-tick radius: 14% too big at 10 deg/tick");
    run(exact_radius_is_the_driven_circle, "the exact radius is the circle the car drives");
    run(reach_speed_is_the_limit, "the reach speed puts the waypoint at the contact distance");
    run(none_orbits_a_tight_waypoint, "speed_rule none orbits a tight waypoint forever");
    run(speed_rules_reach_a_tight_waypoint, "classic and exact reach it");
    run(skip_rule_needs_a_clear_line, "the skip rule refuses a waypoint behind trees");
    run(triangle_no_skip_back, "a triangle: reaching waypoint 2 skips nothing, no lap before 0");
    run(start_inside_last_disc, "a start inside the last disc skips nothing at the start");
    run(race_map_three_laps_in_order, "maps/race.ini: every car finishes 3 laps, in order");
    run(exact_within_bound, "exact laps within 1.15x the fastest possible lap");
    run(floor_of_simple_tracks, "the floor's shortest path through the discs on simple tracks");
    run(bound_of_a_square, "the lap bound on simple squares");
    run(patrol_tank_follows_route, "a patrolling tank follows its route at its speed");
    return tap_done();
}
