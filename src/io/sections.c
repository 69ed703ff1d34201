/* sections.c — every section and key of a map checked against the key
 * table (keys.c) and parsed into a `struct parsed`.
 *
 * Each section is read once, in the order of the file (teams first: tanks
 * and turrets name them wherever they appear).  Every problem of a
 * section is reported, not only the first; unknown keys and sections get
 * the closest known name.  Nothing compares every pair of sections: ids
 * are found through the scanner's index and waypoint numbers through a
 * hash set, so a million sections load in linear time. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/grow.h"
#include "load.h"
#include "numset.h"

/* ---- names -------------------------------------------------------------- */

/* The kind of a section from its name, and where its id starts. */
static unsigned section_kind(const char *name, const char **id)
{
    static const struct { const char *prefix; unsigned kind; } kinds[] = {
        { "tree.", SEC_TREE }, { "team.", SEC_TEAM }, { "tank.", SEC_TANK },
        { "turret.", SEC_TURRET }, { "waypoint.", SEC_WAYPOINT }, { "car.", SEC_CAR },
    };
    *id = NULL;
    if (!strcmp(name, "map")) return SEC_MAP;
    if (!strcmp(name, "trees")) return SEC_TREES;
    if (!strcmp(name, "track")) return SEC_TRACK;
    if (!strcmp(name, "sight")) return SEC_SIGHT;
    if (!strcmp(name, "match")) return SEC_MATCH;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        size_t n = strlen(kinds[i].prefix);
        if (!strncmp(name, kinds[i].prefix, n) && name[n]) {
            *id = name + n;
            return kinds[i].kind;
        }
    }
    return 0;
}

static const char *closest_section(const char *name)
{
    static const char *const plain[] = { "map", "trees", "track", "sight",
        "tree.", "team.", "tank.", "turret.", "waypoint.", "car." };
    static const char *const shown[] = { "map", "trees", "track", "sight",
        "tree.ID", "team.NAME", "tank.ID", "turret.ID", "waypoint.N", "car.ID" };
    const char *best = NULL;
    int bestd = 1000;
    char head[64];
    snprintf(head, sizeof head, "%s", name);
    char *dot = strchr(head, '.');
    if (dot)
        dot[1] = 0;
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
        int d = key_distance(head, plain[i]);
        if (d < bestd) {
            bestd = d;
            best = shown[i];
        }
    }
    return bestd <= 3 ? best : NULL;
}

static int valid_id(const char *id)
{
    if (!*id || strlen(id) > 40)
        return 0;
    for (const char *p = id; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-' && *p != '.')
            return 0;
    return 1;
}

/* "tank prey", "tank_prey", "tank:prey": a dotted kind written with
 * another separator; the section meant, in buf, or NULL. */
static const char *dotted_meant(const char *name, char *buf, size_t size)
{
    static const char *const kinds[] = { "tree", "team", "tank", "turret", "waypoint", "car" };
    size_t n = strcspn(name, " \t_-:");
    if (!name[n] || !name[n + 1])
        return NULL;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strlen(kinds[i]) == n && !strncmp(name, kinds[i], n)) {
            const char *id = name + n + 1;
            while (*id == ' ' || *id == '\t')
                id++;
            if (!*id || !valid_id(id))
                return NULL;
            snprintf(buf, size, "%s.%s", kinds[i], id);
            return buf;
        }
    return NULL;
}

/* ---- keys of one section ------------------------------------------------ */

static void *target_of(struct parsed *P, enum key_target t, void *item)
{
    switch (t) {
    case TGT_MAP: return &P->map;
    case TGT_TREES: return &P->trees;
    case TGT_TRACK: return &P->track;
    case TGT_SIGHT: return &P->sight;
    case TGT_MATCH: return &P->match;
    default: return item;
    }
}

static void unknown_key(struct loader *L, const char *sname, const struct scan_key *sk,
                        unsigned kind)
{
    if (load_muted(L))
        return;
    const char *hint = key_suggest(kind, sk->name);
    if (hint)
        load_error(L, sk->line, sname, sk->name, NULL,
                   "unknown key (did you mean '%s'?)", hint);
    else {
        /* A key of other sections (random in a [tank.ID]): say where it
         * belongs. */
        char where[256];
        int n = key_other_sections(kind, sk->name, where, sizeof where);
        if (n)
            load_error(L, sk->line, sname, sk->name, NULL,
                       "unknown key in a [%s] section (it is a key of %s)",
                       section_names[load_kind_bit(kind)], where);
        else
            load_error(L, sk->line, sname, sk->name, NULL,
                       "unknown key in a [%s] section (see botfield(6) for the keys allowed)",
                       section_names[load_kind_bit(kind)]);
    }
}

