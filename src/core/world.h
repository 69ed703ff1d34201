/* world.h — everything a simulation is, in five groups (struct world):
 * the map (trees, teams, the track: fixed once world_finish ran), the
 * state (vehicles, shells, the counters of the summary: what a snapshot
 * saves and state_hash hashes), this tick's products (w->now: events,
 * sight and aim records, for the trace, the bots and the viewer), the
 * tick's scratch (w->scratch: never read after the tick) and the run's
 * settings (the brain, explain, threads).
 *
 * A world is made by the map loader (io/map.c) or directly by tests:
 *   world_init(&w, width, height) ... world_add_tree / world_add_vehicle ...
 *   world_finish(&w)   builds the tree grid and starts the run; then
 *   tick_step(&w) advances one fixed step (tick.h).
 * There is no global state: two worlds can run side by side.  Vehicles are
 * referred to by index (they are never removed; a knocked-out one stays as a
 * wreck) plus the generation of the world state they were taken from. */
#ifndef BOTFIELD_WORLD_H
#define BOTFIELD_WORLD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vec.h"
#include "rng.h"
#include "grid.h"
#include "avoid/avoid.h"
#include "sight/sight.h"
#include "aim/aim.h"
#include "race/race.h"
#include "decide.h"
#include "player.h"

#include "names.h"
#include "params.h"

/* The trace's and the viewer's names of the kinds (see names.h). */
#define VEHICLE_KIND_LIST(X)                                            \
    X(VK_TANK, "tank") X(VK_TURRET, "turret") X(VK_CAR, "car")
enum vehicle_kind { VEHICLE_KIND_LIST(NAMES_ENUM) };
#define VEHICLE_KIND_COUNT (0 VEHICLE_KIND_LIST(NAMES_COUNT))
extern const char *const vehicle_kind_names[VEHICLE_KIND_COUNT + 1];

struct waypoint { vec2 c; double r; };

#define TEAM_NAME_MAX 48
struct team {
    char name[TEAM_NAME_MAX];
    int color;              /* index into the colour names, see world_colors */
    int vehicles;           /* tanks and turrets it started with */
    int alive;              /* of those, still alive */
    int knockouts;          /* of those, knocked out */
};

/* What a vehicle scored (score.h): survival is kept here only once it
 * is knocked out (while alive it is its enemies' knockouts so far). */
struct vehicle_score {
    int damage, kills, survival, last;
};

struct params_slot;          /* world.c */
struct id_chunk;             /* world.c */

/* Where a car or a patrolling tank is along its route: only racers have
 * one (w->racers, vehicle.racer), so the tick loops over the crowd never
 * stream through it. */
struct racer {
    int vehicle;            /* index in w->vehicles */
    struct race_state race; /* lasts across ticks */
    struct race_info info;  /* what the speed rule decided this tick */
};

/* The hot fields come first: the decide, act and grid passes stream over
 * every vehicle each tick, so what they read sits in the first cache
 * lines; the settings are shared (p), what only the viewer reads is at
 * the end, and race progress lives in w->racers. */
struct vehicle {
    /* the first cache line: all the neighbour grid's two passes over the
     * vehicles read (state that lasts across ticks) */
    vec2 pos;
    vec2 dir;               /* v2_dir(heading), kept with it (act and the
                               neighbour grid read it every tick; set both
                               with vehicle_set_heading) */
    double speed;           /* current speed */
    const struct vehicle_params *p;  /* shared, interned by the world;
                                        world_params_mut() to change one */
    int alive;
    enum vehicle_kind kind;
    int team;               /* index in w->teams; -1 for cars */
    int touching_edge;
    /* the second: the rest of what act reads */
    double heading;         /* hull (turret: fixed at facing) */
    double turret;          /* absolute turret direction */
    double radar;           /* absolute radar direction (sensor = radar;
                               otherwise it stays at its start) */
    int health;
    int racer;              /* index in w->racers, -1: none */
    uint32_t gen;           /* bumped when knocked out */
    struct rng rng;         /* this vehicle's own stream */
    struct wander_state wander;
    struct aim_state gun;
    /* its records in w->now.sights; written by the sense stage's thread for
     * this observer, so kept off the lines other observers read of it as
     * a target (pos, heading, speed: sight_shape_of); a wreck's count is
     * 0 and its first left as it was (an empty list's first is never
     * read: the sense stage writes a wreck once, not every tick) */
    int sight_first, sight_count;

