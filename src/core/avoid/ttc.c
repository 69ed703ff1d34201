/* ttc.c — the neighbour set's columns and its scalar minimum. */
#include <stdint.h>
#include <string.h>

#include "ttc.h"

void ttc_set_put(struct ttc_set *s, int q, vec2 rel, vec2 vel, double c0, int shares)
{
    s->rx[q] = rel.x;
    s->ry[q] = rel.y;
    s->vx[q] = vel.x;
    s->vy[q] = vel.y;
    s->c0[q] = c0;
    uint64_t m = shares ? ~(uint64_t)0 : 0;
    memcpy(&s->shares[q], &m, sizeof m);
}

void ttc_set_pad(struct ttc_set *s)
{
    if (s->n & 1) {
        /* at the origin, still, c0 = 1: b = 0, never entered */
        ttc_set_put(s, s->n, v2(0, 0), v2(0, 0), 1, 0);
        s->n++;
    }
}

double ttc_set_min_scalar(const struct ttc_set *s, vec2 cand, vec2 recip, double ttc)
{
    for (int q = 0; q < s->n; q++) {
        uint64_t m;
        memcpy(&m, &s->shares[q], sizeof m);
        vec2 mine = m ? recip : cand;
        double t = ttc_enter(v2(s->rx[q], s->ry[q]),
                             v2_sub(v2(s->vx[q], s->vy[q]), mine), s->c0[q]);
        ttc = t < ttc ? t : ttc;
    }
    return ttc;
}
