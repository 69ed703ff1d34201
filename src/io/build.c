/* build.c — a world from a parsed and checked map.
 *
 * Everything random is drawn from one generator seeded with the map's
 * seed (stream 1), in a fixed order: random trees, then the headings of
 * explicit tanks without one, then random tanks team by team (place.c).
 * Each draw is a statement of its own: C leaves the order of two calls in
 * one expression to the compiler, and gcc and clang differ. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"

static int set_settings(struct loader *L, const struct parsed *P,
                        const struct map_options *opt, struct world *w)
{
    w->cell = P->map.cell;
    w->seed = opt && opt->has_seed ? opt->seed : P->map.seed;
    w->tick_rate = P->map.tick_rate;
    w->dt = 1.0 / w->tick_rate;
    w->duration = P->map.duration;
    w->sight = P->sight;
    w->track_laps = P->track.laps;
    w->rounds = P->match.rounds;
    if (P->map.name) {
        w->name = strdup(P->map.name);
        return w->name ? 0 : -1;
    }
    /* The file's name without its directory and extension. */
    const char *base = strrchr(L->path, '/');
    base = base ? base + 1 : L->path;
    w->name = strdup(base);
    char *dot = w->name ? strrchr(w->name, '.') : NULL;
    if (dot && dot != w->name)
        *dot = 0;
    return w->name ? 0 : -1;
}

static int add_xyr_trees(struct world *w, const struct xyr *t, int n)
{
    for (int i = 0; i < n; i++)
        if (world_add_tree(w, v2(t[i].x, t[i].y), t[i].r) < 0)
            return -1;
    return 0;
}

static int add_random_trees(const struct parsed *P, struct world *w, struct rng *rng)
{
    for (int i = 0; i < P->trees.random; i++) {
        double r = P->has_min_r ? rng_range(rng, P->trees.min_radius, P->trees.max_radius)
                                : P->trees.radius;
        /* y is drawn before x: the order gcc happened to use when this
         * was one expression, kept so that every recorded trace stays
         * valid; named locals fix it for every compiler. */
        double y = rng_range(rng, r, P->map.height - r);
        double x = rng_range(rng, r, P->map.width - r);
        if (world_add_tree(w, v2(x, y), r) < 0)
            return -1;
    }
    return 0;
}

static int add_track(const struct parsed *P, struct world *w)
{
    for (int i = 0; i < P->ntrack_list; i++)
        if (world_add_waypoint(w, v2(P->track_list[i].x, P->track_list[i].y),
                               P->track_list[i].r) < 0)
            return -1;
    for (int i = 0; i < P->nwsecs; i++)
        if (world_add_waypoint(w, v2(P->wsecs[i].w.x, P->wsecs[i].w.y), P->wsecs[i].w.r) < 0)
            return -1;
    return 0;
}

/* The explicit tanks, turrets and cars, in the order of the file. */
static int add_vehicles(struct parsed *P, struct world *w, struct rng *rng)
{
    for (int i = 0; i < P->nveh; i++) {
        struct vspec *v = &P->veh[i];
        if (v->nroute) {
            v->s.p.route_first = (int)w->route_points.n;
            v->s.p.route_count = v->nroute;
            for (int j = 0; j < v->nroute; j++)
                if (world_add_route_point(w, v2(v->route[j].x, v->route[j].y),
                                          v->route[j].r) < 0)
                    return -1;
        }
        double heading = v->s.heading;
        if (!v->has_heading) {
            if (v->kind == VK_CAR && w->track.n)
                heading = v2_angle(v2_sub(w->track.p[0].c, v2(v->s.x, v->s.y)));
            else if (v->kind == VK_TANK)
                heading = rng_range(rng, -M_PI, M_PI);
        }
        int idx = world_add_vehicle(w, v->id, v->kind, v->team, &v->s.p,
                                    v2(v->s.x, v->s.y), heading);
        if (idx < 0 || (v->bot && world_add_bot(w, idx, v->bot, v->bot_where,
                                                v->s.bot_budget, v->s.bot_memory)))
            return -1;
    }
    return 0;
}

int load_build(struct loader *L, struct parsed *P, const struct map_options *opt,
               struct world *w)
{
    world_init(w, P->map.width, P->map.height);
    if (set_settings(L, P, opt, w))
        goto oom;
    struct rng rng;
    rng_seed(&rng, w->seed, 1);
    if (add_xyr_trees(w, P->trees_at, P->ntrees_at)
        || add_xyr_trees(w, P->tree_secs, P->ntree_secs)
        || add_random_trees(P, w, &rng))
        goto oom;
    for (int t = 0; t < P->nteams; t++)
        if (world_add_team(w, P->teams[t].name, P->teams[t].set.color) < 0)
            goto oom;
    if (add_track(P, w) || add_vehicles(P, w, &rng))
        goto oom;
    if (load_place_random_tanks(L, P, w, &rng))
        return -1;
    if (world_finish(w))
        goto oom;
    return 0;
oom:
    load_error(L, 0, NULL, NULL, NULL, "out of memory building the map");
    return -1;
}
