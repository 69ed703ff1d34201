/* term_restore.c — see term_restore.h. */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "stderr_hold.h"
#include "term_restore.h"
#include "tui.h"

/* Every signal whose default is to end the process and that the loop does
 * not turn into a clean exit (it has SIGINT, SIGTERM, SIGHUP and SIGQUIT):
 * the fatal ones and those a user, a timer or a CPU limit may send
 * (SIGUSR1, SIGALRM, SIGXCPU, ...). */
static const int fatal_signals[] = {
    SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS,
    SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU,
};
#define NFATAL (int)(sizeof fatal_signals / sizeof fatal_signals[0])
/* Ignored while the viewer runs: the write that raised them fails instead
 * (EFBIG past the file size limit, EPIPE into a pipe nobody reads) and the
 * recording's error path ends the viewer with a message, as for a full
 * disk, instead of a death on the spot. */
static const int ignored_signals[] = { SIGXFSZ, SIGPIPE };
#define NIGNORED (int)(sizeof ignored_signals / sizeof ignored_signals[0])
static struct sigaction old_ignored[NIGNORED];

static struct termios saved_modes;
static volatile sig_atomic_t have_modes;
static int saved_fd = -1, out_fd = -1;
static char reset[512];
static size_t reset_len;
static struct sigaction old_actions[NFATAL];
static int armed;
static char *alt_stack;

void term_restore_save(int fd)
{
    if (tcgetattr(fd, &saved_modes) == 0) {
        saved_fd = fd;
        have_modes = 1;
    }
}

/* Appends a terminfo string capability, when the terminal has it. */
static void add_cap(const char *name)
{
    char *s = tigetstr((char *)name);
    if (!s || s == (char *)-1)
        return;
    size_t n = strlen(s);
    if (n < sizeof reset - reset_len) {
        memcpy(reset + reset_len, s, n);
        reset_len += n;
    }
}

static void add_text(const char *s)
{
    size_t n = strlen(s);
    if (n < sizeof reset - reset_len) {
        memcpy(reset + reset_len, s, n);
        reset_len += n;
    }
}

static void on_fatal(int sig)
{
    /* Only async-signal-safe calls: tcsetattr, write, sigaction, raise. */
    if (out_fd >= 0 && reset_len) {
        ssize_t w = write(out_fd, reset, reset_len);
        (void)w;
    }
    if (have_modes)
        tcsetattr(saved_fd, TCSANOW, &saved_modes);
    /* What was said on stderr meanwhile, now that the shell's screen is
     * back. */
    stderr_hold_release_in_signal();
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    /* Delivered as soon as this handler returns (the signal is blocked
     * while it runs); a fault re-executes and now kills. */
    raise(sig);
}

void term_restore_die(int sig)
{
    on_fatal(sig);
}

int term_restore_arm(int out)
{
    out_fd = out;
    reset_len = 0;
    add_cap("sgr0");        /* plain attributes */
    add_cap("cnorm");       /* the cursor shown */
    add_cap("rmkx");        /* keypad transmit off */
    /* Mouse reports off (ncurses turns on 1000 and 1006 on xterm-likes);
     * a terminal without them ignores the sequences. */
    if (tigetstr((char *)"kmous") && tigetstr((char *)"kmous") != (char *)-1)
        add_text("\033[?1006l\033[?1003l\033[?1002l\033[?1000l");
    add_cap("rmcup");       /* the alternate screen left, the shell's back */
    add_text("\r\n");

    /* An alternate stack: a SIGSEGV from a stack overflow must still run
     * the handler. */
    if (!alt_stack && (alt_stack = malloc(SIGSTKSZ + 16384))) {
        stack_t ss;
        memset(&ss, 0, sizeof ss);
        ss.ss_sp = alt_stack;
        ss.ss_size = SIGSTKSZ + 16384;
        if (sigaltstack(&ss, NULL)) {
            free(alt_stack);
            alt_stack = NULL;
        }
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = alt_stack ? SA_ONSTACK : 0;
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    for (int k = 0; k < NIGNORED; k++)
        sigaction(ignored_signals[k], &ign, &old_ignored[k]);
    for (int k = 0; k < NFATAL; k++) {
        if (sigaction(fatal_signals[k], &sa, &old_actions[k]))
            return -1;
        /* One the parent ignores (nohup, a job runner) stays ignored. */
        if (old_actions[k].sa_handler == SIG_IGN)
            sigaction(fatal_signals[k], &old_actions[k], NULL);
    }
    armed = 1;
    return 0;
}

void term_restore_disarm(void)
{
    if (!armed)
        return;
    for (int k = 0; k < NFATAL; k++)
        sigaction(fatal_signals[k], &old_actions[k], NULL);
    for (int k = 0; k < NIGNORED; k++)
        sigaction(ignored_signals[k], &old_ignored[k], NULL);
    armed = 0;
    have_modes = 0;
    if (alt_stack) {
        stack_t ss;
        memset(&ss, 0, sizeof ss);
        ss.ss_flags = SS_DISABLE;
        if (sigaltstack(&ss, NULL) == 0) {
            free(alt_stack);
            alt_stack = NULL;
        }
    }
}
