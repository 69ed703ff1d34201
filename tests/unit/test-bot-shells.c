/* test-bot-shells — what a Lua bot senses of shells (src/bot/bot_world.c,
 * sight_sees_shell in src/core/sight): maps loaded from text, shells put
 * in flight by hand or fired by bots, the world stepped with tick_step.
 *
 * What it proves: world.shells lists a shell in flight only within
 * view_range, inside the view cone (a turret's at its facing) and with no
 * tree between, always the vehicle's own (mine), sorted by id, with the
 * shot's id, its heading in degrees, speed and its shooter's team; a car's
 * list is empty. */
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
#include "core/tick.h"
#include "core/world.h"
#include "io/map.h"

static void unload(struct world *w, struct bot_world *bw)
{
    bot_world_free(w, bw);
    world_free(w);
}

static int vid(const struct world *w, const char *id)
{
    return world_find_vehicle(w, id);
}

static const char *log0(const struct bot_world *bw, const struct world *w, const char *id)
{
    const struct bot_report *r = bot_world_report(bw, vid(w, id));
    return r && r->n_log > 0 ? r->log[0] : "";
}

/* A shell in flight at (x, y) along heading (degrees), fired by vehicle
 * `shooter`, with id `id`: added to the world as the shell phase would. */
static void add_shell(struct world *w, long id, int shooter, double x, double y,
                      double heading, int alive)
{
    if (WORLD_RESERVE(w->shells, w->shells.n + 1))
        exit(99);
    struct shell *s = &w->shells.p[w->shells.n++];
    memset(s, 0, sizeof *s);
    s->id = id;
    s->pos = s->start = v2(x, y);
    s->vel = v2_scale(v2_dir(deg2rad(heading)), 300);
    s->range = 5000;
    s->shooter = s->target = -1;
    s->shooter = shooter;
    s->target = -1;
    s->alive = alive;
    s->hit = s->miss = -1;
}

/* Each shell listed as "id:mine:team:x:y:heading:speed ". */
static const char *const lister =
    "function tick(me, w, mem, out)\n"
    " local s = ''\n"
    " for _, h in ipairs(w.shells) do\n"
    "  s = s .. string.format('%d:%s:%s:%.0f:%.0f:%.0f:%.0f ', h.id, tostring(h.mine),\n"
    "      h.team, h.x, h.y, h.heading, h.speed)\n"
    "  if math.type(h.id) ~= 'integer' then s = s .. 'not-integer ' end\n"
    " end\n"
    " log(s)\n"
    " out.speed = 0\n"
    "end\n";

/* a looks east (cone 90 degrees, view_range 400) from (500, 500); a tree
 * of radius 20 at (500, 650) south of it; b, blue, far off. */
static const char *const watch_map =
    "[map]\nwidth = 1000\nheight = 1000\n"
    "[trees]\nat = 650 600 20\n"
    "[team.red]\n[team.blue]\n"
    "[tank.a]\nteam = red\nx = 500\ny = 500\nheading = 0\nfov = 90\nview_range = 400\n"
    "bot = list.lua\n"
    "[tank.b]\nteam = blue\nx = 100\ny = 900\nheading = 180\n";

TEST(seen_in_range_cone_and_clear)
{
    put("list.lua", lister);
    struct world w;
    struct bot_world *bw;
    if (load(watch_map, &w, &bw))
        return;
    int a = vid(&w, "tank.a"), b = vid(&w, "tank.b");
    add_shell(&w, 3, b, 700, 500, 180, 1);     /* ahead, 200 off: seen */
    add_shell(&w, 4, b, 950, 500, 180, 1);     /* ahead, 450 off: out of range */
    add_shell(&w, 5, b, 300, 500, 0, 1);       /* behind: out of the cone */
    add_shell(&w, 6, b, 800, 700, 90, 1);      /* in the cone, behind the tree */
    add_shell(&w, 7, b, 700, 400, 45, 0);      /* ended last tick: not in flight */
    add_shell(&w, 8, a, 200, 200, -90, 1);     /* mine, behind me: listed */
    add_shell(&w, 9, b, 750, 380, 90, 1);      /* in the cone, beside the tree */
    tick_step(&w);
    check_str(log0(bw, &w, "tank.a"),
              "3:false:blue:700:500:180:300 8:true:red:200:200:-90:300 "
              "9:false:blue:750:380:90:300 ");
    unload(&w, bw);
}

