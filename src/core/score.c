/* score.c — the points a run counts (score.h).
 *
 * Damage and kills are counted as the shells land.  Survival is not
 * counted to every live vehicle at each knockout (a crowd would pay the
 * whole crowd per knockout): while a vehicle is alive it is the knockouts
 * of the other teams so far, and score_settle keeps that number in the
 * vehicle when it is knocked out.  So a vehicle knocked out on the tick
 * an enemy is knocked out counts that enemy, whatever the shells' order. */
#include "score.h"
#include "world.h"

/* Both in teams, and not the same one. */
static int enemies(const struct world *w, int a, int b)
{
    int ta = w->vehicles.p[a].team, tb = w->vehicles.p[b].team;
    return ta >= 0 && tb >= 0 && ta != tb;
}

void score_hit(struct world *w, int shooter, int target, int knocked)
{
    if (shooter < 0 || w->vehicles.p[shooter].team < 0 || w->vehicles.p[target].team < 0)
        return;
    struct vehicle_score *s = &w->vehicles.p[shooter].score;
    int enemy = enemies(w, shooter, target);
    s->damage += enemy ? 1 : -1;
    if (knocked && enemy)
        s->kills++;
    if (knocked)
        w->vehicles.p[target].score.survival = -1;     /* settled below */
}

/* Knockouts of the teams other than `team` so far. */
static long enemy_knockouts(const struct world *w, int team)
{
    long n = 0;
    for (size_t t = 0; t < w->teams.n; t++)
        if ((int)t != team)
            n += w->teams.p[t].knockouts;
    return n;
}

void score_settle(struct world *w)
{
    for (size_t i = 0; i < w->shells.n; i++) {
        int h = w->shells.p[i].hit;
        if (w->shells.p[i].alive || h < 0)
            continue;
        struct vehicle *v = &w->vehicles.p[h];
        if (v->score.survival == -1)
            v->score.survival = v->team >= 0 ? (int)enemy_knockouts(w, v->team) : 0;
    }
}

void score_last(struct world *w, int team)
{
    long enemies_at_start = 0;
    for (size_t t = 0; t < w->teams.n; t++)
        if ((int)t != team)
            enemies_at_start += w->teams.p[t].vehicles;
    for (size_t i = 0; i < w->vehicles.n; i++)
        if (w->vehicles.p[i].team == team)
            w->vehicles.p[i].score.last = (int)enemies_at_start;
}

struct score_sum score_vehicle(const struct world *w, const struct vehicle *v)
{
    struct score_sum s = { 0, 0, 0, 0, 0 };
    if (v->team < 0)
        return s;
    s.damage = v->score.damage;
    s.kills = v->score.kills;
    s.survival = v->alive ? enemy_knockouts(w, v->team) : v->score.survival;
    s.last = v->score.last;
    s.score = SCORE_DAMAGE * s.damage + SCORE_KILL * s.kills
              + SCORE_SURVIVAL * s.survival + SCORE_LAST * s.last;
    return s;
}

void score_teams(const struct world *w, struct score_sum *out)
{
    for (size_t t = 0; t < w->teams.n; t++)
        out[t] = (struct score_sum){ 0, 0, 0, 0, 0 };
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        if (v->team < 0)
            continue;
        struct score_sum s = score_vehicle(w, v);
        struct score_sum *t = &out[v->team];
        t->damage += s.damage;
        t->kills += s.kills;
        t->survival += s.survival;
        t->last += s.last;
        t->score += s.score;
    }
}

int score_winner(const struct world *w, const struct score_sum *teams)
{
    int best = -1, tie = 0;
    for (size_t t = 0; t < w->teams.n; t++) {
        if (w->teams.p[t].vehicles == 0)
            continue;           /* a team with no tanks or turrets plays no battle */
        if (best < 0 || teams[t].score > teams[best].score) {
            best = (int)t;
            tie = 0;
        } else if (teams[t].score == teams[best].score) {
            tie = 1;
        }
    }
    return tie ? -1 : best;
}
