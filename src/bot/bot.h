/* bot.h — the Lua bot layer: one sandboxed Lua 5.4 state per vehicle.
 *
 * This layer knows nothing of the simulation: the caller fills a plain
 * struct bot_view (what the vehicle knows this tick), passes the
 * vehicle's own random generator and a table of callbacks for the
 * built-in methods, and gets back a struct bot_out (the intents) and a
 * struct bot_report (cost, errors, log lines, drawings).  The only core
 * header it includes is rng.h.
 *
 * Angles: the view and the intents are in DEGREES, as the script sees
 * them (botfield-bots(7): "angles are degrees with the map's convention"); the
 * glue converts from and to the core's radians.
 *
 * Clamping is the engine's job: bot_tick() only checks that each intent
 * is a finite number (or a boolean for fire).  The engine then clamps turn
 * to +-turn_rate, speed to [0, max_speed] (and a car's accel/brake),
 * turns the turret at turret_rate toward `turret`, and fires only when
 * loaded.
 *
 * Determinism: everything a script can observe is a function of the
 * script, the views, the rng and the callbacks' results, with one outside
 * input pinned here: Lua compares strings with strcoll(), so bot_new()
 * sets LC_COLLATE to "C" for the process (main.c takes LC_ALL from the
 * environment).  Numbers print with LC_NUMERIC, which main.c keeps "C". */
#ifndef BOTFIELD_BOT_H
#define BOTFIELD_BOT_H

#include <stddef.h>
#include <stdio.h>

#include "core/rng.h"
#include "io/bot_limits.h"

/* ---- limits (map keys bot_budget, bot_memory) ---------------------------- */
/* the keys' ranges and defaults: io/bot_limits.h */
/* Lua's own bytes may reach this many times bot_memory (plus 1 MiB): the
 * backstop behind bot_memory's count (bot.c, the allocator). */
#define BOT_HEAP_HARD 4
/* Instructions charged for each call of a built-in method (aim.*, avoid.*,
 * race.*, wander, sight.hidden_from, world.trees): they run in C, outside
 * the instruction count, so each costs this flat amount plus, for
 * world.trees, one per tree returned. */
#define BOT_CALL_COST 200
/* init and the script's top level get this many times the budget. */
#define BOT_INIT_FACTOR 10
/* A backstop, not a rule: a call still running after this much CPU time
 * (some single VM instructions copy whole stacks) is abandoned and the bot
 * disabled, since the budget did not bound it.  Never reached by a script
 * inside its budget on a sane machine. */
#define BOT_CPU_SECONDS 2.0

struct bot_limits {
    long budget;            /* VM instructions per tick */
    size_t memory_bytes;    /* heap cap; a quarter of it newly allocated per tick */
};

/* ---- the script ------------------------------------------------------------ */
struct bot_script {
    char *path;             /* as written in the map (the chunk name) */
    unsigned char *bytes;
    size_t len;
    char sha256[65];        /* hex of the bytes */
};

/* Reads map_dir/rel under the path rules: rel relative, ending in ".lua",
 * resolving (with its symbolic links) to a regular file inside map_dir,
 * at most BOT_SCRIPT_MAX bytes.  0, or -1 with err filled (the error
 * never quotes a file's contents nor tells whether a file outside map_dir
 * exists). */
int bot_script_read(const char *map_dir, const char *rel, struct bot_script *out,
                    char *err, size_t errlen);
/* The same rules' checks on bytes already in memory (tests, fuzzing). */
int bot_script_from_bytes(const char *path, const void *bytes, size_t len,
                          struct bot_script *out, char *err, size_t errlen);
void bot_script_free(struct bot_script *s);
/* The path rules of bot_script_read() without the file: relative, ending
 * in .lua, never above the map's folder.  0, or -1 with err. */
int bot_script_check_path(const char *rel, char *err, size_t n);

/* src copied into dst (n bytes, cut at a whole character, NUL-ended)
 * with what a terminal would act on written as Lua escapes: C0 controls
 * and DEL as \ddd, C1 controls (U+0080 to U+009F) as \u{XX}, a byte
 * that is not UTF-8 as \ddd; other UTF-8 text as it is.  The errors
 * this layer gives its caller pass through it: a stranger's map path or
 * script text must not reach a terminal raw (--check prints them). */
void bot_text_escape(char *dst, size_t n, const char *src);

/* ---- what the vehicle knows (angles in degrees) ------------------------ */
struct bot_enemy {
    int handle;             /* opaque to this layer; given back to aim.* */
    const char *id;         /* "tank.3", as in the trace */
    double x, y, heading, speed;
    double visible;         /* the sight's visible fraction */
    double distance, bearing;
    const char *kind;       /* "tank", "turret", "car" */
    double health;          /* hits left */
};

