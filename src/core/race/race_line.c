/* race_line.c — steer = line: the follower of the planned racing line
 * (race_line.h says how the line is planned and why). */
#include <math.h>

#include "race_line.h"
#include "race_rules.h"
#include "world.h"

/* The pursuit point lies this many ticks' travel ahead along the line, and
 * at least LINE_LOOK_MIN units. */
#define LINE_LOOK_TICKS 4.0
#define LINE_LOOK_MIN 8.0
/* Further off the line than this many contact distances (the run-up from
 * the start), the car drives as steer = classic does. */
#define LINE_FAR 2.0

int race_line_decide(struct race_ctx *c, const struct race_plan *pl)
{
    const struct vehicle *v = c->v;
    struct race_info *ri = c->info;
    double dt = c->w->dt;
    int prev = (c->next + c->n - 1) % c->n;
    double dist;
    double s = race_plan_locate(pl, v->pos, pl->anchor[prev], pl->anchor[c->next], &dist);
    if (dist > LINE_FAR * (c->wp[c->next].r + v->p->radius))
        return -1;

    /* The speed the profile plans where this tick's move ends. */
    double ahead = fmax(v->speed, v->p->min_speed) * dt;
    double target = race_plan_speed(pl, s + ahead);
    double speed = race_accel_to(v, target, dt);

    /* Pure pursuit: the arc tangent to the heading through the point
     * ahead has curvature 2 sin(a) / d; this tick's move along it turns
     * the heading by that times the distance moved. */
    double look = fmax(LINE_LOOK_MIN, LINE_LOOK_TICKS * speed * dt);
    vec2 goal = race_plan_point(pl, s + look);
    vec2 to = v2_sub(goal, v->pos);
    double a = angle_diff(v2_angle(to), v->heading);
    double step = v->p->turn_rate * dt;
    double turn;
    if (fabs(a) >= M_PI / 2)
        turn = a > 0 ? step : -step;
    else
        turn = 2 * sin(a) / fmax(v2_len(to), 1e-9) * speed * dt;
    c->d->want.turn = clampd(turn, -step, step);
    c->d->want.speed = speed;

    ri->turn_dir = turn > 0 ? 1 : turn < 0 ? -1 : 0;
    ri->circle_r = race_radius_exact(v->speed, v->p->turn_rate, dt);
    ri->circle_c = race_circle_centre(v, ri->circle_r, ri->turn_dir, dt, 1);
    ri->target_speed = target;
    ri->reason = speed < v->speed ? BRAKE_AHEAD : BRAKE_NONE;
    return 0;
}
