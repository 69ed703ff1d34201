/* act.c — the decide and act stages, written once over a block of
 * vehicles [lo, hi): one thread runs one block (as Box2D v3's
 * b2ExecuteBlock).  On one thread the block is the whole crowd and its
 * lane (decide.h) the tick context's own; on threads (par.h) there are
 * par_chunks() blocks, each with a lane of its own, dealt out statically.
 *
 *   decide  decide_range: each vehicle's decision into its slot, what it
 *           appends (aim records, solver probes) into its block's lane;
 *           the block's aim events counted.
 *   place   (one thread) where each block's lists land in the world's,
 *           block after block (= vehicle order), and room for them all;
 *           one block's lists become the world's as they are (no copy).
 *   act     act_range: the block's lists to their place (indices moved),
 *           its aim events, then its vehicles' decisions applied (act.h:
 *           turret, turn, speed, move, the edge).  Act writes only the
 *           vehicle it applies; edge hits are whole numbers
 *           added up after.  A vehicle that fires makes its shell
 *           there, into its block's list (shell.c joins them).
 *
 * Where no decision can tell the difference (act_fusable), the one block
 * decides and acts each vehicle in one sweep instead (fused_range).  The
 * world ends the same, byte for byte, whatever the blocks. */
#include <math.h>
#include <string.h>

#include "act_impl.h"
#include "entries.h"
#include "explain.h"
#include "grow.h"
#include "par.h"
#include "stages.h"
#include "world.h"

/* Decisions may run on threads where they share nothing but their
 * slots.  A brain (the Lua bots) says whether it may (struct brain).
 * Racers and the tests' all-pairs avoidance decide on one thread (their
 * racing lines and maxima are made before decide, decide.h, so threads
 * are possible, not yet measured). */
