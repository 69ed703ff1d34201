/* ratings.h — Bradley-Terry ratings on the Elo scale, with 95% intervals,
 * from a list of games between bots (botfield(6), LADDERS).
 *
 * A pure module (no I/O, no globals): --ladder and the arena both feed it
 * every result and print what it returns.  The fit is the same bit for bit
 * whatever the order of the games: they are first counted into a table of
 * integers, then everything runs over the table in index order. */
#ifndef BOTFIELD_RATINGS_H
#define BOTFIELD_RATINGS_H

/* One game: bot a against bot b (indices), a's points in half points:
 * 2 a win, 1 a draw, 0 a loss. */
struct rating_game { int a, b, half_points; };

/* Virtual draws added between every pair of bots before the fit (a weak
 * prior, as BayesElo's): keeps every rating finite when a bot won or lost
 * everything, and ties together groups of bots that never met. */
#define RATINGS_PRIOR_DRAWS 1

/* The 97.5% quantile of the standard normal: 95% two-sided intervals. */
#define RATINGS_Z95 1.959963984540054

struct rating {
    double elo;                 /* 400 log10(gamma / gamma_anchor) */
    double se;                  /* its standard error (Elo), 0 for the anchor */
    double lo, hi;              /* elo -+ 1.96 se */
    long games;                 /* real games played (no virtual draws) */
    long half_points;           /* real points won, in halves */
};

/* Fits nbots ratings (nbots >= 1) on games[0..ngames), bot `anchor` at 0:
 * out[0..nbots).  0, or -1 when an index is out of range, half_points is
 * not 0..2, a bot plays itself, or memory ran out (out then unchanged). */
int ratings_fit(int nbots, const struct rating_game *games, long ngames,
                int anchor, struct rating *out);

#endif
