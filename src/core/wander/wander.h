/* wander.h — the built-in wander decision (random turns, the edge turn). */
#ifndef BOTFIELD_WANDER_H
#define BOTFIELD_WANDER_H

struct world;
struct decide_view;
struct decision;

/* Tank i's wander turn and cruising speed for this tick, from its own
 * generator and wander state (both in d, as they will be after it). */
void wander_decide(const struct decide_view *c, int i,
                   struct decision *d);

#endif
