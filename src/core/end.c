/* end.c — the end of a run: a battle is won when at most one team that
 * started with tanks or turrets has any left; a race ends when every car
 * finished (a tick later when a bot's car finished last: end_stage). */
#include "score.h"
#include "stages.h"
#include "tick.h"
#include "world.h"

int tick_teams_started(const struct world *w)
{
    int n = 0;
    for (size_t t = 0; t < w->teams.n; t++)
        if (w->teams.p[t].vehicles > 0)
            n++;
    return n;
}

/* 1 when a Lua bot's car finished on this tick: its bot reads the lap
 * and finish events only on the next tick (world.events), so the race
 * ends one tick later for it to get them.  Without bots nothing moves. */
static int bot_finished_now(const struct world *w)
{
    for (size_t e = 0; e < w->now.events.n; e++)
        if (w->now.events.p[e].kind == EV_FINISH && world_is_bot(w, w->now.events.p[e].a))
            return 1;
    return 0;
}

void end_stage(struct world *w)
{
    if (tick_teams_started(w) >= 2) {
        int left = 0, last = -1;
        for (size_t t = 0; t < w->teams.n; t++)
            if (w->teams.p[t].alive > 0) {
                left++;
                last = (int)t;
            }
        if (left <= 1) {
            if (!w->ended && last >= 0)
                score_last(w, last);
            w->ended = 1;
            w->winner = last;
        }
    }
    int cars = 0, finished = 0;
    for (size_t r = 0; r < w->racers.n; r++)      /* every car is a racer */
        if (w->vehicles.p[w->racers.p[r].vehicle].kind == VK_CAR) {
            cars++;
            finished += w->racers.p[r].race.finished != 0;
        }
    if (cars > 0 && finished == cars && w->track.n > 0 && !bot_finished_now(w))
        w->ended = 1;
}

