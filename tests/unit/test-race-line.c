/* steer = line (src/core/race/race_line*.c): the planned racing line
 * passes inside every waypoint's disc, its speed profile never asks more
 * than the car's limits, a car on it never skips a waypoint (the bundled
 * tracks and a few hundred random ones), it laps faster than the article's
 * ways on maps/racing-line.ini, no lap beats the floor of race-bound.h,
 * its plan is a pure function of the track and the car, and six cars on
 * it race without touching, each about as fast as alone. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "../lib/map-fixture.h"
#include "core/race/race_line.h"
#include "core/race/race_line_impl.h"
#include "core/rng.h"
#include "core/tick.h"
#include "core/world.h"
#include "io/map.h"
#include "../lib/race-bound.h"

/* ---- helpers ------------------------------------------------------------ */

/* The default car, or the fast car (max_speed 300, turn_rate 120). */
static void car_params(struct vehicle_params *p, int fast)
{
    world_default_params(p, VK_CAR);
    p->steer = STEER_LINE;
    if (fast) {
        p->max_speed = 300;
        p->turn_rate = deg2rad(120);
    }
}

/* Every check of a plan against its track and car: anchors inside the
 * discs, speeds within the limits.  Returns the failures. */
static int plan_faults(const struct race_plan *pl, const struct waypoint *wp, int n,
                       const struct vehicle_params *p, double dt)
{
    int bad = 0;
    for (int k = 0; k < n; k++)
        if (v2_dist(pl->pt[pl->anchor[k]], wp[k].c) >= wp[k].r + p->radius) {
            tap_note("anchor %d lies %.2f from its centre, contact at %.2f", k,
                     v2_dist(pl->pt[pl->anchor[k]], wp[k].c), wp[k].r + p->radius);
            bad++;
        }
    double half = 0.5 * p->turn_rate * dt;
    int m = pl->m;
    for (int i = 0; i < m; i++) {
        int j = (i + 1) % m;
        double ds = pl->s[i + 1] - pl->s[i];
        double vi = pl->v[i], vj = pl->v[j];
        /* the turn rate: the circle through the points LINE_CURVE_SPAN
         * either side, driven at vi, turns no more than turn_rate dt a
         * tick (computed here again, apart from the planner) */
        int sp = LINE_CURVE_SPAN % m;
        vec2 a = pl->pt[(i + m - sp) % m], b = pl->pt[i], c = pl->pt[(i + sp) % m];
        double cr = fabs(v2_cross(v2_sub(b, a), v2_sub(c, b)));
        double rho = cr > 1e-12 ? v2_dist(a, b) * v2_dist(b, c) * v2_dist(a, c) / (2 * cr)
                                : INFINITY;
        double turn_cap = 2 * rho * sin(half) / dt;
        if (vi > p->max_speed + 1e-9 || (vi > p->min_speed + 1e-9 && vi > turn_cap * (1 + 1e-9))
            || vj * vj > vi * vi + 2 * p->accel * ds + 1e-6
            || vi * vi > vj * vj + 2 * p->brake * ds + 1e-6) {
            if (bad < 5)
                tap_note("point %d: speed %.3f -> %.3f over %.3f (turn cap %.3f)",
                         i, vi, vj, ds, turn_cap);
            bad++;
        }
    }
    return bad;
}

/* Races every car of w with steer = line until each has `laps` laps or
 * `seconds` pass; the skips and the cars short of the laps. */
static void race(struct world *w, int laps, double seconds, int *skips, int *short_cars)
{
    world_moved(w);
    long limit = (long)(seconds * w->tick_rate);
    *skips = 0;
    for (;;) {
        int all = 1;
        for (size_t r = 0; r < w->racers.n; r++)
            if (w->racers.p[r].race.laps < laps)
                all = 0;
        if (all || w->tick >= limit || w->ended)
            break;
        tick_step(w);
        for (size_t e = 0; e < w->now.events.n; e++)
            if (w->now.events.p[e].kind == EV_WAYPOINT_SKIPPED) {
                if (*skips < 3)
                    tap_note("tick %ld: %s skipped waypoint %d", w->tick,
                             w->vehicles.p[w->now.events.p[e].a].id,
                             w->now.events.p[e].u.waypoint.index);
                (*skips)++;
            } else if (w->now.events.p[e].kind == EV_COLLISION) {
                /* which cars, and how far round: passing, or the grid */
                const struct vehicle *a = &w->vehicles.p[w->now.events.p[e].a];
                const struct vehicle *b = &w->vehicles.p[w->now.events.p[e].b];
                tap_note("tick %ld: %s (lap %d, %.0f/s) touched %s (lap %d, %.0f/s)", w->tick,
                         a->id, world_race_state(w, a).laps, a->speed, b->id,
                         world_race_state(w, b).laps, b->speed);
            }
    }
    *short_cars = 0;
    for (size_t r = 0; r < w->racers.n; r++)
        if (w->racers.p[r].race.laps < laps && !w->racers.p[r].race.finished)
            (*short_cars)++;
}