    /* what was decided this tick, for the viewer and the tests */
    struct avoid_info avoid;
    vec2 from;              /* the position as this tick began: the shell
                               phase's swept test reads it for every
                               potential target, so it stays here */
    int aim_slot;           /* its aim_info in w->now.aims this tick, -1 when
                               it sought none (see world_aim); set by act */
    const char *id;         /* "tank.1", "car.a", ...: in the world's id
                               pool, never moved or freed before it */
    struct vehicle_score score;     /* state: read at the end of a run */
};

static inline void vehicle_set_heading(struct vehicle *v, double heading)
{
    v->heading = heading;
    v->dir = v2_dir(heading);
}

/* Where a vehicle's view cone points: the one place that says so, for
 * sight, the senses a bot reads and the viewer's cones.  Its sensor
 * (key sensor) is on the hull (the heading: a turret's hull is fixed at
 * its facing), on the turret, or a radar that turns on its own. */
static inline double vehicle_sensor_angle(const struct vehicle *v)
{
    switch (v->p->sensor) {
    case SENSOR_TURRET: return v->turret;
    case SENSOR_RADAR: return v->radar;
    default: return v->heading;
    }
}

/* The same as a unit vector (the hull's is kept in dir already). */
static inline vec2 vehicle_sensor_dir(const struct vehicle *v)
{
    return v->p->sensor == SENSOR_HULL ? v->dir : v2_dir(vehicle_sensor_angle(v));
}

/* The top speed a driver may ask of v: a tank's cruising speed, a car's
 * max_speed; a turret stands (a bot's me.max_speed, an agent's speed). */
static inline double vehicle_top_speed(const struct vehicle *v)
{
    return v->kind == VK_TANK ? v->p->speed : v->kind == VK_CAR ? v->p->max_speed : 0;
}

struct sight_config {
    double threshold, moving_threshold, edge_threshold, edge;
    int samples;
};

/* The kinds of event, by the name of their trace lines: events.def, with
 * the fields of each (events.h). */
enum event_kind {
#define EVENT_KIND(id, name) id,
#include "events.def"
};
enum { EVENT_KIND_COUNT = 0
#define EVENT_KIND(id, name) + 1
#include "events.def"
};
extern const char *const event_kind_names[EVENT_KIND_COUNT + 1];

/* Why a shell missed (the trace's miss lines). */
#define MISS_REASON_LIST(X)                                             \
    X(MISS_TREE, "tree") X(MISS_RANGE, "range") X(MISS_EDGE, "edge")
enum miss_reason { MISS_REASON_LIST(NAMES_ENUM) };
#define MISS_REASON_COUNT (0 MISS_REASON_LIST(NAMES_COUNT))
extern const char *const miss_reason_names[MISS_REASON_COUNT + 1];

/* One event of the current tick.  a and b are vehicle indices (-1: none);
 * the union holds what the event's trace line needs beyond them. */
struct event {
    enum event_kind kind;
    int a, b;
    union {
        struct { double distance; } collision;
        struct { double visible; int seen; enum sight_method method; } sight;
        struct { int ok; enum aim_reason reason; double x, y, t_impact;
                 int iterations; enum aim_method method; } aim;
        struct { double x, y, heading; long shell; } shot;
        struct { long shell; double x, y; } hit;    /* where the shell met it */
        struct { enum miss_reason reason; long shell; double x, y; } miss;
        struct { int index; } waypoint;
        struct { int lap; double time; int clean; } lap;
        struct { double time; } finish;
    } u;
};

