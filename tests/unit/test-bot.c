/* test-bot — the bot API seen from a script: me, world (enemies, allies,
 * waypoints, events, trees), out, the built-in calls (each answered by
 * the callback the view carries, each charged), draw, log, init, and the
 * report's figures. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/bot-fixture.h"
#include "../lib/tap.h"

static struct fixture fx;
static struct bot_report rep;
static struct bot_out out;
static char err[1024];

static int once(const char *lua)
{
    fixture_init(&fx, 1);
    struct bot *b = fixture_bot(lua, 0, 0, err, sizeof err);
    if (!b) {
        tap_note("load: %s", err);
        return -2;
    }
    int rc = bot_tick(b, &fx.view, &out, &rep);
    if (rc)
        tap_note("tick: %s", rep.error);
    bot_free(b);
    return rc;
}

TEST(me_fields)
{
    int rc = once("function tick(me, w, mem, out)\n"
                  " log(me.id, me.kind, me.team, me.x, me.y, me.heading, me.speed, me.turret)\n"
                  " log(me.gun_ready, me.reload_left, me.health, me.radius, me.max_speed)\n"
                  " log(me.turn_rate, me.turret_rate, me.shell_speed, me.range, me.fov, me.view_range)\n"
                  "end");
    check_int(rc, ==, 0);
    check_str(rep.log[0], "tank.1 tank red 100.0 200.0 90.0 10.0 30.0");
    check_str(rep.log[1], "true 0.0 100.0 20.0 60.0");
    check_str(rep.log[2], "90.0 120.0 400.0 800.0 120.0 600.0");
}

TEST(world_fields)
{
    int rc = once("function tick(me, w, mem, out)\n"
                  " log(w.tick, math.type(w.tick), w.time, w.width, w.height, #w.enemies, #w.allies)\n"
                  " local e = w.enemies[2]\n"
                  " log(e.id, e.x, e.y, e.heading, e.speed, e.visible, e.distance, e.bearing)\n"
                  " log(w.allies[2].id, w.allies[2].speed, #w.waypoints, w.waypoints[3].x, w.next_waypoint)\n"
                  " log(w.events[1].type, w.events[1].shooter, w.events[1].damage, w.events[2].b)\n"
                  " local t = w.trees(3) log(#t, t[3].y, #world_trees_colon(w))\n"
                  " out.turn = w.dt * 60\n"
                  "end\n"
                  "function world_trees_colon(w) return w:trees(2) end");
    check_int(rc, ==, 0);
    check_str(rep.log[0], "42 integer 0.7 2000.0 1800.0 3 2");
    check_str(rep.log[1], "tank.5 400.0 200.0 180.0 20.0 1.0 300.0 0.0");
    check_str(rep.log[2], "tank.3 5.0 4 200.0 2");
    check_str(rep.log[3], "hit turret.1 25.0 tank.2");
    check_str(rep.log[4], "3 4.0 2");
    check_near(out.turn, 1, 1e-12);
}

TEST(world_lists_on_demand)
{
    fixture_init(&fx, 1);
    struct bot *b = fixture_bot("function tick(me, w, mem, out)\n"
                                " if not kept then kept = w; local e = w.enemies end\n"
                                " local names = {} for k in pairs(w) do names[#names + 1] = k end\n"
                                " log(table.concat(names, ' '))\n"
                                " log(w.enemies == w.enemies, getmetatable(w), pcall(setmetatable, w, nil))\n"
                                " log(#kept.enemies, kept.allies == nil, kept ~= w)\n"
                                "end", 0, 0, err, sizeof err);
    check(b != NULL);
    if (!b)
        return;
    check_int(bot_tick(b, &fx.view, &out, &rep), ==, 0);
    check_str(rep.log[0], "allies dt enemies events height messages next_waypoint round rounds shells tick time trees waypoints width");
    check_str(rep.log[1], "true false false cannot change a protected metatable");
    /* next tick: the world kept is this tick's world (one table,
     * refilled), its lists built again by this tick's pairs */
    fixture_init(&fx, 2);
    check_int(bot_tick(b, &fx.view, &out, &rep), ==, 0);
    check_str(rep.log[2], "3 false false");
    bot_free(b);
    /* a world kept past its tick reads this tick's lists and fields */
    fixture_init(&fx, 1);
    b = fixture_bot("function tick(me, w, mem, out)\n"
                    " if kept then log(kept == w, #kept.enemies, kept.tick, old ~= w.enemies, #old)\n"
                    " else kept = w old = w.enemies end end", 0, 0, err, sizeof err);
    check(b != NULL);
    if (b) {
        check_int(bot_tick(b, &fx.view, &out, &rep), ==, 0);
        fx.view.n_enemies = 1;
        fx.view.tick = 43;
        check_int(bot_tick(b, &fx.view, &out, &rep), ==, 0);
        check_str(rep.log[0], "true 1 43 true 3");
        bot_free(b);
    }
}

