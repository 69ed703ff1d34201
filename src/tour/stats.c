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