struct bot_ally { const char *id; double x, y, heading, speed; };
/* A shell in flight this vehicle sees (or fired: mine). */
struct bot_shell {
    long id;                /* the trace's `shell` */
    double x, y, heading, speed;
    const char *team;       /* its shooter's team, as me.team names it */
    int mine;
};
struct bot_waypoint { double x, y, r; };
struct bot_tree { double x, y, r; };

/* One event of the previous tick: a type and the fields of its trace line,
 * named and typed as there ({"type":"hit","tick":7,"shooter":"turret.1",...}
 * becomes {type="hit", tick=7, shooter="turret.1", ...}); a null (a shot's
 * absent target) is no field, and a waypoint's index counts from 1, as
 * world.waypoints does (src/core/events.def, the one list of fields). */
#define BOT_EVENT_FIELDS 10
struct bot_field {
    const char *name;
    const char *str;        /* a string field, or NULL: the number */
    double num;
};
enum { BOT_FIELD_NUM, BOT_FIELD_INT, BOT_FIELD_BOOL };
struct bot_event {
    const char *type;
    int n_fields;
    struct bot_field fields[BOT_EVENT_FIELDS];
    /* for a number field (str NULL), how Lua gets it: BOT_FIELD_NUM (0, a
     * float), _INT (an integer: tick, shell, index) or _BOOL (seen, ok) */
    unsigned char kind[BOT_EVENT_FIELDS];
};

/* One of world.messages: what an ally (or I) said last tick (out.say),
 * in the encoding bot_said gives. */
struct bot_message {
    const char *from;       /* the sender's id */
    const unsigned char *data;
    size_t len;
};

struct bot_calls;
struct bot_out;

struct bot_view {
    /* me */
    const char *id;         /* "tank.1" */
    const char *kind;       /* "tank", "turret", "car" */
    const char *team;
    double x, y, heading, speed, turret;
    int gun_ready;
    double reload_left, health;
    double radius, max_speed, turn_rate, turret_rate, shell_speed, range,
           fov, view_range;
    /* a car's own limits (is_car): the engine clamps its speed with them
     * and a racer's brake rule reads them, so a script can too */
    int is_car;
    double accel, brake, min_speed, back_angle;
    /* where its view cone points (not a car's: cars do not look):
     * "hull", "turret" or "radar", the radar's direction and turn rate */
    const char *sensor;
    double radar, radar_rate;
    /* world */
    long tick;
    int round, rounds;      /* world.round, world.rounds (round.h) */
    double time, dt, width, height;
    const struct bot_enemy *enemies; size_t n_enemies;
    const struct bot_ally *allies; size_t n_allies;
    const struct bot_waypoint *waypoints; size_t n_waypoints;
    /* Or, when set, world.allies and world.waypoints made when the script
     * first reads them: each returns the count and, when put is not NULL,
     * calls put(arg, k, item) for k = 0, 1, ... in order (ctx: the calls'
     * ctx).  A map of 20,000 bots of one team copied every ally into every
     * bot's view each tick: 17 GB, and 150 s for a tick. */
    size_t (*allies_of)(void *ctx, void (*put)(void *arg, size_t k, const struct bot_ally *a),
                        void *arg);
    size_t (*waypoints_of)(void *ctx,
                           void (*put)(void *arg, size_t k, const struct bot_waypoint *w),
                           void *arg);
    /* world.messages, made when the script first reads it (as allies):
     * the count, and put(arg, k, m) for each when put is not NULL; NULL:
     * an empty list */
    size_t (*messages_of)(void *ctx,
                          void (*put)(void *arg, size_t k, const struct bot_message *m),
                          void *arg);
    /* world.shells, made when the script first reads it: the count and
     * the list in *out (the ctx's, valid for this call), in the shells'
     * order (by id); NULL: none.  Each read looks at every shell in
     * flight (shells_total): beyond BOT_SHELLS_FREE, a quarter
     * instruction each, charged before the look. */
    size_t (*shells_of)(void *ctx, const struct bot_shell **out);
    size_t shells_total;
    int next_waypoint;      /* 1-based; 0 when none */
    const struct bot_event *events; size_t n_events;
    /* the trees the trees callback examines per call (the map's): beyond
     * BOT_TREES_FREE, world.trees costs a quarter instruction for each */
    size_t trees_total;
    /* set by the hidden_from callback: the trees and spans its query
     * went through; beyond BOT_SIGHT_FREE, charged (BOT_SIGHT_COST each) */
    size_t call_work;
    /* math.random's generator (the vehicle's own stream; advanced) */
    struct rng *rng;
    /* the built-in methods; NULL, or a NULL member: that call raises
     * "not available for this vehicle" */
    const struct bot_calls *calls;
    void *ctx;              /* passed back to every callback */
};