/* A random closed track: n waypoints round a centre at jittered angles
 * and random distances (a loop with zigzags), drawn again until it is
 * fair: the discs apart, and from anywhere in a waypoint's contact disc
 * the next one nearer than the one after (else the skip rule fires
 * whatever the driver does). */
static int fair(const vec2 *c, const double *r, int n, double car_r)
{
    for (int k = 0; k < n; k++) {
        int k1 = (k + 1) % n, k2 = (k + 2) % n;
        if (v2_dist(c[k], c[k1]) < r[k] + r[k1] + 60)
            return 0;
        if (n >= 3 && v2_dist(c[k], c[k2]) - v2_dist(c[k], c[k1]) < 2 * (r[k] + car_r) + 20)
            return 0;
    }
    return 1;
}

static void random_track(struct world *w, struct rng *g, double car_r)
{
    world_init(w, 2000, 2000);
    vec2 c[12];
    double r[12];
    int n;
    do {
        n = 3 + (int)rng_below(g, 10);
        for (int k = 0; k < n; k++) {
            double ang = (k + rng_range(g, -0.35, 0.35)) * (2 * M_PI / n);
            c[k] = v2_add(v2(1000, 1000), v2_scale(v2_dir(ang), rng_range(g, 250, 850)));
            r[k] = rng_range(g, 10, 30);
        }
    } while (!fair(c, r, n, car_r));
    for (int k = 0; k < n; k++)
        world_add_waypoint(w, c[k], r[k]);
}

/* ---- tests -------------------------------------------------------------- */

TEST(bundled_plans_pass_inside_every_disc_within_limits)
{
    static const char *const maps[] = { "race.ini", "racing-line.ini" };
    for (size_t k = 0; k < 2; k++) {
        struct world w;
        if (fixture_load_map(maps[k], &w)) {
            check(0);
            continue;
        }
        for (int fast = 0; fast <= 1; fast++) {
            struct vehicle_params p;
            car_params(&p, fast);
            struct race_plan *pl = race_plan_build(&w, w.track.p, (int)w.track.n, &p, w.dt);
            check(pl != NULL);
            if (pl)
                check_int(plan_faults(pl, w.track.p, (int)w.track.n, &p, w.dt), ==, 0);
            race_plan_free(pl);
        }
        world_free(&w);
    }
}

TEST(plan_is_a_pure_function)
{
    struct world w;
    if (fixture_load_map("racing-line.ini", &w)) {
        check(0);
        return;
    }
    struct vehicle_params p;
    car_params(&p, 0);
    struct race_plan *a = race_plan_build(&w, w.track.p, (int)w.track.n, &p, w.dt);
    struct race_plan *b = race_plan_build(&w, w.track.p, (int)w.track.n, &p, w.dt);
    check(a && b);
    if (a && b) {
        check_int(a->m, ==, b->m);
        check(memcmp(a->pt, b->pt, (size_t)a->m * sizeof *a->pt) == 0);
        check(memcmp(a->v, b->v, (size_t)a->m * sizeof *a->v) == 0);
    }
    race_plan_free(a);
    race_plan_free(b);
    /* and fewer than three waypoints plan nothing (classic steering) */
    check(race_plan_build(&w, w.track.p, 2, &p, w.dt) == NULL);
    world_free(&w);
}

