#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "bot_limits.h"
#include "map.h"

const char *const section_names[SEC_NKINDS] = {
    "map", "trees", "tree.ID", "team.NAME", "tank.ID", "turret.ID",
    "track", "waypoint.N", "car.ID", "sight", "match"
};

#define VP(f) offsetof(struct vehicle_spec, p.f)
#define VS(f) offsetof(struct vehicle_spec, f)
#define BIG 1e7
/* The sections a tank key reaches: a team sets it for its tanks. */
#define TANKS (SEC_TANK | SEC_TEAM)
#define GUNS (SEC_TANK | SEC_TEAM | SEC_TURRET)

static const char *const bool_names[] = { "false", "true", NULL };
static const char *const yes_no_names[] = { "no", "yes", NULL };

/* A field a row leaves out is 0 or NULL: no range, flags, default, names
 * or offset (keys.h says what each means). */
const struct key_def key_table[] = {
    /* [map] */
    { .sections = SEC_MAP, .name = "name", .type = KEY_STRING, .def_doc = "file name",
      .help = "shown in the title bar and the trace header",
      .target = TGT_MAP, .offset = offsetof(struct map_settings, name) },
    { .sections = SEC_MAP, .name = "width", .type = KEY_NUM, .min = 0, .max = 1e6,
      .flags = KEY_REQUIRED | KEY_MIN_OPEN,
      .help = "map width",
      .target = TGT_MAP, .offset = offsetof(struct map_settings, width) },
    { .sections = SEC_MAP, .name = "height", .type = KEY_NUM, .min = 0, .max = 1e6,
      .flags = KEY_REQUIRED | KEY_MIN_OPEN,
      .help = "map height",
      .target = TGT_MAP, .offset = offsetof(struct map_settings, height) },
    { .sections = SEC_MAP, .name = "cell", .type = KEY_NUM, .min = 0, .max = 1e6,
      .flags = KEY_MIN_OPEN | KEY_CORE_DEFAULT,
      .help = "side of a square cell of the tree grid",
      .target = TGT_MAP, .offset = offsetof(struct map_settings, cell) },
    { .sections = SEC_MAP, .name = "seed", .type = KEY_SEED,
      .min = 0, .max = 18446744073709551615.0, .flags = KEY_CORE_DEFAULT,
      .help = "seed of every random choice; --seed overrides it",
      .target = TGT_MAP, .offset = offsetof(struct map_settings, seed) },
    { .sections = SEC_MAP, .name = "tick_rate", .type = KEY_NUM, .min = 1, .max = 1000,
      .flags = KEY_CORE_DEFAULT,
      .help = "ticks per simulated second",
      .target = TGT_MAP, .offset = offsetof(struct map_settings, tick_rate) },
    { .sections = SEC_MAP, .name = "duration", .type = KEY_NUM, .min = 0, .max = 1e6,
      .flags = KEY_MIN_OPEN | KEY_CORE_DEFAULT,
      .help = "seconds a run lasts (headless: unless --ticks or --seconds; the viewer stops there)",
      .target = TGT_MAP, .offset = offsetof(struct map_settings, duration) },

    /* [trees] */
    { .sections = SEC_TREES, .name = "random", .type = KEY_COUNT, .min = 0, .max = 1e6, .def = "0",
      .help = "trees placed at random (seeded), wholly inside the map",
      .target = TGT_TREES, .offset = offsetof(struct trees_settings, random) },
    { .sections = SEC_TREES, .name = "radius", .type = KEY_NUM, .min = 0, .max = 1e5,
      .flags = KEY_MIN_OPEN, .def = "20",
      .help = "radius of a random tree",
      .target = TGT_TREES, .offset = offsetof(struct trees_settings, radius) },
    { .sections = SEC_TREES, .name = "min_radius", .type = KEY_NUM, .min = 0, .max = 1e5,
      .flags = KEY_MIN_OPEN, .def_doc = "radius",
      .help = "smallest radius of a random tree (with max_radius)",
      .target = TGT_TREES, .offset = offsetof(struct trees_settings, min_radius) },
    { .sections = SEC_TREES, .name = "max_radius", .type = KEY_NUM, .min = 0, .max = 1e5,
      .flags = KEY_MIN_OPEN, .def_doc = "radius",
      .help = "largest radius of a random tree (with min_radius)",
      .target = TGT_TREES, .offset = offsetof(struct trees_settings, max_radius) },
    { .sections = SEC_TREES, .name = "at", .type = KEY_XYR_LIST, .def_doc = "none",
      .help = "explicit trees: x y r triples separated by commas",
      .target = TGT_TREES },

    /* [tree.ID] and [waypoint.N] */
    { .sections = SEC_TREE | SEC_WAYPOINT, .name = "x", .type = KEY_NUM, .min = -BIG, .max = BIG,
      .flags = KEY_REQUIRED,
      .help = "centre x",
      .target = TGT_XYR, .offset = offsetof(struct xyr, x) },
    { .sections = SEC_TREE | SEC_WAYPOINT, .name = "y", .type = KEY_NUM, .min = -BIG, .max = BIG,
      .flags = KEY_REQUIRED,
      .help = "centre y",
      .target = TGT_XYR, .offset = offsetof(struct xyr, y) },
    { .sections = SEC_TREE | SEC_WAYPOINT, .name = "r", .type = KEY_NUM, .min = 0, .max = 1e6,
      .flags = KEY_REQUIRED | KEY_MIN_OPEN,
      .help = "radius",
      .target = TGT_XYR, .offset = offsetof(struct xyr, r) },

    /* [team.NAME] (and every tank key below without KEY_NO_TEAM) */
    { .sections = SEC_TEAM, .name = "color", .type = KEY_ENUM, .def_doc = "by order",
      .help = "team colour",
      .names = world_colors, .target = TGT_TEAM, .offset = offsetof(struct team_settings, color) },
    { .sections = SEC_TEAM, .name = "random", .type = KEY_COUNT, .min = 0, .max = 1e6, .def = "0",
      .help = "tanks of this team placed at random, ids tank.TEAM.1, tank.TEAM.2, ...",
      .target = TGT_TEAM, .offset = offsetof(struct team_settings, random) },

    /* vehicles: position and heading */
    { .sections = SEC_TANK | SEC_TURRET, .name = "team", .type = KEY_TEAM,
      .flags = KEY_REQUIRED | KEY_NO_TEAM,
      .help = "a team declared with [team.NAME]",
      .target = TGT_VEHICLE },
    { .sections = SEC_TANK | SEC_TURRET | SEC_CAR, .name = "x", .type = KEY_NUM,
      .min = -BIG, .max = BIG, .flags = KEY_REQUIRED | KEY_NO_TEAM,
      .help = "start x, inside the map",
      .target = TGT_VEHICLE, .offset = VS(x) },
    { .sections = SEC_TANK | SEC_TURRET | SEC_CAR, .name = "y", .type = KEY_NUM,
      .min = -BIG, .max = BIG, .flags = KEY_REQUIRED | KEY_NO_TEAM,
      .help = "start y, inside the map",
      .target = TGT_VEHICLE, .offset = VS(y) },
    { .sections = TANKS, .name = "heading", .type = KEY_ANGLE, .def_doc = "random",
      .help = "start heading, degrees (0 = +x, 90 = +y)",
      .target = TGT_VEHICLE, .offset = VS(heading) },
    { .sections = SEC_CAR, .name = "heading", .type = KEY_ANGLE, .def_doc = "towards waypoint 0",
      .help = "start heading, degrees",
      .target = TGT_VEHICLE, .offset = VS(heading) },
    { .sections = SEC_TURRET, .name = "facing", .type = KEY_ANGLE, .flags = KEY_CORE_DEFAULT,
      .help = "centre of the view cone and start of the gun, degrees",
      .target = TGT_VEHICLE, .offset = VP(facing) },

    /* tank hull and motion */
    { .sections = TANKS, .name = "length", .type = KEY_NUM, .min = 0, .max = 1e4,
      .flags = KEY_MIN_OPEN | KEY_CORE_DEFAULT,
      .help = "hull length, along the heading (sight uses the hull's corners)",
      .target = TGT_VEHICLE, .offset = VP(length) },
    { .sections = TANKS, .name = "width", .type = KEY_NUM, .min = 0, .max = 1e4,
      .flags = KEY_MIN_OPEN | KEY_CORE_DEFAULT,
      .help = "hull width",
      .target = TGT_VEHICLE, .offset = VP(width) },
    { .sections = TANKS, .name = "radius", .type = KEY_NUM, .min = 0, .max = 1e4,
      .flags = KEY_MIN_OPEN | KEY_CORE_DEFAULT,
      .help = "collision circle",
      .target = TGT_VEHICLE, .offset = VP(radius) },
    { .sections = SEC_TURRET, .name = "radius", .type = KEY_NUM, .min = 0, .max = 1e4,
      .flags = KEY_MIN_OPEN | KEY_CORE_DEFAULT,
      .help = "collision circle",
      .target = TGT_VEHICLE, .offset = VP(radius) },
    { .sections = SEC_CAR, .name = "radius", .type = KEY_NUM, .min = 0, .max = 1e4,
      .flags = KEY_MIN_OPEN | KEY_CORE_DEFAULT,
      .help = "the car's circle (waypoints and collisions)",
      .target = TGT_VEHICLE, .offset = VP(radius) },
    { .sections = TANKS, .name = "speed", .type = KEY_NUM, .min = 0, .max = 1e4,
      .flags = KEY_MIN_OPEN | KEY_CORE_DEFAULT,
      .help = "cruising speed",
      .target = TGT_VEHICLE, .offset = VP(speed) },
    { .sections = TANKS, .name = "turn_rate", .type = KEY_DEG, .min = 0, .max = 36000,
      .flags = KEY_MIN_OPEN | KEY_CORE_DEFAULT,
      .help = "hull turn rate, degrees per second",
      .target = TGT_VEHICLE, .offset = VP(turn_rate) },
    { .sections = SEC_CAR, .name = "turn_rate", .type = KEY_DEG, .min = 0, .max = 36000,
      .flags = KEY_MIN_OPEN | KEY_CORE_DEFAULT,
      .help = "turn rate, degrees per second",
      .target = TGT_VEHICLE, .offset = VP(turn_rate) },
    { .sections = TANKS, .name = "behaviour", .type = KEY_ENUM, .flags = KEY_CORE_DEFAULT,
      .help = "how it drives",
      .names = drive_names, .target = TGT_VEHICLE, .offset = VP(drive) },
    { .sections = SEC_TANK, .name = "player", .type = KEY_ENUM,
      .flags = KEY_NO_TEAM | KEY_CORE_DEFAULT,
      .help = "true: driven from the keyboard in the viewer's drive mode (D) instead of its "
              "behaviour; headless it holds still. At most one tank per map, never with a bot",
      .names = bool_names, .target = TGT_VEHICLE, .offset = VP(player) },
    { .sections = TANKS, .name = "route", .type = KEY_ROUTE, .def_doc = "none",
      .help = "for patrol: x y r waypoints separated by commas, or the word track",
      .target = TGT_VEHICLE },
    { .sections = SEC_TANK | SEC_TEAM | SEC_TURRET | SEC_CAR, .name = "bot", .type = KEY_BOT_PATH,
      .def_doc = "none",
      .help = "a Lua script that decides for it instead of the built-in behaviours: a relative "
              "path ending in .lua inside the map's folder (see botfield-bots(7))",
      .target = TGT_VEHICLE },
    { .sections = SEC_TANK | SEC_TEAM | SEC_TURRET | SEC_CAR, .name = "bot_budget",
      .type = KEY_COUNT, .min = BOT_BUDGET_MIN, .max = BOT_BUDGET_MAX,
      .def = BOT_LIMIT_TEXT(BOT_BUDGET_DEFAULT_N),
      .help = "Lua instructions the bot may run per tick (init: ten times as many)",
      .target = TGT_VEHICLE, .offset = VS(bot_budget) },
    { .sections = SEC_TANK | SEC_TEAM | SEC_TURRET | SEC_CAR, .name = "bot_memory",
      .type = KEY_COUNT, .min = BOT_MEMORY_KIB_MIN, .max = BOT_MEMORY_KIB_MAX,
      .def = BOT_LIMIT_TEXT(BOT_MEMORY_KIB_DEFAULT_N),
      .help = "KiB of data per bot, counted by what it holds (at most a quarter of it made in new "
              "strings, tables and functions in a tick)",
      .target = TGT_VEHICLE, .offset = VS(bot_memory) },
    { .sections = TANKS, .name = "avoid", .type = KEY_ENUM, .flags = KEY_CORE_DEFAULT,
      .help = "collision avoidance",
      .names = avoid_names, .target = TGT_VEHICLE, .offset = VP(avoid) },
    { .sections = TANKS, .name = "dodge", .type = KEY_ENUM, .flags = KEY_CORE_DEFAULT,
      .help = "yes: predictive avoidance steers clear of the shells in flight it sees "
              "(anyone's but its own) as of other tanks",
      .names = yes_no_names, .target = TGT_VEHICLE, .offset = VP(dodge) },
    { .sections = TANKS, .name = "collision_range", .type = KEY_NUM, .min = 0, .max = 1e6,
      .flags = KEY_MIN_OPEN | KEY_CORE_DEFAULT,
      .help = "how far classic avoidance looks for other tanks",
      .target = TGT_VEHICLE, .offset = VP(collision_range) },

    /* sight */
    { .sections = GUNS, .name = "fov", .type = KEY_DEG, .min = 0, .max = 360,
      .flags = KEY_MIN_OPEN | KEY_CORE_DEFAULT,
      .help = "full angle of the field of view, degrees (360 sees all round)",
      .target = TGT_VEHICLE, .offset = VP(fov) },
    { .sections = GUNS, .name = "view_range", .type = KEY_NUM, .min = 0, .max = 1e7,
      .flags = KEY_MIN_OPEN | KEY_CORE_DEFAULT,
      .help = "how far it can see",
      .target = TGT_VEHICLE, .offset = VP(view_range) },
    { .sections = GUNS, .name = "sight", .type = KEY_ENUM, .flags = KEY_CORE_DEFAULT,
      .help = "occlusion method",
      .names = sight_names, .target = TGT_VEHICLE, .offset = VP(sight) },
    { .sections = GUNS, .name = "sensor", .type = KEY_ENUM, .flags = KEY_CORE_DEFAULT,
      .help = "where the view cone points: hull (the heading), turret (the gun), or radar "
              "(turned on its own at radar_rate: a bot's out.radar, else clockwise)",
      .names = sensor_names, .target = TGT_VEHICLE, .offset = VP(sensor) },
    { .sections = GUNS, .name = "radar_rate", .type = KEY_DEG, .min = 1, .max = 3600,
      .flags = KEY_CORE_DEFAULT,
      .help = "radar turn rate, degrees per second (sensor = radar)",
      .target = TGT_VEHICLE, .offset = VP(radar_rate) },

    /* the gun */
    { .sections = GUNS, .name = "turret_rate", .type = KEY_DEG, .min = 0, .max = 36000,
      .flags = KEY_MIN_OPEN | KEY_CORE_DEFAULT,
      .help = "turret turn rate, degrees per second",
      .target = TGT_VEHICLE, .offset = VP(turret_rate) },
    { .sections = GUNS, .name = "shell_speed", .type = KEY_NUM, .min = 0, .max = 1e6,
      .flags = KEY_MIN_OPEN | KEY_CORE_DEFAULT,
      .help = "shell speed",
      .target = TGT_VEHICLE, .offset = VP(shell_speed) },
    { .sections = GUNS, .name = "range", .type = KEY_NUM, .min = 0, .max = 1e7,
      .flags = KEY_MIN_OPEN | KEY_CORE_DEFAULT,
      .help = "the longest shot it will take (and a shell's flight)",
      .target = TGT_VEHICLE, .offset = VP(range) },
    { .sections = GUNS, .name = "reload", .type = KEY_NUM, .min = 0, .max = 3600,
      .flags = KEY_MIN_OPEN | KEY_CORE_DEFAULT,
      .help = "seconds between shots",
      .target = TGT_VEHICLE, .offset = VP(reload) },
    { .sections = GUNS, .name = "aim", .type = KEY_ENUM, .flags = KEY_CORE_DEFAULT,
      .help = "intercept solver",
      .names = aim_names, .target = TGT_VEHICLE, .offset = VP(aim) },
    { .sections = GUNS, .name = "health", .type = KEY_COUNT, .min = 1, .max = 1e6,
      .flags = KEY_CORE_DEFAULT,
      .help = "hits it takes to be knocked out",
      .target = TGT_VEHICLE, .offset = VP(health) },

    /* cars */
    { .sections = SEC_CAR, .name = "max_speed", .type = KEY_NUM, .min = 0, .max = 1e5,
      .flags = KEY_MIN_OPEN | KEY_CORE_DEFAULT,
      .help = "top speed",
      .target = TGT_VEHICLE, .offset = VP(max_speed) },
    { .sections = SEC_CAR, .name = "min_speed", .type = KEY_NUM, .min = 0, .max = 1e5,
      .flags = KEY_CORE_DEFAULT,
      .help = "lowest speed when braking (at most max_speed)",
      .target = TGT_VEHICLE, .offset = VP(min_speed) },
    { .sections = SEC_CAR, .name = "accel", .type = KEY_NUM, .min = 0, .max = 1e6,
      .flags = KEY_MIN_OPEN | KEY_CORE_DEFAULT,
      .help = "speed gained per second",
      .target = TGT_VEHICLE, .offset = VP(accel) },
    { .sections = SEC_CAR, .name = "brake", .type = KEY_NUM, .min = 0, .max = 1e6,
      .flags = KEY_MIN_OPEN | KEY_CORE_DEFAULT,
      .help = "speed lost per second when braking",
      .target = TGT_VEHICLE, .offset = VP(brake) },
    { .sections = SEC_CAR, .name = "back_angle", .type = KEY_DEG, .min = 0, .max = 180,
      .flags = KEY_MIN_OPEN | KEY_CORE_DEFAULT,
      .help = "blind spot: brake while the next waypoint is further off the nose, degrees",
      .target = TGT_VEHICLE, .offset = VP(back_angle) },
    { .sections = SEC_CAR, .name = "speed_rule", .type = KEY_ENUM, .flags = KEY_CORE_DEFAULT,
      .help = "speed rule",
      .names = speed_rule_names, .target = TGT_VEHICLE, .offset = VP(speed_rule) },
    { .sections = SEC_CAR, .name = "steer", .type = KEY_ENUM, .flags = KEY_CORE_DEFAULT,
      .help = "steering: classic heads for the next waypoint, line follows a planned racing line "
              "at its own speeds (speed_rule unused)",
      .names = steer_names, .target = TGT_VEHICLE, .offset = VP(steer) },
    { .sections = SEC_CAR, .name = "color", .type = KEY_ENUM, .def_doc = "by order",
      .help = "colour the viewer draws the car in",
      .names = world_colors, .target = TGT_VEHICLE, .offset = VP(color) },

    /* [track] */
    { .sections = SEC_TRACK, .name = "waypoints", .type = KEY_XYR_LIST, .def_doc = "none",
      .help = "x y r triples separated by commas, in driving order (or, not with this key, "
              "[waypoint.N] sections: driven in increasing N, which may skip numbers)",
      .target = TGT_TRACK },
    { .sections = SEC_TRACK, .name = "laps", .type = KEY_COUNT, .min = 1, .max = 1e4,
      .flags = KEY_CORE_DEFAULT,
      .help = "laps in a race",
      .target = TGT_TRACK, .offset = offsetof(struct track_settings, laps) },

    /* [sight] */
    { .sections = SEC_SIGHT, .name = "threshold", .type = KEY_NUM, .min = 0, .max = 1,
      .flags = KEY_CORE_DEFAULT,
      .help = "fraction of a target that must be visible for it to count as seen",
      .target = TGT_SIGHT, .offset = offsetof(struct sight_config, threshold) },
    { .sections = SEC_SIGHT, .name = "moving_threshold", .type = KEY_NUM, .min = 0, .max = 1,
      .flags = KEY_CORE_DEFAULT,
      .help = "the threshold for a moving target",
      .target = TGT_SIGHT, .offset = offsetof(struct sight_config, moving_threshold) },
    { .sections = SEC_SIGHT, .name = "edge_threshold", .type = KEY_NUM, .min = 0, .max = 1,
      .flags = KEY_CORE_DEFAULT,
      .help = "the threshold near the edge of the view (wins over moving_threshold)",
      .target = TGT_SIGHT, .offset = offsetof(struct sight_config, edge_threshold) },
    { .sections = SEC_SIGHT, .name = "edge", .type = KEY_NUM, .min = 0, .max = 1,
      .flags = KEY_CORE_DEFAULT,
      .help = "near the edge: more than this fraction of fov/2 off the heading",
      .target = TGT_SIGHT, .offset = offsetof(struct sight_config, edge) },
    { .sections = SEC_SIGHT, .name = "samples", .type = KEY_COUNT, .min = 1, .max = 10000,
      .flags = KEY_CORE_DEFAULT,
      .help = "samples across the target for sight = classic",
      .target = TGT_SIGHT, .offset = offsetof(struct sight_config, samples) },

    /* [match] */
    { .sections = SEC_MATCH, .name = "rounds", .type = KEY_COUNT, .min = 1, .max = 1000,
      .def = "1",
      .help = "rounds of the match: each starts from the map anew with the seed "
              "seed + round - 1, the bots' mem kept (random trees and tanks drawn anew each round)",
      .target = TGT_MATCH, .offset = offsetof(struct match_settings, rounds) },
};
const size_t key_table_len = sizeof key_table / sizeof key_table[0];

