/* bench-race — lap times on the bundled race maps (make bench).
 *
 * Every car of a map is raced with each method in turn (none, classic and
 * exact speed rules steering the article's way, in one run, since those
 * cars pass through each other; then steer = line, one run a car alone,
 * since cars on the line pass and hold back for each other), and
 * its best lap is compared with three yardsticks:
 *   bound       the fastest possible lap on the polyline of waypoint
 *               centres (tests/lib/race-bound.c, the yardstick of the rules
 *               that head for the centres);
 *   line_bound  the planned racing line's own lap: its speed profile is,
 *               at every point, the most the car's turn rate (exact radius),
 *               accel and brake allow on that path: a bound for a car that
 *               drives exactly that path (the follower, cutting a little
 *               inside it, beats it by up to 0.2%);
 *   floor       a true floor under every valid lap on any path: the
 *               shortest path through the contact discs over max_speed
 *               (tests/lib/race-bound.h says why), loose where the car must
 *               brake.
 * and the ratio of line's best lap to the best of the other three.  Only
 * valid laps count, for every method alike: a lap in which the car skipped
 * a waypoint (the skip rule moved it on although it never touched the
 * disc) cut the course and is no lap; the fastest of those is printed
 * apart (best_lap_with_skips) when it beats the valid one.  Skipped
 * waypoints are counted per car and method.  Simulated seconds, not
 * wall-clock: the numbers are the same on every machine.  Lines read
 * "bench <name> <value> <unit>"; a car that never finishes a flying lap
 * prints its laps instead. */
#include <stdio.h>
#include <string.h>

#include "core/tick.h"
#include "core/world.h"
#include "core/race/race_line.h"
#include "io/map.h"
#include "../lib/race-bound.h"

/* A car that has not finished by then orbits somewhere. */
#define BENCH_SECONDS 600
#define METHODS 4           /* none, classic, exact, line */
#define MAXCARS 16
/* The fast car: every car of the map with these (the "-fast"
 * rows), its other settings kept. */
#define FAST_MAX_SPEED 300
#define FAST_TURN_RATE 120

static const char *const method_names[METHODS] = { "none", "classic", "exact", "line" };

/* One run of map `path` with method m (fast: every car the fast car);
 * solo >= 0: only the solo-th car races (the others wrecked before the
 * start) and only it is reported.
 * Fills best[] and skipped[] (and bounds[], the centres' lap bound, when
 * given) by car; returns the cars, -1 on error. */
static int run_method(const char *path, const char *name, int fast, int m, int solo,
                      double *best, int *skipped, char ids[][64], double *bounds)
{
    struct world w;
    struct map_error e;
    if (map_load(path, NULL, &w, &e)) {
        fprintf(stderr, "bench-race: %s", e.text);
        map_error_free(&e);
        return -1;
    }
    int car = 0;
    for (size_t i = 0; i < w.vehicles.n; i++) {
        struct vehicle_params *p = world_params_mut(&w, i);
        p->steer = m == 3 ? STEER_LINE : STEER_CLASSIC;
        p->speed_rule = m == 3 ? SPEED_RULE_EXACT : (enum speed_rule)m;
        if (fast) {
            p->max_speed = FAST_MAX_SPEED;
            p->turn_rate = deg2rad(FAST_TURN_RATE);
        }
        if (w.vehicles.p[i].kind == VK_CAR && solo >= 0 && car++ != solo)
            w.vehicles.p[i].alive = 0;
    }
    world_moved(&w);
    long limit = (long)(BENCH_SECONDS * w.tick_rate);
    int skips[MAXCARS] = { 0 }, dirty[MAXCARS] = { 0 }, valid[MAXCARS] = { 0 };
    double fair[MAXCARS] = { 0 };
    while (!w.ended && w.tick < limit) {
        tick_step(&w);
        /* A lap counts when no waypoint of it was skipped (a skip is a
         * short cut, whatever the method): the skip of a lap comes before
         * its lap event in the same tick. */
        for (size_t k = 0; k < w.now.events.n; k++) {
            const struct event *e = &w.now.events.p[k];
            if (e->a < 0 || e->a >= MAXCARS)
                continue;
            if (e->kind == EV_WAYPOINT_SKIPPED) {
                skips[e->a]++;
                dirty[e->a] = 1;
            } else if (e->kind == EV_LAP) {
                /* lap 1 includes the run-up from the start: no flying lap */
                if (e->u.lap.lap >= 2 && !dirty[e->a]) {
                    valid[e->a]++;
                    if (fair[e->a] == 0 || e->u.lap.time < fair[e->a])
                        fair[e->a] = e->u.lap.time;
                }
                dirty[e->a] = 0;
            }
        }
    }
    car = 0;
    for (size_t i = 0; i < w.vehicles.n && car < MAXCARS; i++) {
        const struct vehicle *v = &w.vehicles.p[i];
        if (v->kind != VK_CAR)
            continue;
        if (solo >= 0 && car != solo) {
            car++;
            continue;
        }
        snprintf(ids[car], sizeof ids[car], "%s", v->id);
        skipped[car] = i < MAXCARS ? skips[i] : -1;
        if (m == 0) {
            double bound = race_bound_lap(w.track.p, (int)w.track.n, v->p, w.dt, 0.5);
            printf("bench race_%s_bound_%s %.3f s\n", name, v->id, bound);
            if (bounds)
                bounds[car] = bound;
        }
        if (m == 3) {
            struct race_plan *pl = race_plan_build(&w, w.track.p, (int)w.track.n,
                                                   v->p, w.dt);
            double floor = race_floor_length(w.track.p, (int)w.track.n, v->p->radius)
                         / v->p->max_speed;
            printf("bench race_%s_floor_%s %.3f s\n", name, v->id, floor);
            if (world_race_state(&w, v).laps >= 2)
                printf("bench race_%s_line_%s_line_floor_ratio %.3f x\n", name, v->id,
                       world_race_state(&w, v).best_lap / floor);
            if (pl)
                printf("bench race_%s_line_bound_%s %.3f s\n", name, v->id, pl->lap_time);
            if (pl && world_race_state(&w, v).laps >= 2)
                printf("bench race_%s_line_%s_line_bound_ratio %.3f x\n", name,
                       v->id, world_race_state(&w, v).best_lap / pl->lap_time);
            race_plan_free(pl);
        }
        printf("bench race_%s_%s_%s_skipped %d waypoints\n", name, method_names[m],
               v->id, skipped[car]);
        int vi = i < MAXCARS ? (int)i : 0;
        if (i >= MAXCARS || valid[vi] == 0) {
            printf("bench race_%s_%s_%s_laps %d laps\n", name, method_names[m], v->id,
                   world_race_state(&w, v).laps);
            printf("bench race_%s_%s_%s_valid_laps 0 laps\n", name, method_names[m], v->id);
        } else {
            best[car] = fair[vi];
            printf("bench race_%s_%s_%s_valid_laps %d laps\n", name, method_names[m], v->id,
                   valid[vi]);
            printf("bench race_%s_%s_%s_best_lap %.3f s\n", name, method_names[m],
                   v->id, best[car]);
        }
        if (world_race_state(&w, v).laps >= 2
            && (best[car] == 0 || world_race_state(&w, v).best_lap < best[car] - 1e-9))
            printf("bench race_%s_%s_%s_best_lap_with_skips %.3f s\n", name,
                   method_names[m], v->id, world_race_state(&w, v).best_lap);
        car++;
    }
    int cars = 0;
    for (size_t i = 0; i < w.vehicles.n; i++)
        cars += w.vehicles.p[i].kind == VK_CAR;
    world_free(&w);
    return cars;
}

