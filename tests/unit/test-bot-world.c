/* test-bot-world — Lua bots in the real simulation (src/bot/bot_world.c):
 * maps loaded from text, scripts written to a temporary folder, bots
 * attached with bot_world_attach and the world stepped with tick_step.
 *
 * What it proves: the intents are obeyed and clamped to the vehicle's
 * limits; bad intents are a bot_error with the defaults kept;
 * world.enemies is exactly the vehicle's seen sight records; the built-in
 * methods a script calls give what the built-in rows give; world.trees and
 * sight.hidden_from answer the geometry; a step back with mem replays the
 * same trace; a hostile script is disabled after 60 abandoned ticks
 * without touching anything but its own vehicle. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "../lib/bot-dir.h"
#include "../lib/map-fixture.h"
#include "bot/bot_world.h"
#include "core/tick.h"
#include "core/world.h"
#include "io/map.h"
#include "io/trace.h"

static void unload(struct world *w, struct bot_world *bw)
{
    bot_world_free(w, bw);
    world_free(w);
}

static int vid(const struct world *w, const char *id)
{
    return world_find_vehicle(w, id);
}

/* The bot lines of the last step, as text. */
static char *bot_lines(const struct bot_world *bw, const struct world *w)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f)
        exit(99);
    bot_world_trace(bw, w, f);
    fclose(f);
    return buf;
}

static const char *log0(const struct bot_world *bw, const struct world *w, const char *id)
{
    const struct bot_report *r = bot_world_report(bw, vid(w, id));
    return r && r->n_log > 0 ? r->log[0] : "";
}

/* ---- intents obeyed and clamped ----------------------------------------- */

#define OPEN_MAP(extra) \
    "[map]\nwidth = 2000\nheight = 2000\nseed = 3\n[team.red]\n" \
    "[tank.a]\nteam = red\nx = 1000\ny = 1000\nheading = 0\nspeed = 60\nturn_rate = 30\n" \
    "turret_rate = 90\n" extra

TEST(turn_and_speed_clamped)
{
    put("big.lua", "function tick(me, w, mem, out)\n"
                   " if w.tick <= 5 then out.turn = 1e9 out.speed = 1e9\n"
                   " elseif w.tick <= 10 then out.turn = -1e9 out.speed = -5\n"
                   " else out.turn = 10 out.speed = 25 end\n"
                   "end\n");
    struct world w;
    struct bot_world *bw;
    if (load(OPEN_MAP("bot = big.lua\n"), &w, &bw))
        return;
    int a = vid(&w, "tank.a");
    double step = deg2rad(30) / w.tick_rate;
    double h0 = w.vehicles.p[a].heading;
    tick_step(&w);
    check_near(angle_diff(w.vehicles.p[a].heading, h0), step, 1e-12);
    check_near(w.vehicles.p[a].speed, 60, 0);       /* max_speed is 60 */
    for (int k = 1; k < 5; k++)
        tick_step(&w);
    check_near(angle_diff(w.vehicles.p[a].heading, h0), 5 * step, 1e-9);
    h0 = w.vehicles.p[a].heading;
    tick_step(&w);
    check_near(angle_diff(w.vehicles.p[a].heading, h0), -step, 1e-12);
    check_num(w.vehicles.p[a].speed, ==, 0);        /* -5 is clamped to 0 */
    for (int k = 0; k < 5; k++)
        tick_step(&w);
    h0 = w.vehicles.p[a].heading;
    tick_step(&w);
    /* inside the limits: obeyed exactly */
    check_near(angle_diff(w.vehicles.p[a].heading, h0), deg2rad(10) / w.tick_rate, 1e-12);
    check_near(w.vehicles.p[a].speed, 25, 0);
    check_int(bot_world_errors(bw), ==, 0);
    unload(&w, bw);
}

TEST(turret_turns_at_its_rate)
{
    put("tur.lua", "function tick(me, w, mem, out) out.turret = me.turret + 179 end\n");
    struct world w;
    struct bot_world *bw;
    if (load(OPEN_MAP("bot = tur.lua\n"), &w, &bw))
        return;
    int a = vid(&w, "tank.a");
    double t0 = w.vehicles.p[a].turret;
    tick_step(&w);
    check_near(angle_diff(w.vehicles.p[a].turret, t0), deg2rad(90) / w.tick_rate, 1e-12);
    /* a turret (the vehicle) never drives, whatever it asks */
    unload(&w, bw);
}

/* A bot's radar turns toward out.radar at radar_rate, and stays where it
 * is when the bot says nothing (the built-in sweep is not a bot's); me
 * tells the sensor, the radar's direction and its rate. */
TEST(radar_turns_toward_out_radar)
{
    put("rad.lua", "function tick(me, w, mem, out)\n"
                   " log(me.sensor, me.radar, me.radar_rate, out.radar)\n"
                   " if w.tick <= 2 then out.radar = me.radar - 170\n"
                   " elseif w.tick == 3 then out.radar = me.radar + 0.25 end\n"
                   "end\n");
    struct world w;
    struct bot_world *bw;
    if (load(OPEN_MAP("bot = rad.lua\nsensor = radar\nradar_rate = 120\n"
                      "[turret.t]\nteam = red\nx = 100\ny = 100\nfacing = 30\nbot = rad.lua\n"),
             &w, &bw))
        return;
    int a = vid(&w, "tank.a"), t = vid(&w, "turret.t");
    double r0 = w.vehicles.p[a].radar, step = deg2rad(120) / w.tick_rate;
    check_near(r0, 0, 0);
    tick_step(&w);
    check_str(log0(bw, &w, "tank.a"), "radar 0.0 120.0 0.0");
    check_str(log0(bw, &w, "turret.t"), "turret 30.0 45.0 30.0");
    check_near(angle_diff(w.vehicles.p[a].radar, r0), -step, 1e-12);
    tick_step(&w);
    check_near(angle_diff(w.vehicles.p[a].radar, r0), -2 * step, 1e-12);
    double r2 = w.vehicles.p[a].radar;
    tick_step(&w);      /* within reach: exactly there */
    check_near(angle_diff(w.vehicles.p[a].radar, r2), deg2rad(0.25), 1e-12);
    double r3 = w.vehicles.p[a].radar;
    for (int k = 0; k < 5; k++)
        tick_step(&w);
    check_near(w.vehicles.p[a].radar, r3, 0);
    /* a turret's sensor is its turret: no radar turns */
    check_near(w.vehicles.p[t].radar, deg2rad(30), 1e-12);
    check_int(bot_world_errors(bw), ==, 0);
    unload(&w, bw);
}

