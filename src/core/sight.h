/* sight.h — field of view, occlusion by trees, and who sees whom (seeds/002).
 *
 *   classic  the article: approximate tangents, `samples` points across the
 *            target, trees nearest first;
 *   exact    ours: exact tangents, exact union of blocked intervals, depth
 *            tested against the target's hull.
 * sight_update() is the sense phase: it fills w->sights with one record for
 * each (observer, enemy in its cone and range) and emits `sight` events. */
#ifndef BOTFIELD_SIGHT_H
#define BOTFIELD_SIGHT_H

struct world;

struct sight_record {
    int observer, target;   /* vehicle indices */
    double visible;         /* fraction of the target's angular width seen */
    double threshold;       /* the [sight] threshold that applied */
    int seen;               /* visible >= threshold */
    int first_interval;     /* blocked intervals in w->sight_intervals */
    int n_intervals;
};

/* A blocked angular interval, radians, relative to the observer. */
struct sight_interval { double a0, a1; };

void sight_update(struct world *w);

#endif
