/* act.c — the act stage: every vehicle's decision applied together, after
 * all of them were made (decide.h): the records and lasting state first,
 * then the turret, the hull's turn, the speed and the move, kept inside the
 * map (touching the edge counts an edge hit).  The tick's aim records
 * become the world's, and its aim events. */
#include <math.h>
#include <string.h>

#include "act_impl.h"
#include "entries.h"
#include "grow.h"
#include "stages.h"
#include "world.h"

/* The aim records of the tick become the world's (the ctx's store is
 * swapped in, no copy), and each an aim event, in vehicle order. */
static void publish_aims(struct world *w, struct tick_ctx *c)
{
    struct aim_info *ap = w->aims.p;
    size_t acap = w->aims.cap;
    w->aims.p = c->lane.aims;
    w->aims.n = c->lane.naims;
    w->aims.cap = c->lane.aimcap;
    c->lane.aims = ap;
    c->lane.aimcap = acap;
    c->lane.naims = 0;
    float *sp = w->aim_steps.p;
    size_t scap = w->aim_steps.cap;
    w->aim_steps.p = c->lane.steps;
    w->aim_steps.n = c->lane.nsteps;
    w->aim_steps.cap = c->lane.stepcap;
    c->lane.steps = sp;
    c->lane.stepcap = scap;
    c->lane.nsteps = 0;
    /* The store holds the records in the order the vehicles decided:
     * vehicle order, with no pass over the vehicles that sought none (a
     * battle's late ticks are mostly wrecks).  A record its decision
     * replaced (kept decisions say which) gives no event. */
    for (size_t k = 0; k < w->aims.n; k++) {
        const struct aim_info *ai = &w->aims.p[k];
        int i = ai->shooter;
        if (c->kept && c->d[i].aim_slot != (int)k)
            continue;
        if (ai->target < 0)
            continue;           /* a bot's shot along its turret: no aim */
        struct event *e = world_event(w, EV_AIM, i, ai->target);
        if (e)
            aim_event_fill(e, w, ai);
    }
}

void act_stage(struct world *w, struct tick_ctx *c)
{
    publish_aims(w, c);
    int fires = 0;
    long edges = 0;
    for (size_t i = 0; i < w->vehicles.n; i++) {
        struct vehicle *v = &w->vehicles.p[i];
        if (!v->alive) {
            act_wreck(v);
            continue;
        }
        edges += act_one(w, c, i, &c->d[i]);
        fires += c->d[i].want.fire;
    }
    w->stats.edge_hits += edges;
    w->fires = fires;
}

/* decide and act fused: each vehicle acts as soon as it has decided, so
 * its decision never leaves the cache (at 100,000 tanks the round trip of
 * a decisions array through memory is what a separate act pass costs:
 * bench-avoid's crowds).  Safe only when no decision reads another
 * vehicle's record, since the earlier ones have moved: a gun reads its
 * target only through this tick's sight records, and the all-pairs
 * avoidance of the tests and a bot (the brain) read any vehicle; every
 * other decision reads others only through the vehicle grid's entries,
 * copies made at the start of the tick.  A build with
 * BOTFIELD_CHECK_FUSED (the sanitizer build) aborts when a decision reads
 * a moved vehicle.  A player tank may fire with nothing in sight, and the
 * shells stage reads the fire from the decisions kept only by two passes:
 * a map with a player is not fused.  Nor is a world with racers: the
 * racing rule of `steer = line` reads the other cars' records. */
int act_fusable(const struct world *w)
{
    return !w->brain && !w->avoid_brute && !w->unfused && w->sights.n == 0
        && w->player.vehicle < 0 && w->racers.n == 0;
}

/* The pass also makes each live vehicle's grid entry as it leaves it,
 * while its record is in the cache, for the detect stage's grid: valid
 * when no shell flies this tick (none in flight, none fired), since a hit
 * is the only thing between here and that grid that changes a vehicle.
 * The grid stage otherwise reads every record twice more (bench-avoid's
 * 100,000 tanks: the grid was the largest share of the cache misses). */
void act_fused_stage(struct world *w, struct tick_ctx *c)
{
    race_snapshot(w, c);
    int collect = w->shells.n == 0
               && !grow_reserve(&c->entries, &c->entcap, w->vehicles.n, sizeof *c->entries);
    int fires = 0;
    long edges = 0;
    size_t n = 0;
    double maxr = 0, maxs = 0;
    for (size_t i = 0; i < w->vehicles.n; i++) {
        struct vehicle *v = &w->vehicles.p[i];
        if (!v->alive) {
            act_wreck(v);
            continue;
        }
        struct decision d;
        w->acted = (int)i;
        decide_vehicle(w, (int)i, c, &d);
        edges += act_one(w, c, i, &d);
        fires += d.want.fire;
        if (collect) {
            c->entries[n++] = vehicle_entry(v, (int)i);
            if (v->p->radius > maxr)
                maxr = v->p->radius;
            if (fabs(v->speed) > maxs)
                maxs = fabs(v->speed);
        }
    }
    w->acted = 0;
    w->stats.edge_hits += edges;
    c->kept = 0;
    c->nentries = n;
    c->entries_maxr = maxr;
    c->entries_maxs = maxs;
    c->entries_ready = collect && fires == 0;
    publish_aims(w, c);
    w->fires = fires;
}

