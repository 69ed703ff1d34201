/* map_write.c — tuned values saved into the map file (map_write.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "core/grow.h"
#include "load.h"
#include "map_write.h"

uint64_t map_write_hash(const char *text, size_t len)
{
    return (uint64_t)XXH64(text, len, 0);
}

int map_write_read(const char *path, char **text, size_t *len, char *msg, size_t n)
{
    *text = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(msg, n, "%s: cannot read it: %s", path, strerror(errno));
        return -1;
    }
    /* From 4096 bytes, doubling; a read that fills the buffer reads
     * again, so at the end there is room for the NUL. */
    size_t cap = 0, got = 0;
    char *buf = NULL;
    int oom = grow_reserve(&buf, &cap, 4096, 1);
    while (!oom) {
        got += fread(buf + got, 1, cap - got, f);
        if (got < cap)
            break;
        if (cap >= MAP_MAX_FILE_BYTES) {
            snprintf(msg, n, "%s: larger than a map may be (%u bytes)", path,
                     MAP_MAX_FILE_BYTES);
            free(buf);
            fclose(f);
            return -1;
        }
        oom = grow_reserve(&buf, &cap, cap + 1, 1);
    }
    int bad = ferror(f);
    fclose(f);
    if (oom || bad) {
        snprintf(msg, n, "%s: cannot read it: %s", path, oom ? "out of memory" : "read error");
        free(buf);
        return -1;
    }
    buf[got] = 0;
    *text = buf;
    *len = got;
    return 0;
}

/* text to path through a temporary file beside it, with path's mode.
 * 0, or -1 with msg. */
static int replace_file(const char *path, const char *text, size_t len, char *msg, size_t n)
{
    size_t pl = strlen(path);
    char *tmp = malloc(pl + 16);
    if (!tmp) {
        snprintf(msg, n, "out of memory");
        return -1;
    }
    snprintf(tmp, pl + 16, "%s.tuneXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(msg, n, "%s: cannot write beside it: %s", path, strerror(errno));
        free(tmp);
        return -1;
    }
    struct stat st;
    if (stat(path, &st) == 0)
        (void)fchmod(fd, st.st_mode & 07777);
    FILE *f = fdopen(fd, "wb");
    int bad = !f;
    if (f) {
        bad = fwrite(text, 1, len, f) != len;
        bad |= fflush(f) != 0 || fsync(fileno(f)) != 0;
        bad |= fclose(f) != 0;
    } else
        close(fd);
    if (bad || rename(tmp, path)) {
        snprintf(msg, n, "%s: cannot write it: %s", path, strerror(errno ? errno : EIO));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}

int map_write_back(const char *path, const struct map_set *set, int nset, uint64_t loaded,
                   int force, uint64_t *new_hash, char *msg, size_t n)
{
    char *text;
    size_t len;
    if (map_write_read(path, &text, &len, msg, n))
        return -1;
    if (!force && map_write_hash(text, len) != loaded) {
        free(text);
        snprintf(msg, n, "%s changed on disk since it was loaded", path);
        return 1;
    }
    char *out = NULL;
    size_t out_len = 0;
    int *from = NULL, new_entity = 0;
    int rc = load_overlay(text, len, set, nset, &out, &out_len, &from, &new_entity);
    free(text);
    free(from);
    if (rc == 1) {
        snprintf(msg, n, "%s: the file on disk does not read as a map now (L shows why): "
                 "not written", path);
        return -1;
    }
    if (rc) {
        snprintf(msg, n, "out of memory");
        return -1;
    }
    if (new_entity) {
        free(out);
        snprintf(msg, n, "%s: a tuned vehicle has no section of its own in the file (a "
                 "random tank): tune its team instead; not written", path);
        return -1;
    }
    rc = replace_file(path, out, out_len, msg, n);
    if (rc == 0)
        *new_hash = map_write_hash(out, out_len);
    free(out);
    return rc;
}

/* 0 when a file could be written at path, else the errno that says why
 * not, found without creating or truncating anything: an output that
 * cannot be opened is said before another output (a recording) is
 * truncated.  Anything but a regular file or a folder (a FIFO, a device)
 * is left for the real open to judge: probing it could block or eat a
 * reader's end of file. */
int file_cannot_write(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return EISDIR;
        if (!S_ISREG(st.st_mode))
            return 0;
        return access(path, W_OK) ? errno : 0;
    }
    if (errno != ENOENT)
        return errno;
    /* A new file: its folder must take it. */
    char *dir = strdup(path);
    if (!dir)
        return ENOMEM;
    char *slash = strrchr(dir, '/');
    const char *d = !slash ? "." : slash == dir ? "/" : (*slash = 0, dir);
    int e = access(d, W_OK | X_OK) ? errno : 0;
    free(dir);
    return e;
}
