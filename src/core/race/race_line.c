/* race_line.c — steer = line: the follower of the planned racing line
 * (race_line.h says how the line is planned and why). */
#include <math.h>

#include "race_line.h"
#include "race_rules.h"
#include "world.h"
#include "race_line_pass.h"
#include "decide_guard.h"

/* The pursuit point lies this many ticks' travel ahead along the line, and
 * at least LINE_LOOK_MIN units. */
#define LINE_LOOK_TICKS 4.0
#define LINE_LOOK_MIN 8.0
/* Further off the line than this many contact distances (the run-up from
 * the start), the car drives as steer = classic does. */
#define LINE_FAR 2.0

/* Held back to cap: race_accel_to, except that before its start a car
 * the grid's order (race_line_hold_start, `grid`) holds below min_speed
 * may brake below it, to a stop (min_speed is what a car keeps once
 * racing; on the grid it waits for the car it gives way to instead of
 * creeping into it).  Only that rule may stop a car: its order is total
 * (laps, waypoints, distance, then index), so no two cars ever wait for
 * each other. */
static double give_way(const struct vehicle *v, double cap, double grid, double dt)
{
    if (grid < v->p->min_speed)
        return fmax(0, fmin(v->speed + v->p->accel * dt,
                            fmax(cap, v->speed - v->p->brake * dt)));
    return race_accel_to(v, cap, dt);
}

/* Beside the line on the inside of a bend the path is tighter: the share
 * of the planned speed it allows (the radius shrinks by the offset). */
static double inside_share(const struct race_plan *pl, double at, double e)
{
    if (e == 0)
        return 1;
    vec2 t0 = v2_sub(race_plan_point(pl, at), race_plan_point(pl, at - 10));
    vec2 t1 = v2_sub(race_plan_point(pl, at + 10), race_plan_point(pl, at));
    double l = v2_len(t0) * v2_len(t1);
    /* curvature, left positive: the turn over the 10 units between */
    double k = l > 0 ? asin(clampd(v2_cross(t0, t1) / l, -1, 1)) / 10 : 0;
    return clampd(1 - k * e, 0.3, 1);
}

int race_line_decide(struct race_ctx *c, const struct race_plan *pl)
{
    const struct vehicle *v = c->v;
    struct race_info *ri = c->info;
    double dt = c->w->dt;
    int prev = (c->next + c->n - 1) % c->n;
    double dist;
    double s = race_plan_locate(pl, v->pos, pl->anchor[prev], pl->anchor[c->next], &dist);
    if (dist > LINE_FAR * (c->wp[c->next].r + v->p->radius)) {
        /* off the line: the article's steering (race.c set the turn), the
         * exact speed rule, and the racing rule on the heading */
        race_exact_decide(c);
        double grid = race_line_hold_start(c);
        double cap = fmin(race_line_hold_ahead(c), grid);
        if (cap < ri->target_speed) {
            ri->target_speed = cap;
            c->d->want.speed = give_way(v, cap, grid, dt);
            ri->reason = BRAKE_CAR_AHEAD;
        }
        return 0;
    }

    /* The speed the profile plans where this tick's move ends; the lane
     * among the other cars and the speed that keeps it behind those it
     * cannot pass (race_line_pass.c). */
    double ahead = fmax(v->speed, v->p->min_speed) * dt;
    double target = race_plan_speed(pl, s + ahead);
    double e = race_line_offset(pl, v->pos, s);
    double lat, behind;
    int hold = race_line_traffic(c, pl, s, e, &lat, &behind);
    double grid = race_line_hold_start(c);
    behind = fmin(behind, fmin(race_line_hold_ahead(c), grid));
    int held = behind < target;
    if (held)
        target = behind;

    /* Pure pursuit: the arc tangent to the heading through the point
     * ahead (beside the line when the lane is) has curvature 2 sin(a) / d;
     * this tick's move along it turns the heading by that times the
     * distance moved. */
    double speed = held ? give_way(v, target, grid, dt) : race_accel_to(v, target, dt);
    double look = fmax(LINE_LOOK_MIN, LINE_LOOK_TICKS * speed * dt);
    double side = hold ? e : race_line_goal_offset(c, pl, s + look, look, e, lat);
    double share = inside_share(pl, s + look, side);
    if (share < 1) {
        target *= share;
        speed = held ? give_way(v, target, grid, dt) : race_accel_to(v, target, dt);
    }
    vec2 goal = race_line_beside(pl, s + look, side);
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
    ri->line_s = s;
    ri->line_lap = pl->s[pl->m];
    ri->corner_speed = race_plan_corner_speed(pl, s);
    ri->reason = speed >= v->speed ? BRAKE_NONE : held ? BRAKE_CAR_AHEAD : BRAKE_AHEAD;
    return 0;
}