/* A vehicle that a Lua bot decides for: the map's `bot`, `bot_budget` and
 * `bot_memory`, as plain data.  The core runs no Lua: src/bot/ reads the
 * script and registers a brain (decide.h) that owns these vehicles. */
struct world_bot {
    int vehicle;            /* index in w->vehicles */
    char *path;             /* as written in the map, relative to its folder */
    char *where;            /* "map.ini:12: [tank.a] bot = x.lua", for errors */
    long budget;            /* instructions per tick */
    long memory_kib;
    char sha256[65];        /* of the script's bytes, once src/bot/ read
                               it ("" before): the trace's bot_sha256 */
};

/* The counters behind the summary line. */
struct world_stats {
    long collisions;
    double min_separation;  /* +inf while fewer than two vehicles */
    long edge_hits;
    long shots, hits;
};

/* A growable array: p, n used, cap allocated. */
#define WORLD_ARRAY(T) struct { T *p; size_t n, cap; }

/* What a tick makes for its readers after it (the trace, the bots, the
 * viewer, the tests): rebuilt every tick, so no snapshot saves it (the
 * aims apart: the viewer shows the guns of a tick stepped back to). */
struct tick_products {
    /* the tick's events but its `sight` events, which are the records
       below (sight_event_of: one each, in order, before all these) */
    WORLD_ARRAY(struct event) events;
    WORLD_ARRAY(struct sight_record) sights;
    WORLD_ARRAY(struct sight_interval) sight_intervals;
    struct sight_store sight_store;     /* the records' cells and trees
                                           (sight.h; the viewer draws
                                           them) */
    WORLD_ARRAY(struct aim_info) aims;  /* the guns that sought a
                                           solution (vehicle.aim_slot) */
    WORLD_ARRAY(float) aim_steps;       /* probe times, see aim_info */
};

/* What a tick uses and nobody reads after it: owned and reused from tick
 * to tick, never state, never a product. */
struct tick_scratch {
    struct tick_ctx *ctx;               /* the stages' buffers (decide.h) */
    struct vehicle_grid vgrid;          /* the vehicles at the start of
                                           a tick: a cache the grid stage
                                           rebuilds whenever vgrid_tick
                                           is not w->tick */
    long vgrid_tick;
    /* the tick whose sense stage tick_sense_ahead() ran already (-1:
     * none): that tick keeps its records */
    long sensed_tick;
};

struct world {
    /* the map: fixed once world_finish() ran */
    char *name;
    double width, height;
    double cell;
    uint64_t seed;
    double tick_rate, dt;
    double duration;
    struct sight_config sight;
    int track_laps;

    WORLD_ARRAY(struct tree) trees;
    WORLD_ARRAY(struct team) teams;
    WORLD_ARRAY(struct waypoint) track;
    WORLD_ARRAY(struct waypoint) route_points;
    struct tree_grid tree_grid;
    WORLD_ARRAY(struct world_bot) bots; /* vehicles with a Lua bot */
    char *map_path;                     /* the map file as given; NULL:
                                           the built-in map */
    const char *bot_engine;             /* "Lua 5.4.4" once bots run,
                                           for the trace header */
    int rounds;                         /* [match] rounds: 1 to 1000 */
    char *round_text;                   /* the map's text (its --set
                                           written in), to build each
                                           next round's start from; NULL
                                           with one round (round.h) */
    size_t round_text_len;
    /* Builds round r's start (the map loaded with round r's seed) into
     * *fresh: registered by the map loader when a match's trees are
     * random, so differ by round; NULL: every round has the first's
     * trees.  A hook because the core reads no map: a round's trees are
     * what the loader draws from its seed, and their placement of the
     * random tanks with them (world_round_trees).  0, or -1. */
    int (*round_map)(const struct world *w, int r, struct world *fresh);
    int trees_round;                    /* whose trees w holds (round_map) */
    unsigned trees_version;             /* bumped when they change: the
                                           viewer's ground is redrawn */

