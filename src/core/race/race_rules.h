/* race_rules.h — inside the race module: what the dispatcher in race.c
 * hands to the speed rules in race_classic.c and race_exact.c. */
#ifndef BOTFIELD_RACE_RULES_H
#define BOTFIELD_RACE_RULES_H

#include "race.h"
#include "decide.h"

struct race_plan;

struct race_ctx {
    const struct world *w;
    const struct vehicle *v;
    const struct waypoint *wp;  /* the route, n waypoints, driven cyclically */
    int n;
    int next;
    double rel;                 /* next waypoint off the nose, (-pi, pi] */
    struct race_info *info;     /* this tick's record (the tick's slot) */
    struct decision *d;         /* where the speed rule writes its intent */
    const struct race_plan *const *plans;  /* every racer's line this tick
                                              (by racer; NULL: none) */
};

/* One tick's speed change towards target: accel*dt up, brake*dt down,
 * within min_speed and max_speed. */
double race_accel_to(const struct vehicle *v, double target, double dt);

/* Centre of a turning circle of radius r on side (-1 left, +1 right, 0:
 * right, as the article's else branch); exact: the polygon's true centre,
 * else the article's (square off the nose). */
vec2 race_circle_centre(const struct vehicle *v, double r, int side, double dt,
                        int exact);

void race_classic_decide(struct race_ctx *c);
void race_exact_decide(struct race_ctx *c);
/* steer = line (race_line.c): 0, or -1 when the car is too far off the
 * line to follow it (it then drives as steer = classic). */
int race_line_decide(struct race_ctx *c, const struct race_plan *pl);

#endif
