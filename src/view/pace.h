/* pace.h — when the next frame may be drawn: at most fps a second, and
 * within a byte-rate budget (--rate, b/B).  A frame over the budget is
 * skipped, not queued: the simulation keeps its pace and the next frame
 * drawn shows where it is, so a slow link shows fewer frames instead of
 * falling behind.  The bytes are the ones curses wrote (term_out.h). */
#ifndef BOTFIELD_PACE_H
#define BOTFIELD_PACE_H

#define PACE_FPS_MAX 60
#define PACE_RATE_MIN 100           /* bytes a second; 0: no budget */
#define PACE_RATE_MAX 100000000

struct pace {
    double rate;                    /* bytes a second, 0: unlimited */
    double fps;
    double allow;                   /* bytes that may still go out now */
    double last;                    /* when allow was brought up to date */
    unsigned long long seen;        /* byte count already charged */
};

void pace_init(struct pace *p, double rate, double fps, double now,
               unsigned long long bytes);

/* Seconds until the budget allows a frame (0: now); bytes is the count
 * written so far. */
double pace_wait(struct pace *p, double now, unsigned long long bytes);

/* A new budget from the b / B keys: dir < 0 halves it (from none to
 * 19200), dir > 0 doubles it (past 19200: none). */
void pace_step(struct pace *p, int dir, double now, unsigned long long bytes);

#endif
