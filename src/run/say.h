/* say.h — the run layer's messages to the person (a recording that cannot
 * be written, a round that cannot start): on stderr for the program.  A
 * library (libbotfield) must not write on a terminal it does not own:
 * it turns them quiet for its thread and reads the last one back into
 * its own error text (botfield-env(3), bf_error). */
#ifndef BOTFIELD_SAY_H
#define BOTFIELD_SAY_H

/* "botfield: " and fmt's text on stderr, or kept when quiet (without the
 * prefix and the last newline). */
void run_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* 1: this thread's messages are kept, not written; 0: written (the
 * default).  The kept one is forgotten either way. */
void run_say_quietly(int on);
/* The last message kept on this thread since run_say_quietly; "": none. */
const char *run_said(void);

#endif
