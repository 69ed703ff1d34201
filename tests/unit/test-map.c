/* The map loader (src/io/map.c, keys.c, scan.c) driven directly: values
 * land where they belong, a bad map changes nothing, the key table is
 * consistent. */
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "core/rng.h"
#include "core/world.h"
#include "io/keys.h"
#include "io/map.h"
#include "io/scan.h"

static char path_buf[4096];
static const char *fixture(const char *rel)
{
    const char *top = getenv("top_srcdir");
    snprintf(path_buf, sizeof path_buf, "%s/%s", top ? top : ".", rel);
    return path_buf;
}

static int load_text(const char *text, struct world *w, struct map_error *e)
{
    return map_load_text("t.ini", text, strlen(text), NULL, w, e);
}

TEST(values_land)
{
    struct world w;
    struct map_error e;
    int rc = map_load(fixture("tests/maps/good/explicit-lists.ini"), NULL, &w, &e);
    check_int(rc, ==, 0);
    if (rc) {
        tap_note("%s", e.text);
        map_error_free(&e);
        return;
    }
    check_num(w.width, ==, 2000);
    check_int(w.trees.n, ==, 8);
    check_num(w.trees.p[0].c.x, ==, 400);
    check_num(w.trees.p[1].r, ==, 30);
    check_num(w.trees.p[2].r, ==, 60);          /* [tree.big] after the list */
    for (size_t i = 3; i < w.trees.n; i++) {
        check_num(w.trees.p[i].r, >=, 10);
        check_num(w.trees.p[i].r, <=, 20);
        check_num(w.trees.p[i].c.x, >=, w.trees.p[i].r);
        check_num(w.trees.p[i].c.x, <=, 2000 - w.trees.p[i].r);
    }
    check_int(w.track.n, ==, 3);
    check_int(w.track_laps, ==, 2);
    int car = world_find_vehicle(&w, "car.fast");
    int tur = world_find_vehicle(&w, "turret.t1");
    int pat = world_find_vehicle(&w, "tank.patrol");
    check_int(car, >=, 0);
    check_int(tur, >=, 0);
    check_int(pat, >=, 0);
    if (car < 0 || tur < 0 || pat < 0)
        return;
    check_num(w.vehicles.p[car].p->max_speed, ==, 250);
    check_num(w.vehicles.p[car].p->radius, ==, 10);
    check_near(w.vehicles.p[car].p->turn_rate, deg2rad(180), 1e-12);
    check_near(w.vehicles.p[tur].heading, M_PI / 2, 1e-12);
    check_num(w.vehicles.p[tur].p->radius, ==, 15);
    check_int(w.vehicles.p[pat].p->drive, ==, DRIVE_PATROL);
    int n;
    const struct waypoint *route = world_route(&w, &w.vehicles.p[pat], &n);
    check_int(n, ==, 3);
    check_num(route[1].c.x, ==, 1900);
    world_free(&w);
}

TEST(team_defaults_and_overrides)
{
    const char *text =
        "[map]\nwidth = 1000\nheight = 1000\n"
        "[team.red]\nspeed = 33\nturn_rate = 45\navoid = classic\nrandom = 3\n"
        "[tank.own]\nteam = red\nx = 100\ny = 100\nspeed = 44\n";
    struct world w;
    struct map_error e;
    int rc = load_text(text, &w, &e);
    check_int(rc, ==, 0);
    if (rc) {
        tap_note("%s", e.text);
        map_error_free(&e);
        return;
    }
    check_int(w.vehicles.n, ==, 4);
    check_str(w.vehicles.p[0].id, "tank.own");
    check_num(w.vehicles.p[0].p->speed, ==, 44);
    check_near(w.vehicles.p[0].p->turn_rate, deg2rad(45), 1e-12);
    check_int(w.vehicles.p[0].p->avoid, ==, AVOID_CLASSIC);
    check_str(w.vehicles.p[3].id, "tank.red.3");
    check_num(w.vehicles.p[3].p->speed, ==, 33);
    check_num(w.vehicles.p[3].p->collision_range, ==, 100);
    /* Random tanks are one radius clear of each other and of the edge. */
    for (size_t i = 1; i < w.vehicles.n; i++) {
        check_num(w.vehicles.p[i].pos.x, >=, 40);
        for (size_t j = 0; j < i; j++)
            check_num(v2_dist(w.vehicles.p[i].pos, w.vehicles.p[j].pos), >=, 60);
    }
    world_free(&w);
}