const struct key_def *key_find(unsigned kind, const char *name)
{
    for (size_t i = 0; i < key_table_len; i++) {
        const struct key_def *k = &key_table[i];
        if (!(k->sections & kind) || strcmp(k->name, name) != 0)
            continue;
        if (kind == SEC_TEAM && k->sections != SEC_TEAM && (k->flags & KEY_NO_TEAM))
            continue;
        return k;
    }
    return NULL;
}

int key_other_sections(unsigned kind, const char *name, char *buf, size_t size)
{
    size_t at = 0;
    int n = 0;
    buf[0] = 0;
    for (unsigned b = 0; b < SEC_NKINDS; b++) {
        unsigned other = 1u << b;
        if (other == kind || !key_find(other, name) || at >= size)
            continue;
        int w = snprintf(buf + at, size - at, "%s[%s]", n ? ", " : "", section_names[b]);
        at += w > 0 ? (size_t)w : 0;
        n++;
    }
    return n;
}

int key_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 1000;
    int row[65];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const char *key_suggest(unsigned kind, const char *name)
{
    const char *best = NULL;
    int bestd = 1000;
    for (size_t i = 0; i < key_table_len; i++) {
        const struct key_def *k = &key_table[i];
        if (!(k->sections & kind) || key_find(kind, k->name) != k)
            continue;
        int d = key_distance(name, k->name);
        if (d < bestd) {
            bestd = d;
            best = k->name;
        }
    }
    /* Farther than a third of the word is no longer a typo. */
    size_t len = strlen(name);
    return best && bestd <= (int)(len / 3 > 2 ? len / 3 : 2) ? best : NULL;
}

