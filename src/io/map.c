/* map.c — loading a map file into a world: the file read, then the steps
 * of load.h run in turn.
 *
 * The order: our scanner (scan.c) reads the raw text for line numbers and
 * for what iniparser would mishandle; iniparser loads the scanner's clean
 * copy (ini.c); every section and key is checked against the key table
 * (sections.c, values.c); the checks across keys run (check.c); the
 * entities are placed (build.c, place.c); and only when no error was
 * found is the world handed back. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/grow.h"
#include "core/round.h"
#include "load.h"

static void loader_free(struct loader *L, struct parsed *P)
{
    load_parsed_free(P);
    free(L->val);
    free(L->vals);
    for (int i = 0; i < 3; i++)
        free(L->tmpl[i]);
    scan_free(&L->scan);
}

/* A match of several rounds keeps the text read (--set written in): the
 * session builds each next round from it (round.h).  1, or 0 out of
 * memory (said). */
static int keep_round_text(struct loader *L, struct world *w, const char *text, size_t len)
{
    if (w->rounds <= 1)
        return 1;
    w->round_text = malloc(len + 1);
    if (!w->round_text) {
        load_error(L, 0, NULL, NULL, NULL, "out of memory building the map");
        return 0;
    }
    memcpy(w->round_text, text, len);
    w->round_text[len] = 0;
    w->round_text_len = len;
    return 1;
}

/* Round r's start from the text kept (world.h round_map): what the
 * session builds a round from, for a step back that crosses a round's
 * start to get that round's random trees again.  0, or -1. */
static int round_map(const struct world *w, int r, struct world *fresh)
{
    struct map_options opt = { .has_seed = 1, .seed = round_seed(w, r) };
    struct map_error err = { NULL, 0 };
    if (!w->round_text)
        return -1;
    int rc = map_load_text(w->map_path ? w->map_path : "the map", w->round_text,
                           w->round_text_len, &opt, fresh, &err);
    map_error_free(&err);
    return rc;
}

/* The reading steps, each only when the one before found nothing wrong:
 * the text scanned, read and checked into P.  0, or -1. */
static int parse_steps(struct loader *L, struct parsed *P, const char *text, size_t len)
{
    if (scan_text(text, len, &L->scan, load_scan_report, L))
        return -1;
    if (load_ini_values(L)) {
        load_error(L, 0, NULL, NULL, NULL, "iniparser could not load the file");
        return -1;
    }
    /* The values are ours now: the clean copy is not needed again. */
    free(L->scan.clean);
    L->scan.clean = NULL;
    L->scan.clean_len = 0;
    load_sections(L, P);
    if (L->errors == 0)
        load_check(L, P);
    return L->errors ? -1 : 0;
}

/* The world built from what parse_steps read (which it only reads, so it
 * builds again): 0 with *out set, or -1. */
static int build_step(struct loader *L, struct parsed *P, const char *text, size_t len,
                      const struct map_options *opt, struct world *out)
{
    struct world w;
    if (load_build(L, P, opt, &w) == 0 && L->errors == 0 && keep_round_text(L, &w, text, len)) {
        if (w.rounds > 1 && P->trees.random > 0)
            w.round_map = round_map;    /* the trees differ by round */
        *out = w;
        return 0;
    }
    world_free(&w);
    return -1;
}

/* err holds one message.  -1. */
static int one_error(struct map_error *err, const char *text)
{
    err->text = strdup(text);
    err->count = 1;
    return -1;
}

/* L's problems into err, or a plain one when it has none to say.  -1. */
static int finish_errors(struct loader *L, struct map_error *err)
{
    load_errors_finish(L, err);
    return err->text ? -1 : one_error(err, "the map could not be loaded\n");
}

/* The text to read: the map's, or with opt's --set written in (*set_text
 * and *from then malloc'd).  0; -1 with the problem in L or err. */
