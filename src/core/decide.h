/* decide.h — what a decision may write, and the tick's scratch.
 *
 * A decision (a row of the behaviour table, a brain) gets a `const struct
 * decide_view *`, the vehicle's index and its own `struct decision *`.
 * It reads the world as it was at the start of the tick through the
 * view's `const struct world *` and the const accessors of world.h, and
 * the tick's products made before any decision (struct decide_tick: the
 * racing lines, the all-pairs maxima) through a pointer to const.  It
 * writes only its own decision -- the intent (turn, speed, turret turn,
 * fire), the next value of the vehicle's own lasting decision state (its
 * generator, wander, gun and avoidance plan), its record for readers --,
 * its racer's record (view->race), and its lane's scratch (the aim store,
 * the neighbour list, the turn cache: one lane a thread).  The decisions
 * live in the tick context, not in struct vehicle, and no decision sees
 * it; the act stage applies them all together, so no decision can see
 * another's outcome and the order of the vehicles never changes a result.
 *
 * The compiler holds decisions to this: every pointer of the view but the
 * lane's and the racer record's points to const, and a file of decision
 * code includes "decide_guard.h" after its other headers, which poisons
 * the names of the world's members that hold pointers to data that is not
 * const (its arrays, grids, stores, tick context).  tests/source/decide-readonly.sh
 * compiles each such write and expects it refused; `make lint` refuses
 * casts to pointers to non-const in those files.  Not enforced: pointer
 * arithmetic on the view's two writable pointers (view->race[1]). */
#ifndef BOTFIELD_DECIDE_H
#define BOTFIELD_DECIDE_H

#include <stddef.h>

#include "rng.h"
#include "aim/aim.h"
#include "avoid/avoid.h"
#include "race/race.h"
#include "grid.h"
#include "shell_index.h"

struct world;
struct explain;

/* Per-vehicle wander state (random turns and the edge turn). */
struct wander_state {
    double turn_left;       /* radians still to turn, signed (+: right) */
    int edge_turn;          /* the pending turn is an edge turn */
};

/* What a vehicle wants this tick; act clamps nothing the deciders have
 * already kept within the vehicle's limits (a bot's intent is clamped by
 * the bot row before it lands here). */
struct intent {
    double turn;            /* signed radians this tick (+: clockwise) */
    double speed;
    double turret;          /* signed radians of turret turn this tick */
    double radar;           /* signed radians of radar turn this tick
                               (sensor = radar; +: clockwise) */
    int fire;
};

struct decision {
    struct intent want;
    int aim_slot;               /* its record in the tick's aim store,
                                   -1: it sought no solution (beside the
                                   intent: a wreck's decision is one
                                   cache line) */
    /* the vehicle's own lasting state as it will be after this tick,
     * copied in from the vehicle when the tick's decisions start */
    struct rng rng;
    struct wander_state wander;
    struct aim_state gun;
    struct avoid_info avoid;    /* record and the held predictive plan */
    struct explain *why;        /* its decision record (explain.h), NULL:
                                   nobody reads one, fill nothing */
};

/* cos and sin of the turns vehicles made lately (see vehicle_turned): a
 * cache, direct-mapped by the turn's bits; an empty slot holds turn 0,
 * which is never looked up.  What it holds never changes a result, only
 * how soon it comes. */
struct turn_cache { struct { double turn, c, s; } slot[16]; };

/* A lane: the scratch one thread of decisions writes (the tick's own
 * lane, or one per block on threads: act.c).  The aim records and
 * solver probes its decisions append, the neighbour list of predictive
 * avoidance past 64, the turn cache, and whether memory ran out. */
struct decide_lane {
    struct aim_info *aims; size_t naims, aimcap;  /* guns with a target */
    float *steps; size_t nsteps, stepcap;   /* their solvers' probes */
    void *avoid_buf; size_t avoid_buf_cap;  /* predictive avoidance's
                                               neighbour list past 64 */
    struct turn_cache turns;
    int failed;                             /* memory ran out */
};

struct race_plan;

/* What the tick computes for its decisions before any decides (tick.c:
 * decide_tick_make): read-only to them, so no decision fills a cache
 * another one reads. */
struct decide_tick {
    /* the all-pairs avoidance's widest radius and fastest speed of the
     * tick's start (avoid_brute only) */
    double brute_maxr, brute_maxs;
    int avoid_brute;        /* avoidance by all-pairs search (tick_options) */
    /* racer r's racing line (steer = line, race_line.h), NULL: none */
    const struct race_plan *const *plan;
    /* the shells in flight by cell, during the decide stage (act.c);
     * NULL: walk them all */
    const struct shell_index *shell_idx;
};

