/* bot_script.c — reading a bot's script under the path rules, and its
 * SHA-256.
 *
 * A map may come from a stranger, so the file it names must lie inside
 * the map's folder: the name is checked as text first (relative, ending
 * in ".lua", no ".." that climbs out), then resolved with its symbolic
 * links (realpath) and compared with the resolved folder, component-wise.
 * A name that does not resolve and one that resolves outside the folder
 * get the same message, so a map cannot probe which files exist outside
 * its folder; no message ever quotes a file's contents.  The file must be
 * a regular file (checked before it is opened, and again after) of at
 * most BOT_SCRIPT_MAX bytes; it is opened with O_NONBLOCK (a FIFO swapped
 * in meanwhile never blocks), O_NOFOLLOW and O_NOCTTY. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <nettle/sha2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot.h"
#include "core/grow.h"
#include "io/utf8.h"

void bot_text_escape(char *dst, size_t n, const char *src)
{
    if (!dst || !n)
        return;
    const unsigned char *p = (const unsigned char *)src;
    size_t at = 0;
    while (*p) {
        char esc[16];
        const char *piece = esc;
        /* utf8_len() stops at the NUL: a character cut short is not one */
        size_t len, k = (size_t)utf8_len(p);
        if (*p < 0x20 || *p == 0x7f || k == 0) {
            len = (size_t)snprintf(esc, sizeof esc, "\\%u", *p);
            k = 1;
        } else if (k == 2 && p[0] == 0xc2 && p[1] <= 0x9f) {
            len = (size_t)snprintf(esc, sizeof esc, "\\u{%x}", p[1]);
        } else {
            piece = (const char *)p;
            len = k;
        }
        if (len >= n - at)
            break;
        memcpy(dst + at, piece, len);
        at += len;
        p += k;
    }
    dst[at] = 0;
}

/* Every message of this file may quote the map's path: escaped. */
static int fail(char *err, size_t n, const char *fmt, ...)
{
    if (err && n) {
        char raw[1024];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(raw, sizeof raw, fmt, ap);
        va_end(ap);
        bot_text_escape(err, n, raw);
    }
    return -1;
}