/* me and out are reused across ticks (their cost): a script that keeps
 * them sees them refilled, every engine field written again even when the
 * script changed or cleared it, out back at the defaults; a field the
 * script added stays. */
TEST(tables_refilled_each_tick)
{
    fixture_init(&fx, 1);
    struct bot *b = fixture_bot("function tick(me, w, mem, out)\n"
                                " if not km then km, ko = me, out\n"
                                "  me.x = nil me.extra = 1 me.speed = 'x' w.tick = 'x' w.trees = 1\n"
                                "  out.turn = 5 out.fire = true out.speed = nil return end\n"
                                " log(km == me, ko == out, me.x, me.speed, me.extra, w.tick, type(w.trees))\n"
                                " log(out.turn, out.fire, out.speed, out.turret)\n"
                                "end", 0, 0, err, sizeof err);
    check(b != NULL);
    if (!b)
        return;
    check_int(bot_tick(b, &fx.view, &out, &rep), ==, 0);
    check_num(out.turn, ==, 5);
    check_int(out.fire, ==, 1);
    fx.view.x = 150;
    fx.view.tick = 43;
    check_int(bot_tick(b, &fx.view, &out, &rep), ==, 0);
    check_int(rep.n_log, ==, 2);
    check_str(rep.log[0], "true true 150.0 10.0 1 43 function");
    check_str(rep.log[1], "0.0 false 10.0 30.0");
    check_num(out.turn, ==, 0);
    check_int(out.fire, ==, 0);
    bot_free(b);
}

/* me's strings follow the view: another vehicle's id, kind and team, or
 * the same buffer written over, are this tick's (the refill keeps the
 * last strings it pushed and compares them). */
TEST(me_strings_follow_the_view)
{
    fixture_init(&fx, 1);
    struct bot *b = fixture_bot("function tick(me, w, mem, out) log(me.id, me.kind, me.team) end",
                                0, 0, err, sizeof err);
    check(b != NULL);
    if (!b)
        return;
    char id[16] = "tank.1";
    fx.view.id = id;
    check_int(bot_tick(b, &fx.view, &out, &rep), ==, 0);
    check_str(rep.log[0], "tank.1 tank red");
    strcpy(id, "tank.22");              /* the same buffer, other text */
    check_int(bot_tick(b, &fx.view, &out, &rep), ==, 0);
    check_str(rep.log[0], "tank.22 tank red");
    fx.view.id = "car.3";
    fx.view.team = "blue";
    check_int(bot_tick(b, &fx.view, &out, &rep), ==, 0);
    check_str(rep.log[0], "car.3 tank blue");
    bot_free(b);
}

/* me and out may have the script's metatables: the engine's refill still
 * writes their fields raw, a __newindex never called, even on a field
 * the script cleared (the refill's fast path would run it). */
