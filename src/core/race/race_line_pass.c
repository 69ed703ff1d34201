/* race_line_pass.c — the racing rule of steer = line: where beside its
 * line a car drives, and how fast, among other cars.  It reads the other
 * cars only through the const world (world_vehicle, world_racer).
 *
 * Every car is placed in the frame of this car's line: its arc length s
 * and its signed offset e (left of the line positive).  A car ahead in
 * this car's lane (offsets closer than the two hulls and a gap) that is
 * slower than this car's plan where it is, is passed: this car moves to
 * the offset beside it on the side it already leans to (or towards the
 * line), but only where the waypoint discs leave room for the whole pass
 * (the distance it drives while it gains on the other car at the
 * difference of their speeds, and back; every waypoint is still passed
 * inside its disc, with a margin: the offset may grow away from a
 * waypoint by LINE_SLOPE a unit of arc).  Where there is no room it
 * holds back: never faster than what still stops it behind the car ahead
 * in its lane (v^2 <= v_ahead^2 + 2 brake gap).  Of two cars alongside in
 * one lane the one behind gives way; the car being passed keeps its line. */
#include <math.h>

#include "race_line.h"
#include "race_rules.h"
#include "world.h"
#include "decide_guard.h"

/* Room kept between two cars' hulls, along and across the line. */
#define LINE_GAP 6.0
/* Extra room across the line when passing (the follower's error). */
#define LINE_PASS_SPARE 4.0
/* How fast the offset may change along the line (units across a unit
 * along): the path to the side and back stays gentle. */
#define LINE_SLOPE 0.4
/* Share of a waypoint's contact distance a car beside the line keeps
 * inside (the line's own anchors keep 0.85, race_line_plan.c). */
#define LINE_ROOM 0.8
/* A car is passed only when it is this much slower than the plan. */
#define LINE_PASS_DV 2.0

/* The line's unit tangent at arc length s. */
static vec2 plan_tangent(const struct race_plan *pl, double s)
{
    vec2 d = v2_sub(race_plan_point(pl, s + 2), race_plan_point(pl, s - 2));
    double l = v2_len(d);
    return l > 0 ? v2_scale(d, 1 / l) : v2(1, 0);
}

/* Left of the tangent. */
static vec2 left_of(vec2 t)
{
    return v2(-t.y, t.x);
}

double race_line_offset(const struct race_plan *pl, vec2 pos, double s)
{
    return v2_dot(v2_sub(pos, race_plan_point(pl, s)), left_of(plan_tangent(pl, s)));
}

vec2 race_line_beside(const struct race_plan *pl, double s, double e)
{
    return v2_add(race_plan_point(pl, s), v2_scale(left_of(plan_tangent(pl, s)), e));
}

/* The offsets [lo, hi] at waypoint k's anchor that pass within
 * LINE_ROOM of its contact distance; *sk: the anchor's arc length. */
static void waypoint_room(const struct race_ctx *c, const struct race_plan *pl, int k,
                          double *sk, double *lo, double *hi)
{
    *sk = pl->s[pl->anchor[k]];
    vec2 off = v2_sub(pl->pt[pl->anchor[k]], c->wp[k].c);
    double reach = LINE_ROOM * (c->wp[k].r + c->v->p->radius);
    /* |off + N x| < reach: x^2 + 2 b x + (|off|^2 - reach^2) < 0 */
    double b = v2_dot(left_of(plan_tangent(pl, *sk)), off);
    double disc = b * b - (v2_len2(off) - reach * reach);
    double half = disc > 0 ? sqrt(disc) : 0;
    *lo = -b - half;
    *hi = -b + half;
}

/* Whether offset x keeps inside the room of every waypoint while the car
 * drives it from arc s to arc to: at a waypoint's anchor its interval, the
 * room widening by LINE_SLOPE a unit of arc away from the anchor. */
static int fits(const struct race_ctx *c, const struct race_plan *pl, double s, double to,
                double x)
{
    double lap = pl->s[pl->m];
    for (int k = 0; k < c->n; k++) {
        double sk, lo, hi;
        waypoint_room(c, pl, k, &sk, &lo, &hi);
        double into = fmod(sk - s + 2 * lap, lap);      /* ahead of s */
        double along = into <= to - s ? 0 : fmin(into - (to - s), lap - into);
        if (x < lo - LINE_SLOPE * along || x > hi + LINE_SLOPE * along)
            return 0;
    }
    return 1;
}

