/* bench-bot — the cost of a Lua bot (make bench): nanoseconds and VM
 * instructions of one call of an empty tick and of a typical one (an
 * enemy loop, aim.exact, avoid.predictive, sight.hidden_from, a draw and
 * mem, against trivial fake built-ins) and of the bundled hunter
 * (maps/bots/hunter.lua), and the peak heap of each bot.  Times are CPU
 * time per call, with the fixture's view (3 enemies, 2 allies, 4
 * waypoints, 2 events) built into tables every call.
 * Lines read "bench <name> <value> <unit>". */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../lib/bot-fixture.c"

/* CPU time of this process: the machine may be shared, and a wall clock
 * would count the time others ran. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static const char empty[] = "function tick(me, world, mem, out) end";

static const char typical[] =
    "function tick(me, world, mem, out)\n"
    "  local best, bd = nil, math.huge\n"
    "  for _, e in ipairs(world.enemies) do\n"
    "    if e.distance < bd then best, bd = e, e.distance end\n"
    "  end\n"
    "  if best then\n"
    "    mem.last_x, mem.last_y = best.x, best.y\n"
    "    local dir = aim.exact(best)\n"
    "    if dir then out.turret = dir; out.fire = me.gun_ready end\n"
    "  end\n"
    "  local hidden = mem.last_x and sight.hidden_from(mem.last_x, mem.last_y) or 1\n"
    "  local heading = me.heading + (hidden < 0.5 and 30 or 0)\n"
    "  out.turn, out.speed = avoid.predictive(heading, me.max_speed)\n"
    "  draw.line(me.x, me.y, mem.last_x or me.x, mem.last_y or me.y, 'red')\n"
    "end\n";

static void measure(const char *name, const char *lua, int bare)
{
    struct fixture fx;
    struct bot_report rep;
    struct bot_out out;
    char err[256];
    fixture_init(&fx, 1);
    if (bare)   /* nothing seen, no allies, no track, no events */
        fx.view.n_enemies = fx.view.n_allies = fx.view.n_waypoints = fx.view.n_events = 0;
    struct bot *b = fixture_bot(lua, 0, 0, err, sizeof err);
    if (!b) {
        fprintf(stderr, "bench-bot: %s\n", err);
        return;
    }
    /* instructions: one call counted exactly */
    bot_set_count_step(b, 1);
    bot_tick(b, &fx.view, &out, &rep);
    long instr = rep.instructions;
    bot_set_count_step(b, 1000);
    int n = 200000;
    for (int i = 0; i < 1000; i++)
        bot_tick(b, &fx.view, &out, &rep);
    double t0 = now();
    for (int i = 0; i < n; i++)
        bot_tick(b, &fx.view, &out, &rep);
    double dt = now() - t0;
    printf("bench bot_%s_tick_ns %.0f ns\n", name, dt / n * 1e9);
    printf("bench bot_%s_tick_instructions %ld instructions\n", name, instr);
    printf("bench bot_%s_heap_peak %.1f KiB\n", name, rep.heap_peak / 1024.0);
    if (rep.error[0])
        fprintf(stderr, "bench-bot: %s: %s\n", name, rep.error);
    bot_free(b);
}

int main(int argc, char **argv)
{
    measure("bare_empty", empty, 1);
    measure("empty", empty, 0);
    measure("typical", typical, 0);
    char maps[4096];
    snprintf(maps, sizeof maps, "%s/maps", argc > 1 ? argv[1] : ".");
    struct bot_script s;
    char err[256];
    if (bot_script_read(maps, "bots/hunter.lua", &s, err, sizeof err) == 0) {
        char *text = malloc(s.len + 1);
        if (text) {
            memcpy(text, s.bytes, s.len);
            text[s.len] = 0;
            measure("hunter", text, 0);
            free(text);
        }
        bot_script_free(&s);
    } else {
        fprintf(stderr, "bench-bot: %s\n", err);
    }
    return 0;
}
