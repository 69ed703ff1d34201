/* bench-battle — the battles themselves (make bench), issue 18.
 *
 * The 10,000-tank battle (two teams of 5,000 at random on 10,000 x 10,000,
 * every setting its default, the map bench-core runs): its first 60 ticks
 * and its ticks until the winner (or the map's minute is over, as a
 * headless run ends), with one thread and with every core
 * (--threads' default), and the speed-up; the sight queries per second of
 * its sense stage over the first 60 ticks, on one thread and on all.  The
 * default map: battles per second over seeds 1 to 10, each run to its end
 * (the winner), and the ticks per second of those battles alone (the
 * figure of bench-core is mostly ticks after the end).  Wall-clock time;
 * the one-thread and all-core runs alternate, so a burst of load from
 * elsewhere on a shared machine does not fall on one side only: the first
 * 60 ticks over FIRST60_ROUNDS pairs, each side's median with its range
 * and the speed-up as the median of the pairs' ratios with theirs (one
 * pair swings from 1.5x to 1.8x on the 2-core development machine); the
 * sense stage's queries the better of two.  Then where the first 60 ticks' time goes, stage
 * by stage (tick_ctx's stage clocks), on one thread and on all: what
 * stays on one thread shows as a stage that does not shrink.  Lines read
 * "bench <name> <value> <unit>". */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/decide.h"
#include "core/par.h"
#include "core/stages.h"
#include "core/tick.h"
#include "core/world.h"
#include "io/map.h"
#include "pairs.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static const char battle[] =
    "[map]\nname = ten thousand\nwidth = 10000\nheight = 10000\n"
    "[team.a]\nrandom = 5000\n[team.b]\nrandom = 5000\n";

static void load_text(const char *name, const char *text, struct map_options *o,
                      struct world *w)
{
    struct map_error e;
    if (map_load_text(name, text, strlen(text), o, w, &e)) {
        fprintf(stderr, "bench-battle: %s", e.text);
        exit(1);
    }
}

/* One run of the 10,000-tank battle on `threads`: the first 60 ticks' and
 * the rest's rates, and the sense stage's queries per second over the
 * first 60 (each tick's sense run once more on its own, timed: it only
 * recomputes the tick's records). */
struct battle_fig { double first60, to_end, queries; long ticks; };

static struct battle_fig run_battle(int threads, int to_end, int sense)
{
    struct world w;
    load_text("10k", battle, NULL, &w);
    w.threads = threads;
    struct battle_fig f = { 0, 0, 0, 0 };
    double t0 = now();
    for (int i = 0; i < 60; i++)
        tick_step(&w);
    f.first60 = 60 / (now() - t0);
    if (to_end) {
        /* to the winner or the end of the map's minute, as a headless
         * run goes (the battle's last survivors, a hundred or so, are
         * far apart: ten minutes do not find a winner) */
        long limit = lround(w.duration * w.tick_rate);
        t0 = now();
        while (!w.ended && w.tick < limit)
            tick_step(&w);
        f.to_end = (double)(w.tick - 60) / (now() - t0);
        f.ticks = w.tick;
    }
    world_free(&w);
    if (!sense)
        return f;

    /* the sense stage alone, from the same start */
    load_text("10k", battle, NULL, &w);
    w.threads = threads;
    double ts = 0, nq = 0;
    for (int i = 0; i < 60; i++) {
        if (!tick_ready(&w))
            exit(1);
        t0 = now();
        sight_update(&w);
        ts += now() - t0;
        nq += (double)w.now.sights.n;
        tick_step(&w);
    }
    f.queries = nq / ts;
    world_free(&w);
    return f;
}

static double maxd(double a, double b) { return a > b ? a : b; }

#define FIRST60_ROUNDS 7

/* The first 60 ticks' milliseconds a tick in each stage (stages.h; with
 * threads, act runs in decide's team of threads: one figure for both). */
