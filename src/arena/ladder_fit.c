/* ladder_fit.c — the ratings refit in a forked child: with 1,000 bots the
 * fit (ratings.c: Newton steps on a 1,000 x 1,000 system) takes seconds,
 * and the daemon must keep answering meanwhile.  The child fits every
 * result known when it was forked, writes ladder.json and hands the
 * ratings back through a pipe; the commands show the last ratings handed
 * back until then, and a result that arrives meanwhile starts another fit
 * when this one is done. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ladder_impl.h"

/* In the child: the fit, ladder.json, the ratings on fd. */
static void fit_child(struct arena_ladder *l, int fd)
{
    l->refit = 1;
    if (ladder_write_json(l))
        _exit(1);
    for (int i = 0; i < l->nbots; i++) {
        const char *p = (const char *)&l->bots[i].r;
        for (size_t done = 0; done < sizeof l->bots[i].r;) {
            ssize_t w = write(fd, p + done, sizeof l->bots[i].r - done);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                _exit(1);
            done += (size_t)w;
        }
    }
    _exit(0);
}

/* Starts a fit of what is known now (one at a time: a fit running, this
 * one waits for it).  0, or -1 when no process could start. */
int ladder_fit_start(struct arena_ladder *l)
{
    l->refit = 1;
    if (l->fit_pid > 0)
        return 0;
    size_t size = (size_t)l->nbots * sizeof(struct rating);
    int p[2];
    if (!(l->fit_buf = malloc(size + 1)) || pipe(p))
        return free(l->fit_buf), l->fit_buf = NULL, -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        ladder_close_fds(p[1]);
        fit_child(l, p[1]);
    }
    close(p[1]);
    if (pid < 0) {
        close(p[0]);
        free(l->fit_buf);
        l->fit_buf = NULL;
        return -1;
    }
    fcntl(p[0], F_SETFL, O_NONBLOCK);
    l->fit_pid = pid;
    l->fit_fd = p[0];
    l->fit_n = l->nbots;
    l->fit_got = 0;
    l->refit = 0;
    return 0;
}

/* The ratings handed back (all of them: a child that died hands none). */
static void fit_done(struct arena_ladder *l)
{
    int status = 0;
    close(l->fit_fd);
    while (waitpid(l->fit_pid, &status, 0) < 0 && errno == EINTR)
        ;
    size_t size = (size_t)l->fit_n * sizeof(struct rating);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && l->fit_got == size) {
        const struct rating *r = (const struct rating *)l->fit_buf;
        for (int i = 0; i < l->fit_n; i++) {
            l->bots[i].r = r[i];
            l->bots[i].rated = 1;
        }
    } else {
        fprintf(stderr, "botfield serve: the ratings' refit failed; ladder.json is "
                "unchanged until the next one\n");
    }
    free(l->fit_buf);
    l->fit_buf = NULL;
    l->fit_pid = 0;
}

/* What the fit child wrote so far; when it is done, its ratings, and the
 * next fit when results came meanwhile.  block: wait for it. */
void ladder_fit_poll(struct arena_ladder *l, int block)
{
    if (l->fit_pid <= 0)
        return;
    size_t size = (size_t)l->fit_n * sizeof(struct rating);
    for (;;) {
        ssize_t got = read(l->fit_fd, l->fit_buf + l->fit_got,
                           l->fit_got < size ? size - l->fit_got : 1);
        if (got > 0 && l->fit_got + (size_t)got <= size) {
            l->fit_got += (size_t)got;
            continue;
        }
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0 && errno == EAGAIN && block) {
            usleep(10000);
            continue;
        }
        if (got < 0 && errno == EAGAIN)
            return;
        break;                  /* the end (or more than expected: a bad fit) */
    }
    fit_done(l);
    if (l->refit && ladder_fit_start(l))
        fprintf(stderr, "botfield serve: cannot start the ratings' refit: %s\n",
                strerror(errno));
}
