/* ratings.c — Bradley-Terry ratings, their Elo scale and 95% intervals.
 *
 * The model (R. A. Bradley and M. E. Terry, Biometrika 39 (1952) 324-345):
 * bot i beats bot j with probability g_i / (g_i + g_j), that is
 * sigma(t_i - t_j) with t = ln g and sigma the logistic function; a draw
 * counts as half a win each way.  On the Elo scale a rating is
 * 400 log10 g = t * 400 / ln 10, so 400 points more means 10:1 odds.
 *
 * The fit maximises the log-likelihood (plus RATINGS_PRIOR_DRAWS virtual
 * draws between every pair, see ratings.h) by Newton's method with the
 * anchor's t fixed at 0: the log-likelihood is concave, its Hessian does
 * not depend on the results, and Newton lands in a handful of steps where
 * the MM iteration of D. R. Hunter ("MM algorithms for generalized
 * Bradley-Terry models", Ann. Statist. 32 (2004) 384-406) takes hundreds;
 * the tests check both agree.
 *
 * The intervals: the inverse of the Fisher information (minus the Hessian
 * of the same log-likelihood, the anchor's row and column removed) is the
 * covariance of the fitted t; a rating's standard error is the root of its
 * diagonal entry, so an interval is relative to the anchor (whose own is
 * 0 wide) and assumes the normal approximation of the maximum likelihood
 * estimate. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "ratings.h"

/* Elo points per unit of t: 400 / ln 10. */
#define ELO_PER_NAT 173.71779276130072

#define MAX_NEWTON 200
#define DONE_STEP 1e-12

/* What the fit works on: the games counted pair by pair, and scratch. */
struct fit {
    int n, m;                   /* bots, free ones (all but the anchor) */
    int anchor;
    long *games, *half;         /* n x n: games of i with j, i's half points */
    double *t;                  /* n: strengths, t[anchor] = 0 */
    double *h, *g, *step;       /* m x m information, m gradient, m step */
};

static void fit_free(struct fit *f)
{
    free(f->games);
    free(f->half);
    free(f->t);
    free(f->h);
    free(f->g);
    free(f->step);
}

static int fit_alloc(struct fit *f, int n, int anchor)
{
    size_t nn = (size_t)n * (size_t)n, m = (size_t)n - 1;
    f->n = n;
    f->m = n - 1;
    f->anchor = anchor;
    f->games = calloc(nn, sizeof *f->games);
    f->half = calloc(nn, sizeof *f->half);
    f->t = calloc((size_t)n, sizeof *f->t);
    f->h = calloc(m * m + 1, sizeof *f->h);
    f->g = calloc(m + 1, sizeof *f->g);
    f->step = calloc(m + 1, sizeof *f->step);
    if (f->games && f->half && f->t && f->h && f->g && f->step)
        return 0;
    fit_free(f);
    return -1;
}

/* The games into the table: integers, so their order cannot matter. */
static int count_games(struct fit *f, const struct rating_game *games, long ng)
{
    int n = f->n;
    for (long k = 0; k < ng; k++) {
        const struct rating_game *x = &games[k];
        if (x->a < 0 || x->a >= n || x->b < 0 || x->b >= n || x->a == x->b
            || x->half_points < 0 || x->half_points > 2)
            return -1;
        f->games[x->a * n + x->b]++;
        f->games[x->b * n + x->a]++;
        f->half[x->a * n + x->b] += x->half_points;
        f->half[x->b * n + x->a] += 2 - x->half_points;
    }
    return 0;
}

/* Games of the pair, the virtual draws included; i's points of them. */
static double pair_games(const struct fit *f, int i, int j)
{
    return (double)f->games[i * f->n + j] + RATINGS_PRIOR_DRAWS;
}

static double pair_points(const struct fit *f, int i, int j)
{
    return 0.5 * (double)f->half[i * f->n + j] + 0.5 * RATINGS_PRIOR_DRAWS;
}

static double sigma(double d)
{
    return 1 / (1 + exp(-d));
}

/* ln sigma(d) without overflow for large |d|. */
static double log_sigma(double d)
{
    return d >= 0 ? -log1p(exp(-d)) : d - log1p(exp(d));
}

static double log_likelihood(const struct fit *f, const double *t)
{
    double ll = 0;
    for (int i = 0; i < f->n; i++)
        for (int j = i + 1; j < f->n; j++)
            ll += pair_points(f, i, j) * log_sigma(t[i] - t[j])
                + pair_points(f, j, i) * log_sigma(t[j] - t[i]);
    return ll;
}

/* Index among the free bots, or -1 for the anchor. */
static int free_index(const struct fit *f, int i)
{
    return i == f->anchor ? -1 : i < f->anchor ? i : i - 1;
}

/* The gradient (f->g) and the information (f->h) at f->t. */
static void gradient_information(struct fit *f)
{
    int m = f->m;
    for (int k = 0; k < m * m; k++)
        f->h[k] = 0;
    for (int k = 0; k < m; k++)
        f->g[k] = 0;
    for (int i = 0; i < f->n; i++)
        for (int j = i + 1; j < f->n; j++) {
            double nij = pair_games(f, i, j), p = sigma(f->t[i] - f->t[j]);
            double v = nij * p * (1 - p);
            int a = free_index(f, i), b = free_index(f, j);
            if (a >= 0) {
                f->g[a] += pair_points(f, i, j) - nij * p;
                f->h[a * m + a] += v;
            }
            if (b >= 0) {
                f->g[b] += pair_points(f, j, i) - nij * (1 - p);
                f->h[b * m + b] += v;
            }
            if (a >= 0 && b >= 0) {
                f->h[a * m + b] -= v;
                f->h[b * m + a] -= v;
            }
        }
}

