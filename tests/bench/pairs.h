/* pairs.h — what the thread benchmarks print of alternated runs: one
 * thread against every core, n pairs run one after the other so that a
 * change in the machine's load hits both sides.  Each side's median with
 * its range, and the speed-up as the median of the pairs' own ratios (the
 * ratio of two medians would pair runs that never ran side by side). */
#ifndef BOTFIELD_BENCH_PAIRS_H
#define BOTFIELD_BENCH_PAIRS_H

#include <stdio.h>
#include <stdlib.h>

static int pairs_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Prints "bench NAME_1_thread", "bench NAME_T_threads" and "bench
 * NAME_speedup" from one[k] and many[k], pair k's ticks/s on one thread
 * and on `threads` (sorted in place). */
static void pairs_print(const char *name, int threads, double *one, double *many, int n)
{
    double *ratio = malloc((size_t)n * sizeof *ratio);
    if (!ratio || n < 1) {
        free(ratio);
        return;
    }
    for (int k = 0; k < n; k++)
        ratio[k] = many[k] / one[k];
    qsort(one, (size_t)n, sizeof *one, pairs_cmp);
    qsort(many, (size_t)n, sizeof *many, pairs_cmp);
    qsort(ratio, (size_t)n, sizeof *ratio, pairs_cmp);
    int mid = n / 2, last = n - 1;
    printf("bench %s_1_thread %.1f ticks/s (median of %d, %.1f to %.1f)\n",
           name, one[mid], n, one[0], one[last]);
    printf("bench %s_%d_threads %.1f ticks/s (median of %d, %.1f to %.1f)\n",
           name, threads, many[mid], n, many[0], many[last]);
    printf("bench %s_speedup %.2f x (median of %d alternated pairs, %.2f to %.2f)\n",
           name, ratio[mid], n, ratio[0], ratio[last]);
    free(ratio);
}

#endif
