/* race_detect.c — the detect stage's part of racing: waypoints reached
 * or skipped, laps, the finish (events), after every vehicle moved.  Not
 * decision code: it writes the racers' progress. */
#include <math.h>

#include "race.h"
#include "world.h"

/* ---- detect --------------------------------------------------------------- */

/* Waypoint 0 passed (reached or skipped): the first time starts the race
 * (the first lap is timed from the start of the run, as the man page says); every later
 * time ends a lap. */
static void pass_start(struct world *w, int i, double now)
{
    struct race_state *s = &w->racers.p[w->vehicles.p[i].racer].race;
    if (!s->started) {
        s->started = 1;
        return;
    }
    double t = now - s->lap_start;
    int clean = s->skipped == 0;
    s->laps++;
    s->lap_start = now;
    s->skipped = 0;
    /* a lap that skipped a waypoint did not go round the track */
    if (clean && (s->best_lap == 0 || t < s->best_lap))
        s->best_lap = t;
    struct event *e = world_event(w, EV_LAP, i, -1);
    if (e) {
        e->u.lap.lap = s->laps;
        e->u.lap.time = t;
        e->u.lap.clean = clean;
    }
    if (w->track_laps > 0 && s->laps >= w->track_laps) {
        s->finished = 1;
        s->finish_time = now;
        e = world_event(w, EV_FINISH, i, -1);
        if (e)
            e->u.finish.time = now;
    }
}

static void advance(struct world *w, int i, int n, int skipped, double now)
{
    struct vehicle *v = &w->vehicles.p[i];
    struct race_state *s = &w->racers.p[v->racer].race;
    int k = s->next;
    int events = v->kind == VK_CAR && !s->finished;
    s->next = (k + 1) % n;
    if (!events)
        return;
    s->skipped += skipped;
    struct event *e = world_event(w, skipped ? EV_WAYPOINT_SKIPPED
                                             : EV_WAYPOINT_REACHED, i, -1);
    if (e)
        e->u.waypoint.index = k;
    if (k == 0)
        pass_start(w, i, now);
}

void race_detect(struct world *w)
{
    double now = (double)w->tick * w->dt;
    /* Only racers, in vehicle order (world_finish keeps them so): the
     * crowd of wanderers is never visited. */
    for (size_t r = 0; r < w->racers.n; r++) {
        size_t i = (size_t)w->racers.p[r].vehicle;
        struct vehicle *v = &w->vehicles.p[i];
        if (!v->alive)
            continue;
        if (v->kind != VK_CAR && !(v->kind == VK_TANK && v->p->drive == DRIVE_PATROL))
            continue;
        int n;
        const struct waypoint *wp = world_route(w, v, &n);
        if (!wp || n <= 0)
            continue;
        /* Overlapping waypoints can be passed in one tick; a lap's worth
         * is the most that can happen. */
        struct race_state *s = &w->racers.p[r].race;
        /* The state starts zeroed: touching is stored off by one. */
        int touching = s->touching - 1;
        if (touching >= 0 && (touching >= n
                || v2_dist(v->pos, wp[touching].c) >= wp[touching].r + v->p->radius))
            touching = -1;
        /* A car that starts inside the disc of the waypoint before its
         * first (the last one: the start line) has reached it. */
        int before = (s->next % n + n - 1) % n;
        if (!s->started && touching < 0 && n >= 2
            && v2_dist(v->pos, wp[before].c) < wp[before].r + v->p->radius)
            touching = before;
        for (int guard = 0; guard < n; guard++) {
            int k = s->next % n;
            s->next = k;
            /* The article's waypoints with volume: in contact when the
             * centres are closer than the two radii together. */
            double dk = v2_dist(v->pos, wp[k].c);
            if (dk < wp[k].r + v->p->radius && k != touching) {
                touching = k;
                advance(w, (int)i, n, 0, now);
                continue;
            }
            /* The article's missed waypoint: the one after is closer, so
             * this one was passed; but only when nothing stands between
             * (its hairpin wall: on the way into a hairpin the waypoint of
             * the way back can be the closer one).  On a triangle the one
             * after is also the one before the waypoint just reached, and
             * often the closer: a car reaching waypoint 2 of three skipped
             * 0 and 1 at once and was given a lap.  There a skip also
             * needs the car past this one: farther from the waypoint
             * before it than it is.  (On longer routes the one after is
             * not beside the one just reached, and the article's rule
             * stands as it is.) */
            /* Nor while the car is still in the disc of the one before:
             * it has not left the waypoint it reached last (it starts in
             * it, or they overlap), so it cannot have passed this one. */
            if (n >= 3) {
                int k1 = (k + 1) % n, kp = (k + n - 1) % n;
                if (touching != kp && v2_dist(v->pos, wp[k1].c) < dk
                    && (n > 3 || v2_dist(v->pos, wp[kp].c) > v2_dist(wp[k].c, wp[kp].c))
                    && race_clear(w, v->pos, wp[k1].c)) {
                    advance(w, (int)i, n, 1, now);
                    continue;
                }
            }
            break;
        }
        s->touching = touching + 1;
    }
}
