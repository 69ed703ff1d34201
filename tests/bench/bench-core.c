/* bench-core — ticks per second of whole headless runs (make bench).
 *
 * The default map (with and without writing its trace to /dev/null) and a
 * 10,000-tank map at one tank per 10,000 square units: its first 60 ticks,
 * then ticks 61 to 3000.  Wall-clock time on
 * this machine, one core; lines read "bench <name> <value> <unit>". */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/tick.h"
#include "core/world.h"
#include "io/map.h"
#include "io/trace.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Runs whole seconds of simulation until at least min_wall seconds passed. */
static double ticks_per_second(struct world *w, FILE *trace, double min_wall, long max_ticks)
{
    world_moved(w);
    if (trace)
        trace_begin(trace, w, "bench");
    double t0 = now(), t;
    long n = 0;
    do {
        for (int i = 0; i < 60 && n < max_ticks; i++, n++) {
            tick_step(w);
            if (trace) {
                trace_events(trace, w);
                trace_states(trace, w);
            }
        }
        t = now() - t0;
    } while (t < min_wall && n < max_ticks);
    return n / t;
}

static int load(const char *name, const char *path, const char *text, struct world *w)
{
    struct map_error e;
    int rc = path ? map_load(path, NULL, w, &e)
                  : map_load_text(name, text, strlen(text), NULL, w, &e);
    if (rc) {
        fprintf(stderr, "bench: %s", e.text);
        map_error_free(&e);
    }
    return rc;
}

int main(int argc, char **argv)
{
    const char *srcdir = argc > 1 ? argv[1] : ".";
    char path[4096];
    snprintf(path, sizeof path, "%s/maps/default.ini", srcdir);
    struct world w;

    if (load("default", path, NULL, &w))
        return 1;
    printf("bench default_map %.0f ticks/s\n", ticks_per_second(&w, NULL, 2.0, 1L << 40));
    world_free(&w);

    if (load("default", path, NULL, &w))
        return 1;
    FILE *devnull = fopen("/dev/null", "w");
    printf("bench default_map_with_trace %.0f ticks/s\n", ticks_per_second(&w, devnull, 2.0, 1L << 40));
    fclose(devnull);
    world_free(&w);

    const char *big = "[map]\nname = ten thousand\nwidth = 10000\nheight = 10000\n"
                      "[team.a]\nrandom = 5000\n[team.b]\nrandom = 5000\n";
    if (load("10k", NULL, big, &w))
        return 1;
    /* Fixed counts of ticks, so two builds do the same work: the first 60
     * ticks (every tank alive, sight and aim everywhere), then on to tick
     * 3000 (the battle thinning out to its winner).  A figure of "ticks
     * done in 3 s" would weigh the two phases by the machine's speed. */
    double tps = ticks_per_second(&w, NULL, 0.0, 60);
    printf("bench tanks_10000 %.1f ticks/s\n", tps);
    printf("bench tanks_10000_updates %.0f tank-updates/s\n", tps * 10000);
    double rest = ticks_per_second(&w, NULL, 1e9, 3000 - 60);
    printf("bench tanks_10000_to_tick_3000 %.1f ticks/s\n", rest);
    world_free(&w);
    return 0;
}