/* Callbacks for the built-ins.  Each returns 0 on success, -1 for "none"
 * (aim: *reason filled, a static string).  Angles in degrees. */
struct bot_calls {
    int (*aim_exact)(void *ctx, int handle, double *dir, double *t_impact,
                     const char **reason);
    int (*aim_classic)(void *ctx, int handle, double *dir, double *t_impact,
                       const char **reason);
    int (*avoid_predictive)(void *ctx, double heading, double speed,
                            double *turn, double *speed_out);
    int (*avoid_classic)(void *ctx, double heading, double speed,
                         double *turn, double *speed_out);
    int (*race_exact)(void *ctx, double *turn, double *speed);
    int (*race_classic)(void *ctx, double *turn, double *speed);
    int (*wander)(void *ctx, double *turn, double *speed);
    int (*hidden_from)(void *ctx, double x, double y, double *fraction);
    /* Up to max trees within r of me into out; returns the count. */
    size_t (*trees)(void *ctx, double r, struct bot_tree *out, size_t max);
    /* race.line(): the planned racing line's decision (steer = line) */
    int (*race_line)(void *ctx, double *turn, double *speed);
    /* agent.observe(K, R): my observation as libbotfield's agents get it
     * (K nearest 0..BOT_OBSERVE_NEAREST, R rays 0..BOT_OBSERVE_RAYS) into
     * out (room for max floats); returns the count, or -1.  Sets the
     * view's call_work to the things its rays and shell scan looked at. */
    int (*observe)(void *ctx, int K, int R, float *out, size_t max);
    /* agent.act(a): an agent's action (5 numbers checked in [-1, 1]) as
     * the intents libbotfield gives it; 0, or -1 */
    int (*act)(void *ctx, const double a[5], struct bot_out *o);
};
#define BOT_TREES_MAX 256
#define BOT_TREES_FREE 1024
#define BOT_SHELLS_FREE 1024
#define BOT_SIGHT_FREE 256
#define BOT_SIGHT_COST 4
/* agent.observe(): its limits (libbotfield's), the most floats it
 * gives, and the looks (rays x vehicles + shells) free in a call */
#define BOT_OBSERVE_NEAREST 16
#define BOT_OBSERVE_RAYS 64
#define BOT_OBSERVE_MAX (12 + 11 * BOT_OBSERVE_NEAREST + BOT_OBSERVE_RAYS)
#define BOT_OBSERVE_FREE 1024

/* ---- what the bot decided ------------------------------------------------- */
struct bot_out {
    double turn;            /* deg/s */
    double speed;
    double turret;          /* absolute direction, deg */
    int fire;
    double radar;           /* absolute direction, deg (sensor = radar) */
};

#define BOT_LOG_LINES 8
#define BOT_LOG_BYTES 200
#define BOT_SHAPES_MAX 256
#define BOT_ERR_BYTES 512
#define BOT_TRACE_BYTES 2048
#define BOT_TEXT_BYTES 64
#define BOT_DISABLE_AFTER 60

enum bot_shape_kind { BOT_LINE, BOT_CIRCLE, BOT_TEXT, BOT_MARK };

struct bot_shape {
    enum bot_shape_kind kind;
    double x1, y1, x2, y2;  /* circle: x2 is the radius */
    char color[16];         /* a colour name; "" = the default */
    char text[BOT_TEXT_BYTES];
};

struct bot_report {
    long instructions;      /* counted this call (hook steps + charges) */
    int count_step;         /* the hook's step: counts below it read as 0 */
    size_t heap;            /* bytes of Lua heap in use after the call */
    size_t data;            /* bytes of data as bot_memory counts them, at
                               the last count (bot_heap.c) */
    size_t heap_peak;       /* highest heap in use so far */
    int abandoned;          /* this tick broke a limit or raised an error */
    char error[BOT_ERR_BYTES];          /* "" when none */
    char traceback[BOT_TRACE_BYTES];
    int n_log;
    char log[BOT_LOG_LINES][BOT_LOG_BYTES + 1];
    int n_shapes;
    struct bot_shape shapes[BOT_SHAPES_MAX];
    int abandoned_in_row;
    int disabled;
    char disabled_reason[BOT_ERR_BYTES];
};