TEST(refill_ignores_metatables)
{
    fixture_init(&fx, 1);
    struct bot *b = fixture_bot("function tick(me, w, mem, out)\n"
                                " if not mem.n then mem.n = 1\n"
                                "  local mt = {__newindex = function() error('called') end}\n"
                                "  setmetatable(me, mt) setmetatable(out, mt)\n"
                                "  me.x = nil out.turret = nil out.fire = nil return end\n"
                                " log(me.x, out.turret, out.fire, getmetatable(me) ~= nil)\n"
                                "end", 0, 0, err, sizeof err);
    check(b != NULL);
    if (!b)
        return;
    check_int(bot_tick(b, &fx.view, &out, &rep), ==, 0);
    fx.view.x = 150;
    check_int(bot_tick(b, &fx.view, &out, &rep), ==, 0);
    if (rep.error[0])
        tap_note("%s", rep.error);
    check_int(rep.n_log, ==, 1);
    check_str(rep.log[0], "150.0 30.0 false true");
    bot_free(b);
}

/* The refill's own strings and functions are the engine's, not the bot's
 * data: a script that drops me.id holds no more data with a long id than
 * with a short one (bot_memory means what it meant). */
TEST(refill_is_not_data)
{
    static char longid[400];
    memset(longid, 'x', sizeof longid - 1);
    size_t data[2] = { 0, 0 };
    for (int k = 0; k < 2; k++) {
        fixture_init(&fx, 1);
        /* (the loop runs past half the budget: a count falls in it) */
        struct bot *b = fixture_bot("function tick(me, w, mem, out)\n"
                                    " me.id = nil for i = 1, 70000 do end end", 100000, 0, err,
                                    sizeof err);
        check(b != NULL);
        if (!b)
            return;
        fx.view.id = k ? longid : "t";
        check_int(bot_tick(b, &fx.view, &out, &rep), ==, 0);
        check_int(bot_tick(b, &fx.view, &out, &rep), ==, 0);
        data[k] = rep.data;
        bot_free(b);
    }
    check_int(data[0], >, 0);
    check_int(data[1], ==, data[0]);
}

/* mem holding me, world or out keeps them as themselves: after a save
 * and a load into a new state (a step back) they are that state's tables,
 * as they were before (a copy would make the replay differ). */
TEST(mem_keeps_engine_tables)
{
    static const char lua[] = "function tick(me, w, mem, out)\n"
                              " if mem.me then log(mem.me == me, mem.l[1] == w, mem.o == out, mem.me.x)\n"
                              " else mem.me, mem.l, mem.o = me, {w}, out end end";
    fixture_init(&fx, 1);
    struct bot *b = fixture_bot(lua, 0, 0, err, sizeof err);
    struct bot *b2 = fixture_bot(lua, 0, 0, err, sizeof err);
    check(b != NULL && b2 != NULL);
    if (!b || !b2) {
        bot_free(b);
        bot_free(b2);
        return;
    }
    check_int(bot_tick(b, &fx.view, &out, &rep), ==, 0);
    unsigned char *buf = NULL;
    size_t len = 0;
    check_int(bot_mem_save(b, &buf, &len, err, sizeof err), ==, 0);
    check_int(bot_mem_load(b2, buf, len), ==, 0);
    free(buf);
    fx.view.x = 150;
    check_int(bot_tick(b, &fx.view, &out, &rep), ==, 0);
    check_str(rep.log[0], "true true true 150.0");
    check_int(bot_tick(b2, &fx.view, &out, &rep), ==, 0);
    check_str(rep.log[0], "true true true 150.0");
    bot_free(b);
    bot_free(b2);
}

TEST(world_trees_capped)
{
    int rc = once("function tick(me, w, mem, out) out.turn = #w.trees(5000) end");
    check_int(rc, ==, 0);
    check_num(out.turn, ==, BOT_TREES_MAX);
}