TEST(car_accel_and_brake)
{
    put("car.lua", "function tick(me, w, mem, out)\n"
                   " if w.tick < 30 then out.speed = 1e9 else out.speed = 0 end\n"
                   " if w.tick == 2 then out.turn = 1e9 end\n"
                   " log(me.reload_left, me.gun_ready)\n"     /* no gun: 0, false */
                   "end\n");
    struct world w;
    struct bot_world *bw;
    if (load("[map]\nwidth = 2000\nheight = 2000\n"
             "[track]\nwaypoints = 100 100 30, 1900 100 30, 1900 1900 30\n"
             "[car.c]\nx = 1000\ny = 1000\nmax_speed = 200\naccel = 100\nbrake = 200\n"
             "turn_rate = 180\nbot = car.lua\n", &w, &bw))
        return;
    int c = vid(&w, "car.c");
    double dt = 1.0 / w.tick_rate;
    check_num(w.vehicles.p[c].speed, ==, 0);
    tick_step(&w);
    check_near(w.vehicles.p[c].speed, 100 * dt, 1e-12);   /* accel, not 1e9 */
    check_str(log0(bw, &w, "car.c"), "0.0 false");
    double h0 = w.vehicles.p[c].heading;
    tick_step(&w);
    check_near(angle_diff(w.vehicles.p[c].heading, h0), deg2rad(180) * dt, 1e-12);
    while (w.tick < 29)         /* ticks 1 to 29 ask for 1e9 */
        tick_step(&w);
    double s = w.vehicles.p[c].speed;
    check_near(s, 29 * 100 * dt, 1e-9);
    tick_step(&w);
    check_near(w.vehicles.p[c].speed, s - 200 * dt, 1e-9);   /* brake, not a stop */
    unload(&w, bw);
}

TEST(allies_and_waypoints_made_when_read)
{
    /* world.allies and world.waypoints come from the world when the
     * script reads them (not copied into every view each tick: the square
     * of a big team): every live ally but me in the vehicles' order, and
     * my route from index 1, or (no route of my own) the map's track, as
     * botfield-bots(7) says "waypoints (the track)" */
    put("al.lua", "function tick(me, w, mem, out)\n"
                  " local s = {} for _, a in ipairs(w.allies) do s[#s + 1] = a.id .. '@' .. a.x end\n"
                  " log(#w.allies, table.concat(s, ' '), #w.waypoints,\n"
                  "     w.waypoints[1] and (w.waypoints[2].x .. ',' .. w.waypoints[2].y .. ',' .. w.waypoints[2].r) or '-',\n"
                  "     w.next_waypoint)\n"
                  "end\n");
    struct world w;
    struct bot_world *bw;
    if (load("[map]\nwidth = 2000\nheight = 2000\nseed = 3\n"
             "[track]\nwaypoints = 100 100 30, 1900 100 25, 1900 1900 30\n"
             "[team.red]\nbot = al.lua\n[team.blue]\n"
             "[tank.a]\nteam = red\nx = 500\ny = 500\n"
             "[tank.b]\nteam = blue\nx = 600\ny = 600\n"
             "[tank.c]\nteam = red\nx = 700\ny = 700\n"
             "[tank.d]\nteam = red\nx = 800\ny = 800\n"
             "[car.e]\nx = 1000\ny = 100\nmax_speed = 50\naccel = 10\nbrake = 10\n"
             "turn_rate = 90\nbot = al.lua\n", &w, &bw))
        return;
    tick_step(&w);
    check_str(log0(bw, &w, "tank.a"), "2 tank.c@700.0 tank.d@800.0 3 1900.0,100.0,25.0 0");
    check_str(log0(bw, &w, "tank.c"), "2 tank.a@500.0 tank.d@800.0 3 1900.0,100.0,25.0 0");
    check_str(log0(bw, &w, "car.e"), "0  3 1900.0,100.0,25.0 1");
    unload(&w, bw);
}

TEST(turret_vehicle_never_drives)
{
    put("tv.lua", "function tick(me, w, mem, out) out.speed = 50 out.turn = 90\n"
                  " out.turret = me.turret - 100 end\n");
    struct world w;
    struct bot_world *bw;
    if (load("[map]\nwidth = 1000\nheight = 1000\n"
             "[team.red]\n[turret.t]\nteam = red\nx = 500\ny = 500\nfacing = 0\nturret_rate = 60\nbot = tv.lua\n",
             &w, &bw))
        return;
    int t = vid(&w, "turret.t");
    vec2 p0 = w.vehicles.p[t].pos;
    double tu = w.vehicles.p[t].turret;
    tick_step(&w);
    check_num(w.vehicles.p[t].pos.x, ==, p0.x);
    check_num(w.vehicles.p[t].pos.y, ==, p0.y);
    check_num(w.vehicles.p[t].speed, ==, 0);
    check_near(angle_diff(w.vehicles.p[t].turret, tu), -deg2rad(60) / w.tick_rate, 1e-12);
    unload(&w, bw);
}

/* ---- bad intents -------------------------------------------------------- */