    /* the vehicles' settings: interned copies, never moved or freed
     * before the world (vehicle.p points at them) */
    WORLD_ARRAY(struct params_slot *) params;
    int *params_hash; size_t params_hash_cap;   /* open addressing, -1: free */

    /* the vehicles' ids, packed in chunks that never move (a crowd's
     * 100,000 short ids would otherwise be as many allocations, each
     * with its own overhead); freed with the world */
    struct id_chunk *ids;

    /* the state: what a snapshot saves (world_snapshot_save) and
     * state_hash hashes, with the teams' alive and knockouts counts.  No
     * struct of its own: a snapshot still copies each array and hashes
     * field by field (pointers, padding), so it would only rename ~1000
     * uses of w->vehicles, w->tick... */
    long tick;
    WORLD_ARRAY(struct vehicle) vehicles;
    WORLD_ARRAY(struct racer) racers;
    WORLD_ARRAY(struct shell) shells;
    WORLD_ARRAY(uint64_t) overlaps;     /* sorted pairs (a << 32 | b) */
    struct world_stats stats;
    int ended;                          /* battle won or race finished */
    int winner;                         /* team index, -1: none */
    struct player_state player;         /* the keyboard's tank and the
                                           intents it holds (player.h) */
    int round;                          /* the round running, from 1 */
    long round_start;                   /* the tick it started on */
    WORLD_ARRAY(int) round_winners;     /* the rounds before it: each
                                           one's winning team, -1: none */
    WORLD_ARRAY(struct vehicle_score) round_totals;  /* each vehicle's
                                           scores summed over the rounds
                                           before it (none: no round yet) */

    /* this tick's products (struct tick_products) and its scratch
     * (struct tick_scratch): never state */
    struct tick_products now;
    struct tick_scratch scratch;

    /* the run's settings: who decides, what is explained, on how many
     * threads */
    /* decides for the vehicles it owns instead of the built-in rows (a
     * Lua bot, registered by src/bot/); NULL: none */
    const struct brain *brain;

    /* keep a decision record per vehicle (explain.h): the viewer, and
     * headless runs with --trace-decisions */
    int explain;

    /* threads for the sense and decide stages (--threads): 0 or 1 run
     * them in the calling thread; the trace is the same for any number
     * (par.h) */
    int threads;
    /* the fewest live vehicles in teams worth waking the threads for:
     * 0 is PAR_MIN_LIVE, -1 none (the tests, BOTFIELD_THREADS_ALWAYS) */
    int threads_min;
};

/* Where a turn by `turn` this tick leaves v: its heading, normalised, and
 * its unit direction.  The direction is v's turned by the rotation of
 * `turn`, renormalised (one Newton step, so its length cannot drift), not
 * v2_dir(heading) afresh: turns come in a few fixed sizes (a step of the
 * turn rate, or thirds of it), so their cos and sin are cached in the
 * tick context, and a turning tank costs no sincos.  Direction and heading then
 * agree to rounding (an angle error that grows like the square root of the
 * number of turns, about 1e-13 radians after a million), and the result
 * depends only on v and turn: deterministic, whatever the cache holds.
 * The act phase applies it; the predictive speed limit, which must move
 * along exactly the direction act will, asks it too. */
