#include "config.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/grow.h"
#include "map.h"
#include "scan.h"

static void trim(const char **s, size_t *n)
{
    while (*n && isspace((unsigned char)**s)) {
        (*s)++;
        (*n)--;
    }
    while (*n && isspace((unsigned char)(*s)[*n - 1]))
        (*n)--;
}

struct scanner {
    struct scan_result *r;
    size_t seccap, keycap;      /* of r->sections, r->keys */
    size_t names_len;
    scan_error_fn report;
    void *ctx;
    int errors;
    char *out;
    size_t outn;
};

static void err(struct scanner *s, int line, int section, const char *fmt, const char *arg)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, arg);
    s->report(s->ctx, line, section, msg);
    s->errors++;
}

/* The longest line iniparser 4.1 reads whole: fgets into 1,024 bytes,
 * 1,023 with the newline it needs to see (the last line gets one too). */
#define INI_LINE_FIT (MAP_MAX_LINE_BYTES - 2)

/* A line iniparser cannot read: say how to split it. */
static void long_line(struct scanner *s, int line, int section, size_t n)
{
    char num[24];
    snprintf(num, sizeof num, "%zu", n);
    err(s, line, section < 0 ? -1 : section, n > MAP_MAX_LINE_BYTES
        ? "line of %s bytes: a line may be at most 1024 bytes (iniparser's limit); put long lists "
          "of trees or waypoints in numbered [tree.N] or [waypoint.N] sections"
        : "line of %s bytes: iniparser reads at most 1022 bytes of key=value (without the spaces "
          "around '='); put long lists of trees or waypoints in numbered [tree.N] or [waypoint.N] "
          "sections", num);
}

static void emit(struct scanner *s, const char *p, size_t n)
{
    memcpy(s->out + s->outn, p, n);
    s->outn += n;
}

/* 64-bit FNV-1a (on every platform): names are short and the tables only
 * need a fair spread. */
#define FNV_PRIME UINT64_C(1099511628211)
#define HASH_SEED UINT64_C(14695981039346656037)

static size_t hash_name(const char *name, uint64_t h)
{
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * FNV_PRIME;
    return (size_t)(h ^ (h >> 32));
}

static size_t hash_key(int section, const char *name)
{
    return hash_name(name, (HASH_SEED ^ (uint64_t)(unsigned)section) * FNV_PRIME);
}

int scan_find_section(const struct scan_result *r, const char *name)
{
    if (!r->sec_hash_cap)
        return -1;
    size_t mask = r->sec_hash_cap - 1;
    for (size_t k = hash_name(name, HASH_SEED) & mask; r->sec_hash[k] >= 0; k = (k + 1) & mask)
        if (strcmp(r->sections[r->sec_hash[k]].name, name) == 0)
            return r->sec_hash[k];
    return -1;
}

/* A section of at most this many keys is searched in place: its keys lie
 * together, so that is quicker than a probe into a big table.  Only the
 * keys of larger sections go into the table. */
#define SMALL_SECTION 16

int scan_find_key(const struct scan_result *r, int section, const char *name)
{
    const struct scan_section *sec = &r->sections[section];
    if (sec->nkeys <= SMALL_SECTION) {
        for (int i = sec->first_key; i < sec->first_key + sec->nkeys; i++)
            if (strcmp(r->keys[i].name, name) == 0)
                return i;
        return -1;
    }
    size_t mask = r->key_hash_cap - 1;
    for (size_t k = hash_key(section, name) & mask; r->key_hash[k] >= 0; k = (k + 1) & mask) {
        const struct scan_key *key = &r->keys[r->key_hash[k]];
        if (key->section == section && strcmp(key->name, name) == 0)
            return r->key_hash[k];
    }
    return -1;
}

/* Makes room for `more` entries in a table kept at most half full (so a
 * probe ends soon), rehashing the entries already in.  0, or -1 when
 * out of memory (the old table is kept). */
static int hash_reserve(struct scan_result *r, int keys, size_t more)
{
    int **tab = keys ? &r->key_hash : &r->sec_hash;
    size_t *cap = keys ? &r->key_hash_cap : &r->sec_hash_cap;
    size_t n = keys ? r->key_hashed : (size_t)r->nsections;
    if (2 * (n + more) <= *cap)
        return 0;
    size_t c = *cap ? 2 * *cap : 64;
    while (2 * (n + more) > c)
        c *= 2;
    int *h = malloc(c * sizeof *h);
    if (!h)
        return -1;
    for (size_t k = 0; k < c; k++)
        h[k] = -1;
    for (size_t k = 0; k < *cap; k++) {
        int i = (*tab)[k];
        if (i < 0)
            continue;
        size_t j = (keys ? hash_key(r->keys[i].section, r->keys[i].name)
                         : hash_name(r->sections[i].name, HASH_SEED)) & (c - 1);
        while (h[j] >= 0)
            j = (j + 1) & (c - 1);
        h[j] = i;
    }
    free(*tab);
    *tab = h;
    *cap = c;
    return 0;
}

