/* decide_par.c — the decide and act stages on threads (par.h), one team
 * of threads for both.
 *
 * Decide: a decision writes its own struct decision and record; what it
 * appends to its lane (aim records, solver probes: decide.h) goes to its
 * chunk's, the lane of a tick context of its own that shares the
 * per-vehicle slots.  Each chunk then counts its aim events.
 *
 * Place (one thread): where each lane's aim records, probes and aim
 * events land in the world's lists, chunk after chunk (= vehicle order),
 * and room for them all.
 *
 * Act: each chunk copies its lane's lists to their place (indices moved)
 * and writes its aim events there, then applies its own vehicles'
 * decisions: act writes only the vehicle it applies, and its edge hits
 * and fires are whole numbers added up afterwards.  The world ends as the
 * one-thread decide and act stages leave it, byte for byte. */
#include <string.h>

#include "act_impl.h"
#include "decide.h"
#include "explain.h"
#include "grow.h"
#include "par.h"
#include "stages.h"
#include "world.h"

int decide_par_ok(const struct world *w)
{
    /* A brain (the Lua bots) says whether it may (struct brain).  Racers
     * and the tests' all-pairs avoidance decide on the calling thread, as
     * they always did (their racing lines and maxima are now made before
     * decide, decide.h, so threads are possible, not yet measured). */
    return (!w->brain || w->brain->threads_ok) && w->racers.n == 0 && !w->avoid_brute;
}

/* Lane k as a tick context: the shared slots (decisions, records), its
 * own lists emptied (its turn cache kept from tick to tick). */
static void lane_start(struct tick_ctx *l, const struct tick_ctx *c)
{
    l->d = c->d;
    l->dcap = c->dcap;
    l->race = c->race;
    l->racecap = c->racecap;
    l->why = c->why;
    l->whycap = c->whycap;
    l->plans = NULL;
    l->tick = c->tick;
    l->lane.naims = l->lane.nsteps = 0;
    l->lane.failed = 0;
    l->failed = 0;
    l->kept = 0;
}

/* Aim record j of lane l gives an event: its decision kept it (a record
 * its decision replaced gives none) and it has a target (a bot's shot
 * along its turret has none): as act.c's publish_aims. */
static int aim_has_event(const struct tick_ctx *l, size_t j)
{
    const struct aim_info *ai = &l->lane.aims[j];
    return l->d[ai->shooter].aim_slot == (int)j && ai->target >= 0;
}

/* Chunk k decides: its vehicles' decisions, its lane's lists, its aim
 * events counted. */
static void decide_chunk(const struct world *w, struct tick_ctx *l,
                         struct par_chunk *ch, size_t lo, size_t hi)
{
    for (size_t i = lo; i < hi; i++)
        decide_one(w, i, l);
    size_t ne = 0;
    for (size_t j = 0; j < l->lane.naims; j++)
        ne += (size_t)aim_has_event(l, j);
    ch->nevents = ne;
}

/* Where each chunk's lists go, and room for them in the world's: 1; 0
 * when the lists could not grow (every aim record lost: no decision
 * points at one, no aim event). */
static int place_chunks(struct world *w, const struct tick_ctx *lanes,
                        struct par_chunk *ch, size_t nc)
{
    size_t a = 0, s = 0, e = w->events.n;
    for (size_t k = 0; k < nc; k++) {
        ch[k].aims = a;
        ch[k].steps = s;
        ch[k].events = e;
        a += lanes[k].lane.naims;
        s += lanes[k].lane.nsteps;
        e += ch[k].nevents;
    }
    if (WORLD_RESERVE(w->aims, a) || WORLD_RESERVE(w->aim_steps, s)
        || WORLD_RESERVE(w->events, e)) {
        w->aims.n = w->aim_steps.n = 0;
        return 0;
    }
    w->aims.n = a;
    w->aim_steps.n = s;
    w->events.n = e;
    return 1;
}

