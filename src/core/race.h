/* race.h — waypoint steering, speed rules, laps (seeds/003).
 *
 *   none     always max_speed;
 *   classic  the article: turning circle from 10 projected ticks, r = v^2/a;
 *   exact    ours: the motion model's exact radius and a look-ahead brake.
 * race_decide() is the decide phase for a car (or a patrolling tank);
 * race_detect() is the detect phase: waypoints reached or skipped, laps,
 * finishes, with their events. */
#ifndef BOTFIELD_RACE_H
#define BOTFIELD_RACE_H

#include "vec.h"

struct world;

enum brake_reason { BRAKE_NONE, BRAKE_CIRCLE, BRAKE_BLIND_SPOT, BRAKE_AHEAD };

/* Progress along the route, kept across ticks. */
struct race_state {
    int next;               /* index of the waypoint being driven to */
    int laps;               /* laps completed */
    int started;            /* has left the start (waypoint 0 reached once) */
    double lap_start;       /* simulated time the current lap began */
    double best_lap;        /* 0: none yet */
    int finished;
    double finish_time;
};

/* What the speed rule decided this tick. */
struct race_info {
    int next;
    vec2 circle_c;          /* turning circle at the current speed */
    double circle_r;
    int turn_dir;           /* -1 left, +1 right, 0 straight */
    enum brake_reason reason;
    double target_speed;
};

void race_decide(struct world *w, int i);
void race_detect(struct world *w);

#endif
