/* ttc_sse2.c — ttc_set_min two neighbours at a time (SSE2, the x86-64
 * baseline): the same IEEE operations in the same order as ttc_enter, so
 * the same times; the smallest of them is the same whichever way it is
 * reduced (min is exact; a NaN time is skipped both ways). */
#include "ttc.h"

#ifdef __SSE2__
#include <emmintrin.h>

double ttc_set_min_sse2(const struct ttc_set *a, vec2 cand, vec2 recip, double ttc)
{
    __m128d cx = _mm_set1_pd(cand.x), cy = _mm_set1_pd(cand.y);
    __m128d px = _mm_set1_pd(recip.x), py = _mm_set1_pd(recip.y);
    __m128d zero = _mm_setzero_pd(), inf = _mm_set1_pd(INFINITY);
    __m128d best = _mm_set1_pd(ttc);
    for (int q = 0; q < a->n; q += 2) {
        __m128d sh = _mm_loadu_pd(&a->shares[q]);
        __m128d mx = _mm_or_pd(_mm_and_pd(sh, px), _mm_andnot_pd(sh, cx));
        __m128d my = _mm_or_pd(_mm_and_pd(sh, py), _mm_andnot_pd(sh, cy));
        __m128d vrx = _mm_sub_pd(_mm_loadu_pd(&a->vx[q]), mx);
        __m128d vry = _mm_sub_pd(_mm_loadu_pd(&a->vy[q]), my);
        __m128d rx = _mm_loadu_pd(&a->rx[q]), ry = _mm_loadu_pd(&a->ry[q]);
        __m128d c0 = _mm_loadu_pd(&a->c0[q]);
        __m128d b = _mm_add_pd(_mm_mul_pd(rx, vrx), _mm_mul_pd(ry, vry));
        __m128d aa = _mm_add_pd(_mm_mul_pd(vrx, vrx), _mm_mul_pd(vry, vry));
        __m128d disc = _mm_sub_pd(_mm_mul_pd(b, b), _mm_mul_pd(aa, c0));
        /* disc > 0 ? disc : 0 (a NaN gives 0, as the scalar select) */
        __m128d dpos = _mm_and_pd(_mm_cmpgt_pd(disc, zero), disc);
        __m128d t = _mm_div_pd(c0, _mm_add_pd(_mm_sub_pd(zero, b), _mm_sqrt_pd(dpos)));
        __m128d m = _mm_cmplt_pd(disc, zero);
        t = _mm_or_pd(_mm_and_pd(m, inf), _mm_andnot_pd(m, t));
        m = _mm_cmplt_pd(c0, zero);
        t = _mm_andnot_pd(m, t);
        m = _mm_cmpge_pd(b, zero);
        t = _mm_or_pd(_mm_and_pd(m, inf), _mm_andnot_pd(m, t));
        /* t < best ? t : best */
        m = _mm_cmplt_pd(t, best);
        best = _mm_or_pd(_mm_and_pd(m, t), _mm_andnot_pd(m, best));
    }
    double lanes[2];
    _mm_storeu_pd(lanes, best);
    return lanes[1] < lanes[0] ? lanes[1] : lanes[0];
}
#else
/* ISO C forbids an empty translation unit. */
typedef int ttc_sse2_unused;
#endif
