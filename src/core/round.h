/* round.h — a match of several rounds ([match] rounds, botfield(6)).
 *
 * One world runs the whole match and its tick counts on across rounds:
 * a round ends as a run ends (a battle won, a race finished, or the map's
 * duration since the round started), and the next starts on the next
 * step from the map anew, with the seed seed + round - 1.  That start is
 * built by the map loader (the session does it: the core reads no map)
 * and moved in by round_begin; the map part stays, but for random
 * trees: those are the round's seed's, moved in with its start (and
 * rebuilt through world.h's round_map hook when a step back crosses a
 * round's start).  The round, the tick it
 * started on, the winners of the rounds before and their scores
 * summed (round_totals) are state: snapshots
 * keep them, so stepping back across a round's start works as any step
 * back does. */
#ifndef BOTFIELD_ROUND_H
#define BOTFIELD_ROUND_H

#include "world.h"

/* The map's duration in ticks: a round lasts at most this. */
long round_ticks(const struct world *w);

/* The round running is over (its winner is known, or time is up). */
int round_over(const struct world *w);

/* The match is over: the last round is. */
int round_match_over(const struct world *w);

/* The seed of round r (from 1): seed + r - 1. */
uint64_t round_seed(const struct world *w, int r);

/* The round's result: the winning team's index, or -1 for a draw.
 * THE ONE PLACE a round is judged, as a run's end is: a battle won is
 * its winner's; time up with two teams or more alive, the higher round
 * score's (equal: a draw); a race is a draw. */
int round_result(const struct world *w);

struct score_sum;
/* The match's scores so far: each field summed over the rounds before
 * and the round running, by team (teams: w->teams.n, or NULL) and by
 * vehicle (vehicles: w->vehicles.n, or NULL). */
void round_totals(const struct world *w, struct score_sum *teams, struct score_sum *vehicles);

/* The match's winner: the team of the higher total score (round_totals),
 * -1 on a tie.  THE ONE PLACE a match is judged.  wins (w->teams.n
 * counts, or NULL) gets each team's rounds won, the round running
 * counted when over. */
int round_match_winner(const struct world *w, int *wins);

/* The next round begins in w from `fresh` (the map built with the next
 * round's seed; only its state is read): the round over is noted, the
 * vehicles, shells and teams' counts become fresh's (and with random
 * trees its trees, which fresh gets w's for), the tick and the
 * run's counters (stats) go on.  0, or -1 out of memory (w unchanged
 * but for vehicles' settings interned). */
int round_begin(struct world *w, struct world *fresh);

#endif
