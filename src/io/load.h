/* load.h — what the loader's files share (not part of the map API).
 *
 * A map is read in four steps, one file each:
 *   ini.c       iniparser reads the scanner's clean copy (scan.c) into
 *               one value per key;
 *   sections.c  every section and key is checked against the key table
 *               (keys.c) and parsed into a `struct parsed`;
 *   check.c     the checks across keys (ranges that depend on the map,
 *               routes, tracks) that no single key can make;
 *   build.c     the world is built (place.c places the random tanks).
 * values.c parses one value; errors.c collects the problems and lists
 * them in line order.  map.c reads the file and runs the steps. */
#ifndef BOTFIELD_LOAD_H
#define BOTFIELD_LOAD_H

#include <stdarg.h>
#include <stddef.h>

#include "keys.h"
#include "map.h"
#include "scan.h"

/* Past this many problems the rest are only counted. */
#define MAX_ERRORS 20

/* The rows of the key table that apply to a kind of section: those with
 * its bit that key_find() answers for it (not a team's copy of a row that
 * another row overrides). */
#define MAX_TABLE_ROWS 128
struct kind_rows {
    unsigned char n[SEC_NKINDS];
    unsigned char row[SEC_NKINDS][MAX_TABLE_ROWS];
};

/* One problem, kept until the end so the list comes out in line order. */
struct load_problem {
    int line;               /* 0: the whole file */
    char *text;             /* one line, without its '\n' */
};

struct loader {
    const char *path;
    struct scan_result scan;
    char **val;                 /* iniparser's value of each key; NULL: none */
    char *vals;                 /* where they are kept */
    const struct kind_rows *rows;
    /* Vehicles' defaults by kind (tank, turret, car): the same for each. */
    struct vehicle_spec *tmpl[3];
    struct load_problem *problems;
    int nproblems;              /* kept: at most MAX_ERRORS */
    int errors;                 /* found, kept or not */
    int quiet;                  /* count problems only (a value read again) */
    /* With --set (overrides.c): the file's line each line of the text
     * read came from, or -(i + 1) for setting i; NULL: the file itself. */
    const int *from;
    const struct map_set *set;
};

/* ---- overrides.c -------------------------------------------------------- */

/* The map's text with every setting written in: 0 with *text, *len and
 * *from (by line from 1; malloc'd), 1 when the file has problems of its
 * own (read it as it is), -1 out of memory.  *new_entity: the line of a
 * new section with a name or number ([team.NAME]: not the map's), or 0. */
int load_overlay(const char *text, size_t len, const struct map_set *set, int nset,
                 char **out_text, size_t *out_len, int **from, int *new_entity);

/* ---- errors.c ----------------------------------------------------------- */

/* "file:12: [tank.3] speed = fast: problem".  line 0, section or key NULL:
 * left out of the place. */
void load_error(struct loader *L, int line, const char *section, const char *key,
                const char *value, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* Past MAX_ERRORS a problem is only counted: 1 (after counting it) when
 * that is so, so that the caller need not work out its message. */
int load_muted(struct loader *L);
/* The scanner's problems, as scan_error_fn. */
void load_scan_report(void *ctx, int line, int section, const char *message);
/* The problems in line order into err (and "N more problems not shown"). */
void load_errors_finish(struct loader *L, struct map_error *err);
/* A copy of a formatted text (malloc'd), or NULL out of memory. */
char *load_strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- values.c ----------------------------------------------------------- */

struct where { int line; const char *section; const char *key; const char *value; };

const char *load_raw_value(const struct loader *L, int section, const char *key);
int load_key_line(const struct loader *L, int section, const char *key);
int load_has_key(const struct loader *L, int section, const char *key);
int load_sec_line(const struct loader *L, int s);
const char *load_sec_name(const struct loader *L, int s);
unsigned load_kind_bit(unsigned kind);
void load_rows_init(struct kind_rows *R);
/* Parses one value of a scalar row into base + k->offset: 0, or -1 after
 * reporting the problem. */
/* What is wrong with a `bot` path as written, or NULL (values.c). */
const char *bot_path_problem(const char *s);
int load_parse_value(struct loader *L, const struct key_def *k, const char *s,
                     void *base, const struct where *at);
/* Sets every default of the rows of `kind` that write into target t. */
void load_apply_defaults(const struct loader *L, unsigned kind, enum key_target t,
                         void *base);
/* Parses "x y r, x y r, ..." with each item bounded like the `x`, `y`,
 * `r` keys of a [tree.ID] (kind SEC_TREE) or [waypoint.N] (SEC_WAYPOINT)
 * section.  The count, or -1 after an error; out may be NULL to count. */
int load_parse_xyr_list(struct loader *L, const char *s, struct xyr *out,
                        const struct where *at, const struct key_def *k,
                        unsigned item_kind);

/* ---- the parsed map, before a world is built ---------------------------- */

struct vspec {
    int section;                /* its section, for messages */
    enum vehicle_kind kind;
    char *id;
    int team;                   /* index in teams, -1 none */
    int has_heading;
    struct vehicle_spec s;
    struct xyr *route; int nroute;
    char *bot, *bot_where;      /* its `bot` key and where it is written */
};

struct tspec {
    int section;
    char *bot, *bot_where;      /* its tanks' `bot` (random tanks) */
    char *name;
    struct team_settings set;
    int has_color;
};

struct wsec { long n; struct xyr w; };

struct parsed {
    struct map_settings map;
    struct trees_settings trees;
    int has_min_r, has_max_r;
    struct xyr *trees_at; int ntrees_at;
    struct xyr *tree_secs; int ntree_secs; size_t cap_tree_secs;
    struct tspec *teams; int nteams; size_t cap_teams;
    struct vspec *veh; int nveh; size_t cap_veh;
    struct track_settings track;
    struct xyr *track_list; int ntrack_list;
    struct wsec *wsecs; int nwsecs; size_t cap_wsecs;
    struct sight_config sight;
    struct match_settings match;    /* [match] */
    int match_section;              /* its index, -1: none */
    int map_section, trees_section, track_section;
};

/* ---- ini.c, sections.c, check.c, build.c, place.c ----------------------- */

/* Every key's value through iniparser into L->val: 0, or -1. */
int load_ini_values(struct loader *L);
/* Reads every section into P, reporting every problem. */
void load_sections(struct loader *L, struct parsed *P);
void load_parsed_free(struct parsed *P);
/* The value of every vehicle key of v: its own section's, else its team's. */
void load_resolve_vehicle(struct loader *L, struct parsed *P, struct vspec *v,
                          unsigned kind);
/* The checks across keys; run only when every key read well. */
void load_check(struct loader *L, struct parsed *P);
/* Builds the world: 0, or -1 after reporting why (w is then to be freed). */
int load_build(struct loader *L, struct parsed *P, const struct map_options *opt,
               struct world *w);
/* Places every team's random tanks, drawing from rng: 0 or -1 (reported). */
int load_place_random_tanks(struct loader *L, struct parsed *P, struct world *w,
                            struct rng *rng);

#endif