TEST(bad_map_changes_nothing)
{
    struct world w;
    memset(&w, 0xab, sizeof w);
    struct world before = w;
    struct map_error e;
    int rc = load_text("[map]\nwidth = 10\nheight = 10\n[tank.a]\nteam = red\nx = 1\ny = 1\n", &w, &e);
    check_int(rc, ==, -1);
    check(memcmp(&w, &before, sizeof w) == 0);
    check(e.text != NULL && strstr(e.text, "t.ini:5: [tank.a] team = red: no such team") != NULL);
    check_int(e.count, ==, 1);
    map_error_free(&e);
}

TEST(seed_option_overrides)
{
    struct world a, b;
    struct map_error e;
    struct map_options o = { 1, 99, 0, NULL, 0 };
    const char *text = "[map]\nwidth = 500\nheight = 500\nseed = 5\n[trees]\nrandom = 3\n";
    check_int(map_load_text("t.ini", text, strlen(text), NULL, &a, &e), ==, 0);
    check_int(map_load_text("t.ini", text, strlen(text), &o, &b, &e), ==, 0);
    check_int(a.seed, ==, 5);
    check_int(b.seed, ==, 99);
    check(a.trees.p[0].c.x != b.trees.p[0].c.x);
    world_free(&a);
    world_free(&b);
}

TEST(default_map_embedded)
{
    struct world w;
    struct map_error e;
    check_int(map_load_text("default.ini", map_default_text, map_default_len, NULL, &w, &e), ==, 0);
    check_num(w.width, ==, 2000);
    check_num(w.height, ==, 1800);
    check_int(w.trees.n, ==, 200);
    world_free(&w);
}

TEST(key_table_consistent)
{
    /* Every default parses into its row's range; enums name their values;
     * every key appears in the man page text. */
    char *man = map_keys_man();
    check(man != NULL);
    int bad = 0;
    for (size_t i = 0; i < key_table_len; i++) {
        const struct key_def *k = &key_table[i];
        if (k->sections == 0 || !k->help || !*k->help)
            bad++;
        if (k->type == KEY_ENUM && !k->names)
            bad++;
        if (k->def && (k->type == KEY_NUM || k->type == KEY_DEG || k->type == KEY_COUNT)) {
            double v = strtod(k->def, NULL);
            if (v < k->min || v > k->max || (v == k->min && (k->flags & KEY_MIN_OPEN)))
                bad++;
        }
        char needle[80];
        snprintf(needle, sizeof needle, ".B %s\n", k->name);
        if (man && !strstr(man, needle))
            bad++;
    }
    check_int(bad, ==, 0);
    free(man);
}

TEST(suggestions)
{
    check_str(key_suggest(SEC_TANK, "sped"), "speed");
    check_str(key_suggest(SEC_TANK, "turnrate"), "turn_rate");
    check_str(key_suggest(SEC_MAP, "widht"), "width");
    check_str(key_suggest(SEC_CAR, "max_sped"), "max_speed");
    check(key_suggest(SEC_MAP, "colour_of_the_sky") == NULL);
    check(key_find(SEC_TEAM, "x") == NULL);         /* a team has no position */
    check(key_find(SEC_TEAM, "speed") != NULL);
    check(key_find(SEC_CAR, "speed") == NULL);
}

/* iniparser gets the file in pieces of at most 120 sections and keys (a
 * piece that starts inside a section repeats its header): every value
 * still lands, wherever the pieces end, and a tank finds a team declared
 * pieces later. */