/* All a decision sees: every pointer in it points to const but its
 * lane's, and its own racer's record (NULL: no racer).  The world is read
 * through world.h's const accessors (decide_guard.h poisons the rest). */
struct decide_view {
    const struct world *w;
    const struct decide_tick *tick;
    struct decide_lane *lane;
    struct race_info *race;
};


/* Switches for tests and benchmarks (tick_set_options): how the tick
 * computes, never what (each pair of ways gives the same bytes, which
 * the tests check).  Not part of the world's state. */
struct tick_options {
    int avoid_brute;        /* avoidance by all-pairs search, not the grid */
    int unfused;            /* decide and act always as two passes (the
                               oracle of the fused sweep, act.c) */
};

/* The tick's scratch: reused from tick to tick, never part of the state
 * (a snapshot neither saves nor needs it; a world stepped from a restored
 * snapshot with a fresh context gives the same bytes). */
struct tick_ctx {
    struct decision *d; size_t dcap;        /* one per vehicle */
    struct race_info *race; size_t racecap; /* one per racer */
    struct decide_lane lane;                /* the one-thread decisions'
                                               scratch (act.c: each
                                               lane's own) */
    struct explain *why; size_t whycap;     /* decision records, one per
                                               vehicle, when w->explain */
    struct race_plans *plans;               /* racing lines, built on first
                                               use (race_line.h) */
    const struct race_plan **plan_of;       /* tick.plan: one per racer */
    size_t plan_ofcap;
    struct decide_tick tick;                /* made before decide */
    struct shell_index shell_index;         /* tick.shell_idx's */
    int failed;                             /* memory ran out this tick */
    /* the fused pass's entries of the vehicles as they end the tick, for
     * the detect stage's grid (tick.c); valid when ready */
    struct vgrid_entry *entries; size_t nentries, entcap;
    double entries_maxr, entries_maxs;
    int entries_ready;
    struct par_state *par;                  /* the threads' buffers
                                               (par.h), NULL: none yet */
    double *times;                          /* a benchmark's stage clocks
                                               (stages.h), NULL: none */
    int kept;                               /* d holds this tick's
                                               decisions (not after a
                                               fused pass: tick.c) */
    struct tick_options opts;               /* the tests' switches */
    /* during the fused decide+act sweep (act.c), the vehicles already
     * moved are [0, acted) (0 outside it): the sanitizer build's
     * world_vehicle() refuses a decision's read of one */
    int acted;
    /* The threads' lanes lie side by side (act.c): a cache line
     * of room keeps one lane's counters off the line the next one
     * writes. */
    char pad_[64];
};

/* One row of the behaviour table: a named decision, what it needs of the
 * stages before it, and the vehicles it decides for.  Rows run in table
 * order for each vehicle; each sees the decision the rows before it wrote
 * (the drive row's turn is what avoidance then adjusts). */
enum decide_needs { NEEDS_NOTHING = 0, NEEDS_GRID = 1, NEEDS_SIGHT = 2 };

/* The kinds of vehicle a row decides for, as bits (1 << enum
 * vehicle_kind): a mask, not a call, since every vehicle asks every row. */
#define DECIDE_TANK   (1u << 0)
#define DECIDE_TURRET (1u << 1)
#define DECIDE_CAR    (1u << 2)

struct decider {
    const char *name;
    unsigned needs;                         /* enum decide_needs bits */
    unsigned kinds;                         /* DECIDE_* bits */
    void (*decide)(const struct decide_view *v, int i, struct decision *d);
};

/* A vehicle whose decisions come from elsewhere (a Lua bot): the core
 * calls `decide` instead of the built-in rows for every vehicle `owns`
 * accepts.  Registered by the front end (src/bot/), so the core itself
 * knows nothing of Lua. */
struct brain {
    const char *name;
    void *user;
    int (*owns)(void *user, const struct world *w, int i);
    void (*decide)(void *user, const struct decide_view *v, int i,
                   struct decision *d);
    /* after each step (NULL: none): the tick's events are in the world */
    void (*after)(void *user, const struct world *w);
    /* 1 when decide may run for different vehicles on different threads
     * at once (act.c): it then writes only vehicle i's decision,
     * what it owns for vehicle i alone, and the view's lane (a thread's);
     * `after` still runs on one thread. */
    int threads_ok;
};

/* Appends an aim record to the lane's store; NULL when memory ran out. */
struct aim_info *lane_aim(struct decide_lane *l, int shooter, int *slot);
/* Copies n solver probes into the lane's store; where they start, or -1. */
int lane_steps(struct decide_lane *l, const float *steps, int n);

#endif
