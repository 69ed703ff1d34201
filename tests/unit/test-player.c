/* test-player.c — the player tank (src/core/player.[ch]): its held
 * intents clamped to the tank's limits, one shot a press, the intents in
 * snapshots; the built-in guns see it only through sight; the loader's
 * rules for `player = true`. */
#include <math.h>
#include <string.h>

#include "../lib/tap.h"
#include "core/tick.h"
#include "core/world.h"
#include "io/map.h"

/* A 1000 x 600 world: the player (team 0) at (200, 300) facing +x, a
 * gun tank (team 1) at (700, 300) facing it, holding still; a tree of
 * radius tree_r between them (0: none).  Returns the player's index. */
static int duel(struct world *w, double tree_r)
{
    world_init(w, 1000, 600);
    world_add_team(w, "you", 0);
    world_add_team(w, "them", 1);
    if (tree_r > 0)
        world_add_tree(w, v2(450, 300), tree_r);
    struct vehicle_params p;
    world_default_params(&p, VK_TANK);
    p.player = 1;
    int me = world_add_vehicle(w, "tank.me", VK_TANK, 0, &p, v2(200, 300), 0);
    world_default_params(&p, VK_TANK);
    p.drive = DRIVE_HOLD;
    p.fov = 2 * M_PI;
    world_add_vehicle(w, "tank.gun", VK_TANK, 1, &p, v2(700, 300), M_PI);
    return me;
}

/* Shots by vehicle a at b (-1: any) over n ticks. */
static int shots(struct world *w, int a, int b, int n)
{
    int count = 0;
    for (int t = 0; t < n; t++) {
        if (tick_step(w))
            return -1;
        for (size_t k = 0; k < w->now.events.n; k++) {
            const struct event *e = &w->now.events.p[k];
            if (e->kind == EV_SHOT && e->a == a && (b < 0 || e->b == b))
                count++;
        }
    }
    return count;
}

TEST(hidden_behind_a_tree_is_not_shot_at)
{
    struct world w;
    int me = duel(&w, 90);
    check_int(world_finish(&w), ==, 0);
    check_int(w.player.vehicle, ==, me);
    check_int(shots(&w, 1, me, 300), ==, 0);
    /* it looked, and saw too little of the player */
    int looked = 0;
    for (size_t k = 0; k < w.now.sights.n; k++)
        if (w.now.sights.p[k].observer == 1 && w.now.sights.p[k].target == me) {
            looked = 1;
            check_int(w.now.sights.p[k].seen, ==, 0);
        }
    check(looked);
    /* headless, the player holds still */
    check_num(w.vehicles.p[me].pos.x, ==, 200);
    check_num(w.vehicles.p[me].pos.y, ==, 300);
    world_free(&w);
}

TEST(in_the_open_is_shot_at)
{
    struct world w;
    int me = duel(&w, 0);
    check_int(world_finish(&w), ==, 0);
    check_int(shots(&w, 1, me, 300), >=, 1);
    world_free(&w);
}

TEST(intents_clamped_to_the_tanks_limits)
{
    struct world w;
    int me = duel(&w, 90);
    check_int(world_finish(&w), ==, 0);
    /* far more than the tank can: 30 deg/s of turn, speed 60, turret 90 */
    struct player_input in = { 1000, 500, -1000, 0 };
    check_int(world_player_set(&w, me, &in), ==, 0);
    check_int(world_player_set(&w, 1, &in), ==, -1);     /* not the player */
    struct player_input bad = { NAN, 0, 0, 0 };
    check_int(world_player_set(&w, me, &bad), ==, -1);
    for (int t = 0; t < 60; t++)
        check_int(tick_step(&w), ==, 0);
    const struct vehicle *v = &w.vehicles.p[me];
    check_near(v->heading, deg2rad(30), 1e-9);
    /* the turret turns against the ground, not with the hull */
    check_near(v->turret, deg2rad(-90), 1e-9);
    check_num(v->speed, ==, 60);
    /* 60 ticks at speed 60 of 1/60 s along a turning heading: 60 units of
     * path, so the chord is just under it */
    double moved = v2_dist(v->pos, v2(200, 300));
    check_num(moved, <, 60);
    check_num(moved, >, 59);
    /* no reverse: a negative speed is 0 */
    in = (struct player_input){ 0, -40, 0, 0 };
    check_int(world_player_set(&w, me, &in), ==, 0);
    check_int(tick_step(&w), ==, 0);
    check_num(w.vehicles.p[me].speed, ==, 0);
    world_free(&w);
}