static void hash_put(int *tab, size_t cap, size_t h, int index)
{
    size_t k = h & (cap - 1);
    while (tab[k] >= 0)
        k = (k + 1) & (cap - 1);
    tab[k] = index;
}

/* A lowercased copy of name at the end of the names area (which has room
 * for every name of the file: each comes from a line of its own, longer
 * than the name). */
static char *stage_name(struct scanner *s, const char *name, size_t n)
{
    char *p = s->r->names + s->names_len;
    for (size_t i = 0; i < n; i++)
        p[i] = (char)tolower((unsigned char)name[i]);
    p[n] = 0;
    return p;
}

static int add_section(struct scanner *s, const char *name, size_t n, int line)
{
    struct scan_result *r = s->r;
    /* Stored names are lowercased, as iniparser merges them. */
    char *low = stage_name(s, name, n);
    int i = scan_find_section(r, low);
    if (i >= 0) {
        char first[16];
        snprintf(first, sizeof first, "%d", r->sections[i].line);
        err(s, line, i, "duplicate section (first at line %s): "
            "iniparser would merge the two; give each its own id", first);
        return -1;
    }
    if (hash_reserve(r, 0, 1)
        || grow_reserve(&r->sections, &s->seccap, (size_t)r->nsections + 1,
                        sizeof *r->sections))
        return -2;
    s->names_len += n + 1;
    struct scan_section *sec = &r->sections[r->nsections];
    sec->name = low;
    sec->line = line;
    sec->first_key = r->nkeys;
    sec->nkeys = 0;
    hash_put(r->sec_hash, r->sec_hash_cap, hash_name(low, HASH_SEED), r->nsections);
    return r->nsections++;
}

/* Keys come only for the last section opened (a section is never
 * reopened), which keeps each section's keys together in keys[]. */
static int add_key(struct scanner *s, int section, const char *name, size_t n, int line)
{
    struct scan_result *r = s->r;
    char *k = stage_name(s, name, n);
    int i = scan_find_key(r, section, k);
    if (i >= 0) {
        char msg[200];
        snprintf(msg, sizeof msg, "duplicate key '%s' (first at line %d): "
                 "iniparser would silently keep the last; give it once", k,
                 r->keys[i].line);
        s->report(s->ctx, line, section, msg);
        s->errors++;
        return -1;
    }
    struct scan_section *sec = &r->sections[section];
    /* The section passes SMALL_SECTION with this key: all its keys go
     * into the table (later ones one by one). */
    size_t more = sec->nkeys < SMALL_SECTION ? 0 : sec->nkeys == SMALL_SECTION ? SMALL_SECTION + 1 : 1;
    if ((more && hash_reserve(r, 1, more))
        || grow_reserve(&r->keys, &s->keycap, (size_t)r->nkeys + 1, sizeof *r->keys))
        return -2;
    s->names_len += n + 1;
    struct scan_key *key = &r->keys[r->nkeys];
    key->name = k;
    key->line = line;
    key->section = section;
    sec->nkeys++;
    r->nkeys++;
    for (int i = r->nkeys - (int)more; i < r->nkeys; i++)
        hash_put(r->key_hash, r->key_hash_cap, hash_key(section, r->keys[i].name), i);
    r->key_hashed += more;
    return 0;
}

/* solver: one pass over the bytes, a state machine whose states share
 * the line, column and section bookkeeping (each line's kind decides the
 * next step). */
