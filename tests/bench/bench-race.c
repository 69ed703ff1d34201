/* bench-race — lap times on the bundled race maps (make bench).
 *
 * Every car of a map is raced with each method in turn (none, classic and
 * exact speed rules steering the article's way, in one run, since those
 * cars pass through each other; then steer = line, one run a car alone,
 * since cars on the line hold back for each other), and
 * its best lap is compared with two yardsticks:
 *   bound       the fastest possible lap on the polyline of waypoint
 *               centres (tests/race-bound.c, the yardstick of the rules
 *               that head for the centres);
 *   line_bound  the planned racing line's own lap: its speed profile is,
 *               at every point, the most the car's turn rate (exact radius,
 *               with the share the follower keeps back), accel and brake
 *               allow on that path, so no driver of that path beats it.
 * and the ratio of line's best lap to the best of the other three.  Skipped
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
#include "../race-bound.h"

/* A car that has not finished by then orbits somewhere. */
#define BENCH_SECONDS 600
#define METHODS 4           /* none, classic, exact, line */
#define MAXCARS 16

static const char *const method_names[METHODS] = { "none", "classic", "exact", "line" };

/* One run of map `path` with method m; solo >= 0: only the solo-th car
 * races (the others wrecked before the start) and only it is reported.
 * Fills best[] and skipped[] by car; returns the cars, -1 on error. */
static int run_method(const char *path, const char *name, int m, int solo, double *best,
                      int *skipped, char ids[][64])
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
        if (w.vehicles.p[i].kind == VK_CAR && solo >= 0 && car++ != solo)
            w.vehicles.p[i].alive = 0;
    }
    world_moved(&w);
    long limit = (long)(BENCH_SECONDS * w.tick_rate);
    int skips[MAXCARS] = { 0 };
    while (!w.ended && w.tick < limit) {
        tick_step(&w);
        for (size_t k = 0; k < w.events.n; k++)
            if (w.events.p[k].kind == EV_WAYPOINT_SKIPPED && w.events.p[k].a < MAXCARS)
                skips[w.events.p[k].a]++;
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
        }
        if (m == 3) {
            struct race_plan *pl = race_plan_build(&w, w.track.p, (int)w.track.n,
                                                   v->p, w.dt);
            if (pl)
                printf("bench race_%s_line_bound_%s %.3f s\n", name, v->id, pl->lap_time);
            if (pl && world_race_state(&w, v).laps >= 2)
                printf("bench race_%s_line_%s_line_bound_ratio %.3f x\n", name,
                       v->id, world_race_state(&w, v).best_lap / pl->lap_time);
            race_plan_free(pl);
        }
        printf("bench race_%s_%s_%s_skipped %d waypoints\n", name, method_names[m],
               v->id, skipped[car]);
        if (world_race_state(&w, v).laps < 2) {
            /* Lap 1 includes the run-up from the start: no flying lap. */
            printf("bench race_%s_%s_%s_laps %d laps\n", name, method_names[m], v->id,
                   world_race_state(&w, v).laps);
        } else {
            best[car] = world_race_state(&w, v).best_lap;
            printf("bench race_%s_%s_%s_best_lap %.3f s\n", name, method_names[m],
                   v->id, best[car]);
        }
        car++;
    }
    int cars = 0;
    for (size_t i = 0; i < w.vehicles.n; i++)
        cars += w.vehicles.p[i].kind == VK_CAR;
    world_free(&w);
    return cars;
}

static int bench_map(const char *srcdir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/maps/%s.ini", srcdir, name);
    double best[METHODS][MAXCARS] = { { 0 } };
    int skipped[METHODS][MAXCARS] = { { 0 } };
    char ids[MAXCARS][64];
    int ncars = 0;
    for (int m = 0; m < METHODS; m++) {
        /* line's cars hold back for each other: each is timed alone (the
         * others wrecked before the start); the rest pass through each
         * other and are timed in one run */
        int runs = m == 3 ? MAXCARS : 1;
        for (int solo = 0; solo < runs; solo++) {
            int cars = run_method(path, name, m, m == 3 ? solo : -1, best[m], skipped[m],
                                  ids);
            if (cars < 0)
                return 1;
            ncars = cars;
            if (m == 3 && solo + 1 >= cars)
                break;
        }
    }
    /* line over the best of the others, then over the best of those
     * that skipped no waypoint (a skip is a short cut) */
    for (int c = 0; c < ncars; c++) {
        double others = 0, clean = 0;
        for (int m = 0; m < 3; m++) {
            if (best[m][c] > 0 && (others == 0 || best[m][c] < others))
                others = best[m][c];
            if (best[m][c] > 0 && skipped[m][c] == 0 && (clean == 0 || best[m][c] < clean))
                clean = best[m][c];
        }
        if (others > 0 && best[3][c] > 0)
            printf("bench race_%s_line_over_best_%s %.3f x\n", name, ids[c],
                   best[3][c] / others);
        if (clean > 0 && best[3][c] > 0)
            printf("bench race_%s_line_over_best_unskipped_%s %.3f x\n", name, ids[c],
                   best[3][c] / clean);
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *srcdir = argc > 1 ? argv[1] : ".";
    static const char *const maps[] = { "race", "racing-line" };
    for (size_t k = 0; k < sizeof maps / sizeof maps[0]; k++)
        if (bench_map(srcdir, maps[k]))
            return 1;
    return 0;
}
