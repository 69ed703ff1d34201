/* entries.h — what the vehicle grid holds for each vehicle, and why.
 *
 * The grid (grid.h) knows positions only; the rules of what an entry
 * carries live here, beside the stage that builds the entries (the grid
 * stage, grid_stage.c) and the searches that must see the same values without a
 * grid (avoidance's all-pairs oracle). */
#ifndef BOTFIELD_ENTRIES_H
#define BOTFIELD_ENTRIES_H

#include "world.h"

/* The grid entry of vehicle i (v is w->vehicles.p[i]). */
static inline struct vgrid_entry vehicle_entry(const struct vehicle *v, int i)
{
    struct vgrid_entry e;
    e.pos = v->pos;
    e.vel = v2_scale(v->dir, v->speed);
    e.radius = v->p->radius;
    e.index = i;
    /* sight picks enemies from the entries without reading the vehicle:
     * only tanks and turrets have a team there */
    e.team = (v->kind == VK_TANK || v->kind == VK_TURRET) && v->team >= 0 ? v->team : -1;
    /* avoidance: a predictive tank takes half of every gap */
    e.shares = v->kind == VK_TANK && v->alive && v->p->avoid == AVOID_PREDICTIVE;
    return e;
}

#endif
