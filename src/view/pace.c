/* pace.c — see pace.h. */
#include "config.h"

#include "pace.h"

/* The budget an idle terminal saves up, in seconds of it: a little, so a
 * frame after a quiet spell goes at once, but a link's queue stays short
 * (what is queued is how far behind the screen is). */
#define PACE_BURST 0.1
#define PACE_STEP_TOP 19200

void pace_init(struct pace *p, double rate, double fps, double now,
               unsigned long long bytes)
{
    p->rate = rate;
    p->fps = fps > 0 ? fps : 30;
    p->allow = 0;
    p->last = now;
    p->seen = bytes;
}

double pace_wait(struct pace *p, double now, unsigned long long bytes)
{
    double spent = (double)(bytes - p->seen);
    p->seen = bytes;
    if (p->rate <= 0) {
        p->allow = 0;
        p->last = now;
        return 0;
    }
    p->allow += p->rate * (now - p->last);
    if (p->allow > p->rate * PACE_BURST)
        p->allow = p->rate * PACE_BURST;
    p->last = now;
    p->allow -= spent;
    return p->allow >= 0 ? 0 : -p->allow / p->rate;
}

void pace_step(struct pace *p, int dir, double now, unsigned long long bytes)
{
    pace_wait(p, now, bytes);       /* charged at the old budget */
    double r = p->rate;
    if (dir < 0)
        r = r <= 0 ? PACE_STEP_TOP : r / 2 < PACE_RATE_MIN ? PACE_RATE_MIN : r / 2;
    else if (r > 0)
        r = r * 2 > PACE_STEP_TOP ? 0 : r * 2;
    /* The debt carries over, measured in time. */
    if (p->allow < 0 && p->rate > 0 && r > 0)
        p->allow *= r / p->rate;
    else if (r <= 0)
        p->allow = 0;
    p->rate = r;
}