/* The cone is where the sensor points: a turret's at its facing, not
 * along +x (its heading never moves). */
TEST(turret_sees_along_its_facing)
{
    put("list.lua", lister);
    struct world w;
    struct bot_world *bw;
    if (load("[map]\nwidth = 1000\nheight = 1000\n[team.red]\n[team.blue]\n"
             "[turret.t]\nteam = red\nx = 500\ny = 500\nfacing = 180\nfov = 60\n"
             "view_range = 400\nbot = list.lua\n"
             "[tank.b]\nteam = blue\nx = 100\ny = 900\n", &w, &bw))
        return;
    int b = vid(&w, "tank.b");
    add_shell(&w, 1, b, 700, 500, 0, 1);       /* east: behind it */
    add_shell(&w, 2, b, 300, 500, 0, 1);       /* west: along its facing */
    tick_step(&w);
    check_str(log0(bw, &w, "turret.t"), "2:false:blue:300:500:0:300 ");
    unload(&w, bw);
}

/* A car has no sight (and no gun): its list is empty. */
TEST(car_sees_no_shells)
{
    put("count.lua", "function tick(me, w, mem, out) log('#' .. #w.shells) end\n");
    struct world w;
    struct bot_world *bw;
    if (load("[map]\nwidth = 1000\nheight = 1000\n[team.blue]\n"
             "[track]\nwaypoints = 100 100 30, 900 100 30, 900 900 30\n"
             "[car.c]\nx = 500\ny = 500\nbot = count.lua\n"
             "[tank.b]\nteam = blue\nx = 100\ny = 900\n", &w, &bw))
        return;
    int b = vid(&w, "tank.b");
    add_shell(&w, 1, b, 520, 500, 0, 1);
    add_shell(&w, 2, b, 480, 500, 0, 1);
    tick_step(&w);
    check_str(log0(bw, &w, "car.c"), "#0");
    unload(&w, bw);
}

/* A bot fires: next tick its shell is listed, mine, with the id of its
 * shot event; a second shot comes after it (sorted by id). */
TEST(own_shots_listed_with_the_shot_id)
{
    put("fire.lua", "function tick(me, w, mem, out)\n"
                    " local s = ''\n"
                    " for _, e in ipairs(w.events) do\n"
                    "  if e.type == 'shot' then s = s .. 'shot ' .. e.shell .. ' ' end\n"
                    " end\n"
                    " for _, h in ipairs(w.shells) do\n"
                    "  s = s .. h.id .. ':' .. tostring(h.mine) .. ' '\n"
                    " end\n"
                    " log(s)\n"
                    " out.speed = 0 out.fire = true\n"
                    "end\n");
    struct world w;
    struct bot_world *bw;
    /* firing along its heading */
    if (load("[map]\nwidth = 3000\nheight = 1000\n[team.red]\n[team.blue]\n"
             "[tank.a]\nteam = red\nx = 1500\ny = 500\nheading = 0\nfov = 90\n"
             "reload = 0.1\nrange = 2000\nbot = fire.lua\n"
             "[tank.b]\nteam = blue\nx = 100\ny = 100\nheading = 180\n", &w, &bw))
        return;
    char seen[12][256];
    for (int t = 0; t < 12; t++) {
        tick_step(&w);
        snprintf(seen[t], sizeof seen[t], "%s", log0(bw, &w, "tank.a"));
    }
    /* the first shot on tick 1 (loaded), reported on tick 2 with its
     * shell in flight; the next one reload (6 ticks) later */
    int shot1 = -1, listed = 0, both = 0;
    for (int t = 0; t < 12; t++) {
        if (shot1 < 0 && sscanf(seen[t], "shot %d", &shot1) == 1) {
            char want[64];
            snprintf(want, sizeof want, "shot %d %d:true ", shot1, shot1);
            listed = !strcmp(seen[t], want);
            if (!listed)
                tap_note("tick %d: '%s', want '%s'", t + 1, seen[t], want);
        }
        if (strstr(seen[t], "1:true 2:true"))
            both = 1;
    }
    check_int(shot1, ==, 1);
    check_int(listed, ==, 1);
    check_int(both, ==, 1);
    unload(&w, bw);
}