/* Cholesky factor of the m x m matrix a in place (lower triangle): 0, or
 * -1 when it is not positive definite. */
static int cholesky(double *a, int m)
{
    for (int j = 0; j < m; j++) {
        double d = a[j * m + j];
        for (int k = 0; k < j; k++)
            d -= a[j * m + k] * a[j * m + k];
        if (!(d > 0))
            return -1;
        a[j * m + j] = sqrt(d);
        for (int i = j + 1; i < m; i++) {
            double s = a[i * m + j];
            for (int k = 0; k < j; k++)
                s -= a[i * m + k] * a[j * m + k];
            a[i * m + j] = s / a[j * m + j];
        }
    }
    return 0;
}

/* Solves L L^T x = x in place with the factor of cholesky(). */
static void cholesky_solve(const double *l, int m, double *x)
{
    for (int i = 0; i < m; i++) {
        for (int k = 0; k < i; k++)
            x[i] -= l[i * m + k] * x[k];
        x[i] /= l[i * m + i];
    }
    for (int i = m - 1; i >= 0; i--) {
        for (int k = i + 1; k < m; k++)
            x[i] -= l[k * m + i] * x[k];
        x[i] /= l[i * m + i];
    }
}

/* t + s * step, the anchor kept at 0, into out. */
static void stepped(const struct fit *f, double s, double *out)
{
    for (int i = 0; i < f->n; i++) {
        int a = free_index(f, i);
        out[i] = a < 0 ? 0 : f->t[i] + s * f->step[a];
    }
}

/* One Newton step, halved until the likelihood does not drop: the largest
 * change of a t, or -1 when the information is singular. */
static double newton_step(struct fit *f, double *trial)
{
    gradient_information(f);
    if (cholesky(f->h, f->m) < 0)
        return -1;
    for (int k = 0; k < f->m; k++)
        f->step[k] = f->g[k];
    cholesky_solve(f->h, f->m, f->step);
    double ll = log_likelihood(f, f->t), s = 1;
    for (int tries = 0; tries < 40; tries++, s /= 2) {
        stepped(f, s, trial);
        if (log_likelihood(f, trial) >= ll)
            break;
    }
    double most = 0;
    for (int i = 0; i < f->n; i++) {
        most = fmax(most, fabs(trial[i] - f->t[i]));
        f->t[i] = trial[i];
    }
    return most;
}

/* The standard errors of the t (the anchor's 0) into se[0..n). */
static int standard_errors(struct fit *f, double *se)
{
    gradient_information(f);
    if (cholesky(f->h, f->m) < 0)
        return -1;
    /* (H^-1)_aa = |L^-1 e_a|^2: only the forward solve, from row a on,
     * reading L by rows (a whole solve per bot read it by columns too,
     * and took most of a 1,000-bot fit) */
    const double *l = f->h;
    int m = f->m;
    double *y = f->step;
    for (int i = 0; i < f->n; i++) {
        int a = free_index(f, i);
        se[i] = 0;
        if (a < 0)
            continue;
        double sum = 0;
        for (int r = a; r < m; r++) {
            double v = r == a ? 1 : 0;
            for (int k = a; k < r; k++)
                v -= l[r * m + k] * y[k];
            y[r] = v / l[r * m + r];
            sum += y[r] * y[r];
        }
        se[i] = sqrt(sum);
    }
    return 0;
}

static void fill_out(const struct fit *f, const double *se, struct rating *out)
{
    for (int i = 0; i < f->n; i++) {
        struct rating *r = &out[i];
        r->elo = f->t[i] * ELO_PER_NAT;
        r->se = se[i] * ELO_PER_NAT;
        r->lo = r->elo - RATINGS_Z95 * r->se;
        r->hi = r->elo + RATINGS_Z95 * r->se;
        r->games = 0;
        r->half_points = 0;
        for (int j = 0; j < f->n; j++) {
            r->games += f->games[i * f->n + j];
            r->half_points += f->half[i * f->n + j];
        }
    }
}

int ratings_fit(int nbots, const struct rating_game *games, long ngames,
                int anchor, struct rating *out)
{
    if (nbots < 1 || anchor < 0 || anchor >= nbots || ngames < 0)
        return -1;
    struct fit f;
    if (fit_alloc(&f, nbots, anchor) < 0)
        return -1;
    double *trial = calloc((size_t)nbots * 2, sizeof *trial);
    int rc = trial && count_games(&f, games, ngames) == 0 ? 0 : -1;
    for (int it = 0; rc == 0 && f.m > 0 && it < MAX_NEWTON; it++) {
        double most = newton_step(&f, trial);
        if (most < 0)
            rc = -1;
        else if (most < DONE_STEP)
            break;
    }
    if (rc == 0 && f.m > 0)
        rc = standard_errors(&f, trial + nbots);
    if (rc == 0)
        fill_out(&f, trial + nbots, out);
    free(trial);
    fit_free(&f);
    return rc;
}
