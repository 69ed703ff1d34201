/* tune.c — a live change of one map key, checked by the key table as a
 * map line is (tune.h). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"
#include "tune.h"
#include "../core/world.h"

/* Keys that would make another world, or whose change the core does not
 * follow mid-run (health is counted down from the start; a behaviour
 * needs its route; the bot's limits are the Lua state's). */
static const char *const fixed_keys[] = {
    "behaviour", "health", "bot_budget", "bot_memory", "color", NULL
};

int tune_tunable(const struct key_def *k)
{
    if (k->target != TGT_VEHICLE && k->target != TGT_SIGHT)
        return 0;
    if (k->type != KEY_NUM && k->type != KEY_DEG && k->type != KEY_COUNT
        && k->type != KEY_ENUM)
        return 0;
    if (k->flags & KEY_NO_TEAM)         /* team, x, y, player */
        return 0;
    for (int i = 0; fixed_keys[i]; i++)
        if (!strcmp(k->name, fixed_keys[i]))
            return 0;
    return 1;
}

int tune_rows(unsigned kind, const struct key_def **rows, int max)
{
    int n = 0;
    for (size_t i = 0; i < key_table_len; i++) {
        const struct key_def *k = &key_table[i];
        if (!(k->sections & kind) || key_find(kind, k->name) != k || !tune_tunable(k))
            continue;
        if (n < max)
            rows[n] = k;
        n++;
    }
    return n;
}

static void say(char *msg, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void say(char *msg, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, n, fmt, ap);
    va_end(ap);
}

static unsigned kind_of(const char *section)
{
    static const struct { const char *prefix; unsigned kind; } p[] = {
        { "tank.", SEC_TANK }, { "turret.", SEC_TURRET }, { "car.", SEC_CAR },
        { "team.", SEC_TEAM },
    };
    if (!strcmp(section, "sight"))
        return SEC_SIGHT;
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        if (!strncmp(section, p[i].prefix, strlen(p[i].prefix)) && section[strlen(p[i].prefix)])
            return p[i].kind;
    return 0;
}

static enum vehicle_kind vehicle_kind_of(unsigned kind)
{
    return kind == SEC_TURRET ? VK_TURRET : kind == SEC_CAR ? VK_CAR : VK_TANK;
}

int tune_resolve(const struct world *w, const char *file, const char *section,
                 const char *key, struct tune_key *t, char *msg, size_t n)
{
    t->kind = kind_of(section);
    t->index = -1;
    if (!t->kind) {
        say(msg, n, "%s: [%s]: not a section that can be tuned (tuned are [tank.ID], "
            "[turret.ID], [car.ID], [team.NAME] and [sight])", file, section);
        return -1;
    }
    if (t->kind == SEC_TEAM) {
        t->index = world_find_team(w, section + 5);
        if (t->index < 0) {
            say(msg, n, "%s: [%s]: the map has no such team", file, section);
            return -1;
        }
    } else if (t->kind != SEC_SIGHT) {
        t->index = world_find_vehicle(w, section);
        if (t->index < 0 || w->vehicles.p[t->index].kind != vehicle_kind_of(t->kind)) {
            say(msg, n, "%s: [%s]: the map has no such vehicle", file, section);
            return -1;
        }
    }
    t->row = key_find(t->kind, key);
    if (!t->row) {
        const char *hint = key_suggest(t->kind, key);
        char where[256];
        if (hint)
            say(msg, n, "%s: [%s] %s: unknown key (did you mean '%s'?)", file, section, key,
                hint);
        else if (key_other_sections(t->kind, key, where, sizeof where))
            say(msg, n, "%s: [%s] %s: unknown key in a [%s] section (it is a key of %s)",
                file, section, key, section_names[load_kind_bit(t->kind)], where);
        else
            say(msg, n, "%s: [%s] %s: unknown key in a [%s] section (see botfield(6) for "
                "the keys allowed)", file, section, key,
                section_names[load_kind_bit(t->kind)]);
        return -1;
    }
    if (!tune_tunable(t->row)) {
        say(msg, n, "%s: [%s] %s: cannot be tuned during a run (tuned are the numbers and "
            "methods of a vehicle, a team and [sight] but behaviour, health, colour and "
            "the bot's limits; edit the map for the rest)", file, section, key);
        return -1;
    }
    return 0;
}

void tune_section_name(const struct world *w, unsigned kind, int index, char *buf, size_t n)
{
    if (kind == SEC_SIGHT)
        snprintf(buf, n, "sight");
    else if (kind == SEC_TEAM)
        snprintf(buf, n, "team.%s", w->teams.p[index].name);
    else
        snprintf(buf, n, "%s", w->vehicles.p[index].id);
}

/* Any tank of the team, for the checks that need a vehicle's settings
 * (-1: none). */
static int team_tank(const struct world *w, int team)
{
    for (size_t i = 0; i < w->vehicles.n; i++)
        if (w->vehicles.p[i].team == team && w->vehicles.p[i].kind == VK_TANK)
            return (int)i;
    return -1;
}

/* Where the value of t is kept in w for vehicle i (the vehicle's own, or
 * the team's tank shown), in the unit of its row; NULL: nowhere. */
static const void *value_of(const struct world *w, const struct tune_key *t, int i)
{
    if (t->kind == SEC_SIGHT)
        return (const char *)&w->sight + t->row->offset;
    if (i < 0)
        return NULL;
    /* The row's offset is into a vehicle_spec, whose first member is p. */
    return (const char *)w->vehicles.p[i].p + (t->row->offset
                                               - offsetof(struct vehicle_spec, p));
}

