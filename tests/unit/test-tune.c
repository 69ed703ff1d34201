/* test-tune.c — a live change of a map key (src/io/tune.c) and the
 * write-back into the map file (src/io/map_write.c): the value checked as
 * a map line is, with the map's message; the world going on from its
 * state with the new setting; a snapshot from before it keeping the old
 * one; a team's value reaching only the tanks that take it from the
 * team; the file rewritten only where a value changed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "../lib/map-fixture.h"
#include "core/tick.h"
#include "core/world.h"
#include "io/map.h"
#include "io/map_write.h"
#include "io/tune.h"

static const char map_text[] =
    "[map]\nwidth = 1000\nheight = 600\nseed = 3\n"
    "[team.red]\ncolor = red\nrandom = 2\n"
    "[team.blue]\ncolor = blue\n"
    "[tank.a]\nteam = red\nx = 100\ny = 300\nheading = 0\nreload = 3\n"
    "[tank.b]\nteam = blue\nx = 900\ny = 300\nheading = 180\n";

static char msg[512];

static int set(struct world *w, const char *sec, const char *key, const char *val)
{
    msg[0] = 0;
    return tune_apply(w, map_text, NULL, "t.ini", sec, key, val, msg, sizeof msg);
}

TEST(value_checked_as_a_map_line)
{
    struct world w;
    if (fixture_load_text("t.ini", map_text, &w)) {
        check(0);
        return;
    }
    check_int(set(&w, "tank.a", "turn_rate", "abc"), ==, -1);
    check_str(msg, "t.ini: [tank.a] turn_rate = abc: not a number (expected more than 0, "
              "up to 36000)");
    check_int(set(&w, "tank.a", "turn_rate", "0"), ==, -1);
    check_str(msg, "t.ini: [tank.a] turn_rate = 0: out of range (expected more than 0, "
              "up to 36000)");
    check_int(set(&w, "tank.a", "turn_rat", "3"), ==, -1);
    check_str(msg, "t.ini: [tank.a] turn_rat: unknown key (did you mean 'turn_rate'?)");
    check_int(set(&w, "tank.a", "aim", "perfect"), ==, -1);
    check_str(msg, "t.ini: [tank.a] aim = perfect: not a known value (expected one of: none "
              "classic exact)");
    check_int(set(&w, "tank.zz", "fov", "3"), ==, -1);
    check_str(msg, "t.ini: [tank.zz]: the map has no such vehicle");
    check_int(set(&w, "tank.a", "x", "3"), ==, -1);
    check(strstr(msg, "cannot be tuned during a run") != NULL);
    check_int(set(&w, "map", "width", "3"), ==, -1);
    check(strstr(msg, "not a section that can be tuned") != NULL);
    check_int(set(&w, "sight", "threshold", "2"), ==, -1);
    check_str(msg, "t.ini: [sight] threshold = 2: out of range (expected 0 to 1)");
    /* nothing changed by a refused value */
    check_near(w.vehicles.p[world_find_vehicle(&w, "tank.a")].p->turn_rate, deg2rad(30), 1e-12);
    check_near(w.sight.threshold, 0.2, 1e-12);
    world_free(&w);
}

TEST(applies_from_the_tick_on)
{
    struct world w, ref;
    if (fixture_load_text("t.ini", map_text, &w) || fixture_load_text("t.ini", map_text, &ref)) {
        check(0);
        return;
    }
    int a = world_find_vehicle(&w, "tank.a");
    for (int t = 0; t < 30; t++) {
        tick_step(&w);
        tick_step(&ref);
    }
    struct world_snapshot snap;
    check_int(world_snapshot_save(&w, &snap), ==, 0);
    vec2 before = w.vehicles.p[a].pos;
    check_int(set(&w, "tank.a", "speed", "120"), ==, 0);
    check_int(set(&w, "tank.a", "aim", "classic"), ==, 0);
    check_int(set(&w, "sight", "threshold", "0.5"), ==, 0);
    check_near(w.vehicles.p[a].p->speed, 120, 0);
    check_int(w.vehicles.p[a].p->aim, ==, AIM_CLASSIC);
    check_near(w.sight.threshold, 0.5, 0);
    /* the state itself is the same: the run goes on from it */
    check_near(v2_dist(w.vehicles.p[a].pos, before), 0, 0);
    check_int(w.tick, ==, 30);
    tick_step(&w);
    tick_step(&ref);
    double moved = v2_dist(w.vehicles.p[a].pos, before);
    tap_note("moved %.3f in the tick after the change", moved);
    check(moved > 0 && moved <= 120 / w.tick_rate + 1e-9);
    check(v2_dist(w.vehicles.p[a].pos, ref.vehicles.p[a].pos) > 0);
    /* the other tank, untouched, moves as in the run without the change */
    int b = world_find_vehicle(&w, "tank.b");
    check_near(v2_dist(w.vehicles.p[b].pos, ref.vehicles.p[b].pos), 0, 0);
    /* a snapshot from before the change keeps the old settings */
    check_int(world_snapshot_restore(&w, &snap), ==, 0);
    check_near(w.vehicles.p[a].p->speed, 60, 0);
    check_int(w.vehicles.p[a].p->aim, ==, AIM_EXACT);
    world_snapshot_free(&snap);
    world_free(&w);
    world_free(&ref);
}

