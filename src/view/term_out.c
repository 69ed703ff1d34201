/* term_out.c — see term_out.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "term_out.h"

struct term_out {
    int in, out;                    /* the real terminal */
    int master, slave;              /* the layer curses writes to */
    FILE *file;                     /* on slave, for newterm() */
    struct termios saved;           /* in's modes before curses */
    int have_saved;
    pthread_t thread;
    _Atomic unsigned long long copied;
    _Atomic unsigned long long delivered;   /* of copied, written out */
};

/* Writes all of buf to fd; a terminal that went away is given nothing
 * more, but the layer is still drained (curses would block on it). */
static void put_all(int fd, const char *buf, size_t n, int *gone)
{
    while (n > 0 && !*gone) {
        ssize_t w = write(fd, buf, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            *gone = 1;
            return;
        }
        buf += w;
        n -= (size_t)w;
    }
}

static void *copy_out(void *arg)
{
    struct term_out *t = arg;
    char buf[16384];
    int gone = 0;
    for (;;) {
        ssize_t n = read(t->master, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)             /* EIO: the slave side was closed */
            break;
        atomic_fetch_add(&t->copied, (unsigned long long)n);
        put_all(t->out, buf, (size_t)n, &gone);
        atomic_fetch_add(&t->delivered, (unsigned long long)n);
    }
    return NULL;
}

static int open_pair(struct term_out *t)
{
    t->master = posix_openpt(O_RDWR | O_NOCTTY);
    if (t->master < 0)
        return -1;
    if (grantpt(t->master) || unlockpt(t->master))
        return -1;
    const char *name = ptsname(t->master);
    if (!name)
        return -1;
    t->slave = open(name, O_RDWR | O_NOCTTY);
    if (t->slave < 0)
        return -1;
    fcntl(t->master, F_SETFD, FD_CLOEXEC);
    fcntl(t->slave, F_SETFD, FD_CLOEXEC);
    /* The layer starts as the real terminal, but passes bytes through
     * unchanged: the real one does any output processing. */
    struct termios m;
    if (t->have_saved) {
        m = t->saved;
        m.c_oflag &= ~(tcflag_t)OPOST;
        tcsetattr(t->slave, TCSANOW, &m);
    }
    struct winsize ws;
    if (ioctl(t->out, TIOCGWINSZ, &ws) == 0)
        ioctl(t->slave, TIOCSWINSZ, &ws);
    t->file = fdopen(t->slave, "w");
    return t->file ? 0 : -1;
}

static void drop(struct term_out *t)
{
    int saved = errno;
    if (t->file)
        fclose(t->file);
    else if (t->slave >= 0)
        close(t->slave);
    if (t->master >= 0)
        close(t->master);
    free(t);
    errno = saved;
}

struct term_out *term_out_open(int in, int out)
{
    struct term_out *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->in = in;
    t->out = out;
    t->master = t->slave = -1;
    atomic_init(&t->copied, 0);
    atomic_init(&t->delivered, 0);
    t->have_saved = tcgetattr(in, &t->saved) == 0;
    if (open_pair(t)) {
        drop(t);
        return NULL;
    }
    /* The signals stay the main thread's: its poll() wakes on them. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&t->thread, NULL, copy_out, t);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc) {
        drop(t);
        errno = rc;
        return NULL;
    }
    return t;
}

FILE *term_out_file(struct term_out *t)
{
    return t->file;
}

unsigned long long term_out_bytes(struct term_out *t)
{
    /* What waits in the layer first, then the count: a chunk read in
     * between is counted twice for a moment, never missed. */
    int queued = 0;
    if (ioctl(t->master, FIONREAD, &queued) < 0 || queued < 0)
        queued = 0;
    return atomic_load(&t->copied) + (unsigned long long)queued;
}

void term_out_sync(struct term_out *t)
{
    struct termios m, real;
    if (!t->have_saved || tcgetattr(t->slave, &m) || tcgetattr(t->in, &real))
        return;
    /* Input and local modes (cbreak, noecho, nonl), not the output's. */
    real.c_iflag = m.c_iflag;
    real.c_lflag = m.c_lflag;
    memcpy(real.c_cc, m.c_cc, sizeof real.c_cc);
    tcsetattr(t->in, TCSANOW, &real);
}

/* Nothing queued in the layer nor in the thread's hands. */
static int drained(struct term_out *t)
{
    int queued = 0;
    if (ioctl(t->master, FIONREAD, &queued) < 0)
        return 1;
    return queued == 0 && atomic_load(&t->copied) == atomic_load(&t->delivered);
}

void term_out_suspend(struct term_out *t)
{
    fflush(t->file);
    /* The kernel hands the slave's bytes to the master a moment later (a
     * work item), so one empty look is not enough: five in a row, 1 ms
     * apart, within 3 s (a terminal that stalls gets its modes anyway). */
    const struct timespec ms = { 0, 1000000 };
    int calm = 0;
    for (int k = 0; k < 3000 && calm < 5; k++) {
        calm = drained(t) ? calm + 1 : 0;
        nanosleep(&ms, NULL);
    }
    if (t->have_saved)
        tcsetattr(t->in, TCSADRAIN, &t->saved);
}

void term_out_resize(struct term_out *t, int rows, int cols)
{
    struct winsize ws;
    memset(&ws, 0, sizeof ws);
    ws.ws_row = (unsigned short)rows;
    ws.ws_col = (unsigned short)cols;
    ioctl(t->slave, TIOCSWINSZ, &ws);
}

void term_out_close(struct term_out *t)
{
    if (!t)
        return;
    fflush(t->file);
    /* The thread reads what is left, then EIO once no slave is open. */
    fclose(t->file);
    t->file = NULL;
    t->slave = -1;
    pthread_join(t->thread, NULL);
    if (t->have_saved)
        tcsetattr(t->in, TCSADRAIN, &t->saved);
    close(t->master);
    free(t);
}
