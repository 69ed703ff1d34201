/* bench-bots — Lua bots in the whole simulation (make bench): the default
 * map with its ten tanks driven by the built-in rows, then by Lua bots
 * that call the same built-ins (wander, avoid.predictive, aim.exact, as
 * the rows do), ticks/s of both and their ratio (the goal: bots at least
 * half as fast); the same map with ten empty bots and with ten hunters
 * (maps/bots/hunter.lua), each bot call's cost in the simulation (the
 * run's extra CPU time over the built-ins' per bot call), and the peak
 * Lua heap per bot.  Times are CPU time.  Then a crowd of 1,000 such
 * bots on one thread and on every core (wall time: CROWD_ROUNDS
 * alternated pairs, medians), the bots deciding on the threads.
 * bench-bot gives the cost of one call in isolation, with exact
 * instruction counts.
 * Lines read "bench <name> <value> <unit>". */
#define _POSIX_C_SOURCE 200809L
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bot/bot_world.h"
#include "core/par.h"
#include "core/tick.h"
#include "core/world.h"
#include "io/map.h"
#include "pairs.h"

#define TICKS 3000

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The built-in rows, written with the API: drive (wander), avoid, aim. */
static const char row_lua[] =
    "function tick(me, world, mem, out)\n"
    "  local turn, speed = wander()\n"
    "  out.turn, out.speed = avoid.predictive(me.heading + turn * world.dt, speed)\n"
    "  local best\n"
    "  for _, e in ipairs(world.enemies) do\n"
    "    if not best or e.distance < best.distance then best = e end\n"
    "  end\n"
    "  if best then\n"
    "    local dir = aim.exact(best)\n"
    "    if dir then out.turret = dir; out.fire = me.gun_ready end\n"
    "  end\n"
    "end\n";

static const char empty_lua[] = "function tick(me, world, mem, out) end\n";

static char dir[64];

/* The default map's text with every team's tanks given `bot` (NULL: the
 * built-in rows).  All ten tanks take a million hits: a knocked-out tank
 * no longer decides, so without it the figure would measure how soon
 * each side's aim wins the battle rather than what a tick costs. */
static char *map_text(const char *bot)
{
    size_t n = map_default_len + 256;
    char *t = malloc(n);
    if (!t)
        exit(1);
    char *o = t;
    const char *s = map_default_text, *end = s + map_default_len;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t len = nl ? (size_t)(nl - s) + 1 : (size_t)(end - s);
        memcpy(o, s, len);
        o += len;
        if (!strncmp(s, "[team.", 6))
            o += sprintf(o, "health = 1000000\n%s%s%s", bot ? "bot = " : "",
                         bot ? bot : "", bot ? "\n" : "");
        s += len;
    }
    *o = 0;
    return t;
}

struct result { double ticks_s, secs; size_t heap_peak_max, heap_peak_sum; int bots, errors, alive; };

static struct result run(const char *bot)
{
    struct result r = { 0 };
    char *text = map_text(bot);
    struct world w;
    struct map_error me = { 0 };
    if (map_load_text("default.ini", text, strlen(text), NULL, &w, &me)) {
        fprintf(stderr, "bench-bots: %s\n", me.text ? me.text : "cannot load");
        exit(1);
    }
    free(text);
    struct bot_world *bw = NULL;
    char *err = NULL;
    if (bot_world_attach(&w, dir, &bw, &err)) {
        fprintf(stderr, "bench-bots: %s\n", err ? err : "cannot attach");
        exit(1);
    }
    double t0 = now();
    for (int k = 0; k < TICKS; k++) {
        tick_step(&w);
        r.errors += bot_world_errors(bw);
    }
    r.secs = now() - t0;
    r.ticks_s = TICKS / r.secs;
    for (size_t i = 0; i < w.vehicles.n; i++) {
        r.alive += w.vehicles.p[i].alive;
        const struct bot_report *rep = bot_world_report(bw, (int)i);
        if (!rep)
            continue;
        r.bots++;
        r.heap_peak_sum += rep->heap_peak;
        if (rep->heap_peak > r.heap_peak_max)
            r.heap_peak_max = rep->heap_peak;
    }
    bot_world_free(&w, bw);
    world_free(&w);
    return r;
}

/* 1,000 bots with the rows' script, two teams on a 3000 x 3000 field
 * with trees, every tank able to take a million hits: CROWD_TICKS ticks'
 * wall-clock ticks/s on `threads`. */
