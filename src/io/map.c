/* map.c — loading and validating a map (MAPS.md) into a world.
 *
 * The order: our scanner (scan.c) reads the raw text for line numbers and
 * for what iniparser would mishandle; iniparser loads the scanner's clean
 * copy; every section and key is checked against the key table (keys.c);
 * the entities are placed; and only when no error was found is the world
 * handed back.
 *
 * Values are read with iniparser_getstring only (its typed getters crash
 * on a section name, CVE-2023-33461) and parsed with strtod and
 * strtoull, checking the end pointer, errno and isfinite.
 *
 * A map may hold a million entities as numbered sections.  iniparser 4.1
 * keeps its dictionary as an array that every insert and lookup walks,
 * so it is never given the whole file: the clean copy goes to it in
 * pieces of at most INI_CHUNK sections and keys, each value is copied out
 * and the piece's dictionary freed.  Our own lookups go through the
 * scanner's index, and nothing compares every pair of sections, so
 * loading takes time linear in the size of the file. */
#include "config.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef HAVE_MEMFD_CREATE
#include <sys/mman.h>
#endif
#ifdef HAVE_INIPARSER_INIPARSER_H
#include <iniparser/iniparser.h>
#else
#include <iniparser.h>
#endif

#include "keys.h"
#include "map.h"
#include "scan.h"

/* Past this many problems the rest are not listed. */
#define MAX_ERRORS 20

/* The rows of the key table that apply to a kind of section: those with
 * its bit that key_find() answers for it (not a team's copy of a row that
 * another row overrides). */
#define MAX_TABLE_ROWS 128
struct kind_rows {
    unsigned char n[SEC_NKINDS];
    unsigned char row[SEC_NKINDS][MAX_TABLE_ROWS];
};

struct loader {
    const char *path;
    struct scan_result scan;
    char **val;                 /* iniparser's value of each key; NULL: none */
    char *vals;                 /* where they are kept */
    const struct kind_rows *rows;
    /* Vehicles' defaults by kind (tank, turret, car): the same for each. */
    struct vehicle_spec *tmpl[3];
    struct map_error *err;
    size_t errlen;
    int errors;
    struct world *w;
};

/* ---- errors ------------------------------------------------------------- */

static void verr(struct loader *L, int line, const char *section, const char *key,
                 const char *value, const char *fmt, va_list ap)
{
    L->errors++;
    if (L->errors > MAX_ERRORS)
        return;
    char where[512], what[1024], *msg;
    int n = line > 0 ? snprintf(where, sizeof where, "%s:%d:", L->path, line)
                     : snprintf(where, sizeof where, "%s:", L->path);
    if (section && n < (int)sizeof where)
        n += snprintf(where + n, sizeof where - (size_t)n, " [%s]", section);
    if (key && n < (int)sizeof where)
        n += snprintf(where + n, sizeof where - (size_t)n, " %s", key);
    if (key && value && n < (int)sizeof where)
        n += snprintf(where + n, sizeof where - (size_t)n, " = %.60s%s", value,
                      strlen(value) > 60 ? "..." : "");
    /* "file:12: [tank.3] speed = fast: not a number (...)" */
    if ((section || key) && n < (int)sizeof where - 1)
        strcat(where, ":");
    vsnprintf(what, sizeof what, fmt, ap);
    size_t need = strlen(where) + strlen(what) + 4;
    if (L->errors == MAX_ERRORS + 1)
        need += 64;
    msg = realloc(L->err->text, L->errlen + need + 1);
    if (!msg)
        return;
    L->err->text = msg;
    L->errlen += (size_t)sprintf(msg + L->errlen, "%s %s\n", where, what);
    L->err->count = L->errors;
}

static void errorf(struct loader *L, int line, const char *section, const char *key,
                   const char *value, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verr(L, line, section, key, value, fmt, ap);
    va_end(ap);
}

/* Past MAX_ERRORS a problem is only counted: 1 (after counting it) when
 * that is so, so that the caller need not work out its message (a file
 * of ten million unknown keys would otherwise look up a suggestion for
 * each). */
static int muted(struct loader *L)
{
    if (L->errors < MAX_ERRORS)
        return 0;
    L->errors++;
    return 1;
}

static void scan_report(void *ctx, int line, int section, const char *message)
{
    struct loader *L = ctx;
    errorf(L, line, section >= 0 ? L->scan.sections[section].name : NULL,
           NULL, NULL, "%s", message);
}

void map_error_free(struct map_error *err)
{
    free(err->text);
    err->text = NULL;
    err->count = 0;
}

/* ---- sections ----------------------------------------------------------- */

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

/* ---- values ------------------------------------------------------------- */

/* iniparser's value of a key of a section, or NULL. */
static const char *raw_value(const struct loader *L, int section, const char *key)
{
    int i = scan_find_key(&L->scan, section, key);
    return i >= 0 ? L->val[i] : NULL;
}

static int key_line(const struct loader *L, int section, const char *key)
{
    int i = scan_find_key(&L->scan, section, key);
    return i >= 0 ? L->scan.keys[i].line : L->scan.sections[section].line;
}

static int section_has(const struct loader *L, int section, const char *key)
{
    return scan_find_key(&L->scan, section, key) >= 0;
}

static unsigned kind_bit(unsigned kind)
{
    return (unsigned)__builtin_ctz(kind);
}

static void rows_init(struct kind_rows *R)
{
    assert(key_table_len <= MAX_TABLE_ROWS);
    for (unsigned b = 0; b < SEC_NKINDS; b++) {
        unsigned kind = 1u << b;
        R->n[b] = 0;
        for (size_t i = 0; i < key_table_len; i++)
            if ((key_table[i].sections & kind) && key_find(kind, key_table[i].name) == &key_table[i])
                R->row[b][R->n[b]++] = (unsigned char)i;
    }
}

/* Parses a number the C way; 0, or -1 with *why set. */
static int parse_double(const char *s, double *out, const char **why)
{
    char *end;
    while (isspace((unsigned char)*s))
        s++;
    if (!*s) {
        *why = "no value";
        return -1;
    }
    errno = 0;
    double v = strtod(s, &end);
    while (isspace((unsigned char)*end))
        end++;
    if (end == s || *end) {
        *why = "not a number";
        return -1;
    }
    if (!isfinite(v)) {
        *why = isnan(v) ? "NaN is not a number here" : "not a finite number";
        return -1;
    }
    if (errno == ERANGE && fabs(v) > 1) {
        *why = "out of range";
        return -1;
    }
    *out = v;
    return 0;
}

