/* race.c — waypoint racing after Nick Turner's top-down racing
 * tutorial: waypoints with volume, gradual steering, the speed rules (one
 * dispatcher; classic and exact have their own files), the blind spot,
 * missed waypoints, laps. */
#include <math.h>

#include "race.h"
#include "trees.h"
#include "race_rules.h"
#include "race_line.h"
#include "world.h"
#include "decide_guard.h"

/* ---- geometry shared by the rules and the tests -------------------------- */

double race_radius_exact(double v, double turn_rate, double dt)
{
    /* Each tick the vehicle turns th = turn_rate*dt and then moves a chord of
     * v*dt: its positions are the corners of a regular polygon whose
     * circumradius is chord / (2 sin(th/2)). */
    if (!(v > 0))
        return 0;
    double half = 0.5 * turn_rate * dt;
    if (!(half > 0))
        return INFINITY;
    return v * dt / (2 * sin(half));
}

double race_radius_classic(double v, double turn_rate, double dt, int ticks)
{
    /* The article's DummyCar: turn, move, `ticks` times; the velocity before
     * (VelocityX1/Y1) and after (VelocityX2/Y2) give the average
     * acceleration AccelTot = |V2 - V1| / T, and Radius = Speed^2 / AccelTot
     * (Brykovian's r = v^2/a).  Only the turned angle matters for the
     * velocities, so the projected positions are not needed. */
    if (!(v > 0) || ticks <= 0)
        return 0;                   /* the article's overflow guard */
    double dir = 0;
    for (int t = 0; t < ticks; t++)
        dir += turn_rate * dt;
    vec2 v1 = v2_scale(v2_dir(0), v);
    vec2 v2 = v2_scale(v2_dir(dir), v);
    double a = v2_len(v2_sub(v2, v1)) / (ticks * dt);
    if (!(a > 0))
        return INFINITY;
    return v * v / a;
}

double race_reach_speed(vec2 pos, double heading, vec2 target, double reach,
                        double turn_rate, double dt)
{
    /* In the vehicle's frame (f ahead, l towards the turning side) the
     * polygon's circle has its centre at r (-sin a, cos a), a = th/2: the
     * tangent at a corner lies half a tick's turn beyond the heading, so
     * the centre lies that much behind square.  The
     * target is out of reach when it lies deeper than `reach` inside:
     * |target - centre| < r - reach, i.e. when
     *   f^2 + l^2 - reach^2 < 2 r (l cos a - f sin a - reach). */
    vec2 d = v2_sub(target, pos);
    vec2 u = v2_dir(heading);
    double f = v2_dot(d, u);
    double l = fabs(v2_cross(u, d));
    double a = 0.5 * turn_rate * dt;
    double k = l * cos(a) - f * sin(a) - reach;
    double num = f * f + l * l - reach * reach;
    if (!(a > 0))                   /* cannot turn: only straight ahead */
        return l < reach && f > 0 ? INFINITY : 0;
    if (k <= 0 || num <= 0)
        return INFINITY;
    double r = num / (2 * k);
    return 2 * r * sin(a) / dt;
}

int race_clear(const struct world *w, vec2 a, vec2 b)
{
    /* The article's hairpin wall: a tree between the car and a waypoint. */
    return trees_clear(w, a, b);
}

/* ---- decide --------------------------------------------------------------- */

double race_accel_to(const struct vehicle *v, double target, double dt)
{
    /* One tick of the article's speed update: at most accel*dt up or
     * brake*dt down, never above max_speed, never braked below min_speed
     * (a car still below it from the standing start keeps its speed). */
    double s = v->speed;
    double t = clampd(target, v->p->min_speed, v->p->max_speed);
    double want = clampd(t, s - v->p->brake * dt, s + v->p->accel * dt);
    double floor_speed = fmin(s, v->p->min_speed);
    return want < floor_speed ? floor_speed : want;
}

static void decide(const struct decide_view *tc, int i, int rule, int line,
                   struct decision *d);

void race_decide(const struct decide_view *tc, int i, struct decision *d)
{
    const struct vehicle_params *p = world_vehicle(tc->w, i)->p;
    decide(tc, i, p->speed_rule, p->steer == STEER_LINE, d);
}

void race_decide_with(const struct decide_view *tc, int i, int rule,
                      struct decision *d)
{
    /* the bot API's rules steer the article's way */
    decide(tc, i, rule, 0, d);
}

void race_decide_line(const struct decide_view *tc, int i, struct decision *d)
{
    decide(tc, i, world_vehicle(tc->w, i)->p->speed_rule, 1, d);
}

/* A car by a speed rule (or its racing line, when it has one near): the
 * article's steering is made; the speed is the rule's. */
