/* headless.h — run a world as fast as possible, writing a trace and a
 * summary (botfield(6), HEADLESS OUTPUT). */
#ifndef BOTFIELD_HEADLESS_H
#define BOTFIELD_HEADLESS_H

struct world;
struct bot_world;

struct headless_options {
    long ticks;             /* -1: until the map's duration or the end */
    const char *trace;      /* NULL: none; "-": standard output */
    long trace_every;       /* state lines every K ticks */
    int summary;            /* print the summary on standard output */
    const struct bot_world *bots;   /* their lines go in the trace; NULL */
    int decisions;          /* decide lines in the trace (records kept) */
};

/* Returns the process exit status: 0, or 1 when the trace cannot be
 * written (the message goes to standard error). */
int headless_run(struct world *w, const struct headless_options *o);

#endif