TEST(values_across_pieces)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        check(0);
        return;
    }
    fputs("[map]\nwidth = 1000\nheight = 1000\n", f);
    enum { N = 90 };
    for (int i = 0; i < N; i++)
        fprintf(f, "[tank.%d]\nteam = red\nx = %d\ny = 20\nspeed = \"%d\"\n"
                "fov = %d ; a comment\n\nview_range = %d\nrange = %d\nhealth = %d\n",
                i, 10 + i, 5 + i, 10 + i, 100 + i, 200 + i, 1 + i % 5);
    fputs("[team.red]\nturn_rate = 45\n", f);
    if (fclose(f)) {
        check(0);
        return;
    }
    struct world w;
    struct map_error e;
    int rc = map_load_text("t.ini", text, len, NULL, &w, &e);
    free(text);
    check_int(rc, ==, 0);
    if (rc) {
        tap_note("%s", e.text);
        map_error_free(&e);
        return;
    }
    check_int(w.vehicles.n, ==, N);
    for (int i = 0; i < N && i < (int)w.vehicles.n; i++) {
        const struct vehicle *v = &w.vehicles.p[i];
        char id[32];
        snprintf(id, sizeof id, "tank.%d", i);
        check_str(v->id, id);
        check_num(v->pos.x, ==, 10 + i);
        check_num(v->p->speed, ==, 5 + i);
        check_near(v->p->fov, deg2rad(10 + i), 1e-12);
        check_num(v->p->view_range, ==, 100 + i);
        check_num(v->p->range, ==, 200 + i);
        check_int(v->p->health, ==, 1 + i % 5);
        check_near(v->p->turn_rate, deg2rad(45), 1e-12);
    }
    world_free(&w);
}

struct scan_msgs { int n; int line[8]; char text[8][256]; };

static void scan_collect(void *ctx, int line, int section, const char *message)
{
    struct scan_msgs *m = ctx;
    (void)section;
    if (m->n < 8) {
        m->line[m->n] = line;
        snprintf(m->text[m->n], sizeof m->text[m->n], "%s", message);
    }
    m->n++;
}

/* The scanner's index: a section's keys together in keys[]; a section of
 * many keys (past the in-place search) and the sections go through hash
 * tables, which still find duplicates, case-insensitively for sections. */
TEST(scan_index)
{
    char text[4096];
    size_t n = (size_t)snprintf(text, sizeof text, "[map]\nwidth = 1\n[big]\n");
    for (int i = 0; i < 40; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "k%d = %d\n", i, i);
    n += (size_t)snprintf(text + n, sizeof text - n, "K25 = again\n[Small]\na = 1\nA = 2\n[BIG]\nk0 = 0\n");
    struct scan_result r;
    struct scan_msgs m;
    memset(&m, 0, sizeof m);
    int errors = scan_text(text, n, &r, scan_collect, &m);
    check_int(errors, ==, 3);
    check_int(m.n, ==, 3);
    check_int(m.line[0], ==, 44);
    check(strstr(m.text[0], "duplicate key 'k25' (first at line 29)") != NULL);
    check_int(m.line[1], ==, 47);
    check(strstr(m.text[1], "duplicate key 'a' (first at line 46)") != NULL);
    check_int(m.line[2], ==, 48);
    check(strstr(m.text[2], "duplicate section (first at line 3)") != NULL);
    check_int(r.nsections, ==, 3);
    check_int(r.nkeys, ==, 42);
    check_int(scan_find_section(&r, "big"), ==, 1);
    check_int(scan_find_section(&r, "small"), ==, 2);
    check_int(scan_find_section(&r, "BIG"), ==, -1);
    check_int(scan_find_section(&r, "none"), ==, -1);
    check_int(r.sections[1].first_key, ==, 1);
    check_int(r.sections[1].nkeys, ==, 40);
    check_int(r.sections[2].first_key, ==, 41);
    check_int(r.sections[2].nkeys, ==, 1);
    for (int i = 0; i < 40; i++) {
        char k[16];
        snprintf(k, sizeof k, "k%d", i);
        check_int(scan_find_key(&r, 1, k), ==, 1 + i);
    }
    check_int(scan_find_key(&r, 1, "k40"), ==, -1);
    check_int(scan_find_key(&r, 0, "k1"), ==, -1);
    check_int(scan_find_key(&r, 0, "width"), ==, 0);
    check_int(scan_find_key(&r, 2, "a"), ==, 41);
    scan_free(&r);
}