/* The offsets [lo, hi] allowed at arc length at (the waypoints near the
 * car's next; always holding 0). */
static void room_at(const struct race_ctx *c, const struct race_plan *pl, double at,
                    double *lo, double *hi)
{
    double lap = pl->s[pl->m];
    *lo = -INFINITY;
    *hi = INFINITY;
    for (int j = -1; j <= 3; j++) {
        int k = ((c->next + j) % c->n + c->n) % c->n;
        double sk, klo, khi;
        waypoint_room(c, pl, k, &sk, &klo, &khi);
        double along = fabs(remainder(at - sk, lap));
        *lo = fmax(*lo, klo - LINE_SLOPE * along);
        *hi = fmin(*hi, khi + LINE_SLOPE * along);
    }
    if (*lo > 0)
        *lo = 0;
    if (*hi < 0)
        *hi = 0;
}

/* One other car in the frame of this car's line. */
struct other {
    const struct vehicle *o;
    double d;           /* arc length ahead of this car (negative: behind) */
    double e;           /* its offset */
    double elo, ehi;    /* the offsets it will drive at over the horizon
                           (its own line's, when that is not this car's) */
    double clear;       /* offsets closer than this share a lane */
};

/* Points along the other car's own line at which its offsets ahead are
 * taken. */
#define LINE_OTHER_SAMPLES 6
/* A car further off its own line than this many contact distances is
 * taken to keep its offset from this car's (race_line.c's LINE_FAR). */
#define LINE_OTHER_NEAR 2.0

/* The offsets in this car's frame that car x will drive at over the next
 * `horizon` of arc: cars of other settings drive lines of their own (the
 * descent moves each line its own way, race_line_descend.c), so a car
 * passed does not keep its offset from this car's line: it follows its
 * own, at its offset from it now, or back on it. */
static void other_lane(const struct race_ctx *c, const struct race_plan *pl, double s,
                       double horizon, struct other *x)
{
    x->elo = x->ehi = x->e;
    const struct race_plan *po = c->plans && x->o->racer >= 0 ? c->plans[x->o->racer] : NULL;
    if (!po || po == pl)
        return;                 /* the same line (or none): its offset stays */
    /* (its own route's waypoints: a car may race a route of its own) */
    const struct racer *or = world_racer(c->w, x->o);
    int on = or->race.next % po->n, op = (on + po->n - 1) % po->n;
    double dist;
    double so = race_plan_locate(po, x->o->pos, po->anchor[op], po->anchor[on], &dist);
    if (!or->race.started || dist > LINE_OTHER_NEAR * (po->wp[on].r + x->o->p->radius))
        return;                 /* on the grid, or off its line: it drives by no line */
    double eo = race_line_offset(po, x->o->pos, so);
    for (int j = 0; j <= LINE_OTHER_SAMPLES; j++) {
        double ahead = horizon * j / LINE_OTHER_SAMPLES;
        double at = s + x->d + ahead;
        for (int back = 0; back < 2; back++) {
            vec2 q = race_line_beside(po, so + ahead, back ? 0 : eo);
            double e = race_line_offset(pl, q, at);
            x->elo = fmin(x->elo, e);
            x->ehi = fmax(x->ehi, e);
        }
    }
}

#define LINE_MAX_NEAR 16

/* The cars near enough to matter, in this car's frame. */
static int near_cars(const struct race_ctx *c, const struct race_plan *pl, double s,
                     double horizon, struct other *out)
{
    const struct world *w = c->w;
    const struct vehicle *v = c->v;
    double lap = pl->s[pl->m];
    int k = 0;
    for (size_t j = 0; j < world_nvehicles(w) && k < LINE_MAX_NEAR; j++) {
        const struct vehicle *o = world_vehicle(w, (int)j);
        const struct racer *or = world_racer(w, o);
        if (o == v || !or || !o->alive || o->kind != VK_CAR
            || v2_dist(o->pos, v->pos) > horizon + o->p->radius + v->p->radius)
            continue;
        int on = or->race.next % c->n, op = (on + c->n - 1) % c->n;
        double dist;
        double so = race_plan_locate(pl, o->pos, pl->anchor[op], pl->anchor[on], &dist);
        out[k].o = o;
        out[k].d = remainder(so - s, lap);
        out[k].e = race_line_offset(pl, o->pos, so);
        out[k].clear = v->p->radius + o->p->radius + LINE_GAP;
        other_lane(c, pl, s, horizon, &out[k]);
        k++;
    }
    return k;
}

