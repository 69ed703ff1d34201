#include <stdlib.h>
#include <string.h>

#include "world.h"
#include "grow.h"
#include "tick.h"

int world_array_reserve(void *arr, size_t need, size_t elem)
{
    struct { void *p; size_t n, cap; } *a = arr;
    return grow_reserve(&a->p, &a->cap, need, elem);
}

#define PUSH(a, value)                                                  \
    (WORLD_RESERVE(a, (a).n + 1) ? -1 : ((a).p[(a).n] = (value), (int)(a).n++))

void world_init(struct world *w, double width, double height)
{
    memset(w, 0, sizeof *w);
    w->scratch.vgrid_tick = -1;     /* no grid yet: the first step builds it */
    w->scratch.sensed_tick = -1;
    w->width = width;
    w->height = height;
#define SETTING(field, unit, def) w->field = PARAM_VALUE(unit, def);
#include "params.def"
    w->dt = 1.0 / w->tick_rate;
    w->stats.min_separation = INFINITY;
    w->winner = -1;
    w->rounds = w->round = 1;
    w->trees_round = 1;
    w->player.vehicle = -1;
}

/* ---- the id pool ---------------------------------------------------------
 * Ids are written one after another into chunks that are never moved
 * (vehicle.id points into them) and freed only with the world.  Chunks
 * double from 256 bytes up to 64 KiB, so a small map spends little and a
 * crowd's 100,000 ids take a few dozen allocations instead of 100,000
 * (each of which costs a 32-byte heap chunk for "tank.12345"). */
struct id_chunk {
    struct id_chunk *next;      /* the one filled before it */
    size_t used, cap;
    char text[];
};

#define ID_CHUNK_MIN 256
#define ID_CHUNK_MAX 65536

/* A copy of id in the pool, or NULL when memory ran out. */
static const char *id_put(struct world *w, const char *id)
{
    size_t len = strlen(id) + 1;
    struct id_chunk *c = w->ids;
    if (!c || c->cap - c->used < len) {
        size_t cap = c ? 2 * c->cap : ID_CHUNK_MIN;
        if (cap > ID_CHUNK_MAX)
            cap = ID_CHUNK_MAX;
        if (cap < len)
            cap = len;              /* an id longer than a chunk */
        if (cap > SIZE_MAX - sizeof *c)
            return NULL;
        c = malloc(sizeof *c + cap);
        if (!c)
            return NULL;
        c->next = w->ids;
        c->used = 0;
        c->cap = cap;
        w->ids = c;
    }
    char *p = c->text + c->used;
    memcpy(p, id, len);
    c->used += len;
    return p;
}

/* Gives back the id id_put() returned last (a vehicle that could not be
 * added), so failed adds do not pile up in the pool. */
static void id_unput(struct world *w, const char *p)
{
    struct id_chunk *c = w->ids;
    size_t len = strlen(p) + 1;
    if (c && c->used >= len && p == c->text + (c->used - len))
        c->used -= len;
}

