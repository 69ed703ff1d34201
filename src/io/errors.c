/* errors.c — the loader's problems: each with its place in full, however
 * long the path, and the list handed back in line order.
 *
 * Problems are found section by section (teams first) and then across
 * sections, not in the order of the file, so they are kept with their
 * line and sorted at the end; problems on one line keep the order they
 * were found in. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"
#include "trace.h"
#include "utf8.h"

/* How much of a value is quoted in a message. */
#define QUOTE_MAX 60

static char *vstrf(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (s)
        vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

char *load_strf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = vstrf(fmt, ap);
    va_end(ap);
    return s;
}

/* "file:12: [section] key = value:" — every part but the file optional. */
static char *place(const struct loader *L, int line, const char *section,
                   const char *key, const char *value)
{
    if (L->from && line > 0 && L->from[line] < 0) {
        const struct map_set *s = &L->set[-L->from[line] - 1];
        return load_strf("botfield: --set %s=%s:", s->key, s->value);
    }
    if (L->from && line > 0)
        line = L->from[line];
    char num[24] = "";
    if (line > 0)
        snprintf(num, sizeof num, "%d:", line);
    const char *sec_open = section ? " [" : "", *sec_close = section ? "]" : "";
    const char *eq = key && value ? " = " : "";
    int quote = key && value ? (int)strnlen(value, QUOTE_MAX + 1) : 0;
    const char *more = quote > QUOTE_MAX ? "..." : "";
    if (quote > QUOTE_MAX)
        quote = QUOTE_MAX;
    return load_strf("%s:%s%s%s%s%s%s%s%.*s%s%s", L->path, num,
                     sec_open, section ? section : "", sec_close,
                     key ? " " : "", key ? key : "",
                     eq, quote, key && value ? value : "", more,
                     section || key ? ":" : "");
}

char *text_printable(const char *s, int keep_newlines)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int k = utf8_len(p);
        int c1 = k == 2 && p[0] == 0xc2 && p[1] < 0xa0;
        int ctl = k == 1 && (*p < 0x20 || *p == 0x7f) && !(keep_newlines && *p == '\n');
        n += k == 0 || ctl ? 4 : c1 ? 8 : (size_t)k;
        p += k ? (size_t)k : 1;
    }
    char *out = malloc(n + 1), *o = out;
    if (!out)
        return NULL;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int k = utf8_len(p);
        int c1 = k == 2 && p[0] == 0xc2 && p[1] < 0xa0;
        int ctl = k == 1 && (*p < 0x20 || *p == 0x7f) && !(keep_newlines && *p == '\n');
        if (k == 0 || ctl || c1) {
            for (int i = 0; i < (k ? k : 1); i++)
                o += sprintf(o, "\\x%02x", p[i]);
        } else {
            memcpy(o, p, (size_t)k);
            o += k;
        }
        p += k ? (size_t)k : 1;
    }
    *o = 0;
    return out;
}

static void keep(struct loader *L, int line, char *text)
{
    /* One problem, one line: a quoted value's control bytes, newline
     * included, become escapes. */
    char *safe = text_printable(text, 0);
    free(text);
    if (!safe)
        return;
    struct load_problem *p = realloc(L->problems, ((size_t)L->nproblems + 1) * sizeof *p);
    if (!p) {
        free(safe);
        return;
    }
    L->problems = p;
    p[L->nproblems++] = (struct load_problem){ line, safe };
}

void load_error(struct loader *L, int line, const char *section, const char *key,
                const char *value, const char *fmt, ...)
{
    L->errors++;
    if (L->quiet || L->errors > MAX_ERRORS)
        return;
    va_list ap;
    va_start(ap, fmt);
    char *what = vstrf(fmt, ap);
    va_end(ap);
    char *where = place(L, line, section, key, value);
    char *text = where && what ? load_strf("%s %s", where, what) : NULL;
    free(where);
    free(what);
    if (text)
        keep(L, line, text);
}

int load_muted(struct loader *L)
{
    if (!L->quiet && L->errors < MAX_ERRORS)
        return 0;
    L->errors++;
    return 1;
}

void load_scan_report(void *ctx, int line, int section, const char *message)
{
    struct loader *L = ctx;
    load_error(L, line, section >= 0 ? L->scan.sections[section].name : NULL,
               NULL, NULL, "%s", message);
}

/* Insertion sort by line: stable, and at most MAX_ERRORS items. */
static void sort_by_line(struct load_problem *p, int n)
{
    for (int i = 1; i < n; i++) {
        struct load_problem x = p[i];
        int j = i;
        for (; j > 0 && p[j - 1].line > x.line; j--)
            p[j] = p[j - 1];
        p[j] = x;
    }
}

void load_errors_finish(struct loader *L, struct map_error *err)
{
    sort_by_line(L->problems, L->nproblems);
    size_t need = 1;
    for (int i = 0; i < L->nproblems; i++)
        need += strlen(L->problems[i].text) + 1;
    char *more = L->errors > MAX_ERRORS
        ? load_strf("%s: %d more problems not shown\n", L->path, L->errors - MAX_ERRORS)
        : NULL;
    if (more)
        need += strlen(more);
    char *text = L->nproblems || more ? malloc(need) : NULL;
    if (text) {
        size_t n = 0;
        for (int i = 0; i < L->nproblems; i++) {
            size_t k = strlen(L->problems[i].text);
            memcpy(text + n, L->problems[i].text, k);
            text[n + k] = '\n';
            n += k + 1;
        }
        if (more) {
            memcpy(text + n, more, strlen(more));
            n += strlen(more);
        }
        text[n] = 0;
    }
    free(more);
    for (int i = 0; i < L->nproblems; i++)
        free(L->problems[i].text);
    free(L->problems);
    L->problems = NULL;
    err->text = text;
    err->count = L->nproblems;
    L->nproblems = 0;
}

void map_error_free(struct map_error *err)
{
    free(err->text);
    err->text = NULL;
    err->count = 0;
}