TEST(calls_reach_the_callbacks)
{
    int rc = once("function tick(me, w, mem, out)\n"
                  " local e = w.enemies[1]\n"
                  " local d, t = aim.exact(e) log(d, t)\n"
                  " d, t = aim.classic('tank.5') log(d, t)\n"
                  " log(aim.exact(w.enemies[3]))\n"
                  " log(aim.exact({id = 'tank.99'}))\n"
                  " log(avoid.predictive(90, 40)) log(avoid.classic(10, 4))\n"
                  " log(race.exact()) log(race.classic())\n"
                  "end");
    check_int(rc, ==, 0);
    check_str(rep.log[0], "46.0 0.5");
    check_str(rep.log[1], "147.0 1.0");
    check_str(rep.log[2], "nil out of range");
    check_str(rep.log[3], "nil not seen");
    check_str(rep.log[4], "45.0 20.0");
    check_str(rep.log[5], "1005.0 2.0");
    check_str(rep.log[6], "12.0 34.0");
    check_str(rep.log[7], "-12.0 34.0");
    check_int(fx.calls, ==, 7);
    rc = once("function tick(me, w, mem, out) log(race.line()) end");
    check_int(rc, ==, 0);
    check_str(rep.log[0], "7.0 34.0");
    rc = once("function tick(me, w, mem, out) log(wander()) log(sight.hidden_from(5, 1), sight.hidden_from(1, 5)) end");
    check_int(rc, ==, 0);
    check_str(rep.log[0], "5.0 6.0");
    check_str(rep.log[1], "0.25 0.75");
}

TEST(calls_are_charged)
{
    fixture_init(&fx, 1);
    struct bot *b = fixture_bot("function tick(me, w, mem, out) for i = 1, 10 do wander() end end",
                                0, 0, err, sizeof err);
    check(b != NULL);
    if (!b)
        return;
    bot_set_count_step(b, 1);
    check_int(bot_tick(b, &fx.view, &out, &rep), ==, 0);
    check_int(rep.instructions, >=, 10 * BOT_CALL_COST);
    check_int(rep.instructions, <, 10 * BOT_CALL_COST + 100);
    bot_free(b);
    /* and a loop of calls is stopped by the budget */
    fixture_init(&fx, 1);
    b = fixture_bot("function tick(me, w, mem, out) while true do wander() end end", 0, 0, err,
                    sizeof err);
    check(b != NULL);
    if (b) {
        check_int(bot_tick(b, &fx.view, &out, &rep), ==, -1);
        check(strstr(rep.error, "budget") != NULL);
        check_int(fx.calls, <=, BOT_BUDGET_DEFAULT / BOT_CALL_COST + 1);
        bot_free(b);
    }
}

TEST(calls_missing_or_bad_arguments)
{
    fixture_init(&fx, 1);
    struct bot *b = fixture_bot("function tick(me, w, mem, out) wander() end", 0, 0, err, sizeof err);
    check(b != NULL);
    if (!b)
        return;
    struct bot_calls none = { 0 };
    fx.view.calls = &none;
    check_int(bot_tick(b, &fx.view, &out, &rep), ==, -1);
    check(strstr(rep.error, "wander is not available") != NULL);
    bot_free(b);
    check_int(once("function tick(me, w, mem, out) avoid.predictive(0/0, 1) end"), ==, -1);
    check(strstr(rep.error, "not a finite number") != NULL);
    check_int(once("function tick(me, w, mem, out) aim.exact(nil) end"), ==, -1);
}

/* ---- agent.observe, agent.act ------------------------------------------- */

TEST(agent_observe_through_callback)
{
    int rc = once("function tick(me, w, mem, out)\n"
                  " local o = agent.observe() log(#o, o[1], o[12], o[64], o[65], math.type(o[1]))\n"
                  " log(#agent.observe(0, 0), #agent.observe(16, 64), #agent.observe(2), #agent.observe(nil, 3))\n"
                  " log(#agent.observe(1.0, 0))\n"
                  "end");
    check_int(rc, ==, 0);
    /* 12 + 11 K + R numbers, K = 4 and R = 8 by default */
    check_str(rep.log[0], "64 0.5 11.5 63.5 nil float");
    check_str(rep.log[1], "12 252 42 59");
    check_str(rep.log[2], "23");
    check_int(fx.calls, ==, 6);
}