/* A track as wide as the largest map: the first line keeps at most 400
 * points (the step grows), so the plan is bounded work (at a 30-unit step
 * it had some 70,000 points and took half a minute).  A plan affords
 * 7,000,000 point updates, 8,600 sweeps of the first line a try: a track of
 * 200 waypoints (600 points, three a leg) is planned, one of 300 (900
 * points) is not (its cars steer the classic way). */
TEST(huge_tracks_plan_bounded_lines)
{
    struct world w;
    world_init(&w, 1000000, 1000000);
    world_add_waypoint(&w, v2(50000, 50000), 30);
    world_add_waypoint(&w, v2(950000, 50000), 1000);
    world_add_waypoint(&w, v2(950000, 950000), 30);
    world_add_waypoint(&w, v2(50000, 950000), 500);
    if (world_finish(&w)) {
        check(0);
        return;
    }
    struct vehicle_params p;
    car_params(&p, 0);
    struct race_plan *pl = race_plan_build(&w, w.track.p, (int)w.track.n, &p, w.dt);
    check(pl != NULL);
    if (pl) {
        /* three halvings of at most 400 points, one more a leg for rounding */
        check_int(pl->m, <=, 8 * (400 + 4));
        check_int(pl->m, >=, 8 * 3 * 4);
        check_num(pl->s[pl->m], >, 3.0e6);
    }
    race_plan_free(pl);
    world_free(&w);

    static const int counts[] = { 200, 300, 1001 };
    for (int c = 0; c < 3; c++) {
        int n = counts[c];
        world_init(&w, 100000, 100000);
        for (int k = 0; k < n; k++) {
            double a = 2 * M_PI * k / n;
            world_add_waypoint(&w, v2(50000 + 40000 * cos(a), 50000 + 40000 * sin(a)), 30);
        }
        if (world_finish(&w)) {
            check(0);
            return;
        }
        pl = race_plan_build(&w, w.track.p, n, &p, w.dt);
        if (n == 200) {
            check(pl != NULL);
            if (pl)
                check_int(pl->m, ==, 8 * 3 * n);
        } else {
            check(pl == NULL);
        }
        race_plan_free(pl);
        world_free(&w);
    }
}

TEST(bundled_tracks_no_skips_on_the_line)
{
    static const char *const maps[] = { "race.ini", "racing-line.ini" };
    for (size_t k = 0; k < 2; k++) {
        for (int fast = 0; fast <= 1; fast++) {
            struct world w;
            if (fixture_load_map(maps[k], &w)) {
                check(0);
                continue;
            }
            for (size_t i = 0; i < w.vehicles.n; i++) {
                struct vehicle_params *p = world_params_mut(&w, i);
                p->steer = STEER_LINE;
                if (fast) {
                    p->max_speed = 300;
                    p->turn_rate = deg2rad(120);
                }
            }
            int skips, short_cars;
            race(&w, 3, 300, &skips, &short_cars);
            tap_note("%s %s: %d skips", maps[k], fast ? "fast cars" : "map's cars", skips);
            check_int(skips, ==, 0);
            check_int(short_cars, ==, 0);
            /* the floor is a true bound: no car's lap beats it */
            for (size_t i = 0; i < w.vehicles.n; i++) {
                const struct vehicle *v = &w.vehicles.p[i];
                double floor = race_floor_length(w.track.p, (int)w.track.n, v->p->radius)
                             / v->p->max_speed;
                double best = world_race_state(&w, v).best_lap;
                tap_note("  %s: best lap %.3f s, floor %.3f s", v->id, best, floor);
                check_num(best, >=, floor);
            }
            world_free(&w);
        }
    }
}

