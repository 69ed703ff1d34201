/* race_line.h — steer = line: a racing line through the waypoint discs,
 * planned once per track and car, with a speed profile from the car's own
 * limits, and the follower that drives it.
 *
 * The plan (race_line_plan.c): a closed polyline with an anchor point in
 * every waypoint's contact disc (waypoint r + car r, less a margin the
 * follower may stray by), smoothed for the least squared curvature (so it
 * enters wide, cuts the apex, exits wide), refined by halving its segments;
 * then walked as the detect stage would walk the car along it, and where
 * that walk would skip a waypoint (the one after comes about as close
 * first) that anchor is pulled towards its centre and the line planned
 * again; the line kept is then moved across itself by smooth bumps
 * wherever that shortens its speed profile's lap (race_line_descend.c).
 * The speed profile: at each point the speed at which the motion
 * model's exact turning radius (race_radius_exact) equals the line's
 * radius there, never above
 * max_speed; then the cyclic forward pass (v^2 grows by at most 2 accel
 * ds) and backward pass (falls by at most 2 brake ds).
 *
 * The follower (race_line.c): the nearest point of the line between the
 * previous and the next waypoint's anchors; pure pursuit of the point a few
 * ticks' travel ahead of it (the turn this tick is the arc through that
 * point, at most turn_rate*dt); the planned speed where this tick's move
 * ends.  Far off the line (the run-up from the start) the car drives as
 * steer = classic does.
 *
 * Plans live in the tick's scratch (tick_ctx.plans), keyed by the car's
 * settings, its route and dt, and are made before the tick's decisions
 * (tick.c: one per racer in its decide_tick, which decisions read as
 * const): no decision fills the cache, and a plan is a pure function of
 * its key and the world's map (its size and trees), so a restored world
 * makes the same plan and the same trace.  Not yet so across rounds: a
 * match whose rounds draw their own random trees keeps the cache, so
 * round 2's cars drive round 1's line (the key holds no trees). */
#ifndef BOTFIELD_RACE_LINE_H
#define BOTFIELD_RACE_LINE_H

#include "vec.h"

struct world;
struct waypoint;
struct vehicle_params;

/* The line's radius at a point: the circle through the points this many
 * either side (about 30 units of a line refined to 3.75-unit steps; closer
 * points give a noisier radius and a slower profile). */
#define LINE_CURVE_SPAN 8

struct race_plan {
    /* the key */
    const struct vehicle_params *p;
    const struct waypoint *wp;
    int n;
    double dt;
    /* the closed line: m points, point m is point 0 again */
    int m;
    const vec2 *pt;     /* (all const: decisions read plans, race_line.c;
                           the builder writes its own copies) */
    const double *s;    /* m + 1 arc lengths from point 0; s[m]: the lap */
    const double *v;    /* planned speed at each point */
    const double *cap;  /* the speed its curvature alone allows */
    const int *anchor;  /* n: the point lying in waypoint k's disc */
    double lap_time;    /* the profile's lap: the sum of ds / v */
};

/* Plans a line for a car with settings p on the route wp[0..n) (n >= 3)
 * of world w (its trees stop the skip rule, as in race_detect).  NULL when
 * memory runs out or n < 3. */
struct race_plan *race_plan_build(const struct world *w, const struct waypoint *wp,
                                  int n, const struct vehicle_params *p, double dt);
void race_plan_free(struct race_plan *pl);

/* The plan for that key from the cache, built on first use; NULL when
 * memory runs out or n < 3. */
struct race_plans;
const struct race_plan *race_plans_get(struct race_plans **cache,
                                       const struct world *w,
                                       const struct waypoint *wp, int n,
                                       const struct vehicle_params *p, double dt);

/* Where pos lies on the line: the nearest point of the segments from
 * anchor `from` to anchor `to` (point indices, cyclic, a few points either
 * side); returns its arc length and sets *dist to the distance. */
double race_plan_locate(const struct race_plan *pl, vec2 pos, int from, int to,
                        double *dist);
/* The point and the planned speed at arc length s (taken modulo the lap). */
vec2 race_plan_point(const struct race_plan *pl, double s);
double race_plan_speed(const struct race_plan *pl, double s);
/* The planned speed at the next corner from arc length s: the next low of
 * the profile ahead (the lowest point before the speed rises again). */
double race_plan_corner_speed(const struct race_plan *pl, double s);

#endif