static inline void vehicle_turned(struct turn_cache *tc, const struct vehicle *v,
                                  double turn, double *heading, vec2 *dir)
{
    double h = v->heading + turn;
    /* angle_norm() is the identity on (-pi, pi]: no remainder() call. */
    *heading = h > -M_PI && h <= M_PI ? h : angle_norm(h);
    if (turn == 0) {
        *dir = v->dir;
        return;
    }
    uint64_t bits;
    memcpy(&bits, &turn, sizeof bits);
    unsigned k = (unsigned)((bits * 0x9E3779B97F4A7C15u) >> 60);
    if (!(tc->slot[k].turn == turn)) {
        tc->slot[k].turn = turn;
        tc->slot[k].c = cos(turn);
        tc->slot[k].s = sin(turn);
    }
    double c = tc->slot[k].c, s = tc->slot[k].s;
    double x = v->dir.x * c - v->dir.y * s, y = v->dir.y * c + v->dir.x * s;
    double f = 1.5 - 0.5 * (x * x + y * y);
    *dir = v2(x * f, y * f);
}

/* Read-only access for decision code (decide_guard.h poisons the arrays'
 * names there). */
#ifdef BOTFIELD_CHECK_FUSED
/* aborts when the fused decide+act sweep (act.c) has moved vehicle i */
void world_fused_check(const struct world *w, int i);
#endif
static inline const struct vehicle *world_vehicle(const struct world *w, int i)
{
#ifdef BOTFIELD_CHECK_FUSED
    world_fused_check(w, i);
#endif
    return &w->vehicles.p[i];
}
static inline size_t world_nvehicles(const struct world *w)
{
    return w->vehicles.n;
}
/* The shells in flight as the tick began (a decision's read). */
static inline size_t world_nshells(const struct world *w)
{
    return w->shells.n;
}
static inline const struct shell *world_shell(const struct world *w, size_t k)
{
    return &w->shells.p[k];
}
static inline const struct sight_record *world_sight(const struct world *w, int k)
{
    return &w->now.sights.p[k];
}
/* The vehicle sight record k shows as seen this tick, or -1: the enemies
 * a shooter may aim at (the aim row) and a bot's world.enemies. */
static inline int world_sight_seen(const struct world *w, int k)
{
    const struct sight_record *r = world_sight(w, k);
    return r->seen && r->target >= 0 && (size_t)r->target < world_nvehicles(w)
           ? r->target : -1;
}

/* The vehicle grid's bounds (the largest radius and |speed| in it), for
 * decision code, which may not name w->scratch.vgrid (decide_guard.h). */
static inline double world_vgrid_max_radius(const struct world *w)
{
    return w->scratch.vgrid.max_radius;
}
static inline double world_vgrid_max_speed(const struct world *w)
{
    return w->scratch.vgrid.max_speed;
}

/* Colour names a team may use, in the order teams get them by default
 * (NULL-terminated: the key table reads it as an enum's names). */
#define WORLD_NCOLORS 7
extern const char *const world_colors[WORLD_NCOLORS + 1];

/* Entity limit of a map (trees included). */
#define WORLD_MAX_ENTITIES 1000000

void world_init(struct world *w, double width, double height);
void world_free(struct world *w);

/* Default settings of a vehicle of this kind (params.def). */
void world_default_params(struct vehicle_params *p, enum vehicle_kind kind);

/* Adders return the new index, or -1 when memory ran out. */
int world_add_tree(struct world *w, vec2 c, double r);
int world_add_team(struct world *w, const char *name, int color);
int world_add_waypoint(struct world *w, vec2 c, double r);
int world_add_route_point(struct world *w, vec2 c, double r);
int world_add_vehicle(struct world *w, const char *id, enum vehicle_kind kind,
                      int team, const struct vehicle_params *p, vec2 pos,
                      double heading);

/* Builds the tree grid, seeds every vehicle's stream and starts the run.
 * Returns 0, or -1 when memory ran out. */
int world_finish(struct world *w);

/* Vehicle i's settings, made its own (copied out of the shared pool the
 * first time) so a test or benchmark can change them after loading.
 * NULL when memory ran out. */
struct vehicle_params *world_params_mut(struct world *w, int i);

/* Vehicle i takes the settings p from now on (a live tuning): an interned
 * copy, so the slot it had is left as it was and a snapshot taken before
 * still points at the old settings (stepping back restores them).  0, or
 * -1 when memory ran out. */