/* [trees] at and [track] waypoints: the list, kept in P. */
static void list_key(struct loader *L, struct parsed *P, unsigned kind, const char *val,
                     const struct where *at, const struct key_def *k)
{
    unsigned item_kind = kind == SEC_TREES ? SEC_TREE : SEC_WAYPOINT;
    int n = load_parse_xyr_list(L, val, NULL, at, k, item_kind);
    if (n <= 0)
        return;
    struct xyr *list = malloc((size_t)n * sizeof *list);
    if (!list) {
        load_error(L, at->line, at->section, at->key, NULL, "out of memory");
        return;
    }
    load_parse_xyr_list(L, val, list, at, k, item_kind);
    /* (One [trees] and one [track] per file, but never leak.) */
    struct xyr **dst = kind == SEC_TREES ? &P->trees_at : &P->track_list;
    int *count = kind == SEC_TREES ? &P->ntrees_at : &P->ntrack_list;
    free(*dst);
    *dst = list;
    *count = n;
}

/* Checks every key of a section against the table and parses it into the
 * section's structure; reports unknown keys with the closest known one. */
static void section_keys(struct loader *L, struct parsed *P, int sec, unsigned kind,
                         void *item)
{
    const char *sname = L->scan.sections[sec].name;
    const int first = L->scan.sections[sec].first_key;
    for (int i = first; i < first + L->scan.sections[sec].nkeys; i++) {
        const struct scan_key *sk = &L->scan.keys[i];
        const struct key_def *k = key_find(kind, sk->name);
        const char *val = L->val[i];
        if (!k) {
            unknown_key(L, sname, sk, kind);
            continue;
        }
        if (!val) {
            load_error(L, sk->line, sname, sk->name, NULL, "iniparser could not read this value");
            continue;
        }
        struct where at = { sk->line, sname, sk->name, val };
        if (k->type == KEY_ROUTE) {
            /* Checked here, where it is written; each tank reads it again
             * (resolve.c) without a word. */
            if (strcasecmp(val, "track"))
                load_parse_xyr_list(L, val, NULL, &at, k, SEC_WAYPOINT);
        } else if (k->type == KEY_XYR_LIST) {
            list_key(L, P, kind, val, &at, k);
        } else if (kind == SEC_TEAM && k->target == TGT_VEHICLE) {
            /* A team's tank key is checked here; each tank reads it again. */
            struct vehicle_spec dummy;
            memset(&dummy, 0, sizeof dummy);
            load_parse_value(L, k, val, &dummy, &at);
        } else {
            load_parse_value(L, k, val, target_of(P, k->target, item), &at);
        }
    }
}

static void require_keys(struct loader *L, int sec, unsigned kind)
{
    unsigned b = load_kind_bit(kind);
    for (unsigned r = 0; r < L->rows->n[b]; r++) {
        const struct key_def *k = &key_table[L->rows->row[b][r]];
        if ((k->flags & KEY_REQUIRED) && !load_has_key(L, sec, k->name))
            load_error(L, L->scan.sections[sec].line, L->scan.sections[sec].name, k->name, NULL,
                       "missing: this key is required in [%s]", section_names[b]);
    }
}

/* ---- arrays ------------------------------------------------------------- */

/* Out of memory part way: an error, so that no half-read map is built. */
static int parse_oom(struct loader *L)
{
    load_error(L, 0, NULL, NULL, NULL, "out of memory reading the map");
    return -1;
}

/* ---- teams -------------------------------------------------------------- */

/* The team whose [team.NAME] section has this name, or -1.  iniparser
 * lowercases section names, so a tank's `team = Red` names [team.Red]
 * (stored as team.red): team names are compared without case. */
