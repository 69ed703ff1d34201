/* test-proc.c — a process bot's program in lockstep (src/bot/proc.c),
 * against programs that misbehave every way the protocol names: garbage,
 * a line over 1 MiB, no newline, closed output, an exit, children left
 * behind, silence, a flood on standard error, a late answer, an input
 * never read; and none of ours leaks into it, no zombie is left, and a
 * write to a program that is gone raises no SIGPIPE here. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "bot/proc.h"

static struct proc *start(const char *cmd)
{
    char err[256];
    struct proc *p = proc_start(cmd, err, sizeof err);
    if (!p)
        tap_note("%s", err);
    return p;
}

static enum proc_answer ask(struct proc *p, const char *line, int ms, const char **ans)
{
    size_t len;
    return proc_ask(p, line, strlen(line), ms, ans, &len);
}

/* No process of the group is left (kill(-g, 0) finds none). */
static int group_gone(int g)
{
    for (int i = 0; i < 100; i++) {
        if (kill(-g, 0) < 0 && errno == ESRCH)
            return 1;
        usleep(10000);
    }
    return 0;
}

TEST(answers_in_lockstep)
{
    struct proc *p = start("while read l; do echo \"got $l\"; done");
    const char *a;
    check_int(ask(p, "one", 5000, &a), ==, PROC_OK);
    check_str(a, "got one");
    check_int(ask(p, "two", 5000, &a), ==, PROC_OK);
    check_str(a, "got two");
    proc_stop(p);
}

TEST(garbage_is_the_callers_to_judge)
{
    struct proc *p = start("while read l; do printf '\\377\\001not json {\\n'; done");
    const char *a;
    check_int(ask(p, "x", 5000, &a), ==, PROC_OK);
    check(a[0] == '\377' && a[1] == 1);
    proc_stop(p);
}

TEST(a_line_over_a_mebibyte)
{
    struct proc *p = start("read l; head -c 2000000 /dev/zero | tr '\\0' a; echo");
    const char *a;
    check_int(ask(p, "x", 10000, &a), ==, PROC_TOO_LONG);
    check(strstr(proc_why(p), "over 1048576 bytes") != NULL);
    check_int(ask(p, "y", 10, &a), ==, PROC_TOO_LONG);      /* for good */
    proc_stop(p);
}

TEST(no_newline_then_silence_is_late)
{
    struct proc *p = start("read l; printf abc; sleep 100");
    int g = proc_group(p);
    const char *a;
    check_int(ask(p, "x", 200, &a), ==, PROC_LATE);
    check_int(ask(p, "y", 100, &a), ==, PROC_LATE);
    proc_stop(p);
    check(group_gone(g));
}

TEST(closed_output_and_exit)
{
    struct proc *p = start("exec >&-; sleep 100");
    const char *a;
    check_int(ask(p, "x", 5000, &a), ==, PROC_GONE);
    check_str(proc_why(p), "it closed its standard output");
    proc_stop(p);
    p = start("read l; exit 3");
    check_int(ask(p, "x", 5000, &a), ==, PROC_GONE);
    check_str(proc_why(p), "it exited with status 3");
    /* a write to it now: no SIGPIPE kills us (we are still here) */
    check_int(ask(p, "y", 100, &a), ==, PROC_GONE);
    proc_stop(p);
    p = start("exit 0");
    usleep(100000);
    check_int(ask(p, "y", 1000, &a), ==, PROC_GONE);
    proc_stop(p);
}

TEST(children_left_behind_are_killed_and_reaped)
{
    struct proc *p = start("sleep 1000 & (sleep 1000 &) ; while read l; do echo ok; done");
    int g = proc_group(p);
    const char *a;
    check_int(ask(p, "x", 5000, &a), ==, PROC_OK);
    proc_stop(p);
    check(group_gone(g));
    /* and no zombie of ours: nothing left to wait for */
    check_int(waitpid(-1, NULL, WNOHANG), ==, -1);
}

