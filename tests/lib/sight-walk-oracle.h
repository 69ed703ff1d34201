/* sight-walk-oracle.h — the candidate walk as it was before issue 18's
 * third part (the wedge's rows from grid_convex_rows into two arrays, then
 * each row's items deduplicated as read), kept as the oracle the new walk
 * must equal: the same spans, the same trees in the same order. */
#ifndef BOTFIELD_SIGHT_WALK_ORACLE_H
#define BOTFIELD_SIGHT_WALK_ORACLE_H

#include "core/world.h"

/* The old sight_candidates(): fills spans (room for every row of the tree
 * grid) and cand (room for every tree); returns the count of cand, with
 * *nspans set; 0 with *nspans = 0 where the old walk found no rows. */
int oracle_candidates(const struct world *w, vec2 o, const struct sight_shape *t,
                      struct sight_span *spans, size_t *nspans, int *cand);

#endif