static void stage_times(int threads, double ms[TICK_T_COUNT])
{
    struct world w;
    load_text("10k", battle, NULL, &w);
    w.threads = threads;
    double t[TICK_T_COUNT] = { 0 };
    if (!tick_ready(&w))
        exit(1);
    w.scratch.ctx->times = t;
    for (int i = 0; i < 60; i++)
        tick_step(&w);
    w.scratch.ctx->times = NULL;
    world_free(&w);
    for (int k = 0; k < TICK_T_COUNT; k++)
        ms[k] = t[k] * 1e3 / 60;
}

static void print_stages(int threads, const char *who)
{
    static const char *const name[TICK_T_COUNT] = {
        "grid", "sense", "decide_act", NULL, "shells", "detect"
    };
    double best[TICK_T_COUNT];
    for (int round = 0; round < 2; round++) {
        double ms[TICK_T_COUNT];
        stage_times(threads, ms);
        ms[TICK_T_DECIDE] += ms[TICK_T_ACT];
        for (int k = 0; k < TICK_T_COUNT; k++)
            best[k] = round == 0 || ms[k] < best[k] ? ms[k] : best[k];
    }
    for (int k = 0; k < TICK_T_COUNT; k++)
        if (name[k])
            printf("bench battle_10000_first60_%s_%s %.2f ms/tick\n", name[k], who, best[k]);
}

/* The default map from seeds 1 to 10, each to its end: battles per
 * second and ticks per second. */
static void default_battles(const char *path, double *bps, double *tps)
{
    long ticks = 0;
    double t = 0;
    for (uint64_t seed = 1; seed <= 10; seed++) {
        struct map_options o;
        memset(&o, 0, sizeof o);
        o.has_seed = 1;
        o.seed = seed;
        struct world w;
        struct map_error e;
        if (map_load(path, &o, &w, &e)) {
            fprintf(stderr, "bench-battle: %s", e.text);
            exit(1);
        }
        long limit = lround(w.duration * w.tick_rate);
        double t0 = now();
        while (!w.ended && w.tick < limit)
            tick_step(&w);
        t += now() - t0;
        ticks += w.tick;
        world_free(&w);
    }
    *bps = 10 / t;
    *tps = (double)ticks / t;
}

int main(int argc, char **argv)
{
    const char *srcdir = argc > 1 ? argv[1] : ".";
    char path[4096];
    snprintf(path, sizeof path, "%s/maps/default.ini", srcdir);
    int all = par_default_threads();

    struct battle_fig one = { 0, 0, 0, 0 }, many = { 0, 0, 0, 0 };
    double r1[FIRST60_ROUNDS], rn[FIRST60_ROUNDS];
    for (int round = 0; round < FIRST60_ROUNDS; round++) {
        struct battle_fig a = run_battle(1, round == 0, round < 2);
        struct battle_fig b = run_battle(all, round == 0, round < 2);
        r1[round] = a.first60;
        rn[round] = b.first60;
        one.queries = maxd(one.queries, a.queries);
        many.queries = maxd(many.queries, b.queries);
        if (round == 0) {
            one.to_end = a.to_end;
            one.ticks = a.ticks;
            many.to_end = b.to_end;
            many.ticks = b.ticks;
        }
    }
    pairs_print("battle_10000_first60", all, r1, rn, FIRST60_ROUNDS);
    printf("bench battle_10000_to_winner_1_thread %.1f ticks/s (%ld ticks)\n",
           one.to_end, one.ticks);
    printf("bench battle_10000_to_winner_%d_threads %.1f ticks/s (%ld ticks)\n",
           all, many.to_end, many.ticks);
    printf("bench battle_10000_to_winner_speedup %.2f x\n", many.to_end / one.to_end);
    printf("bench battle_10000_sight_1_thread %.0f queries/s\n", one.queries);
    printf("bench battle_10000_sight_%d_threads %.0f queries/s\n", all, many.queries);

    char who[64];
    snprintf(who, sizeof who, "%d_threads", all);
    print_stages(1, "1_thread");
    print_stages(all, who);

    double bps, tps;
    default_battles(path, &bps, &tps);
    printf("bench default_map_battles %.1f battles/s\n", bps);
    printf("bench default_map_battle_ticks %.0f ticks/s\n", tps);
    return 0;
}
