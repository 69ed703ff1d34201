/* place.c — random tanks, team by team: each one tank radius clear of
 * trees, other vehicles and the edge, found by rejection sampling on a
 * bucket grid of what is placed already, so placing 100,000 tanks stays
 * linear. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"

#define PLACE_ATTEMPTS 10000

/* Placed circles, bucketed by cell (a linked list per cell). */
struct placer {
    double cell;
    int nx, ny;
    int *head, *next;
    vec2 *pos;
    double *rad;
    int n;
};

static int placer_init(struct placer *g, double W, double H, double cell, size_t cap)
{
    memset(g, 0, sizeof *g);
    g->cell = cell > 0 ? cell : 1;
    while (ceil(W / g->cell) * ceil(H / g->cell) > GRID_MAX_CELLS)
        g->cell *= 2;
    g->nx = (int)ceil(W / g->cell);
    g->ny = (int)ceil(H / g->cell);
    if (g->nx < 1) g->nx = 1;
    if (g->ny < 1) g->ny = 1;
    g->head = malloc((size_t)g->nx * (size_t)g->ny * sizeof *g->head);
    g->next = malloc(cap * sizeof *g->next);
    g->pos = malloc(cap * sizeof *g->pos);
    g->rad = malloc(cap * sizeof *g->rad);
    if (!g->head || !g->next || !g->pos || !g->rad)
        return -1;
    for (int c = 0; c < g->nx * g->ny; c++)
        g->head[c] = -1;
    return 0;
}

static void placer_free(struct placer *g)
{
    free(g->head);
    free(g->next);
    free(g->pos);
    free(g->rad);
}

static void placer_add(struct placer *g, vec2 p, double r)
{
    int c = grid_cell_of(p.y, g->cell, g->ny) * g->nx + grid_cell_of(p.x, g->cell, g->nx);
    g->pos[g->n] = p;
    g->rad[g->n] = r;
    g->next[g->n] = g->head[c];
    g->head[c] = g->n++;
}

/* 1 when a circle of radius r at p keeps `gap` from everything placed;
 * `reach` bounds the centre distance of anything that could be too near. */
static int placer_clear(const struct placer *g, vec2 p, double r, double gap, double reach)
{
    int x0 = grid_cell_of(p.x - reach, g->cell, g->nx), x1 = grid_cell_of(p.x + reach, g->cell, g->nx);
    int y0 = grid_cell_of(p.y - reach, g->cell, g->ny), y1 = grid_cell_of(p.y + reach, g->cell, g->ny);
    for (int cy = y0; cy <= y1; cy++)
        for (int cx = x0; cx <= x1; cx++)
            for (int k = g->head[cy * g->nx + cx]; k >= 0; k = g->next[k]) {
                double need = r + g->rad[k] + gap;
                if (v2_dist2(p, g->pos[k]) < need * need)
                    return 0;
            }
    return 1;
}

/* Each team's tank settings (a team's own keys are its tanks' keys), its
 * route added to the world; *rmax the largest vehicle radius.  0 or -1. */
static int team_specs(struct loader *L, struct parsed *P, struct world *w,
                      struct vehicle_spec *specs, double *rmax)
{
    for (int t = 0; t < P->nteams; t++) {
        struct vspec tmp;
        memset(&tmp, 0, sizeof tmp);
        tmp.section = P->teams[t].section;
        tmp.team = t;
        load_resolve_vehicle(L, P, &tmp, SEC_TANK);
        int rc = 0;
        if (tmp.route) {
            tmp.s.p.route_first = (int)w->route_points.n;
            tmp.s.p.route_count = tmp.nroute;
            for (int j = 0; j < tmp.nroute && rc == 0; j++)
                rc = world_add_route_point(w, v2(tmp.route[j].x, tmp.route[j].y),
                                           tmp.route[j].r) < 0 ? -1 : 0;
            free(tmp.route);
        }
        specs[t] = tmp.s;
        free(P->teams[t].bot);
        free(P->teams[t].bot_where);
        P->teams[t].bot = tmp.bot;
        P->teams[t].bot_where = tmp.bot_where;
        if (rc)
            return -1;
        if (specs[t].p.radius > *rmax)
            *rmax = specs[t].p.radius;
    }
    for (size_t i = 0; i < w->vehicles.n; i++)
        if (w->vehicles.p[i].p->radius > *rmax)
            *rmax = w->vehicles.p[i].p->radius;
    return 0;
}