static void fmt_num(char *buf, size_t size, double v)
{
    snprintf(buf, size, "%.15g", v);
}

void key_allowed(const struct key_def *k, char *buf, size_t size)
{
    char lo[40], hi[40];
    fmt_num(lo, sizeof lo, k->min);
    fmt_num(hi, sizeof hi, k->max);
    switch (k->type) {
    case KEY_NUM:
    case KEY_DEG:
        if (k->flags & KEY_MIN_OPEN)
            snprintf(buf, size, "expected more than %s, up to %s", lo, hi);
        else
            snprintf(buf, size, "expected %s to %s", lo, hi);
        break;
    case KEY_COUNT:
        snprintf(buf, size, "expected a whole number from %s to %s", lo, hi);
        break;
    case KEY_SEED:
        snprintf(buf, size, "expected a whole number from 0 to 18446744073709551615");
        break;
    case KEY_ANGLE:
        snprintf(buf, size, "expected an angle in degrees (any finite number)");
        break;
    case KEY_STRING:
        snprintf(buf, size, "expected text");
        break;
    case KEY_ENUM: {
        size_t n = (size_t)snprintf(buf, size, "expected one of:");
        for (int i = 0; k->names[i] && n < size; i++)
            n += (size_t)snprintf(buf + n, size - n, " %s", k->names[i]);
        break;
    }
    case KEY_TEAM:
        snprintf(buf, size, "expected the NAME of a [team.NAME] section");
        break;
    case KEY_XYR_LIST:
        snprintf(buf, size, "expected x y r triples separated by commas, e.g. 400 300 25, 900 1200 30");
        break;
    case KEY_ROUTE:
        snprintf(buf, size, "expected x y r triples separated by commas, or the word track");
        break;
    case KEY_BOT_PATH:
        snprintf(buf, size, "expected a relative path ending in .lua, inside the map's folder");
        break;
    }
}

