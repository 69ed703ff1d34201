/* overrides.c — `--set SECTION.KEY=VALUE`: the map's text with each
 * setting written into it, before the loader reads a line.
 *
 * A setting replaces the key's line when the map has the key, is a new
 * line after its section's header when the section lacks it, and comes
 * in a new section at the end when the map has no such section.  The
 * loader then reads the result like any map, so every check runs once
 * and a bad value gets the map's own message (a section with a name or
 * number that the map lacks is refused: it would add a team or a tank);
 * `from` tells errors.c
 * which line of the file each line came from, or which setting (its
 * messages then name the option instead of a line). */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"

static void quiet(void *ctx, int line, int section, const char *message)
{
    (void)ctx; (void)line; (void)section; (void)message;
}

/* A growing text with the origin of each of its lines. */
struct out {
    char *text; size_t len, cap;
    int *from; int nlines, lcap;
    int failed;
};

static void put_line(struct out *o, const char *a, size_t na, const char *b,
                     size_t nb, int from)
{
    size_t need = o->len + na + nb + 4;
    if (need > o->cap || !o->text) {
        size_t cap = need * 2;
        char *t = realloc(o->text, cap);
        if (!t) {
            o->failed = 1;
            return;
        }
        o->text = t;
        o->cap = cap;
    }
    if (o->nlines + 2 > o->lcap) {
        int cap = (o->nlines + 2) * 2;
        int *f = realloc(o->from, (size_t)cap * sizeof *f);
        if (!f) {
            o->failed = 1;
            return;
        }
        o->from = f;
        o->lcap = cap;
    }
    memcpy(o->text + o->len, a, na);
    o->len += na;
    if (nb) {
        memcpy(o->text + o->len, " = ", 3);
        memcpy(o->text + o->len + 3, b, nb);
        o->len += nb + 3;
    }
    o->text[o->len++] = '\n';
    o->from[++o->nlines] = from;    /* from[0] stays unused: lines count from 1 */
}

/* Setting i's section and key, lowercased, into sec and key (each at
 * least strlen(set->key) + 1 bytes). */
static void split_key(const struct map_set *s, char *sec, char *key)
{
    const char *dot = strrchr(s->key, '.');
    size_t n = dot ? (size_t)(dot - s->key) : 0;
    for (size_t i = 0; i < n; i++)
        sec[i] = (char)tolower((unsigned char)s->key[i]);
    sec[n] = 0;
    const char *k = dot ? dot + 1 : s->key;
    size_t m = strlen(k);
    for (size_t i = 0; i <= m; i++)
        key[i] = (char)tolower((unsigned char)k[i]);
}

static void put_setting(struct out *o, const struct map_set *set, int i, char *sec, char *key)
{
    split_key(&set[i], sec, key);
    put_line(o, key, strlen(key), set[i].value, strlen(set[i].value), -(i + 1));
}

/* Where each setting goes: at[i] the file's line it replaces (> 0), the
 * header line it follows (< 0), or 0 for a new section. */
static void place_settings(const struct scan_result *S, const struct map_set *set,
                           int nset, int *at, char *sec, char *key)
{
    for (int i = 0; i < nset; i++) {
        split_key(&set[i], sec, key);
        int s = scan_find_section(S, sec);
        int k = s >= 0 ? scan_find_key(S, s, key) : -1;
        at[i] = k >= 0 ? S->keys[k].line : s >= 0 ? -S->sections[s].line : 0;
    }
}

int load_overlay(const char *text, size_t len, const struct map_set *set, int nset,
                 char **out_text, size_t *out_len, int **from, int *new_entity)
{
    *new_entity = 0;
    struct scan_result S;
    memset(&S, 0, sizeof S);
    /* A file with problems of its own is read as it is: they are what
     * the loader will report. */
    if (scan_text(text, len, &S, quiet, NULL)) {
        scan_free(&S);
        return 1;
    }
    size_t longest = 1;
    for (int i = 0; i < nset; i++)
        if (strlen(set[i].key) + 1 > longest)
            longest = strlen(set[i].key) + 1;
    char *sec = malloc(longest), *key = malloc(longest), *sec2 = malloc(longest + 2);
    int *at = calloc((size_t)nset + 1, sizeof *at);
    struct out o = { NULL, 0, 0, NULL, 0, 0, 0 };
    if (!sec || !key || !sec2 || !at)
        o.failed = 1;
    else
        place_settings(&S, set, nset, at, sec, key);
    /* The file's lines as the scanner counts them: a line ends at LF, CR
     * or CR LF. */
    size_t p = 0;
    for (int line = 1; !o.failed && p < len; line++) {
        size_t end = p;
        while (end < len && text[end] != '\n' && text[end] != '\r')
            end++;
        size_t next = end < len && text[end] == '\r' && end + 1 < len && text[end + 1] == '\n'
            ? end + 2 : end + 1;
        int which = -1;
        for (int i = 0; i < nset; i++)
            if (at[i] == line)
                which = i;
        if (which >= 0)
            put_setting(&o, set, which, sec, key);
        else
            put_line(&o, text + p, end - p, NULL, 0, line);
        for (int i = 0; i < nset; i++)
            if (at[i] == -line)
                put_setting(&o, set, i, sec, key);
        p = next;
    }
    /* New sections, each once, its settings in the order given. */
    for (int i = 0; !o.failed && i < nset; i++) {
        if (at[i] != 0)
            continue;
        split_key(&set[i], sec2 + 1, key);
        size_t n = strlen(sec2 + 1);
        sec2[0] = '[';
        sec2[n + 1] = ']';
        /* [team.NAME], [tank.ID] and the like would make a new entity: a
         * typo of a name would pass unseen, so the loader refuses it. */
        if (memchr(sec2 + 1, '.', n) && !*new_entity)
            *new_entity = o.nlines + 1;
        put_line(&o, sec2, n + 2, NULL, 0, -(i + 1));
        sec2[n + 1] = 0;
        for (int j = i; j < nset; j++) {
            split_key(&set[j], sec, key);
            if (at[j] == 0 && strcmp(sec, sec2 + 1) == 0) {
                put_setting(&o, set, j, sec, key);
                at[j] = 1 << 30;        /* written */
            }
        }
    }
    free(sec);
    free(key);
    free(sec2);
    free(at);
    scan_free(&S);
    if (o.failed) {
        free(o.text);
        free(o.from);
        return -1;
    }
    *out_text = o.text;
    *out_len = o.len;
    *from = o.from;
    return 0;
}