/* The fastest speed that still stops this car behind o were o to keep
 * its speed along the line. */
static double stop_behind(const struct race_ctx *c, const struct other *x)
{
    const struct vehicle *v = c->v;
    double gap = x->d - (x->clear - LINE_GAP) - LINE_GAP - v->speed * c->w->dt;
    double vo = fmax(x->o->speed, 0);
    return gap > 0 ? sqrt(vo * vo + 2 * v->p->brake * gap) : 0;
}

/* How far offset e is from the offsets car x will drive at. */
static double lane_gap(const struct other *x, double e)
{
    return e < x->elo ? x->elo - e : e > x->ehi ? e - x->ehi : 0;
}

/* One car x of the lane's round: 1 when *lat moved aside of it, 0 when
 * it needs no move (or no room), 2 or 3 when this car holds its line
 * (*hold: 1 keeps the line, 2 also lets it go ahead). */
static int step_aside(const struct race_ctx *c, const struct race_plan *pl, double s,
                      double e, const struct other *x, double *lat, int *hold)
{
    const struct vehicle *v = c->v;
    int alongside = x->d <= x->clear;
    /* ahead: its lane against the one this car moves to; alongside:
     * against every offset on the way there */
    double lo = alongside ? fmin(e, *lat) : *lat, hi = alongside ? fmax(e, *lat) : *lat;
    double across = x->ehi < lo ? lo - x->ehi : x->elo > hi ? x->elo - hi : 0;
    if (x->d < -x->clear || across >= x->clear + LINE_PASS_SPARE)
        return 0;
    double plan = race_plan_speed(pl, s + x->d);
    if (!alongside && x->o->speed >= plan - LINE_PASS_DV)
        return 0;           /* as fast as the plan: follow it */
    if (alongside && fabs(e) <= fabs(x->e)) {
        /* it is the one passing: keep the line, but never close on it
         * across the line (it may have no room to go) */
        if (fabs(x->e - *lat) < fabs(x->e - e)) {
            *lat = e;
            *hold = 1;
        }
        return 0;
    }
    double clear = x->clear + LINE_PASS_SPARE;
    int side = fabs(e - x->e) > 1 ? (e > x->e ? 1 : -1) : (x->e > 0 ? -1 : 1);
    /* room past it and back onto the line: this car closes on it at the
     * difference of their speeds, so it drives v / (v - v_o) times the
     * distance it gains */
    double vme = fmax(v->speed, plan);
    double gain = vme / fmax(vme - fmax(x->o->speed, 0), LINE_PASS_DV);
    double pass = s + (fmax(x->d, 0) + 2 * x->clear) * gain;
    double want = (side > 0 ? x->ehi : x->elo) + side * clear;
    double to = pass + fabs(want) / LINE_SLOPE;
    if (!fits(c, pl, s, to, want)) {
        /* no room: hold back; alongside, without steering into it */
        if (alongside) {
            *lat = e;
            *hold = 2;      /* and let it go ahead */
            return 0;
        }
        /* the other side: the way there crosses its lane, so only
         * while this car can be across before it has closed the gap (at
         * LINE_SLOPE across, closing at the difference of their speeds);
         * else it holds back behind it */
        want = (side > 0 ? x->elo : x->ehi) - side * clear;
        double closing = fabs(want - e) / LINE_SLOPE * fmax(vme - fmax(x->o->speed, 0), 0)
                       / fmax(vme, LINE_PASS_DV);
        if (x->d - x->clear <= closing)
            return 0;
        to = pass + fabs(want) / LINE_SLOPE;
        if (!fits(c, pl, s, to, want))
            return 0;
    }
    *lat = want;
    return 1;
}