TEST(one_press_one_shot_when_loaded)
{
    struct world w;
    int me = duel(&w, 90);
    check_int(world_finish(&w), ==, 0);
    struct player_input in = { 0, 0, 0, 1 };
    check_int(world_player_set(&w, me, &in), ==, 0);
    check_int(shots(&w, me, -1, 1), ==, 1);                 /* at once */
    check_int(w.player.in.fire, ==, 0);                     /* then cleared */
    const struct shell *s = &w.shells.p[w.shells.n - 1];
    check_near(atan2(s->vel.y, s->vel.x), 0, 1e-12);        /* along the turret */
    check_int(s->target, ==, -1);
    /* a press while reloading (2 s) fires on the tick it is loaded */
    check_int(world_player_set(&w, me, &in), ==, 0);
    check_int(shots(&w, me, -1, 118), ==, 0);
    check_int(w.player.in.fire, ==, 1);
    check_int(shots(&w, me, -1, 10), ==, 1);
    check_int(w.player.in.fire, ==, 0);
    world_free(&w);
}

TEST(snapshots_keep_the_intents)
{
    struct world a, b;
    int me = duel(&a, 90);
    duel(&b, 90);
    check_int(world_finish(&a), ==, 0);
    check_int(world_finish(&b), ==, 0);
    struct player_input in = { 30, 60, 90, 0 };
    check_int(world_player_set(&a, me, &in), ==, 0);
    check_int(world_player_set(&b, me, &in), ==, 0);
    for (int t = 0; t < 30; t++)
        tick_step(&a);
    struct world_snapshot s;
    check_int(world_snapshot_save(&a, &s), ==, 0);
    struct player_input other = { -30, 0, 0, 1 };
    world_player_set(&a, me, &other);
    for (int t = 0; t < 30; t++)
        tick_step(&a);
    check_int(world_snapshot_restore(&a, &s), ==, 0);
    check_num(a.player.in.turn, ==, 30);
    check_int(a.player.in.fire, ==, 0);
    /* and the run from the snapshot is the run that never changed */
    for (int t = 0; t < 60; t++)
        tick_step(&a);
    for (int t = 0; t < 90; t++)
        tick_step(&b);
    check_int(a.tick, ==, b.tick);
    check(memcmp(&a.vehicles.p[me].pos, &b.vehicles.p[me].pos, sizeof(vec2)) == 0);
    check_num(a.vehicles.p[me].turret, ==, b.vehicles.p[me].turret);
    world_snapshot_free(&s);
    world_free(&a);
    world_free(&b);
}

static const char *two_players =
    "[map]\nwidth = 500\nheight = 500\n[team.a]\n[team.b]\n"
    "[tank.one]\nteam = a\nx = 100\ny = 100\nplayer = true\n"
    "[tank.two]\nteam = b\nx = 300\ny = 300\nplayer = true\n";
static const char *player_bot =
    "[map]\nwidth = 500\nheight = 500\n[team.a]\n"
    "[tank.one]\nteam = a\nx = 100\ny = 100\nplayer = true\nbot = x.lua\n";
static const char *team_player =
    "[map]\nwidth = 500\nheight = 500\n[team.a]\nplayer = true\n";

TEST(loader_rules)
{
    struct world w;
    struct map_error e;
    int rc = map_load_text("t.ini", two_players, strlen(two_players), NULL, &w, &e);
    check_int(rc, ==, -1);
    if (rc == 0) {
        world_free(&w);
        return;
    }
    tap_note("%s", e.text);
    check(strstr(e.text, "t.ini:15: [tank.two] player = true") != NULL);
    check(strstr(e.text, "[tank.one] is the player already") != NULL);
    map_error_free(&e);
    rc = map_load_text("t.ini", player_bot, strlen(player_bot), NULL, &w, &e);
    check_int(rc, ==, -1);
    if (rc == 0) {
        world_free(&w);
        return;
    }
    tap_note("%s", e.text);
    check(strstr(e.text, "cannot have a bot as well") != NULL);
    map_error_free(&e);
    rc = map_load_text("t.ini", team_player, strlen(team_player), NULL, &w, &e);
    check_int(rc, ==, -1);
    if (rc == 0) {
        world_free(&w);
        return;
    }
    tap_note("%s", e.text);
    map_error_free(&e);
    /* one player loads, and starts still */
    const char *one = "[map]\nwidth = 500\nheight = 500\n[team.a]\n"
                      "[tank.one]\nteam = a\nx = 100\ny = 100\nplayer = true\n";
    rc = map_load_text("t.ini", one, strlen(one), NULL, &w, &e);
    check_int(rc, ==, 0);
    if (rc) {
        map_error_free(&e);
        return;
    }
    check_int(w.player.vehicle, ==, 0);
    check_num(w.vehicles.p[0].speed, ==, 0);
    world_free(&w);
}

int main(void)
{
    run(hidden_behind_a_tree_is_not_shot_at,
        "a gun does not shoot at a player hidden behind a wide tree");
    run(in_the_open_is_shot_at, "a gun shoots at a player in the open");
    run(intents_clamped_to_the_tanks_limits,
        "turn, speed and turret are clamped to turn_rate, [0, speed], turret_rate");
    run(one_press_one_shot_when_loaded,
        "fire: one shot along the turret, at once or when loaded, then cleared");
    run(snapshots_keep_the_intents, "a snapshot saves and restores the intents");
    run(loader_rules, "one player per map, never with a bot, never from a team");
    return tap_done();
}