static void bad_intent(const char *assign, const char *want_in_error)
{
    char lua[256];
    snprintf(lua, sizeof lua,
             "function tick(me, w, mem, out) out.turn = 20 out.speed = 10 %s end\n", assign);
    put("bad.lua", lua);
    struct world w;
    struct bot_world *bw;
    if (load(OPEN_MAP("bot = bad.lua\nsensor = radar\n"), &w, &bw))
        return;
    int a = vid(&w, "tank.a");
    double h0 = w.vehicles.p[a].heading, s0 = w.vehicles.p[a].speed;
    double t0 = w.vehicles.p[a].turret, r0 = w.vehicles.p[a].radar;
    tick_step(&w);
    check_int(bot_world_errors(bw), ==, 1);
    char *lines = bot_lines(bw, &w);
    if (!check(strstr(lines, "\"type\":\"bot_error\"") && strstr(lines, want_in_error)))
        tap_note("%s -> %s", assign, lines);
    free(lines);
    /* the defaults: no turn, the speed, turret and radar kept, no shot */
    check_num(w.vehicles.p[a].heading, ==, h0);
    check_num(w.vehicles.p[a].speed, ==, s0);
    check_num(w.vehicles.p[a].turret, ==, t0);
    check_num(w.vehicles.p[a].radar, ==, r0);
    check_int(w.stats.shots, ==, 0);
    unload(&w, bw);
}

TEST(bad_intents_are_errors)
{
    bad_intent("out.turn = 0/0", "turn");
    bad_intent("out.speed = 1/0", "speed");
    bad_intent("out.turret = -1/0", "turret");
    bad_intent("out.radar = 0/0", "out.radar is not a finite number (nan)");
    bad_intent("out.radar = 'north'", "out.radar is not a finite number (a string)");
    bad_intent("out.speed = 'fast'", "speed");
    bad_intent("out.turn = {}", "turn");
    bad_intent("out.fire = 1", "fire");
}

/* ---- world.enemies is the seen sight pairs ------------------------------- */

static const char *const battle =
    "[map]\nwidth = 1200\nheight = 900\nseed = 7\n"
    "[trees]\nrandom = 60\nradius = 18\n"
    "[team.red]\n[team.blue]\nrandom = 4\nfov = 120\n"
    "[tank.r1]\nteam = red\nx = 200\ny = 300\nfov = 120\nbot = seen.lua\n"
    "[tank.r2]\nteam = red\nx = 200\ny = 600\nfov = 120\nbot = seen.lua\n";

TEST(enemies_are_the_seen_sights)
{
    put("seen.lua", "function tick(me, w, mem, out)\n"
                    " local s = ''\n"
                    " for _, e in ipairs(w.enemies) do s = s .. e.id .. ' ' end\n"
                    " log(s)\n"
                    " out.speed = 0\n"     /* stay put: the sights are the test */
                    " out.turn = 15\n"
                    "end\n");
    struct world w;
    struct bot_world *bw;
    if (load(battle, &w, &bw))
        return;
    int mism = 0, nonempty = 0, unseen = 0;
    for (int t = 0; t < 400; t++) {
        tick_step(&w);
        for (int i = 0; i < 2; i++) {
            const char *id = i ? "tank.r2" : "tank.r1";
            const struct vehicle *v = &w.vehicles.p[vid(&w, id)];
            if (!v->alive)      /* a wreck's bot no longer runs */
                continue;
            char want[1024] = "";
            for (int k = v->sight_first; k < v->sight_first + v->sight_count; k++) {
                const struct sight_record *r = world_sight(&w, k);
                if (!r->seen) {
                    unseen++;
                    continue;
                }
                strcat(want, w.vehicles.p[r->target].id);
                strcat(want, " ");
            }
            nonempty += want[0] != 0;
            if (strcmp(want, log0(bw, &w, id)) && mism++ < 3)
                tap_note("tick %ld %s: sights '%s', enemies '%s'", w.tick, id, want,
                         log0(bw, &w, id));
        }
    }
    check_int(mism, ==, 0);
    /* the comparison meant something: enemies were seen, and some in the
     * cone were hidden (not listed) */
    check_int(nonempty, >, 50);
    check_int(unseen, >, 0);
    unload(&w, bw);
}

/* A car's me has its vehicle parameters (a tank's has none of them), and
 * each enemy its hits left and kind. */
TEST(car_parameters_and_enemy_details)
{
    put("me.lua", "function tick(me, w, mem, out)\n"
                  " local s = tostring(me.accel) .. ' ' .. tostring(me.brake) .. ' '\n"
                  "   .. tostring(me.min_speed) .. ' ' .. tostring(me.back_angle)\n"
                  " for _, e in ipairs(w.enemies) do\n"
                  "  s = s .. ' ' .. e.id .. '=' .. tostring(e.kind) .. '/' .. tostring(e.health)\n"
                  " end\n"
                  " log(s)\n"
                  " out.speed = 0\n"
                  "end\n");
    struct world w;
    struct bot_world *bw;
    if (load("[map]\nwidth = 2000\nheight = 2000\n"
             "[track]\nwaypoints = 100 100 30, 1900 100 30, 1900 1900 30\n"
             "[car.c]\nx = 1000\ny = 1500\nmax_speed = 200\nmin_speed = 15\naccel = 120\n"
             "brake = 250\nback_angle = 90\nbot = me.lua\n"
             "[team.red]\n[team.blue]\n"
             "[tank.r]\nteam = red\nx = 1000\ny = 1000\nheading = 0\nfov = 120\nbot = me.lua\n"
             "[tank.b]\nteam = blue\nx = 1200\ny = 1000\nhealth = 3\nrange = 1\nbehaviour = hold\n"
             "[turret.t]\nteam = blue\nx = 1200\ny = 1100\nhealth = 5\nrange = 1\n", &w, &bw))
        return;
    tick_step(&w);
    check_str(log0(bw, &w, "car.c"), "120.0 250.0 15.0 90.0");
    check_str(log0(bw, &w, "tank.r"), "nil nil nil nil tank.b=tank/3.0 turret.t=turret/5.0");
    unload(&w, bw);
}

/* ---- helpers equal the built-ins ----------------------------------------- */