struct where { int line; const char *section; const char *key; const char *value; };

static void bad(struct loader *L, const struct where *at, const struct key_def *k,
                const char *problem)
{
    char allowed[256];
    key_allowed(k, allowed, sizeof allowed);
    errorf(L, at->line, at->section, at->key, at->value, "%s (%s)", problem, allowed);
}

/* Parses one value of a scalar row into base + offset.  0 or -1. */
static int parse_value(struct loader *L, const struct key_def *k, const char *s,
                       void *base, const struct where *at)
{
    void *dst = (char *)base + k->offset;     /* a field of the structure base points at */
    const char *why = NULL;
    double v;
    switch (k->type) {
    case KEY_NUM:
    case KEY_DEG:
    case KEY_COUNT:
        if (parse_double(s, &v, &why)) {
            bad(L, at, k, why);
            return -1;
        }
        if (v < k->min || v > k->max || (v == k->min && (k->flags & KEY_MIN_OPEN))) {
            bad(L, at, k, v < 0 && k->min >= 0 ? "negative where it cannot be" : "out of range");
            return -1;
        }
        if (k->type == KEY_COUNT) {
            if (v != floor(v)) {
                bad(L, at, k, "not a whole number");
                return -1;
            }
            *(int *)dst = (int)v;
        } else {
            *(double *)dst = k->type == KEY_DEG ? deg2rad(v) : v;
        }
        return 0;
    case KEY_ANGLE:
        if (parse_double(s, &v, &why)) {
            bad(L, at, k, why);
            return -1;
        }
        *(double *)dst = angle_norm(deg2rad(fmod(v, 360.0)));
        return 0;
    case KEY_SEED: {
        char *end;
        while (isspace((unsigned char)*s))
            s++;
        errno = 0;
        unsigned long long u = strtoull(s, &end, 10);
        while (isspace((unsigned char)*end))
            end++;
        if (*s == '-' || !isdigit((unsigned char)*s) || *end || errno) {
            bad(L, at, k, "not a whole number in range");
            return -1;
        }
        *(uint64_t *)dst = u;
        return 0;
    }
    case KEY_STRING: {
        char *copy = strdup(s);
        if (!copy) {
            bad(L, at, k, "out of memory");
            return -1;
        }
        free(*(char **)dst);
        *(char **)dst = copy;
        return 0;
    }
    case KEY_ENUM:
        for (int i = 0; k->names[i]; i++)
            if (!strcasecmp(s, k->names[i])) {
                *(int *)dst = i;
                return 0;
            }
        bad(L, at, k, "not a known value");
        return -1;
    case KEY_TEAM:
    case KEY_XYR_LIST:
    case KEY_ROUTE:
        return 0;               /* resolved by the callers */
    }
    return -1;
}

/* Sets a row's default into base + offset (rows without one are left). */
static void set_default(const struct key_def *k, void *base)
{
    if (!k->def)
        return;
    struct loader quiet;
    memset(&quiet, 0, sizeof quiet);
    struct map_error e = { NULL, 0 };
    quiet.err = &e;
    quiet.path = "";
    struct where at = { 0, "", k->name, k->def };
    parse_value(&quiet, k, k->def, base, &at);
    map_error_free(&e);
}

/* Parses "x y r, x y r, ...".  Returns the count, or -1 after an error;
 * out may be NULL to count only. */
static int parse_xyr_list(struct loader *L, const char *s, struct xyr *out,
                          const struct where *at, const struct key_def *k)
{
    int n = 0;
    const char *p = s;
    while (isspace((unsigned char)*p))
        p++;
    if (!*p)
        return 0;
    for (;;) {
        double v[3];
        for (int j = 0; j < 3; j++) {
            char *end;
            errno = 0;
            v[j] = strtod(p, &end);
            if (end == p || !isfinite(v[j]) || errno == ERANGE) {
                char prob[96];
                snprintf(prob, sizeof prob, "triple %d: item %d is not a finite number", n + 1, j + 1);
                bad(L, at, k, prob);
                return -1;
            }
            p = end;
        }
        if (v[2] <= 0) {
            char prob[96];
            snprintf(prob, sizeof prob, "triple %d: the radius must be more than 0", n + 1);
            bad(L, at, k, prob);
            return -1;
        }
        if (out)
            out[n] = (struct xyr){ v[0], v[1], v[2] };
        n++;
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            return n;
        if (*p != ',') {
            char prob[96];
            snprintf(prob, sizeof prob, "triple %d: expected ',' or the end after three numbers", n);
            bad(L, at, k, prob);
            return -1;
        }
        p++;
    }
}

/* ---- the parsed map, before a world is built ---------------------------- */

struct vspec {
    int section;                /* its section, for messages */
    enum vehicle_kind kind;
    char *id;
    int team;                   /* index in teams, -1 none */
    int has_heading;
    struct vehicle_spec s;
    struct xyr *route; int nroute;
};

struct tspec {
    int section;
    char *name;
    struct team_settings set;
    int has_color;
};

struct parsed {
    struct map_settings map;
    struct trees_settings trees;
    int has_min_r, has_max_r;
    struct xyr *trees_at; int ntrees_at;
    struct xyr *tree_secs; int ntree_secs;
    struct tspec *teams; int nteams;
    struct vspec *veh; int nveh;
    struct track_settings track;
    struct xyr *track_list; int ntrack_list;
    struct { long n; struct xyr w; } *wsecs; int nwsecs;
    struct sight_config sight;
    int map_section, trees_section, track_section;
};

static void parsed_free(struct parsed *P)
{
    free(P->map.name);
    free(P->trees_at);
    free(P->tree_secs);
    for (int i = 0; i < P->nteams; i++)
        free(P->teams[i].name);
    free(P->teams);
    for (int i = 0; i < P->nveh; i++) {
        free(P->veh[i].id);
        free(P->veh[i].route);
    }
    free(P->veh);
    free(P->track_list);
    free(P->wsecs);
}

