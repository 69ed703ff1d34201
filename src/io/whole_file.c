/* whole_file.c — a file written whole or not at all (whole_file.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "whole_file.h"

static void hold_signals(sigset_t *old)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGTERM);
    sigaddset(&s, SIGQUIT);
    sigaddset(&s, SIGHUP);
    sigprocmask(SIG_BLOCK, &s, old);
}

/* The mode a new file gets from fopen: 0666 less the umask. */
static mode_t new_file_mode(void)
{
    mode_t m = umask(022);
    umask(m);
    return 0666 & ~m;
}

FILE *whole_open(struct whole_file *wf, const char *path)
{
    memset(wf, 0, sizeof *wf);
    wf->path = path;
    struct stat st;
    int exists = stat(path, &st) == 0;
    if (exists && !S_ISREG(st.st_mode))
        return wf->f = fopen(path, "w");
    size_t n = strlen(path) + 8;
    if (!(wf->tmp = malloc(n)))
        return NULL;
    snprintf(wf->tmp, n, "%s.XXXXXX", path);
    hold_signals(&wf->held);
    int fd = mkstemp(wf->tmp);
    if (fd >= 0 && fchmod(fd, exists ? st.st_mode & 07777 : new_file_mode()) == 0
        && (wf->f = fdopen(fd, "w")))
        return wf->f;
    int e = errno;
    if (fd >= 0) {
        close(fd);
        unlink(wf->tmp);
    }
    sigprocmask(SIG_SETMASK, &wf->held, NULL);
    free(wf->tmp);
    wf->tmp = NULL;
    errno = e;
    return NULL;
}

int whole_close(struct whole_file *wf, int failed)
{
    int e = errno;          /* (when failed: the failed write's, likely) */
    int bad = failed;
    if (fclose(wf->f)) {
        bad = 1;
        e = errno;
    }
    if (bad && !e)
        e = EIO;
    wf->f = NULL;
    if (!wf->tmp)
        return bad ? -1 : 0;
    if (!bad && rename(wf->tmp, wf->path)) {
        bad = 1;
        e = errno;
    }
    if (bad)
        unlink(wf->tmp);
    free(wf->tmp);
    wf->tmp = NULL;
    /* (a signal held meanwhile is delivered now, the file whole) */
    sigprocmask(SIG_SETMASK, &wf->held, NULL);
    errno = e;
    return bad ? -1 : 0;
}
