/* The one source of truth for settings and names (src/core/params.def,
 * names.[ch], the key table's KEY_CORE_DEFAULT rows): every setting keeps
 * vehicles apart in the shared pool, the loader and the man page give the
 * core's defaults, and every enum's names are complete and distinct. */
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "core/world.h"
#include "io/keys.h"
#include "io/map.h"

/* Changing any one setting must give a vehicle a copy of its own: were a
 * field missing from the equality, the second vehicle would share the
 * first's copy and silently take its settings.  The list of fields is
 * params.def itself, so a field added there is tested here too. */
TEST(each_field_keeps_vehicles_apart)
{
    struct world w;
    world_init(&w, 1000, 1000);
    struct vehicle_params base;
    world_default_params(&base, VK_TANK);
    base.drive = DRIVE_HOLD;    /* so one less is still a value */
    int b = world_add_vehicle(&w, "tank.base", VK_TANK, -1, &base, v2(10, 10), 0);
    int twin = world_add_vehicle(&w, "tank.twin", VK_TANK, -1, &base, v2(20, 10), 0);
    check_int(b, >=, 0);
    check_int(twin, >=, 0);
    check(w.vehicles.p[b].p == w.vehicles.p[twin].p);
    int fields = 0;
#define PARAM(type, field, unit, def)                                       \
    {                                                                       \
        struct vehicle_params q = base;                                     \
        q.field = (type)(q.field - 1);                                      \
        int i = world_add_vehicle(&w, "tank." #field, VK_TANK, -1, &q,       \
                                  v2(30, 10), 0);                           \
        if (!check_int(i, >=, 0) || !check(w.vehicles.p[i].p != w.vehicles.p[b].p)) \
            tap_note("changing %s alone still shares the settings", #field); \
        else if (!check(w.vehicles.p[i].p->field == q.field))               \
            tap_note("%s was not kept", #field);                            \
        fields++;                                                           \
    }
#include "core/params.def"
    check_int(fields, >=, 20);
    /* Every changed vehicle got its own copy, and the two equal ones
     * still share one: the pool holds fields + 1 copies. */
    check_int(w.params.n, ==, fields + 1);
    world_free(&w);
}

/* -0.0 and 0.0 are one setting (they compare equal, so they must hash
 * alike, or equal settings would land in two copies). */
TEST(negative_zero_shares)
{
    struct world w;
    world_init(&w, 1000, 1000);
    struct vehicle_params p, q;
    world_default_params(&p, VK_TURRET);
    q = p;
    p.facing = 0.0;
    q.facing = -0.0;
    int a = world_add_vehicle(&w, "turret.a", VK_TURRET, -1, &p, v2(10, 10), 0);
    int b = world_add_vehicle(&w, "turret.b", VK_TURRET, -1, &q, v2(50, 10), 0);
    check(a >= 0 && b >= 0);
    check(w.vehicles.p[a].p == w.vehicles.p[b].p);
    check_int(w.params.n, ==, 1);
    world_free(&w);
}

static const char minimal_map[] =
    "[map]\nwidth = 1000\nheight = 1000\n"
    "[team.red]\n[team.blue]\n"
    "[tank.1]\nteam = red\nx = 100\ny = 100\n"
    "[turret.1]\nteam = blue\nx = 900\ny = 900\n"
    "[track]\nwaypoints = 200 200 30, 800 200 30, 500 800 30\n"
    "[car.1]\nx = 500\ny = 500\n";

/* A map that gives only the required keys runs with the core's defaults:
 * the loader takes every setting from params.def, none from elsewhere. */
TEST(loader_uses_core_defaults)
{
    struct world w, ref;
    struct map_error err = { NULL, 0 };
    if (!check_int(map_load_text("minimal.ini", minimal_map, sizeof minimal_map - 1,
                                 NULL, &w, &err), ==, 0)) {
        tap_note("%s", err.text ? err.text : "");
        map_error_free(&err);
        return;
    }
    world_init(&ref, 1000, 1000);
#define SETTING(field, unit, def)                                           \
    if (!check_num(w.field, ==, ref.field))                                 \
        tap_note("world setting %s", #field);
#include "core/params.def"
    check_num(w.dt, ==, ref.dt);
    world_free(&ref);
    check_int(w.vehicles.n, ==, 3);
    for (size_t i = 0; i < w.vehicles.n; i++) {
        const struct vehicle *v = &w.vehicles.p[i];
        struct vehicle_params d;
        world_default_params(&d, v->kind);
        /* The route fields are the loader's (a car drives the track). */
        d.route_first = v->p->route_first;
        d.route_count = v->p->route_count;
        d.route_track = v->p->route_track;
#define PARAM(type, field, unit, def)                                       \
        if (!check_num(v->p->field, ==, d.field))                           \
            tap_note("%s: %s", v->id, #field);
#include "core/params.def"
    }
    world_free(&w);
}

/* The defaults really differ by kind where params.def says so (a check
 * that the PARAM_KIND lines are applied, whatever their values). */
TEST(kind_defaults_applied)
{
    struct vehicle_params p[VEHICLE_KIND_COUNT];
    for (int k = 0; k < VEHICLE_KIND_COUNT; k++)
        world_default_params(&p[k], (enum vehicle_kind)k);
    int n = 0;
#define PARAM_KIND(kind, field, unit, def)                                  \
    check_num(p[kind].field, ==, PARAM_VALUE(unit, def));                   \
    n++;
#include "core/params.def"
    check_int(n, >, 0);
    /* A tank drives and avoids; the others do neither. */
    check_int(p[VK_TANK].drive, ==, DRIVE_WANDER);
    check_int(p[VK_TURRET].drive, ==, DRIVE_HOLD);
    check_int(p[VK_CAR].avoid, ==, AVOID_NONE);
}

/* The block of the man page's key list for section `sec`: from its .SS
 * line to the next. */
static char *man_block(const char *man, const char *sec)
{
    char head[64];
    snprintf(head, sizeof head, ".SS [%s]\n", sec);
    const char *s = strstr(man, head);
    if (!s)
        return NULL;
    s += strlen(head);
    const char *e = strstr(s, ".SS ");
    size_t n = e ? (size_t)(e - s) : strlen(s);
    char *b = malloc(n + 1);
    if (b) {
        memcpy(b, s, n);
        b[n] = 0;
    }
    return b;
}

/* The man page's defaults for vehicle keys are the core's, by section:
 * a [car.ID]'s radius is the car's default, not the tank's. */
TEST(man_defaults_are_core_defaults)
{
    char *man = map_keys_man();
    if (!check(man != NULL))
        return;
    static const struct { unsigned kind; const char *sec; enum vehicle_kind vk; } secs[] = {
        { SEC_TANK, "tank.ID", VK_TANK }, { SEC_TURRET, "turret.ID", VK_TURRET },
        { SEC_CAR, "car.ID", VK_CAR },
    };
    int checked = 0;
    for (size_t s = 0; s < sizeof secs / sizeof secs[0]; s++) {
        char *block = man_block(man, secs[s].sec);
        if (!check(block != NULL))
            continue;
        struct vehicle_spec spec;
        memset(&spec, 0, sizeof spec);
        world_default_params(&spec.p, secs[s].vk);
        for (size_t i = 0; i < key_table_len; i++) {
            const struct key_def *k = &key_table[i];
            if (!(k->flags & KEY_CORE_DEFAULT) || k->target != TGT_VEHICLE
                || k->type != KEY_NUM || key_find(secs[s].kind, k->name) != k)
                continue;
            char want[160];
            double v;
            memcpy(&v, (const char *)&spec + k->offset, sizeof v);
            /* "radius\n<help>.\nDefault: 10.\n" with the key escaped. */
            snprintf(want, sizeof want, ".B %s\n", k->name);
            const char *at = strstr(block, want);
            if (!check(at != NULL))
                continue;
            snprintf(want, sizeof want, "Default: %g.", v);
            const char *next = strstr(at + 1, ".TP");
            const char *d = strstr(at, want);
            if (!check(d != NULL && (!next || d < next)))
                tap_note("[%s] %s: no '%s' in its entry", secs[s].sec, k->name, want);
            checked++;
        }
        free(block);
    }
    check_int(checked, >=, 15);
    free(man);
}

/* names[0 .. count-1] all set and distinct, then NULL. */
static void check_names(const char *const *names, int count, const char *what)
{
    for (int i = 0; i < count; i++) {
        if (!check(names[i] != NULL && names[i][0])) {
            tap_note("%s: value %d has no name", what, i);
            continue;
        }
        for (int j = 0; j < i; j++)
            if (names[j] && !check(strcmp(names[i], names[j]) != 0))
                tap_note("%s: values %d and %d are both '%s'", what, j, i, names[i]);
    }
    check(names[count] == NULL);
}

TEST(enum_names_complete)
{
    check_names(vehicle_kind_names, VEHICLE_KIND_COUNT, "vehicle kind");
    check_names(drive_names, DRIVE_COUNT, "behaviour");
    check_names(avoid_names, AVOID_COUNT, "avoid");
    check_names(sight_names, SIGHT_COUNT, "sight");
    check_names(aim_names, AIM_COUNT, "aim");
    check_names(speed_rule_names, SPEED_RULE_COUNT, "speed rule");
    check_names(event_kind_names, EVENT_KIND_COUNT, "event");
    check_names(miss_reason_names, MISS_REASON_COUNT, "miss reason");
    check_names(aim_reason_names, AIM_REASON_COUNT, "aim reason");
    check_names(brake_reason_names, BRAKE_REASON_COUNT, "brake reason");
    check_names(world_colors, WORLD_NCOLORS, "colour");
    /* Indexed by value, not by position: a value's name is its own. */
    check_str(drive_names[DRIVE_PATROL], "patrol");
    check_str(event_kind_names[EV_WAYPOINT_SKIPPED], "waypoint_skipped");
}

/* The key table's enum rows read the core's arrays, and a map file's
 * word becomes the value of that name. */
TEST(key_table_enums_are_core_names)
{
    const struct key_def *k = key_find(SEC_TANK, "avoid");
    if (check(k != NULL))
        check(k->names == avoid_names);
    k = key_find(SEC_CAR, "speed_rule");
    if (check(k != NULL))
        check(k->names == speed_rule_names);
    k = key_find(SEC_TURRET, "aim");
    if (check(k != NULL))
        check(k->names == aim_names);
    static const char text[] =
        "[map]\nwidth = 500\nheight = 500\n[team.a]\n"
        "[tank.1]\nteam = a\nx = 100\ny = 100\nbehaviour = straight\navoid = classic\n"
        "sight = classic\naim = none\n";
    struct world w;
    struct map_error err = { NULL, 0 };
    if (!check_int(map_load_text("enums.ini", text, sizeof text - 1, NULL, &w, &err), ==, 0)) {
        map_error_free(&err);
        return;
    }
    const struct vehicle_params *p = w.vehicles.p[0].p;
    check_int(p->drive, ==, DRIVE_STRAIGHT);
    check_int(p->avoid, ==, AVOID_CLASSIC);
    check_int(p->sight, ==, SIGHT_CLASSIC);
    check_int(p->aim, ==, AIM_NONE);
    world_free(&w);
}

int main(void)
{
    run(each_field_keeps_vehicles_apart, "changing any one setting gives a vehicle its own copy");
    run(negative_zero_shares, "-0.0 and 0.0 settings share one copy");
    run(loader_uses_core_defaults, "a map of required keys only runs with params.def's defaults");
    run(kind_defaults_applied, "turrets and cars get their own defaults");
    run(man_defaults_are_core_defaults, "the man page's vehicle defaults are the core's, by section");
    run(enum_names_complete, "every enum value has its own name");
    run(key_table_enums_are_core_names, "map words are read through the core's name arrays");
    return tap_done();
}