/* Three tanks of one team (no shots) wander and avoid each other; tank.a
 * is either the built-in row or a bot calling the same methods. */
#define ROW_MAP(bot) \
    "[map]\nwidth = 800\nheight = 800\nseed = 11\n" \
    "[team.red]\n" \
    "[tank.a]\nteam = red\nx = 300\ny = 400\nheading = 0\nbehaviour = wander\n" \
    "avoid = predictive\n" bot \
    "[tank.b]\nteam = red\nx = 500\ny = 400\nheading = 180\n" \
    "[tank.c]\nteam = red\nx = 400\ny = 250\nheading = 90\n"

TEST(wander_and_avoid_equal_the_row)
{
    /* The built-in row: wander gives a turn and speed, avoidance takes the
     * heading they lead to and returns what gets closest without a
     * collision.  The script does the same through the API. */
    put("row.lua", "function tick(me, w, mem, out)\n"
                   " local turn, speed = wander()\n"
                   " out.turn, out.speed = avoid.predictive(me.heading + turn * w.dt, speed)\n"
                   "end\n");
    struct world a, b;
    struct bot_world *none, *bw;
    if (load(ROW_MAP(""), &a, &none))
        return;
    if (load(ROW_MAP("bot = row.lua\n"), &b, &bw)) {
        unload(&a, none);
        return;
    }
    int ia = vid(&a, "tank.a");
    double worst = 0;
    int first_far = -1, steers = 0;
    for (int t = 0; t < 1200; t++) {
        tick_step(&a);
        tick_step(&b);
        steers += a.vehicles.p[ia].avoid.steer != 0;
        for (size_t i = 0; i < a.vehicles.n; i++) {
            double d = v2_dist(a.vehicles.p[i].pos, b.vehicles.p[i].pos);
            if (d > worst)
                worst = d;
            if (d > 1e-6 && first_far < 0)
                first_far = t;
        }
    }
    if (first_far >= 0)
        tap_note("first apart at tick %d, worst %g", first_far, worst);
    /* degrees and back cost a rounding at most: the same path */
    check_num(worst, <, 1e-6);
    check_int(bot_world_errors(bw), ==, 0);
    check_int(steers, >, 0);        /* avoidance took part */
    unload(&a, none);
    unload(&b, bw);
}

TEST(aim_exact_equals_the_builtin_aim)
{
    /* the same turret twice: the built-in (it aims and logs its solution
     * in w->now.aims) and a bot that logs aim.exact's answer */
    put("aim.lua", "function tick(me, w, mem, out)\n"
                   " local e = w.enemies[1]\n"
                   " if e then local d, t = aim.exact(e)\n"
                   "  if d then log(string.format('%.17g %.17g', d, t))\n"
                   "   out.turret = d end end\n"     /* turn as the built-in does */
                   "end\n");
    const char *fmt = "[map]\nwidth = 1000\nheight = 1000\nseed = 5\n"
                      "[team.red]\n[team.blue]\n"
                      "[turret.g]\nteam = red\nx = 200\ny = 200\nfacing = 0\naim = exact\n"
                      "view_range = 900\nfov = 360\nrange = 900\n%s"
                      "[tank.t]\nteam = blue\nx = 600\ny = 300\nheading = 90\n"
                      "behaviour = straight\nspeed = 40\n";
    char ma[1024], mb[1024];
    snprintf(ma, sizeof ma, fmt, "");
    snprintf(mb, sizeof mb, fmt, "bot = aim.lua\n");
    struct world a, b;
    struct bot_world *none, *bw;
    if (load(ma, &a, &none))
        return;
    if (load(mb, &b, &bw)) {
        unload(&a, none);
        return;
    }
    int g = vid(&a, "turret.g"), compared = 0, off = 0;
    for (int t = 0; t < 20; t++) {
        tick_step(&a);
        tick_step(&b);
        const struct aim_info *ai = world_aim(&a, &a.vehicles.p[g]);
        const char *l = log0(bw, &b, "turret.g");
        double d, ti;
        if (!ai || !ai->ok || sscanf(l, "%lf %lf", &d, &ti) != 2)
            continue;
        compared++;
        if (fabs(angle_diff(deg2rad(d), ai->aim_dir)) > 1e-12
            || fabs(ti - ai->t_impact) > 1e-9) {
            if (off++ < 3)
                tap_note("tick %ld: built-in %.17g %.17g, aim.exact %s", a.tick,
                         rad2deg(ai->aim_dir), ai->t_impact, l);
        }
        if (a.stats.shots)  /* the built-in's reload now differs from the bot's */
            break;
    }
    tap_note("%d ticks compared", compared);
    check_int(compared, >=, 5);
    check_int(off, ==, 0);
    unload(&a, none);
    unload(&b, bw);
}

/* ---- world.trees, sight.hidden_from -------------------------------------- */

TEST(trees_within_r)
{
    put("trees.lua", "function tick(me, w, mem, out)\n"
                     " local s = ''\n"
                     " for _, r in ipairs({0, 45, 100, 200, 1000}) do s = s .. #w.trees(r) .. ' ' end\n"
                     " local t = w.trees(45)[1]\n"
                     " log(s .. t.x .. ' ' .. t.y .. ' ' .. t.r)\n"
                     " out.speed = 0\n"
                     "end\n");
    struct world w;
    struct bot_world *bw;
    /* tank at (500, 500), radius of trees 10: edges at 40, 90, 190, 290 */
    if (load("[map]\nwidth = 1000\nheight = 1000\n"
             "[trees]\nat = 550 500 10, 500 400 10, 300 500 10, 500 800 10\n"
             "[team.red]\n[tank.a]\nteam = red\nx = 500\ny = 500\nbot = trees.lua\n", &w, &bw))
        return;
    tick_step(&w);
    check_str(log0(bw, &w, "tank.a"), "0 1 2 3 4 550.0 500.0 10.0");
    unload(&w, bw);
}

