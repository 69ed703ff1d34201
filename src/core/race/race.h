/* race.h — waypoint steering, speed rules, laps (Nick Turner's
 * top-down racing tutorial).
 *
 *   none     always max_speed: the baseline that orbits tight waypoints;
 *   classic  the article: turning circle from 10 projected ticks, r = v^2/a,
 *            brake while the next waypoint is inside it;
 *   exact    ours, the default: the motion model's exact turning circle and
 *            a look-ahead brake for the corners of the next few waypoints.
 * Every rule steers the same way (at most turn_rate * dt a tick towards the
 * next waypoint, the article's CheckAngle) and brakes in the blind spot
 * (none excepted).  Tanks on patrol steer the same way at their cruising
 * speed.
 *
 * race_decide() is the decide phase for a car (or a patrolling tank): it
 * writes want_turn, want_speed and v->racing.  race_detect() is the detect
 * phase: waypoints reached or skipped, laps, finishes, with their events
 * (cars only; a tank just moves on along its route). */
#ifndef BOTFIELD_RACE_H
#define BOTFIELD_RACE_H

#include "vec.h"
#include "names.h"

struct world;
struct vehicle;
struct waypoint;

/* Why the speed rule brakes (the inspector's words). */
#define BRAKE_REASON_LIST(X)                                            \
    X(BRAKE_NONE, "no") X(BRAKE_CIRCLE, "turning_circle")               \
    X(BRAKE_BLIND_SPOT, "blind_spot") X(BRAKE_AHEAD, "corner_ahead")    \
    X(BRAKE_CAR_AHEAD, "car_ahead")
enum brake_reason { BRAKE_REASON_LIST(NAMES_ENUM) };
#define BRAKE_REASON_COUNT (0 BRAKE_REASON_LIST(NAMES_COUNT))
extern const char *const brake_reason_names[BRAKE_REASON_COUNT + 1];

/* Progress along the route, kept across ticks. */
struct race_state {
    int next;               /* index of the waypoint being driven to */
    int laps;               /* laps completed */
    int started;            /* has left the start (waypoint 0 reached once) */
    double lap_start;       /* simulated time the current lap began */
    double best_lap;        /* of the clean laps; 0: none yet */
    int finished;
    double finish_time;
    int touching;           /* 1 + the waypoint reached and still in
                               contact, 0: none (so a one-waypoint route is
                               not lapped again every tick spent on it) */
    int skipped;            /* waypoints skipped since the last lap ended
                               (or the run began): the lap is not clean */
};

/* What the speed rule decided this tick. */
struct race_info {
    int next;
    vec2 circle_c;          /* turning circle at the current speed */
    double circle_r;        /* 0: none (standing still) */
    int turn_dir;           /* -1 left, +1 right, 0 straight */
    enum brake_reason reason;
    double target_speed;    /* what the rule aims for; want_speed is one
                               tick's accel or brake towards it */
    double line_s;          /* steer = line: arc length along the line, -1:
                               not on it (race_line.h) */
    double line_lap;        /* the line's length */
    double corner_speed;    /* the planned speed at the next corner (the
                               next low of the profile ahead) */
};

struct decide_view;
struct decision;
/* Writes its racer's record to c->race, not the world (act applies it). */
void race_decide(const struct decide_view *c, int i, struct decision *d);
/* The same with the speed rule given (an enum speed_rule): the bot API's
 * race.classic and race.exact. */
void race_decide_with(const struct decide_view *c, int i, int rule,
                      struct decision *d);
/* As a car with steer = line and its own speed rule decides, whatever its
 * steer: the bot API's race.line (its plan: tick.c's line_plan). */
void race_decide_line(const struct decide_view *c, int i, struct decision *d);
void race_detect(struct world *w);

/* The exact radius of the circle through the positions of a vehicle that
 * turns turn_rate*dt and then moves v*dt every tick (a regular polygon):
 * r = v dt / (2 sin(turn_rate dt / 2)).  0 when v is 0; +inf when it
 * cannot turn. */
double race_radius_exact(double v, double turn_rate, double dt);

/* The article's estimate: project `ticks` ticks ahead while turning, take
 * the acceleration from the change of velocity, r = v^2 / a.  Equal to
 * ticks * v dt / (2 sin(ticks * turn_rate dt / 2)): it overstates the exact
 * radius by 14 % at 10 degrees a tick over 10 ticks and is infinite at 36.
 * 0 when v is 0 (the article's overflow guard). */
double race_radius_classic(double v, double turn_rate, double dt, int ticks);

/* The fastest speed at which a vehicle at `pos`, heading `heading`, turning
 * at most turn_rate (radians/s) each tick of dt, can still pass within
 * `reach` of `target` by turning towards it (the target outside, or not
 * deeper than reach inside, its exact turning circle).  +inf when any speed
 * will do. */
double race_reach_speed(vec2 pos, double heading, vec2 target, double reach,
                        double turn_rate, double dt);

/* 1 when the segment a-b passes no tree of w (the skip rule's line of
 * sight). */
int race_clear(const struct world *w, vec2 a, vec2 b);

/* 1 when no car with params p (ticks of dt) can touch waypoint k of the
 * route wp (n waypoints) once it has reached k - 1: on its first tick out
 * of k - 1's disc it is nearer k + 1 than k, with no tree between, and
 * the skip rule passes k (--check's warning; 0 on a route of 3 or less,
 * where that rule asks more). */
struct vehicle_params;
struct waypoint;
int race_skipped_at_once(const struct world *w, const struct waypoint *wp, int n,
                         const struct vehicle_params *p, double dt, int k);

/* Frees the cache of racing lines (steer = line, race_line.h). */
struct race_plans;
void race_plans_free(struct race_plans *c);

#endif