static void *target_of(struct parsed *P, enum key_target t, void *item)
{
    switch (t) {
    case TGT_MAP: return &P->map;
    case TGT_TREES: return &P->trees;
    case TGT_TRACK: return &P->track;
    case TGT_SIGHT: return &P->sight;
    default: return item;
    }
}

/* Checks every key of a section against the table and parses it into the
 * section's structure; reports unknown keys with the closest known one. */
static void parse_section_keys(struct loader *L, struct parsed *P, int sec,
                               unsigned kind, void *item)
{
    const char *sname = L->scan.sections[sec].name;
    const int first = L->scan.sections[sec].first_key;
    for (int i = first; i < first + L->scan.sections[sec].nkeys; i++) {
        const struct scan_key *sk = &L->scan.keys[i];
        const struct key_def *k = key_find(kind, sk->name);
        const char *val = L->val[i];
        if (!k) {
            if (muted(L))
                continue;
            const char *hint = key_suggest(kind, sk->name);
            if (hint)
                errorf(L, sk->line, sname, sk->name, NULL,
                       "unknown key (did you mean '%s'?)", hint);
            else
                errorf(L, sk->line, sname, sk->name, NULL,
                       "unknown key in a [%s] section (see botfield(6) for the keys allowed)",
                       section_names[__builtin_ctz(kind)]);
            continue;
        }
        if (!val) {
            errorf(L, sk->line, sname, sk->name, NULL, "iniparser could not read this value");
            continue;
        }
        struct where at = { sk->line, sname, sk->name, val };
        if (kind == SEC_TEAM && k->target == TGT_VEHICLE) {
            /* A team's tank key is checked here; each tank reads it again. */
            struct vehicle_spec dummy;
            memset(&dummy, 0, sizeof dummy);
            if (k->type == KEY_ROUTE && strcasecmp(val, "track"))
                parse_xyr_list(L, val, NULL, &at, k);
            else
                parse_value(L, k, val, &dummy, &at);
            continue;
        }
        if (k->type == KEY_XYR_LIST) {
            int n = parse_xyr_list(L, val, NULL, &at, k);
            if (n <= 0)
                continue;
            struct xyr *list = malloc((size_t)n * sizeof *list);
            if (!list) {
                errorf(L, sk->line, sname, sk->name, NULL, "out of memory");
                continue;
            }
            parse_xyr_list(L, val, list, &at, k);
            /* (One [trees] and one [track] per file, but never leak.) */
            if (kind == SEC_TREES) {
                free(P->trees_at);
                P->trees_at = list;
                P->ntrees_at = n;
            } else {
                free(P->track_list);
                P->track_list = list;
                P->ntrack_list = n;
            }
            continue;
        }
        parse_value(L, k, val, target_of(P, k->target, item), &at);
    }
}

static void require_keys(struct loader *L, int sec, unsigned kind)
{
    unsigned b = kind_bit(kind);
    for (unsigned r = 0; r < L->rows->n[b]; r++) {
        const struct key_def *k = &key_table[L->rows->row[b][r]];
        if ((k->flags & KEY_REQUIRED) && !section_has(L, sec, k->name))
            errorf(L, L->scan.sections[sec].line, L->scan.sections[sec].name, k->name, NULL,
                   "missing: this key is required in [%s]", section_names[__builtin_ctz(kind)]);
    }
}

static void apply_defaults(const struct loader *L, unsigned kind, enum key_target t, void *base)
{
    unsigned b = kind_bit(kind);
    for (unsigned r = 0; r < L->rows->n[b]; r++) {
        const struct key_def *k = &key_table[L->rows->row[b][r]];
        if (k->target == t)
            set_default(k, base);
    }
}

/* The value of a vehicle key: its own section's, else its team's. */
static void resolve_vehicle(struct loader *L, struct parsed *P, struct vspec *v, unsigned kind)
{
    /* The defaults depend on the kind only (no vehicle key is text, which
     * would need a copy of its own): worked out once, then copied. */
    enum vehicle_kind vk = kind == SEC_TANK ? VK_TANK : kind == SEC_TURRET ? VK_TURRET : VK_CAR;
    if (L->tmpl[vk]) {
        v->s = *L->tmpl[vk];
    } else {
        world_default_params(&v->s.p, vk);
        apply_defaults(L, kind, TGT_VEHICLE, &v->s);
        L->tmpl[vk] = malloc(sizeof *L->tmpl[vk]);
        if (L->tmpl[vk])
            *L->tmpl[vk] = v->s;
    }
    int team_sec = v->team >= 0 ? P->teams[v->team].section : -1;
    unsigned b = kind_bit(kind);
    for (unsigned r = 0; r < L->rows->n[b]; r++) {
        const struct key_def *k = &key_table[L->rows->row[b][r]];
        if (k->type == KEY_TEAM)
            continue;
        int sec = -1;
        if (section_has(L, v->section, k->name))
            sec = v->section;
        else if (kind == SEC_TANK && team_sec >= 0 && key_find(SEC_TEAM, k->name)
                 && section_has(L, team_sec, k->name))
            sec = team_sec;
        if (sec < 0)
            continue;
        const char *secname = L->scan.sections[sec].name;
        const char *val = raw_value(L, sec, k->name);
        if (!val)
            continue;
        struct where at = { key_line(L, sec, k->name), secname, k->name, val };
        if (k->type == KEY_ROUTE) {
            if (!strcasecmp(val, "track")) {
                v->s.p.route_track = 1;
            } else {
                int n = parse_xyr_list(L, val, NULL, &at, k);
                if (n > 0 && (v->route = malloc((size_t)n * sizeof *v->route))) {
                    parse_xyr_list(L, val, v->route, &at, k);
                    v->nroute = n;
                }
            }
            continue;
        }
        {
            /* Problems were reported where the key is written (the
             * section's own pass); here the value is only read. */
            struct map_error e = { NULL, 0 };
            struct loader q = *L;
            q.err = &e;
            q.errlen = 0;
            q.errors = 0;
            parse_value(&q, k, val, &v->s, &at);
            map_error_free(&e);
        }
        if (!strcmp(k->name, "heading"))
            v->has_heading = 1;
    }
}