/* A script that must fail with want in its error. */
static void agent_error(const char *body, const char *want)
{
    char lua[512];
    snprintf(lua, sizeof lua, "function tick(me, w, mem, out) %s end", body);
    check_int(once(lua), ==, -1);
    if (!strstr(rep.error, want))
        tap_note("%s: error '%s', wanted '%s'", body, rep.error, want);
    check(strstr(rep.error, want) != NULL);
}

TEST(agent_observe_bad_arguments)
{
    agent_error("agent.observe(17)", "agent.observe: K (argument 1) must be an integer 0..16, not 17");
    agent_error("agent.observe(-1)", "K (argument 1) must be an integer 0..16, not -1");
    agent_error("agent.observe(1.5)", "K (argument 1) must be an integer 0..16, not 1.5");
    agent_error("agent.observe('2')", "K (argument 1) must be an integer 0..16, not string");
    agent_error("agent.observe(4, 65)", "R (argument 2) must be an integer 0..64, not 65");
    agent_error("agent.observe(4, 0/0)", "R (argument 2) must be an integer 0..64, not nan");
    agent_error("agent.observe(4, {})", "R (argument 2) must be an integer 0..64, not table");
}

TEST(agent_observe_charged_and_counted)
{
    fixture_init(&fx, 1);
    struct bot *b = fixture_bot("function tick(me, w, mem, out) agent.observe(16, 0) end", 0, 0,
                                err, sizeof err);
    check(b != NULL);
    if (!b)
        return;
    bot_set_count_step(b, 1);
    check_int(bot_tick(b, &fx.view, &out, &rep), ==, 0);
    long one = rep.instructions;
    /* the call and a number each (188) */
    check_int(one, >=, BOT_CALL_COST + 188);
    check_int(one, <, BOT_CALL_COST + 188 + 50);
    bot_free(b);
    /* 64 rays over the fixture's 100 looks each: (6400 - 1024) / 4 more */
    b = fixture_bot("function tick(me, w, mem, out) agent.observe(16, 64) end", 0, 0, err, sizeof err);
    check(b != NULL);
    if (!b)
        return;
    bot_set_count_step(b, 1);
    check_int(bot_tick(b, &fx.view, &out, &rep), ==, 0);
    check_int(rep.instructions - one, ==, 64 + (6400 - BOT_OBSERVE_FREE) / 4);
    bot_free(b);
    /* the arrays count against the bot's memory */
    b = fixture_bot("function tick(me, w, mem, out)\n"
                    " local t = {} for i = 1, 400 do t[i] = agent.observe(16, 64) end\n"
                    "end", 10000000, 256 * 1024, err, sizeof err);
    check(b != NULL);
    if (!b)
        return;
    check_int(bot_tick(b, &fx.view, &out, &rep), ==, -1);
    check(strstr(rep.error, "memory limit exceeded") != NULL);
    bot_free(b);
}

TEST(agent_act_sets_out)
{
    int rc = once("function tick(me, w, mem, out)\n"
                  " out.say = 'kept'\n"
                  " agent.act(out, {0.5, 0, -1, 0.25, 1})\n"
                  " log(out.turn, out.speed, out.turret, out.fire, out.radar, out.say)\n"
                  " agent.act(out, {-1, 1, 1, 0, -0.5})\n"
                  "end");
    check_int(rc, ==, 0);
    check_str(rep.log[0], "45.0 30.0 29.0 true 1.0 kept");
    check_num(out.turn, ==, -90);
    check_num(out.speed, ==, 60);
    check_num(out.turret, ==, 31);
    check_int(out.fire, ==, 0);
    check_num(out.radar, ==, -0.5);
}

