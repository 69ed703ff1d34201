/* check.c — the checks across keys of a map that no single key's range
 * can make: the entity count, tree radii that fit the map, vehicles inside
 * it, patrol routes and tracks that exist.  Run only when every key read
 * well, so each value here is in its own range. */
#include "config.h"

#include "load.h"

/* Every entity before any allocation: at most a million, trees included.
 * 0, or -1 (reported). */
static int check_count(struct loader *L, const struct parsed *P)
{
    double count = (double)P->trees.random + P->ntrees_at + P->ntree_secs + P->nveh;
    for (int t = 0; t < P->nteams; t++)
        count += P->teams[t].set.random;
    if (count <= WORLD_MAX_ENTITIES)
        return 0;
    load_error(L, 0, NULL, NULL, NULL, "%.0f entities (trees, tanks, turrets, cars): at most "
               "1000000 are allowed; lower a 'random' count", count);
    return -1;
}

static void check_trees(struct loader *L, const struct parsed *P)
{
    double W = P->map.width, H = P->map.height;
    int ts = P->trees_section;
    const char *tn = load_sec_name(L, ts);
    if (P->has_min_r != P->has_max_r)
        load_error(L, load_sec_line(L, ts), tn, P->has_min_r ? "min_radius" : "max_radius",
                   NULL, "give min_radius and max_radius together (or radius alone)");
    if (P->has_min_r && P->has_max_r && P->trees.min_radius > P->trees.max_radius)
        load_error(L, load_key_line(L, ts, "min_radius"), tn, "min_radius", NULL,
                   "min_radius %g is larger than max_radius %g",
                   P->trees.min_radius, P->trees.max_radius);
    double rmax = P->has_max_r ? P->trees.max_radius : P->trees.radius;
    if (P->trees.random > 0 && (2 * rmax > W || 2 * rmax > H))
        load_error(L, load_key_line(L, ts, "random"), tn, "random", NULL,
                   "a random tree of radius %g does not fit wholly inside a %g x %g map",
                   rmax, W, H);
}

static void check_vehicle(struct loader *L, const struct parsed *P, const struct vspec *v)
{
    double W = P->map.width, H = P->map.height;
    const char *sn = L->scan.sections[v->section].name;
    int line = load_sec_line(L, v->section);
    int has_track = P->ntrack_list + P->nwsecs > 0;
    if (v->s.x < 0 || v->s.x > W || v->s.y < 0 || v->s.y > H)
        load_error(L, load_key_line(L, v->section, "x"), sn, "x", NULL,
                   "(%g, %g) is outside the map (expected x from 0 to %g and y from 0 to %g)",
                   v->s.x, v->s.y, W, H);
    if (v->kind == VK_CAR && v->s.p.min_speed > v->s.p.max_speed)
        load_error(L, load_key_line(L, v->section, "min_speed"), sn, "min_speed", NULL,
                   "min_speed %g is above max_speed %g", v->s.p.min_speed, v->s.p.max_speed);
    if (v->kind == VK_TANK && v->s.p.drive == DRIVE_PATROL) {
        if (!v->s.p.route_track && v->nroute == 0)
            load_error(L, line, sn, "route", NULL,
                       "missing: behaviour = patrol needs a route (x y r list or track)");
        if (v->s.p.route_track && !has_track)
            load_error(L, line, sn, "route", "track",
                       "there is no [track] with waypoints to patrol");
    }
    if (v->kind == VK_CAR && !has_track)
        load_error(L, line, sn, NULL, NULL,
                   "a car needs a [track] with waypoints (or [waypoint.N] sections)");
    /* No two vehicles share an id: an id is its section's name, and the
     * scanner refuses a second section of a name. */
}

/* At most one player tank (the viewer drives one), and never one a bot
 * decides for: the error names both sections. */
static void check_player(struct loader *L, const struct parsed *P)
{
    int first = -1;
    for (int i = 0; i < P->nveh; i++) {
        const struct vspec *v = &P->veh[i];
        if (v->kind != VK_TANK || !v->s.p.player)
            continue;
        const char *sn = L->scan.sections[v->section].name;
        if (v->bot)
            load_error(L, load_key_line(L, v->section, "player"), sn, "player", "true",
                       "a player tank takes its intents from the keyboard: it cannot have "
                       "a bot as well (%s); remove one of the two", v->bot);
        if (first < 0)
            first = i;
        else
            load_error(L, load_key_line(L, v->section, "player"), sn, "player", "true",
                       "a second player tank: [%s] is the player already (at most one "
                       "tank per map has player = true)",
                       L->scan.sections[P->veh[first].section].name);
    }
}

void load_check(struct loader *L, struct parsed *P)
{
    if (P->map_section < 0 || P->map.width <= 0 || P->map.height <= 0)
        return;                 /* reported already */
    if (check_count(L, P))
        return;
    check_trees(L, P);
    for (int i = 0; i < P->nveh; i++)
        check_vehicle(L, P, &P->veh[i]);
    check_player(L, P);
    if (P->ntrack_list && P->nwsecs)
        load_error(L, load_key_line(L, P->track_section, "waypoints"), "track", "waypoints", NULL,
                   "give the track either as waypoints = ... or as [waypoint.N] sections, not both");
}
