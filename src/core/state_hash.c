/* state_hash.c — the world's state as one 64-bit number (state_hash.h). */
/* XXH3_state_t on the stack: its size must be known. */
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

#include "state_hash.h"
#include "world.h"

#include <string.h>

/* The hash is of the state alone: a tick's products and scratch
 * (world.h) cannot be named here. */
#pragma GCC poison now scratch

/* Fields are packed into a small buffer, then streamed into the hash: one
 * update per vehicle, not per field. */
struct packer {
    XXH3_state_t *st;
    unsigned char buf[512];
    size_t n;
};

static void flush(struct packer *p)
{
    if (p->n)
        XXH3_64bits_update(p->st, p->buf, p->n);
    p->n = 0;
}

static void put(struct packer *p, const void *v, size_t n)
{
    if (p->n + n > sizeof p->buf)
        flush(p);
    if (n > sizeof p->buf) {
        XXH3_64bits_update(p->st, v, n);
        return;
    }
    memcpy(p->buf + p->n, v, n);
    p->n += n;
}

static void put_d(struct packer *p, double d) { put(p, &d, sizeof d); }
static void put_i(struct packer *p, long long i) { put(p, &i, sizeof i); }
static void put_u(struct packer *p, uint64_t u) { put(p, &u, sizeof u); }
static void put_v(struct packer *p, vec2 v) { put_d(p, v.x); put_d(p, v.y); }

/* A vehicle's settings by their values (two vehicles sharing settings and
 * two with equal copies hash alike). */
static void put_params(struct packer *p, const struct vehicle_params *q)
{
#define PARAM(type, field, unit, def) put(p, &q->field, sizeof q->field);
#include "params.def"
}

static void put_avoid(struct packer *p, const struct avoid_info *a);

/* all 0: without the vehicle's own decision state (state_hash_public) */
static void put_vehicle(struct packer *p, const struct vehicle *v, int all)
{
    put_v(p, v->pos);
    put_v(p, v->dir);
    put_d(p, v->speed);
    put_params(p, v->p);
    put_i(p, v->alive);
    put_i(p, v->kind);
    put_i(p, v->team);
    put_i(p, v->touching_edge);
    put_d(p, v->heading);
    put_d(p, v->turret);
    put_d(p, v->radar);
    put_i(p, v->health);
    put_i(p, v->racer);
    put_u(p, v->gen);
    if (all) {
        put_u(p, v->rng.state);
        put_u(p, v->rng.inc);
        put_d(p, v->wander.turn_left);
        put_i(p, v->wander.edge_turn);
    }
    put_d(p, v->gun.reload_left);
    put_i(p, v->gun.target);
    put_u(p, v->gun.target_gen);
    const struct avoid_info *a = &v->avoid;
    if (all)
        put_avoid(p, a);
    put_v(p, v->from);
    put_i(p, v->score.damage);
    put_i(p, v->score.kills);
    put_i(p, v->score.survival);
    put_i(p, v->score.last);
    /* the id with its end, so "ab"+"c" differs from "a"+"bc" */
    put(p, v->id, strlen(v->id) + 1);
}

static void put_avoid(struct packer *p, const struct avoid_info *a)
{
    put_i(p, a->threat);
    put_i(p, a->turn);
    put_i(p, a->steer);
    put_i(p, a->limited);
    put_d(p, a->threat_dist);
    put_v(p, a->hit_point);
    put_d(p, a->tca);
    put_d(p, a->dca);
    put_d(p, a->speed_scale);
    put_i(p, a->held);
    put_i(p, a->plan_k);
    put_i(p, a->plan_m);
    /* only where a shell was seen: earlier hashes stay as they were */
    if (a->shell || a->shell_seen || a->shell_count) {
        put_i(p, a->shell);
        put_i(p, a->shell_seen);
        put_i(p, a->shell_count);
    }
    put_i(p, a->danger);
}

static void put_racer(struct packer *p, const struct racer *r)
{
    const struct race_state *s = &r->race;
    put_i(p, r->vehicle);
    put_i(p, s->next);
    put_i(p, s->laps);
    put_i(p, s->started);
    put_d(p, s->lap_start);
    put_d(p, s->best_lap);
    put_i(p, s->finished);
    put_d(p, s->finish_time);
    put_i(p, s->touching);
    put_i(p, s->skipped);
}

static void put_shell(struct packer *p, const struct shell *s)
{
    put_i(p, s->id);
    put_v(p, s->pos);
    put_v(p, s->vel);
    put_v(p, s->start);
    put_d(p, s->travelled);
    put_d(p, s->range);
    put_d(p, s->delay);
    put_i(p, s->shooter);
    put_i(p, s->target);
    put_i(p, s->alive);
    put_i(p, s->hit);
    put_i(p, s->miss);
}

static uint64_t hash_world(const struct world *w, int all)
{
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    struct packer p = { &st, { 0 }, 0 };
    put_i(&p, w->tick);
    /* Each array's length first: an element moved from one to the next
     * changes the hash. */
    put_u(&p, w->vehicles.n);
    for (size_t i = 0; i < w->vehicles.n; i++)
        put_vehicle(&p, &w->vehicles.p[i], all);
    put_u(&p, w->racers.n);
    for (size_t i = 0; i < w->racers.n; i++)
        put_racer(&p, &w->racers.p[i]);
    put_u(&p, w->shells.n);
    for (size_t i = 0; i < w->shells.n; i++)
        put_shell(&p, &w->shells.p[i]);
    put_u(&p, w->overlaps.n);
    for (size_t i = 0; i < w->overlaps.n; i++)
        put_u(&p, w->overlaps.p[i]);
    put_u(&p, w->teams.n);
    for (size_t i = 0; i < w->teams.n; i++) {
        put_i(&p, w->teams.p[i].alive);
        put_i(&p, w->teams.p[i].knockouts);
    }
    put_i(&p, w->stats.collisions);
    put_d(&p, w->stats.min_separation);
    put_i(&p, w->stats.edge_hits);
    put_i(&p, w->stats.shots);
    put_i(&p, w->stats.hits);
    put_i(&p, w->ended);
    put_i(&p, w->winner);
    /* the player's held intents: the next tick reads them */
    put_i(&p, w->player.vehicle);
    put_d(&p, w->player.in.turn);
    put_d(&p, w->player.in.speed);
    put_d(&p, w->player.in.turret);
    put_i(&p, w->player.in.fire);
    /* a match's round (only then: one round hashes as before rounds) */
    if (w->rounds > 1) {
        put_i(&p, w->round);
        put_i(&p, w->round_start);
        put_u(&p, w->round_winners.n);
        for (size_t k = 0; k < w->round_winners.n; k++)
            put_i(&p, w->round_winners.p[k]);
        put_u(&p, w->round_totals.n);
        for (size_t k = 0; k < w->round_totals.n; k++) {
            const struct vehicle_score *t = &w->round_totals.p[k];
            put_i(&p, t->damage);
            put_i(&p, t->kills);
            put_i(&p, t->survival);
            put_i(&p, t->last);
        }
    }
    flush(&p);
    return XXH3_64bits_digest(&st);
}

uint64_t state_hash(const struct world *w)
{
    return hash_world(w, 1);
}

uint64_t state_hash_public(const struct world *w)
{
    return hash_world(w, 0);
}
