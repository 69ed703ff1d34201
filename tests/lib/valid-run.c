/* valid-run.c — runs maps headless as botfield --headless --ticks N --trace
 * does (the same library calls, in the same order), timing every tick.
 *
 *   valid-run TICKS OUTDIR MAP...
 *
 * For each MAP writes OUTDIR/NAME.jsonl (NAME: the file name without .ini)
 * and prints one line "NAME STATUS MAX_TICK_SECONDS TOTAL_SECONDS", STATUS
 * 0 when it loaded and ran, 2 when the loader refused it (its message on
 * standard error), 1 when a tick or the trace failed.  tests/cli/valid-maps.sh
 * reads these lines: the per-tick bound is checked on the slowest tick. */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/tick.h"
#include "core/world.h"
#include "io/map.h"
#include "io/trace.h"

/* The process's CPU time, not the wall clock: the bound guards against a
 * tick that computes too long (a hang), and a loaded machine that takes
 * the CPU away for half a second must not read as one. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int run(const char *path, long ticks, const char *outdir, double *max_tick)
{
    struct world w;
    struct map_error err;
    if (map_load(path, NULL, &w, &err)) {
        fprintf(stderr, "%s", err.text ? err.text : "load failed\n");
        map_error_free(&err);
        return 2;
    }
    map_error_free(&err);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strlen(base);
    if (len > 4 && strcmp(base + len - 4, ".ini") == 0)
        len -= 4;
    char out[4096];
    snprintf(out, sizeof out, "%s/%.*s.jsonl", outdir, (int)len, base);
    FILE *f = fopen(out, "w");
    int rc = 1;
    if (f && trace_begin(f, &w, PACKAGE_VERSION) == 0
        && trace_states(f, &w) == 0) {
        rc = 0;
        while (w.tick < ticks) {
            double t0 = now();
            if (tick_step(&w)) {
                rc = 1;
                break;
            }
            double dt = now() - t0;
            if (dt > *max_tick)
                *max_tick = dt;
            if (trace_events(f, &w) || trace_states(f, &w)) {
                rc = 1;
                break;
            }
        }
        if (rc == 0 && trace_summary(f, &w))
            rc = 1;
    }
    if (f && fclose(f))
        rc = 1;
    world_free(&w);
    return rc;
}

int main(int argc, char **argv)
{
    setlocale(LC_NUMERIC, "C");
    if (argc < 3) {
        fprintf(stderr, "usage: valid-run TICKS OUTDIR MAP...\n");
        return 2;
    }
    long ticks = atol(argv[1]);
    for (int i = 3; i < argc; i++) {
        double max_tick = 0, t0 = now();
        int rc = run(argv[i], ticks, argv[2], &max_tick);
        const char *base = strrchr(argv[i], '/');
        printf("%s %d %.6f %.6f\n", base ? base + 1 : argv[i], rc, max_tick, now() - t0);
        fflush(stdout);
    }
    return 0;
}