static int team_named(const struct loader *L, const struct parsed *P, const char *name)
{
    char full[MAP_MAX_LINE_BYTES + 16];
    int n = snprintf(full, sizeof full, "team.%s", name);
    if (n < 0 || (size_t)n >= sizeof full)
        return -1;
    for (char *c = full; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    int s = scan_find_section(&L->scan, full);
    /* Teams are kept in the order of their sections. */
    int lo = 0, hi = P->nteams - 1;
    while (s >= 0 && lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (P->teams[mid].section == s)
            return mid;
        if (P->teams[mid].section < s)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

static int read_team(struct loader *L, struct parsed *P, int s, const char *id)
{
    if (!valid_id(id)) {
        load_error(L, L->scan.sections[s].line, L->scan.sections[s].name, NULL, NULL,
                   "a team name uses letters, digits, '_', '-' and '.', at most 40");
        return 0;
    }
    if (grow_reserve(&P->teams, &P->cap_teams, (size_t)P->nteams + 1, sizeof *P->teams))
        return parse_oom(L);
    struct tspec *t = &P->teams[P->nteams++];
    memset(t, 0, sizeof *t);
    t->section = s;
    t->name = strdup(id);
    if (!t->name)
        return parse_oom(L);
    t->has_color = load_has_key(L, s, "color");
    load_apply_defaults(L, SEC_TEAM, TGT_TEAM, &t->set);
    t->set.color = (P->nteams - 1) % WORLD_NCOLORS;
    section_keys(L, P, s, SEC_TEAM, &t->set);
    return 0;
}

/* ---- the other kinds ---------------------------------------------------- */

static int read_tree(struct loader *L, struct parsed *P, int s)
{
    struct xyr t = { 0, 0, 0 };
    section_keys(L, P, s, SEC_TREE, &t);
    require_keys(L, s, SEC_TREE);
    if (grow_reserve(&P->tree_secs, &P->cap_tree_secs, (size_t)P->ntree_secs + 1, sizeof t))
        return parse_oom(L);
    P->tree_secs[P->ntree_secs++] = t;
    return 0;
}

static int read_waypoint(struct loader *L, struct parsed *P, int s, const char *id,
                         struct numset *wnums)
{
    const struct scan_section *sec = &L->scan.sections[s];
    char *end;
    errno = 0;
    long n = strtol(id, &end, 10);
    if (*end || errno || n < 0) {
        load_error(L, sec->line, sec->name, NULL, NULL,
                   "a waypoint section is [waypoint.N] with N a whole number 0 or more");
        return 0;
    }
    struct xyr t = { 0, 0, 0 };
    section_keys(L, P, s, SEC_WAYPOINT, &t);
    require_keys(L, s, SEC_WAYPOINT);
    if (grow_reserve(&P->wsecs, &P->cap_wsecs, (size_t)P->nwsecs + 1, sizeof *P->wsecs))
        return parse_oom(L);
    P->wsecs[P->nwsecs].n = n;
    P->wsecs[P->nwsecs].w = t;
    /* Once for each earlier section of the same number. */
    int times = numset_add(wnums, n);
    if (times < 0)
        return parse_oom(L);
    for (int j = 0; j < times; j++)
        load_error(L, sec->line, sec->name, NULL, NULL, "waypoint number %ld is given twice", n);
    P->nwsecs++;
    return 0;
}

static void vehicle_team(struct loader *L, struct parsed *P, struct vspec *v)
{
    const char *sname = L->scan.sections[v->section].name;
    const char *tn = load_raw_value(L, v->section, "team");
    if (!tn)
        return;
    v->team = team_named(L, P, tn);
    if (v->team < 0)
        load_error(L, load_key_line(L, v->section, "team"), sname, "team", tn,
                   "no such team (declare it with a [team.%s] section)", tn);
}

static int read_vehicle(struct loader *L, struct parsed *P, int s, unsigned kind)
{
    if (grow_reserve(&P->veh, &P->cap_veh, (size_t)P->nveh + 1, sizeof *P->veh))
        return parse_oom(L);
    struct vspec *v = &P->veh[P->nveh++];
    memset(v, 0, sizeof *v);
    v->section = s;
    v->kind = kind == SEC_TANK ? VK_TANK : kind == SEC_TURRET ? VK_TURRET : VK_CAR;
    v->id = strdup(L->scan.sections[s].name);
    if (!v->id)
        return parse_oom(L);
    v->team = -1;
    if (kind != SEC_CAR)
        vehicle_team(L, P, v);
    /* Unknown keys and bad values of this section itself. */
    struct vehicle_spec scratch;
    memset(&scratch, 0, sizeof scratch);
    section_keys(L, P, s, kind, &scratch);
    require_keys(L, s, kind);
    load_resolve_vehicle(L, P, v, kind);
    return 0;
}

static void unknown_section(struct loader *L, const struct scan_section *sec)
{
    if (load_muted(L))
        return;
    char meant[128];
    const char *hint = dotted_meant(sec->name, meant, sizeof meant);
    if (!hint)
        hint = closest_section(sec->name);
    load_error(L, sec->line, sec->name, NULL, NULL,
               "unknown section%s%s%s (allowed: [map], [trees], [tree.ID], [team.NAME], "
               "[tank.ID], [turret.ID], [track], [waypoint.N], [car.ID], [sight])",
               hint ? " (did you mean [" : "", hint ? hint : "", hint ? "]?)" : "");
}

/* One section other than a team: 0, or -1 when memory ran out. */
static int read_section(struct loader *L, struct parsed *P, int s, struct numset *wnums)
{
    const struct scan_section *sec = &L->scan.sections[s];
    const char *id;
    unsigned kind = section_kind(sec->name, &id);
    if (!kind) {
        unknown_section(L, sec);
        return 0;
    }
    if (id && !valid_id(id)) {
        if (kind != SEC_TEAM)   /* (a team's is reported with the teams) */
            load_error(L, sec->line, sec->name, NULL, NULL,
                       "an id uses letters, digits, '_', '-' and '.', at most 40 characters");
        return 0;
    }
    switch (kind) {
    case SEC_MAP:
        P->map_section = s;
        section_keys(L, P, s, kind, NULL);
        require_keys(L, s, kind);
        return 0;
    case SEC_TREES:
        P->trees_section = s;
        P->has_min_r = load_has_key(L, s, "min_radius");
        P->has_max_r = load_has_key(L, s, "max_radius");
        section_keys(L, P, s, kind, NULL);
        return 0;
    case SEC_TRACK:
        P->track_section = s;
        section_keys(L, P, s, kind, NULL);
        return 0;
    case SEC_SIGHT:
        section_keys(L, P, s, kind, NULL);
        return 0;
    case SEC_MATCH:
        P->match_section = s;
        section_keys(L, P, s, kind, NULL);
        return 0;
    case SEC_TEAM:
        return 0;
    case SEC_TREE:
        return read_tree(L, P, s);
    case SEC_WAYPOINT:
        return read_waypoint(L, P, s, id, wnums);
    default:
        return read_vehicle(L, P, s, kind);
    }
}

static int cmp_wsec(const void *a, const void *b)
{
    long x = ((const struct wsec *)a)->n, y = ((const struct wsec *)b)->n;
    return x < y ? -1 : x > y;
}

void load_sections(struct loader *L, struct parsed *P)
{
    memset(P, 0, sizeof *P);
    P->map_section = P->trees_section = P->track_section = -1;
    P->match_section = -1;
    /* The core's defaults (KEY_CORE_DEFAULT rows), then the table's. */
    struct key_defaults d;
    key_defaults(&d);
    P->map = d.map;
    P->track = d.track;
    P->sight = d.sight;
    load_apply_defaults(L, SEC_MAP, TGT_MAP, &P->map);
    load_apply_defaults(L, SEC_TREES, TGT_TREES, &P->trees);
    load_apply_defaults(L, SEC_TRACK, TGT_TRACK, &P->track);
    load_apply_defaults(L, SEC_SIGHT, TGT_SIGHT, &P->sight);
    load_apply_defaults(L, SEC_MATCH, TGT_MATCH, &P->match);

    /* Teams first: tanks and turrets name them, wherever they appear. */
    for (int s = 0; s < L->scan.nsections; s++) {
        const char *id;
        if (section_kind(L->scan.sections[s].name, &id) == SEC_TEAM
            && read_team(L, P, s, id))
            return;
    }
    struct numset wnums;
    memset(&wnums, 0, sizeof wnums);
    int rc = 0;
    for (int s = 0; s < L->scan.nsections && rc == 0; s++)
        rc = read_section(L, P, s, &wnums);
    numset_free(&wnums);
    if (rc)
        return;
    if (P->map_section < 0)
        load_error(L, 0, NULL, NULL, NULL, "no [map] section: a map needs [map] with width and height");
    /* qsort's array must not be NULL, even for no elements. */
    if (P->nwsecs > 1)
        qsort(P->wsecs, (size_t)P->nwsecs, sizeof *P->wsecs, cmp_wsec);
}

void load_parsed_free(struct parsed *P)
{
    free(P->map.name);
    free(P->trees_at);
    free(P->tree_secs);
    for (int i = 0; i < P->nteams; i++) {
        free(P->teams[i].name);
        free(P->teams[i].bot);
        free(P->teams[i].bot_where);
    }
    free(P->teams);
    for (int i = 0; i < P->nveh; i++) {
        free(P->veh[i].id);
        free(P->veh[i].route);
        free(P->veh[i].bot);
        free(P->veh[i].bot_where);
    }
    free(P->veh);
    free(P->track_list);
    free(P->wsecs);
}