/* ---- defaults ----------------------------------------------------------- */

void key_defaults(struct key_defaults *d)
{
    memset(d, 0, sizeof *d);
    struct world w;
    world_init(&w, 1, 1);
    d->map.cell = w.cell;
    d->map.seed = w.seed;
    d->map.tick_rate = w.tick_rate;
    d->map.duration = w.duration;
    d->track.laps = w.track_laps;
    d->sight = w.sight;
    world_free(&w);
    for (int k = 0; k < VEHICLE_KIND_COUNT; k++)
        world_default_params(&d->vehicle[k].p, (enum vehicle_kind)k);
}

/* Where row k's core default is, for a section of kind `kind`. */
static const void *core_default(const struct key_def *k, unsigned kind,
                                const struct key_defaults *d)
{
    const char *base = NULL;
    switch (k->target) {
    case TGT_MAP: base = (const char *)&d->map; break;
    case TGT_TRACK: base = (const char *)&d->track; break;
    case TGT_SIGHT: base = (const char *)&d->sight; break;
    case TGT_VEHICLE:
        /* A team's keys are its tanks' defaults. */
        base = (const char *)&d->vehicle[kind == SEC_TURRET ? VK_TURRET
                                         : kind == SEC_CAR ? VK_CAR : VK_TANK];
        break;
    default:
        return NULL;
    }
    return base + k->offset;
}

