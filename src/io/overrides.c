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
 * messages then name the option instead of a line).
 *
 * The same text is what the viewer's write-back saves (map_write.c), so
 * an edit keeps the file as it was around it: a replaced line keeps its
 * indentation, its spacing around '=' and its comment, and only the
 * value's text changes; every line keeps its own line ending. */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "load.h"

static void quiet(void *ctx, int line, int section, const char *message)
{
    (void)ctx; (void)line; (void)section; (void)message;
}

/* A growing text with the origin of each of its lines. */
struct out {
    char *text; size_t len, cap;
    int *from; int nlines; size_t lcap;
    int failed;
};

/* Appends a + (" = " + b when nb) + the line ending eol (ne bytes; none:
 * the last line of a file without one). */
static void put_line(struct out *o, const char *a, size_t na, const char *b,
                     size_t nb, const char *eol, size_t ne, int from)
{
    size_t need = o->len + na + nb + ne + 4;
    if (grow_reserve(&o->text, &o->cap, need, 1)
        || grow_reserve(&o->from, &o->lcap, (size_t)o->nlines + 2, sizeof *o->from)) {
        o->failed = 1;
        return;
    }
    memcpy(o->text + o->len, a, na);
    o->len += na;
    if (nb) {
        memcpy(o->text + o->len, " = ", 3);
        memcpy(o->text + o->len + 3, b, nb);
        o->len += nb + 3;
    }
    memcpy(o->text + o->len, eol, ne);
    o->len += ne;
    o->text[o->len] = 0;
    o->from[++o->nlines] = from;    /* from[0] stays unused: lines count from 1 */
}

/* Where the value of a key line is: [*vs, *ve) of line [p, end) — after
 * '=' and its blanks, before a comment (; or #, as iniparser reads it)
 * and the blanks before it; a quoted value keeps its quotes outside. */