TEST(hidden_from_open_and_behind_a_tree)
{
    put("hide.lua", "function tick(me, w, mem, out)\n"
                    " log(string.format('%.17g %.17g %.17g', sight.hidden_from(100, 500),\n"
                    "     sight.hidden_from(900, 500), sight.hidden_from(500, 900)))\n"
                    " out.speed = 0\n"
                    "end\n");
    struct world w;
    struct bot_world *bw;
    if (load("[map]\nwidth = 1000\nheight = 1000\n"
             "[trees]\nat = 400 500 40\n"
             "[team.red]\n[tank.a]\nteam = red\nx = 500\ny = 500\nbot = hide.lua\n", &w, &bw))
        return;
    tick_step(&w);
    double west = -1, east = -1, north = -1;
    sscanf(log0(bw, &w, "tank.a"), "%lf %lf %lf", &west, &east, &north);
    check_num(west, >, 0.99);       /* the tree is wider than the tank */
    check_num(east, ==, 0);
    check_num(north, ==, 0);
    unload(&w, bw);
}

/* ---- step back with mem -------------------------------------------------- */

/* The trace text of one step: events, bot lines and states. */
static char *step_text(struct world *w, struct bot_world *bw)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f)
        exit(99);
    tick_step(w);
    trace_events(f, w);
    bot_world_trace(bw, w, f);
    trace_states(f, w);
    fclose(f);
    return buf;
}

TEST(step_back_with_mem_replays)
{
    /* state in mem (a counter, a table of draws), the random generator,
     * last tick's events: all must come back */
    put("mem.lua", "function init(me, mem) mem.n = 0 mem.seen = {} end\n"
                   "function tick(me, w, mem, out)\n"
                   " mem.n = mem.n + 1\n"
                   " local r = math.random(1, 1000)\n"
                   " mem.seen[#mem.seen % 8 + 1] = r\n"
                   " local ne = #w.events\n"
                   " log(mem.n, r, ne, #mem.seen)\n"
                   " out.turn = (r - 500) / 10\n"
                   " local e = w.enemies[1]\n"
                   " if e then out.turret = aim.exact(e) or out.turret out.fire = me.gun_ready end\n"
                   "end\n");
    struct world w;
    struct bot_world *bw;
    const char *m = "[map]\nwidth = 1200\nheight = 900\nseed = 7\n"
                    "[trees]\nrandom = 60\nradius = 18\n"
                    "[team.red]\n[team.blue]\nrandom = 4\nfov = 120\n"
                    "[tank.r1]\nteam = red\nx = 200\ny = 300\nfov = 120\nbot = mem.lua\n"
                    "[tank.r2]\nteam = red\nx = 200\ny = 600\nfov = 120\nbot = mem.lua\n";
    if (load(m, &w, &bw))
        return;
    enum { K = 100, N = 400 };
    char *first[N + 1] = { 0 };
    struct world_snapshot snap;
    struct bot_world_mem mem;
    char err[256];
    int saved = 0;
    while (w.tick < N) {
        if (w.tick == K) {
            saved = world_snapshot_save(&w, &snap) == 0
                    && bot_world_save(bw, &mem, err, sizeof err) == 0;
        }
        char *t = step_text(&w, bw);
        first[w.tick] = t;
    }
    if (!check(saved)) {
        tap_note("save: %s", err);
        unload(&w, bw);
        return;
    }
    check_int(world_snapshot_restore(&w, &snap), ==, 0);
    check_int(bot_world_restore(bw, &mem), ==, 0);
    check_int(w.tick, ==, K);
    int differ = 0, shots = 0, logs = 0;
    while (w.tick < N) {
        char *t = step_text(&w, bw);
        if (strcmp(t, first[w.tick]) && differ++ < 2)
            tap_note("tick %ld differs:\nfirst:  %.600s\nreplay: %.600s", w.tick,
                     first[w.tick], t);
        shots += strstr(t, "\"type\":\"shot\"") != NULL;
        logs += strstr(t, "\"type\":\"log\"") != NULL;
        free(t);
    }
    check_int(differ, ==, 0);
    check_int(logs, ==, N - K);     /* the bots ran on every replayed tick */
    tap_note("replayed %d ticks with %d shot ticks", N - K, shots);
    for (int k = 0; k <= N; k++)
        free(first[k]);
    world_snapshot_free(&snap);
    bot_world_mem_free(&mem);
    unload(&w, bw);
}

/* ---- out.say, world.messages ----------------------------------------------- */

static const char *const talk_map =
    "[map]\nwidth = 2000\nheight = 2000\nseed = 3\n[team.red]\n[team.blue]\n"
    "[tank.r1]\nteam = red\nx = 200\ny = 200\nbot = talk.lua\n"
    "[tank.r2]\nteam = red\nx = 200\ny = 600\nbot = talk.lua\n"
    "[tank.b1]\nteam = blue\nx = 1800\ny = 1800\nbot = talk.lua\n";

/* Each bot logs what it heard (from:tick it was said) and says its id and
 * the tick. */
static const char talk_lua[] =
    "function tick(me, w, mem, out)\n"
    " local t = {}\n"
    " for _, m in ipairs(w.messages) do t[#t + 1] = m.from .. ':' .. m.data.t end\n"
    " log(table.concat(t, ' '))\n"
    " out.say = {id = me.id, t = w.tick}\n"
    "end\n";

TEST(messages_reach_allies_next_tick)
{
    put("talk.lua", talk_lua);
    struct world w;
    struct bot_world *bw;
    if (load(talk_map, &w, &bw))
        return;
    tick_step(&w);
    /* not the same tick: nothing was said before */
    check_str(log0(bw, &w, "tank.r1"), "");
    check_str(log0(bw, &w, "tank.b1"), "");
    char *lines = bot_lines(bw, &w);
    if (!check(strstr(lines, "{\"type\":\"say\",\"tick\":1,\"id\":\"tank.r2\","
                             "\"data\":{\"id\":\"tank.r2\",\"t\":1}}\n") != NULL))
        tap_note("%s", lines);
    free(lines);
    tick_step(&w);
    /* the team, the sender too, in vehicle order; never the enemy */
    check_str(log0(bw, &w, "tank.r1"), "tank.r1:1 tank.r2:1");
    check_str(log0(bw, &w, "tank.r2"), "tank.r1:1 tank.r2:1");
    check_str(log0(bw, &w, "tank.b1"), "tank.b1:1");
    tick_step(&w);
    check_str(log0(bw, &w, "tank.r2"), "tank.r1:2 tank.r2:2");
    unload(&w, bw);
}

