/* bench-aim — the intercept solvers (make bench).
 *
 * A million random game-like scenes (shell 200..800 units/s, target 0..120,
 * the shooter still or moving up to 60, turret 30..360 deg/s, 30..800
 * units away, range 800), solved by classic and by exact: solves per
 * second, evaluations of the equation per solve (mean, 99th percentile,
 * max), how often each finds a solution, and how far each lands from the
 * true root.  Then the turret of maps/turret.ini with each method in turn
 * (the tanks made to last ten minutes): shots, hits, hit rate.
 * Lines read "bench <name> <value> <unit>". */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/rng.h"
#include "core/tick.h"
#include "core/world.h"
#include "io/map.h"

#define BLOCK 10000
#define BLOCKS 100
#define HIST 512
#define TURRET_SECONDS 600

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void scene(struct rng *r, struct aim_scene *s)
{
    memset(s, 0, sizeof s[0]);
    s->shooter = v2(rng_range(r, 0, 2000), rng_range(r, 0, 2000));
    if (rng_unit(r) < 0.5)
        s->shooter_vel = v2_scale(v2_dir(rng_range(r, -M_PI, M_PI)), rng_range(r, 0, 60));
    s->facing = rng_range(r, -M_PI, M_PI);
    s->turn_rate = deg2rad(rng_range(r, 30, 360));
    s->shell_speed = rng_range(r, 200, 800);
    s->target = v2_add(s->shooter, v2_scale(v2_dir(rng_range(r, -M_PI, M_PI)),
                                            rng_range(r, 30, 800)));
    s->target_vel = v2_scale(v2_dir(rng_range(r, -M_PI, M_PI)), rng_range(r, 0, 120));
    s->range = 800;
}

struct stats {
    const char *name;
    double seconds;
    long solved, n;
    long hist[HIST];
    double err_sum;         /* |t_impact - exact root| over common solutions */
    long err_n;
};

static void report(struct stats *st)
{
    long sum = 0, p99 = 0, max = 0, acc = 0;
    for (int i = 0; i < HIST; i++) {
        sum += st->hist[i] * (long)i;
        if (st->hist[i])
            max = i;
    }
    for (int i = 0; i < HIST; i++) {
        acc += st->hist[i];
        if (acc * 100 >= st->n * 99) {
            p99 = i;
            break;
        }
    }
    printf("bench aim_%s_solves_per_second %.0f solves/s\n", st->name, st->n / st->seconds);
    printf("bench aim_%s_evaluations_mean %.3f evaluations\n", st->name, (double)sum / st->n);
    printf("bench aim_%s_evaluations_p99 %ld evaluations\n", st->name, p99);
    printf("bench aim_%s_evaluations_max %ld evaluations\n", st->name, max);
    printf("bench aim_%s_solved %.4f fraction\n", st->name, (double)st->solved / st->n);
}

/* How far T lies from the root of the slack next to it: bisect the sign
 * change found within +-1e-6 s to the last bit. */
static double root_error(const struct aim_scene *s, double T)
{
    double a = T - 1e-6, b = T + 1e-6;
    if (aim_exact_slack(s, a) >= 0 || aim_exact_slack(s, b) < 0)
        return 1e-6;
    for (int i = 0; i < 80 && b - a > 0; i++) {
        double m = 0.5 * (a + b);
        if (m <= a || m >= b)
            break;
        if (aim_exact_slack(s, m) >= 0)
            b = m;
        else
            a = m;
    }
    return fabs(T - 0.5 * (a + b));
}