int world_set_params(struct world *w, int i, const struct vehicle_params *p);

/* The largest radius among the settings vehicles have had (an upper
 * bound for every vehicle's; cheap: one per distinct setting). */
double world_max_radius(const struct world *w);

/* What vehicle v's gun decided this tick, NULL when it sought no
 * solution (no target, a car, a wreck). */
static inline const struct aim_info *world_aim(const struct world *w,
                                               const struct vehicle *v)
{
    return v->aim_slot >= 0 && (size_t)v->aim_slot < w->now.aims.n
         ? &w->now.aims.p[v->aim_slot] : NULL;
}

/* The race progress of vehicle v, NULL when it is no racer. */
static inline const struct racer *world_racer(const struct world *w,
                                              const struct vehicle *v)
{
    return v->racer >= 0 ? &w->racers.p[v->racer] : NULL;
}

/* Its race progress by value, zeroed for a vehicle that is no racer (for
 * readers: the viewer, the trace, the tests). */
static inline struct race_state world_race_state(const struct world *w,
                                                 const struct vehicle *v)
{
    struct race_state s = { 0 };
    if (v->racer >= 0)
        s = w->racers.p[v->racer].race;
    return s;
}

/* Says that vehicle i is driven by the bot script `path` (copied).  0, or
 * -1 when memory ran out. */
int world_add_bot(struct world *w, int i, const char *path, const char *where,
                  long budget, long memory_kib);
/* 1 when a Lua bot drives vehicle i (the map's `bot` key). */
int world_is_bot(const struct world *w, int i);

int world_find_team(const struct world *w, const char *name);
int world_find_vehicle(const struct world *w, const char *id);

/* The next waypoint list a vehicle drives: the track or its own route. */
const struct waypoint *world_route(const struct world *w,
                                   const struct vehicle *v, int *count);

/* Appends an event of this tick; returns it zeroed but for kind/a/b, or
 * NULL when memory ran out (the event is then lost, never half written). */
struct event *world_event(struct world *w, enum event_kind kind, int a, int b);

/* Grows a WORLD_ARRAY to hold at least need elements; 0 or -1. */
int world_array_reserve(void *arr, size_t need, size_t elem);
#define WORLD_RESERVE(a, need) world_array_reserve(&(a), (need), sizeof *(a).p)

/* A copy of the state part of a world (vehicles, shells, overlaps, stats,
 * tick, and the guns' records the vehicles refer to): what the viewer
 * keeps to step back.  The map part is shared with
 * the world it came from and must outlive the snapshot. */
struct world_snapshot {
    long tick;
    struct vehicle *vehicles; size_t nvehicles;
    struct racer *racers; size_t nracers;
    struct shell *shells; size_t nshells;
    uint64_t *overlaps; size_t noverlaps;
    struct aim_info *aims; size_t naims;    /* what vehicle.aim_slot
                                               refers to, for the viewer */
    struct world_stats stats;
    int ended, winner;
    struct player_input player_in;
    int *team_alive, *team_knockouts;
    int round; long round_start;
    int *round_winners; size_t nround_winners;
    struct vehicle_score *round_totals; size_t nround_totals;
};
int world_snapshot_save(const struct world *w, struct world_snapshot *s);
/* A tick's products and scratch freed (world_free), or the products
 * emptied, their storage kept (world_snapshot_restore: the aims apart). */
void tick_products_free(struct tick_products *now);
void tick_products_clear(struct tick_products *now);
void tick_scratch_free(struct tick_scratch *scratch);
/* Restores the state; this tick's products are cleared. 0 or -1. */
int world_snapshot_restore(struct world *w, const struct world_snapshot *s);
/* w takes from's trees and tree grid (from gets w's, freed with it) as
 * round r's: a round's start moved in, or a step back across one. */
void world_take_trees(struct world *w, struct world *from, int r);
void world_snapshot_free(struct world_snapshot *s);

#endif
