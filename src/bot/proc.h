/* proc.h — a process bot's program (botfield-bots(7), process bots): a
 * command the user named, started through /bin/sh -c in a process group
 * of its own, spoken to in lockstep over its standard input and output,
 * one line each way, with a deadline for every answer.
 *
 * Whatever the program does is its own failure, never ours: garbage, a
 * line over PROC_LINE_MAX, no newline, closed output, an exit, children
 * left behind, silence, a flood on standard error.  Every wait is
 * bounded by the deadline; proc_stop() kills the whole group and reaps
 * it, so nothing outlives the run. */
#ifndef BOTFIELD_PROC_H
#define BOTFIELD_PROC_H

#include <stddef.h>

#define PROC_LINE_MAX ((size_t)1 << 20)     /* an answer's bytes at most */
#define PROC_PENDING_MAX ((size_t)4 << 20)  /* bytes it has not read, at most */
#define PROC_LOG_LINES 8                    /* standard error lines a tick */
#define PROC_LOG_BYTES 200                  /* each, at most */
#define PROC_ERR_READ ((size_t)64 << 10)    /* standard error read a tick, at most */

struct proc;

/* Starts `command` (/bin/sh -c, the current folder, the user's
 * environment; none of botfield's other descriptors).  NULL with err. */
struct proc *proc_start(const char *command, char *err, size_t n);

enum proc_answer {
    PROC_OK,            /* *answer: one line (NUL-ended, no newline) */
    PROC_LATE,          /* no whole line by the deadline: that answer,
                           when it comes, is skipped */
    PROC_GONE,          /* it exited or closed its output (for good) */
    PROC_TOO_LONG,      /* a line over PROC_LINE_MAX (for good) */
    PROC_DEAF           /* PROC_PENDING_MAX bytes it never read (for good) */
};

/* Sends `line` (len bytes, a newline added) and waits at most timeout_ms
 * for the answer.  *answer stays valid until the next call.  After any
 * answer but PROC_OK and PROC_LATE the program is stopped, and every
 * later call gives the same. */
enum proc_answer proc_ask(struct proc *p, const char *line, size_t len, int timeout_ms,
                          const char **answer, size_t *alen);

/* Sends a last line without waiting (the end), as far as it takes it. */
void proc_tell(struct proc *p, const char *line, size_t len);

/* Its input closed, after what is left of it is sent (ms at most): the
 * end, which a program may take to save what it learnt before it exits;
 * proc_exited() says when it has (1; 0: not yet), and proc_stop() kills
 * what is left. */
void proc_close_input(struct proc *p, int ms);
int proc_exited(struct proc *p);

/* Its standard error since the last call, as lines: at most
 * PROC_LOG_LINES of PROC_LOG_BYTES (longer ones cut, control bytes shown
 * as '?'); the count of the lines left out in *dropped. */
int proc_log(struct proc *p, char lines[PROC_LOG_LINES][PROC_LOG_BYTES + 1], int *dropped);

/* Why it is gone, in words ("exited with status 3", "killed by signal
 * 9"), once PROC_GONE was answered; "" before. */
const char *proc_why(const struct proc *p);

/* Its process group (its first pid). */
int proc_group(const struct proc *p);

/* Kills its process group, reaps it, frees p (NULL: nothing). */
void proc_stop(struct proc *p);

#endif