void key_default_text(const struct key_def *k, unsigned kind,
                      const struct key_defaults *d, char *buf, size_t size)
{
    const void *v = k->flags & KEY_CORE_DEFAULT ? core_default(k, kind, d) : NULL;
    if (!v) {
        snprintf(buf, size, "%s", k->def ? k->def : k->def_doc ? k->def_doc : "");
        return;
    }
    switch (k->type) {
    case KEY_NUM:
        snprintf(buf, size, "%.15g", *(const double *)v);
        break;
    case KEY_DEG:
    case KEY_ANGLE:
        /* Kept in radians: back to degrees, rounded off the last bits. */
        snprintf(buf, size, "%.10g", rad2deg(*(const double *)v));
        break;
    case KEY_COUNT:
        snprintf(buf, size, "%d", *(const int *)v);
        break;
    case KEY_SEED:
        snprintf(buf, size, "%llu", (unsigned long long)*(const uint64_t *)v);
        break;
    case KEY_ENUM:
        snprintf(buf, size, "%s", k->names[*(const int *)v]);
        break;
    default:
        snprintf(buf, size, "?");
        break;
    }
}

/* ---- the man page's key list -------------------------------------------- */

static void man_escape(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '-')
            fputs("\\-", f);
        else
            fputc(*s, f);
    }
}