TEST(agent_act_bad_actions)
{
    const char *what = "must be a number in [-1, 1], not";
    char want[128];
    agent_error("agent.act(out, {0, 0, 0, 0})", "agent.act: a[5] (radar) must be a number in [-1, 1], not missing");
    agent_error("agent.act(out, {0, 0/0, 0, 0, 0})", "a[2] (speed) must be a number in [-1, 1], not nan");
    snprintf(want, sizeof want, "a[3] (turret) %s 1.5", what);
    agent_error("agent.act(out, {0, 0, 1.5, 0, 0})", want);
    snprintf(want, sizeof want, "a[1] (turn) %s -1.00001", what);
    agent_error("agent.act(out, {-1.00001, 0, 0, 0, 0})", want);
    snprintf(want, sizeof want, "a[4] (fire) %s boolean", what);
    agent_error("agent.act(out, {0, 0, 0, true, 0})", want);
    agent_error("agent.act(out, {0, 0, 0, 0, 1/0})", "a[5] (radar) must be a number in [-1, 1], not inf");
    agent_error("agent.act(out)", "bad argument #2");
    /* nothing was set by a refused action */
    check_int(once("function tick(me, w, mem, out) out.turn = 7\n"
                   " pcall(agent.act, out, {1, 1, 1, 1, 2}) log(out.turn, out.fire) end"), ==, 0);
    check_str(rep.log[0], "7 false");
}

TEST(intents_taken)
{
    int rc = once("function tick(me, w, mem, out) out.turn = 500 out.speed = -3 out.turret = 720 out.fire = true end");
    check_int(rc, ==, 0);
    /* not clamped here: the engine clamps to the vehicle's limits */
    check_num(out.turn, ==, 500);
    check_num(out.speed, ==, -3);
    check_num(out.turret, ==, 720);
    check_int(out.fire, ==, 1);
    rc = once("function tick(me, w, mem, out) log(out.turn, out.speed, out.turret, out.fire) end");
    check_int(rc, ==, 0);
    check_str(rep.log[0], "0.0 10.0 30.0 false");
    check_num(out.speed, ==, 10);
}

TEST(draw_and_log)
{
    int rc = once("function tick(me, w, mem, out)\n"
                  " draw.line(1, 2, 3, 4, 'red') draw.circle(5, 6, 7) draw.text(8, 9, 'hello')\n"
                  " draw.mark(10, 11, 'green')\n"
                  " for i = 1, 300 do draw.mark(i, i) end\n"
                  " for i = 1, 20 do log('line', i) end\n"
                  " log(string.rep('y', 500))\n"
                  "end");
    check_int(rc, ==, 0);
    check_int(rep.n_shapes, ==, BOT_SHAPES_MAX);
    check_int(rep.shapes[0].kind, ==, BOT_LINE);
    check_num(rep.shapes[0].y2, ==, 4);
    check_str(rep.shapes[0].color, "red");
    check_int(rep.shapes[1].kind, ==, BOT_CIRCLE);
    check_num(rep.shapes[1].x2, ==, 7);
    check_str(rep.shapes[1].color, "");
    check_int(rep.shapes[2].kind, ==, BOT_TEXT);
    check_str(rep.shapes[2].text, "hello");
    check_int(rep.shapes[3].kind, ==, BOT_MARK);
    check_int(rep.n_log, ==, BOT_LOG_LINES);
    check_str(rep.log[7], "line 8");
    check_int(once("function tick(me, w, mem, out) log(string.rep('y', 500)) end"), ==, 0);
    check_int(strlen(rep.log[0]), ==, BOT_LOG_BYTES);
    check_int(once("function tick(me, w, mem, out) draw.line(0, 0, 0/0, 1) end"), ==, -1);
}

TEST(init_runs_with_me_and_mem)
{
    fixture_init(&fx, 1);
    struct bot *b = fixture_bot("function init(me, mem) mem.home = me.x + me.y end\n"
                                "function tick(me, w, mem, out) out.turn = mem.home end",
                                0, 0, err, sizeof err);
    check(b != NULL);
    if (!b)
        return;
    check_int(bot_init(b, &fx.view, err, sizeof err), ==, 0);
    check_int(bot_tick(b, &fx.view, &out, &rep), ==, 0);
    check_num(out.turn, ==, 300);
    bot_free(b);
    fixture_init(&fx, 1);
    b = fixture_bot("function init(me, mem) local x = nil; x.y = 1 end function tick() end", 0, 0,
                    err, sizeof err);
    check(b != NULL);
    if (b) {
        check_int(bot_init(b, &fx.view, err, sizeof err), ==, -1);
        check(strncmp(err, "test.lua:1: attempt to index a nil value", 40) == 0);
        bot_free(b);
    }
}