static int overlaid(struct loader *L, const struct map_options *opt, const char **text,
                    size_t *len, char **set_text, int **from, struct map_error *err)
{
    int new_entity = 0;
    if (opt && opt->nset) {
        int o = load_overlay(*text, *len, opt->set, opt->nset, set_text, len, from, &new_entity);
        if (o < 0) {
            return one_error(err, "botfield: out of memory\n");
        }
        if (o == 0) {
            *text = *set_text;
            L->from = *from;
            L->set = opt->set;
        }
    }
    if (new_entity) {
        load_error(L, new_entity, NULL, NULL, NULL, "the map has no such section; "
                   "--set changes a key of a team, vehicle, tree or waypoint the map has, "
                   "it does not add one");
        return -1;
    }
    return 0;
}

/* ---- read once, built again (map_kept) ------------------------------------ */

struct map_kept {
    struct loader L;
    struct parsed P;
    struct kind_rows rows;      /* L.rows */
    char *name;                 /* L.path */
    char *text;                 /* what was read (--set written in) */
    size_t len;
    int owned;                  /* text is k's (else the caller's, borrowed) */
    int *from;                  /* L.from */
};

void map_kept_free(struct map_kept *k)
{
    if (!k)
        return;
    loader_free(&k->L, &k->P);
    free(k->name);
    if (k->owned)
        free(k->text);
    free(k->from);
    free(k);
}

/* map_keep_text; with `borrow`, the caller's text is read in place, not
 * copied (it must outlive k: map_load_text's one build). */
static int keep(const char *name, const char *text, size_t len, const struct map_options *opt,
                int borrow, struct map_kept **out, struct map_error *err)
{
    struct map_kept *k = calloc(1, sizeof *k);
    char *set_text = NULL;
    *out = NULL;
    *err = (struct map_error){ NULL, 0 };
    if (!k || !(k->name = strdup(name))) {
        free(k);
        return one_error(err, "botfield: out of memory\n");
    }
    k->L.path = k->name;
    load_rows_init(&k->rows);
    k->L.rows = &k->rows;
    int rc = overlaid(&k->L, opt, &text, &len, &set_text, &k->from, err);
    if (rc == 0 && !set_text && !borrow && (set_text = malloc(len + 1))) {
        memcpy(set_text, text, len);
        set_text[len] = 0;
    }
    k->owned = set_text != NULL;
    k->text = set_text ? set_text : borrow ? (char *)text : NULL;
    k->len = len;
    if (rc == 0 && !k->text)
        rc = one_error(err, "botfield: out of memory\n");
    if (rc == 0)
        rc = parse_steps(&k->L, &k->P, k->text, k->len);
    if (rc && !err->text)
        finish_errors(&k->L, err);
    if (rc) {
        map_kept_free(k);
        return -1;
    }
    *out = k;
    return 0;
}

int map_keep_text(const char *name, const char *text, size_t len,
                  const struct map_options *opt, struct map_kept **out,
                  struct map_error *err)
{
    return keep(name, text, len, opt, 0, out, err);
}

int map_kept_build(struct map_kept *k, const struct map_options *opt, struct world *out,
                   struct map_error *err)
{
    *err = (struct map_error){ NULL, 0 };
    k->L.errors = 0;
    if (build_step(&k->L, &k->P, k->text, k->len, opt, out) == 0)
        return 0;
    return finish_errors(&k->L, err);
}

/* Read, checked and built once: a map kept for one build. */
int map_load_text(const char *name, const char *text, size_t len,
                  const struct map_options *opt, struct world *out,
                  struct map_error *err)
{
    struct map_kept *k;
    if (keep(name, text, len, opt, 1, &k, err))
        return -1;
    int rc = map_kept_build(k, opt, out, err);
    map_kept_free(k);
    return rc;
}