static int bench_path(const char *path, const char *name);

static int bench_map(const char *srcdir, const char *map, int fast)
{
    char path[4096], name[128];
    snprintf(path, sizeof path, "%s/maps/%s.ini", srcdir, map);
    snprintf(name, sizeof name, "%s%s", map, fast ? "-fast" : "");
    return bench_path(path, name);
}

/* Every car of map `path`, its rows called `name` (a name ending in
 * "-fast": every car the fast car). */
static int bench_path(const char *path, const char *name)
{
    size_t nl = strlen(name);
    int fast = nl >= 5 && strcmp(name + nl - 5, "-fast") == 0;
    double bound[MAXCARS] = { 0 };
    double best[METHODS][MAXCARS] = { { 0 } };
    int skipped[METHODS][MAXCARS] = { { 0 } };
    char ids[MAXCARS][64];
    int ncars = 0;
    for (int m = 0; m < METHODS; m++) {
        /* line's cars pass and hold back for each other: each is timed
         * alone (the others wrecked before the start); the rest pass
         * through each other and are timed in one run */
        int runs = m == 3 ? MAXCARS : 1;
        for (int solo = 0; solo < runs; solo++) {
            int cars = run_method(path, name, fast, m, m == 3 ? solo : -1, best[m], skipped[m],
                                  ids, m == 0 ? bound : NULL);
            if (cars < 0)
                return 1;
            ncars = cars;
            if (m == 3 && solo + 1 >= cars)
                break;
        }
    }
    /* line over the best valid lap of the others */
    for (int c = 0; c < ncars; c++) {
        double others = 0;
        for (int m = 0; m < 3; m++)
            if (best[m][c] > 0 && (others == 0 || best[m][c] < others))
                others = best[m][c];
        if (others > 0 && best[3][c] > 0)
            printf("bench race_%s_line_over_best_%s %.3f x\n", name, ids[c],
                   best[3][c] / others);
        if (bound[c] > 0 && best[3][c] > 0)
            printf("bench race_%s_line_over_bound_%s %.3f x\n", name, ids[c],
                   best[3][c] / bound[c]);
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *srcdir = argc > 1 ? argv[1] : ".";
    if (argc > 2) {
        /* bench-race SRCDIR MAP.ini...: those maps (race-any.sh's generated
         * tracks), rows named after the file, map's car and fast car */
        for (int k = 2; k < argc; k++) {
            const char *base = strrchr(argv[k], '/');
            char name[128];
            base = base ? base + 1 : argv[k];
            for (int fast = 0; fast <= 1; fast++) {
                snprintf(name, sizeof name, "%.*s%s", (int)strcspn(base, "."), base,
                         fast ? "-fast" : "");
                if (bench_path(argv[k], name))
                    return 1;
            }
        }
        return 0;
    }
    static const char *const maps[] = { "race", "racing-line" };
    for (size_t k = 0; k < sizeof maps / sizeof maps[0]; k++)
        for (int fast = 0; fast <= 1; fast++)
            if (bench_map(srcdir, maps[k], fast))
                return 1;
    return 0;
}