/* A say that is not plain data of at most 256 bytes: the tick's error,
 * its intents abandoned, nothing said. */
static void bad_say(const char *value, const char *want_in_error)
{
    char lua[512];
    snprintf(lua, sizeof lua, "function tick(me, w, mem, out)\n"
             " out.turn = 20 out.speed = 10\n"
             " if w.tick == 1 then out.say = %s else log(#w.messages) end\n"
             "end\n", value);
    put("bad.lua", lua);
    struct world w;
    struct bot_world *bw;
    if (load(OPEN_MAP("bot = bad.lua\n"), &w, &bw))
        return;
    int a = vid(&w, "tank.a");
    double h0 = w.vehicles.p[a].heading;
    tick_step(&w);
    char *lines = bot_lines(bw, &w);
    int bad = want_in_error != NULL;
    if (!check_int(bot_world_errors(bw), ==, bad)
        || !check(bad ? strstr(lines, want_in_error) != NULL : strstr(lines, "\"say\"") != NULL))
        tap_note("%s -> %s", value, lines);
    free(lines);
    check(bad ? w.vehicles.p[a].heading == h0 : w.vehicles.p[a].heading != h0);
    tick_step(&w);
    check_str(log0(bw, &w, "tank.a"), bad ? "0" : "1");
    unload(&w, bw);
}

TEST(bad_says_are_errors)
{
    /* a string of n bytes takes 5 + n: 251 fit the 256, 252 do not */
    bad_say("string.rep('x', 251)", NULL);
    bad_say("string.rep('x', 252)", "out.say is more than 256 bytes once encoded");
    bad_say("{f = function() end}", "out.say.f is a function");
    bad_say("{a = string.rep('y', 300), b = function() end}", "out.say.b is a function");
    bad_say("{c = {}, x = {1, {c = 2}}}", NULL);
    bad_say("{l = {[{}] = 1}}", "out.say.l: the table has a key of type table");
    bad_say("w", "out.say is the engine's world table");
    bad_say("{0/0}", "out.say[1] is not a finite number");
    bad_say("true", NULL);
}

/* Messages pending at a snapshot come back with it: the replayed ticks,
 * messages heard included, are the first run's. */
TEST(step_back_keeps_messages)
{
    put("talk.lua", "function tick(me, w, mem, out)\n"
                    " local s = 0\n"
                    " for _, m in ipairs(w.messages) do s = s + m.data end\n"
                    " log(#w.messages, s)\n"
                    " out.turn = s % 60 - 30\n"
                    " out.say = math.random(1, 1000)\n"
                    "end\n");
    struct world w;
    struct bot_world *bw;
    if (load(talk_map, &w, &bw))
        return;
    enum { K = 20, N = 60 };
    char *first[N + 1] = { 0 };
    struct world_snapshot snap;
    struct bot_world_mem mem;
    char err[256];
    int saved = 0;
    while (w.tick < N) {
        if (w.tick == K)
            saved = world_snapshot_save(&w, &snap) == 0
                    && bot_world_save(bw, &mem, err, sizeof err) == 0;
        char *t = step_text(&w, bw);
        first[w.tick] = t;
    }
    uint64_t h_end = bot_world_hash(bw, 1);
    if (!check(saved)) {
        unload(&w, bw);
        return;
    }
    check_int(world_snapshot_restore(&w, &snap), ==, 0);
    check_int(bot_world_restore(bw, &mem), ==, 0);
    int differ = 0;
    while (w.tick < N) {
        char *t = step_text(&w, bw);
        if (strcmp(t, first[w.tick]) && differ++ < 2)
            tap_note("tick %ld differs:\nfirst:  %.600s\nreplay: %.600s", w.tick,
                     first[w.tick], t);
        free(t);
    }
    check_int(differ, ==, 0);
    check(bot_world_hash(bw, 1) == h_end);
    /* the red bots heard two messages then */
    check(strstr(first[K + 1], "\"text\":\"2 ") != NULL);
    for (int k = 0; k <= N; k++)
        free(first[k]);
    world_snapshot_free(&snap);
    bot_world_mem_free(&mem);
    unload(&w, bw);
}

/* A bot's abandoned ticks in a row and its being disabled are part of the
 * past a step back returns to: a snapshot taken at 30 abandoned ticks in a
 * row replays the disabling at tick 60 again (not 60 ticks after the
 * restore), and one taken after the disabling keeps the bot disabled (a
 * step back is not a reload). */