/* One problem with the file itself: "path: problem\n" into err.  -1. */
static int file_error(struct map_error *err, const char *path, const char *problem)
{
    err->text = load_strf("%s: %s\n", path, problem);
    if (!err->text)
        err->text = strdup("the map could not be read: out of memory\n");
    err->count = 1;
    return -1;
}

/* The whole of an open regular file: its bytes (malloc'd) and length, or
 * NULL with errno set. */
static char *read_all(int fd, size_t size_hint, size_t *len)
{
    size_t cap = size_hint + 1;
    char *text = malloc(cap);
    *len = 0;
    while (text) {
        ssize_t n = read(fd, text + *len, cap - *len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            free(text);
            errno = e;
            return NULL;
        }
        *len += (size_t)n;
        if (n == 0 || *len > MAP_MAX_FILE_BYTES)
            break;
        if (*len == cap && grow_reserve(&text, &cap, cap + 1, 1)) {
            free(text);
            text = NULL;
        }
    }
    if (!text)
        errno = ENOMEM;
    return text;
}

/* An open descriptor of the map, or -1 with *problem saying why
 * (malloc'd; NULL out of memory).  Opening never waits: O_NONBLOCK, so a
 * FIFO without a writer opens at once; then a directory, a file over 64
 * MiB and, when regular_only, anything but a regular file are refused.
 * Reads of what is kept block again (a pipe is read to its end). */
static int open_map(const char *path, int regular_only, char **problem)
{
    *problem = NULL;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        *problem = load_strf("cannot open the map: %s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (S_ISDIR(st.st_mode))
        *problem = load_strf("is a directory, not a map file");
    else if (!S_ISREG(st.st_mode) && regular_only)
        *problem = load_strf("is not a regular file (a FIFO, device or socket); "
                             "the viewer reads a map from a regular file only");
    else if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > MAP_MAX_FILE_BYTES)
        *problem = load_strf("the file is larger than 64 MiB; a map is at most 64 MiB");
    else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0)
        return fd;
    else
        *problem = load_strf("cannot read the map: %s", strerror(errno));
    close(fd);
    return -1;
}

int map_load(const char *path, const struct map_options *opt,
             struct world *out, struct map_error *err)
{
    return map_load_kept(path, opt, out, err, NULL);
}

int map_load_kept(const char *path, const struct map_options *opt,
                  struct world *out, struct map_error *err, char **kept)
{
    err->text = NULL;
    err->count = 0;
    char *problem;
    int fd = open_map(path, opt && opt->regular_only, &problem);
    if (fd < 0) {
        file_error(err, path, problem ? problem : "cannot open the map: out of memory");
        free(problem);
        return -1;
    }
    struct stat st;
    size_t len;
    /* A pipe's size is unknown (0): the buffer grows as it is read. */
    char *text = fstat(fd, &st) == 0
        ? read_all(fd, S_ISREG(st.st_mode) ? (size_t)st.st_size : 65535, &len) : NULL;
    int e = errno;
    close(fd);
    if (!text) {
        char *why = load_strf("cannot read the map: %s", strerror(e));
        file_error(err, path, why ? why : "cannot read the map");
        free(why);
        return -1;
    }
    int rc = len > MAP_MAX_FILE_BYTES
        ? file_error(err, path, "the file is larger than 64 MiB; a map is at most 64 MiB")
        : map_load_text(path, text, len, opt, out, err);
    if (rc == 0 && kept) {
        /* As a string: the text's end marked (a NUL inside ends it). */
        char *t = realloc(text, len + 1);
        if (t)
            t[len] = 0;
        *kept = t;
        text = t ? NULL : text;
        if (!t) {
            world_free(out);
            rc = file_error(err, path, "out of memory");
        }
    }
    free(text);
    if (rc && kept) {
        free(*kept);
        *kept = NULL;
    }
    /* Where its bots' scripts are found (their folder). */
    if (rc == 0 && !(out->map_path = strdup(path))) {
        world_free(out);
        return file_error(err, path, "out of memory");
    }
    return rc;
}
