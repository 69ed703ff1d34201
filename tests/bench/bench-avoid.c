/* bench-avoid — collision avoidance at scale (make bench).
 *
 * 1,000, 10,000 and 100,000 wandering tanks at one tank per 10,000 square
 * units, `classic` and `predictive`, whole ticks (collision detection and
 * all) with the neighbour grid and, where a run takes under 10 s, with the
 * brute-force all-pairs search; the grid/brute ratio; the peak memory per
 * tank.  One thread, so one core: ticks/s are from the process's CPU time,
 * which other work on a shared machine barely disturbs, and the _wall
 * lines give wall-clock time for the same runs.  Peak memory per tank is
 * measured apart, in a child process of its own for each size and method
 * (a process's peak resident set only ever grows, so in one process a
 * later, smaller run would read as nothing): the growth of the child's
 * peak resident set from before the world is built to after two seconds
 * of ticks (the world, the grid, everything a tick allocates), divided by
 * the tanks.  Lines read "bench <name> <value> <unit>". */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/tick.h"
#include "core/world.h"

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double now(void) { return clock_s(CLOCK_PROCESS_CPUTIME_ID); }
static double wall(void) { return clock_s(CLOCK_MONOTONIC); }

static long maxrss_bytes(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss * 1024L;
}

/* The resident set now (not its peak), from /proc; 0 where unknown. */
static long rss_now_bytes(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    return resident * sysconf(_SC_PAGESIZE);
}

/* n tanks, one in each 100 x 100 square at a random spot inside it, so
 * the density is exact and nobody starts overlapping. */
static void build(struct world *w, int n, enum avoid_method m, int brute)
{
    int side = 1;
    while ((long)side * side < n)
        side++;
    world_init(w, side * 100.0, side * 100.0);
    w->seed = 42;
    world_add_team(w, "crowd", 0);
    WORLD_RESERVE(w->vehicles, (size_t)n);
    struct vehicle_params p;
    world_default_params(&p, VK_TANK);
    p.avoid = m;            /* otherwise default tanks (view 800 and all) */
    struct rng r;
    rng_seed(&r, 42, 1);
    for (int i = 0; i < n; i++) {
        char id[24];
        snprintf(id, sizeof id, "tank.%d", i + 1);
        vec2 c = v2((i % side) * 100.0 + rng_range(&r, 21, 79),
                    (i / side) * 100.0 + rng_range(&r, 21, 79));
        world_add_vehicle(w, id, VK_TANK, 0, &p, c, rng_range(&r, -M_PI, M_PI));
    }
    for (int i = 0; i < n; i++)
        w->vehicles.p[i].speed = p.speed;
    world_finish(w);
    if (tick_set_options(w, &(struct tick_options){ .avoid_brute = brute }))
        exit(1);
    world_moved(w);
}

/* Ticks per second over at least min_wall seconds (after a second of
 * warm-up so the crowd is moving and meeting). */
static double run(struct world *w, double min_wall, long max_ticks, double *per_wall)
{
    double t0 = now(), w0 = wall(), t;
    long k = 0;
    do {
        tick_step(w);
        k++;
        t = now() - t0;
    } while ((t < min_wall || k < 3) && k < max_ticks);
    if (per_wall)
        *per_wall = k / (wall() - w0);
    return k / t;
}

int main(void)
{
    static const int sizes[] = { 1000, 10000, 100000 };
    static const enum avoid_method methods[] = { AVOID_CLASSIC, AVOID_PREDICTIVE };
    double brute_tick[2] = { 0, 0 };
    /* Memory first, while this process is still small: a child inherits
     * its parent's peak, so the children must start from a small one. */
    for (int s = 0; s < 3; s++)
        for (int m = 0; m < 2; m++) {
            fflush(stdout);
            pid_t pid = fork();
            if (pid == 0) {
                struct world w;
                long rss0 = rss_now_bytes();
                build(&w, sizes[s], methods[m], 0);
                run(&w, 2.0, 1L << 40, NULL);
                long rss1 = maxrss_bytes();
                if (rss0 > 0)
                    printf("bench avoid_%s_%d_peak_memory %.0f bytes/tank\n", avoid_names[methods[m]],
                           sizes[s], (double)(rss1 - rss0) / sizes[s]);
                fflush(stdout);
                _exit(0);
            }
            if (pid > 0)
                waitpid(pid, NULL, 0);
        }
    for (int s = 0; s < 3; s++) {
        int n = sizes[s];
        for (int m = 0; m < 2; m++) {
            struct world w;
            build(&w, n, methods[m], 0);
            run(&w, 0.0, 60, NULL);         /* warm-up: one second */
            double grid_wall;
            double grid = run(&w, 2.0, 1L << 40, &grid_wall);
            printf("bench avoid_%s_%d_grid %.1f ticks/s\n", avoid_names[methods[m]], n, grid);
            printf("bench avoid_%s_%d_grid_updates %.0f tank-updates/s\n", avoid_names[methods[m]], n, grid * n);
            printf("bench avoid_%s_%d_grid_wall %.1f ticks/s\n", avoid_names[methods[m]], n, grid_wall);
            printf("bench avoid_%s_%d_collisions_per_10000_tank_s %.3g collisions\n",
                   avoid_names[methods[m]], n, w.stats.collisions * 10000.0 / (n * (w.tick / w.tick_rate)));
            world_free(&w);

            /* Brute force, only where a few ticks fit in 10 s: the
             * smallest size's tick, scaled by n^2, tells how long. */
            double one = brute_tick[m] * ((double)n / sizes[0]) * ((double)n / sizes[0]);
            if (s == 0 || one * 4 < 10) {
                build(&w, n, methods[m], 1);
                double t0 = now();
                tick_step(&w);
                one = now() - t0;
                if (s == 0)
                    brute_tick[m] = one;
            }
            if (one * 4 < 10) {
                double brute = run(&w, 2.0, (long)(10 / one) - 1, NULL);
                printf("bench avoid_%s_%d_brute %.2f ticks/s\n", avoid_names[methods[m]], n, brute);
                printf("bench avoid_%s_%d_brute_updates %.0f tank-updates/s\n", avoid_names[methods[m]], n, brute * n);
                printf("bench avoid_%s_%d_grid_over_brute %.1f x\n", avoid_names[methods[m]], n, grid / brute);
                world_free(&w);
            } else {
                printf("# avoid_%s_%d_brute skipped: a tick would take about %.0f s\n", avoid_names[methods[m]], n, one);
            }
        }
    }
    return 0;
}
