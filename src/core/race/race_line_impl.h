/* race_line_impl.h — what the planner's files share (race_line_plan.c
 * makes the line, race_line_descend.c shortens its lap): the line being
 * built, the skip walk and the speed profile.  Not for the rest of the
 * core: plans are read through race_line.h. */
#ifndef BOTFIELD_RACE_LINE_IMPL_H
#define BOTFIELD_RACE_LINE_IMPL_H

#include <stddef.h>

#include "vec.h"

struct world;
struct waypoint;
struct vehicle_params;

/* A closed line being built: m points, anchor[k] the point in waypoint
 * k's disc. */
struct draft {
    int m;
    size_t cap;             /* of pt */
    vec2 *pt;
    int *anchor;            /* n */
};

/* The waypoints the line would skip, walked as race_detect walks a car
 * (race_line_plan.c): flags them in flag[0..n) and returns how many. */
int draft_skips(const struct draft *d, const struct world *w,
                const struct waypoint *wp, int n, const double *reach,
                const double *margin, unsigned char *flag);

/* The arc lengths s[0..m] of the closed line pt[0..m). */
void line_lengths(const vec2 *pt, int m, double *s);
/* The speed point i may take on the line's curvature there; sh is
 * sin(turn_rate dt / 2). */
double line_cap(const vec2 *pt, int m, int i, const struct vehicle_params *p, double dt,
                double sh);
/* The speed profile on those caps: the cyclic passes of accel and brake
 * from the slowest point; each point's speed in v, and the lap's time, the
 * sum of ds over the mean speed. */
double line_passes(const double *cap, const double *s, int m, const struct vehicle_params *p,
                   double *v);
/* Both: the speed profile of the line (race_line.h). */
double line_profile(const vec2 *pt, int m, const double *s,
                    const struct vehicle_params *p, double dt,
                    double *cap, double *v);

/* Moves the points of a line that skips nothing so that its profile laps
 * faster, each anchor kept within allow[k] of its waypoint and the walk
 * still skipping nothing (race_line_descend.c).  0, or -1 when memory
 * runs out (the line is then as it was). */
int line_descend(struct draft *d, const struct world *w, const struct waypoint *wp,
                 int n, const double *reach, const double *margin, const double *allow,
                 const struct vehicle_params *p, double dt);

#endif
