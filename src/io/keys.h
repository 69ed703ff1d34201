/* keys.h — the one declarative table of map keys (the man page's MAP FORMAT).
 *
 * Each row says which sections take the key, its type, its range, its
 * default and a line of help; the loader parses and validates from it, its
 * error messages quote it, and the man page's key list is printed from it.
 * A key whose default differs by section (radius, turn_rate, heading) has
 * one row per group of sections.
 *
 * A default the core also needs (a world built without a map file: every
 * vehicle setting, the [map] numbers, laps, [sight]) is not written here
 * but in src/core/params.def; such a row has KEY_CORE_DEFAULT and
 * key_defaults() reads its value from the core.  Other defaults (e.g.
 * [trees] radius) are the row's text. */
#ifndef BOTFIELD_KEYS_H
#define BOTFIELD_KEYS_H

#include <stddef.h>

enum section_kind {
    SEC_MAP = 1 << 0, SEC_TREES = 1 << 1, SEC_TREE = 1 << 2,
    SEC_TEAM = 1 << 3, SEC_TANK = 1 << 4, SEC_TURRET = 1 << 5,
    SEC_TRACK = 1 << 6, SEC_WAYPOINT = 1 << 7, SEC_CAR = 1 << 8,
    SEC_SIGHT = 1 << 9, SEC_MATCH = 1 << 10
};
#define SEC_NKINDS 11

enum key_type {
    KEY_NUM,        /* double in [min, max] (min excluded when min_open) */
    KEY_COUNT,      /* whole number in [min, max], stored as int */
    KEY_SEED,       /* whole number 0 .. 2^64-1, stored as uint64_t */
    KEY_ANGLE,      /* any finite degrees, stored as radians in (-pi, pi] */
    KEY_DEG,        /* degrees in [min, max], stored as radians */
    KEY_STRING,     /* text, stored as char * (malloc'd) */
    KEY_ENUM,       /* one of names[], stored as int */
    KEY_TEAM,       /* a declared team, resolved by the loader */
    KEY_XYR_LIST,   /* "x y r, x y r, ...", resolved by the loader */
    KEY_ROUTE,      /* an x y r list or the word "track" */
    KEY_BOT_PATH    /* a Lua script: a relative path ending in .lua that
                       stays inside the map's folder (resolved by the
                       loader; the file itself is read by src/bot/) */
};

/* Which structure a row's offset points into. */
enum key_target { TGT_MAP, TGT_TREES, TGT_XYR, TGT_TEAM, TGT_VEHICLE,
                  TGT_TRACK, TGT_SIGHT, TGT_MATCH };

#define KEY_REQUIRED 1      /* must be given in the section */
#define KEY_MIN_OPEN 2      /* the minimum itself is not allowed */
#define KEY_NO_TEAM 4       /* a tank key that a team cannot set */
#define KEY_CORE_DEFAULT 8  /* the default is the core's (see above) */

struct key_def {
    unsigned sections;      /* SEC_* mask */
    const char *name;
    enum key_type type;
    double min, max;
    unsigned flags;
    const char *def;        /* default as text; NULL: none, computed or
                               the core's */
    const char *def_doc;    /* how the default reads in the man page */
    const char *help;
    const char *const *names;   /* KEY_ENUM: NULL-terminated */
    enum key_target target;
    size_t offset;
};

extern const struct key_def key_table[];
extern const size_t key_table_len;

/* Section names as written in a file, by kind bit position. */
extern const char *const section_names[SEC_NKINDS];

/* The row for key `name` in a section of kind `kind`, or NULL. */
const struct key_def *key_find(unsigned kind, const char *name);

/* The known key of `kind` closest to `name` (edit distance), or NULL when
 * nothing is close enough to be a likely typo. */
const char *key_suggest(unsigned kind, const char *name);

/* The other kinds of section that have key `name`, as "[trees],
 * [team.NAME]" in buf: how many (0: none, buf empty).  For the message
 * of a key written in the wrong section. */
int key_other_sections(unsigned kind, const char *name, char *buf, size_t size);

/* Writes "expected ..." for a row into buf. */
void key_allowed(const struct key_def *k, char *buf, size_t size);

/* Edit distance, for the suggestions of keys and sections. */
int key_distance(const char *a, const char *b);

/* The structures the offsets point into. */
#include <stdint.h>
#include "../core/world.h"

struct map_settings {
    char *name;
    double width, height, cell;
    uint64_t seed;
    double tick_rate, duration;
};

/* [match] */
struct match_settings { int rounds; };

struct trees_settings {
    int random;
    double radius, min_radius, max_radius;
};

struct xyr { double x, y, r; };

struct team_settings { int color; int random; };

struct vehicle_spec {
    struct vehicle_params p;
    double x, y, heading;
    int bot_budget, bot_memory;     /* the bot's limits (KiB for memory) */
};

struct track_settings { int laps; };

/* The core's defaults (KEY_CORE_DEFAULT rows), in the structures the rows'
 * offsets point into. */
struct key_defaults {
    struct map_settings map;
    struct track_settings track;
    struct sight_config sight;
    struct vehicle_spec vehicle[VEHICLE_KIND_COUNT];   /* by vehicle kind */
};
void key_defaults(struct key_defaults *d);

/* The default of row k in a section of kind `kind` as the man page says
 * it ("20", "wander", "by order"), or "" when it has none. */
void key_default_text(const struct key_def *k, unsigned kind,
                      const struct key_defaults *d, char *buf, size_t size);

#endif