#define CROWD_TICKS 60
#define CROWD_ROUNDS 5
static double monotonic(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double run_crowd(int threads)
{
    static const char text[] =
        "[map]\nname = bot crowd\nwidth = 3000\nheight = 3000\n"
        "[trees]\nrandom = 100\n"
        "[team.a]\nrandom = 500\nhealth = 1000000\nbot = row.lua\n"
        "[team.b]\nrandom = 500\nhealth = 1000000\nbot = row.lua\n";
    struct world w;
    struct map_error me = { 0 };
    if (map_load_text("crowd.ini", text, strlen(text), NULL, &w, &me)) {
        fprintf(stderr, "bench-bots: %s\n", me.text ? me.text : "cannot load");
        exit(1);
    }
    struct bot_world *bw = NULL;
    char *err = NULL;
    if (bot_world_attach(&w, dir, &bw, &err)) {
        fprintf(stderr, "bench-bots: %s\n", err ? err : "cannot attach");
        exit(1);
    }
    w.threads = threads;
    double t0 = monotonic();
    int errors = 0;
    for (int k = 0; k < CROWD_TICKS; k++) {
        tick_step(&w);
        errors += bot_world_errors(bw);
    }
    double secs = monotonic() - t0;
    if (errors)
        fprintf(stderr, "bench-bots: crowd: %d bot errors\n", errors);
    bot_world_free(&w, bw);
    world_free(&w);
    return CROWD_TICKS / secs;
}

static void crowd(void)
{
    int all = par_default_threads();
    double one[CROWD_ROUNDS], many[CROWD_ROUNDS];
    for (int r = 0; r < CROWD_ROUNDS; r++) {
        one[r] = run_crowd(1);
        many[r] = run_crowd(all);
    }
    pairs_print("bots_crowd_1000", all, one, many, CROWD_ROUNDS);
}

static void put(const char *name, const char *text, size_t len)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f || fwrite(text, 1, len, f) != len || fclose(f)) {
        perror(path);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    snprintf(dir, sizeof dir, "/tmp/bench-bots-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    put("row.lua", row_lua, strlen(row_lua));
    put("empty.lua", empty_lua, strlen(empty_lua));
    char maps[4096];
    snprintf(maps, sizeof maps, "%s/maps", argc > 1 ? argv[1] : ".");
    struct bot_script hs;
    char err[256];
    if (bot_script_read(maps, "bots/hunter.lua", &hs, err, sizeof err)) {
        fprintf(stderr, "bench-bots: %s\n", err);
        return 1;
    }
    put("hunter.lua", (const char *)hs.bytes, hs.len);
    bot_script_free(&hs);

    /* builtin first and last: the machine is shared, the two bracket it */
    struct result b1 = run(NULL);
    struct result row = run("row.lua");
    struct result emp = run("empty.lua");
    struct result hun = run("hunter.lua");
    struct result b2 = run(NULL);
    double builtin = b1.ticks_s > b2.ticks_s ? b1.ticks_s : b2.ticks_s;
    double bsecs = TICKS / builtin;

    printf("bench bots_default_builtin_ticks %.0f ticks/s\n", builtin);
    printf("bench bots_default_lua_rows_ticks %.0f ticks/s\n", row.ticks_s);
    printf("bench bots_default_lua_rows_ratio %.3f lua/builtin\n", row.ticks_s / builtin);
    printf("bench bots_default_empty_ticks %.0f ticks/s\n", emp.ticks_s);
    printf("bench bots_default_hunter_ticks %.0f ticks/s\n", hun.ticks_s);
    /* a bot call's cost in the run: its extra time over the built-ins
     * (an empty bot also skips the rows' work, so its figure is a floor) */
    long calls = (long)TICKS * row.bots;
    printf("bench bots_sim_rows_call_ns %.0f ns\n", (row.secs - bsecs) / (double)calls * 1e9);
    printf("bench bots_sim_hunter_call_ns %.0f ns\n", (hun.secs - bsecs) / (double)calls * 1e9);
    printf("bench bots_sim_empty_call_ns %.0f ns\n", (emp.secs - bsecs) / (double)calls * 1e9);
    printf("bench bots_rows_heap_peak_max %.1f KiB\n", row.heap_peak_max / 1024.0);
    printf("bench bots_hunter_heap_peak_max %.1f KiB\n", hun.heap_peak_max / 1024.0);
    printf("bench bots_hunter_heap_peak_mean %.1f KiB\n",
           hun.bots ? (double)hun.heap_peak_sum / hun.bots / 1024.0 : 0);
    printf("bench bots_count %d bots\n", row.bots);
    if (b1.alive != 10 || row.alive != 10 || hun.alive != 10)
        fprintf(stderr, "bench-bots: tanks knocked out (%d, %d, %d alive): unequal loads\n",
                b1.alive, row.alive, hun.alive);
    if (row.errors || hun.errors || emp.errors)
        fprintf(stderr, "bench-bots: bot errors: rows %d, hunter %d, empty %d\n",
                row.errors, hun.errors, emp.errors);
    crowd();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) != 0;
}
