/* race-bound.h — the fastest possible lap on a closed waypoint polyline,
 * for the racing tests and bench (the yardstick of issue 6).
 *
 * The car drives the polyline through the waypoint centres at the best
 * speed profile its limits allow: never above max_speed; at a corner no
 * faster than the arc tangent to both legs that passes within (waypoint r +
 * car r) of the corner allows with its turn rate; between corners the
 * forward pass limits acceleration (v^2 grows by 2 accel ds at most) and the
 * backward pass braking (2 brake ds).  A flying lap: the profile is cyclic. */
#ifndef BOTFIELD_RACE_BOUND_H
#define BOTFIELD_RACE_BOUND_H

struct waypoint;
struct vehicle_params;

/* Seconds; step is the sampling step along the polyline in world units. */
double race_bound_lap(const struct waypoint *wp, int n,
                      const struct vehicle_params *p, double dt, double step);

/* A floor under every valid lap, whatever the path: the shortest path
 * from waypoint 0's contact disc (its r plus the car's radius car_r)
 * through every other waypoint's disc in order and back into waypoint 0's
 * (a lap is timed from one contact with waypoint 0 to the next, and a
 * waypoint is reached when the car's centre is inside its disc on a tick,
 * so the polyline through the car's positions that lap is such a path).
 * A car moves at most max_speed dt a tick, so no lap is shorter than this
 * length over max_speed.  Found by minimising the convex sum of distances
 * one point at a time until it stops falling (1e-10). */
double race_floor_length(const struct waypoint *wp, int n, double car_r);

#endif
