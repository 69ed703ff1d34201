/* explain.h — the decision record: the numbers behind each choice a
 * vehicle made this tick, written by the deciders while they decide.
 *
 * The record completes what the tick already keeps for its readers: the
 * avoidance record (vehicle.avoid), the sight records (w->now.sights, with the
 * threshold that applied and why), the aim record (world_aim) and the race
 * record (racer.info).  This adds what those lack: the wander turn and its
 * rule, avoidance's chosen turn and speed with the predictive candidates'
 * scores, and the corner a car brakes for.  The inspector and the trace's
 * `decide` lines both print these records; neither computes a decision
 * again.
 *
 * Records cost nothing unless asked for: only when w->explain is set (the
 * viewer always, a headless run with --trace-decisions) does the decide
 * stage give each decision a record (decision.why); otherwise why is NULL
 * and the deciders skip every line that would fill it. */
#ifndef BOTFIELD_EXPLAIN_H
#define BOTFIELD_EXPLAIN_H

#include <stddef.h>

#include "decide.h"
#include "names.h"

struct world;
struct tick_ctx;

/* Why a wander turn is being made (the trace's and the inspector's words). */
#define WANDER_RULE_LIST(X)                                             \
    X(WANDER_NONE, "none") X(WANDER_RANDOM, "random") X(WANDER_EDGE, "edge")
enum wander_rule { WANDER_RULE_LIST(NAMES_ENUM) };
#define WANDER_RULE_COUNT (0 WANDER_RULE_LIST(NAMES_COUNT))
extern const char *const wander_rule_names[WANDER_RULE_COUNT + 1];

/* Predictive avoidance's candidate motions: 7 turns (3 right .. 3 left,
 * in thirds of the turn rate) times 3 speeds (full, half, stop). */
#define EXPLAIN_TURN_STEPS 3
#define EXPLAIN_SPEEDS 3
#define EXPLAIN_CANDS ((2 * EXPLAIN_TURN_STEPS + 1) * EXPLAIN_SPEEDS)

struct explain_wander {
    int ran;                /* the wander row decided this tick */
    enum wander_rule rule;  /* of the turn in progress (NONE: straight) */
    double drawn;           /* radians drawn this tick, signed (+: right);
                               0: no new turn */
    double turn;            /* radians turned this tick */
    double left;            /* radians still to turn after this tick */
    double margin;          /* the edge rule's distance from the edge */
    /* an edge turn drawn this tick: the clearance each side would keep;
     * the side with more wins, random when alike (side_random) */
    double clear_right, clear_left;
    int side_random;
};

struct explain_avoid {
    int ran;                /* the avoidance row decided this tick */
    double planned;         /* the drive row's turn it started from */
    double turn, speed;     /* what it left: this tick's turn and speed */
    int postponed;          /* a wander turn waits while it steers */
    /* predictive, on a tick it re-planned against a threat: every
     * candidate's cost (lower is better) and the one chosen */
    int planned_now;
    int chosen;             /* index: turn step 3 - c / 3, speed c % 3 */
    double cost[EXPLAIN_CANDS];
    unsigned char tried[EXPLAIN_CANDS]; /* 0: pruned, cost is its lower
                                           bound (the deviation alone) */
    double cand_turn[EXPLAIN_CANDS];    /* radians this tick */
    double cand_speed[EXPLAIN_CANDS];
};

struct explain_race {
    int ran;
    double reach_speed;     /* the circle rule: fastest speed that still
                               reaches the next waypoint (+inf: any) */
    int corner;             /* the waypoint whose corner sets the speed,
                               -1: none */
    double corner_speed;    /* the speed allowed at that corner */
    double corner_dist;     /* distance left before its braking must end */
    double allowed;         /* the speed allowed now for that corner */
};

/* A vehicle a Lua bot drives (written by src/bot/, the core runs none):
 * its cost this tick against its budget, and its error. */
struct explain_bot {
    int ran;
    long instructions, budget;  /* VM instructions used, allowed */
    size_t heap, memory;        /* Lua heap bytes in use, allowed */
    int abandoned;              /* this tick broke a limit or raised */
    int disabled;               /* stopped for good */
    const char *error;          /* the bot's report's ("" none): valid
                                   until its next tick */
};

struct explain {
    long tick;              /* the tick it was made on */
    struct intent want;     /* the decision's intent, as act applied it
                               (a fused tick keeps no decisions: tick.c) */
    struct explain_bot bot;
    struct explain_wander wander;
    struct explain_avoid avoid;
    struct explain_race race;
};

/* The decide stage: vehicle i's record for this tick, cleared, or NULL
 * when nobody reads records (w->explain off) or memory ran out. */
struct explain *explain_start(const struct world *w, struct tick_ctx *c, int i);

/* The avoidance row's part, once it decided: the turn it started from,
 * what it left in d, and whether the wander turn was postponed. */
struct decision;
void explain_avoid_done(struct explain *e, double planned,
                        const struct decision *d, int postponed);

/* Predictive avoidance's candidates as its search starts: each one's
 * turn this tick (step: the turn rate times dt) and speed, its cost's
 * lower bound; explain_cand() then keeps each cost it works out. */
void explain_cands(struct explain_avoid *x, const double *bound, double step,
                   double cruise, const double *fracs);
static inline void explain_cand(struct explain_avoid *x, int c, double cost)
{
    x->cost[c] = cost;
    x->tried[c] = 1;
}

/* Vehicle i's record of the last step, NULL when none was made (records
 * off, a wreck when the step began, before the first step, or a world
 * stepped back since).  A vehicle knocked out by the step keeps the
 * record of what it decided before. */
const struct explain *world_explain(const struct world *w, int i);

#endif