TEST(step_back_keeps_abandoned_count_and_disabling)
{
    put("fail.lua", "function tick(me, w, mem, out) out.speed = 5 error('boom') end\n");
    struct world w;
    struct bot_world *bw;
    const char *m = "[map]\nwidth = 1200\nheight = 900\nseed = 3\n"
                    "[team.red]\n[team.blue]\n"
                    "[tank.f]\nteam = red\nx = 200\ny = 300\nspeed = 20\nbot = fail.lua\n"
                    "[tank.g]\nteam = blue\nx = 900\ny = 600\nbehaviour = wander\n";
    if (load(m, &w, &bw))
        return;
    enum { K1 = 30, K2 = 70, N = 120 };
    char *first[N + 1] = { 0 };
    struct world_snapshot snap[2];
    struct bot_world_mem mem[2];
    char err[256];
    int saved = 0;
    while (w.tick < N) {
        int at = w.tick == K1 ? 0 : w.tick == K2 ? 1 : -1;
        if (at >= 0)
            saved += world_snapshot_save(&w, &snap[at]) == 0
                     && bot_world_save(bw, &mem[at], err, sizeof err) == 0;
        /* (the tick index first: the call steps w.tick, and which side
         * of an assignment is evaluated first is unspecified) */
        long next = w.tick + 1;
        first[next] = step_text(&w, bw);
    }
    if (!check_int(saved, ==, 2)) {
        tap_note("save: %s", err);
        unload(&w, bw);
        return;
    }
    /* the run itself: disabled once, at tick 60 */
    int disabled_at = 0;
    for (int t = 1; t <= N; t++)
        if (strstr(first[t], "disabled") && !disabled_at)
            disabled_at = t;
    check_int(disabled_at, ==, 60);
    for (int k = 0; k < 2; k++) {
        check_int(world_snapshot_restore(&w, &snap[k]), ==, 0);
        check_int(bot_world_restore(bw, &mem[k]), ==, 0);
        int differ = 0;
        while (w.tick < N) {
            char *t = step_text(&w, bw);
            if (strcmp(t, first[w.tick]) && differ++ < 1)
                tap_note("from tick %d, tick %ld differs:\nfirst:  %.300s\nreplay: %.300s",
                         k ? K2 : K1, w.tick, first[w.tick], t);
            free(t);
        }
        check_int(differ, ==, 0);
    }
    /* The script fixed and reloaded, then a step back to where the old
     * one was disabled: the new script runs (its disabling was the old
     * script's, and a reload clears it). */
    char *rerr = NULL;
    check_int(bot_world_reload_text(bw, &w, "fail.lua",
                                    "function tick(me, w, mem, out) log('fixed') end\n", &rerr), ==, 1);
    free(rerr);
    check_int(world_snapshot_restore(&w, &snap[1]), ==, 0);
    check_int(bot_world_restore(bw, &mem[1]), ==, 0);
    char *t = step_text(&w, bw);
    check(strstr(t, "\"text\":\"fixed\"") != NULL);
    free(t);
    for (int k = 0; k < 2; k++) {
        world_snapshot_free(&snap[k]);
        bot_world_mem_free(&mem[k]);
    }
    for (int t = 0; t <= N; t++)
        free(first[t]);
    unload(&w, bw);
}

/* The map of the two step-back tests below: tank.f runs SCRIPT with a
 * 64 KiB heap beside a wandering tank. */
static const char *const heap_map_fmt =
    "[map]\nwidth = 1200\nheight = 900\nseed = 3\n"
    "[team.red]\n[team.blue]\n"
    "[tank.f]\nteam = red\nx = 200\ny = 300\nbot = %s\nbot_memory = 64\n"
    "[tank.g]\nteam = blue\nx = 900\ny = 600\nbehaviour = wander\n";

/* Loads heap_map_fmt with SCRIPT, runs to tick 40 (*errors: the bot
 * errors on the way), saves the world and mem, runs to 50 and restores
 * both (checked).  0 with the world loaded (the caller unloads), -1 when
 * it did not load or save. */
static int back_from_50_to_40(const char *script, struct world *w, struct bot_world **bw,
                              int *errors)
{
    char m[512];
    snprintf(m, sizeof m, heap_map_fmt, script);
    if (load(m, w, bw))
        return -1;
    *errors = 0;
    while (w->tick < 40) {
        tick_step(w);
        *errors += bot_world_errors(*bw);
    }
    struct world_snapshot snap;
    struct bot_world_mem mem;
    char err[256] = "";
    if (!check_int(world_snapshot_save(w, &snap), ==, 0)
        || !check_int(bot_world_save(*bw, &mem, err, sizeof err), ==, 0)) {
        tap_note("save: %s", err);
        unload(w, *bw);
        return -1;
    }
    tap_note("mem of %zu bytes saved", mem.len[0]);
    while (w->tick < 50)
        tick_step(w);
    check_int(world_snapshot_restore(w, &snap), ==, 0);
    check_int(bot_world_restore(*bw, &mem), ==, 0);
    world_snapshot_free(&snap);
    bot_world_mem_free(&mem);
    return 0;
}

/* A bot that filled its heap with mem, a tick at a time, can be stepped
 * back: the mem a state held fits a fresh state of the same bot_memory
 * (the viewer quits when a bot cannot be rebuilt). */
TEST(step_back_with_a_full_heap)
{
    put("full.lua", "function tick(me, w, mem, out)\n"
                    " for i = 1, 40 do mem[#mem + 1] = string.rep('x', 24) .. #mem end\n"
                    "end\n");
    struct world w;
    struct bot_world *bw;
    int errors;
    if (back_from_50_to_40("full.lua", &w, &bw, &errors))
        return;
    check_int(errors, >, 0);        /* the heap is full: ticks broke the limit */
    check_int(bot_world_unrebuilt(bw), ==, 0);  /* rebuilt: nothing disabled */
    unload(&w, bw);
}

/* A bot whose mem does not fit a fresh state (its top level made a big
 * global it dropped later, and mem filled the room) cannot be rebuilt at
 * a step back: the step back still works, that bot is disabled with a
 * bot_error that says why, and the rest of the world goes on. */
TEST(step_back_when_a_bot_cannot_be_rebuilt)
{
    put("grow.lua", "big = string.rep('x', 12000)\n"
                    "function tick(me, w, mem, out)\n"
                    " big = nil out.turn = 10\n"
                    " for i = 1, 40 do mem[#mem + 1] = string.rep('x', 24) .. #mem end\n"
                    "end\n");
    struct world w;
    struct bot_world *bw;
    int errors;
    if (back_from_50_to_40("grow.lua", &w, &bw, &errors))
        return;
    check_int(bot_world_unrebuilt(bw), ==, 1);  /* what the viewer then names */
    char *t = step_text(&w, bw);
    tap_note("%.300s", t);
    check(strstr(t, "\"bot_error\",\"tick\":41,\"id\":\"tank.f\"") != NULL);
    check(strstr(t, "disabled") != NULL);
    check(strstr(t, "step back") != NULL);
    free(t);
    /* disabled: stopped, silent from then on */
    t = step_text(&w, bw);
    check(strstr(t, "bot_error") == NULL);
    free(t);
    check_int(vid(&w, "tank.f") >= 0 && w.vehicles.p[vid(&w, "tank.f")].speed == 0, ==, 1);
    unload(&w, bw);
}