TEST(separate_states)
{
    fixture_init(&fx, 1);
    const char *lua = "n = 0 function tick(me, w, mem, out) n = n + 1 out.turn = n end";
    struct bot *a = fixture_bot(lua, 0, 0, err, sizeof err), *b = fixture_bot(lua, 0, 0, err, sizeof err);
    check(a && b);
    if (a && b) {
        bot_tick(a, &fx.view, &out, &rep);
        bot_tick(a, &fx.view, &out, &rep);
        check_num(out.turn, ==, 2);
        bot_tick(b, &fx.view, &out, &rep);
        check_num(out.turn, ==, 1);
    }
    bot_free(a);
    bot_free(b);
}

TEST(report_figures)
{
    fixture_init(&fx, 1);
    struct bot *b = fixture_bot("function tick(me, w, mem, out) local s = 0 for i = 1, 5000 do s = s + i end end",
                                0, 0, err, sizeof err);
    check(b != NULL);
    if (!b)
        return;
    check_int(bot_tick(b, &fx.view, &out, &rep), ==, 0);
    check_int(rep.count_step, ==, 1000);
    check_int(rep.instructions, >=, 10000);
    check_int(rep.instructions, <=, 25000);
    check_int(rep.heap, >, 10000);
    check_int(rep.heap, <, 200000);
    check_int(rep.heap_peak, >=, rep.heap);
    check_str(bot_lua_version(), "Lua 5.4.4");
    bot_free(b);
}

static void scripts_run(const char *folder, const char *const *names, size_t count)
{
    const char *top = getenv("top_srcdir");
    char maps[4096];
    snprintf(maps, sizeof maps, "%s/%s", top ? top : ".", folder);
    for (size_t i = 0; i < count; i++) {
        struct bot_script s;
        check_int(bot_script_read(maps, names[i], &s, err, sizeof err), ==, 0);
        struct bot_limits lim = { BOT_BUDGET_DEFAULT, BOT_MEMORY_KIB_DEFAULT * 1024 };
        fixture_init(&fx, 1);
        struct bot *b = bot_new(&s, lim, err, sizeof err);
        bot_script_free(&s);
        check(b != NULL);
        if (!b) {
            tap_note("%s: %s", names[i], err);
            continue;
        }
        check_int(bot_init(b, &fx.view, err, sizeof err), ==, 0);
        for (int t = 0; t < 3; t++) {
            int rc = bot_tick(b, &fx.view, &out, &rep);
            if (rc)
                tap_note("%s: %s", names[i], rep.error);
            check_int(rc, ==, 0);
        }
        check(fx.calls > 0);
        bot_free(b);
    }
}

TEST(bundled_bots_run)
{
    static const char *const names[] = { "bots/avoid.lua", "bots/hunter.lua", "bots/racer.lua",
                                         "bots/turret.lua" };
    scripts_run("maps", names, 4);
}

TEST(fixture_scripts_run)
{
    static const char *const names[] = { "bots/mem-shapes.lua", "bots/string-lib.lua" };
    scripts_run("tests", names, 2);
}

/* The instruction count of one tick with the hook's step at 1000 against
 * the exact count of a hook that fires at every instruction (step 1). */
static long count_at_as(const char *lua, int step, int want_rc, int exact)
{
    fixture_init(&fx, 1);
    struct bot *b = fixture_bot(lua, 0, 0, err, sizeof err);
    check(b != NULL);
    if (!b)
        return -1;
    bot_set_count_step(b, step);
    bot_set_exact_count(b, exact);
    long n = -1;
    /* a few ticks: the hook's count carries over none of them */
    for (int k = 0; k < 3; k++) {
        check_int(bot_tick(b, &fx.view, &out, &rep), ==, want_rc);
        n = rep.instructions;
    }
    bot_free(b);
    return n;
}