TEST(a_late_answer_is_skipped)
{
    struct proc *p = start("read l; sleep 0.4; echo first; read l; echo second");
    const char *a;
    check_int(ask(p, "1", 100, &a), ==, PROC_LATE);
    check_int(ask(p, "2", 5000, &a), ==, PROC_OK);
    check_str(a, "second");
    proc_stop(p);
}

TEST(a_flood_on_standard_error)
{
    struct proc *p = start("while read l; do i=0; while [ $i -lt 50 ]; do echo \"say $i $l\" >&2; "
                           "i=$((i+1)); done; printf '%0300d\\n' 7 >&2; echo ok; done");
    const char *a;
    char lines[PROC_LOG_LINES][PROC_LOG_BYTES + 1];
    int dropped = 0;
    check_int(ask(p, "x", 5000, &a), ==, PROC_OK);
    int n = proc_log(p, lines, &dropped);
    check_int(n, ==, PROC_LOG_LINES);
    check_str(lines[0], "say 0 x");
    check_int(n + dropped, ==, 51);
    check_int(ask(p, "y", 5000, &a), ==, PROC_OK);
    check_str(a, "ok");
    proc_stop(p);
    /* one endless line on standard error, never answering: late, bounded */
    p = start("yes abcdefgh | tr -d '\\n' >&2");
    check_int(ask(p, "x", 300, &a), ==, PROC_LATE);
    n = proc_log(p, lines, &dropped);
    check_int(n, ==, 0);
    proc_stop(p);
}

TEST(an_input_never_read)
{
    struct proc *p = start("sleep 100");
    static char big[200000];
    memset(big, 'x', sizeof big);
    const char *a;
    size_t len;
    enum proc_answer r = PROC_LATE;
    for (int i = 0; i < 40 && r == PROC_LATE; i++)
        r = proc_ask(p, big, sizeof big, 1, &a, &len);
    check_int(r, ==, PROC_DEAF);
    proc_stop(p);
}

TEST(none_of_our_descriptors_leak)
{
    int fd = open("/dev/null", O_RDONLY);       /* not close-on-exec */
    struct proc *p = start("read l; ls /proc/self/fd | tr '\\n' ' '; echo");
    const char *a;
    check_int(ask(p, "x", 5000, &a), ==, PROC_OK);
    check_str(a, "0 1 2 3 ");                   /* 3: ls's own listing */
    proc_stop(p);
    close(fd);
}

TEST(a_command_that_is_not_there)
{
    struct proc *p = start("/nonexistent/bot --x");
    const char *a;
    check_int(ask(p, "x", 5000, &a), ==, PROC_GONE);
    check_str(proc_why(p), "it exited with status 127");
    proc_stop(p);
}

int main(void)
{
    run(answers_in_lockstep, "one line out, one line back, in turn");
    run(garbage_is_the_callers_to_judge, "bytes that are not JSON come back as they are");
    run(a_line_over_a_mebibyte, "a line over 1 MiB stops the program, for good");
    run(no_newline_then_silence_is_late, "no newline, then silence: late, each time; "
        "its group killed at the end");
    run(closed_output_and_exit, "closed output and an exit are said; writing to it "
        "afterwards raises no SIGPIPE");
    run(children_left_behind_are_killed_and_reaped,
        "children left in the background are killed with the group; no zombie");
    run(a_late_answer_is_skipped, "a late answer, when it comes, is not taken as the next");
    run(a_flood_on_standard_error, "standard error: 8 lines a tick of 200 bytes, the rest "
        "counted; an endless line is bounded");
    run(an_input_never_read, "a program that never reads its input is stopped at 4 MiB");
    run(none_of_our_descriptors_leak, "the program sees only its three pipes");
    run(a_command_that_is_not_there, "a command that is not there: gone, status 127");
    return tap_done();
}