/* The speed cap behind every car ahead in the lane this car is in or
 * moves to; of two alongside in one lane the one behind gives way (the
 * lower index on a tie). */
static double hold_back(const struct race_ctx *c, const struct other *near, int k, double e,
                        double lat, double horizon)
{
    double cap = INFINITY;
    for (int j = 0; j < k; j++) {
        const struct other *x = &near[j];
        if (x->d < -x->clear || x->d > horizon)
            continue;
        if (lane_gap(x, e) >= x->clear && lane_gap(x, lat) >= x->clear)
            continue;
        if (fabs(x->d) <= x->clear) {
            if (x->d < 0 || (x->d == 0 && x->o > c->v))
                continue;
            cap = 0;
            continue;
        }
        double allowed = stop_behind(c, x);
        if (allowed < cap)
            cap = allowed;
    }
    return cap;
}

int race_line_traffic(const struct race_ctx *c, const struct race_plan *pl, double s,
                      double e, double *lat, double *cap)
{
    int hold = 0;
    const struct vehicle *v = c->v;
    double horizon = v->speed * v->speed / (2 * v->p->brake)
                   + 4 * v->p->max_speed * c->w->dt + 8 * v->p->radius;
    struct other near[LINE_MAX_NEAR];
    int k = near_cars(c, pl, s, horizon, near);
    *lat = 0;
    /* The lane: from the line, step aside of each car in it that must be
     * passed (ahead and slower than the plan) or is alongside, nearest
     * first; a few rounds settle on an offset clear of them all. */
    for (int round = 0; round < 3; round++) {
        int moved = 0;
        for (int j = 0; j < k && !hold; j++)
            moved |= step_aside(c, pl, s, e, &near[j], lat, &hold);
        if (!moved || hold)
            break;
    }
    *cap = hold_back(c, near, k, e, *lat, horizon);
    if (hold == 2)
        *cap = 0;
    return hold != 0;
}

/* The offset the pursuit point takes at arc length at: towards lat, no
 * faster than LINE_SLOPE from the car's offset e over the distance
 * `look`, inside the room there. */
double race_line_goal_offset(const struct race_ctx *c, const struct race_plan *pl,
                             double at, double look, double e, double lat)
{
    double x = clampd(lat, e - LINE_SLOPE * look, e + LINE_SLOPE * look);
    double lo, hi;
    room_at(c, pl, at, &lo, &hi);
    return clampd(x, lo, hi);
}

double race_line_hold_ahead(const struct race_ctx *c)
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

/* How far round the race a car is: laps, then waypoints, then nearness to
 * the next one (larger: further). */
static double progress(const struct world *w, const struct vehicle *v,
                       const struct racer *r)
{
    int n;
    const struct waypoint *wp = world_route(w, v, &n);
    if (!wp || n <= 0)
        return 0;
    int next = r->race.next % n;
    double lap = r->race.started ? r->race.laps + 1 : 0;
    return lap * (n + 1) + (r->race.started ? next : 0)
         + 1 / (1 + v2_dist(v->pos, wp[next].c));
}

double race_line_hold_start(const struct race_ctx *c)
{
    const struct world *w = c->w;
    const struct vehicle *v = c->v;
    const struct racer *me = world_racer(w, v);
    if (!me || me->race.started)
        return INFINITY;
    double mine = progress(w, v, me);
    double cap = INFINITY;
    for (size_t j = 0; j < world_nvehicles(w); j++) {
        const struct vehicle *o = world_vehicle(w, (int)j);
        const struct racer *or = world_racer(w, o);
        if (o == v || !or || !o->alive || o->kind != VK_CAR)
            continue;
        double theirs = progress(w, o, or);
        if (theirs < mine || (theirs == mine && o > v))
            continue;
        vec2 d = v2_sub(o->pos, v->pos);
        double dist = v2_len(d);
        double gap = dist - (v->p->radius + o->p->radius + LINE_GAP) - v->speed * w->dt;
        double vo = dist > 0 ? fmax(v2_dot(o->dir, v2_scale(d, 1 / dist)) * o->speed, 0) : 0;
        double allowed = gap > 0 ? sqrt(vo * vo + 2 * v->p->brake * gap) : 0;
        if (allowed < cap)
            cap = allowed;
    }
    return cap;
}
