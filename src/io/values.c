/* values.c — one value of a map, read and checked against its row of the
 * key table.
 *
 * Values are read with iniparser_getstring only (its typed getters crash
 * on a section name, CVE-2023-33461) and parsed here with strtod and
 * strtoull, checking the end pointer, errno and isfinite. */
#include "config.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "load.h"

/* ---- where a key is ----------------------------------------------------- */

/* iniparser's value of a key of a section, or NULL. */
const char *load_raw_value(const struct loader *L, int section, const char *key)
{
    int i = scan_find_key(&L->scan, section, key);
    return i >= 0 ? L->val[i] : NULL;
}

int load_key_line(const struct loader *L, int section, const char *key)
{
    int i = scan_find_key(&L->scan, section, key);
    return i >= 0 ? L->scan.keys[i].line : L->scan.sections[section].line;
}

int load_has_key(const struct loader *L, int section, const char *key)
{
    return scan_find_key(&L->scan, section, key) >= 0;
}

int load_sec_line(const struct loader *L, int s)
{
    return s >= 0 ? L->scan.sections[s].line : 0;
}

const char *load_sec_name(const struct loader *L, int s)
{
    return s >= 0 ? L->scan.sections[s].name : NULL;
}

unsigned load_kind_bit(unsigned kind)
{
    return (unsigned)__builtin_ctz(kind);
}

void load_rows_init(struct kind_rows *R)
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

/* ---- numbers ------------------------------------------------------------ */

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

static void bad(struct loader *L, const struct where *at, const struct key_def *k,
                const char *problem)
{
    if (L->quiet) {
        L->errors++;
        return;
    }
    char allowed[256];
    key_allowed(k, allowed, sizeof allowed);
    load_error(L, at->line, at->section, at->key, at->value, "%s (%s)", problem, allowed);
}

static int in_range(const struct key_def *k, double v)
{
    return !(v < k->min || v > k->max || (v == k->min && (k->flags & KEY_MIN_OPEN)));
}

/* A number of a numeric row, checked against its range. */
static int parse_ranged(struct loader *L, const struct key_def *k, const char *s,
                        const struct where *at, double *v)
{
    const char *why = NULL;
    if (parse_double(s, v, &why)) {
        bad(L, at, k, why);
        return -1;
    }
    if (!in_range(k, *v)) {
        bad(L, at, k, *v < 0 && k->min >= 0 ? "negative where it cannot be" : "out of range");
        return -1;
    }
    if (k->type == KEY_COUNT && *v != floor(*v)) {
        bad(L, at, k, "not a whole number");
        return -1;
    }
    return 0;
}

/* A seed: digits only (strtoull alone would take a sign or spaces and
 * read "-1" as 18446744073709551615). */
static int parse_seed(const char *s, uint64_t *out)
{
    while (isspace((unsigned char)*s))
        s++;
    if (!isdigit((unsigned char)*s))
        return -1;
    char *end;
    errno = 0;
    unsigned long long u = strtoull(s, &end, 10);
    while (isspace((unsigned char)*end))
        end++;
    if (*end || errno)
        return -1;
    *out = u;
    return 0;
}

/* ---- one value ---------------------------------------------------------- */

/* What is wrong with a `bot` path as written, or NULL.  Only its form:
 * the file itself (its links, its kind, its size) is checked when the bot
 * layer reads it.  A `..` may not climb above the map's folder. */
const char *bot_path_problem(const char *s)
{
    size_t n = strlen(s);
    if (n == 0)
        return "empty";
    if (s[0] == '/')
        return "an absolute path";
    if (n < 5 || strcmp(s + n - 4, ".lua"))
        return "does not end in .lua";
    int depth = 0;
    for (const char *p = s; *p;) {
        size_t len = strcspn(p, "/");
        if (len == 2 && p[0] == '.' && p[1] == '.') {
            if (--depth < 0)
                return "leaves the map's folder";
        } else if (len > 0 && !(len == 1 && p[0] == '.')) {
            depth++;
        }
        p += len;
        while (*p == '/')
            p++;
    }
    return NULL;
}

