/* stop.c — a headless run stopped by a signal (stop.h). */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "stop.h"

static const int stop_signals[] = { SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGPIPE };
#define NSTOP (int)(sizeof stop_signals / sizeof stop_signals[0])

static struct sigaction old_actions[NSTOP], old_alarm;
static int installed[NSTOP];
static int armed;
static volatile sig_atomic_t got;

/* Only async-signal-safe calls: sigaction, sigprocmask, raise, _exit. */
static void die_of(int sig)
{
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, sig);
    sigprocmask(SIG_UNBLOCK, &s, NULL);
    raise(sig);
}

static void on_stop(int sig)
{
    int saved = errno;
    if (!got) {
        got = sig;
        alarm(STOP_GRACE_SECONDS);
    } else if (sig != SIGPIPE) {
        die_of(sig);        /* the second: no more waiting */
    }
    errno = saved;
}

/* The grace is over: the run did not get back to the loop in time. */
static void on_grace(int sig)
{
    int s = got ? got : sig;
    die_of(s);
    _exit(128 + s);
}

void stop_arm(void)
{
    if (armed)
        return;
    got = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    for (int k = 0; k < NSTOP; k++)
        sigaddset(&sa.sa_mask, stop_signals[k]);
    sigaddset(&sa.sa_mask, SIGALRM);
    /* Restarted: a write interrupted would fail, and a trace or a
     * recording that fails stops with an error instead of finishing. */
    sa.sa_flags = SA_RESTART;
    for (int k = 0; k < NSTOP; k++) {
        installed[k] = 0;
        if (sigaction(stop_signals[k], NULL, &old_actions[k]) == 0
            && old_actions[k].sa_handler != SIG_IGN)
            installed[k] = sigaction(stop_signals[k], &sa, NULL) == 0;
    }
    struct sigaction al;
    memset(&al, 0, sizeof al);
    al.sa_handler = on_grace;
    sigemptyset(&al.sa_mask);
    sigaction(SIGALRM, &al, &old_alarm);
    armed = 1;
}

void stop_disarm(void)
{
    if (!armed)
        return;
    for (int k = 0; k < NSTOP; k++)
        if (installed[k])
            sigaction(stop_signals[k], &old_actions[k], NULL);
    alarm(0);
    sigaction(SIGALRM, &old_alarm, NULL);
    armed = 0;
}

int stop_signal(void)
{
    return got;
}

void stop_die(void)
{
    int sig = got;
    if (!sig)
        return;
    stop_disarm();
    die_of(sig);
}
