/* avoid.h — collision avoidance between moving tanks.
 *
 * Three methods, picked per tank by its `avoid` key:
 *   none        never reacts;
 *   classic     the article's closest-tank "hit point" test and 0.5 degree
 *               turns ("Self driving tanks that don't collide"), weaknesses kept on purpose;
 *   predictive  ours: closest approach from both velocities, every
 *               neighbour in range, turn and speed chosen together, and a
 *               speed limit that keeps every pair of predictive tanks apart.
 * avoid_decide() runs in the decide phase, after the behaviour wrote its
 * intent: it reads the world as it was at the start of the tick (through
 * w->scratch.vgrid) and writes only tank i's intent and avoid record.
 * avoid_decide_brute() decides the same with an all-pairs search and no
 * grid: the tests' oracle and the benchmark's baseline.  Both give
 * identical decisions. */
#ifndef BOTFIELD_AVOID_H
#define BOTFIELD_AVOID_H

#include "vec.h"

struct world;
struct vehicle;

/* What the avoidance decided for one tank this tick (for the viewer and
 * the tests; the predictive method reads back only `turn`, to keep a
 * chosen side from one tick to the next). */
struct avoid_info {
    int threat;          /* vehicle index of the deciding threat, -1: none
                            (or a shell: see shell) */
    int turn;            /* -1 turns left (anticlockwise), +1 right, 0 none */
    int steer;           /* 1: avoidance chose this tick's turn, replacing
                            the behaviour's */
    int limited;         /* predictive: speed cut by the separation rule */
    double threat_dist;  /* centre distance to the threat */
    vec2 hit_point;      /* classic: my position + distance x my direction;
                            predictive: where I will be at closest approach */
    double tca, dca;     /* predicted time / distance of closest approach to
                            the threat (centre to centre), both velocities
                            as they are now */
    double speed_scale;  /* chosen speed as a fraction of cruising speed */
    /* predictive: the steering plan held between re-plans (lasts across
     * ticks; see avoid_predictive.c) */
    signed char held;    /* 1: the last plan steered, hold plan_k/plan_m */
    signed char plan_k;  /* its turn step, -3 (hard left) .. 3 (hard right) */
    signed char plan_m;  /* its speed, index into full / half / stop */
    unsigned char danger;/* neighbours in the danger radius at the last look */
    /* predictive, dodge = yes: shells in flight it sees are threats too */
    long shell;          /* the deciding threat's shell id (threat is then
                            -1), 0: the threat is no shell */
    long shell_seen;     /* the highest id of a threatening shell it saw at
                            the last look, 0: none */
    unsigned char shell_count; /* threatening shells it saw at the last look */
};

/* Decide tank i's avoidance; may change its turn and speed intents. */
struct decide_view;
struct decision;
void avoid_decide(const struct decide_view *c, int i, struct decision *d);
/* The same decision from an all-pairs search over w->vehicles. */
/* The same with the method given (an enum avoid_method), not the tank's
 * own: the bot API's avoid.classic and avoid.predictive. */
void avoid_decide_with(const struct decide_view *c, int i, int method,
                       struct decision *d);
void avoid_decide_brute(const struct decide_view *c, int i, struct decision *d);

/* A tank that runs predictive avoidance takes half of every gap (see
 * avoid_predictive.c), so its neighbours may take the other half. */
int avoid_shares_gaps(const struct vehicle *v);

/* Predictive avoidance's look-ahead in seconds: the shells by cell
 * (shell_index.h) bound each shell's path over it. */
#define AVOID_HORIZON 2.0

#endif