TEST(random_tracks_no_skips_on_the_line)
{
    struct rng g;
    rng_seed(&g, 19, 1);
    int total_skips = 0, total_short = 0, faults = 0, tracks = 300;
    for (int t = 0; t < tracks; t++) {
        struct world w;
        struct vehicle_params p;
        car_params(&p, t % 2);
        random_track(&w, &g, p.radius);
        int n = (int)w.track.n;
        vec2 start = w.track.p[n - 1].c;
        double heading = v2_angle(v2_sub(w.track.p[0].c, start));
        if (world_add_vehicle(&w, "car.fuzz", VK_CAR, -1, &p, start, heading) < 0
            || world_finish(&w)) {
            check(0);
            world_free(&w);
            continue;
        }
        struct race_plan *pl = race_plan_build(&w, w.track.p, n, &p, w.dt);
        if (pl)
            faults += plan_faults(pl, w.track.p, n, &p, w.dt);
        else
            faults += n >= 3;
        race_plan_free(pl);
        int skips, short_cars;
        race(&w, 2, 300, &skips, &short_cars);
        if (skips || short_cars)
            tap_note("track %d (%d waypoints, %s car): %d skips, %s", t, n,
                     t % 2 ? "fast" : "default", skips, short_cars ? "short of 2 laps" : "2 laps");
        total_skips += skips;
        total_short += short_cars;
        world_free(&w);
    }
    check_int(faults, ==, 0);
    check_int(total_skips, ==, 0);
    check_int(total_short, ==, 0);
}

/* Four kinds of car: the default, the fast car, race.ini's red
 * (nimble) and blue (heavy). */
static void kind_params(struct vehicle_params *p, int kind)
{
    car_params(p, kind == 1);
    if (kind == 2) {
        p->max_speed = 260;
        p->accel = 150;
        p->brake = 280;
        p->turn_rate = deg2rad(220);
    } else if (kind == 3) {
        p->max_speed = 180;
        p->accel = 80;
        p->brake = 150;
        p->turn_rate = deg2rad(120);
        p->radius = 12;
    }
}

/* The line of centres, each leg cut into pieces of about 3.75 units (the
 * refined line's spacing): a line that skips nothing, kinked at every
 * waypoint.  Returns its points (m of them), anchor[k] the point on
 * waypoint k's centre. */
static vec2 *centres_line(const struct waypoint *wp, int n, int *anchor, int *m)
{
    int cap = 0;
    for (int k = 0; k < n; k++)
        cap += (int)ceil(v2_dist(wp[k].c, wp[(k + 1) % n].c) / 3.75);
    vec2 *pt = malloc((size_t)cap * sizeof *pt);
    *m = 0;
    for (int k = 0; pt && k < n; k++) {
        vec2 a = wp[k].c, b = wp[(k + 1) % n].c;
        int q = (int)ceil(v2_dist(a, b) / 3.75);
        anchor[k] = *m;
        for (int j = 0; j < q; j++)
            pt[(*m)++] = v2_add(a, v2_scale(v2_sub(b, a), (double)j / q));
    }
    return pt;
}