struct bot;

/* A fresh state: the sandbox, the script (text only) run once with
 * BOT_INIT_FACTOR times the budget, a global function tick required.
 * NULL with err "path:line: message" on failure. */
struct bot *bot_new(const struct bot_script *s, struct bot_limits lim,
                    char *err, size_t errlen);
void bot_free(struct bot *b);

/* init(me, mem) if the script defines it (BOT_INIT_FACTOR x budget, and
 * the whole heap as its allocation cap).  Its log lines are read back
 * with bot_init_report.
 * 0, or -1 with err (the bot stays usable: an init error is that
 * tick's error, as botfield-bots(7) treats any other call). */
int bot_init(struct bot *b, const struct bot_view *v, char *err, size_t n);
/* What the last bot_init logged (its n_log and log lines; its drawings
 * are dropped, as the viewer draws only a tick's), until the next call on
 * b: botfield-bots(7) puts every log line in the trace, init's too. */
const struct bot_report *bot_init_report(const struct bot *b);

/* tick(me, world, mem, out).  Always fills *out (the defaults when the
 * tick is abandoned; stop when disabled) and *rep.  Returns 0 when the
 * script's intents were taken, -1 when the tick was abandoned or the bot
 * is disabled. */
int bot_tick(struct bot *b, const struct bot_view *v, struct bot_out *out,
             struct bot_report *rep);

/* out.say: at most BOT_SAY_BYTES once encoded (after a 4-byte head). */
#define BOT_SAY_BYTES 256
#define BOT_SAY_ENCODED (4 + BOT_SAY_BYTES)
/* What the last bot_tick's script put in out.say, encoded (plain data, as
 * mem); NULL (and *len 0) when it said nothing or the tick was abandoned.
 * Valid until the next call on b. */
const unsigned char *bot_said(const struct bot *b, size_t *len);
/* The say's bytes as JSON (an array for keys 1..n, else an object with
 * the keys as strings): 0, or -1 on bad bytes. */
int bot_value_json(FILE *f, const unsigned char *buf, size_t len);

/* mem as plain data, a deterministic byte string (keys in pairs order).
 * -1 with err for a cycle, a function/userdata/thread value, a key of
 * another type, or nesting deeper than BOT_MEM_DEPTH. */
#define BOT_MEM_DEPTH 64
int bot_mem_save(struct bot *b, unsigned char **buf, size_t *len, char *err,
                 size_t n);
/* Replaces mem with the decoded data.  -1 (mem unchanged) on bad bytes or
 * when the data does not fit the heap. */
int bot_mem_load(struct bot *b, const unsigned char *buf, size_t len);

/* New script bytes: a new state is built, mem moved into it, and only then
 * the old state dropped; on any failure the old bot keeps running and err
 * says why.  A reload also clears the disabled state.  It does not run
 * init (botfield-bots(7) is silent): mem already holds what init set up, as after
 * a step back (bot_new + bot_mem_load), where init does not run either. */
int bot_reload(struct bot *b, const struct bot_script *s, char *err, size_t n);

int bot_disabled(const struct bot *b);
/* What the engine keeps of a bot besides its Lua state: abandoned ticks
 * in a row and whether (and why) it is disabled.  A step back restores it
 * with mem (bot_new + bot_mem_load + bot_run_state_set): the past it
 * returns to had them too, or a replayed tick would disable the bot at
 * another tick, or run a bot that was disabled then. */
struct bot_run_state {
    int in_row;
    int disabled;
    char reason[BOT_ERR_BYTES];
    /* when bot_memory's next count comes: the last count and the debt
     * since (bot.c), so a rebuilt bot is counted at the same points */
    size_t data, debt;
};
void bot_run_state_get(const struct bot *b, struct bot_run_state *st);
void bot_run_state_set(struct bot *b, const struct bot_run_state *st);
/* Disables the bot from outside (until a reload); its next tick reports
 * "bot disabled until its script is reloaded: <reason>" once. */
void bot_disable(struct bot *b, const char *reason);
const char *bot_lua_version(void);     /* "Lua 5.4.4" */
/* Whether each call's report counts its instructions exactly (the probe
 * that finds the hook's count left costs up to a step's worth of
 * instructions a call, so it runs only where the figure is shown: the
 * inspector, --trace-decisions); off, the figure is a multiple of the
 * step.  The budget, the limits and the run are the same either way. */
void bot_set_exact_count(struct bot *b, int on);
/* Tests and benchmarks: the instruction-count step (1 = exact counts,
 * slower; the default is 1000). */
void bot_set_count_step(struct bot *b, int step);

#endif
