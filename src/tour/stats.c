/* stats.c — how sure a count of wins is, and the spread of a measure. */
#include "config.h"

#include <math.h>

#include "tour_impl.h"

/* The Wilson score interval at 95% (E. B. Wilson, "Probable inference,
 * the law of succession, and statistical inference", JASA 22 (1927)
 * 209-212): with p = k/n and z the 97.5% normal quantile,
 *   centre = (p + z^2/2n) / (1 + z^2/n)
 *   half   = z sqrt(p(1-p)/n + z^2/4n^2) / (1 + z^2/n).
 * Unlike p +- z sqrt(p(1-p)/n) it stays inside [0, 1] and is not empty
 * at 0 or n wins, which small tournaments meet often. */
struct interval wilson95(long k, long n)
{
    const double z = 1.959963984540054;
    double nn = (double)n, p = (double)k / nn, z2 = z * z;
    double d = 1 + z2 / nn;
    double centre = (p + z2 / (2 * nn)) / d;
    double half = z * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / d;
    struct interval iv = { p, centre - half, centre + half };
    /* Rounding can leave -1e-17 or 1 + 1e-16 at the ends. */
    if (iv.lo < 0 || k == 0)
        iv.lo = 0;
    if (iv.hi > 1 || k == n)
        iv.hi = 1;
    return iv;
}

/* Two passes (the mean, then the squares about it): no cancellation of
 * large sums of squares. */
void mean_sd(const double *x, long n, double *mean, double *sd)
{
    double s = 0;
    for (long i = 0; i < n; i++)
        s += x[i];
    double m = n ? s / (double)n : 0, q = 0;
    for (long i = 0; i < n; i++)
        q += (x[i] - m) * (x[i] - m);
    *mean = m;
    *sd = n > 1 ? sqrt(q / (double)(n - 1)) : 0;
}

/* The 97.5% quantile of Student's t with df degrees of freedom: a table
 * to 30, then the Cornish-Fisher expansion about the normal quantile z
 * (within 1e-4 of the exact value past 30). */
static double t975(long df)
{
    static const double table[] = {
        12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
        2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
        2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
    };
    if (df >= 1 && df <= 30)
        return table[df - 1];
    const double z = 1.959963984540054, d = (double)df;
    double z3 = z * z * z, z5 = z3 * z * z;
    return z + (z3 + z) / (4 * d) + (5 * z5 + 16 * z3 + 3 * z) / (96 * d * d);
}

/* A mean's 95% interval, mean +- t(n-1) sd / sqrt(n) (Student's t: the
 * scores' spread is estimated from the runs themselves, and a small
 * tournament's interval must widen for it); n >= 2. */
struct interval mean95(const double *x, long n)
{
    double m, sd;
    mean_sd(x, n, &m, &sd);
    double half = t975(n - 1) * sd / sqrt((double)n);
    struct interval iv = { m, m - half, m + half };
    return iv;
}
