/* headless.h — run a world as fast as possible, writing a trace and a
 * summary (botfield(6), HEADLESS OUTPUT). */
#ifndef BOTFIELD_HEADLESS_H
#define BOTFIELD_HEADLESS_H

struct world;
struct bot_world;

/* What a recording or a replay does around each step (NULL: nothing). */
struct headless_hooks {
    /* Before a step from w->tick: 0 go on, 1 stop here (the run is
     * complete), -1 fail (said on stderr: exit 1), 2 bad input (said:
     * exit 2).  It may replace *w and bots (a reload in a replay): then it
     * sets *new_world and the trace starts again with the new header. */
    int (*before)(struct headless_hooks *h, struct world *w, int *new_world);
    /* After a step: 0 go on, -1 fail (said on stderr: exit 1). */
    int (*after)(struct headless_hooks *h, struct world *w);
    /* At the end, after the summary: 0 or -1 (said: exit 1). */
    int (*finish)(struct headless_hooks *h, struct world *w);
    struct bot_world *bots;     /* the world's bots as the hooks keep them */
    long limit;                 /* the last tick, when before() decides;
                                   -1: the options' */
};

struct headless_options {
    long ticks;             /* -1: until the map's duration or the end */
    const char *trace;      /* NULL: none; "-": standard output */
    long trace_every;       /* state lines every K ticks */
    int summary;            /* print the summary on standard output */
    const struct bot_world *bots;   /* their lines go in the trace; NULL */
    struct headless_hooks *hooks;   /* --record, --replay; NULL */
    int decisions;          /* decide lines in the trace (records kept) */
    int threads;            /* --threads: the world's, par.h */
    int threads_min;        /* the world's threads_min */
};

/* Returns the process exit status: 0, 1 when the trace cannot be
 * written or a hook failed, 2 when a hook found bad input (the message
 * goes to standard error). */
int headless_run(struct world *w, const struct headless_options *o);

#endif
