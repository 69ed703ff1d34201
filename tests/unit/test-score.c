/* The scores (src/core/score.c): damage, kills, survival and last as the
 * shell phase and the end count them, a step back restoring them, and
 * the winner on score. */
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "../lib/map-fixture.h"
#include "core/score.h"
#include "core/tick.h"
#include "core/world.h"

/* a, c red; b, d blue; far apart, so nothing is hit unless a test says */
static const char map[] =
    "[map]\nname = s\nwidth = 2000\nheight = 2000\nseed = 3\n"
    "[team.red]\n[team.blue]\n"
    "[tank.a]\nteam = red\nx = 100\ny = 100\nhealth = 2\n"
    "[tank.b]\nteam = blue\nx = 1900\ny = 100\nhealth = 2\n"
    "[tank.c]\nteam = red\nx = 100\ny = 1900\nhealth = 2\n"
    "[tank.d]\nteam = blue\nx = 1900\ny = 1900\nhealth = 2\n";

static void load(struct world *w)
{
    if (fixture_load_text("s.ini", map, w)) {
        printf("Bail out! the test map does not load\n");
        exit(1);
    }
}

/* A shell of `shooter` that ended on `target` this tick, applied as the
 * shell phase applies it (health, knockout count, score). */
static void land(struct world *w, int shooter, int target)
{
    struct vehicle *t = &w->vehicles.p[target];
    int was = t->alive;
    if (t->alive && --t->health <= 0) {
        t->alive = 0;
        w->teams.p[t->team].alive--;
        w->teams.p[t->team].knockouts++;
    }
    score_hit(w, shooter, target, was && !t->alive);
    struct shell s;
    memset(&s, 0, sizeof s);
    s.hit = target;
    s.miss = -1;
    s.shooter = shooter;
    WORLD_RESERVE(w->shells, w->shells.n + 1);
    w->shells.p[w->shells.n++] = s;
}

static struct score_sum of(const struct world *w, int i)
{
    return score_vehicle(w, &w->vehicles.p[i]);
}

TEST(hits_and_kills)
{
    struct world w;
    load(&w);
    land(&w, 0, 1);                 /* a hits b */
    land(&w, 0, 2);                 /* a hits its ally c: -1 */
    score_settle(&w);
    check_int(of(&w, 0).damage, ==, 0);
    check_int(of(&w, 0).kills, ==, 0);
    w.shells.n = 0;
    land(&w, 0, 1);                 /* b knocked out by a */
    score_settle(&w);
    check_int(of(&w, 0).damage, ==, 1);
    check_int(of(&w, 0).kills, ==, 1);
    check_int(of(&w, 0).score, ==, 10 * 1 + 20 * 1 + 5 * 1);
    check_int(of(&w, 2).survival, ==, 1);   /* c alive when b fell */
    check_int(of(&w, 3).survival, ==, 0);   /* d: an ally fell */
    check_int(of(&w, 1).survival, ==, 0);
    world_free(&w);
}

/* Knocked out on the same tick as the enemy it knocked out: each counts
 * the other for survival, whatever the shells' order; a shooter knocked
 * out before its shell lands still scores. */
TEST(same_tick_and_dead_shooter)
{
    struct world w;
    load(&w);
    w.vehicles.p[0].health = w.vehicles.p[1].health = 1;
    land(&w, 0, 1);
    land(&w, 1, 0);
    score_settle(&w);
    check_int(of(&w, 0).survival, ==, 1);
    check_int(of(&w, 1).survival, ==, 1);
    check_int(of(&w, 1).kills, ==, 1);
    w.shells.n = 0;
    land(&w, 0, 3);                 /* a's late shell, a out already */
    score_settle(&w);
    check_int(of(&w, 0).damage, ==, 2);
    check_int(of(&w, 0).survival, ==, 1);   /* kept as it fell */
    world_free(&w);
}

TEST(last_and_winner)
{
    struct world w;
    load(&w);
    struct score_sum t[2];
    score_teams(&w, t);
    check_int(score_winner(&w, t), ==, -1);         /* 0 : 0, a draw */
    land(&w, 2, 3);
    score_teams(&w, t);
    check_int(t[0].score, ==, 10);
    check_int(score_winner(&w, t), ==, 0);
    score_last(&w, 1);
    check_int(of(&w, 1).last, ==, 2);
    check_int(of(&w, 3).last, ==, 2);
    check_int(of(&w, 0).last, ==, 0);
    score_teams(&w, t);
    check_int(t[1].last, ==, 4);
    check_int(t[1].score, ==, 40);
    check_int(score_winner(&w, t), ==, 1);
    world_free(&w);
}

/* A battle run to its end: one team left, its vehicles get last; a
 * snapshot taken before restores the scores it had. */
static const char duel[] =
    "[map]\nname = d\nwidth = 400\nheight = 300\nseed = 5\n"
    "[team.red]\n[team.blue]\n"
    "[tank.a]\nteam = red\nx = 100\ny = 150\n"
    "[tank.b]\nteam = blue\nx = 300\ny = 150\nheading = 180\n";

TEST(battle_and_step_back)
{
    struct world w;
    if (!check_int(fixture_load_text("d.ini", duel, &w), ==, 0))
        return;
    struct world_snapshot s;
    check_int(world_snapshot_save(&w, &s), ==, 0);
    for (int i = 0; i < 20000 && !w.ended; i++)
        tick_step(&w);
    check(w.ended && w.winner >= 0);
    struct score_sum t[2];
    score_teams(&w, t);
    int win = w.winner >= 0 ? w.winner : 0;
    check_int(t[win].last, ==, 1);
    check_int(t[win].kills, ==, 1);
    check_int(t[win].survival, ==, 1);
    check(t[win].damage >= 1);
    check_int(world_snapshot_restore(&w, &s), ==, 0);
    score_teams(&w, t);
    check_int(t[0].score + t[1].score, ==, 0);
    world_snapshot_free(&s);
    world_free(&w);
}

int main(void)
{
    run(hits_and_kills, "damage +1 on an enemy, -1 on an ally; kills; survival");
    run(same_tick_and_dead_shooter, "same-tick knockouts count each other; a dead shooter scores");
    run(last_and_winner, "last to the team left; the higher team score wins, a tie is a draw");
    run(battle_and_step_back, "a battle's end scores; a snapshot restores the scores");
    return tap_done();
}