/* Past 1024 shells in flight, a read of world.shells costs a quarter
 * instruction for each one beyond: 2000 shells, 244 more than the same
 * script reading another list. */
TEST(many_shells_charged)
{
    put("sh.lua", "function tick(me, w, mem, out) local n = #w.shells out.speed = 0 end\n");
    put("al.lua", "function tick(me, w, mem, out) local n = #w.allies out.speed = 0 end\n");
    struct world w;
    struct bot_world *bw;
    if (load("[map]\nwidth = 1000\nheight = 1000\n[team.red]\n[team.blue]\n"
             "[tank.a]\nteam = red\nx = 500\ny = 500\nbot = sh.lua\n"
             "[tank.c]\nteam = red\nx = 500\ny = 800\nbot = al.lua\n"
             "[tank.b]\nteam = blue\nx = 100\ny = 900\n", &w, &bw))
        return;
    int b = vid(&w, "tank.b");
    for (long k = 1; k <= 2000; k++)
        add_shell(&w, k, b, 10 + (double)(k % 900), 10 + (double)(k / 900) * 5, 90, 1);
    tick_step(&w);
    const struct bot_report *ra = bot_world_report(bw, vid(&w, "tank.a"));
    const struct bot_report *rc = bot_world_report(bw, vid(&w, "tank.c"));
    check(ra && rc);
    if (ra && rc)
        check_int(ra->instructions - rc->instructions, ==, (2000 - 1024) / 4);
    unload(&w, bw);
}

/* ---- who gets which shell event ------------------------------------------ */

/* Every shell event a bot gets, one log line each: its type and fields. */
static const char *const events_lua =
    "function tick(me, w, mem, out)\n"
    " for _, e in ipairs(w.events) do\n"
    "  if e.type == 'shot' or e.type == 'hit' or e.type == 'miss' or e.type == 'knockout' then\n"
    "   local s = e.type\n"
    "   for _, k in ipairs({'shooter', 'target', 'id', 'by'}) do\n"
    "    if e[k] ~= nil then s = s .. ' ' .. k .. '=' .. e[k] end\n"
    "   end\n"
    "   if e.shell then s = s .. ' shell' end\n"
    "   if e.x and e.y then s = s .. ' xy' end\n"
    "   log(s)\n"
    "  end\n"
    " end\n"
    " out.speed = 0\n"
    " out.fire = me.id == 'tank.a'\n"
    "end\n";

struct got { char text[8192]; };

/* Steps n ticks, each bot's log lines of each tick appended to got[k]
 * (ids[k]'s). */
