/* bench-env SRCDIR — libbotfield's speed on maps/learn.ini (a duel: the
 * agent against a built-in tank): agent-steps a second on one core with
 * observations and rewards, for B = 1, 64 and 1024 worlds (auto_reset, a
 * fixed policy of sines), against the same worlds stepped without
 * observations and against the program's headless runs of the map's
 * episodes (ticks a second); and the memory a world takes.  Medians of 3 runs, with the
 * spread.  Run from the build folder (make bench). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "botfield.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static long rss_kib(void)
{
    long pages = 0, res = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f && fscanf(f, "%ld %ld", &pages, &res) != 2)
        res = 0;
    if (f)
        fclose(f);
    return res * (sysconf(_SC_PAGESIZE) / 1024);
}

static struct bf_env *open_env(const char *map, int B)
{
    struct bf_config c = { map, NULL, B, -1, -1, NULL, 1, NULL, 0 };
    struct bf_env *env;
    char err[2048];
    if (bf_open(&c, &env, err, sizeof err)) {
        fprintf(stderr, "bench-env: %s\n", err);
        exit(1);
    }
    return env;
}

/* Agent-steps a second of `steps` agent-steps over B worlds. */
static double run(const char *map, int B, long steps, int observe)
{
    struct bf_env *env = open_env(map, B);
    int A = bf_agents(env), O = bf_obs_size(env), n = B * A;
    float *obs = malloc((size_t)n * O * sizeof *obs), *act = malloc((size_t)n * 5 * sizeof *act);
    float *rew = malloc((size_t)n * sizeof *rew);
    uint8_t *done = malloc((size_t)n);
    bf_reset(env, -1, 1, obs);
    long ticks = steps / n + 1;
    double t0 = now();
    for (long t = 0; t < ticks; t++) {
        for (int k = 0; k < n; k++) {
            float *a = act + k * 5;
            a[0] = (float)sin(0.05 * (double)t + k);
            a[1] = (float)cos(0.02 * (double)t);
            a[2] = (float)sin(0.11 * (double)t);
            a[3] = (t + k) % 20 == 0 ? 1.0f : -1.0f;
            a[4] = 0;
        }
        if (bf_step(env, act, observe ? obs : NULL, observe ? rew : NULL,
                    observe ? done : NULL)) {
            fprintf(stderr, "bench-env: %s\n", bf_error(env));
            exit(1);
        }
    }
    double s = now() - t0;
    bf_close(env);
    free(obs);
    free(act);
    free(rew);
    free(done);
    return (double)(ticks * n) / s;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of three runs, with the lowest and highest. */
static void three(double r[3], const char *what, const char *unit)
{
    qsort(r, 3, sizeof *r, cmp);
    printf("  %-44s %10.0f %s (%.0f .. %.0f)\n", what, r[1], unit, r[0], r[2]);
}

/* The program's own runs of whole episodes, as the library's worlds run
 * them (each to its end, then the next seed's): `./botfield --headless
 * --seeds 1-N --jobs 1` with the agent a built-in tank (two tanks that
 * drive, aim and fire).  Ticks a second of the child's CPU time. */
static double headless(const char *map, int seeds)
{
    char range[32];
    snprintf(range, sizeof range, "1-%d", seeds);
    int fd[2];
    if (pipe(fd))
        exit(1);
    fflush(stdout);             /* (the child's exit would write it again) */
    pid_t p = fork();
    if (p == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        execl("./botfield", "botfield", "--headless", "--seeds", range, "--jobs", "1", "--set",
              "tank.agent.player=false", map, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    FILE *f = fdopen(fd[0], "r");
    static char line[1 << 16];
    long ticks = 0;
    while (f && fgets(line, sizeof line, f)) {
        const char *t = strstr(line, "\"type\":\"run\"") ? strstr(line, "\"ticks\":") : NULL;
        if (t)
            ticks += atol(t + 8);
    }
    if (f)
        fclose(f);
    int st = 0;
    struct rusage ru;
    wait4(p, &st, 0, &ru);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || ticks == 0) {
        fprintf(stderr, "bench-env: ./botfield --headless --seeds failed\n");
        exit(1);
    }
    double cpu = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec
               + (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
    return (double)ticks / cpu;
}

int main(int argc, char **argv)
{
    char map[4096];
    snprintf(map, sizeof map, "%s/maps/learn.ini", argc > 1 ? argv[1] : ".");
    long steps = getenv("BENCH_ENV_STEPS") ? atol(getenv("BENCH_ENV_STEPS")) : 400000;
    printf("bench-env: %s, one core, %ld agent-steps a run, median of 3 (min .. max)\n",
           map, steps);
    /* memory first: later runs' freed memory would be reused */
    /* each after a step: a world's buffers grow on its first tick */
    static float act[1024 * 5], obs[1024 * 256];
    long r0 = rss_kib();
    struct bf_env *one = open_env(map, 1);
    bf_step(one, act, obs, NULL, NULL);
    long r1 = rss_kib();
    struct bf_env *many = open_env(map, 1024);
    bf_step(many, act, obs, NULL, NULL);
    long r2 = rss_kib();
    printf("  memory a world: %.1f KiB (1024 worlds: %ld KiB; 1 world: %ld KiB)\n",
           (double)(r2 - r1) / 1024.0, r2 - r1, r1 - r0);
    bf_close(many);
    bf_close(one);
    double c[3], best_c = 0;
    for (int k = 0; k < 3; k++) {
        int B = k == 0 ? 1 : k == 1 ? 64 : 1024;
        double r[3];
        for (int i = 0; i < 3; i++)
            r[i] = run(map, B, steps, 1);
        char what[80];
        snprintf(what, sizeof what, "C, observations and rewards, B = %d", B);
        three(r, what, "agent-steps/s");
        c[k] = r[1];
        best_c = c[k] > best_c ? c[k] : best_c;
    }
    double w[3], h[3];
    for (int i = 0; i < 3; i++) {
        w[i] = run(map, 1, steps, 0);
        h[i] = headless(map, 600);
    }
    three(w, "C, the world alone (no observations), B = 1", "ticks/s");
    three(h, "./botfield --headless --seeds 1-600 --jobs 1", "ticks/CPU s");
    printf("  ratios: observed steps / headless ticks %.2f (B = 1), %.2f (B = 64), "
           "%.2f (B = 1024)\n", c[0] / h[1], c[1] / h[1], c[2] / h[1]);
    printf("  goal 1,000,000 agent-steps/s a core: %s (best %.0f, %.2f of it)\n",
           best_c >= 1e6 ? "met" : "NOT met", best_c, best_c / 1e6);
    return 0;
}