static long count_at(const char *lua, int step, int want_rc)
{
    return count_at_as(lua, step, want_rc, 1);
}

TEST(exact_counts)
{
    static const char *const ok[] = {
        "function tick(me, w, mem, out) end",
        "function tick(me, w, mem, out) local s = 0 for i = 1, 7 do s = s + i end end",
        "function tick(me, w, mem, out) local s = 0 for i = 1, 5003 do s = s + i end end",
        "function tick(me, w, mem, out) for i = 1, 10 do wander() end end",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        long exact = count_at(ok[i], 1, 0);
        check_int(exact, >, 0);
        /* steps that leave the hook's count anywhere in the probe */
        for (int step = 2; step <= 9; step++)
            check_int(count_at(ok[i], step, 0), ==, exact);
        check_int(count_at(ok[i], 1000, 0), ==, exact);
    }
    /* an error ends the tick: counted up to it all the same */
    const char *bad = "function tick(me, w, mem, out) local s = 0 for i = 1, 30 do s = s + i end error('x') end";
    long exact = count_at(bad, 1, -1), stepped = count_at(bad, 1000, -1);
    check_int(exact, >, 30);
    check_int(stepped, ==, exact);
    /* where no one reads the figure (exact off: no inspector, no
     * --trace-decisions) no probe runs, and the count is the hook's steps */
    long plain = count_at_as(ok[2], 1000, 0, 0);
    check_int(plain % 1000, ==, 0);
    check_int(plain, <, count_at(ok[2], 1000, 0));
}

int main(void)
{
    run(me_fields, "me carries the view's fields");
    run(world_fields, "world: tick, time, sizes, enemies, allies, waypoints, events, trees");
    run(world_lists_on_demand, "world's lists are built on first read; pairs sees them all");
    run(tables_refilled_each_tick, "me, world, out: one table each, refilled every tick");
    run(me_strings_follow_the_view, "me.id, kind, team: this tick's view's, the buffer reused or not");
    run(refill_is_not_data, "the refill's strings and functions are not the bot's data");
    run(refill_ignores_metatables, "me and out with the script's metatables: refilled raw, no __newindex run");
    run(mem_keeps_engine_tables, "mem holding me, world or out restores them as themselves");
    run(world_trees_capped, "world.trees returns at most 256 trees");
    run(calls_reach_the_callbacks, "aim/avoid/race answer through the view's callbacks");
    run(calls_are_charged, "each built-in call costs BOT_CALL_COST instructions");
    run(calls_missing_or_bad_arguments, "a missing callback or a bad argument is an error");
    run(agent_observe_through_callback, "agent.observe() gives the callback's 12 + 11 K + R numbers");
    run(agent_observe_bad_arguments, "agent.observe: K outside 0..16 or R outside 0..64 is an error naming it");
    run(agent_observe_charged_and_counted, "agent.observe is charged per number and per look; its arrays count as memory");
    run(agent_act_sets_out, "agent.act sets out's five intents from the callback, nothing else");
    run(agent_act_bad_actions, "agent.act: a missing, NaN or out-of-range entry is an error naming it");
    run(intents_taken, "out starts at the defaults; intents come back unclamped");
    run(draw_and_log, "draw shapes (256 at most) and log lines (8, 200 bytes)");
    run(init_runs_with_me_and_mem, "init(me, mem) runs once; its errors are path:line");
    run(separate_states, "two bots of one script share nothing");
    run(report_figures, "instructions, heap and the Lua version are reported");
    run(exact_counts, "a tick's instruction count is exact, not in the hook's steps");
    run(bundled_bots_run, "the bundled bots in maps/bots load and tick without errors");
    run(fixture_scripts_run, "scripts using mem, draw, log and the libraries tick without errors");
    return tap_done();
}
