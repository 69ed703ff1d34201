/* sprt.h — the sequential probability ratio test on game pairs, as
 * fishtest runs it (botfield(6), SEQUENTIAL TESTS).
 *
 * A seed is played twice with the sides swapped; the pair's points for
 * NEW (0, 1/2, 1, 3/2 or 2) fall in one of five cells: the pentanomial
 * counts.  The generalized SPRT compares the likelihood of the counts
 * when NEW is elo0 better with that when it is elo1 better, on the
 * logistic Elo scale (expected score 1 / (1 + 10^(-elo/400))).  A pure
 * module, as ratings.c. */
#ifndef BOTFIELD_SPRT_H
#define BOTFIELD_SPRT_H

/* Cells of the pentanomial counts: NEW's points of a pair, in halves. */
#define SPRT_CELLS 5

/* A zero cell is counted as this many pairs in the likelihoods (fishtest's
 * regularisation): keeps every cell's probability above 0. */
#define SPRT_EMPTY_CELL 1e-3

enum sprt_verdict { SPRT_CONTINUE, SPRT_H0, SPRT_H1 };

/* The cell of a pair from NEW's half points in its two games (each 0..2). */
int sprt_cell(int first_half_points, int second_half_points);

/* The log-likelihood ratio of elo1 against elo0 for the counts. */
double sprt_llr(const long counts[SPRT_CELLS], double elo0, double elo1);

/* Wald's bounds: log(beta / (1 - alpha)) below, log((1 - beta) / alpha)
 * above. */
void sprt_bounds(double alpha, double beta, double *lower, double *upper);

/* H1 (NEW is elo1 better) at or above upper, H0 at or below lower. */
enum sprt_verdict sprt_verdict(double llr, double lower, double upper);

/* NEW's Elo difference estimated from the counts, with its 95% interval
 * (pairs' scores' spread, the normal approximation, through the logistic
 * curve).  Infinite ends when a side scored everything. */
struct sprt_estimate { double elo, lo, hi, score; long pairs; };
struct sprt_estimate sprt_estimate(const long counts[SPRT_CELLS]);

/* The expected score of a game at an Elo difference, and back. */
double sprt_score_of_elo(double elo);
double sprt_elo_of_score(double score);

#endif