/* A waypoint number given by three sections is reported once for each
 * earlier one, as before waypoint numbers were hashed. */
TEST(waypoint_numbers_twice)
{
    struct world w;
    struct map_error e;
    int rc = load_text("[map]\nwidth = 100\nheight = 100\n"
                       "[waypoint.1]\nx = 1\ny = 1\nr = 1\n"
                       "[waypoint.01]\nx = 2\ny = 1\nr = 1\n"
                       "[waypoint.2]\nx = 3\ny = 1\nr = 1\n"
                       "[waypoint.001]\nx = 4\ny = 1\nr = 1\n", &w, &e);
    check_int(rc, ==, -1);
    check_int(e.count, ==, 3);
    check(e.text && strstr(e.text, "t.ini:8: [waypoint.01]: waypoint number 1 is given twice\n"
                           "t.ini:16: [waypoint.001]: waypoint number 1 is given twice\n"
                           "t.ini:16: [waypoint.001]: waypoint number 1 is given twice\n"));
    map_error_free(&e);
}

/* Random trees and random tanks draw y before x, in statements of their
 * own: the same positions from every compiler (clang evaluated the two
 * draws of v2(rng_range(..), rng_range(..)) in the other order than gcc). */
TEST(random_draw_order)
{
    struct world w;
    struct map_error e;
    int rc = load_text("[map]\nwidth = 1000\nheight = 500\nseed = 7\n"
                       "[trees]\nrandom = 3\nradius = 10\n"
                       "[team.a]\nrandom = 1\nradius = 20\n", &w, &e);
    check_int(rc, ==, 0);
    if (rc) {
        tap_note("%s", e.text);
        map_error_free(&e);
        return;
    }
    struct rng r;
    rng_seed(&r, 7, 1);
    check_int(w.trees.n, ==, 3);
    for (size_t i = 0; i < w.trees.n && i < 3; i++) {
        double y = rng_range(&r, 10, 490);
        double x = rng_range(&r, 10, 990);
        check_num(w.trees.p[i].c.x, ==, x);
        check_num(w.trees.p[i].c.y, ==, y);
    }
    check_int(w.vehicles.n, ==, 1);
    if (w.vehicles.n == 1) {
        double y = rng_range(&r, 40, 460);
        double x = rng_range(&r, 40, 960);
        check_num(w.vehicles.p[0].pos.x, ==, x);
        check_num(w.vehicles.p[0].pos.y, ==, y);
    }
    world_free(&w);
}

/* [team.Red] is stored as team.red by iniparser: `team = Red` finds it
 * (it used to say "declare it with a [team.Red] section"). */
TEST(team_name_case)
{
    struct world w;
    struct map_error e;
    int rc = load_text("[map]\nwidth = 500\nheight = 500\n"
                       "[team.Red]\n[team.blue]\n"
                       "[tank.1]\nteam = Red\nx = 100\ny = 100\n"
                       "[tank.2]\nteam = BLUE\nx = 300\ny = 300\n", &w, &e);
    check_int(rc, ==, 0);
    if (rc) {
        tap_note("%s", e.text);
        map_error_free(&e);
        return;
    }
    check_int(w.vehicles.n, ==, 2);
    check_int(w.vehicles.p[0].team, ==, 0);
    check_int(w.vehicles.p[1].team, ==, 1);
    check_str(w.teams.p[0].name, "red");
    world_free(&w);
}

/* A team's bad route is reported once, where it is written, not again
 * for each tank of the team. */
TEST(team_route_once)
{
    struct world w;
    struct map_error e;
    int rc = load_text("[map]\nwidth = 500\nheight = 500\n"
                       "[team.red]\nbehaviour = patrol\nroute = 1 2\n"
                       "[tank.1]\nteam = red\nx = 100\ny = 100\n"
                       "[tank.2]\nteam = red\nx = 300\ny = 300\n", &w, &e);
    check_int(rc, ==, -1);
    check_int(e.count, ==, 1);
    check(e.text && strstr(e.text, "t.ini:6: [team.red] route = 1 2: triple 1 has 2 numbers: its r is missing"));
    tap_note("%s", e.text ? e.text : "(none)");
    map_error_free(&e);
}