/* ---- hostile scripts ----------------------------------------------------- */

static const char *const hostile_fmt =
    "[map]\nwidth = 2000\nheight = 2000\nseed = 9\n[team.red]\n[team.blue]\n"
    "[tank.loop]\nteam = red\nx = 200\ny = 200\nheading = 90\nspeed = 30\nbot = %s.lua\n"
    "[tank.bomb]\nteam = red\nx = 400\ny = 200\nheading = 90\nspeed = 30\nbot = %s.lua\n"
    "[tank.err]\nteam = red\nx = 600\ny = 200\nheading = 90\nspeed = 30\nbot = %s.lua\n"
    "[tank.free]\nteam = blue\nx = 1500\ny = 1500\nbehaviour = wander\n";

TEST(hostile_scripts_are_disabled)
{
    put("loop.lua", "function tick() while true do end end\n");
    put("bomb.lua", "function tick() local t = {} local s = 'x'\n"
                    " while true do s = s .. s t[#t + 1] = s end end\n");
    put("err.lua", "function tick() error('boom') end\n");
    char hostile[1024], calm[1024];
    snprintf(hostile, sizeof hostile, hostile_fmt, "loop", "bomb", "err");
    /* the same map with calm bots: tank.free must not notice the difference */
    snprintf(calm, sizeof calm, hostile_fmt, "calm", "calm", "calm");
    put("calm.lua", "function tick() end\n");
    struct world w, c;
    struct bot_world *bw, *cb;
    if (load(hostile, &w, &bw))
        return;
    if (load(calm, &c, &cb)) {
        unload(&w, bw);
        return;
    }
    int ids[3] = { vid(&w, "tank.loop"), vid(&w, "tank.bomb"), vid(&w, "tank.err") };
    int fr = vid(&w, "tank.free");
    int errs[3] = { 0 }, disabled_lines = 0, same = 1;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int t = 0; t < 80; t++) {
        tick_step(&w);
        tick_step(&c);
        char *l = bot_lines(bw, &w);
        for (int k = 0; k < 3; k++) {
            char key[64];
            snprintf(key, sizeof key, "\"id\":\"%s\"", w.vehicles.p[ids[k]].id);
            errs[k] += strstr(l, key) != NULL;
        }
        if (strstr(l, "disabled"))
            disabled_lines++, tap_note("tick %ld: %s", w.tick, l);
        free(l);
        const struct vehicle *a = &w.vehicles.p[fr], *b = &c.vehicles.p[fr];
        if (a->pos.x != b->pos.x || a->pos.y != b->pos.y || a->heading != b->heading
            || a->speed != b->speed || a->turret != b->turret)
            same = 0;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    tap_note("80 ticks of three hostile bots: %.3f s", secs);
    check_num(secs, <, 20);
    /* 60 abandoned ticks, each with its bot_error; then disabled, silent */
    for (int k = 0; k < 3; k++) {
        check_int(errs[k], ==, 60);
        const struct bot_report *r = bot_world_report(bw, ids[k]);
        check(r && r->disabled);
        /* its vehicle stopped */
        check_num(w.vehicles.p[ids[k]].speed, ==, 0);
    }
    check_int(disabled_lines, >=, 1);
    check(same);
    check_num(w.vehicles.p[fr].speed, >, 0);
    unload(&w, bw);
    unload(&c, cb);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/botfield-bw-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 99;
    }
    run(turn_and_speed_clamped, "turn and speed clamped to turn_rate and [0, max]");
    run(turret_turns_at_its_rate, "the turret turns at turret_rate toward out.turret");
    run(radar_turns_toward_out_radar, "a bot's radar turns at radar_rate toward out.radar");
    run(car_accel_and_brake, "a car's speed follows its accel and brake");
    run(allies_and_waypoints_made_when_read, "world.allies and world.waypoints made from the world when read");
    run(turret_vehicle_never_drives, "a turret never drives, its gun turns");
    run(bad_intents_are_errors, "non-finite and wrong-typed intents: bot_error, defaults");
    run(enemies_are_the_seen_sights, "world.enemies equals the seen sight records");
    run(car_parameters_and_enemy_details, "me: a car's accel, brake, min_speed, back_angle; enemies: health, kind");
    run(wander_and_avoid_equal_the_row, "wander() + avoid.predictive() = the built-in row");
    run(aim_exact_equals_the_builtin_aim, "aim.exact = the built-in exact aim");
    run(trees_within_r, "world.trees(r) lists the trees within r");
    run(hidden_from_open_and_behind_a_tree, "sight.hidden_from: 0 in the open, > 0 behind a tree");
    run(step_back_with_mem_replays, "step back with mem: the same trace");
    run(messages_reach_allies_next_tick, "out.say reaches the team next tick as world.messages, never enemies");
    run(bad_says_are_errors, "out.say over 256 bytes or not plain data: the tick's error");
    run(step_back_keeps_messages, "step back: pending messages come back, the same trace");
    run(step_back_keeps_abandoned_count_and_disabling,
        "step back: abandoned ticks in a row and disabling come back");
    run(step_back_with_a_full_heap, "step back: a heap filled by mem is rebuilt");
    run(step_back_when_a_bot_cannot_be_rebuilt,
        "step back: a bot that cannot be rebuilt is disabled, the rest goes on");
    run(hostile_scripts_are_disabled, "hostile scripts disabled after 60 ticks, others unaffected");
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        tap_note("could not remove %s", dir);
    return tap_done();
}
