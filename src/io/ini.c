/* ini.c — the value of every key, read by iniparser from the scanner's
 * clean copy of the file.
 *
 * A map may hold a million entities as numbered sections.  iniparser 4.1
 * keeps its dictionary as an array that every insert and lookup walks,
 * so it is never given the whole file: the clean copy goes to it in
 * pieces of at most INI_CHUNK sections and keys, each value is copied out
 * and the piece's dictionary freed, so loading takes time linear in the
 * size of the file. */
#include "config.h"

#include <fcntl.h>
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

#include "load.h"

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

/* The file the pieces go through: an anonymous memory file where the
 * system has one, else a temporary file (*temp set: unlink it).  Its
 * descriptor, or -1. */
static int piece_file(char path[64], int *temp)
{
    int fd = -1;
    *temp = 0;
#ifdef HAVE_MEMFD_CREATE
    fd = memfd_create("botfield-map", MFD_CLOEXEC);
    if (fd >= 0)
        snprintf(path, 64, "/proc/self/fd/%d", fd);
#endif
    if (fd < 0) {
        const char *dir = getenv("TMPDIR");
        snprintf(path, 64, "%s/botfield-XXXXXX", dir && strlen(dir) < 40 ? dir : "/tmp");
        fd = mkstemp(path);
        *temp = 1;
    }
    return fd;
}

/* One piece of the clean copy: lines [start, end), which hold keys
 * [first_key, next_key) and start inside section `head` (-1: none). */
struct piece {
    size_t start, end;
    int head, first_key, next_key;
};

/* The next piece from *pos: whole lines holding at most INI_CHUNK
 * sections and keys.  *sec and *key count the headers and keys passed. */
static struct piece next_piece(const struct scan_result *S, size_t *pos, int *sec, int *key)
{
    const char *t = S->clean;
    size_t len = S->clean_len;
    struct piece pc = { *pos, *pos, *sec, *key, *key };
    int entries = 0;
    while (*pos < len) {
        /* In the clean copy a line is blank, a header ('[') or the next key. */
        if (t[*pos] != '\n') {
            if (entries == INI_CHUNK)
                break;
            entries++;
            if (t[*pos] == '[')
                ++*sec;
            else
                ++*key;
        }
        const char *nl = memchr(t + *pos, '\n', len - *pos);
        *pos = nl ? (size_t)(nl - t) + 1 : len;
    }
    pc.end = *pos;
    pc.next_key = *key;
    return pc;
}

/* Writes a piece to fd, its section's header first. */
static int write_piece(int fd, const struct scan_result *S, const struct piece *pc)
{
    off_t off = 0;
    const char *name = pc->head >= 0 ? S->sections[pc->head].name : NULL;
    return ftruncate(fd, 0)
        || (name && (write_at(fd, "[", 1, &off) || write_at(fd, name, strlen(name), &off)
                     || write_at(fd, "]\n", 2, &off)))
        || write_at(fd, S->clean + pc->start, pc->end - pc->start, &off) ? -1 : 0;
}

/* Copies the values of a piece's keys out of iniparser's dictionary. */
static int copy_values(struct loader *L, dictionary *d, const struct piece *pc,
                       size_t *vlen, size_t vcap)
{
    const struct scan_result *S = &L->scan;
    for (int i = pc->first_key; i < pc->next_key; i++) {
        const struct scan_key *k = &S->keys[i];
        /* A section name and a key each fit on one line. */
        char full[2 * MAP_MAX_LINE_BYTES + 2];
        snprintf(full, sizeof full, "%s:%s", S->sections[k->section].name, k->name);
        const char *v = iniparser_getstring(d, full, NULL);
        if (!v)
            continue;
        size_t n = strlen(v);
        if (n >= vcap - *vlen)
            return -1;          /* cannot happen: iniparser only shortens a line */
        memcpy(L->vals + *vlen, v, n + 1);
        L->val[i] = L->vals + *vlen;
        *vlen += n + 1;
    }
    return 0;
}

/* Reads the value of every key through iniparser into L->val.  iniparser
 * reads only from a path: the pieces go through one file, rewritten for
 * each; a piece that starts inside a section repeats the section's header
 * (a section of many keys spans pieces).  0, or -1 when iniparser could
 * not load a piece or memory ran out. */
int load_ini_values(struct loader *L)
{
    const struct scan_result *S = &L->scan;
    L->val = calloc(S->nkeys ? (size_t)S->nkeys : 1, sizeof *L->val);
    /* Each value is at most the rest of its line of the clean copy. */
    size_t vcap = S->clean_len + 1, vlen = 0;
    L->vals = malloc(vcap);
    if (!L->val || !L->vals)
        return -1;
    char path[64];
    int temp;
    int fd = piece_file(path, &temp);
    if (fd < 0)
        return -1;
    iniparser_set_error_callback(silent);

    int rc = 0, sec = -1, key = 0;
    size_t pos = 0;
    while (rc == 0 && pos < S->clean_len) {
        struct piece pc = next_piece(S, &pos, &sec, &key);
        if (pc.next_key == pc.first_key)
            continue;           /* only headers: no value to read */
        dictionary *d = write_piece(fd, S, &pc) ? NULL : iniparser_load(path);
        if (!d) {
            rc = -1;
            break;
        }
        rc = copy_values(L, d, &pc, &vlen, vcap);
        iniparser_freedict(d);
    }
    if (temp)
        unlink(path);
    close(fd);
    return rc;
}