/* text is refused, and its message holds both where and want. */
static void refused_with(const char *text, const char *where, const char *want)
{
    struct world w;
    struct map_error e;
    int rc = load_text(text, &w, &e);
    check_int(rc, ==, -1);
    check(e.text && strstr(e.text, where) && strstr(e.text, want));
    tap_note("%s", e.text ? e.text : "(none)");
    map_error_free(&e);
}

/* A triple cut short names the item that is missing; one with a word in
 * it still says that item is not a number. */
TEST(xyr_list_short_or_bad)
{
    static const struct { const char *at, *want; } cases[] = {
        { "100 100, 200 200 10", "triple 1 has 2 numbers: its r is missing" },
        { "100 100 10, 200", "triple 2 has 1 number: its y is missing" },
        { "100 100 10,", "triple 2 is empty" },
        { "100 100 10, , 1 1 1", "triple 2 is empty" },
        { "100 abc 10", "triple 1: item 2 is not a finite number" },
        { "100 100 10 7", "triple 1: expected ',' or the end after three numbers" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[256];
        snprintf(text, sizeof text, "[map]\nwidth = 500\nheight = 500\n[trees]\nat = %s\n",
                 cases[i].at);
        refused_with(text, "t.ini:5: [trees] at = ", cases[i].want);
    }
}

/* A dotted section written with another separator gets the section meant;
 * a key of other sections says where it belongs. */
TEST(section_and_key_hints)
{
    static const struct { const char *text, *want; } cases[] = {
        { "[tank prey]\nteam = red\n", "[tank prey]: unknown section (did you mean [tank.prey]?)" },
        { "[car_fast]\nx = 1\n", "[car_fast]: unknown section (did you mean [car.fast]?)" },
        { "[turret:gun]\nx = 1\n", "[turret:gun]: unknown section (did you mean [turret.gun]?)" },
        { "[tank x y]\nx = 1\n", "[tank x y]: unknown section (allowed: " },
        { "[tank.a]\nteam = red\nx = 5\ny = 5\nrandom = 3\n",
          "[tank.a] random: unknown key in a [tank.ID] section (it is a key of [trees], [team.NAME])" },
        { "[sight]\nlaps = 3\n", "[sight] laps: unknown key in a [sight] section (it is a key of [track])" },
        { "[tank.a]\nteam = red\nx = 5\ny = 5\nzzzzzzzzzz = 3\n",
          "zzzzzzzzzz: unknown key in a [tank.ID] section (see botfield(6) for the keys allowed)" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[256];
        snprintf(text, sizeof text, "[map]\nwidth = 500\nheight = 500\n[team.red]\n%s",
                 cases[i].text);
        refused_with(text, "t.ini:", cases[i].want);
    }
}

/* Problems are listed in line order, though teams are read first and
 * the checks across keys come last. */
TEST(errors_in_line_order)
{
    struct world w;
    struct map_error e;
    int rc = load_text("[map]\nwidth = 500\nheight = 500\n"        /* 1-3 */
                       "[tank.1]\nteam = red\nx = 100\ny = 100\n"  /* 4-7 */
                       "speeed = 3\n"                              /* 8 */
                       "[team.red]\nspeed = fast\n"                /* 9-10 */
                       "[tank.2]\nteam = red\nx = 1\ny = 1\nfov = 400\n", /* 11-15 */
                       &w, &e);
    check_int(rc, ==, -1);
    check_int(e.count, ==, 3);
    const char *a = e.text ? strstr(e.text, "t.ini:8:") : NULL;
    const char *b = e.text ? strstr(e.text, "t.ini:10:") : NULL;
    const char *c = e.text ? strstr(e.text, "t.ini:15:") : NULL;
    check(a && b && c && a < b && b < c);
    tap_note("%s", e.text ? e.text : "(none)");
    map_error_free(&e);
}

/* A path of any length keeps file, line, section, key and value. */
TEST(long_path_keeps_place)
{
    char name[2100];
    memset(name, 'd', sizeof name);
    for (size_t i = 100; i < sizeof name - 10; i += 100)
        name[i] = '/';
    strcpy(name + sizeof name - 10, "/map.ini");
    struct world w;
    struct map_error e;
    const char *text = "[map]\nwidth = 500\nheight = 500\n[tank.1]\nspeed = fast\n";
    int rc = map_load_text(name, text, strlen(text), NULL, &w, &e);
    check_int(rc, ==, -1);
    char want[2300];
    snprintf(want, sizeof want, "%s:5: [tank.1] speed = fast: not a number (", name);
    const char *at = e.text ? strstr(e.text, want) : NULL;
    check(at && (at == e.text || at[-1] == '\n'));
    map_error_free(&e);
}

/* [trees] at, [track] waypoints and a route hold coordinates within the
 * range of a [tree.ID]'s or [waypoint.N]'s x, y and r. */
TEST(lists_bounded)
{
    static const struct { const char *text; const char *want; } cases[] = {
        { "[map]\nwidth = 500\nheight = 500\n[trees]\nat = 10 10 5, 1.7e308 10 5\n",
          "t.ini:5: [trees] at = 10 10 5, 1.7e308 10 5: triple 2: x = 1.7e+308 is out of range "
          "(expected -10000000 to 10000000, as in a [tree.ID] section)" },
        { "[map]\nwidth = 500\nheight = 500\n[trees]\nat = 10 -1e8 5\n",
          "triple 1: y = -1e+08 is out of range" },
        { "[map]\nwidth = 500\nheight = 500\n[trees]\nat = 10 10 2e6\n",
          "triple 1: r = 2e+06 is out of range (expected more than 0, up to 1000000" },
        { "[map]\nwidth = 500\nheight = 500\n[track]\nwaypoints = 10 10 5, 20 20 5, 1e9 0 5\n",
          "[track] waypoints = 10 10 5, 20 20 5, 1e9 0 5: triple 3: x = 1e+09 is out of range "
          "(expected -10000000 to 10000000, as in a [waypoint.N] section)" },
        { "[map]\nwidth = 500\nheight = 500\n[team.a]\n"
          "[tank.1]\nteam = a\nx = 1\ny = 1\nbehaviour = patrol\nroute = 1 1 1, 2 -3e300 1\n",
          "t.ini:10: [tank.1] route = 1 1 1, 2 -3e300 1: triple 2: y = -3e+300 is out of range" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct world w;
        struct map_error e;
        int rc = load_text(cases[i].text, &w, &e);
        check_int(rc, ==, -1);
        check(e.text && strstr(e.text, cases[i].want));
        if (!e.text || !strstr(e.text, cases[i].want))
            tap_note("case %zu: %s", i, e.text ? e.text : "(none)");
        check_int(e.count, ==, 1);
        map_error_free(&e);
        if (rc == 0)
            world_free(&w);
    }
}

int main(void)
{
    run(values_land, "a map's values land in the world");
    run(team_defaults_and_overrides, "team keys are defaults; a tank's own keys win");
    run(bad_map_changes_nothing, "a bad map leaves the world untouched and says why");
    run(seed_option_overrides, "--seed overrides the map's seed");
    run(default_map_embedded, "the embedded default map loads");
    run(key_table_consistent, "the key table is consistent and in the man page");
    run(suggestions, "typos get the closest key of their section");
    run(values_across_pieces, "values land across iniparser's pieces of the file");
    run(scan_index, "the scanner indexes sections and keys, duplicates found");
    run(waypoint_numbers_twice, "a waypoint number given thrice is reported twice");
    run(random_draw_order, "random trees and tanks draw y, then x, on every compiler");
    run(team_name_case, "team names are matched without case, as iniparser stores them");
    run(team_route_once, "a team's bad route is reported once");
    run(xyr_list_short_or_bad, "an x y r list cut short names the missing item");
    run(section_and_key_hints, "a section written [tank x] or a key of other sections: the hint");
    run(errors_in_line_order, "problems are listed in line order");
    run(long_path_keeps_place, "a 2,100-byte path keeps file, line, section and key");
    run(lists_bounded, "x y r lists are bounded like [tree.ID] and [waypoint.N]");
    return tap_done();
}