static int said_reload(const void *ctx, const char *section, const char *key)
{
    (void)ctx;
    return !strcmp(section, "tank.red.1") && !strcmp(key, "reload");
}

TEST(a_team_reaches_the_tanks_that_take_its_value)
{
    struct world w;
    if (fixture_load_text("t.ini", map_text, &w)) {
        check(0);
        return;
    }
    int a = world_find_vehicle(&w, "tank.a"), r1 = world_find_vehicle(&w, "tank.red.1"),
        r2 = world_find_vehicle(&w, "tank.red.2"), b = world_find_vehicle(&w, "tank.b");
    check(a >= 0 && r1 >= 0 && r2 >= 0 && b >= 0);
    struct tune_earlier e = { said_reload, NULL };
    check_int(tune_apply(&w, map_text, &e, "t.ini", "team.red", "reload", "0.5", msg,
                         sizeof msg), ==, 0);
    check_near(w.vehicles.p[a].p->reload, 3, 0);        /* its own line says 3 */
    check_near(w.vehicles.p[r1].p->reload, 2, 0);       /* an earlier change of its own */
    check_near(w.vehicles.p[r2].p->reload, 0.5, 0);     /* takes the team's */
    check_near(w.vehicles.p[b].p->reload, 2, 0);        /* another team */
    check_int(set(&w, "team.red", "x", "1"), ==, -1);
    check_str(msg, "t.ini: [team.red] x: unknown key in a [team.NAME] section (it is a key "
              "of [tree.ID], [tank.ID], [turret.ID], [waypoint.N], [car.ID])");
    check_int(set(&w, "team.red", "behaviour", "hold"), ==, -1);
    check(strstr(msg, "cannot be tuned") != NULL);
    check_int(set(&w, "team.green", "fov", "1"), ==, -1);
    check_str(msg, "t.ini: [team.green]: the map has no such team");
    world_free(&w);
}

/* ---- writing back ------------------------------------------------------------ */

static char path[64];

static void put(const char *text)
{
    FILE *f = fopen(path, "wb");
    fputs(text, f);
    fclose(f);
}

static char *get(void)
{
    char *t;
    size_t n;
    char m[256];
    return map_write_read(path, &t, &n, m, sizeof m) ? NULL : t;
}

/* Comments, odd spacing, a tab, a CR LF line and no newline at the end. */
static const char odd[] =
    "; tuned by hand\n"
    "[map]\nwidth=1000\nheight = 600\n"
    "[team.red]   ; the reds\n"
    "   aim   =   exact    # the team's solver\n"
    "[tank.a]\r\n"
    "team = red\nx = 100\ny = 300\n"
    "turn_rate\t=  30   ; degrees a second\n"
    "\n; the end\n"
    "reload = 2";

static const char odd_saved[] =
    "; tuned by hand\n"
    "[map]\nwidth=1000\nheight = 600\n"
    "[team.red]   ; the reds\n"
    "fov = 90\n"
    "   aim   =   classic    # the team's solver\n"
    "[tank.a]\r\n"
    "team = red\nx = 100\ny = 300\n"
    "turn_rate\t=  45   ; degrees a second\n"
    "\n; the end\n"
    "reload = 0.5\n"
    "[sight]\n"
    "threshold = 0.3\n";

TEST(write_back_changes_only_the_values)
{
    snprintf(path, sizeof path, "/tmp/botfield-tune-%ld.ini", (long)getpid());
    put(odd);
    uint64_t h = map_write_hash(odd, strlen(odd)), nh = 0;
    struct map_set s[] = {
        { "tank.a.turn_rate", "45" }, { "team.red.aim", "classic" },
        { "team.red.fov", "90" }, { "tank.a.reload", "0.5" }, { "sight.threshold", "0.3" },
    };
    check_int(map_write_back(path, s, 5, h, 0, &nh, msg, sizeof msg), ==, 0);
    char *t = get();
    check(t != NULL);
    if (t) {
        check_str(t, odd_saved);
        check(nh == map_write_hash(t, strlen(t)));
    }
    free(t);
    /* Changed on disk since: left alone unless forced. */
    put(odd);
    check_int(map_write_back(path, s, 1, nh, 0, &nh, msg, sizeof msg), ==, 1);
    check(strstr(msg, "changed on disk since it was loaded") != NULL);
    t = get();
    check(t && !strcmp(t, odd));
    free(t);
    check_int(map_write_back(path, s, 1, 0, 1, &nh, msg, sizeof msg), ==, 0);
    t = get();
    check(t && strstr(t, "turn_rate\t=  45   ; degrees a second\n") && strstr(t, "aim   =   exact"));
    free(t);
    /* A random tank has no section to write into: nothing written. */
    put(odd);
    struct map_set r[] = { { "tank.red.1.fov", "10" } };
    check_int(map_write_back(path, r, 1, h, 0, &nh, msg, sizeof msg), ==, -1);
    check(strstr(msg, "tune its team instead") != NULL);
    t = get();
    check(t && !strcmp(t, odd));
    free(t);
    unlink(path);
}

int main(void)
{
    run(value_checked_as_a_map_line, "a tuned value is checked as a map line, same message");
    run(applies_from_the_tick_on, "a change applies from the tick on; a snapshot keeps the old");
    run(a_team_reaches_the_tanks_that_take_its_value, "a team's value skips tanks with their own");
    run(write_back_changes_only_the_values, "write-back: only the values' text changes");
    return tap_done();
}