int load_parse_value(struct loader *L, const struct key_def *k, const char *s,
                     void *base, const struct where *at)
{
    void *dst = (char *)base + k->offset;     /* a field of the structure base points at */
    const char *why = NULL;
    double v;
    switch (k->type) {
    case KEY_NUM:
    case KEY_DEG:
    case KEY_COUNT:
        if (parse_ranged(L, k, s, at, &v))
            return -1;
        if (k->type == KEY_COUNT)
            *(int *)dst = (int)v;
        else
            *(double *)dst = k->type == KEY_DEG ? deg2rad(v) : v;
        return 0;
    case KEY_ANGLE:
        if (parse_double(s, &v, &why)) {
            bad(L, at, k, why);
            return -1;
        }
        *(double *)dst = angle_norm(deg2rad(fmod(v, 360.0)));
        return 0;
    case KEY_SEED:
        if (parse_seed(s, (uint64_t *)dst)) {
            bad(L, at, k, "not a whole number in range");
            return -1;
        }
        return 0;
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
    case KEY_BOT_PATH: {
        const char *why = bot_path_problem(s);
        if (why) {
            bad(L, at, k, why);
            return -1;
        }
        return 0;               /* kept by the callers (resolve.c) */
    }
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
    quiet.quiet = 1;
    quiet.path = "";
    struct where at = { 0, "", k->name, k->def };
    load_parse_value(&quiet, k, k->def, base, &at);
}

void load_apply_defaults(const struct loader *L, unsigned kind, enum key_target t,
                         void *base)
{
    unsigned b = load_kind_bit(kind);
    for (unsigned r = 0; r < L->rows->n[b]; r++) {
        const struct key_def *k = &key_table[L->rows->row[b][r]];
        if (k->target == t)
            set_default(k, base);
    }
}

/* ---- x y r lists -------------------------------------------------------- */

/* Item j (x, y or r) of triple n: a finite number within the range of the
 * same key of a [tree.ID] or [waypoint.N] section.  0 or -1 (reported). */
static int parse_item(struct loader *L, const char **p, int n, int j, unsigned item_kind,
                      double *v, const struct where *at, const struct key_def *k)
{
    static const char *const names[3] = { "x", "y", "r" };
    /* A triple cut short ("100 100, 200 200 10") is missing an item, not
     * holding a bad one: say which. */
    const char *q = *p;
    while (isspace((unsigned char)*q))
        q++;
    if (*q == '\0' || *q == ',') {
        char prob[128];
        if (j == 0)
            snprintf(prob, sizeof prob, "triple %d is empty", n + 1);
        else
            snprintf(prob, sizeof prob, "triple %d has %d number%s: its %s is missing",
                     n + 1, j, j == 1 ? "" : "s", names[j]);
        bad(L, at, k, prob);
        return -1;
    }
    char *end;
    errno = 0;
    *v = strtod(*p, &end);
    /* ERANGE with a small result is an underflow: a subnormal (or 0), a
     * number all the same, as parse_double takes it for a single key. */
    if (end == *p || !isfinite(*v) || (errno == ERANGE && fabs(*v) > 1)) {
        char prob[96];
        snprintf(prob, sizeof prob, "triple %d: item %d is not a finite number", n + 1, j + 1);
        bad(L, at, k, prob);
        return -1;
    }
    *p = end;
    if (j == 2 && *v <= 0) {
        char prob[96];
        snprintf(prob, sizeof prob, "triple %d: the radius must be more than 0", n + 1);
        bad(L, at, k, prob);
        return -1;
    }
    const struct key_def *item = key_find(item_kind, names[j]);
    if (item && !in_range(item, *v)) {
        if (L->quiet) {
            L->errors++;
            return -1;
        }
        char allowed[256];
        key_allowed(item, allowed, sizeof allowed);
        load_error(L, at->line, at->section, at->key, at->value,
                   "triple %d: %s = %g is out of range (%s, as in a [%s] section)",
                   n + 1, names[j], *v, allowed, section_names[load_kind_bit(item_kind)]);
        return -1;
    }
    return 0;
}

int load_parse_xyr_list(struct loader *L, const char *s, struct xyr *out,
                        const struct where *at, const struct key_def *k,
                        unsigned item_kind)
{
    int n = 0;
    const char *p = s;
    while (isspace((unsigned char)*p))
        p++;
    if (!*p)
        return 0;
    for (;;) {
        double v[3] = { 0, 0, 0 };
        for (int j = 0; j < 3; j++)
            if (parse_item(L, &p, n, j, item_kind, &v[j], at, k))
                return -1;
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
