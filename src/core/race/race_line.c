/* race_line.c — steer = line: the follower of the planned racing line
 * (race_line.h says how the line is planned and why). */
#include <math.h>

#include "race_line.h"
#include "race_rules.h"
#include "world.h"
#include "decide_guard.h"

/* The pursuit point lies this many ticks' travel ahead along the line, and
 * at least LINE_LOOK_MIN units. */
#define LINE_LOOK_TICKS 4.0
#define LINE_LOOK_MIN 8.0
/* Further off the line than this many contact distances (the run-up from
 * the start), the car drives as steer = classic does. */
#define LINE_FAR 2.0

/* Room kept between two cars' hulls when one holds back behind another. */
#define LINE_GAP 6.0

/* The racing rule: the fastest speed that still stops this car behind
 * every car ahead of it on its line (one whose hull reaches the line, at
 * most braking distance ahead along it), were that car to keep its
 * speed: v^2 <= v_ahead^2 + 2 brake gap.  Cars behind are the other
 * car's to mind; of two alongside, the one further off the line (`mine`
 * is this car's distance) gives way; a car off the line is passed.  +inf
 * when none. */
static double hold_back(const struct race_ctx *c, const struct race_plan *pl, double s,
                        double mine)
{
    const struct world *w = c->w;
    const struct vehicle *v = c->v;
    double lap = pl->s[pl->m];
    double horizon = v->speed * v->speed / (2 * v->p->brake) + 4 * v->p->max_speed * w->dt
                   + 8 * v->p->radius;
    double cap = INFINITY;
    for (size_t j = 0; j < world_nvehicles(w); j++) {
        const struct vehicle *o = world_vehicle(w, (int)j);
        const struct racer *or = world_racer(w, o);
        if (o == v || !or || !o->alive || o->kind != VK_CAR
            || v2_dist(o->pos, v->pos) > horizon + o->p->radius)
            continue;
        double touch = v->p->radius + o->p->radius;
        int on = or->race.next % c->n, op = (on + c->n - 1) % c->n;
        double off;
        double so = race_plan_locate(pl, o->pos, pl->anchor[op], pl->anchor[on], &off);
        if (off >= touch + LINE_GAP)
            continue;
        double ahead = fmod(so - s + 2 * lap, lap);
        /* alongside (a car merging onto the line beside another, as on
         * the starting grid): the one further off the line gives way */
        double side = fmin(ahead, lap - ahead);
        if (side < touch + LINE_GAP) {
            if (off > mine)
                continue;
            ahead = 0;
        }
        if (ahead > horizon)
            continue;
        double gap = ahead - touch - LINE_GAP - v->speed * w->dt;
        double vo = fmax(o->speed, 0);
        double allowed = gap > 0 ? sqrt(vo * vo + 2 * v->p->brake * gap) : 0;
        if (allowed < cap)
            cap = allowed;
    }
    return cap;
}

/* The same on the car's heading, for every car, on the line or not: a car
 * whose hull reaches the straight ahead of this one's nose (at most
 * braking distance ahead) is held back for as above.  Of two alongside
 * (neither more than a hull ahead of the other along its own heading) the
 * one behind gives way, the lower index on a tie. */
static double hold_back_ahead(const struct race_ctx *c)
{
    const struct world *w = c->w;
    const struct vehicle *v = c->v;
    double horizon = v->speed * v->speed / (2 * v->p->brake) + 4 * v->p->max_speed * w->dt
                   + 8 * v->p->radius;
    double cap = INFINITY;
    for (size_t j = 0; j < world_nvehicles(w); j++) {
        const struct vehicle *o = world_vehicle(w, (int)j);
        if (o == v || o->racer < 0 || !o->alive || o->kind != VK_CAR)
            continue;
        vec2 d = v2_sub(o->pos, v->pos);
        double along = v2_dot(d, v->dir);
        double touch = v->p->radius + o->p->radius;
        if (along < 0 || along > horizon + o->p->radius
            || fabs(v2_cross(v->dir, d)) >= touch + LINE_GAP)
            continue;
        if (along == 0 && o < v)
            continue;
        double gap = along - touch - LINE_GAP - v->speed * w->dt;
        double vo = fmax(v2_dot(o->dir, v->dir) * o->speed, 0);
        double allowed = gap > 0 ? sqrt(vo * vo + 2 * v->p->brake * gap) : 0;
        if (allowed < cap)
            cap = allowed;
    }
    return cap;
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
        double cap = hold_back_ahead(c);
        if (cap < ri->target_speed) {
            ri->target_speed = cap;
            c->d->want.speed = race_accel_to(v, cap, dt);
            ri->reason = BRAKE_CAR_AHEAD;
        }
        return 0;
    }

    /* The speed the profile plans where this tick's move ends. */
    double ahead = fmax(v->speed, v->p->min_speed) * dt;
    double target = race_plan_speed(pl, s + ahead);
    double behind = fmin(hold_back(c, pl, s, dist), hold_back_ahead(c));
    int held = behind < target;
    if (held)
        target = behind;
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
    ri->line_s = s;
    ri->line_lap = pl->s[pl->m];
    ri->corner_speed = race_plan_corner_speed(pl, s);
    ri->reason = speed >= v->speed ? BRAKE_NONE : held ? BRAKE_CAR_AHEAD : BRAKE_AHEAD;
    return 0;
}
