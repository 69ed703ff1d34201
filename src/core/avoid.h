/* avoid.h — collision avoidance between moving tanks.
 *
 * Three methods, picked per tank by its `avoid` key:
 *   none        never reacts;
 *   classic     the article's closest-tank "hit point" test and 0.5 degree
 *               turns (seeds/000), weaknesses kept on purpose;
 *   predictive  ours: closest approach from both velocities, every
 *               neighbour in range, turn and speed chosen together.
 * avoid_decide() runs in the decide phase: it reads the world as it was at
 * the start of the tick and writes only tank i's intent and avoid record. */
#ifndef BOTFIELD_AVOID_H
#define BOTFIELD_AVOID_H

#include "vec.h"

struct world;

/* What the avoidance decided for one tank this tick (for the viewer and
 * the tests; nothing here is read back by the simulation). */
struct avoid_info {
    int threat;          /* vehicle index of the deciding threat, -1: none */
    double threat_dist;  /* centre distance to it */
    vec2 hit_point;      /* classic: my position + distance x my direction */
    int turn;            /* -1 turns left (anticlockwise), +1 right, 0 none */
    double tca, dca;     /* predicted time / distance of closest approach */
    double speed_scale;  /* chosen speed as a fraction of cruising speed */
};

/* Decide tank i's avoidance; may change its turn and speed intents. */
void avoid_decide(struct world *w, int i);

#endif