char *map_keys_man(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    struct key_defaults defaults;
    key_defaults(&defaults);
    static const unsigned order[] = { SEC_MAP, SEC_TREES, SEC_TREE, SEC_TEAM, SEC_TANK,
                                      SEC_TURRET, SEC_TRACK, SEC_WAYPOINT, SEC_CAR, SEC_SIGHT,
                                      SEC_MATCH };
    for (size_t o = 0; o < sizeof order / sizeof order[0]; o++) {
        unsigned kind = order[o];
        fprintf(f, ".SS [%s]\n", section_names[__builtin_ctz(kind)]);
        if (kind == SEC_TEAM)
            fputs("Also every [tank.ID] key but team, x and y: the default for the team's tanks.\n", f);
        for (size_t i = 0; i < key_table_len; i++) {
            const struct key_def *k = &key_table[i];
            if (!(k->sections & kind) || key_find(kind, k->name) != k)
                continue;
            if (kind == SEC_TEAM && k->sections != SEC_TEAM)
                continue;
            char allowed[256], def[128];
            key_allowed(k, allowed, sizeof allowed);
            key_default_text(k, kind, &defaults, def, sizeof def);
            fputs(".TP\n.B ", f);
            man_escape(f, k->name);
            fputs("\n", f);
            man_escape(f, k->help);
            fputs(".\n", f);
            if (k->flags & KEY_REQUIRED)
                fputs("Required.\n", f);
            else if (*def) {
                fputs("Default: ", f);
                man_escape(f, def);
                fputs(".\n", f);
            }
            allowed[0] = (char)toupper((unsigned char)allowed[0]);
            man_escape(f, allowed);
            fputs(".\n", f);
        }
    }
    if (fclose(f)) {
        free(buf);
        return NULL;
    }
    return buf;
}