/* Chunk k's lists to their place, its aim events, then its vehicles
 * act. */
static void act_chunk(struct world *w, struct tick_ctx *l, struct par_chunk *ch,
                      size_t lo, size_t hi, int placed)
{
    if (placed) {
        struct aim_info *to = w->aims.p + ch->aims;
        struct event *e = w->events.p + ch->events;
        for (size_t j = 0; j < l->lane.naims; j++) {
            to[j] = l->lane.aims[j];
            if (to[j].nsteps > 0)
                to[j].first_step += (int)ch->steps;
            if (aim_has_event(l, j))
                aim_event_fill(e++, w, &l->lane.aims[j]);
        }
        if (l->lane.nsteps)
            memcpy(w->aim_steps.p + ch->steps, l->lane.steps,
                   l->lane.nsteps * sizeof *l->lane.steps);
    }
    long edges = 0;
    int fires = 0;
    ch->nfired = 0;
    ch->fired_fail = 0;
    for (size_t i = lo; i < hi; i++) {
        struct vehicle *v = &w->vehicles.p[i];
        if (!v->alive) {
            act_wreck(v);
            continue;
        }
        struct decision *d = &l->d[i];
        if (d->aim_slot >= 0)
            d->aim_slot = placed ? d->aim_slot + (int)ch->aims : -1;
        edges += act_one(w, l, i, d);
        fires += d->want.fire;
        const struct aim_info *ai = d->want.fire ? world_aim(w, v) : NULL;
        if (ai) {
            if (grow_reserve(&ch->fired, &ch->capfired, ch->nfired + 1, sizeof *ch->fired)) {
                ch->fired_fail = 1;
            } else {
                struct par_fired *f = &ch->fired[ch->nfired++];
                shell_fire(w, v, (int)i, ai, &f->shell);
                f->heading = ai->aim_dir;
            }
        }
    }
    ch->edge_hits = edges;
    ch->fires = fires;
}

int decide_act_par(struct world *w, struct tick_ctx *c, int threads)
{
    size_t n = w->vehicles.n, nc = par_chunks(n, threads);
    struct par_state *p = par_state_for(c, threads, nc);
    c->kept = 1;
    /* the decision records grown before the threads start: a record's
     * store must not move under another thread (explain.c) */
    if (!p || (w->explain && n > c->whycap
               && grow_reserve(&c->why, &c->whycap, n, sizeof *c->why))) {
        /* no room for the threads' buffers: the one-thread stages */
        for (size_t i = 0; i < n; i++)
            decide_one(w, i, c);
        act_stage(w, c);
        return 0;
    }
    struct tick_ctx *lanes = p->lanes;
    struct par_chunk *ch = p->chunks;
    int placed = 0;
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
#endif
    {
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
        for (size_t k = 0; k < nc; k++) {
            lane_start(&lanes[k], c);
            decide_chunk(w, &lanes[k], &ch[k], par_chunk_lo(n, nc, k),
                         par_chunk_lo(n, nc, k + 1));
        }
#ifdef _OPENMP
#pragma omp single
#endif
        placed = place_chunks(w, lanes, ch, nc);
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
        for (size_t k = 0; k < nc; k++)
            act_chunk(w, &lanes[k], &ch[k], par_chunk_lo(n, nc, k),
                      par_chunk_lo(n, nc, k + 1), placed);
    }
    int fires = 0, rc = placed ? 0 : -1, listed = 1;
    for (size_t k = 0; k < nc; k++) {
        w->stats.edge_hits += ch[k].edge_hits;
        fires += ch[k].fires;
        if (ch[k].fired_fail)
            listed = 0;     /* the shells stage then reads every decision */
        if (lanes[k].failed || lanes[k].lane.failed)
            rc = -1;
    }
    w->fires = fires;
    p->fired_nc = nc;
    p->fired_valid = listed;
    return rc;
}