static void value_span(const char *p, const char *end, const char **vs, const char **ve)
{
    const char *v = memchr(p, '=', (size_t)(end - p));
    v = v ? v + 1 : end;
    while (v < end && (*v == ' ' || *v == '\t'))
        v++;
    const char *e = v;
    if (v < end && (*v == '"' || *v == '\'')) {
        const char *q = memchr(v + 1, *v, (size_t)(end - v - 1));
        if (q) {
            *vs = v + 1;
            *ve = q;
            return;
        }
    }
    while (e < end && *e != ';' && *e != '#')
        e++;
    while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    *vs = v;
    *ve = e;
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

/* Setting i as a new line "key = value" with the line ending eol. */
static void put_setting(struct out *o, const struct map_set *set, int i, char *sec, char *key,
                        const char *eol, size_t ne)
{
    split_key(&set[i], sec, key);
    put_line(o, key, strlen(key), set[i].value, strlen(set[i].value), eol, ne, -(i + 1));
}

/* Setting i in place of the value of the file's line [p, end): the rest
 * of the line as it was. */
static void put_replaced(struct out *o, const struct map_set *set, int i, const char *p,
                         const char *end, const char *eol, size_t ne)
{
    const char *vs, *ve;
    value_span(p, end, &vs, &ve);
    size_t nv = strlen(set[i].value);
    /* Built in one piece (put_line adds one line): head, value, tail. */
    size_t nh = (size_t)(vs - p), nt = (size_t)(end - ve);
    char *line = malloc(nh + nv + nt + 1);
    if (!line) {
        o->failed = 1;
        return;
    }
    memcpy(line, p, nh);
    memcpy(line + nh, set[i].value, nv);
    memcpy(line + nh + nv, ve, nt);
    put_line(o, line, nh + nv + nt, NULL, 0, eol, ne, -(i + 1));
    free(line);
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

/* Where the settings go (at[i]: line, -line after a header, 0 a new
 * section) and the buffers naming a section and a key. */
struct placed {
    const struct map_set *set;
    int nset;
    int *at;
    char *sec, *key;
};

/* The file's lines copied, each setting replacing its line or put after
 * its section's header.  The lines as the scanner counts them: a line
 * ends at LF, CR or CR LF, and keeps its own ending.  New lines take the
 * first line's ending (*nl, *nnl; LF in a file of one line without
 * any). */
static void copy_lines(struct out *o, const char *text, size_t len, const struct placed *pl,
                       const char **nl, size_t *nnl)
{
    size_t p = 0;
    for (int line = 1; !o->failed && p < len; line++) {
        size_t end = p;
        while (end < len && text[end] != '\n' && text[end] != '\r')
            end++;
        size_t next = end < len && text[end] == '\r' && end + 1 < len && text[end + 1] == '\n'
            ? end + 2 : end < len ? end + 1 : end;
        if (line == 1 && next > end) {
            *nl = text + end;
            *nnl = next - end;
        }
        int which = -1, after = 0;
        for (int i = 0; i < pl->nset; i++) {
            if (pl->at[i] == line)
                which = i;
            after |= pl->at[i] == -line;
        }
        /* A last line without its ending gets one when a line follows. */
        const char *eol = next > end ? text + end : *nl;
        size_t ne = next > end ? next - end : after ? *nnl : 0;
        if (which >= 0)
            put_replaced(o, pl->set, which, text + p, text + end, eol, ne);
        else
            put_line(o, text + p, end - p, NULL, 0, eol, ne, line);
        for (int i = 0; i < pl->nset; i++)
            if (pl->at[i] == -line) {
                /* (the last one ends as the header did) */
                int more = 0;
                for (int j = i + 1; j < pl->nset; j++)
                    more |= pl->at[j] == -line;
                const char *se = next > end ? text + end : *nl;
                size_t sn = next > end ? next - end : *nnl;
                put_setting(o, pl->set, i, pl->sec, pl->key, se, more || next > end ? sn : 0);
            }
        p = next;
    }
}

/* New sections, each once, its settings in the order given; sec2 holds
 * "[section]".  *new_entity: the line of the first that would make an
 * entity. */
static void new_sections(struct out *o, const struct placed *pl, char *sec2, const char *nl,
                         size_t nnl, int *new_entity)
{
    const struct map_set *set = pl->set;
    for (int i = 0; !o->failed && i < pl->nset; i++) {
        if (pl->at[i] != 0)
            continue;
        /* The file's last line had no ending: it gets one (an empty
         * piece of that line, not a line of its own). */
        if (o->len > 0 && o->text[o->len - 1] != '\n' && o->text[o->len - 1] != '\r') {
            put_line(o, "", 0, NULL, 0, nl, nnl, 0);
            o->nlines--;
        }
        split_key(&set[i], sec2 + 1, pl->key);
        size_t n = strlen(sec2 + 1);
        sec2[0] = '[';
        sec2[n + 1] = ']';
        /* [team.NAME], [tank.ID] and the like would make a new entity: a
         * typo of a name would pass unseen, so the loader refuses it. */
        if (memchr(sec2 + 1, '.', n) && !*new_entity)
            *new_entity = o->nlines + 1;
        put_line(o, sec2, n + 2, NULL, 0, nl, nnl, -(i + 1));
        sec2[n + 1] = 0;
        for (int j = i; j < pl->nset; j++) {
            split_key(&set[j], pl->sec, pl->key);
            if (pl->at[j] == 0 && strcmp(pl->sec, sec2 + 1) == 0) {
                put_setting(o, set, j, pl->sec, pl->key, nl, nnl);
                pl->at[j] = 1 << 30;        /* written */
            }
        }
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
    struct placed pl = { set, nset, calloc((size_t)nset + 1, sizeof *pl.at), malloc(longest),
                         malloc(longest) };
    char *sec2 = malloc(longest + 2);
    struct out o = { NULL, 0, 0, NULL, 0, 0, 0 };
    if (!pl.sec || !pl.key || !sec2 || !pl.at)
        o.failed = 1;
    else
        place_settings(&S, set, nset, pl.at, pl.sec, pl.key);
    const char *nl = "\n";
    size_t nnl = 1;
    copy_lines(&o, text, len, &pl, &nl, &nnl);
    new_sections(&o, &pl, sec2, nl, nnl, new_entity);
    free(pl.sec);
    free(pl.key);
    free(sec2);
    free(pl.at);
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