static void gather(struct world *w, struct bot_world *bw, int n, const char *const *ids,
                   struct got *got, int nids)
{
    for (int t = 0; t < n; t++) {
        tick_step(w);
        for (int k = 0; k < nids; k++) {
            const struct bot_report *r = bot_world_report(bw, vid(w, ids[k]));
            if (!r || !w->vehicles.p[vid(w, ids[k])].alive)
                continue;
            for (int l = 0; l < r->n_log; l++) {
                size_t len = strlen(got[k].text);
                snprintf(got[k].text + len, sizeof got[k].text - len, "%s\n", r->log[l]);
            }
        }
    }
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

/* tank.a (a bot) shoots tank.b (a bot, two hits) dead: both get each
 * hit, only a its shots and misses, and tank.c, which takes no part,
 * only the knockout, with who fired. */
TEST(a_bots_shot_hits_a_bot)
{
    put("ev.lua", events_lua);
    struct world w;
    struct bot_world *bw;
    if (load("[map]\nwidth = 1000\nheight = 400\n[team.red]\n[team.blue]\n"
             "[tank.a]\nteam = red\nx = 200\ny = 200\nheading = 0\nrange = 500\nbot = ev.lua\n"
             "[tank.b]\nteam = blue\nx = 450\ny = 200\nheading = 90\nhealth = 2\nbot = ev.lua\n"
             "[tank.c]\nteam = blue\nx = 100\ny = 40\nheading = 180\nbot = ev.lua\n", &w, &bw))
        return;
    static struct got got[3];
    memset(got, 0, sizeof got);
    const char *ids[3] = { "tank.a", "tank.b", "tank.c" };
    gather(&w, bw, 400, ids, got, 3);
    const char *a = got[0].text, *b = got[1].text, *c = got[2].text;
    const char *hit = "hit shooter=tank.a target=tank.b shell xy\n";
    const char *ko = "knockout id=tank.b by=tank.a\n";
    check_int(count(a, "shot shooter=tank.a shell xy\n"), >=, 3);
    check_int(count(a, "shot"), ==, count(a, "shot shooter=tank.a shell xy\n"));
    check_int(count(a, hit), ==, 2);
    check_int(count(a, ko), ==, 1);
    check_int(count(a, "miss shooter=tank.a shell xy\n"), >=, 1);
    check_int(count(b, hit), ==, 1);        /* the second knocked it out */
    check_int(count(b, "shot") + count(b, "miss") + count(b, "knockout"), ==, 0);
    check_str(c, ko);
    if (count(a, hit) != 2 || strcmp(c, ko))
        tap_note("a:\n%sb:\n%sc:\n%s", a, b, c);
    unload(&w, bw);
}

/* A built-in turret's shots aim at tank.d, a bot: the shot events are
 * the turret's, never d's; d gets the hits. */
TEST(a_builtin_shot_is_not_the_targets)
{
    put("ev.lua", events_lua);
    struct world w;
    struct bot_world *bw;
    if (load("[map]\nwidth = 1000\nheight = 400\n[team.red]\n[team.blue]\n"
             "[turret.t]\nteam = blue\nx = 700\ny = 200\nfacing = 180\nfov = 360\n"
             "view_range = 900\nrange = 900\n"
             "[tank.d]\nteam = red\nx = 300\ny = 200\nheading = 0\nhealth = 100\nbot = ev.lua\n",
             &w, &bw))
        return;
    static struct got got[1];
    memset(got, 0, sizeof got);
    const char *ids[1] = { "tank.d" };
    gather(&w, bw, 300, ids, got, 1);
    check_int(count(got[0].text, "hit shooter=turret.t target=tank.d shell xy\n"), >=, 2);
    check_int(count(got[0].text, "shot"), ==, 0);
    if (count(got[0].text, "shot"))
        tap_note("d:\n%.400s", got[0].text);
    unload(&w, bw);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/botfield-bs-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 99;
    }
    run(seen_in_range_cone_and_clear,
        "world.shells: in view_range, in the cone, no tree between; mine always");
    run(turret_sees_along_its_facing, "world.shells: a turret's cone is at its facing");
    run(car_sees_no_shells, "world.shells: a car's is empty");
    run(own_shots_listed_with_the_shot_id, "world.shells: my shots, mine, with the shot's id, by id");
    run(many_shells_charged, "world.shells: past 1024 shells, a quarter instruction each");
    run(a_bots_shot_hits_a_bot,
        "events: a bot's hit to both, shot and miss to the shooter, knockout to all alive");
    run(a_builtin_shot_is_not_the_targets, "events: a built-in's shot goes to the shooter only");
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        tap_note("could not remove %s", dir);
    return tap_done();
}
