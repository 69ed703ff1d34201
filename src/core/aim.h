/* aim.h — targets, intercept solvers and shells (seeds/004).
 *
 *   none     fire at where the target is now;
 *   classic  the article's bisection over the impact time (0.01 s, 40 steps);
 *   exact    ours: the earliest root to 1e-9 s with a bracketed solver.
 * aim_decide() runs in the decide phase for tank or turret i: it picks a
 * target among what i sees, solves, and writes i's turret and fire intents.
 * shells_update() is the shell phase: swept flight, hits, misses. */
#ifndef BOTFIELD_AIM_H
#define BOTFIELD_AIM_H

#include <stdint.h>
#include "vec.h"

struct world;

enum aim_reason { AIM_REASON_OK, AIM_REASON_OUT_OF_RANGE, AIM_REASON_TOO_FAST,
                  AIM_REASON_NO_CONVERGENCE };

/* Gun state that lasts across ticks. */
struct aim_state {
    double reload_left;     /* seconds until the gun is loaded again */
    int target;             /* vehicle index, -1: none */
    uint32_t target_gen;    /* generation of that vehicle when picked */
};

/* What the gun decided this tick. */
struct aim_info {
    int sought;             /* a solution was sought this tick */
    int ok;
    enum aim_reason reason;
    vec2 aim_point;         /* predicted impact point */
    double aim_dir;         /* absolute direction to fire along, radians */
    double t_impact;        /* seconds from now until impact */
    double t_rotate;        /* seconds of turret rotation included */
    int iterations;
    double bracket_lo, bracket_hi;
};

struct shell {
    vec2 pos, vel;
    vec2 start;
    double travelled, range;
    int shooter, target;    /* vehicle indices (target: -1 when none) */
    int alive;
};

void aim_decide(struct world *w, int i);
void shells_update(struct world *w);

#endif