static void sha_hex(const unsigned char *p, size_t len, char out[65])
{
    struct sha256_ctx c;
    unsigned char d[SHA256_DIGEST_SIZE];
    sha256_init(&c);
    sha256_update(&c, len, p);
    sha256_digest(&c, sizeof d, d);
    for (int i = 0; i < SHA256_DIGEST_SIZE; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

int bot_script_from_bytes(const char *path, const void *bytes, size_t len,
                          struct bot_script *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (len > (size_t)BOT_SCRIPT_MAX)
        return fail(err, errlen, "bot '%s': the script is larger than %ld bytes", path,
                    (long)BOT_SCRIPT_MAX);
    out->path = strdup(path);
    out->bytes = malloc(len ? len : 1);
    if (!out->path || !out->bytes) {
        bot_script_free(out);
        return fail(err, errlen, "bot '%s': out of memory", path);
    }
    if (len)
        memcpy(out->bytes, bytes, len);
    out->len = len;
    sha_hex(out->bytes, len, out->sha256);
    return 0;
}

void bot_script_free(struct bot_script *s)
{
    free(s->path);
    free(s->bytes);
    s->path = NULL;
    s->bytes = NULL;
    s->len = 0;
}

/* The name as text: relative, ".lua", no NUL, no ".." above the folder. */
static int check_name(const char *rel, char *err, size_t n)
{
    size_t len = strlen(rel);
    if (len == 0)
        return fail(err, n, "bot: an empty path (a relative path ending in .lua is expected)");
    if (rel[0] == '/')
        return fail(err, n, "bot '%s': an absolute path (a path relative to the map's folder "
                    "is expected)", rel);
    if (len < 5 || strcmp(rel + len - 4, ".lua") != 0)
        return fail(err, n, "bot '%s': the path must end in .lua", rel);
    int depth = 0;
    for (const char *p = rel; *p;) {
        const char *e = strchr(p, '/');
        size_t cl = e ? (size_t)(e - p) : strlen(p);
        if (cl == 2 && p[0] == '.' && p[1] == '.') {
            if (--depth < 0)
                return fail(err, n, "bot '%s': the path leaves the map's folder", rel);
        } else if (cl > 0 && !(cl == 1 && p[0] == '.')) {
            depth++;
        }
        p += cl + (e != NULL);
    }
    return 0;
}

int bot_script_check_path(const char *rel, char *err, size_t n)
{
    return check_name(rel, err, n);
}

/* The script's real path, inside the map's folder (no symbolic link
 * leading out of it): malloc'd, or NULL with err said. */
static char *inside_path(const char *map_dir, const char *rel, char *err, size_t errlen)
{
    char *base = realpath(map_dir && *map_dir ? map_dir : ".", NULL);
    if (!base) {
        fail(err, errlen, "bot '%s': the map's folder cannot be resolved", rel);
        return NULL;
    }
    size_t bl = strlen(base);
    char *full = malloc(bl + strlen(rel) + 2);
    if (!full) {
        free(base);
        fail(err, errlen, "bot '%s': out of memory", rel);
        return NULL;
    }
    sprintf(full, "%s/%s", base, rel);
    char *real = realpath(full, NULL);
    free(full);
    int inside = real && strncmp(real, base, bl) == 0
                 && (real[bl] == '/' || (bl == 1 && base[0] == '/'));
    free(base);
    if (!inside) {
        free(real);
        fail(err, errlen, "bot '%s': no such file inside the map's folder (or a "
             "symbolic link that leads out of it)", rel);
        return NULL;
    }
    return real;
}

/* The bytes of fd, a regular file of `size` bytes, read to the end even
 * if the file grew meanwhile, up to the cap: 0 with *buf and *len, or -1
 * with err said. */
static int read_capped(int fd, off_t size, const char *rel, unsigned char **buf, size_t *len,
                       char *err, size_t errlen)
{
    size_t cap = (size_t)size + 1;
    *len = 0;
    if (!(*buf = malloc(cap)))
        return fail(err, errlen, "bot '%s': out of memory", rel);
    for (;;) {
        if (*len == cap) {
            if (cap > (size_t)BOT_SCRIPT_MAX)
                break;      /* larger than the cap: said below */
            if (grow_reserve(buf, &cap, cap + 1, 1)) {      /* doubles it */
                free(*buf);
                return fail(err, errlen, "bot '%s': out of memory", rel);
            }
        }
        ssize_t r = read(fd, *buf + *len, cap - *len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            free(*buf);
            return fail(err, errlen, "bot '%s': cannot read: %s", rel, strerror(e));
        }
        if (r == 0)
            break;
        *len += (size_t)r;
    }
    if (*len > (size_t)BOT_SCRIPT_MAX) {
        free(*buf);
        return fail(err, errlen, "bot '%s': the script is larger than %ld bytes", rel,
                    (long)BOT_SCRIPT_MAX);
    }
    return 0;
}

int bot_script_read(const char *map_dir, const char *rel, struct bot_script *out,
                    char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (check_name(rel, err, errlen))
        return -1;
    char *real = inside_path(map_dir, rel, err, errlen);
    if (!real)
        return -1;
    /* Looked at before it is opened: opening a device can act (a
     * terminal becomes the controlling one, a watchdog starts) and
     * opening a FIFO wakes a writer waiting on it.  The fstat after the
     * open checks the file actually opened. */
    struct stat st;
    if (stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
        free(real);
        return fail(err, errlen, "bot '%s': not a regular file", rel);
    }
    int fd = open(real, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
    free(real);
    if (fd < 0)
        return fail(err, errlen, "bot '%s': cannot open: %s", rel, strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return fail(err, errlen, "bot '%s': not a regular file", rel);
    }
    if (st.st_size > BOT_SCRIPT_MAX) {
        close(fd);
        return fail(err, errlen, "bot '%s': the script is larger than %ld bytes", rel,
                    (long)BOT_SCRIPT_MAX);
    }
    unsigned char *buf;
    size_t len;
    int rc = read_capped(fd, st.st_size, rel, &buf, &len, err, errlen);
    close(fd);
    if (rc)
        return -1;
    rc = bot_script_from_bytes(rel, buf, len, out, err, errlen);
    free(buf);
    return rc;
}
