/* store.c — the arena's files, written whole or not at all (store.h). */
#include "store.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

int arena_write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

int arena_write_atomic(const char *dir, const char *name, const void *data, size_t n)
{
    char tmp[PATH_MAX], path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    /* the temporary name starts with '.', which no checked name does */
    const char *slash = strrchr(name, '/');
    if (slash)
        snprintf(tmp, sizeof tmp, "%s/%.*s/.tmp.%s.XXXXXX", dir, (int)(slash - name), name,
                 slash + 1);
    else
        snprintf(tmp, sizeof tmp, "%s/.tmp.%s.XXXXXX", dir, name);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return -1;
    int rc = arena_write_all(fd, data, n) || fsync(fd);
    int e = errno;
    if (close(fd))
        rc = -1;
    if (!rc && rename(tmp, path))
        rc = -1, e = errno;
    if (rc) {
        unlink(tmp);
        errno = e;
        return -1;
    }
    char folder[PATH_MAX];
    snprintf(folder, sizeof folder, "%s", path);
    *strrchr(folder, '/') = 0;
    return sync_dir(folder);
}

int arena_append_line(const char *dir, const char *name, const char *line, size_t n)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    int rc = arena_write_all(fd, line, n) || fsync(fd) ? -1 : 0;
    int e = errno;
    close(fd);
    errno = e;
    return rc;
}

void arena_child_detach(int keep)
{
    pid_t parent = getppid();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(1);
    if (keep > 3)
        close_range(3, (unsigned)keep - 1, 0);
    close_range(keep >= 3 ? (unsigned)keep + 1 : 3, ~0U, 0);
}
