/* resolve.c — a vehicle's settings: its own section's key, else its
 * team's, else the key table's default.
 *
 * Every value read here was already checked where it is written (the
 * section's own pass in sections.c), so here it is only read, quietly: a
 * team's bad value is reported once, not once for each of its tanks. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "load.h"

/* The defaults of a kind of vehicle: the same for each, worked out once
 * (no vehicle key is text, which would need a copy of its own). */
static void vehicle_defaults(struct loader *L, struct vspec *v, unsigned kind)
{
    enum vehicle_kind vk = kind == SEC_TANK ? VK_TANK : kind == SEC_TURRET ? VK_TURRET : VK_CAR;
    if (L->tmpl[vk]) {
        v->s = *L->tmpl[vk];
        return;
    }
    world_default_params(&v->s.p, vk);
    load_apply_defaults(L, kind, TGT_VEHICLE, &v->s);
    L->tmpl[vk] = malloc(sizeof *L->tmpl[vk]);
    if (L->tmpl[vk])
        *L->tmpl[vk] = v->s;
}

/* The section that gives key k to v (its own, else its team's), or -1. */
static int giver(const struct loader *L, const struct parsed *P, const struct vspec *v,
                 unsigned kind, const struct key_def *k)
{
    if (load_has_key(L, v->section, k->name))
        return v->section;
    int team_sec = v->team >= 0 ? P->teams[v->team].section : -1;
    if (kind == SEC_TANK && team_sec >= 0 && key_find(SEC_TEAM, k->name)
        && load_has_key(L, team_sec, k->name))
        return team_sec;
    return -1;
}

static void read_route(struct loader *Q, struct vspec *v, const char *val,
                       const struct where *at, const struct key_def *k)
{
    if (!strcasecmp(val, "track")) {
        v->s.p.route_track = 1;
        return;
    }
    int n = load_parse_xyr_list(Q, val, NULL, at, k, SEC_WAYPOINT);
    if (n > 0 && (v->route = malloc((size_t)n * sizeof *v->route))) {
        load_parse_xyr_list(Q, val, v->route, at, k, SEC_WAYPOINT);
        v->nroute = n;
    }
}

/* The bot's path and where it is written ("map.ini:12: [tank.a] bot =
 * x.lua"), for the errors of reading and loading the script later. */
static void read_bot(const struct loader *L, struct vspec *v, const char *val,
                     const struct where *at)
{
    if (bot_path_problem(val))
        return;                 /* reported where it is written */
    free(v->bot);
    free(v->bot_where);
    v->bot = strdup(val);
    size_t n = strlen(L->path) + strlen(at->section) + strlen(val) + 64;
    v->bot_where = malloc(n);
    if (v->bot_where)
        snprintf(v->bot_where, n, "%s:%d: [%s] bot = %s", L->path, at->line, at->section, val);
}

void load_resolve_vehicle(struct loader *L, struct parsed *P, struct vspec *v,
                          unsigned kind)
{
    vehicle_defaults(L, v, kind);
    /* Problems were reported where the key is written; here the values
     * are only read. */
    struct loader Q = *L;
    Q.quiet = 1;
    unsigned b = load_kind_bit(kind);
    for (unsigned r = 0; r < L->rows->n[b]; r++) {
        const struct key_def *k = &key_table[L->rows->row[b][r]];
        if (k->type == KEY_TEAM)
            continue;
        int sec = giver(L, P, v, kind, k);
        const char *val = sec >= 0 ? load_raw_value(L, sec, k->name) : NULL;
        if (!val)
            continue;
        struct where at = { load_key_line(L, sec, k->name), L->scan.sections[sec].name,
                            k->name, val };
        if (k->type == KEY_ROUTE) {
            read_route(&Q, v, val, &at, k);
            continue;
        }
        if (k->type == KEY_BOT_PATH) {
            read_bot(L, v, val, &at);
            continue;
        }
        load_parse_value(&Q, k, val, &v->s, &at);
        if (!strcmp(k->name, "heading"))
            v->has_heading = 1;
    }
}