void tune_value_text(const struct world *w, const struct tune_key *t, int shown, char *buf,
                     size_t n)
{
    const void *v = value_of(w, t, t->kind == SEC_TEAM ? shown : t->index);
    if (!v) {
        snprintf(buf, n, "-");
        return;
    }
    switch (t->row->type) {
    case KEY_NUM:
        snprintf(buf, n, "%.15g", *(const double *)v);
        break;
    case KEY_DEG:
        snprintf(buf, n, "%.10g", rad2deg(*(const double *)v));
        break;
    case KEY_COUNT:
        snprintf(buf, n, "%d", *(const int *)v);
        break;
    case KEY_ENUM:
        snprintf(buf, n, "%s", t->row->names[*(const int *)v]);
        break;
    default:
        snprintf(buf, n, "?");
        break;
    }
}

/* The loader's problems as one line into msg. */
static void loader_message(struct loader *L, char *msg, size_t n)
{
    struct map_error err = { NULL, 0 };
    load_errors_finish(L, &err);
    const char *t = err.text ? err.text : "out of memory";
    size_t len = strcspn(t, "\n");
    snprintf(msg, n, "%.*s", (int)len, t);
    map_error_free(&err);
}

/* Parses value into the settings `spec` (a vehicle's) or `sight`, with the
 * checks across keys that a single row cannot make.  0, or -1 with msg. */
static int parse(const char *file, const struct tune_key *t, const char *section,
                 const char *value, struct vehicle_spec *spec, struct sight_config *sight,
                 char *msg, size_t n)
{
    struct loader L;
    memset(&L, 0, sizeof L);
    L.path = file;
    struct where at = { 0, section, t->row->name, value };
    void *base = t->kind == SEC_SIGHT ? (void *)sight : (void *)spec;
    int rc = load_parse_value(&L, t->row, value, base, &at);
    if (rc == 0 && t->kind == SEC_CAR && spec->p.min_speed > spec->p.max_speed) {
        /* as check.c says it of a map */
        load_error(&L, 0, section, "min_speed", NULL, "min_speed %g is above max_speed %g",
                   spec->p.min_speed, spec->p.max_speed);
        rc = -1;
    }
    if (rc)
        loader_message(&L, msg, n);
    return rc;
}

int tune_check(const struct world *w, const char *file, const struct tune_key *t,
               const char *value, char *msg, size_t n)
{
    char section[128];
    tune_section_name(w, t->kind, t->index, section, sizeof section);
    struct vehicle_spec spec;
    memset(&spec, 0, sizeof spec);
    struct sight_config sight = w->sight;
    int i = t->kind == SEC_TEAM ? team_tank(w, t->index) : t->index;
    if (i >= 0 && t->kind != SEC_SIGHT)
        spec.p = *w->vehicles.p[i].p;
    return parse(file, t, section, value, &spec, &sight, msg, n);
}

/* 1 when vehicle i's own section in the map sets `key` (a team's value
 * does not reach it). */
static int sets_own(const struct scan_result *S, const struct world *w, int i, const char *key)
{
    if (!S)
        return 0;
    int s = scan_find_section(S, w->vehicles.p[i].id);
    return s >= 0 && scan_find_key(S, s, key) >= 0;
}

static void quiet(void *ctx, int line, int section, const char *message)
{
    (void)ctx; (void)line; (void)section; (void)message;
}

/* 1 when tank i takes `key` from its team. */
static int takes_from_team(const struct world *w, const struct scan_result *S,
                           const struct tune_earlier *earlier, int i, const char *key)
{
    const struct vehicle *v = &w->vehicles.p[i];
    return v->kind == VK_TANK && !sets_own(S, w, i, key)
        && !(earlier && earlier->set(earlier->ctx, v->id, key));
}

int tune_team_tank(const struct world *w, const struct scan_result *scan,
                   const struct tune_earlier *earlier, int team, const char *key)
{
    for (size_t i = 0; i < w->vehicles.n; i++)
        if (w->vehicles.p[i].team == team && takes_from_team(w, scan, earlier, (int)i, key))
            return (int)i;
    return -1;
}

int tune_apply(struct world *w, const char *map_text, const struct tune_earlier *earlier,
               const char *file, const char *section, const char *key, const char *value,
               char *msg, size_t n)
{
    struct tune_key t;
    if (tune_resolve(w, file, section, key, &t, msg, n))
        return -1;
    struct vehicle_spec spec;
    memset(&spec, 0, sizeof spec);
    if (t.kind == SEC_SIGHT) {
        struct sight_config sight = w->sight;
        if (parse(file, &t, section, value, &spec, &sight, msg, n))
            return -1;
        w->sight = sight;
        return 0;
    }
    if (t.kind != SEC_TEAM) {
        spec.p = *w->vehicles.p[t.index].p;
        if (parse(file, &t, section, value, &spec, NULL, msg, n))
            return -1;
        if (world_set_params(w, t.index, &spec.p)) {
            say(msg, n, "out of memory");
            return -1;
        }
        return 0;
    }
    /* A team: each of its tanks that takes the key from it. */
    if (tune_check(w, file, &t, value, msg, n))
        return -1;
    struct scan_result S;
    memset(&S, 0, sizeof S);
    int have_scan = map_text && scan_text(map_text, strlen(map_text), &S, quiet, NULL) == 0;
    int rc = 0;
    for (size_t i = 0; i < w->vehicles.n && rc == 0; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        if (v->team != t.index
            || !takes_from_team(w, have_scan ? &S : NULL, earlier, (int)i, t.row->name))
            continue;
        spec.p = *v->p;
        if (parse(file, &t, section, value, &spec, NULL, msg, n))
            rc = -1;
        else if (world_set_params(w, (int)i, &spec.p)) {
            say(msg, n, "out of memory");
            rc = -1;
        }
    }
    scan_free(&S);
    return rc;
}