void world_free(struct world *w)
{
    for (struct id_chunk *c = w->ids, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    for (size_t i = 0; i < w->params.n; i++)
        free(w->params.p[i]);
    free(w->params.p);
    free(w->params_hash);
    free(w->racers.p);
    for (size_t i = 0; i < w->bots.n; i++) {
        free(w->bots.p[i].path);
        free(w->bots.p[i].where);
    }
    free(w->bots.p);
    free(w->map_path);
    free(w->round_text);
    free(w->round_winners.p);
    free(w->round_totals.p);
    free(w->name);
    free(w->trees.p);
    free(w->teams.p);
    free(w->track.p);
    free(w->route_points.p);
    tree_grid_free(&w->tree_grid);
    free(w->vehicles.p);
    free(w->shells.p);
    free(w->overlaps.p);
    tick_products_free(&w->now);
    tick_scratch_free(&w->scratch);
    memset(w, 0, sizeof *w);
}

/* A field added to struct tick_products or tick_scratch is freed and
 * cleared here, beside its kind's other fields. */
void tick_products_free(struct tick_products *now)
{
    free(now->events.p);
    free(now->sights.p);
    free(now->sight_intervals.p);
    sight_store_free(&now->sight_store);
    free(now->aims.p);
    free(now->aim_steps.p);
    memset(now, 0, sizeof *now);
}

void tick_products_clear(struct tick_products *now)
{
    now->events.n = 0;
    now->sights.n = 0;
    now->sight_intervals.n = 0;
    now->aim_steps.n = 0;
    /* the aims stay (a snapshot's, for the viewer); their probe times,
     * in aim_steps, went */
    for (size_t k = 0; k < now->aims.n; k++)
        now->aims.p[k].nsteps = 0;
}

void tick_scratch_free(struct tick_scratch *scratch)
{
    tick_ctx_free(scratch->ctx);
    vehicle_grid_free(&scratch->vgrid);
    memset(scratch, 0, sizeof *scratch);
    scratch->vgrid_tick = -1;
    scratch->sensed_tick = -1;
}

/* Each field's unit, so that a PARAM_KIND line cannot give a default in
 * another unit than its PARAM line. */
enum {
#define PARAM(type, field, unit, def) PARAM_UNIT_##field = PARAM_UNIT_##unit,
    PARAM_UNIT_NUM, PARAM_UNIT_INT, PARAM_UNIT_DEG,
#include "params.def"
};
#define PARAM_KIND(kind, field, unit, def)                              \
    _Static_assert(PARAM_UNIT_##field == PARAM_UNIT_##unit,             \
                   "params.def: " #field " is not in " #unit);
#include "params.def"

void world_default_params(struct vehicle_params *p, enum vehicle_kind kind)
{
    memset(p, 0, sizeof *p);
#define PARAM(type, field, unit, def) p->field = (type)PARAM_VALUE(unit, def);
#define PARAM_KIND(k, field, unit, def)                                 \
    if (kind == (k))                                                    \
        p->field = PARAM_VALUE(unit, def);
#include "params.def"
}

/* ---- the settings pool ---------------------------------------------------
 * A crowd of 100,000 tanks has one or two distinct settings: each vehicle
 * points at an interned copy instead of carrying 192 bytes the tick loops
 * would stream past.  Slots are allocated one by one so they never move. */
struct params_slot {
    struct vehicle_params p;    /* first: vehicle.p points here */
    int owner;                  /* vehicle that made it its own, -1: shared */
};

/* Field by field (the struct has padding, and -0.0 == 0.0), every field
 * of params.def: a field left out would let two vehicles with different
 * settings share one copy. */
static int params_equal(const struct vehicle_params *a, const struct vehicle_params *b)
{
    return 1
#define PARAM(type, field, unit, def) && a->field == b->field
#include "params.def"
        ;
}

static uint64_t mix(uint64_t h, double x)
{
    uint64_t u;
    x = x == 0 ? 0 : x;         /* -0.0 hashes as 0.0, as it compares */
    memcpy(&u, &x, sizeof u);
    h ^= u;
    h *= 0x100000001b3ULL;
    return h ^ (h >> 29);
}

/* Every field, as params_equal compares them: equal settings hash alike. */
static size_t params_hash(const struct vehicle_params *p)
{
    uint64_t h = 0xcbf29ce484222325ULL;
#define PARAM(type, field, unit, def) h = mix(h, (double)p->field);
#include "params.def"
    return (size_t)h;
}

static int hash_insert(struct world *w, int slot)
{
    size_t mask = w->params_hash_cap - 1;
    size_t k = params_hash(&w->params.p[slot]->p) & mask;
    while (w->params_hash[k] >= 0)
        k = (k + 1) & mask;
    w->params_hash[k] = slot;
    return 0;
}

/* The interned copy of p: found, or added.  NULL when memory ran out. */
static const struct vehicle_params *params_intern(struct world *w,
                                                  const struct vehicle_params *p)
{
    if (w->params_hash_cap) {
        size_t mask = w->params_hash_cap - 1;
        for (size_t k = params_hash(p) & mask; w->params_hash[k] >= 0; k = (k + 1) & mask) {
            struct params_slot *s = w->params.p[w->params_hash[k]];
            if (s->owner < 0 && params_equal(&s->p, p))
                return &s->p;
        }
    }
    /* Keep the table at most half full: rebuild it twice the size. */
    if (2 * (w->params.n + 1) > w->params_hash_cap) {
        size_t cap = w->params_hash_cap ? 2 * w->params_hash_cap : 64;
        int *h = malloc(cap * sizeof *h);
        if (!h)
            return NULL;
        free(w->params_hash);
        w->params_hash = h;
        w->params_hash_cap = cap;
        for (size_t k = 0; k < cap; k++)
            h[k] = -1;
        for (size_t i = 0; i < w->params.n; i++)
            if (w->params.p[i]->owner < 0)
                hash_insert(w, (int)i);
    }
    struct params_slot *s = malloc(sizeof *s);
    if (!s || WORLD_RESERVE(w->params, w->params.n + 1)) {
        free(s);
        return NULL;
    }
    s->p = *p;
    s->owner = -1;
    w->params.p[w->params.n++] = s;
    hash_insert(w, (int)w->params.n - 1);
    return &s->p;
}

struct vehicle_params *world_params_mut(struct world *w, int i)
{
    struct vehicle *v = &w->vehicles.p[i];
    /* p is the first member of its slot. */
    struct params_slot *cur = (struct params_slot *)(void *)v->p;
    if (cur->owner == i)
        return &cur->p;
    struct params_slot *s = malloc(sizeof *s);
    if (!s || WORLD_RESERVE(w->params, w->params.n + 1)) {
        free(s);
        return NULL;
    }
    s->p = cur->p;
    s->owner = i;               /* never interned: nobody else shares it */
    w->params.p[w->params.n++] = s;
    v->p = &s->p;
    return &s->p;
}

int world_set_params(struct world *w, int i, const struct vehicle_params *p)
{
    const struct vehicle_params *q = params_intern(w, p);
    if (!q)
        return -1;
    w->vehicles.p[i].p = q;
    return 0;
}

double world_max_radius(const struct world *w)
{
    double m = 0;
    for (size_t i = 0; i < w->params.n; i++)
        if (w->params.p[i]->p.radius > m)
            m = w->params.p[i]->p.radius;
    return m;
}

/* Cars and patrolling tanks drive a route: they get a racer. */
static int needs_racer(const struct vehicle *v)
{
    return v->kind == VK_CAR
        || (v->kind == VK_TANK && v->p->drive == DRIVE_PATROL);
}

static int add_racer(struct world *w, int i)
{
    struct racer r;
    memset(&r, 0, sizeof r);
    r.vehicle = i;
    int k = PUSH(w->racers, r);
    if (k >= 0)
        w->vehicles.p[i].racer = k;
    return k;
}

int world_add_tree(struct world *w, vec2 c, double r)
{
    struct tree t = { c, r };
    return PUSH(w->trees, t);
}

int world_add_team(struct world *w, const char *name, int color)
{
    struct team t;
    memset(&t, 0, sizeof t);
    strncpy(t.name, name, sizeof t.name - 1);
    t.color = color;
    return PUSH(w->teams, t);
}

int world_add_waypoint(struct world *w, vec2 c, double r)
{
    struct waypoint p = { c, r };
    return PUSH(w->track, p);
}

int world_add_route_point(struct world *w, vec2 c, double r)
{
    struct waypoint p = { c, r };
    return PUSH(w->route_points, p);
}

int world_add_vehicle(struct world *w, const char *id, enum vehicle_kind kind,
                      int team, const struct vehicle_params *p, vec2 pos,
                      double heading)
{
    struct vehicle v;
    memset(&v, 0, sizeof v);
    v.id = id_put(w, id);
    if (!v.id)
        return -1;
    v.kind = kind;
    v.team = team;
    v.p = params_intern(w, p);
    if (!v.p) {
        id_unput(w, v.id);
        return -1;
    }
    v.racer = -1;
    v.pos = pos;
    vehicle_set_heading(&v, angle_norm(kind == VK_TURRET ? p->facing : heading));
    v.turret = v.heading;
    v.radar = v.heading;
    /* a player starts still: its intents start at zero (player.h) */
    v.speed = kind == VK_CAR || p->player ? 0 : p->drive == DRIVE_HOLD ? 0 : p->speed;
    v.alive = 1;
    v.health = p->health;
    v.gun.target = -1;
    v.avoid.threat = -1;
    v.aim_slot = -1;
    v.from = pos;
    int i = PUSH(w->vehicles, v);
    if (i < 0) {
        id_unput(w, v.id);
        return -1;
    }
    if (needs_racer(&v) && add_racer(w, i) < 0) {
        w->vehicles.n--;
        id_unput(w, v.id);
        return -1;
    }
    if (team >= 0) {
        w->teams.p[team].vehicles++;
        w->teams.p[team].alive++;
    }
    return i;
}

static int cmp_racer(const void *a, const void *b)
{
    int x = ((const struct racer *)a)->vehicle, y = ((const struct racer *)b)->vehicle;
    return (x > y) - (x < y);
}

int world_finish(struct world *w)
{
    size_t had = w->racers.n;
    w->dt = 1.0 / w->tick_rate;
    w->player.vehicle = -1;
    for (size_t i = 0; i < w->vehicles.n; i++) {
        /* the first tank marked player (the loader allows one) */
        if (w->player.vehicle < 0 && w->vehicles.p[i].kind == VK_TANK
            && w->vehicles.p[i].p->player)
            w->player.vehicle = (int)i;
        rng_seed(&w->vehicles.p[i].rng, w->seed, 1000 + i);
        /* A test may have made one a patroller after adding it. */
        if (w->vehicles.p[i].racer < 0 && needs_racer(&w->vehicles.p[i])
            && add_racer(w, (int)i) < 0)
            return -1;
    }
    /* Racers in vehicle order, so the race's events come in that order. */
    if (w->racers.n > had) {
        qsort(w->racers.p, w->racers.n, sizeof *w->racers.p, cmp_racer);
        for (size_t r = 0; r < w->racers.n; r++)
            w->vehicles.p[w->racers.p[r].vehicle].racer = (int)r;
    }
    /* a world finished again (vehicles added after a load) builds its
     * tree grid anew */
    tree_grid_free(&w->tree_grid);
    return tree_grid_build(&w->tree_grid, w->trees.p, (int)w->trees.n,
                           w->width, w->height, w->cell);
}

int world_add_bot(struct world *w, int i, const char *path, const char *where,
                  long budget, long memory_kib)
{
    if (WORLD_RESERVE(w->bots, w->bots.n + 1))
        return -1;
    struct world_bot *b = &w->bots.p[w->bots.n];
    b->vehicle = i;
    b->path = strdup(path);
    b->where = strdup(where ? where : path);
    b->budget = budget;
    b->memory_kib = memory_kib;
    b->sha256[0] = 0;
    if (!b->path || !b->where) {
        free(b->path);
        free(b->where);
        return -1;
    }
    w->bots.n++;
    return 0;
}

int world_is_bot(const struct world *w, int i)
{
    for (size_t k = 0; k < w->bots.n; k++)
        if (w->bots.p[k].vehicle == i)
            return 1;
    return 0;
}

int world_find_team(const struct world *w, const char *name)
{
    for (size_t i = 0; i < w->teams.n; i++)
        if (strcmp(w->teams.p[i].name, name) == 0)
            return (int)i;
    return -1;
}

int world_find_vehicle(const struct world *w, const char *id)
{
    for (size_t i = 0; i < w->vehicles.n; i++)
        if (strcmp(w->vehicles.p[i].id, id) == 0)
            return (int)i;
    return -1;
}

const struct waypoint *world_route(const struct world *w,
                                   const struct vehicle *v, int *count)
{
    if (v->kind == VK_CAR || v->p->route_track) {
        *count = (int)w->track.n;
        return w->track.p;
    }
    *count = v->p->route_count;
    return v->p->route_count ? w->route_points.p + v->p->route_first : NULL;
}

struct event *world_event(struct world *w, enum event_kind kind, int a, int b)
{
    if (WORLD_RESERVE(w->now.events, w->now.events.n + 1))
        return NULL;
    struct event *e = &w->now.events.p[w->now.events.n++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->a = a;
    e->b = b;
    return e;
}

static void *dup_array(const void *p, size_t n, size_t elem, int *fail)
{
    if (n == 0)
        return NULL;
    void *q = malloc(n * elem);
    if (!q) {
        *fail = 1;
        return NULL;
    }
    memcpy(q, p, n * elem);
    return q;
}

int world_snapshot_save(const struct world *w, struct world_snapshot *s)
{
    int fail = 0;
    memset(s, 0, sizeof *s);
    s->tick = w->tick;
    s->nvehicles = w->vehicles.n;
    s->vehicles = dup_array(w->vehicles.p, w->vehicles.n, sizeof *s->vehicles, &fail);
    s->nracers = w->racers.n;
    s->racers = dup_array(w->racers.p, w->racers.n, sizeof *s->racers, &fail);
    s->nshells = w->shells.n;
    s->shells = dup_array(w->shells.p, w->shells.n, sizeof *s->shells, &fail);
    s->noverlaps = w->overlaps.n;
    s->overlaps = dup_array(w->overlaps.p, w->overlaps.n, sizeof *s->overlaps, &fail);
    s->naims = w->now.aims.n;
    s->aims = dup_array(w->now.aims.p, w->now.aims.n, sizeof *s->aims, &fail);
    s->stats = w->stats;
    s->ended = w->ended;
    s->winner = w->winner;
    s->player_in = w->player.in;
    s->round = w->round;
    s->round_start = w->round_start;
    s->nround_winners = w->round_winners.n;
    s->round_winners = dup_array(w->round_winners.p, w->round_winners.n,
                                 sizeof *s->round_winners, &fail);
    s->nround_totals = w->round_totals.n;
    s->round_totals = dup_array(w->round_totals.p, w->round_totals.n,
                                sizeof *s->round_totals, &fail);
    size_t nt = w->teams.n;
    s->team_alive = calloc(nt + 1, sizeof *s->team_alive);
    s->team_knockouts = calloc(nt + 1, sizeof *s->team_knockouts);
    if (!s->team_alive || !s->team_knockouts)
        fail = 1;
    for (size_t t = 0; !fail && t < nt; t++) {
        s->team_alive[t] = w->teams.p[t].alive;
        s->team_knockouts[t] = w->teams.p[t].knockouts;
    }
    if (fail) {
        world_snapshot_free(s);
        return -1;
    }
    return 0;
}

void world_take_trees(struct world *w, struct world *from, int r)
{
    struct tree *p = w->trees.p;
    size_t n = w->trees.n, cap = w->trees.cap;
    struct tree_grid g = w->tree_grid;
    w->trees.p = from->trees.p;
    w->trees.n = from->trees.n;
    w->trees.cap = from->trees.cap;
    w->tree_grid = from->tree_grid;
    from->trees.p = p;
    from->trees.n = n;
    from->trees.cap = cap;
    from->tree_grid = g;
    w->trees_round = r;
    w->trees_version++;
}

/* Round r's trees in w, when they differ by round (world.h round_map):
 * rebuilt from the map rather than kept for every round, so a match of
 * 1000 rounds holds one forest, and a step back across a round's start
 * costs one map load.  0, or -1. */
static int round_trees(struct world *w, int r)
{
    if (!w->round_map || w->trees_round == r)
        return 0;
    struct world fresh;
    if (w->round_map(w, r, &fresh))
        return -1;
    world_take_trees(w, &fresh, r);
    world_free(&fresh);
    return 0;
}

int world_snapshot_restore(struct world *w, const struct world_snapshot *s)
{
    if (s->nvehicles != w->vehicles.n || s->nracers != w->racers.n
        || WORLD_RESERVE(w->shells, s->nshells)
        || WORLD_RESERVE(w->overlaps, s->noverlaps)
        || WORLD_RESERVE(w->now.aims, s->naims)
        || WORLD_RESERVE(w->round_winners, s->nround_winners)
        || WORLD_RESERVE(w->round_totals, s->nround_totals)
        || round_trees(w, s->round))
        return -1;
    /* Ids belong to the world; a snapshot's copies point at the same ones. */
    if (s->nvehicles)
        memcpy(w->vehicles.p, s->vehicles, s->nvehicles * sizeof *s->vehicles);
    if (s->nracers)
        memcpy(w->racers.p, s->racers, s->nracers * sizeof *s->racers);
    if (s->nshells)
        memcpy(w->shells.p, s->shells, s->nshells * sizeof *s->shells);
    w->shells.n = s->nshells;
    if (s->noverlaps)
        memcpy(w->overlaps.p, s->overlaps, s->noverlaps * sizeof *s->overlaps);
    w->overlaps.n = s->noverlaps;
    /* The guns' records of the snapshot's tick: the vehicles' aim_slot
     * refer to them, and the viewer shows them until the next step. */
    if (s->naims)
        memcpy(w->now.aims.p, s->aims, s->naims * sizeof *s->aims);
    w->now.aims.n = s->naims;
    w->tick = s->tick;
    w->stats = s->stats;
    w->ended = s->ended;
    w->winner = s->winner;
    w->player.in = s->player_in;
    w->round = s->round;
    w->round_start = s->round_start;
    if (s->nround_winners)
        memmove(w->round_winners.p, s->round_winners,
               s->nround_winners * sizeof *s->round_winners);
    w->round_winners.n = s->nround_winners;
    if (s->nround_totals)
        memmove(w->round_totals.p, s->round_totals,
                s->nround_totals * sizeof *s->round_totals);
    w->round_totals.n = s->nround_totals;
    for (size_t t = 0; t < w->teams.n; t++) {
        w->teams.p[t].alive = s->team_alive[t];
        w->teams.p[t].knockouts = s->team_knockouts[t];
    }
    /* The tick's products were cleared: so are the vehicles' views of
     * them (sight_update relies on this while there are no records). */
    tick_products_clear(&w->now);
    for (size_t i = 0; i < w->vehicles.n; i++)
        w->vehicles.p[i].sight_first = w->vehicles.p[i].sight_count = 0;
    w->scratch.vgrid_tick = -1;     /* the next step indexes the restored state */
    w->scratch.sensed_tick = -1;    /* ... and senses it (a sense ahead saw the old) */
    return 0;
}

void world_snapshot_free(struct world_snapshot *s)
{
    free(s->vehicles);
    free(s->racers);
    free(s->shells);
    free(s->overlaps);
    free(s->aims);
    free(s->team_alive);
    free(s->team_knockouts);
    free(s->round_winners);
    free(s->round_totals);
    memset(s, 0, sizeof *s);
}
