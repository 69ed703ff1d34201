/* race_line_pass.h — the racing rule of steer = line (race_line_pass.c):
 * the lane beside the line a car drives in among other cars, and the
 * speed that keeps it behind those it cannot pass. */
#ifndef BOTFIELD_RACE_LINE_PASS_H
#define BOTFIELD_RACE_LINE_PASS_H

#include "vec.h"

struct race_ctx;
struct race_plan;

/* Signed offset of pos from the line at arc length s (left positive), and
 * the point at offset e beside arc length s. */
double race_line_offset(const struct race_plan *pl, vec2 pos, double s);
vec2 race_line_beside(const struct race_plan *pl, double s, double e);

/* For the car of c at arc s, offset e: the offset it should drive at
 * (*lat: 0 on the line, else beside a car it passes or keeps clear of)
 * and the fastest speed that keeps it behind the cars in its lane (*cap,
 * +inf when none).  Returns 1 when it must keep its offset as it is (a
 * car alongside and no room to step aside of it: it drives parallel to
 * the line, even where the waypoints' room would draw it in). */
int race_line_traffic(const struct race_ctx *c, const struct race_plan *pl, double s,
                      double e, double *lat, double *cap);
/* The offset of the pursuit point at arc `at`, `look` ahead of the car:
 * towards lat, gently from e, inside the waypoints' room there. */
double race_line_goal_offset(const struct race_ctx *c, const struct race_plan *pl,
                             double at, double look, double e, double lat);
/* The same racing rule on the car's heading, for every car, on the line
 * or not (the run-up from the start): the fastest speed that stops it
 * behind a car whose hull reaches the straight ahead of its nose. */
double race_line_hold_ahead(const struct race_ctx *c);
/* On the grid (before the car first reaches waypoint 0): the fastest
 * speed that keeps it clear, in every direction, of each car further
 * round the race (nearer waypoint 0), so the grid leaves in order. */
double race_line_hold_start(const struct race_ctx *c);

#endif
