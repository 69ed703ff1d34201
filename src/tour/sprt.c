/* sprt.c — the generalized SPRT on pentanomial counts.
 *
 * References: A. Wald, "Sequential tests of statistical hypotheses", Ann.
 * Math. Statist. 16 (1945) 117-186 (the bounds); Michel Van den Bergh's
 * notes for fishtest, "A note on the pentanomial model" and "Computing the
 * maximum likelihood estimate of a multinomial distribution with given
 * expectation" (hardy.uhasselt.be/Fishtest/, support_MLE_multinomial.pdf,
 * Proposition 1.1), which fishtest's server/fishtest/stats/LLRcalc.py
 * follows; written here from the notes, not from that code.
 *
 * The five cells carry the pair's mean score a_k = k/4.  For a hypothesis
 * "the expected score is s" the likelihood of the observed frequencies
 * p_k is largest at q_k = p_k / (1 + x (a_k - s)), where x solves
 *   sum_k p_k (a_k - s) / (1 + x (a_k - s)) = 0
 * on (-1/(1 - s), 1/s) (the left side falls from +inf to -inf there, so
 * bisection finds it).  The log-likelihood ratio of s1 against s0 is then
 *   LLR = sum_k n_k ln(q1_k / q0_k)
 * with s0, s1 the logistic scores of elo0, elo1 ("logistic Elo": fishtest
 * also offers "normalized" Elo; botfield uses the logistic one only). */
#include "config.h"

#include <math.h>

#include "sprt.h"

#define Z95 1.959963984540054

int sprt_cell(int first_half_points, int second_half_points)
{
    if (first_half_points < 0 || first_half_points > 2 || second_half_points < 0
        || second_half_points > 2)
        return -1;
    return first_half_points + second_half_points;
}

double sprt_score_of_elo(double elo)
{
    return 1 / (1 + pow(10, -elo / 400));
}

double sprt_elo_of_score(double score)
{
    if (score <= 0)
        return -INFINITY;
    if (score >= 1)
        return INFINITY;
    return -400 * log10(1 / score - 1);
}

/* The secular function: zero at the constrained maximum's multiplier. */
static double secular(const double *p, double s, double x)
{
    double sum = 0;
    for (int k = 0; k < SPRT_CELLS; k++) {
        double d = k / 4.0 - s;
        sum += p[k] * d / (1 + x * d);
    }
    return sum;
}

/* The cells' probabilities with expected score s nearest the observed p
 * in likelihood, into q.  Every p_k > 0 and 0 < s < 1. */
static void constrained_mle(const double *p, double s, double *q)
{
    double lo = -1 / (1 - s), hi = 1 / s;
    /* Bisection: the ends are poles, only midpoints are evaluated.  80
     * halvings of a width under 1e4 (s within 1e-4 of 0 or 1) leave less
     * than 1e-20: a fixed count, so the LLR is the same on every run. */
    for (int it = 0; it < 80; it++) {
        double mid = lo + (hi - lo) / 2;
        if (mid <= lo || mid >= hi)
            break;
        if (secular(p, s, mid) > 0)
            lo = mid;
        else
            hi = mid;
    }
    double x = lo + (hi - lo) / 2;
    for (int k = 0; k < SPRT_CELLS; k++)
        q[k] = p[k] / (1 + x * (k / 4.0 - s));
}

double sprt_llr(const long counts[SPRT_CELLS], double elo0, double elo1)
{
    double c[SPRT_CELLS], p[SPRT_CELLS], q0[SPRT_CELLS], q1[SPRT_CELLS], n = 0;
    long pairs = 0;
    for (int k = 0; k < SPRT_CELLS; k++) {
        pairs += counts[k];
        c[k] = counts[k] > 0 ? (double)counts[k] : SPRT_EMPTY_CELL;
        n += c[k];
    }
    if (pairs == 0)
        return 0;
    for (int k = 0; k < SPRT_CELLS; k++)
        p[k] = c[k] / n;
    constrained_mle(p, sprt_score_of_elo(elo0), q0);
    constrained_mle(p, sprt_score_of_elo(elo1), q1);
    double llr = 0;
    for (int k = 0; k < SPRT_CELLS; k++)
        llr += c[k] * log(q1[k] / q0[k]);
    return llr;
}

void sprt_bounds(double alpha, double beta, double *lower, double *upper)
{
    *lower = log(beta / (1 - alpha));
    *upper = log((1 - beta) / alpha);
}

enum sprt_verdict sprt_verdict(double llr, double lower, double upper)
{
    return llr >= upper ? SPRT_H1 : llr <= lower ? SPRT_H0 : SPRT_CONTINUE;
}

/* The mean pair score and its standard error (the spread of the pairs'
 * scores over the root of their number: pairs are independent, the two
 * games of a pair are not, which is why the pairs are the unit). */
struct sprt_estimate sprt_estimate(const long counts[SPRT_CELLS])
{
    struct sprt_estimate e = { 0, -INFINITY, INFINITY, 0.5, 0 };
    double sum = 0, sq = 0;
    for (int k = 0; k < SPRT_CELLS; k++) {
        e.pairs += counts[k];
        sum += (double)counts[k] * (k / 4.0);
    }
    if (e.pairs == 0)
        return e;
    double n = (double)e.pairs;
    e.score = sum / n;
    for (int k = 0; k < SPRT_CELLS; k++)
        sq += (double)counts[k] * (k / 4.0 - e.score) * (k / 4.0 - e.score);
    double se = sqrt(sq / n / n);
    e.elo = sprt_elo_of_score(e.score);
    e.lo = sprt_elo_of_score(e.score - Z95 * se);
    e.hi = sprt_elo_of_score(e.score + Z95 * se);
    return e;
}