static int cmp_wsec(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

/* Room for element n of an array that only grows one at a time through
 * here.  The capacity doubles at each power of two from 16 (so it follows
 * from n and is not stored): a million appends stay linear even where
 * realloc copies every time (AddressSanitizer's does). */
static int grow_array(void **p, int n, size_t elem)
{
    if (n > 0 && (n < 16 || (n & (n - 1))))
        return 0;
    void *q = realloc(*p, (n < 16 ? 16 : 2 * (size_t)n) * elem);
    if (!q)
        return -1;
    *p = q;
    return 0;
}

/* Out of memory part way: an error, so that no half-read map is built. */
static void parse_oom(struct loader *L)
{
    errorf(L, 0, NULL, NULL, NULL, "out of memory reading the map");
}

/* A set of waypoint numbers with how often each was added, so a duplicate
 * is found without comparing every pair of sections. */
struct numset {
    long *n;
    int *count;                 /* 0: an empty slot */
    size_t cap, used;
};

static size_t num_hash(long n)
{
    uint64_t x = (uint64_t)n * 0x9e3779b97f4a7c15u;
    return (size_t)(x ^ (x >> 29));
}

/* Adds n: how many times it was there before, or -1 out of memory. */
static int numset_add(struct numset *S, long n)
{
    if (2 * (S->used + 1) > S->cap) {
        size_t cap = S->cap ? 2 * S->cap : 64;
        long *nn = malloc(cap * sizeof *nn);
        int *cc = calloc(cap, sizeof *cc);
        if (!nn || !cc) {
            free(nn);
            free(cc);
            return -1;
        }
        for (size_t i = 0; i < S->cap; i++)
            if (S->count[i]) {
                size_t k = num_hash(S->n[i]) & (cap - 1);
                while (cc[k])
                    k = (k + 1) & (cap - 1);
                nn[k] = S->n[i];
                cc[k] = S->count[i];
            }
        free(S->n);
        free(S->count);
        S->n = nn;
        S->count = cc;
        S->cap = cap;
    }
    size_t k = num_hash(n) & (S->cap - 1);
    while (S->count[k] && S->n[k] != n)
        k = (k + 1) & (S->cap - 1);
    if (S->count[k])
        return S->count[k]++;
    S->n[k] = n;
    S->count[k] = 1;
    S->used++;
    return 0;
}

static void numset_free(struct numset *S)
{
    free(S->n);
    free(S->count);
    memset(S, 0, sizeof *S);
}

/* The team whose [team.NAME] section has this exact name (a tank's team
 * value is not lowercased, and iniparser's names are), or -1. */
static int team_named(const struct loader *L, const struct parsed *P, const char *name)
{
    char full[MAP_MAX_LINE_BYTES + 16];
    snprintf(full, sizeof full, "team.%s", name);
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

/* Reads every section into P; reports every problem it finds. */
static void parse_sections(struct loader *L, struct parsed *P, struct numset *wnums)
{
    memset(P, 0, sizeof *P);
    P->map_section = P->trees_section = P->track_section = -1;
    apply_defaults(L, SEC_MAP, TGT_MAP, &P->map);
    apply_defaults(L, SEC_TREES, TGT_TREES, &P->trees);
    apply_defaults(L, SEC_TRACK, TGT_TRACK, &P->track);
    apply_defaults(L, SEC_SIGHT, TGT_SIGHT, &P->sight);

    /* Teams first: tanks and turrets name them, wherever they appear. */
    for (int s = 0; s < L->scan.nsections; s++) {
        const char *id;
        if (section_kind(L->scan.sections[s].name, &id) != SEC_TEAM)
            continue;
        if (!valid_id(id)) {
            errorf(L, L->scan.sections[s].line, L->scan.sections[s].name, NULL, NULL,
                   "a team name uses letters, digits, '_', '-' and '.', at most 40");
            continue;
        }
        if (grow_array((void **)&P->teams, P->nteams, sizeof *P->teams)) {
            parse_oom(L);
            return;
        }
        struct tspec *t = &P->teams[P->nteams++];
        memset(t, 0, sizeof *t);
        t->section = s;
        t->name = strdup(id);
        if (!t->name) {
            parse_oom(L);
            return;
        }
        t->set.color = (P->nteams - 1) % WORLD_NCOLORS;
        t->has_color = section_has(L, s, "color");
        apply_defaults(L, SEC_TEAM, TGT_TEAM, &t->set);
        t->set.color = (P->nteams - 1) % WORLD_NCOLORS;
        parse_section_keys(L, P, s, SEC_TEAM, &t->set);
    }

    for (int s = 0; s < L->scan.nsections; s++) {
        const struct scan_section *sec = &L->scan.sections[s];
        const char *id;
        unsigned kind = section_kind(sec->name, &id);
        if (!kind) {
            if (muted(L))
                continue;
            const char *hint = closest_section(sec->name);
            errorf(L, sec->line, sec->name, NULL, NULL,
                   "unknown section%s%s%s (allowed: [map], [trees], [tree.ID], [team.NAME], "
                   "[tank.ID], [turret.ID], [track], [waypoint.N], [car.ID], [sight])",
                   hint ? " (did you mean [" : "", hint ? hint : "", hint ? "]?)" : "");
            continue;
        }
        if (id && !valid_id(id)) {
            errorf(L, sec->line, sec->name, NULL, NULL,
                   "an id uses letters, digits, '_', '-' and '.', at most 40 characters");
            continue;
        }
        switch (kind) {
        case SEC_MAP:
            P->map_section = s;
            parse_section_keys(L, P, s, kind, NULL);
            require_keys(L, s, kind);
            break;
        case SEC_TREES:
            P->trees_section = s;
            P->has_min_r = section_has(L, s, "min_radius");
            P->has_max_r = section_has(L, s, "max_radius");
            parse_section_keys(L, P, s, kind, NULL);
            break;
        case SEC_TRACK:
            P->track_section = s;
            parse_section_keys(L, P, s, kind, NULL);
            break;
        case SEC_SIGHT:
            parse_section_keys(L, P, s, kind, NULL);
            break;
        case SEC_TEAM:
            break;
        case SEC_TREE: {
            struct xyr t = { 0, 0, 0 };
            parse_section_keys(L, P, s, kind, &t);
            require_keys(L, s, kind);
            if (grow_array((void **)&P->tree_secs, P->ntree_secs, sizeof t)) {
                parse_oom(L);
                return;
            }
            P->tree_secs[P->ntree_secs++] = t;
            break;
        }
        case SEC_WAYPOINT: {
            char *end;
            errno = 0;
            long n = strtol(id, &end, 10);
            if (*end || errno || n < 0) {
                errorf(L, sec->line, sec->name, NULL, NULL,
                       "a waypoint section is [waypoint.N] with N a whole number 0 or more");
                break;
            }
            struct xyr t = { 0, 0, 0 };
            parse_section_keys(L, P, s, kind, &t);
            require_keys(L, s, kind);
            if (grow_array((void **)&P->wsecs, P->nwsecs, sizeof *P->wsecs)) {
                parse_oom(L);
                return;
            }
            P->wsecs[P->nwsecs].n = n;
            P->wsecs[P->nwsecs].w = t;
            /* Once for each earlier section of the same number. */
            int times = numset_add(wnums, n);
            if (times < 0) {
                parse_oom(L);
                return;
            }
            for (int j = 0; j < times; j++)
                errorf(L, sec->line, sec->name, NULL, NULL,
                       "waypoint number %ld is given twice", n);
            P->nwsecs++;
            break;
        }
        case SEC_TANK:
        case SEC_TURRET:
        case SEC_CAR: {
            if (grow_array((void **)&P->veh, P->nveh, sizeof *P->veh)) {
                parse_oom(L);
                return;
            }
            struct vspec *v = &P->veh[P->nveh++];
            memset(v, 0, sizeof *v);
            v->section = s;
            v->kind = kind == SEC_TANK ? VK_TANK : kind == SEC_TURRET ? VK_TURRET : VK_CAR;
            v->id = strdup(sec->name);
            if (!v->id) {
                parse_oom(L);
                return;
            }
            v->team = -1;
            if (kind != SEC_CAR) {
                const char *tn = raw_value(L, s, "team");
                if (tn) {
                    v->team = team_named(L, P, tn);
                    if (v->team < 0)
                        errorf(L, key_line(L, s, "team"), sec->name, "team", tn,
                               "no such team (declare it with a [team.%s] section)", tn);
                }
            }
            /* Unknown keys and bad values of this section itself. */
            struct vehicle_spec scratch;
            memset(&scratch, 0, sizeof scratch);
            parse_section_keys(L, P, s, kind, &scratch);
            require_keys(L, s, kind);
            resolve_vehicle(L, P, v, kind);
            break;
        }
        }
    }
    if (P->map_section < 0)
        errorf(L, 0, NULL, NULL, NULL, "no [map] section: a map needs [map] with width and height");
    /* qsort's array must not be NULL, even for no elements. */
    if (P->nwsecs > 1)
        qsort(P->wsecs, (size_t)P->nwsecs, sizeof *P->wsecs, cmp_wsec);
}

static void parse_all(struct loader *L, struct parsed *P)
{
    struct numset wnums;
    memset(&wnums, 0, sizeof wnums);
    parse_sections(L, P, &wnums);
    numset_free(&wnums);
}

/* ---- checks across keys and placement ----------------------------------- */

static int sec_line(const struct loader *L, int s)
{
    return s >= 0 ? L->scan.sections[s].line : 0;
}

static const char *sec_name(const struct loader *L, int s)
{
    return s >= 0 ? L->scan.sections[s].name : NULL;
}

static void check_all(struct loader *L, struct parsed *P)
{
    double W = P->map.width, H = P->map.height;

    if (P->map_section < 0 || W <= 0 || H <= 0)
        return;                 /* reported already */

    /* Entities before any allocation: at most a million, trees included. */
    double count = (double)P->trees.random + P->ntrees_at + P->ntree_secs + P->nveh;
    for (int t = 0; t < P->nteams; t++)
        count += P->teams[t].set.random;
    if (count > WORLD_MAX_ENTITIES) {
        errorf(L, 0, NULL, NULL, NULL, "%.0f entities (trees, tanks, turrets, cars): at most "
               "1000000 are allowed; lower a 'random' count", count);
        return;
    }
    int ts = P->trees_section;
    if (P->has_min_r != P->has_max_r)
        errorf(L, sec_line(L, ts), sec_name(L, ts), P->has_min_r ? "min_radius" : "max_radius",
               NULL, "give min_radius and max_radius together (or radius alone)");
    if (P->has_min_r && P->has_max_r && P->trees.min_radius > P->trees.max_radius)
        errorf(L, key_line(L, ts, "min_radius"), sec_name(L, ts), "min_radius", NULL,
               "min_radius %g is larger than max_radius %g", P->trees.min_radius, P->trees.max_radius);
    double rmax = P->has_max_r ? P->trees.max_radius : P->trees.radius;
    if (P->trees.random > 0 && (2 * rmax > W || 2 * rmax > H))
        errorf(L, key_line(L, ts, "random"), sec_name(L, ts), "random", NULL,
               "a random tree of radius %g does not fit wholly inside a %g x %g map", rmax, W, H);

    for (int i = 0; i < P->nveh; i++) {
        struct vspec *v = &P->veh[i];
        const char *sn = L->scan.sections[v->section].name;
        if (v->s.x < 0 || v->s.x > W || v->s.y < 0 || v->s.y > H)
            errorf(L, key_line(L, v->section, "x"), sn, "x", NULL,
                   "(%g, %g) is outside the map (expected x from 0 to %g and y from 0 to %g)",
                   v->s.x, v->s.y, W, H);
        if (v->kind == VK_CAR && v->s.p.min_speed > v->s.p.max_speed)
            errorf(L, key_line(L, v->section, "min_speed"), sn, "min_speed", NULL,
                   "min_speed %g is above max_speed %g", v->s.p.min_speed, v->s.p.max_speed);
        if (v->kind == VK_TANK && v->s.p.behaviour == BEHAVIOUR_PATROL) {
            if (!v->s.p.route_track && v->nroute == 0)
                errorf(L, sec_line(L, v->section), sn, "route", NULL,
                       "missing: behaviour = patrol needs a route (x y r list or track)");
            if (v->s.p.route_track && P->ntrack_list + P->nwsecs == 0)
                errorf(L, sec_line(L, v->section), sn, "route", "track",
                       "there is no [track] with waypoints to patrol");
        }
        if (v->kind == VK_CAR && P->ntrack_list + P->nwsecs == 0)
            errorf(L, sec_line(L, v->section), sn, NULL, NULL,
                   "a car needs a [track] with waypoints (or [waypoint.N] sections)");
        /* No two vehicles share an id: an id is its section's name, and
         * the scanner refuses a second section of a name. */
    }
    if (P->ntrack_list && P->nwsecs)
        errorf(L, key_line(L, P->track_section, "waypoints"), "track", "waypoints", NULL,
               "give the track either as waypoints = ... or as [waypoint.N] sections, not both");
}

/* ---- building the world ------------------------------------------------- */

/* A bucket grid of placed circles for rejection sampling, so placing
 * 100,000 tanks stays linear. */
struct place_grid {
    double cell;
    int nx, ny;
    int *head, *next;
    const vec2 *pos; const double *rad;
};

static int place_clear(const struct place_grid *g, const vec2 *pos, const double *rad,
                       vec2 p, double r, double gap, double reach)
{
    int x0 = grid_cell_of(p.x - reach, g->cell, g->nx), x1 = grid_cell_of(p.x + reach, g->cell, g->nx);
    int y0 = grid_cell_of(p.y - reach, g->cell, g->ny), y1 = grid_cell_of(p.y + reach, g->cell, g->ny);
    for (int cy = y0; cy <= y1; cy++)
        for (int cx = x0; cx <= x1; cx++)
            for (int k = g->head[cy * g->nx + cx]; k >= 0; k = g->next[k]) {
                double need = r + rad[k] + gap;
                if (v2_dist2(p, pos[k]) < need * need)
                    return 0;
            }
    return 1;
}

static int build(struct loader *L, struct parsed *P, const struct map_options *opt,
                 struct world *w)
{
    world_init(w, P->map.width, P->map.height);
    w->cell = P->map.cell;
    w->seed = opt && opt->has_seed ? opt->seed : P->map.seed;
    w->tick_rate = P->map.tick_rate;
    w->dt = 1.0 / w->tick_rate;
    w->duration = P->map.duration;
    w->sight = P->sight;
    w->track_laps = P->track.laps;
    if (P->map.name) {
        w->name = strdup(P->map.name);
    } else {
        const char *base = strrchr(L->path, '/');
        base = base ? base + 1 : L->path;
        w->name = strdup(base);
        char *dot = w->name ? strrchr(w->name, '.') : NULL;
        if (dot && dot != w->name)
            *dot = 0;
    }
    if (!w->name)
        goto oom;
    struct rng rng;
    rng_seed(&rng, w->seed, 1);

    for (int i = 0; i < P->ntrees_at; i++)
        if (world_add_tree(w, v2(P->trees_at[i].x, P->trees_at[i].y), P->trees_at[i].r) < 0)
            goto oom;
    for (int i = 0; i < P->ntree_secs; i++)
        if (world_add_tree(w, v2(P->tree_secs[i].x, P->tree_secs[i].y), P->tree_secs[i].r) < 0)
            goto oom;
    for (int i = 0; i < P->trees.random; i++) {
        double r = P->has_min_r ? rng_range(&rng, P->trees.min_radius, P->trees.max_radius)
                                : P->trees.radius;
        /* y is drawn before x: the order gcc happened to use when this
         * was one expression, kept so that every recorded trace stays
         * valid; named locals fix it for every compiler. */
        double y = rng_range(&rng, r, P->map.height - r);
        double x = rng_range(&rng, r, P->map.width - r);
        vec2 c = v2(x, y);
        if (world_add_tree(w, c, r) < 0)
            goto oom;
    }
    for (int t = 0; t < P->nteams; t++)
        if (world_add_team(w, P->teams[t].name, P->teams[t].set.color) < 0)
            goto oom;
    for (int i = 0; i < P->ntrack_list; i++)
        if (world_add_waypoint(w, v2(P->track_list[i].x, P->track_list[i].y), P->track_list[i].r) < 0)
            goto oom;
    for (int i = 0; i < P->nwsecs; i++)
        if (world_add_waypoint(w, v2(P->wsecs[i].w.x, P->wsecs[i].w.y), P->wsecs[i].w.r) < 0)
            goto oom;

    /* Explicit vehicles, in the order of the file. */
    for (int i = 0; i < P->nveh; i++) {
        struct vspec *v = &P->veh[i];
        if (v->nroute) {
            v->s.p.route_first = (int)w->route_points.n;
            v->s.p.route_count = v->nroute;
            for (int j = 0; j < v->nroute; j++)
                if (world_add_route_point(w, v2(v->route[j].x, v->route[j].y), v->route[j].r) < 0)
                    goto oom;
        }
        double heading = v->s.heading;
        if (!v->has_heading) {
            if (v->kind == VK_CAR && w->track.n)
                heading = v2_angle(v2_sub(w->track.p[0].c, v2(v->s.x, v->s.y)));
            else if (v->kind == VK_TANK)
                heading = rng_range(&rng, -M_PI, M_PI);
        }
        if (world_add_vehicle(w, v->id, v->kind, v->team, &v->s.p, v2(v->s.x, v->s.y), heading) < 0)
            goto oom;
    }

    /* Random tanks, team by team: one tank radius clear of trees, other
     * vehicles and the edge, found by rejection sampling on a bucket grid. */
    long nrandom = 0;
    double rmax_v = 0;
    for (int t = 0; t < P->nteams; t++)
        nrandom += P->teams[t].set.random;
    if (nrandom > 0) {
        double tr = 0;
        for (size_t i = 0; i < w->trees.n; i++)
            if (w->trees.p[i].r > tr)
                tr = w->trees.p[i].r;
        size_t cap = w->trees.n + w->vehicles.n + (size_t)nrandom;
        vec2 *pos = malloc(cap * sizeof *pos);
        double *rad = malloc(cap * sizeof *rad);
        struct place_grid g;
        memset(&g, 0, sizeof g);
        /* Team radii first, so the grid's reach covers the biggest. */
        struct vehicle_spec *specs = calloc((size_t)P->nteams, sizeof *specs);
        if (!pos || !rad || !specs) {
            free(pos); free(rad); free(specs);
            goto oom;
        }
        for (int t = 0; t < P->nteams; t++) {
            struct vspec tmp;
            memset(&tmp, 0, sizeof tmp);
            tmp.section = P->teams[t].section;
            tmp.team = t;
            /* A team's own keys are its tanks' keys. */
            tmp.section = P->teams[t].section;
            resolve_vehicle(L, P, &tmp, SEC_TANK);
            specs[t] = tmp.s;
            if (tmp.route) {
                tmp.s.p.route_first = (int)w->route_points.n;
                tmp.s.p.route_count = tmp.nroute;
                specs[t].p = tmp.s.p;
                for (int j = 0; j < tmp.nroute; j++)
                    if (world_add_route_point(w, v2(tmp.route[j].x, tmp.route[j].y), tmp.route[j].r) < 0) {
                        free(tmp.route); free(pos); free(rad); free(specs);
                        goto oom;
                    }
                free(tmp.route);
            }
            if (specs[t].p.radius > rmax_v)
                rmax_v = specs[t].p.radius;
        }
        for (size_t i = 0; i < w->vehicles.n; i++)
            if (w->vehicles.p[i].p->radius > rmax_v)
                rmax_v = w->vehicles.p[i].p->radius;
        g.cell = 2 * (rmax_v > tr ? rmax_v : tr) + 2 * rmax_v;
        if (g.cell <= 0)
            g.cell = 1;
        while (ceil(P->map.width / g.cell) * ceil(P->map.height / g.cell) > GRID_MAX_CELLS)
            g.cell *= 2;
        g.nx = (int)ceil(P->map.width / g.cell);
        g.ny = (int)ceil(P->map.height / g.cell);
        if (g.nx < 1) g.nx = 1;
        if (g.ny < 1) g.ny = 1;
        g.head = malloc((size_t)g.nx * (size_t)g.ny * sizeof *g.head);
        g.next = malloc(cap * sizeof *g.next);
        if (!g.head || !g.next) {
            free(g.head); free(g.next); free(pos); free(rad); free(specs);
            goto oom;
        }
        for (int c = 0; c < g.nx * g.ny; c++)
            g.head[c] = -1;
        int n = 0;
#define PLACE(p_, r_) do {                                                    \
            int c_ = grid_cell_of((p_).y, g.cell, g.ny) * g.nx                \
                   + grid_cell_of((p_).x, g.cell, g.nx);                      \
            pos[n] = (p_); rad[n] = (r_); g.next[n] = g.head[c_]; g.head[c_] = n++; \
        } while (0)
        for (size_t i = 0; i < w->trees.n; i++)
            PLACE(w->trees.p[i].c, w->trees.p[i].r);
        for (size_t i = 0; i < w->vehicles.n; i++)
            PLACE(w->vehicles.p[i].pos, w->vehicles.p[i].p->radius);
        int failed = 0;
        for (int t = 0; t < P->nteams && !failed; t++) {
            double r = specs[t].p.radius;
            double reach = r + (rmax_v > tr ? rmax_v : tr) + r;
            for (int k = 1; k <= P->teams[t].set.random && !failed; k++) {
                vec2 p = v2(0, 0);
                int ok = 0;
                if (P->map.width > 4 * r && P->map.height > 4 * r)
                    for (int attempt = 0; attempt < 10000 && !ok; attempt++) {
                        /* y before x, as for random trees. */
                        double y = rng_range(&rng, 2 * r, P->map.height - 2 * r);
                        double x = rng_range(&rng, 2 * r, P->map.width - 2 * r);
                        p = v2(x, y);
                        ok = place_clear(&g, pos, rad, p, r, r, reach);
                    }
                if (!ok) {
                    errorf(L, key_line(L, P->teams[t].section, "random"),
                           P->teams[t].name ? L->scan.sections[P->teams[t].section].name : NULL,
                           "random", NULL,
                           "no room for tank %d of %d: a random tank needs one radius (%g) "
                           "clear of trees, vehicles and the edge; use fewer tanks or a bigger map",
                           k, P->teams[t].set.random, r);
                    failed = 1;
                    break;
                }
                char id[128];
                snprintf(id, sizeof id, "tank.%s.%d", P->teams[t].name, k);
                double heading = specs[t].heading;
                int has_heading = section_has(L, P->teams[t].section, "heading");
                if (!has_heading)
                    heading = rng_range(&rng, -M_PI, M_PI);
                /* Random ids differ from each other (a team's name and a
                 * number after its last dot), so only a [tank.ID] section
                 * can take one; looked up by name, not through every
                 * vehicle placed so far. */
                if (scan_find_section(&L->scan, id) >= 0) {
                    errorf(L, sec_line(L, P->teams[t].section), NULL, NULL, NULL,
                           "random tank id %s is also given as a [%s] section", id, id);
                    failed = 1;
                    break;
                }
                if (world_add_vehicle(w, id, VK_TANK, t, &specs[t].p, p, heading) < 0) {
                    failed = 1;
                    errorf(L, 0, NULL, NULL, NULL, "out of memory");
                    break;
                }
                PLACE(p, r);
            }
        }
#undef PLACE
        free(g.head); free(g.next); free(pos); free(rad); free(specs);
        if (failed)
            return -1;
    }
    if (world_finish(w))
        goto oom;
    return 0;
oom:
    errorf(L, 0, NULL, NULL, NULL, "out of memory building the map");
    return -1;
}

/* ---- entry points ------------------------------------------------------- */

static int silent(const char *fmt, ...)
{
    (void)fmt;
    return 0;
}

/* Sections and keys in one piece of the file given to iniparser.  Its
 * dictionary starts with room for 128 and walks all of it on every insert
 * and lookup: a piece that fits keeps that walk short, and the pieces are
 * few enough that opening each costs little. */
#define INI_CHUNK 120

static int write_at(int fd, const char *p, size_t n, off_t *off)
{
    while (n) {
        ssize_t w = pwrite(fd, p, n, *off);
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
        *off += w;
    }
    return 0;
}

/* Reads the value of every key through iniparser into L->val.  iniparser
 * reads only from a path: the pieces go through one anonymous memory file
 * where the system has one, else a temporary file, rewritten for each.
 * A piece is whole lines of the clean copy, holding at most INI_CHUNK
 * sections and keys; one that starts inside a section repeats the
 * section's header (a section of many keys spans pieces).  0, or -1 when
 * iniparser could not load a piece or memory ran out. */
static int ini_read_values(struct loader *L)
{
    const struct scan_result *S = &L->scan;
    L->val = calloc(S->nkeys ? (size_t)S->nkeys : 1, sizeof *L->val);
    /* Each value is at most the rest of its line of the clean copy. */
    size_t vcap = S->clean_len + 1, vlen = 0;
    L->vals = malloc(vcap);
    if (!L->val || !L->vals)
        return -1;

    char path[64];
    int fd = -1;
#ifdef HAVE_MEMFD_CREATE
    fd = memfd_create("botfield-map", MFD_CLOEXEC);
    if (fd >= 0)
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
#endif
    int temp = 0;
    if (fd < 0) {
        const char *dir = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/botfield-XXXXXX", dir && strlen(dir) < 40 ? dir : "/tmp");
        fd = mkstemp(path);
        temp = 1;
    }
    if (fd < 0)
        return -1;
    iniparser_set_error_callback(silent);

    int rc = 0;
    const char *t = S->clean;
    size_t len = S->clean_len, pos = 0;
    int sec = -1, next_key = 0;
    while (rc == 0 && pos < len) {
        /* In the clean copy a line is blank, a header ('[') or the next key. */
        int head = sec, first_key = next_key, entries = 0;
        size_t start = pos;
        while (pos < len) {
            if (t[pos] != '\n') {
                if (entries == INI_CHUNK)
                    break;
                entries++;
                if (t[pos] == '[')
                    sec++;
                else
                    next_key++;
            }
            const char *nl = memchr(t + pos, '\n', len - pos);
            pos = nl ? (size_t)(nl - t) + 1 : len;
        }
        if (next_key == first_key)
            continue;           /* only headers: no value to read */
        off_t off = 0;
        if (ftruncate(fd, 0)
            || (head >= 0 && (write_at(fd, "[", 1, &off)
                              || write_at(fd, S->sections[head].name,
                                          strlen(S->sections[head].name), &off)
                              || write_at(fd, "]\n", 2, &off)))
            || write_at(fd, t + start, pos - start, &off)) {
            rc = -1;
            break;
        }
        dictionary *d = iniparser_load(path);
        if (!d) {
            rc = -1;
            break;
        }
        for (int i = first_key; i < next_key; i++) {
            const struct scan_key *k = &S->keys[i];
            char full[256];
            snprintf(full, sizeof full, "%s:%s", S->sections[k->section].name, k->name);
            const char *v = iniparser_getstring(d, full, NULL);
            if (!v)
                continue;
            size_t n = strlen(v);
            if (n >= vcap - vlen) {
                rc = -1;        /* cannot happen: iniparser only shortens a line */
                break;
            }
            memcpy(L->vals + vlen, v, n + 1);
            L->val[i] = L->vals + vlen;
            vlen += n + 1;
        }
        iniparser_freedict(d);
    }
    if (temp)
        unlink(path);
    close(fd);
    return rc;
}

int map_load_text(const char *name, const char *text, size_t len,
                  const struct map_options *opt, struct world *out,
                  struct map_error *err)
{
    struct loader L;
    memset(&L, 0, sizeof L);
    L.path = name;
    L.err = err;
    err->text = NULL;
    err->count = 0;
    struct parsed P;
    memset(&P, 0, sizeof P);
    int rc = -1;
    struct kind_rows rows;
    rows_init(&rows);
    L.rows = &rows;

    if (scan_text(text, len, &L.scan, scan_report, &L))
        goto done;
    if (ini_read_values(&L)) {
        errorf(&L, 0, NULL, NULL, NULL, "iniparser could not load the file");
        goto done;
    }
    /* The values are ours now: the clean copy is not needed again. */
    free(L.scan.clean);
    L.scan.clean = NULL;
    L.scan.clean_len = 0;
    parse_all(&L, &P);
    if (L.errors == 0)
        check_all(&L, &P);
    if (L.errors == 0) {
        struct world w;
        if (build(&L, &P, opt, &w) == 0 && L.errors == 0) {
            *out = w;
            rc = 0;
        } else {
            world_free(&w);
        }
    }
done:
    if (L.errors > MAX_ERRORS) {
        char more[80];
        snprintf(more, sizeof more, "%s: %d more problems not shown\n", name, L.errors - MAX_ERRORS);
        size_t n = err->text ? strlen(err->text) : 0;
        char *t = realloc(err->text, n + strlen(more) + 1);
        if (t) {
            strcpy(t + n, more);
            err->text = t;
        }
    }
    if (rc && !err->text) {
        err->text = strdup("the map could not be loaded\n");
        err->count = 1;
    }
    parsed_free(&P);
    free(L.val);
    free(L.vals);
    for (int i = 0; i < 3; i++)
        free(L.tmpl[i]);
    scan_free(&L.scan);
    return rc;
}

int map_load(const char *path, const struct map_options *opt,
             struct world *out, struct map_error *err)
{
    err->text = NULL;
    err->count = 0;
    char buf[1024];
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0) {
        snprintf(buf, sizeof buf, "%s: cannot open the map: %s\n", path, strerror(errno));
        if (f)
            fclose(f);
        err->text = strdup(buf);
        err->count = 1;
        return -1;
    }
    if (S_ISDIR(st.st_mode) || (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > MAP_MAX_FILE_BYTES)) {
        snprintf(buf, sizeof buf, S_ISDIR(st.st_mode)
                 ? "%s: is a directory, not a map file\n"
                 : "%s: the file is larger than 64 MiB; a map is at most 64 MiB\n", path);
        fclose(f);
        err->text = strdup(buf);
        err->count = 1;
        return -1;
    }
    size_t cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 65536, len = 0;
    char *text = malloc(cap);
    while (text) {
        size_t n = fread(text + len, 1, cap - len, f);
        len += n;
        if (len > MAP_MAX_FILE_BYTES)
            break;
        if (n == 0)
            break;
        if (len == cap) {
            char *t = realloc(text, cap * 2);
            if (!t) {
                free(text);
                text = NULL;
                break;
            }
            text = t;
            cap *= 2;
        }
    }
    int rerr = ferror(f);
    fclose(f);
    if (!text || rerr) {
        snprintf(buf, sizeof buf, "%s: cannot read the map: %s\n", path,
                 text ? strerror(EIO) : "out of memory");
        free(text);
        err->text = strdup(buf);
        err->count = 1;
        return -1;
    }
    int rc = map_load_text(path, text, len, opt, out, err);
    free(text);
    return rc;
}