static void solvers(void)
{
    struct aim_scene *sc = malloc(BLOCK * sizeof *sc);
    struct aim_solution *cl = malloc(BLOCK * sizeof *cl);
    struct aim_solution *ex = malloc(BLOCK * sizeof *ex);
    if (!sc || !cl || !ex) {
        fprintf(stderr, "bench-aim: out of memory\n");
        exit(1);
    }
    struct stats c, e;
    memset(&c, 0, sizeof c);
    memset(&e, 0, sizeof e);
    c.name = "classic";
    e.name = "exact";
    struct rng r;
    rng_seed(&r, 2014, 30);
    long both_fail_classic_ok = 0, exact_only = 0;
    for (int b = 0; b < BLOCKS; b++) {
        for (int i = 0; i < BLOCK; i++)
            scene(&r, &sc[i]);
        double t0 = now();
        for (int i = 0; i < BLOCK; i++)
            aim_classic_solve(&sc[i], AIM_CLASSIC_FIXED, &cl[i]);
        double t1 = now();
        for (int i = 0; i < BLOCK; i++)
            aim_exact_solve(&sc[i], &ex[i]);
        double t2 = now();
        c.seconds += t1 - t0;
        e.seconds += t2 - t1;
        for (int i = 0; i < BLOCK; i++) {
            c.n++;
            e.n++;
            c.hist[cl[i].iterations < HIST ? cl[i].iterations : HIST - 1]++;
            e.hist[ex[i].iterations < HIST ? ex[i].iterations : HIST - 1]++;
            c.solved += cl[i].ok;
            e.solved += ex[i].ok;
            if (cl[i].ok && !ex[i].ok)
                both_fail_classic_ok++;
            if (ex[i].ok && !cl[i].ok)
                exact_only++;
            if (cl[i].ok && ex[i].ok && i % 16 == 0) {
                c.err_sum += fabs(cl[i].t_impact - ex[i].t_impact);
                c.err_n++;
                e.err_sum += root_error(&sc[i], ex[i].t_impact);
                e.err_n++;
            }
        }
    }
    report(&c);
    report(&e);
    printf("bench aim_scenes %ld scenes\n", c.n);
    printf("bench aim_exact_vs_classic_speed %.3f ratio\n",
           (e.n / e.seconds) / (c.n / c.seconds));
    printf("bench aim_classic_mean_root_error %.3g s\n", c.err_sum / c.err_n);
    printf("bench aim_exact_mean_root_error %.3g s\n", e.err_sum / e.err_n);
    printf("bench aim_precision_ratio %.3g ratio\n",
           (c.err_sum / c.err_n) / fmax(e.err_sum / e.err_n, 1e-300));
    printf("bench aim_classic_ok_exact_not %ld scenes\n", both_fail_classic_ok);
    printf("bench aim_exact_ok_classic_not %ld scenes\n", exact_only);
    free(sc);
    free(cl);
    free(ex);
}

/* The turret of maps/turret.ini with one method; the tanks get health
 * enough to drive the whole run. */
static int turret_run(const char *path, enum aim_method m, long *shots, long *hits)
{
    struct world w;
    struct map_error err;
    if (map_load(path, NULL, &w, &err)) {
        fprintf(stderr, "bench-aim: %s", err.text);
        map_error_free(&err);
        return -1;
    }
    int gun = world_find_vehicle(&w, "turret.gun");
    if (gun < 0) {
        fprintf(stderr, "bench-aim: %s has no turret.gun\n", path);
        world_free(&w);
        return -1;
    }
    world_params_mut(&w, gun)->aim = m;
    for (size_t i = 0; i < w.vehicles.n; i++)
        if ((int)i != gun)
            w.vehicles.p[i].health = 1000000;
    world_moved(&w);
    *shots = *hits = 0;
    long ticks = (long)(TURRET_SECONDS * w.tick_rate);
    for (long t = 0; t < ticks; t++) {
        tick_step(&w);
        for (size_t k = 0; k < w.now.events.n; k++) {
            const struct event *e = &w.now.events.p[k];
            if (e->a != gun)
                continue;
            *shots += e->kind == EV_SHOT;
            *hits += e->kind == EV_HIT;
        }
    }
    world_free(&w);
    return 0;
}

int main(int argc, char **argv)
{
    const char *srcdir = argc > 1 ? argv[1] : ".";
    char path[4096];
    solvers();
    snprintf(path, sizeof path, "%s/maps/turret.ini", srcdir);
    for (int m = AIM_NONE; m <= AIM_EXACT; m++) {
        long shots, hits;
        if (turret_run(path, (enum aim_method)m, &shots, &hits))
            return 1;
        printf("bench aim_turret_%s_shots %ld shots\n", aim_names[m], shots);
        printf("bench aim_turret_%s_hits %ld hits\n", aim_names[m], hits);
        printf("bench aim_turret_%s_hit_rate %.3f fraction\n", aim_names[m],
               shots ? (double)hits / shots : 0);
    }
    return 0;
}
