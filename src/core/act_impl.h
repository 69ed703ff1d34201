/* act_impl.h — what the act stage does to one vehicle, shared by the
 * one-thread sweeps and the threads' blocks (act.c). */
#ifndef BOTFIELD_ACT_IMPL_H
#define BOTFIELD_ACT_IMPL_H

#include <math.h>
#include <string.h>

#include "decide.h"
#include "world.h"

/* Keeps a circle inside the map; returns 1 when it touches the edge. */
static int keep_inside(double *x, double r, double size)
{
    if (2 * r >= size) {
        *x = size / 2;
        return 1;
    }
    if (*x - r <= 0) {
        *x = r;
        return 1;
    }
    if (*x + r >= size) {
        *x = size - r;
        return 1;
    }
    return 0;
}

/* angle_norm() is the identity on (-pi, pi]: a tick without a turn keeps
 * the heading, and its cached direction, as they are (no remainder, no
 * sincos for the many tanks driving straight). */
static int normalised(double a)
{
    return a > -M_PI && a <= M_PI;
}

/* What act gives a wreck (a vehicle out when the tick began), without
 * reading a decision: a battle's late ticks are mostly wrecks.  Written
 * only when it differs (a wreck's is the same each tick after its
 * first): a line read stays clean, and none is written back. */
static inline void act_wreck(struct vehicle *v)
{
    if (memcmp(&v->from, &v->pos, sizeof v->from) != 0)
        v->from = v->pos;
    if (v->touching_edge)
        v->touching_edge = 0;
    if (v->aim_slot != -1)
        v->aim_slot = -1;
}

/* Applies vehicle i's decision: its lasting state and records, then its
 * intent (turret, hull turn, speed, move, the edge).  c gives the racers'
 * plans and the turn cache (a thread's lane has its own).  1 when it
 * touched the map's edge (an edge hit for the caller's count: threads
 * each count theirs). */
static inline int act_one(struct world *w, struct tick_ctx *c, size_t i,
                          const struct decision *d)
{
    int edge = 0;
    struct vehicle *v = &w->vehicles.p[i];
    double dt = w->dt;
    v->from = v->pos;
    v->touching_edge = 0;
    v->aim_slot = d->aim_slot;
    if (v->alive) {
        v->rng = d->rng;
        v->wander = d->wander;
        if (v->kind != VK_CAR)
            v->gun = d->gun;
        if (v->kind == VK_TANK)
            v->avoid = d->avoid;
        if (v->racer >= 0)
            w->racers.p[v->racer].info = c->race[v->racer];
        if (d->want.turret != 0 || !normalised(v->turret))
            v->turret = angle_norm(v->turret + d->want.turret);
        if (d->want.radar != 0 || !normalised(v->radar))
            v->radar = angle_norm(v->radar + d->want.radar);
        if (v->kind != VK_TURRET) {
            if (d->want.turn != 0 || !normalised(v->heading))
                vehicle_turned(&c->lane.turns, v, d->want.turn, &v->heading, &v->dir);
            v->speed = d->want.speed;
            v->pos = v2_add(v->pos, v2_scale(v->dir, v->speed * dt));
            int tx = keep_inside(&v->pos.x, v->p->radius, w->width);
            int ty = keep_inside(&v->pos.y, v->p->radius, w->height);
            if (tx || ty) {
                v->touching_edge = 1;
                edge = 1;
            }
        }
    }
    return edge;
}

/* Aim record ai's event, in e (room the caller made). */
static inline void aim_event_fill(struct event *e, const struct world *w,
                                  const struct aim_info *ai)
{
    memset(e, 0, sizeof *e);
    e->kind = EV_AIM;
    e->a = ai->shooter;
    e->b = ai->target;
    e->u.aim.ok = ai->ok;
    e->u.aim.reason = ai->reason;
    e->u.aim.x = ai->aim_point.x;
    e->u.aim.y = ai->aim_point.y;
    e->u.aim.t_impact = ai->t_impact;
    e->u.aim.iterations = ai->iterations;
    e->u.aim.method = w->vehicles.p[ai->shooter].p->aim;
}

#endif
