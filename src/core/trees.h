/* trees.h — what a straight segment meets among the trees.
 *
 * Shells stop at the first tree on their path and a car skips a waypoint
 * only when no tree stands between: both ask the same question of the tree
 * grid, walked cell by cell along the segment (Amanatides & Woo). */
#ifndef BOTFIELD_TREES_H
#define BOTFIELD_TREES_H

#include "vec.h"

struct world;

/* Where the segment p + s*d, s in [0, 1], first meets the circle (c, r):
 * s, 0 when p is already inside, or -1 when it never does. */
double segment_circle_entry(vec2 p, vec2 d, vec2 c, double r);

/* The first tree the segment p + s*d, s in [0, *best), meets: its index,
 * with *best lowered to its s; or -1 with *best unchanged. */
int trees_first_hit(const struct world *w, vec2 p, vec2 d, double *best);

/* Whether the segment a-b is clear of every tree. */
int trees_clear(const struct world *w, vec2 a, vec2 b);

#endif
