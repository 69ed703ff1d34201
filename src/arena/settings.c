/* settings.c — arena.ini, read and checked as a map is (settings.h).
 *
 * The map's scanner (src/io/scan.c) finds the sections and keys with
 * their lines and refuses what iniparser would take silently (duplicates,
 * long lines); iniparser then gives the values.  Every problem is one
 * line "FILE:LINE: [arena] key: problem; what is allowed". */
#include "settings.h"
#include "io/scan.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifdef HAVE_INIPARSER_INIPARSER_H
#include <iniparser/iniparser.h>
#else
#include <iniparser.h>
#endif

#define ARENA_INI_MAX (64L * 1024L)     /* a settings file of eight keys */
#define ARENA_MAPS_MAX 32

struct reader {
    const char *file;
    char *err;                  /* the messages so far */
    size_t len;
    const struct scan_result *scan;
    int section;                /* [arena]'s index */
};

static void say(struct reader *r, int line, const char *key, const char *fmt, ...)
{
    char msg[512], head[4200 + 64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line > 0 && key)
        snprintf(head, sizeof head, "%s:%d: [arena] %s: %s\n", r->file, line, key, msg);
    else if (line > 0)
        snprintf(head, sizeof head, "%s:%d: %s\n", r->file, line, msg);
    else
        snprintf(head, sizeof head, "%s: %s\n", r->file, msg);
    size_t n = strlen(head);
    char *e = realloc(r->err, r->len + n + 1);
    if (!e)
        return;
    memcpy(e + r->len, head, n + 1);
    r->err = e;
    r->len += n;
}

static void scan_said(void *ctx, int line, int section, const char *message)
{
    (void)section;
    /* the scanner speaks of maps; an empty arena.ini is said below */
    if (strncmp(message, "no sections", 11) != 0)
        say(ctx, line, NULL, "%s", message);
}

int arena_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n < 1 || n > 32)
        return 0;
    return strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_-") == n;
}

static int key_line(const struct reader *r, const char *key)
{
    int k = scan_find_key(r->scan, r->section, key);
    return k < 0 ? 0 : r->scan->keys[k].line;
}

/* An integer key in [lo, hi], or def when absent. */
static int int_key(struct reader *r, dictionary *d, const char *key, long lo, long hi,
                   long def, long *out)
{
    char full[64];
    snprintf(full, sizeof full, "arena:%s", key);
    const char *v = iniparser_getstring(d, full, NULL);
    *out = def;
    if (!v)
        return 0;
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (!*v || *end || errno || x < lo || x > hi) {
        say(r, key_line(r, key), key, "'%.40s' is not a whole number from %ld to %ld", v, lo, hi);
        return -1;
    }
    *out = x;
    return 0;
}

/* A map's file name: plain, beside arena.ini, ending in .ini. */
static int map_ok(struct reader *r, const char *dir, const char *name, int line)
{
    size_t n = strlen(name);
    if (n < 5 || n > 64 || strcmp(name + n - 4, ".ini") != 0 || name[0] == '.'
        || strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") != n) {
        say(r, line, "maps", "'%.64s' is not a map's file name; allowed: a file beside arena.ini, "
            "letters, digits, '.', '_', '-', ending in .ini (no folders)", name);
        return -1;
    }
    char path[PATH_MAX];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (stat(path, &st) || !S_ISREG(st.st_mode)) {
        say(r, line, "maps", "'%s' is not a file beside arena.ini", name);
        return -1;
    }
    return 0;
}

static int read_maps(struct reader *r, dictionary *d, const char *dir, struct arena_settings *s)
{
    const char *v = iniparser_getstring(d, "arena:maps", NULL);
    int line = key_line(r, "maps");
    if (!v || !*v) {
        say(r, line, line ? "maps" : NULL, "%s", line ? "is empty; give one map or more"
            : "[arena] maps is missing; give the maps played in turn, e.g. maps = duel.ini");
        return -1;
    }
    char *copy = strdup(v), *save = NULL;
    int bad = !copy;
    s->maps = calloc(ARENA_MAPS_MAX, sizeof *s->maps);
    for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t && s->maps;
         t = strtok_r(NULL, ",", &save)) {
        while (*t == ' ' || *t == '\t')
            t++;
        size_t n = strlen(t);
        while (n && (t[n - 1] == ' ' || t[n - 1] == '\t'))
            t[--n] = 0;
        if (s->nmaps == ARENA_MAPS_MAX) {
            say(r, line, "maps", "more than %d maps", ARENA_MAPS_MAX);
            bad = 1;
            break;
        }
        if (map_ok(r, dir, t, line))
            bad = 1;
        else if (!(s->maps[s->nmaps++] = strdup(t)))
            bad = 1;
    }
    free(copy);
    if (!s->maps || (!bad && s->nmaps == 0)) {
        say(r, line, "maps", "is empty; give one map or more");
        bad = 1;
    }
    return bad ? -1 : 0;
}