TEST(descent_laps_faster_within_its_bounds)
{
    /* line_descend on the line of centres of random tracks: its profile's
     * lap gets shorter on every track, and it keeps its bounds: every
     * point on the map less the car's radius (every fourth track's map
     * ends where its discs do, on the right and at the bottom), every
     * anchor inside its disc less the 15% margin, the skip walk still
     * finding nothing. */
    struct rng g;
    rng_seed(&g, 31, 1);
    int tracks = 40, faster = 0, bad = 0, edge_bound = 0;
    for (int t = 0; t < tracks; t++) {
        struct world w;
        struct vehicle_params p;
        car_params(&p, t % 2);
        if (t % 4 == 3)
            p.radius = 3;
        random_track(&w, &g, p.radius);
        if (t % 4 == 3)         /* discs narrower than a bump: the anchors bind */
            for (size_t k = 0; k < w.track.n; k++)
                w.track.p[k].r = 1;
        if (t % 4 == 2) {       /* the map's edges bind */
            w.width = w.height = 0;
            for (size_t k = 0; k < w.track.n; k++) {
                w.width = fmax(w.width, w.track.p[k].c.x + w.track.p[k].r + p.radius);
                w.height = fmax(w.height, w.track.p[k].c.y + w.track.p[k].r + p.radius);
            }
        }
        int n = (int)w.track.n, m, anchor[12];
        const struct waypoint *wp = w.track.p;
        vec2 *pt = centres_line(wp, n, anchor, &m);
        vec2 *was = malloc((size_t)m * sizeof *was);
        double *s = malloc((size_t)(m + 1) * sizeof *s), *cap = malloc((size_t)m * sizeof *cap);
        double *v = malloc((size_t)m * sizeof *v);
        double reach[12], margin[12], allow[12];
        unsigned char flag[12];
        for (int k = 0; k < n; k++) {
            reach[k] = wp[k].r + p.radius;
            margin[k] = 0.15 * reach[k];
            allow[k] = reach[k] - margin[k];
        }
        if (!pt || !was || !s || !cap || !v) {
            check(0);
            goto next;
        }
        memcpy(was, pt, (size_t)m * sizeof *was);
        struct draft d = { m, (size_t)m, pt, anchor };
        check_int(draft_skips(&d, &w, wp, n, reach, margin, flag), ==, 0);
        line_lengths(pt, m, s);
        double before = line_profile(pt, m, s, &p, w.dt, cap, v);
        check_int(line_descend(&d, &w, wp, n, reach, margin, allow, &p, w.dt), ==, 0);
        line_lengths(pt, m, s);
        double after = line_profile(pt, m, s, &p, w.dt, cap, v);
        faster += after < before;
        double far = 0, off = 0;
        for (int i = 0; i < m; i++) {
            far = fmax(far, v2_dist(pt[i], was[i]));
            /* off the map, less the radius: only as far as it was */
            double o = fmax(fmax(p.radius - pt[i].x, pt[i].x - (w.width - p.radius)),
                            fmax(p.radius - pt[i].y, pt[i].y - (w.height - p.radius)));
            double o0 = fmax(fmax(p.radius - was[i].x, was[i].x - (w.width - p.radius)),
                             fmax(p.radius - was[i].y, was[i].y - (w.height - p.radius)));
            if (o > 0 && o > o0)
                off = fmax(off, o);
        }
        int out = 0;
        for (int k = 0; k < n; k++)
            out += v2_dist(pt[anchor[k]], wp[k].c) > allow[k] * (1 + 1e-9);
        int skips = draft_skips(&d, &w, wp, n, reach, margin, flag);
        /* the edge binds: some point ends within a unit of it */
        double inside = INFINITY;
        for (int i = 0; i < m; i++)
            inside = fmin(inside, fmin(w.width - p.radius - pt[i].x,
                                       w.height - p.radius - pt[i].y));
        edge_bound += t % 4 == 2 && inside >= 0 && inside < 1;
        if (!(after < before) || off > 0 || out || skips) {
            tap_note("track %d: lap %.3f -> %.3f s, moved up to %.3f, %.3f off the map, "
                     "%d anchors out, %d skips", t, before, after, far, off, out, skips);
            bad++;
        }
    next:
        free(pt);
        free(was);
        free(s);
        free(cap);
        free(v);
        world_free(&w);
    }
    tap_note("%d tracks: %d faster, %d out of bounds or not faster", tracks, faster, bad);
    check_int(faster, ==, tracks);
    check_int(bad, ==, 0);
    tap_note("%d of the %d tracks whose map ends at their discs end a point within a unit "
             "of the edge", edge_bound, tracks / 4);
    check_int(edge_bound, >=, tracks / 8);
}

TEST(random_tracks_four_cars_no_collisions)
{
    /* One car of each kind on a two-by-two grid on the last waypoint,
     * facing waypoint 0 (the slow ones behind): they leave in order, pass
     * or hold back, and race two laps without touching or skipping. */
    struct rng g;
    rng_seed(&g, 23, 1);
    int tracks = 100, bad = 0;
    long collisions = 0;
    int total_skips = 0, total_short = 0;
    for (int t = 0; t < tracks; t++) {
        struct world w;
        random_track(&w, &g, 10);
        int n = (int)w.track.n;
        vec2 start = w.track.p[n - 1].c;
        vec2 dir = v2_sub(w.track.p[0].c, start);
        dir = v2_scale(dir, 1 / v2_len(dir));
        vec2 side = v2(-dir.y, dir.x);
        int failed = 0;
        for (int k = 0; k < 4; k++) {
            struct vehicle_params p;
            kind_params(&p, k);
            char id[16];
            snprintf(id, sizeof id, "car.%d", k);
            vec2 at = v2_add(start, v2_add(v2_scale(dir, -40.0 * (k / 2)),
                                           v2_scale(side, k % 2 ? 20 : -20)));
            failed |= world_add_vehicle(&w, id, VK_CAR, -1, &p, at, v2_angle(dir)) < 0;
        }
        if (failed || world_finish(&w)) {
            check(0);
            world_free(&w);
            continue;
        }
        int skips, short_cars;
        race(&w, 2, 300, &skips, &short_cars);
        if (skips || short_cars || w.stats.collisions) {
            tap_note("track %d (%d waypoints): %ld collisions, %d skips, %d short of 2 laps",
                     t, n, (long)w.stats.collisions, skips, short_cars);
            bad++;
        }
        collisions += w.stats.collisions;
        total_skips += skips;
        total_short += short_cars;
        world_free(&w);
    }
    tap_note("%d tracks, four cars each: %d with a fault", tracks, bad);
    check_int(collisions, ==, 0);
    check_int(total_skips, ==, 0);
    check_int(total_short, ==, 0);
}

