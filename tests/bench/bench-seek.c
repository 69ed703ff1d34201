/* bench-seek — seeking through the viewer's history (make bench).
 *
 * A 10-minute run of maps/crowd.ini (150 tanks, 36,000 ticks) computed with
 * the viewer's history noting every tick, then: the time of a seek to the
 * end from the start, back to the start, to a middle tick and to the tick
 * farthest from any snapshot, and the snapshots' memory.  Then the same
 * bound on a 10,000-tank map (2 minutes): the memory stays under the
 * history's bound whatever the map size.  Wall-clock time on this
 * machine, one core; lines read "bench <name> <value> <unit>". */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/tick.h"
#include "core/world.h"
#include "io/map.h"
#include "run/history.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int load(const char *path, const char *text, struct world *w)
{
    struct map_error e;
    int rc = path ? map_load(path, NULL, w, &e)
                  : map_load_text("bench", text, strlen(text), NULL, w, &e);
    if (rc) {
        fprintf(stderr, "bench-seek: %s", e.text);
        map_error_free(&e);
    }
    return rc;
}

/* Seconds to go to `target`; exits on failure. */
static double seek(struct history *h, struct world *w, long target)
{
    double t0 = now();
    long blocked;
    if (history_goto(h, w, target, NULL, &blocked) || w->tick != target) {
        fprintf(stderr, "bench-seek: cannot go to tick %ld\n", target);
        exit(1);
    }
    return now() - t0;
}

/* The tick farthest past the snapshot a seek to it starts from. */
static long worst_tick(const struct history *h)
{
    long worst = 0, gap = -1;
    for (long t = 0; t <= h->end; t++) {
        long g = t - history_base(h, t);
        if (g > gap) {
            gap = g;
            worst = t;
        }
    }
    return worst;
}

static int run(const char *name, struct world *w, long ticks)
{
    struct history h;
    if (history_init(&h, w, NULL))
        return 1;
    char err[256];
    double t0 = now();
    for (long t = 0; t < ticks; t++) {
        if (tick_step(w) || history_note(&h, w, err, sizeof err) == -1) {
            fprintf(stderr, "bench-seek: out of memory\n");
            return 1;
        }
    }
    double run_s = now() - t0;
    printf("bench %s_run %.2f s (%ld ticks, the history noting each)\n", name, run_s, ticks);
    long longest = 0;
    for (int i = 1; i < h.n; i++)
        if (h.coarse[i].w.tick - h.coarse[i - 1].w.tick > longest)
            longest = h.coarse[i].w.tick - h.coarse[i - 1].w.tick;
    printf("bench %s_snapshots %d (%d recent; the longest stretch %ld ticks)\n", name,
           h.n + h.nrecent, h.nrecent, longest);
    printf("bench %s_snapshot_memory %.1f MiB (bound %.0f MiB)\n", name,
           h.bytes / 1048576.0, h.max_bytes / 1048576.0);
    seek(&h, w, 0);
    long m = ticks / 2 + 1;
    printf("bench %s_seek_end %.4f s (%ld ticks recomputed)\n", name, seek(&h, w, ticks),
           ticks - history_base(&h, ticks));
    printf("bench %s_seek_start %.4f s\n", name, seek(&h, w, 0));
    printf("bench %s_seek_middle %.4f s (%ld ticks recomputed)\n", name, seek(&h, w, m),
           m - history_base(&h, m));
    long wt = worst_tick(&h);
    printf("bench %s_seek_worst %.4f s (tick %ld, %ld ticks recomputed)\n", name,
           seek(&h, w, wt), wt, wt - history_base(&h, wt));
    /* The stretch dearest to recompute, whole. */
    int d = 1;
    for (int i = 2; i < h.n; i++)
        if (h.coarse[i].cost > h.coarse[d].cost)
            d = i;
    if (h.n > 1) {
        long dt = h.coarse[d].w.tick;
        seek(&h, w, 0);
        printf("bench %s_seek_dearest %.4f s (tick %ld, %ld ticks recomputed)\n", name,
               seek(&h, w, dt), dt, dt - history_base(&h, dt));
    }
    history_free(&h);
    return 0;
}

int main(int argc, char **argv)
{
    const char *srcdir = argc > 1 ? argv[1] : ".";
    char path[4096];
    snprintf(path, sizeof path, "%s/maps/crowd.ini", srcdir);
    struct world w;
    if (load(path, NULL, &w))
        return 1;
    int rc = run("crowd_10min", &w, (long)(w.tick_rate * 600));
    world_free(&w);
    if (rc)
        return 1;

    const char *big = "[map]\nname = ten thousand\nwidth = 10000\nheight = 10000\n"
                      "[team.a]\nrandom = 5000\n[team.b]\nrandom = 5000\n";
    if (load(NULL, big, &w))
        return 1;
    rc = run("tanks_10000_2min", &w, (long)(w.tick_rate * 120));
    world_free(&w);
    return rc;
}