static int decide_par_ok(const struct world *w, const struct tick_ctx *c)
{
    return (!w->brain || w->brain->threads_ok) && w->racers.n == 0 && !c->opts.avoid_brute;
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
static int act_fusable(const struct world *w, const struct tick_ctx *c)
{
    return !w->brain && !c->opts.avoid_brute && !c->opts.unfused && w->now.sights.n == 0
        && w->player.vehicle < 0 && w->racers.n == 0;
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
    l->kept = c->kept;
}

/* The aim slot vehicle i's decision kept: its decision's, or, after a
 * fused sweep (no decisions kept), its record's. */
static inline int kept_slot(const struct world *w, const struct tick_ctx *l, int i)
{
    return l->kept ? l->d[i].aim_slot : w->vehicles.p[i].aim_slot;
}

/* Aim record j of a block's lane (ai) gives an event: its decision kept
 * it (a record its decision replaced gives none) and it has a target (a
 * bot's shot along its turret has none). */
static inline int aim_has_event(const struct world *w, const struct tick_ctx *l,
                                const struct aim_info *ai, size_t j)
{
    return ai->target >= 0 && kept_slot(w, l, ai->shooter) == (int)j;
}

/* The block's aim events counted, for place_blocks. */
static void count_events(const struct world *w, const struct tick_ctx *l,
                         struct par_chunk *ch)
{
    size_t ne = 0;
    for (size_t j = 0; j < l->lane.naims; j++)
        ne += (size_t)aim_has_event(w, l, &l->lane.aims[j], j);
    ch->nevents = ne;
}

/* decide, block [lo, hi). */
static void decide_range(const struct world *w, struct tick_ctx *l,
                         struct par_chunk *ch, size_t lo, size_t hi)
{
    for (size_t i = lo; i < hi; i++)
        decide_one(w, i, l);
    count_events(w, l, ch);
}

/* The lane's aim and step lists and the world's traded (their lengths
 * are the callers'). */
static void swap_lists(struct world *w, struct decide_lane *l)
{
    struct aim_info *ap = w->now.aims.p;
    size_t acap = w->now.aims.cap;
    w->now.aims.p = l->aims;
    w->now.aims.cap = l->aimcap;
    l->aims = ap;
    l->aimcap = acap;
    float *sp = w->now.aim_steps.p;
    size_t scap = w->now.aim_steps.cap;
    w->now.aim_steps.p = l->steps;
    w->now.aim_steps.cap = l->stepcap;
    l->steps = sp;
    l->stepcap = scap;
}

/* Where each block's lists go, and room for them in the world's: 1; 0
 * when the lists could not grow (every aim record lost: no decision
 * points at one, no aim event).  One block's lists become the world's as
 * they are (swapped in, no copy). */
static int place_blocks(struct world *w, struct tick_ctx *lanes,
                        struct par_chunk *ch, size_t nb)
{
    size_t a = 0, s = 0, e = w->now.events.n;
    for (size_t k = 0; k < nb; k++) {
        ch[k].aims = a;
        ch[k].steps = s;
        ch[k].events = e;
        ch[k].naims = lanes[k].lane.naims;
        ch[k].swapped = nb == 1;
        a += lanes[k].lane.naims;
        s += lanes[k].lane.nsteps;
        e += ch[k].nevents;
    }
    if (WORLD_RESERVE(w->now.events, e)
        || (nb > 1 && (WORLD_RESERVE(w->now.aims, a) || WORLD_RESERVE(w->now.aim_steps, s)))) {
        w->now.aims.n = w->now.aim_steps.n = 0;
        return 0;
    }
    if (nb == 1) {
        swap_lists(w, &lanes[0].lane);
        lanes[0].lane.naims = lanes[0].lane.nsteps = 0;
    }
    w->now.aims.n = a;
    w->now.aim_steps.n = s;
    w->now.events.n = e;
    return 1;
}

/* The block's lists to their place (unless swapped in), and its aim
 * events. */
static void publish_range(struct world *w, struct tick_ctx *l, const struct par_chunk *ch)
{
    /* (a world with no aim yet has no list: no offset into a null one) */
    struct aim_info *to = ch->naims ? w->now.aims.p + ch->aims : NULL;
    if (!ch->swapped) {
        for (size_t j = 0; j < ch->naims; j++) {
            to[j] = l->lane.aims[j];
            if (to[j].nsteps > 0)
                to[j].first_step += (int)ch->steps;
        }
        if (l->lane.nsteps)
            memcpy(w->now.aim_steps.p + ch->steps, l->lane.steps,
                   l->lane.nsteps * sizeof *l->lane.steps);
    }
    struct event *e = ch->naims ? w->now.events.p + ch->events : NULL;
    for (size_t j = 0; j < ch->naims; j++)
        if (aim_has_event(w, l, &to[j], j))
            aim_event_fill(e++, w, &to[j]);
}

/* act, block [lo, hi): its lists placed (placed: 0 when they could not
 * be), then its vehicles' decisions applied, the shells they fire made
 * into the block's list (its records still in this core's cache). */
static void act_range(struct world *w, struct tick_ctx *l, struct par_chunk *ch,
                      size_t lo, size_t hi, int placed)
{
    if (placed)
        publish_range(w, l, ch);
    long edges = 0;
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
}

/* decide and act fused, block [lo, hi) on one thread (act_fusable).  The
 * sweep also makes each live vehicle's grid entry as it leaves it, while
 * its record is in the cache, for the detect stage's grid: valid when no
 * shell flies this tick (none in flight, none fired), since a hit is the
 * only thing between here and that grid that changes a vehicle.  The
 * grid stage otherwise reads every record twice more (bench-avoid's
 * 100,000 tanks: the grid was the largest share of the cache misses).
 * It fires nothing: fused only without sight records, a gun has no aim
 * record (world_aim) to fire along. */
static void fused_range(struct world *w, struct tick_ctx *c, struct par_chunk *ch,
                        size_t lo, size_t hi)
{
    int collect = w->shells.n == 0
               && !grow_reserve(&c->entries, &c->entcap, w->vehicles.n, sizeof *c->entries);
    int fires = 0;
    long edges = 0;
    size_t n = 0;
    double maxr = 0, maxs = 0;
    for (size_t i = lo; i < hi; i++) {
        struct vehicle *v = &w->vehicles.p[i];
        if (!v->alive) {
            act_wreck(v);
            continue;
        }
        struct decision d;
        c->acted = (int)i;
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
    c->acted = 0;
    c->nentries = n;
    c->entries_maxr = maxr;
    c->entries_maxs = maxs;
    c->entries_ready = collect && fires == 0;
    ch->edge_hits = edges;
    ch->nfired = 0;
    ch->fired_fail = 0;
    count_events(w, c, ch);
}

/* The blocks' sums into the world, their fired shells listed for the
 * shells stage; 0, or -1 when a lane ran out of memory, the lists could
 * not be placed or a block's shells not be listed (they are lost). */
static int blocks_done(struct world *w, const struct tick_ctx *lanes,
                       struct par_state *p, size_t nb, int placed)
{
    const struct par_chunk *ch = p->chunks;
    int rc = placed ? 0 : -1;
    for (size_t k = 0; k < nb; k++) {
        w->stats.edge_hits += ch[k].edge_hits;
        if (lanes[k].failed || lanes[k].lane.failed || ch[k].fired_fail)
            rc = -1;
    }
    p->fired_nc = nb;
    return rc;
}

/* One block, the whole crowd, on the calling thread: the fused sweep, or
 * decide then act.  Its block is the tick context's first (its list of
 * fired shells kept for the shells stage). */
static int decide_act_one(struct world *w, struct tick_ctx *c, int fused)
{
    size_t n = w->vehicles.n;
    struct par_state *p = par_state_for(c, 1, 1);
    if (!p)
        return -1;
    struct par_chunk *one = &p->chunks[0];
    c->kept = !fused;
    /* The lane writes into the lists the world's were last tick, which
     * the tick emptied (tick_step; nobody reads them until place_blocks
     * swaps them back): else the swap would keep two of each, both grown
     * (the 100,000-tank battle's aims, 15 MB twice). */
    if (w->now.aims.n == 0 && w->now.aim_steps.n == 0 && c->lane.naims == 0
        && c->lane.nsteps == 0)
        swap_lists(w, &c->lane);
    if (fused)
        fused_range(w, c, one, 0, n);
    else
        decide_range(w, c, one, 0, n);
    int placed = place_blocks(w, c, one, 1);
    if (fused) {
        if (placed)
            publish_range(w, c, one);
    } else {
        act_range(w, c, one, 0, n, placed);
    }
    return blocks_done(w, c, p, 1, placed);
}

/* par_chunks() blocks on `threads` threads, one team for both passes;
 * 1 when the threads' buffers could not be had (then one block). */
static int decide_act_blocks(struct world *w, struct tick_ctx *c, int threads)
{
    size_t n = w->vehicles.n, nb = par_chunks(n, threads);
    struct par_state *p = par_state_for(c, threads, nb);
    c->kept = 1;
    /* the decision records grown before the threads start: a record's
     * store must not move under another thread (explain.c) */
    if (!p || (w->explain && n > c->whycap
               && grow_reserve(&c->why, &c->whycap, n, sizeof *c->why)))
        return 1;
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
        for (size_t k = 0; k < nb; k++) {
            lane_start(&lanes[k], c);
            decide_range(w, &lanes[k], &ch[k], par_chunk_lo(n, nb, k),
                         par_chunk_lo(n, nb, k + 1));
        }
#ifdef _OPENMP
#pragma omp single
#endif
        placed = place_blocks(w, lanes, ch, nb);
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
        for (size_t k = 0; k < nb; k++)
            act_range(w, &lanes[k], &ch[k], par_chunk_lo(n, nb, k),
                      par_chunk_lo(n, nb, k + 1), placed);
    }
    return blocks_done(w, lanes, p, nb, placed);
}

static int decide_act_run(struct world *w, struct tick_ctx *c, int threads)
{
    if (threads > 1 && decide_par_ok(w, c)) {
        int rc = decide_act_blocks(w, c, threads);
        if (rc <= 0)
            return rc;
    }
    /* The fused sweep is one thread by nature (each vehicle moves as soon
     * as it decided): with threads, a crowd's decisions take them. */
    return decide_act_one(w, c, act_fusable(w, c));
}

int decide_act_stage(struct world *w, struct tick_ctx *c, int threads)
{
    race_snapshot(w, c);
    if (c->par)
        c->par->fired_nc = 0;       /* no block's shells until they act */
    /* The shells by cell for the tanks that dodge them (the all-pairs
     * switch keeps the walk over every shell: the tests' oracle).  Only
     * for this stage: no shell moves until it ends, and a decision made
     * elsewhere (a test's) walks them all. */
    c->tick.shell_idx = NULL;
    if (w->shells.n && !c->opts.avoid_brute
        && shell_index_make(&c->shell_index, w->shells.p, w->shells.n, AVOID_HORIZON) == 0)
        c->tick.shell_idx = &c->shell_index;
    int rc = decide_act_run(w, c, threads);
    c->tick.shell_idx = NULL;
    shell_index_clear(&c->shell_index);
    return rc;
}