TEST(line_beats_the_article_on_racing_line_map)
{
    /* car.line and car.article are the same default car: one on the
     * line, one the article's way. */
    struct world w;
    if (fixture_load_map("racing-line.ini", &w)) {
        check(0);
        return;
    }
    int skips, short_cars;
    race(&w, 3, 300, &skips, &short_cars);
    int a = world_find_vehicle(&w, "car.line"), b = world_find_vehicle(&w, "car.article");
    check(a >= 0 && b >= 0);
    if (a >= 0 && b >= 0) {
        double line = world_race_state(&w, &w.vehicles.p[a]).best_lap;
        double article = world_race_state(&w, &w.vehicles.p[b]).best_lap;
        tap_note("best laps: line %.3f s, article %.3f s", line, article);
        check_num(line, >, 0);
        check_num(line, <, 0.95 * article);
    }
    world_free(&w);
}

/* maps/race.ini with three more cars beside its three (a second row on
 * the grid, each a copy of the one ahead of it but its own car), all on
 * the line (fast: every car the fast car); or only car `alone` of
 * them (the others wrecked before the start). */
static int six_cars(struct world *w, int alone, int fast)
{
    if (fixture_load_map("race.ini", w))
        return -1;
    size_t had = w->vehicles.n;
    for (size_t i = 0; i < had; i++) {
        struct vehicle_params p = *w->vehicles.p[i].p;
        char id[32];
        snprintf(id, sizeof id, "car.row2_%zu", i);
        if (world_add_vehicle(w, id, VK_CAR, -1, &p,
                              v2_add(w->vehicles.p[i].pos, v2(0, -40)), 0) < 0)
            return -1;
    }
    if (world_finish(w))
        return -1;
    for (size_t i = 0; i < w->vehicles.n; i++) {
        struct vehicle_params *p = world_params_mut(w, i);
        p->steer = STEER_LINE;
        if (fast) {
            p->max_speed = 300;
            p->turn_rate = deg2rad(120);
        }
        if (alone >= 0 && (int)i != alone)
            w->vehicles.p[i].alive = 0;
    }
    return 0;
}

TEST(six_cars_race_without_collisions)
{
    for (int fast = 0; fast <= 1; fast++) {
        struct world w;
        if (six_cars(&w, -1, fast)) {
            check(0);
            return;
        }
        int skips, short_cars;
        race(&w, 3, 300, &skips, &short_cars);
        tap_note("six %s: %ld collisions, %d skips, min separation %.2f",
                 fast ? "fast cars" : "map's cars", (long)w.stats.collisions, skips,
                 w.stats.min_separation);
        /* without the racing rule there are 10 */
        check_int(w.stats.collisions, ==, 0);
        check_num(w.stats.min_separation, >, 0);
        check_int(skips, ==, 0);
        check_int(short_cars, ==, 0);
        /* each car's best lap against its best lap alone: passing (the
         * second row starts behind slower cars) costs little */
        for (size_t i = 0; i < w.vehicles.n; i++) {
            struct world one;
            if (six_cars(&one, (int)i, fast)) {
                check(0);
                continue;
            }
            int s1, sh1;
            race(&one, 3, 300, &s1, &sh1);
            double together = world_race_state(&w, &w.vehicles.p[i]).best_lap;
            double solo = world_race_state(&one, &one.vehicles.p[i]).best_lap;
            tap_note("%s: best lap %.3f s among six, %.3f s alone (%.3f x)",
                     w.vehicles.p[i].id, together, solo, together / solo);
            check_num(solo, >, 0);
            check_num(together, <=, 1.10 * solo);
            world_free(&one);
        }
        world_free(&w);
    }
}

