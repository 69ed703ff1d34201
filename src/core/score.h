/* score.h — the points a run counts for each vehicle and team
 * (botfield(6), SCORES): damage, kills, survival, last and the score. */
#ifndef BOTFIELD_SCORE_H
#define BOTFIELD_SCORE_H

struct world;
struct vehicle;

/* A vehicle's or a team's fields and its score. */
struct score_sum {
    long damage, kills, survival, last, score;
};

/* score = 10 damage + 20 kills + 5 survival + 10 last */
#define SCORE_DAMAGE 10
#define SCORE_KILL 20
#define SCORE_SURVIVAL 5
#define SCORE_LAST 10

/* The shell phase: shooter's shell hit target (knocked: and knocked it
 * out).  A shooter knocked out before its shell lands still scores. */
void score_hit(struct world *w, int shooter, int target, int knocked);
/* After the phase's hits: each vehicle knocked out this tick keeps the
 * enemy knockouts so far, this tick's included, as its survival. */
void score_settle(struct world *w);
/* The run ended with team `team` alone: every vehicle of it gets last. */
void score_last(struct world *w, int team);

struct score_sum score_vehicle(const struct world *w, const struct vehicle *v);
/* Each team's sums into out[0 .. w->teams.n). */
void score_teams(const struct world *w, struct score_sum *out);

/* The winner of a run stopped with two teams or more alive: the team of
 * the highest score, -1 on a tie (teams: score_teams' sums). */
int score_winner(const struct world *w, const struct score_sum *teams);

#endif
