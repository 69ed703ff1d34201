/* bench-race — lap times on maps/race.ini (make bench).
 *
 * Every car of the map is raced with each speed rule in turn (cars pass
 * through each other, so one run times them all independently), and its
 * best lap is compared with the fastest possible lap on the same waypoint
 * polyline (tests/race-bound.c).  Simulated seconds, not wall-clock: the
 * numbers are the same on every machine.  Lines read
 * "bench <name> <value> <unit>"; a car that never finishes a lap prints its
 * laps instead. */
#include <stdio.h>
#include <string.h>

#include "core/tick.h"
#include "core/world.h"
#include "io/map.h"
#include "../race-bound.h"

/* A car that has not finished by then orbits somewhere. */
#define BENCH_SECONDS 600

int main(int argc, char **argv)
{
    const char *srcdir = argc > 1 ? argv[1] : ".";
    char path[4096];
    snprintf(path, sizeof path, "%s/maps/race.ini", srcdir);

    for (int rule = SPEED_RULE_NONE; rule <= SPEED_RULE_EXACT; rule++) {
        struct world w;
        struct map_error e;
        if (map_load(path, NULL, &w, &e)) {
            fprintf(stderr, "bench-race: %s", e.text);
            map_error_free(&e);
            return 1;
        }
        for (size_t i = 0; i < w.vehicles.n; i++)
            world_params_mut(&w, i)->speed_rule = (enum speed_rule)rule;
        world_moved(&w);
        long limit = (long)(BENCH_SECONDS * w.tick_rate);
        while (!w.ended && w.tick < limit)
            tick_step(&w);
        for (size_t i = 0; i < w.vehicles.n; i++) {
            const struct vehicle *v = &w.vehicles.p[i];
            if (v->kind != VK_CAR)
                continue;
            double bound = race_bound_lap(w.track.p, (int)w.track.n, v->p, w.dt, 0.5);
            if (rule == SPEED_RULE_NONE)
                printf("bench race_bound_%s %.3f s\n", v->id, bound);
            if (world_race_state(&w, v).laps < 2) {
                /* Lap 1 includes the run-up from the start: no flying lap. */
                printf("bench race_%s_%s_laps %d laps\n", speed_rule_names[rule], v->id,
                       world_race_state(&w, v).laps);
                continue;
            }
            printf("bench race_%s_%s_best_lap %.3f s\n", speed_rule_names[rule], v->id,
                   world_race_state(&w, v).best_lap);
            printf("bench race_%s_%s_ratio %.3f x\n", speed_rule_names[rule], v->id,
                   world_race_state(&w, v).best_lap / bound);
        }
        world_free(&w);
    }
    return 0;
}