static void car_speed(const struct decide_view *tc, struct race_ctx *c, int rule, int line)
{
    const struct vehicle *v = c->v;
    const struct world *w = c->w;
    if (line && c->n >= 3) {
        /* steer = line: the planned racing line, if it is near (planned
         * before the tick's decisions: race_line_prepare) */
        const struct race_plan *pl = tc->tick->plan ? tc->tick->plan[v->racer] : NULL;
        if (pl && race_line_decide(c, pl) == 0)
            return;
    }
    struct race_info *ri = c->info;
    switch ((enum speed_rule)rule) {
    case SPEED_RULE_NONE:
        /* The baseline: flat out, whatever the waypoints say. */
        ri->circle_r = race_radius_exact(v->speed, v->p->turn_rate, w->dt);
        ri->circle_c = race_circle_centre(v, ri->circle_r, ri->turn_dir, w->dt, 1);
        ri->target_speed = v->p->max_speed;
        c->d->want.speed = race_accel_to(v, v->p->max_speed, w->dt);
        break;
    case SPEED_RULE_CLASSIC:
        race_classic_decide(c);
        break;
    case SPEED_RULE_EXACT:
        race_exact_decide(c);
        break;
    }
}

/* Where the car heads: the waypoint, or, on a one-waypoint track still in
 * contact with it, away from its centre (*leaving).  A one-waypoint
 * track's waypoint is every lap's start and end, and a lap is leaving it
 * and coming back (race_detect counts an arrival only after the car has
 * been out of contact): straight on from the centre itself, rather than
 * circling inside it forever. */
static vec2 goal_of(const struct vehicle *v, const struct racer *rc,
                    const struct waypoint *wp, int n, int next, int *leaving)
{
    *leaving = n == 1 && rc->race.touching == 1;
    if (!*leaving)
        return wp[next].c;
    vec2 away = v2_sub(v->pos, wp[next].c);
    return v2_add(v->pos, v2_len2(away) > 0 ? away : v->dir);
}

/* Its record goes to the tick's slot of its racer, applied by act: reset
 * here. */
static void record_start(struct race_info *ri, const struct vehicle *v)
{
    ri->next = -1;
    ri->circle_r = 0;
    ri->circle_c = v->pos;
    ri->turn_dir = 0;
    ri->reason = BRAKE_NONE;
    ri->target_speed = 0;
    ri->line_s = -1;
}

static void decide(const struct decide_view *tc, int i, int rule, int line,
                   struct decision *d)
{
    const struct world *w = tc->w;
    const struct vehicle *v = world_vehicle(w, i);
    const struct racer *rc = world_racer(w, v);
    int n;
    const struct waypoint *wp = world_route(w, v, &n);
    if (!rc) {
        /* Made a racer after world_finish() (a test changing settings):
         * no progress to keep, so it cruises as if it had no route. */
        d->want.turn = 0;
        d->want.speed = v->kind == VK_CAR ? race_accel_to(v, 0, w->dt) : v->p->speed;
        return;
    }
    struct race_info *ri = tc->race;
    record_start(ri, v);
    d->want.turn = 0;
    if (!wp || n <= 0) {
        /* Nothing to drive to: a car stands still, a tank keeps cruising. */
        d->want.speed = v->kind == VK_CAR ? race_accel_to(v, 0, w->dt) : v->p->speed;
        ri->target_speed = d->want.speed;
        return;
    }
    int next = rc->race.next % n;
    ri->next = next;
    int leaving;
    vec2 goal = goal_of(v, rc, wp, n, next, &leaving);

    /* The article's steering: the waypoint's angle relative to the nose,
     * normalised to (-pi, pi] (CheckAngle), decides the side; turn by
     * TurnRatio = turn_rate*dt that way, or by less when that would turn
     * past the waypoint (so a car on course does not zigzag). */
    double rel = angle_diff(v2_angle(v2_sub(goal, v->pos)), v->heading);
    double step = v->p->turn_rate * w->dt;
    d->want.turn = clampd(rel, -step, step);
    ri->turn_dir = rel > 0 ? 1 : rel < 0 ? -1 : 0;
    if (leaving && v->kind == VK_CAR) {
        ri->target_speed = v->p->max_speed;
        d->want.speed = race_accel_to(v, v->p->max_speed, w->dt);
        return;
    }
    if (v->kind != VK_CAR) {
        /* A patrolling tank has no speed rule: it cruises at its speed (its
         * avoidance may still change that after us). */
        d->want.speed = v->p->speed;
        ri->target_speed = v->p->speed;
        ri->circle_r = race_radius_exact(v->speed, v->p->turn_rate, w->dt);
        ri->circle_c = race_circle_centre(v, ri->circle_r, ri->turn_dir, w->dt, 1);
        return;
    }
    struct race_ctx c = { w, v, wp, n, next, rel, ri, d, tc->tick->plan };
    car_speed(tc, &c, rule, line);
}

vec2 race_circle_centre(const struct vehicle *v, double r, int side, double dt,
                        int exact)
{
    if (!(r > 0) || !isfinite(r))
        return v->pos;
    double s = side < 0 ? -1 : 1;       /* the article: no left turn = right */
    /* The article puts the centre square off the nose (Direction +- Pi/2);
     * the polygon's true centre lies half a tick's turn further back. */
    double back = exact ? 0.5 * v->p->turn_rate * dt : 0;
    return v2_add(v->pos, v2_scale(v2_dir(v->heading + s * (back + M_PI / 2)), r));
}