int scan_text(const char *text, size_t len, struct scan_result *out,
              scan_error_fn report, void *ctx)
{
    struct scanner s;
    memset(&s, 0, sizeof s);
    memset(out, 0, sizeof *out);
    s.r = out;
    s.report = report;
    s.ctx = ctx;

    if (len > MAP_MAX_FILE_BYTES) {
        err(&s, 0, -1, "the file is larger than %s; a map is at most 64 MiB",
            "64 MiB");
        return s.errors;
    }
    if (memchr(text, 0, len)) {
        err(&s, 0, -1, "%s", "not a text file (it holds NUL bytes); a map is an INI text file");
        return s.errors;
    }
    /* A UTF-8 byte-order mark makes iniparser fail the whole file. */
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
        text += 3;
        len -= 3;
    }
    s.out = malloc(len + 2);
    out->names = malloc(len + 1);
    if (!s.out || !out->names) {
        free(s.out);
        free(out->names);
        out->names = NULL;
        err(&s, 0, -1, "%s", "out of memory reading the file");
        return s.errors;
    }

    int section = -1, line = 0, syntax_errors = 0;
    size_t pos = 0;
    while (pos < len) {
        line++;
        size_t end = pos;
        while (end < len && text[end] != '\n' && text[end] != '\r')
            end++;
        const char *p = text + pos;
        size_t n = end - pos;
        /* One line end: LF, CRLF or a lone CR. */
        size_t next = end;
        if (next < len && text[next] == '\r')
            next++;
        if (next < len && text[next] == '\n' && (next == end || text[end] == '\r'))
            next++;
        pos = next;

        /* botfield(6) MAP FORMAT: a line longer than 1,024 bytes is refused.  iniparser
         * itself reads at most 1,022 bytes and the newline, so a line of
         * 1,023 or 1,024 bytes gets through only as what iniparser is
         * given: trimmed, and "key=value" without the spaces around '='
         * (checked below, where that text is made). */
        if (n > MAP_MAX_LINE_BYTES) {
            long_line(&s, line, section, n);
            emit(&s, "\n", 1);
            continue;
        }
        const char *t = p;
        size_t tn = n;
        trim(&t, &tn);
        if (tn == 0 || t[0] == '#' || t[0] == ';') {
            emit(&s, "\n", 1);
            continue;
        }
        if (t[tn - 1] == '\\') {
            err(&s, line, section < 0 ? -1 : section, "%s", "a line ending in a backslash continues on the next "
                "line in iniparser; write the value on one line");
            emit(&s, "\n", 1);
            continue;
        }
        if (t[0] == '[') {
            const char *close = memchr(t, ']', tn);
            /* A broken header belongs to no section: naming the one
             * before it would send the reader to the wrong place, and the
             * keys under it are skipped, not blamed on that section. */
            if (!close) {
                char shown[64];
                snprintf(shown, sizeof shown, "%.*s%s", (int)(tn > 40 ? 40 : tn), t, tn > 40 ? "..." : "");
                err(&s, line, -1, "the section header '%s' has no closing ']' "
                    "(write [kind.ID])", shown);
                syntax_errors++;
                section = -2;
                emit(&s, "\n", 1);
                continue;
            }
            const char *rest = close + 1;
            size_t rn = tn - (size_t)(rest - t);
            trim(&rest, &rn);
            if (rn && rest[0] != '#' && rest[0] != ';') {
                err(&s, line, -1, "%s", "text after a section header (only a comment may follow ']')");
                section = -2;
                syntax_errors++;
                emit(&s, "\n", 1);
                continue;
            }
            const char *name = t + 1;
            size_t nn = (size_t)(close - name);
            trim(&name, &nn);
            if (nn == 0) {
                err(&s, line, -1, "%s", "an empty section name '[]'");
                section = -2;
                syntax_errors++;
                emit(&s, "\n", 1);
                continue;
            }
            int sec = add_section(&s, name, nn, line);
            if (sec == -2)
                goto oom;
            /* The keys of a duplicate section are skipped: it will not load. */
            section = sec >= 0 ? sec : -2;
            if (sec >= 0 && nn + 2 > INI_LINE_FIT) {
                long_line(&s, line, sec, n);
                emit(&s, "\n", 1);
            } else if (sec >= 0) {
                emit(&s, "[", 1);
                emit(&s, name, nn);
                emit(&s, "]\n", 2);
            } else {
                emit(&s, "\n", 1);
            }
            continue;
        }
        const char *eq = memchr(t, '=', tn);
        if (!eq) {
            char shown[64];
            snprintf(shown, sizeof shown, "%.*s%s", (int)(tn > 40 ? 40 : tn), t, tn > 40 ? "..." : "");
            err(&s, line, section < 0 ? -1 : section, "not an INI line: '%s' (expected [section], key = value, "
                "or a comment starting with ; or #)", shown);
            syntax_errors++;
            emit(&s, "\n", 1);
            if (syntax_errors >= 5 && s.r->nsections == 0)
                break;          /* clearly not INI at all: stop early */
            continue;
        }
        const char *key = t;
        size_t kn = (size_t)(eq - t);
        trim(&key, &kn);
        if (kn == 0) {
            err(&s, line, section < 0 ? -1 : section, "%s", "a value without a key before '='");
            emit(&s, "\n", 1);
            continue;
        }
        if (section == -2) {
            emit(&s, "\n", 1);
            continue;
        }
        if (section < 0) {
            err(&s, line, -1, "%s", "a key before any [section]; every key belongs to a section such as [map]");
            emit(&s, "\n", 1);
            continue;
        }
        const char *val = eq + 1;
        size_t vn = tn - (size_t)(val - t);
        trim(&val, &vn);
        if (kn + 1 + vn > INI_LINE_FIT) {
            long_line(&s, line, section, n);
            emit(&s, "\n", 1);
            continue;
        }
        int rc = add_key(&s, section, key, kn, line);
        if (rc == -2)
            goto oom;
        if (rc == 0) {
            /* iniparser trims the key and the value itself: the same
             * pair, in as few bytes as it can be written. */
            emit(&s, key, kn);
            emit(&s, "=", 1);
            emit(&s, val, vn);
        }
        emit(&s, "\n", 1);
    }
    if (s.errors == 0 && s.r->nsections == 0)
        err(&s, 0, -1, "%s", "no sections: a map needs at least a [map] section");
    out->clean = s.out;
    out->clean_len = s.outn;
    return s.errors;
oom:
    out->clean = s.out;
    err(&s, 0, -1, "%s", "out of memory reading the file");
    return s.errors;
}

void scan_free(struct scan_result *r)
{
    free(r->names);
    free(r->sec_hash);
    free(r->key_hash);
    free(r->sections);
    free(r->keys);
    free(r->clean);
    memset(r, 0, sizeof *r);
}
