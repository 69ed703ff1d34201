/* test-bot-agent — agent.observe() and agent.act() in a running world.
 *
 * What it proves: a Lua bot's agent.observe() is, number for number and
 * bit for bit, observe_vehicle() of its vehicle on the world it decides
 * on (this tick's, after this tick's sight), through a battle with
 * enemies seen, enemy shells near and trees on its rays; the intents
 * agent.act() gives are bot_out_of_action()'s for the same action, as
 * the world records them; the sizes and the alive flag a script reads. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "../lib/bot-dir.h"
#include "../lib/map-fixture.h"
#include "bot/bot_world.h"
#include "core/observe.h"
#include "core/sight/sight.h"
#include "core/tick.h"
#include "core/world.h"

/* One red bot against four blue tanks that hunt and shoot, in a forest. */
static const char *const battle =
    "[map]\nwidth = 1200\nheight = 900\nseed = 11\n"
    "[trees]\nrandom = 60\nradius = 18\n"
    "[team.red]\n[team.blue]\nrandom = 4\n"
    "[tank.a]\nteam = red\nx = 600\ny = 450\nhealth = 100000\nbot = agent.lua\n";

/* Its observation in hex (exact), eleven numbers a line after a head
 * line; then an action of the tick's own. */
static const char agent_lua[] =
    "function tick(me, w, mem, out)\n"
    " local o = agent.observe()\n"
    " log('T', w.tick, #o)\n"
    " for i = 1, #o, 11 do\n"
    "  local s = {}\n"
    "  for k = i, math.min(i + 10, #o) do s[#s + 1] = string.format('%a', o[k]) end\n"
    "  log(table.concat(s, ' '))\n"
    " end\n"
    " local t = w.tick\n"
    " agent.act(out, {math.sin(t / 7), math.cos(t / 5), math.sin(t / 3),\n"
    "                 t % 3 == 0 and 1 or -1, math.cos(t / 11)})\n"
    "end\n";

/* The action agent_lua takes at tick t. */
static void action_at(long t, double a[5])
{
    a[0] = sin((double)t / 7);
    a[1] = cos((double)t / 5);
    a[2] = sin((double)t / 3);
    a[3] = t % 3 == 0 ? 1 : -1;
    a[4] = cos((double)t / 11);
}

/* The logged observation into got; its count, or -1 when the report is
 * not this tick's. */
static int logged(const struct bot_report *r, long tick, double *got, int max)
{
    long t = -1;
    int n = -1, at = 0;
    if (r->n_log < 1 || sscanf(r->log[0], "T %ld %d", &t, &n) != 2 || t != tick)
        return -1;
    for (int l = 1; l < r->n_log; l++)
        for (char *p = (char *)r->log[l], *end; *p && at < max; p = end) {
            got[at++] = strtod(p, &end);
            if (end == p)
                return -1;
        }
    return at == n ? n : -1;
}

/* The world as the decide stage of the next step sees it: its grid,
 * the next tick's number and sight (tick_step does the same again, to
 * the same result). */
static void as_decided(struct world *w, int i, float *obs, struct bot_out *act)
{
    tick_ready(w);
    w->tick++;
    sight_update(w);
    observe_vehicle(w, i, 4, 8, obs);
    double a[5];
    action_at(w->tick, a);
    *act = bot_out_of_action(w, i, a);
    w->tick--;
}

TEST(observe_and_act_are_the_cores)
{
    put("agent.lua", agent_lua);
    struct world w;
    struct bot_world *bw;
    if (load(battle, &w, &bw))
        return;
    int i = world_find_vehicle(&w, "tank.a"), n = observe_size(4, 8);
    int ticks = 0, differ = 0, enemies = 0, shells = 0, rays = 0, acts = 0;
    tick_step(&w);                      /* past tick 0's separation */
    for (int t = 0; t < 600 && world_vehicle(&w, i)->alive; t++) {
        float want[OBSERVE_OWN + (OBSERVE_ENEMY + OBSERVE_SHELL) * 4 + 8];
        double got[sizeof want / sizeof *want];
        struct bot_out act;
        as_decided(&w, i, want, &act);
        tick_step(&w);
        if (logged(bot_world_report(bw, i), w.tick, got, n) != n) {
            differ++;
            tap_note("tick %ld: no observation logged", w.tick);
            break;
        }
        ticks++;
        for (int k = 0; k < n; k++)
            if (memcmp(&got[k], &(double){ want[k] }, sizeof(double))) {
                if (differ++ < 5)
                    tap_note("tick %ld: [%d] %a, observe_vehicle %a", w.tick, k + 1, got[k],
                             (double)want[k]);
            }
        enemies += want[OBSERVE_OWN] == 1;
        shells += want[OBSERVE_OWN + OBSERVE_ENEMY * 4] == 1;
        for (int r = 0; r < 8; r++)
            rays += want[n - 8 + r] < 1;
        struct bot_intent in;
        if (bot_world_intent(bw, &w, i, &in) == 1 && in.turn == act.turn
            && in.speed == act.speed && in.turret == act.turret && in.fire == act.fire
            && in.radar == act.radar)
            acts++;
    }
    check_int(ticks, ==, 600);
    check_int(differ, ==, 0);
    check_int(acts, ==, ticks);
    /* every part of the observation was exercised */
    check_int(enemies, >, 10);
    check_int(shells, >, 10);
    check_int(rays, >, 10);
    tap_note("%d ticks: an enemy seen in %d, an enemy shell near in %d, %d rays hit", ticks,
             enemies, shells, rays);
    bot_world_free(&w, bw);
    world_free(&w);
}

TEST(sizes_and_alive_as_a_script_reads_them)
{
    put("sizes.lua", "function tick(me, w, mem, out)\n"
                     " for _, kr in ipairs({{}, {0, 0}, {16, 64}, {2}, {nil, 3}, {1, 1}}) do\n"
                     "  local K, R = kr[1] or 4, kr[2] or 8\n"
                     "  local o = agent.observe(kr[1], kr[2])\n"
                     "  if #o ~= 12 + 11 * K + R or o[1] ~= 1 or o[2] ~= 1 then\n"
                     "   error(string.format('K %d R %d: %d numbers, alive %s, health %s', K, R, #o, o[1], o[2]))\n"
                     "  end\n"
                     " end\n"
                     " log('ok', w.tick)\n"
                     "end\n");
    struct world w;
    struct bot_world *bw;
    if (load("[map]\nwidth = 600\nheight = 600\n[team.red]\n"
             "[tank.a]\nteam = red\nx = 300\ny = 300\nbot = sizes.lua\n", &w, &bw))
        return;
    tick_step(&w);
    tick_step(&w);
    const struct bot_report *r = bot_world_report(bw, world_find_vehicle(&w, "tank.a"));
    check_str(r->error, "");
    check_str(r->n_log > 0 ? r->log[0] : "", "ok 2");
    check_int(bot_world_errors(bw), ==, 0);
    bot_world_free(&w, bw);
    world_free(&w);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/botfield-ag-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 99;
    }
    run(observe_and_act_are_the_cores,
        "agent.observe() = observe_vehicle() bit for bit; agent.act() = bot_out_of_action()");
    run(sizes_and_alive_as_a_script_reads_them,
        "agent.observe(K, R): 12 + 11 K + R numbers, the first (alive) 1");
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        tap_note("could not remove %s", dir);
    return tap_done();
}