TEST(fast_car_passes_slow_one)
{
    /* maps/race.ini's fast red car 60 units behind its slow blue one on
     * the start straight, both on the line (waypoint 0 is on it) and
     * moving: red catches blue within the first lap, passes it beside the
     * line and laps as fast as its plan allows, without touching it. */
    struct world w;
    if (fixture_load_map("race.ini", &w)) {
        check(0);
        return;
    }
    int red = world_find_vehicle(&w, "car.red"), blue = world_find_vehicle(&w, "car.blue");
    int green = world_find_vehicle(&w, "car.green");
    check(red >= 0 && blue >= 0 && green >= 0);
    if (red < 0 || blue < 0 || green < 0) {
        world_free(&w);
        return;
    }
    w.vehicles.p[green].alive = 0;
    w.vehicles.p[blue].pos = v2(330, 150);
    w.vehicles.p[red].pos = v2(270, 150);
    w.vehicles.p[blue].speed = 60;
    w.vehicles.p[red].speed = 60;
    for (size_t i = 0; i < w.vehicles.n; i++)
        world_params_mut(&w, i)->steer = STEER_LINE;
    struct race_plan *pl = race_plan_build(&w, w.track.p, (int)w.track.n,
                                           w.vehicles.p[red].p, w.dt);
    int skips, short_cars;
    race(&w, 2, 120, &skips, &short_cars);
    const struct race_state *rs = &w.racers.p[w.vehicles.p[red].racer].race;
    const struct race_state *bs = &w.racers.p[w.vehicles.p[blue].racer].race;
    tap_note("after %ld ticks: %ld collisions, red finished at %.3f s (best lap %.3f s, "
             "plan %.3f s), blue at %.3f s", w.tick, (long)w.stats.collisions,
             rs->finish_time, rs->best_lap, pl ? pl->lap_time : 0, bs->finish_time);
    check_int(w.stats.collisions, ==, 0);
    check_int(skips, ==, 0);
    /* passed: red finishes its three laps first */
    check(rs->finished && bs->finished);
    check_num(rs->finish_time, <, bs->finish_time);
    check(pl != NULL);
    if (pl)
        check_num(rs->best_lap, <=, 1.01 * pl->lap_time);
    race_plan_free(pl);
    /* the inspector's figures: where on the line, the next corner's speed */
    const struct race_info *ri = &w.racers.p[w.vehicles.p[red].racer].info;
    check_num(ri->line_s, >=, 0);
    check_num(ri->line_s, <, ri->line_lap);
    check_num(ri->corner_speed, <, w.vehicles.p[red].p->max_speed);
    check_num(ri->corner_speed, >=, w.vehicles.p[red].p->min_speed);
    world_free(&w);
}

int main(void)
{
    run(bundled_plans_pass_inside_every_disc_within_limits,
        "bundled tracks: the line passes inside every disc, speeds within the car's limits");
    run(plan_is_a_pure_function, "the same track and car plan the same line");
    run(huge_tracks_plan_bounded_lines, "a map-wide track plans a bounded line; 200 waypoints plan one, 300 none");
    run(bundled_tracks_no_skips_on_the_line,
        "bundled tracks, map's cars and fast cars on the line: 3 laps, no skipped waypoint");
    run(random_tracks_no_skips_on_the_line,
        "300 random tracks: plans within limits, 2 laps, no skipped waypoint");
    run(descent_laps_faster_within_its_bounds,
        "40 random tracks: the descent laps the line of centres faster, every point "
        "on the map, anchors in their discs, no skip");
    run(random_tracks_four_cars_no_collisions,
        "100 random tracks, four line cars of four kinds from a grid: no collision, "
        "no skipped waypoint, 2 laps each");
    run(line_beats_the_article_on_racing_line_map,
        "maps/racing-line.ini: the line laps at least 5% faster than the article");
    run(fast_car_passes_slow_one,
        "a fast car on the line passes a slow one beside the line: no collision, its plan's lap");
    run(six_cars_race_without_collisions,
        "race.ini with six cars (map's and fast) on the line: no collision, no skips, "
        "each best lap within 10% of its lap alone");
    return tap_done();
}
