#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "map.h"
#include "scan.h"

static char *dup_range(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
    }
    return p;
}

static void trim(const char **s, size_t *n)
{
    while (*n && isspace((unsigned char)**s)) {
        (*s)++;
        (*n)--;
    }
    while (*n && isspace((unsigned char)(*s)[*n - 1]))
        (*n)--;
}

static void lower(char *s)
{
    for (; *s; s++)
        *s = (char)tolower((unsigned char)*s);
}

static int grow(void **p, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return 0;
    int c = *cap ? *cap * 2 : 32;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, (size_t)c * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

struct scanner {
    struct scan_result *r;
    int seccap, keycap;
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

static void emit(struct scanner *s, const char *p, size_t n)
{
    memcpy(s->out + s->outn, p, n);
    s->outn += n;
}

static int add_section(struct scanner *s, const char *name, size_t n, int line)
{
    for (int i = 0; i < s->r->nsections; i++)
        if (strlen(s->r->sections[i].name) == n
            /* Stored names are lowercased, as iniparser merges them. */
            && strncasecmp(s->r->sections[i].name, name, n) == 0) {
            char first[16];
            snprintf(first, sizeof first, "%d", s->r->sections[i].line);
            err(s, line, i, "duplicate section (first at line %s): "
                "iniparser would merge the two; give each its own id", first);
            return -1;
        }
    if (grow((void **)&s->r->sections, &s->seccap, s->r->nsections + 1,
             sizeof *s->r->sections))
        return -2;
    struct scan_section *sec = &s->r->sections[s->r->nsections];
    sec->name = dup_range(name, n);
    if (!sec->name)
        return -2;
    lower(sec->name);
    sec->line = line;
    return s->r->nsections++;
}

static int add_key(struct scanner *s, int section, const char *name, size_t n, int line)
{
    char *k = dup_range(name, n);
    if (!k)
        return -2;
    lower(k);
    for (int i = s->r->nkeys - 1; i >= 0 && s->r->keys[i].section == section; i--)
        if (strcmp(s->r->keys[i].name, k) == 0) {
            char msg[200];
            snprintf(msg, sizeof msg, "duplicate key '%s' (first at line %d): "
                     "iniparser would silently keep the last; give it once", k,
                     s->r->keys[i].line);
            s->report(s->ctx, line, section, msg);
            s->errors++;
            free(k);
            return -1;
        }
    if (grow((void **)&s->r->keys, &s->keycap, s->r->nkeys + 1, sizeof *s->r->keys)) {
        free(k);
        return -2;
    }
    struct scan_key *key = &s->r->keys[s->r->nkeys++];
    key->name = k;
    key->line = line;
    key->section = section;
    return 0;
}

/* 1 (after reporting it) when one more section or key would pass the
 * limit iniparser can load in reasonable time (map.h). */
static int too_many(struct scanner *s, int line, int section)
{
    if (s->r->nsections + s->r->nkeys < MAP_MAX_ENTRIES)
        return 0;
    char num[24];
    snprintf(num, sizeof num, "%d", MAP_MAX_ENTRIES);
    err(s, line, section < 0 ? -1 : section, "more than %s sections and keys in one "
        "map (iniparser slows down with the square of their number); place trees "
        "and tanks with 'random' counts, or list trees in [trees] at = x y r, ...", num);
    return 1;
}

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
    if (!s.out) {
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

        if (n >= MAP_MAX_LINE_BYTES) {
            char num[24];
            snprintf(num, sizeof num, "%zu", n);
            err(&s, line, section < 0 ? -1 : section, "line of %s bytes: iniparser reads at most 1023 bytes a "
                "line; put long lists of trees or waypoints in numbered [tree.N] or "
                "[waypoint.N] sections", num);
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
            if (!close) {
                err(&s, line, section < 0 ? -1 : section, "%s", "a section header without its closing ']'");
                syntax_errors++;
                emit(&s, "\n", 1);
                continue;
            }
            const char *rest = close + 1;
            size_t rn = tn - (size_t)(rest - t);
            trim(&rest, &rn);
            if (rn && rest[0] != '#' && rest[0] != ';') {
                err(&s, line, section < 0 ? -1 : section, "%s", "text after a section header (only a comment may follow ']')");
                syntax_errors++;
                emit(&s, "\n", 1);
                continue;
            }
            const char *name = t + 1;
            size_t nn = (size_t)(close - name);
            trim(&name, &nn);
            if (nn == 0) {
                err(&s, line, section < 0 ? -1 : section, "%s", "an empty section name '[]'");
                syntax_errors++;
                emit(&s, "\n", 1);
                continue;
            }
            if (too_many(&s, line, section))
                break;
            int sec = add_section(&s, name, nn, line);
            if (sec == -2)
                goto oom;
            /* The keys of a duplicate section are skipped: it will not load. */
            section = sec >= 0 ? sec : -2;
            if (sec >= 0) {
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
        if (too_many(&s, line, section))
            break;
        int rc = add_key(&s, section, key, kn, line);
        if (rc == -2)
            goto oom;
        if (rc == 0)
            emit(&s, t, tn);
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
    for (int i = 0; i < r->nsections; i++)
        free(r->sections[i].name);
    for (int i = 0; i < r->nkeys; i++)
        free(r->keys[i].name);
    free(r->sections);
    free(r->keys);
    free(r->clean);
    memset(r, 0, sizeof *r);
}