static const char *const KEYS[] = { "name", "maps", "rounds", "bots_per_person", "max_script",
                                    "submit_every", "live", "workers" };

/* Only [arena], only its keys. */
static int check_names(struct reader *r)
{
    int bad = 0;
    const struct scan_result *S = r->scan;
    for (int i = 0; i < S->nsections; i++)
        if (strcmp(S->sections[i].name, "arena") != 0) {
            say(r, S->sections[i].line, NULL, "[%.40s]: unknown section; arena.ini has one, [arena]",
                S->sections[i].name);
            bad = 1;
        }
    for (int k = 0; k < S->nkeys; k++) {
        size_t j = 0;
        while (j < sizeof KEYS / sizeof *KEYS && strcmp(S->keys[k].name, KEYS[j]) != 0)
            j++;
        if (S->keys[k].section == r->section && j == sizeof KEYS / sizeof *KEYS) {
            say(r, S->keys[k].line, S->keys[k].name, "unknown key; allowed: name, maps, rounds, "
                "bots_per_person, max_script, submit_every, live, workers");
            bad = 1;
        }
    }
    if (r->section < 0) {
        say(r, 0, NULL, "no [arena] section; arena.ini needs one, with at least maps");
        bad = 1;
    }
    return bad;
}

static int read_values(struct reader *r, dictionary *d, const char *dir, struct arena_settings *s)
{
    long v[6];
    int bad = 0;
    bad |= int_key(r, d, "rounds", 1, 1000, 1, &v[0]);
    bad |= int_key(r, d, "bots_per_person", 1, 100, 3, &v[1]);
    bad |= int_key(r, d, "max_script", 1, 1048576, 65536, &v[2]);
    bad |= int_key(r, d, "submit_every", 0, 86400, 10, &v[3]);
    bad |= int_key(r, d, "live", 0, 8, 2, &v[4]);
    bad |= int_key(r, d, "workers", 0, 64, 0, &v[5]);
    s->rounds = (int)v[0], s->bots_per_person = (int)v[1], s->max_script = v[2];
    s->submit_every = (int)v[3], s->live = (int)v[4], s->workers = (int)v[5];
    const char *name = iniparser_getstring(d, "arena:name", "arena");
    int ctrl = 0;
    for (const unsigned char *c = (const unsigned char *)name; *c; c++)
        ctrl |= *c < 0x20 || *c == 0x7f;
    if (strlen(name) > 80 || ctrl) {
        say(r, key_line(r, "name"), "name", "at most 80 bytes of text, no control characters");
        bad = 1;
    }
    s->name = strdup(name);
    bad |= read_maps(r, d, dir, s) != 0;
    return bad || !s->name ? -1 : 0;
}

static char *read_text(struct reader *r, const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        say(r, 0, NULL, "cannot open it: %s", strerror(errno));
        return NULL;
    }
    char *text = malloc(ARENA_INI_MAX + 1);
    *len = text ? fread(text, 1, ARENA_INI_MAX + 1, f) : 0;
    fclose(f);
    if (text && *len > ARENA_INI_MAX) {
        say(r, 0, NULL, "larger than 64 KiB; arena.ini holds a few keys");
        free(text);
        return NULL;
    }
    if (text && *len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
        say(r, 1, NULL, "starts with a byte-order mark; save it as plain UTF-8");
        free(text);
        return NULL;
    }
    return text;
}

int arena_settings_read(const char *dir, struct arena_settings *s, char **err)
{
    memset(s, 0, sizeof *s);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/arena.ini", dir);
    struct reader r = { path, NULL, 0, NULL, -1 };
    struct scan_result S;
    size_t len = 0;
    char *text = read_text(&r, path, &len);
    int bad = !text || (scan_text(text, len, &S, scan_said, &r) != 0 && r.err);
    free(text);
    if (text) {
        r.scan = &S;
        r.section = scan_find_section(&S, "arena");
        bad = bad || check_names(&r);
    }
    dictionary *d = bad ? NULL : iniparser_load(path);
    if (!bad && !d) {
        say(&r, 0, NULL, "iniparser cannot read it");
        bad = 1;
    }
    if (d) {
        s->dir = strdup(dir);
        bad = read_values(&r, d, dir, s) != 0 || !s->dir;
        iniparser_freedict(d);
    }
    if (text)
        scan_free(&S);
    if (bad) {
        arena_settings_free(s);
        *err = r.err ? r.err : strdup("arena.ini: out of memory\n");
        return -1;
    }
    free(r.err);
    return 0;
}

void arena_settings_free(struct arena_settings *s)
{
    for (int i = 0; s->maps && i < s->nmaps; i++)
        free(s->maps[i]);
    free(s->maps);
    free(s->name);
    free(s->dir);
    memset(s, 0, sizeof *s);
}