/* A free spot for tank k of team t: 0, or -1 (reported). */
static int find_spot(struct loader *L, const struct parsed *P, const struct placer *g,
                     int t, int k, double r, double reach, struct rng *rng, vec2 *p)
{
    if (P->map.width > 4 * r && P->map.height > 4 * r)
        for (int attempt = 0; attempt < PLACE_ATTEMPTS; attempt++) {
            /* y before x, as for random trees. */
            double y = rng_range(rng, 2 * r, P->map.height - 2 * r);
            double x = rng_range(rng, 2 * r, P->map.width - 2 * r);
            *p = v2(x, y);
            if (placer_clear(g, *p, r, r, reach))
                return 0;
        }
    int sec = P->teams[t].section;
    load_error(L, load_key_line(L, sec, "random"), P->teams[t].name ? load_sec_name(L, sec) : NULL,
               "random", NULL,
               "no room for tank %d of %d: a random tank needs one radius (%g) "
               "clear of trees, vehicles and the edge; use fewer tanks or a bigger map",
               k, P->teams[t].set.random, r);
    return -1;
}

/* Team t's random tanks: 0, or -1 (reported). */
static int place_team(struct loader *L, const struct parsed *P, struct world *w,
                      struct placer *g, const struct vehicle_spec *spec, int t,
                      double reach_extra, struct rng *rng)
{
    double r = spec->p.radius;
    double reach = r + reach_extra + r;
    int has_heading = load_has_key(L, P->teams[t].section, "heading");
    for (int k = 1; k <= P->teams[t].set.random; k++) {
        vec2 p;
        if (find_spot(L, P, g, t, k, r, reach, rng, &p))
            return -1;
        char id[128];
        snprintf(id, sizeof id, "tank.%s.%d", P->teams[t].name, k);
        double heading = has_heading ? spec->heading : rng_range(rng, -M_PI, M_PI);
        /* Random ids differ from each other (a team's name and a number
         * after its last dot), so only a [tank.ID] section can take one;
         * looked up by name, not through every vehicle placed so far. */
        if (scan_find_section(&L->scan, id) >= 0) {
            load_error(L, load_sec_line(L, P->teams[t].section), NULL, NULL, NULL,
                       "random tank id %s is also given as a [%s] section", id, id);
            return -1;
        }
        int idx = world_add_vehicle(w, id, VK_TANK, t, &spec->p, p, heading);
        if (idx < 0 || (P->teams[t].bot
                        && world_add_bot(w, idx, P->teams[t].bot, P->teams[t].bot_where,
                                         spec->bot_budget, spec->bot_memory))) {
            load_error(L, 0, NULL, NULL, NULL, "out of memory");
            return -1;
        }
        placer_add(g, p, r);
    }
    return 0;
}

int load_place_random_tanks(struct loader *L, struct parsed *P, struct world *w,
                            struct rng *rng)
{
    long nrandom = 0;
    for (int t = 0; t < P->nteams; t++)
        nrandom += P->teams[t].set.random;
    if (nrandom == 0)
        return 0;
    double tr = 0, rmax = 0;
    for (size_t i = 0; i < w->trees.n; i++)
        if (w->trees.p[i].r > tr)
            tr = w->trees.p[i].r;
    struct placer g;
    memset(&g, 0, sizeof g);
    /* Team radii first, so the grid's reach covers the biggest. */
    struct vehicle_spec *specs = calloc((size_t)P->nteams, sizeof *specs);
    size_t cap = w->trees.n + w->vehicles.n + (size_t)nrandom;
    int rc = -1;
    if (!specs || team_specs(L, P, w, specs, &rmax))
        goto oom;
    double big = rmax > tr ? rmax : tr;
    if (placer_init(&g, P->map.width, P->map.height, 2 * big + 2 * rmax, cap))
        goto oom;
    for (size_t i = 0; i < w->trees.n; i++)
        placer_add(&g, w->trees.p[i].c, w->trees.p[i].r);
    for (size_t i = 0; i < w->vehicles.n; i++)
        placer_add(&g, w->vehicles.p[i].pos, w->vehicles.p[i].p->radius);
    rc = 0;
    for (int t = 0; t < P->nteams && rc == 0; t++)
        rc = place_team(L, P, w, &g, &specs[t], t, big, rng);
    placer_free(&g);
    free(specs);
    return rc;
oom:
    placer_free(&g);
    free(specs);
    load_error(L, 0, NULL, NULL, NULL, "out of memory building the map");
    return -1;
}
