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
    "track", "waypoint.N", "car.ID", "sight"
};

#define VP(f) offsetof(struct vehicle_spec, p.f)
#define VS(f) offsetof(struct vehicle_spec, f)
#define BIG 1e7
/* The sections a tank key reaches: a team sets it for its tanks. */
#define TANKS (SEC_TANK | SEC_TEAM)
#define GUNS (SEC_TANK | SEC_TEAM | SEC_TURRET)

static const char *const bool_names[] = { "false", "true", NULL };

const struct key_def key_table[] = {
    /* [map] */
    { SEC_MAP, "name", KEY_STRING, 0, 0, 0, NULL, "file name",
      "shown in the title bar and the trace header", NULL, TGT_MAP, offsetof(struct map_settings, name) },
    { SEC_MAP, "width", KEY_NUM, 0, 1e6, KEY_REQUIRED | KEY_MIN_OPEN, NULL, NULL,
      "map width", NULL, TGT_MAP, offsetof(struct map_settings, width) },
    { SEC_MAP, "height", KEY_NUM, 0, 1e6, KEY_REQUIRED | KEY_MIN_OPEN, NULL, NULL,
      "map height", NULL, TGT_MAP, offsetof(struct map_settings, height) },
    { SEC_MAP, "cell", KEY_NUM, 0, 1e6, KEY_MIN_OPEN | KEY_CORE_DEFAULT, NULL, NULL,
      "side of a square cell of the tree grid", NULL, TGT_MAP, offsetof(struct map_settings, cell) },
    { SEC_MAP, "seed", KEY_SEED, 0, 18446744073709551615.0, KEY_CORE_DEFAULT, NULL, NULL,
      "seed of every random choice; --seed overrides it", NULL, TGT_MAP, offsetof(struct map_settings, seed) },
    { SEC_MAP, "tick_rate", KEY_NUM, 1, 1000, KEY_CORE_DEFAULT, NULL, NULL,
      "ticks per simulated second", NULL, TGT_MAP, offsetof(struct map_settings, tick_rate) },
    { SEC_MAP, "duration", KEY_NUM, 0, 1e6, KEY_MIN_OPEN | KEY_CORE_DEFAULT, NULL, NULL,
      "seconds a headless run lasts without --ticks or --seconds", NULL, TGT_MAP, offsetof(struct map_settings, duration) },

    /* [trees] */
    { SEC_TREES, "random", KEY_COUNT, 0, 1e6, 0, "0", NULL,
      "trees placed at random (seeded), wholly inside the map", NULL, TGT_TREES, offsetof(struct trees_settings, random) },
    { SEC_TREES, "radius", KEY_NUM, 0, 1e5, KEY_MIN_OPEN, "20", NULL,
      "radius of a random tree", NULL, TGT_TREES, offsetof(struct trees_settings, radius) },
    { SEC_TREES, "min_radius", KEY_NUM, 0, 1e5, KEY_MIN_OPEN, NULL, "radius",
      "smallest radius of a random tree (with max_radius)", NULL, TGT_TREES, offsetof(struct trees_settings, min_radius) },
    { SEC_TREES, "max_radius", KEY_NUM, 0, 1e5, KEY_MIN_OPEN, NULL, "radius",
      "largest radius of a random tree (with min_radius)", NULL, TGT_TREES, offsetof(struct trees_settings, max_radius) },
    { SEC_TREES, "at", KEY_XYR_LIST, 0, 0, 0, NULL, "none",
      "explicit trees: x y r triples separated by commas", NULL, TGT_TREES, 0 },

    /* [tree.ID] and [waypoint.N] */
    { SEC_TREE | SEC_WAYPOINT, "x", KEY_NUM, -BIG, BIG, KEY_REQUIRED, NULL, NULL,
      "centre x", NULL, TGT_XYR, offsetof(struct xyr, x) },
    { SEC_TREE | SEC_WAYPOINT, "y", KEY_NUM, -BIG, BIG, KEY_REQUIRED, NULL, NULL,
      "centre y", NULL, TGT_XYR, offsetof(struct xyr, y) },
    { SEC_TREE | SEC_WAYPOINT, "r", KEY_NUM, 0, 1e6, KEY_REQUIRED | KEY_MIN_OPEN, NULL, NULL,
      "radius", NULL, TGT_XYR, offsetof(struct xyr, r) },

    /* [team.NAME] (and every tank key below without KEY_NO_TEAM) */
    { SEC_TEAM, "color", KEY_ENUM, 0, 0, 0, NULL, "by order",
      "team colour", world_colors, TGT_TEAM, offsetof(struct team_settings, color) },
    { SEC_TEAM, "random", KEY_COUNT, 0, 1e6, 0, "0", NULL,
      "tanks of this team placed at random, ids tank.TEAM.1, tank.TEAM.2, ...", NULL, TGT_TEAM, offsetof(struct team_settings, random) },

    /* vehicles: position and heading */
    { SEC_TANK | SEC_TURRET, "team", KEY_TEAM, 0, 0, KEY_REQUIRED | KEY_NO_TEAM, NULL, NULL,
      "a team declared with [team.NAME]", NULL, TGT_VEHICLE, 0 },
    { SEC_TANK | SEC_TURRET | SEC_CAR, "x", KEY_NUM, -BIG, BIG, KEY_REQUIRED | KEY_NO_TEAM, NULL, NULL,
      "start x, inside the map", NULL, TGT_VEHICLE, VS(x) },
    { SEC_TANK | SEC_TURRET | SEC_CAR, "y", KEY_NUM, -BIG, BIG, KEY_REQUIRED | KEY_NO_TEAM, NULL, NULL,
      "start y, inside the map", NULL, TGT_VEHICLE, VS(y) },
    { TANKS, "heading", KEY_ANGLE, 0, 0, 0, NULL, "random",
      "start heading, degrees (0 = +x, 90 = +y)", NULL, TGT_VEHICLE, VS(heading) },
    { SEC_CAR, "heading", KEY_ANGLE, 0, 0, 0, NULL, "towards waypoint 0",
      "start heading, degrees", NULL, TGT_VEHICLE, VS(heading) },
    { SEC_TURRET, "facing", KEY_ANGLE, 0, 0, KEY_CORE_DEFAULT, NULL, NULL,
      "centre of the view cone and start of the gun, degrees", NULL, TGT_VEHICLE, VP(facing) },

    /* tank hull and motion */
    { TANKS, "length", KEY_NUM, 0, 1e4, KEY_MIN_OPEN | KEY_CORE_DEFAULT, NULL, NULL,
      "hull length, along the heading (sight uses the hull's corners)", NULL, TGT_VEHICLE, VP(length) },
    { TANKS, "width", KEY_NUM, 0, 1e4, KEY_MIN_OPEN | KEY_CORE_DEFAULT, NULL, NULL,
      "hull width", NULL, TGT_VEHICLE, VP(width) },
    { TANKS, "radius", KEY_NUM, 0, 1e4, KEY_MIN_OPEN | KEY_CORE_DEFAULT, NULL, NULL,
      "collision circle", NULL, TGT_VEHICLE, VP(radius) },
    { SEC_TURRET, "radius", KEY_NUM, 0, 1e4, KEY_MIN_OPEN | KEY_CORE_DEFAULT, NULL, NULL,
      "collision circle", NULL, TGT_VEHICLE, VP(radius) },
    { SEC_CAR, "radius", KEY_NUM, 0, 1e4, KEY_MIN_OPEN | KEY_CORE_DEFAULT, NULL, NULL,
      "the car's circle (waypoints and collisions)", NULL, TGT_VEHICLE, VP(radius) },
    { TANKS, "speed", KEY_NUM, 0, 1e4, KEY_MIN_OPEN | KEY_CORE_DEFAULT, NULL, NULL,
      "cruising speed", NULL, TGT_VEHICLE, VP(speed) },
    { TANKS, "turn_rate", KEY_DEG, 0, 36000, KEY_MIN_OPEN | KEY_CORE_DEFAULT, NULL, NULL,
      "hull turn rate, degrees per second", NULL, TGT_VEHICLE, VP(turn_rate) },
    { SEC_CAR, "turn_rate", KEY_DEG, 0, 36000, KEY_MIN_OPEN | KEY_CORE_DEFAULT, NULL, NULL,
      "turn rate, degrees per second", NULL, TGT_VEHICLE, VP(turn_rate) },
    { TANKS, "behaviour", KEY_ENUM, 0, 0, KEY_CORE_DEFAULT, NULL, NULL,
      "how it drives", drive_names, TGT_VEHICLE, VP(drive) },
    { SEC_TANK, "player", KEY_ENUM, 0, 0, KEY_NO_TEAM | KEY_CORE_DEFAULT, NULL, NULL,
      "true: driven from the keyboard in the viewer's drive mode (D) instead of its "
      "behaviour; headless it holds still. At most one tank per map, never with a bot",
      bool_names, TGT_VEHICLE, VP(player) },
    { TANKS, "route", KEY_ROUTE, 0, 0, 0, NULL, "none",
      "for patrol: x y r waypoints separated by commas, or the word track", NULL, TGT_VEHICLE, 0 },
    { SEC_TANK | SEC_TEAM | SEC_TURRET | SEC_CAR, "bot", KEY_BOT_PATH, 0, 0, 0, NULL, "none",
      "a Lua script that decides for it instead of the built-in behaviours: a relative path "
      "ending in .lua inside the map's folder (see botfield-bots(7))", NULL, TGT_VEHICLE, 0 },
    { SEC_TANK | SEC_TEAM | SEC_TURRET | SEC_CAR, "bot_budget", KEY_COUNT, BOT_BUDGET_MIN,
      BOT_BUDGET_MAX, 0, BOT_LIMIT_TEXT(BOT_BUDGET_DEFAULT_N), NULL,
      "Lua instructions the bot may run per tick (init: ten times as many)",
      NULL, TGT_VEHICLE, VS(bot_budget) },
    { SEC_TANK | SEC_TEAM | SEC_TURRET | SEC_CAR, "bot_memory", KEY_COUNT, BOT_MEMORY_KIB_MIN,
      BOT_MEMORY_KIB_MAX, 0, BOT_LIMIT_TEXT(BOT_MEMORY_KIB_DEFAULT_N), NULL,
      "KiB of data per bot, counted by what it holds (at most a quarter of it made "
      "in new strings, tables and functions in a tick)",
      NULL, TGT_VEHICLE, VS(bot_memory) },
    { TANKS, "avoid", KEY_ENUM, 0, 0, KEY_CORE_DEFAULT, NULL, NULL,
      "collision avoidance", avoid_names, TGT_VEHICLE, VP(avoid) },
    { TANKS, "collision_range", KEY_NUM, 0, 1e6, KEY_MIN_OPEN | KEY_CORE_DEFAULT, NULL, NULL,
      "how far classic avoidance looks for other tanks", NULL, TGT_VEHICLE, VP(collision_range) },

    /* sight */
    { GUNS, "fov", KEY_DEG, 0, 360, KEY_MIN_OPEN | KEY_CORE_DEFAULT, NULL, NULL,
      "full angle of the field of view, degrees (360 sees all round)", NULL, TGT_VEHICLE, VP(fov) },
    { GUNS, "view_range", KEY_NUM, 0, 1e7, KEY_MIN_OPEN | KEY_CORE_DEFAULT, NULL, NULL,
      "how far it can see", NULL, TGT_VEHICLE, VP(view_range) },
    { GUNS, "sight", KEY_ENUM, 0, 0, KEY_CORE_DEFAULT, NULL, NULL,
      "occlusion method", sight_names, TGT_VEHICLE, VP(sight) },

    /* the gun */
    { GUNS, "turret_rate", KEY_DEG, 0, 36000, KEY_MIN_OPEN | KEY_CORE_DEFAULT, NULL, NULL,
      "turret turn rate, degrees per second", NULL, TGT_VEHICLE, VP(turret_rate) },
    { GUNS, "shell_speed", KEY_NUM, 0, 1e6, KEY_MIN_OPEN | KEY_CORE_DEFAULT, NULL, NULL,
      "shell speed", NULL, TGT_VEHICLE, VP(shell_speed) },
    { GUNS, "range", KEY_NUM, 0, 1e7, KEY_MIN_OPEN | KEY_CORE_DEFAULT, NULL, NULL,
      "the longest shot it will take (and a shell's flight)", NULL, TGT_VEHICLE, VP(range) },
    { GUNS, "reload", KEY_NUM, 0, 3600, KEY_MIN_OPEN | KEY_CORE_DEFAULT, NULL, NULL,
      "seconds between shots", NULL, TGT_VEHICLE, VP(reload) },
    { GUNS, "aim", KEY_ENUM, 0, 0, KEY_CORE_DEFAULT, NULL, NULL,
      "intercept solver", aim_names, TGT_VEHICLE, VP(aim) },
    { GUNS, "health", KEY_COUNT, 1, 1e6, KEY_CORE_DEFAULT, NULL, NULL,
      "hits it takes to be knocked out", NULL, TGT_VEHICLE, VP(health) },

    /* cars */
    { SEC_CAR, "max_speed", KEY_NUM, 0, 1e5, KEY_MIN_OPEN | KEY_CORE_DEFAULT, NULL, NULL,
      "top speed", NULL, TGT_VEHICLE, VP(max_speed) },
    { SEC_CAR, "min_speed", KEY_NUM, 0, 1e5, KEY_CORE_DEFAULT, NULL, NULL,
      "lowest speed when braking (at most max_speed)", NULL, TGT_VEHICLE, VP(min_speed) },
    { SEC_CAR, "accel", KEY_NUM, 0, 1e6, KEY_MIN_OPEN | KEY_CORE_DEFAULT, NULL, NULL,
      "speed gained per second", NULL, TGT_VEHICLE, VP(accel) },
    { SEC_CAR, "brake", KEY_NUM, 0, 1e6, KEY_MIN_OPEN | KEY_CORE_DEFAULT, NULL, NULL,
      "speed lost per second when braking", NULL, TGT_VEHICLE, VP(brake) },
    { SEC_CAR, "back_angle", KEY_DEG, 0, 180, KEY_MIN_OPEN | KEY_CORE_DEFAULT, NULL, NULL,
      "blind spot: brake while the next waypoint is further off the nose, degrees", NULL, TGT_VEHICLE, VP(back_angle) },
    { SEC_CAR, "speed_rule", KEY_ENUM, 0, 0, KEY_CORE_DEFAULT, NULL, NULL,
      "speed rule", speed_rule_names, TGT_VEHICLE, VP(speed_rule) },
    { SEC_CAR, "steer", KEY_ENUM, 0, 0, KEY_CORE_DEFAULT, NULL, NULL,
      "steering: classic heads for the next waypoint, line follows a planned racing line at its own speeds (speed_rule unused)", steer_names, TGT_VEHICLE, VP(steer) },
    { SEC_CAR, "color", KEY_ENUM, 0, 0, 0, NULL, "by order",
      "colour the viewer draws the car in", world_colors, TGT_VEHICLE, VP(color) },

    /* [track] */
    { SEC_TRACK, "waypoints", KEY_XYR_LIST, 0, 0, 0, NULL, "none",
      "x y r triples separated by commas, in driving order (or, not with this key, [waypoint.N] sections: driven in increasing N, which may skip numbers)", NULL, TGT_TRACK, 0 },
    { SEC_TRACK, "laps", KEY_COUNT, 1, 1e4, KEY_CORE_DEFAULT, NULL, NULL,
      "laps in a race", NULL, TGT_TRACK, offsetof(struct track_settings, laps) },

    /* [sight] */
    { SEC_SIGHT, "threshold", KEY_NUM, 0, 1, KEY_CORE_DEFAULT, NULL, NULL,
      "fraction of a target that must be visible for it to count as seen", NULL, TGT_SIGHT, offsetof(struct sight_config, threshold) },
    { SEC_SIGHT, "moving_threshold", KEY_NUM, 0, 1, KEY_CORE_DEFAULT, NULL, NULL,
      "the threshold for a moving target", NULL, TGT_SIGHT, offsetof(struct sight_config, moving_threshold) },
    { SEC_SIGHT, "edge_threshold", KEY_NUM, 0, 1, KEY_CORE_DEFAULT, NULL, NULL,
      "the threshold near the edge of the view (wins over moving_threshold)", NULL, TGT_SIGHT, offsetof(struct sight_config, edge_threshold) },
    { SEC_SIGHT, "edge", KEY_NUM, 0, 1, KEY_CORE_DEFAULT, NULL, NULL,
      "near the edge: more than this fraction of fov/2 off the heading", NULL, TGT_SIGHT, offsetof(struct sight_config, edge) },
    { SEC_SIGHT, "samples", KEY_COUNT, 1, 10000, KEY_CORE_DEFAULT, NULL, NULL,
      "samples across the target for sight = classic", NULL, TGT_SIGHT, offsetof(struct sight_config, samples) },
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
                                      SEC_TURRET, SEC_TRACK, SEC_WAYPOINT, SEC_CAR, SEC_SIGHT };
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
