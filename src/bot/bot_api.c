/* bot_api.c — what a script sees of its vehicle and the world (me, world,
 * out), the built-in methods it may call, and its debug output (draw.*,
 * log).  Everything comes from the caller's struct bot_view; the
 * built-ins are the caller's callbacks, each charged BOT_CALL_COST
 * instructions. */
#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bot_impl.h"

/* The field names, interned once in a registry table: setting a field
 * by a key pushed from there skips lua_setfield's lookup of a C string,
 * which was a fifth of an empty tick. */
static const char *const key_names[] = {
    "id", "kind", "team", "x", "y", "heading", "speed", "turret", "gun_ready",
    "reload_left", "health", "radius", "max_speed", "turn_rate", "turret_rate",
    "shell_speed", "range", "fov", "view_range", "tick", "time", "dt", "width",
    "height", "enemies", "allies", "waypoints", "next_waypoint", "events", "trees",
    "visible", "distance", "bearing", "r", "type", "turn", "fire", "accel", "brake",
    "min_speed", "back_angle", "sensor", "radar", "radar_rate", "shells", "mine", NULL
};
enum {
    K_ID = 1, K_KIND, K_TEAM, K_X, K_Y, K_HEADING, K_SPEED, K_TURRET, K_GUN_READY,
    K_RELOAD_LEFT, K_HEALTH, K_RADIUS, K_MAX_SPEED, K_TURN_RATE, K_TURRET_RATE,
    K_SHELL_SPEED, K_RANGE, K_FOV, K_VIEW_RANGE, K_TICK, K_TIME, K_DT, K_WIDTH,
    K_HEIGHT, K_ENEMIES, K_ALLIES, K_WAYPOINTS, K_NEXT_WAYPOINT, K_EVENTS, K_TREES,
    K_VISIBLE, K_DISTANCE, K_BEARING, K_R, K_TYPE, K_TURN, K_FIRE, K_ACCEL, K_BRAKE,
    K_MIN_SPEED, K_BACK_ANGLE, K_SENSOR, K_RADAR, K_RADAR_RATE, K_SHELLS, K_MINE,
    /* after the names, in the same table: me, world and out themselves */
    K_ME_TABLE, K_WORLD_TABLE, K_OUT_TABLE,
    /* the refills (refill_open), and the last strings pushed for me */
    K_REFILL_ME, K_REFILL_ME_CAR, K_REFILL_TICK, K_REFILL_TICK_CAR,
    K_STR_ID, K_STR_KIND, K_STR_TEAM, K_STR_SENSOR, K_SLOTS = K_STR_SENSOR
};
_Static_assert(K_OUT_TABLE == BOT_KEYS_DATA, "bot_heap.c counts the keys table up to out");

/* The keys table's stack index while a table is being filled (in the
 * bot, not a static: bots may decide on several threads). */
#define keys_at (bot_of(L)->keys_at)

static void key(lua_State *L, int k)
{
    lua_rawgeti(L, keys_at, k);
}

static void setnum_k(lua_State *L, int k, double v)
{
    key(L, k);
    lua_pushnumber(L, v);
    lua_rawset(L, -3);
}

static void setstr_k(lua_State *L, int k, const char *v)
{
    key(L, k);
    lua_pushstring(L, v ? v : "");
    lua_rawset(L, -3);
}

/* Pushes the keys table and remembers where it is; returns the old place.
 * It sits in the registry under an integer reference (an array lookup: a
 * lua_rawgetp of a pointer key took five times as many instructions). */
static int keys_push(lua_State *L)
{
    int old = keys_at;
    lua_rawgeti(L, LUA_REGISTRYINDEX, bot_of(L)->keys_ref);
    keys_at = lua_gettop(L);
    return old;
}

static void keys_pop(lua_State *L, int old)
{
    lua_remove(L, keys_at);
    keys_at = old;
}

/* me, world and out are made once per state and refilled before each
 * call (registry keys below): a fresh table each tick was most of an
 * empty tick's cost, in the allocation and in the collector it drives.
 * What a script sees: every field the engine defines holds this call's
 * value (a field the script changed or cleared is written again); a
 * script that keeps one of these tables (a global, mem) sees it refilled
 * on the next tick, like a record it was handed again, so a script keeps
 * values, not the tables (mem.last_x = me.x); mem saved with such a
 * table in it saves a copy of what it held then.  Fields a script adds
 * stay until it removes them.  world's lists are new tables each tick
 * (built when read), so a list or an enemy kept from last tick is last
 * tick's.
 *
 * The refill is one call of a small Lua function of the engine's, made
 * from the lists below when the state opens: its SETFIELDs cost a third
 * of lua_rawset's from C, which were most of an empty tick.  They set
 * the fields raw, as lua_rawset did, while no __newindex can run:
 * world's metatable is the engine's (protected), and when the script gave
 * me or out a metatable, raw_refill sets the same fields from C.  "name"
 * takes the next argument, "name=nil" or "name=false" sets that; the C
 * pushes below follow the same order (refill_args counts them). */
static const char *const me_fields[] = {
    "id", "kind", "team", "x", "y", "heading", "speed", "turret", "gun_ready",
    "reload_left", "health", "radius", "max_speed", "turn_rate", "turret_rate",
    "shell_speed", "range", "fov", "view_range", NULL
};
static const char *const me_car_fields[] = { "accel", "brake", "min_speed", "back_angle", NULL };
static const char *const me_tank_fields[] = { "sensor", "radar", "radar_rate", NULL };
static const char *const world_fields[] = {
    /* last tick's lists go: the metatable builds this tick's on a read */
    "enemies=nil", "allies=nil", "waypoints=nil", "events=nil", "shells=nil", "messages=nil",
    "tick", "round", "rounds", "time", "dt", "width", "height", "next_waypoint", "trees", NULL
};
static const char *const out_fields[] = {
    "turn", "speed", "turret", "fire=false", "say=nil", "radar", NULL  /* say: unless set */
};

static int w_trees(lua_State *L);

/* The arguments refill k takes: its fields without a constant (tank or
 * turret, car; me alone, then me, world and out).  refill_open checks
 * these against the lists. */
static const int refill_args[4] = { 19 + 3, 19 + 4, 19 + 3 + 9 + 4, 19 + 4 + 9 + 4 };

/* Appends "t.f=aN " for each field (or "t.f=value " for a constant). */
static size_t refill_put(char *src, size_t at, size_t cap, const char *t,
                         const char *const *f, int *n)
{
    for (; *f; f++) {
        int w = strchr(*f, '=') ? snprintf(src + at, cap - at, "%s.%s ", t, *f)
                                : snprintf(src + at, cap - at, "%s.%s=a%d ", t, *f, ++*n);
        at += w > 0 ? (size_t)w : 0;
    }
    return at < cap ? at : cap - 1;
}

/* The four refills, into the keys table at idx: me alone (init) and me,
 * world and out (tick), for a tank or turret and for a car. */
static void refill_open(lua_State *L, int idx)
{
    for (int k = 0; k < 4; k++) {
        int car = k & 1, tick = k >> 1, n = 0;
        char body[2048], src[3072];
        size_t at = refill_put(body, 0, sizeof body, "me", me_fields, &n);
        at = refill_put(body, at, sizeof body, "me", car ? me_car_fields : me_tank_fields, &n);
        if (tick) {
            at = refill_put(body, at, sizeof body, "world", world_fields, &n);
            at = refill_put(body, at, sizeof body, "out", out_fields, &n);
        }
        size_t h = (size_t)snprintf(src, sizeof src, "return function(me,world,out");
        for (int i = 1; i <= n && h < sizeof src; i++)
            h += (size_t)snprintf(src + h, sizeof src - h, ",a%d", i);
        if (h < sizeof src)
            snprintf(src + h, sizeof src - h, ") %s end", body);
        if (n != refill_args[k])
            luaL_error(L, "botfield: refill %d takes %d arguments, not %d", k, n, refill_args[k]);
        if (luaL_loadbufferx(L, src, strlen(src), "=refill", "t") != LUA_OK)
            lua_error(L);               /* (never: the text is ours) */
        lua_call(L, 0, 1);
        lua_rawseti(L, idx, K_REFILL_ME + k);
    }
}

/* A string of me: the one pushed last time when it reads the same (a
 * lua_pushstring was a tenth of an empty tick). */
static void push_str(lua_State *L, int slot, const char *s)
{
    s = s ? s : "";
    lua_rawgeti(L, keys_at, slot);
    const char *was = lua_tostring(L, -1);
    if (was && strcmp(was, s) == 0)
        return;
    lua_pop(L, 1);
    lua_pushstring(L, s);
    lua_pushvalue(L, -1);
    lua_rawseti(L, keys_at, slot);
}

/* The fields of list f set raw in the table at t from the arguments at
 * *arg on (a refill's, for a table the script gave a metatable). */
static void raw_put(lua_State *L, int t, const char *const *f, int *arg)
{
    for (; *f; f++) {
        const char *eq = strchr(*f, '=');
        lua_pushlstring(L, *f, eq ? (size_t)(eq - *f) : strlen(*f));
        if (!eq)
            lua_pushvalue(L, (*arg)++);
        else if (strcmp(eq + 1, "false") == 0)
            lua_pushboolean(L, 0);
        else
            lua_pushnil(L);
        lua_rawset(L, t);
    }
}

/* Refill k done by lua_rawset from C: the function at fn, then me, world,
 * out and the arguments, as for the call; all of it popped. */
static void raw_refill(lua_State *L, int fn, int k)
{
    int arg = fn + 4;
    raw_put(L, fn + 1, me_fields, &arg);
    raw_put(L, fn + 1, k & 1 ? me_car_fields : me_tank_fields, &arg);
    if (k >> 1) {
        raw_put(L, fn + 2, world_fields, &arg);
        raw_put(L, fn + 3, out_fields, &arg);
    }
    lua_settop(L, fn - 1);
}

/* A table the script gave a metatable (it may have a __newindex). */
static int has_metatable(lua_State *L, int idx)
{
    if (!lua_getmetatable(L, idx))
        return 0;
    lua_pop(L, 1);
    return 1;
}

void bot_refill(lua_State *L, const struct bot_view *v, int tick)
{
    int old = keys_push(L), k = (tick ? 2 : 0) + (v->is_car ? 1 : 0);
    int nargs = refill_args[k];
    luaL_checkstack(L, nargs + 8, "the refill");
    lua_rawgeti(L, keys_at, K_REFILL_ME + k);
    int top = lua_gettop(L);
    lua_rawgeti(L, keys_at, K_ME_TABLE);
    lua_rawgeti(L, keys_at, K_WORLD_TABLE);
    lua_rawgeti(L, keys_at, K_OUT_TABLE);
    /* me_fields */
    push_str(L, K_STR_ID, v->id);
    push_str(L, K_STR_KIND, v->kind);
    push_str(L, K_STR_TEAM, v->team);
    lua_pushnumber(L, v->x);
    lua_pushnumber(L, v->y);
    lua_pushnumber(L, v->heading);
    lua_pushnumber(L, v->speed);
    lua_pushnumber(L, v->turret);
    lua_pushboolean(L, v->gun_ready);
    lua_pushnumber(L, v->reload_left);
    lua_pushnumber(L, v->health);
    lua_pushnumber(L, v->radius);
    lua_pushnumber(L, v->max_speed);
    lua_pushnumber(L, v->turn_rate);
    lua_pushnumber(L, v->turret_rate);
    lua_pushnumber(L, v->shell_speed);
    lua_pushnumber(L, v->range);
    lua_pushnumber(L, v->fov);
    lua_pushnumber(L, v->view_range);
    if (v->is_car) {            /* me_car_fields */
        lua_pushnumber(L, v->accel);
        lua_pushnumber(L, v->brake);
        lua_pushnumber(L, v->min_speed);
        lua_pushnumber(L, v->back_angle);
    } else {                    /* me_tank_fields */
        push_str(L, K_STR_SENSOR, v->sensor);
        lua_pushnumber(L, v->radar);
        lua_pushnumber(L, v->radar_rate);
    }
    if (tick) {
        /* world_fields */
        lua_pushinteger(L, v->tick);
        lua_pushinteger(L, v->round);
        lua_pushinteger(L, v->rounds);
        lua_pushnumber(L, v->time);
        lua_pushnumber(L, v->dt);
        lua_pushnumber(L, v->width);
        lua_pushnumber(L, v->height);
        lua_pushinteger(L, v->next_waypoint);
        lua_pushcfunction(L, w_trees);
        /* out_fields */
        lua_pushnumber(L, 0);
        lua_pushnumber(L, v->speed);
        lua_pushnumber(L, v->turret);
        lua_pushnumber(L, v->radar);
    }
    if (lua_gettop(L) - top != 3 + nargs)
        luaL_error(L, "botfield: the refill's arguments do not match its fields");
    if (has_metatable(L, top + 1) || (tick && has_metatable(L, top + 3)))
        raw_refill(L, top, k);
    else
        lua_call(L, 3 + nargs, 0);
    lua_rawgeti(L, keys_at, tick ? K_OUT_TABLE : K_ME_TABLE);
    if (tick) {
        lua_rawgeti(L, keys_at, K_ME_TABLE);
        lua_rawgeti(L, keys_at, K_WORLD_TABLE);
    }
    keys_pop(L, old);
}

/* world's lists are built when the script first reads them (an empty
 * tick builds none): world's metatable looks the name up, builds the list
 * from this tick's view and stores it raw, so a second read is a plain
 * field; each tick starts with none (bot_refill clears them), and
 * pairs(world) builds them all first.  The metatable
 * is protected (getmetatable(world) is false). */
static void build_enemies(lua_State *L, const struct bot_view *v)
{
    lua_createtable(L, (int)v->n_enemies, 0);
    for (size_t i = 0; i < v->n_enemies; i++) {
        const struct bot_enemy *e = &v->enemies[i];
        lua_createtable(L, 0, 10);
        setstr_k(L, K_ID, e->id);
        setstr_k(L, K_KIND, e->kind);
        setnum_k(L, K_HEALTH, e->health);
        setnum_k(L, K_X, e->x);
        setnum_k(L, K_Y, e->y);
        setnum_k(L, K_HEADING, e->heading);
        setnum_k(L, K_SPEED, e->speed);
        setnum_k(L, K_VISIBLE, e->visible);
        setnum_k(L, K_DISTANCE, e->distance);
        setnum_k(L, K_BEARING, e->bearing);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }

}

/* One ally or waypoint into the list on top of the stack (the callbacks'
 * put, or the loop over the view's array). */
static void put_ally(void *arg, size_t k, const struct bot_ally *a)
{
    lua_State *L = arg;
    lua_createtable(L, 0, 5);
    setstr_k(L, K_ID, a->id);
    setnum_k(L, K_X, a->x);
    setnum_k(L, K_Y, a->y);
    setnum_k(L, K_HEADING, a->heading);
    setnum_k(L, K_SPEED, a->speed);
    lua_rawseti(L, -2, (lua_Integer)k + 1);
}

static void put_waypoint(void *arg, size_t k, const struct bot_waypoint *w)
{
    lua_State *L = arg;
    lua_createtable(L, 0, 3);
    setnum_k(L, K_X, w->x);
    setnum_k(L, K_Y, w->y);
    setnum_k(L, K_R, w->r);
    lua_rawseti(L, -2, (lua_Integer)k + 1);
}

static int list_size(size_t n)
{
    return n < (size_t)1 << 24 ? (int)n : 0;
}

static void build_allies(lua_State *L, const struct bot_view *v)
{
    if (v->allies_of) {
        lua_createtable(L, list_size(v->allies_of(v->ctx, NULL, NULL)), 0);
        v->allies_of(v->ctx, put_ally, L);
        return;
    }
    lua_createtable(L, list_size(v->n_allies), 0);
    for (size_t i = 0; i < v->n_allies; i++)
        put_ally(L, i, &v->allies[i]);
}

static void build_waypoints(lua_State *L, const struct bot_view *v)
{
    if (v->waypoints_of) {
        lua_createtable(L, list_size(v->waypoints_of(v->ctx, NULL, NULL)), 0);
        v->waypoints_of(v->ctx, put_waypoint, L);
        return;
    }
    lua_createtable(L, list_size(v->n_waypoints), 0);
    for (size_t i = 0; i < v->n_waypoints; i++)
        put_waypoint(L, i, &v->waypoints[i]);
}

static void build_events(lua_State *L, const struct bot_view *v)
{
    lua_createtable(L, (int)v->n_events, 0);
    for (size_t i = 0; i < v->n_events; i++) {
        const struct bot_event *e = &v->events[i];
        lua_createtable(L, 0, e->n_fields + 1);
        setstr_k(L, K_TYPE, e->type);
        for (int f = 0; f < e->n_fields && f < BOT_EVENT_FIELDS; f++) {
            if (!e->fields[f].name)
                continue;
            if (e->fields[f].str)
                lua_pushstring(L, e->fields[f].str);
            else if (e->kind[f] == BOT_FIELD_BOOL)
                lua_pushboolean(L, e->fields[f].num != 0);
            else if (e->kind[f] == BOT_FIELD_INT)
                lua_pushinteger(L, (lua_Integer)e->fields[f].num);
            else
                lua_pushnumber(L, e->fields[f].num);
            lua_setfield(L, -2, e->fields[f].name);
        }
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }

}

/* world.shells: what shells_of gives, {id, x, y, heading, speed, team,
 * mine} each. */
static void build_shells(lua_State *L, const struct bot_view *v)
{
    const struct bot_shell *sh = NULL;
    size_t n = v->shells_of ? v->shells_of(v->ctx, &sh) : 0;
    lua_createtable(L, list_size(n), 0);
    for (size_t i = 0; i < n; i++) {
        lua_createtable(L, 0, 7);
        key(L, K_ID);
        lua_pushinteger(L, (lua_Integer)sh[i].id);
        lua_rawset(L, -3);
        setnum_k(L, K_X, sh[i].x);
        setnum_k(L, K_Y, sh[i].y);
        setnum_k(L, K_HEADING, sh[i].heading);
        setnum_k(L, K_SPEED, sh[i].speed);
        setstr_k(L, K_TEAM, sh[i].team);
        key(L, K_MINE);
        lua_pushboolean(L, sh[i].mine);
        lua_rawset(L, -3);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
}

static const int lazy_keys[] = { K_ENEMIES, K_ALLIES, K_WAYPOINTS, K_EVENTS, K_SHELLS };
static void (*const lazy_build[])(lua_State *, const struct bot_view *) = {
    build_enemies, build_allies, build_waypoints, build_events, build_shells
};
#define N_LAZY ((int)(sizeof lazy_keys / sizeof lazy_keys[0]))
/* Builds list i into the world table at idx from this call's view;
 * pushes the list (or nil outside a tick: there is no view). */
static void lazy_get(lua_State *L, int idx, int i)
{
    const struct bot_view *v = bot_of(L)->view;
    if (!v) {
        lua_pushnil(L);
        return;
    }
    /* world.shells looks at every shell in flight: charged before the
     * look, by their count, as world.trees is (a usual battle: free) */
    if (lazy_keys[i] == K_SHELLS && v->shells_total > BOT_SHELLS_FREE)
        bot_charge(L, (long)((v->shells_total - BOT_SHELLS_FREE) / 4));
    int old = keys_push(L);
    key(L, lazy_keys[i]);
    lazy_build[i](L, v);
    lua_pushvalue(L, -1);
    lua_insert(L, -3);                  /* list, key, list */
    lua_rawset(L, idx);
    keys_pop(L, old);
}

/* world.messages: what my team said last tick, {from, data} each, the
 * data rebuilt in this state from its bytes; made on a read as the lists
 * above (pushed, and kept raw in the world table at idx). */
static void put_message(void *arg, size_t k, const struct bot_message *m)
{
    lua_State *L = arg;
    lua_createtable(L, 0, 2);
    lua_pushstring(L, m->from);
    lua_setfield(L, -2, "from");
    if (bot_value_decode(L, m->data, m->len) == 0)
        lua_setfield(L, -2, "data");
    lua_rawseti(L, -2, (lua_Integer)k + 1);
}

static void messages_get(lua_State *L, int idx)
{
    const struct bot_view *v = bot_of(L)->view;
    if (!v) {
        lua_pushnil(L);
        return;
    }
    idx = lua_absindex(L, idx);
    size_t n = v->messages_of ? v->messages_of(v->ctx, NULL, NULL) : 0;
    lua_createtable(L, list_size(n), 0);
    if (n)
        v->messages_of(v->ctx, put_message, L);
    lua_pushliteral(L, "messages");
    lua_pushvalue(L, -2);
    lua_rawset(L, idx);
}

static int world_index(lua_State *L)
{
    if (lua_type(L, 2) != LUA_TSTRING)
        return 0;
    if (!strcmp(lua_tostring(L, 2), "messages")) {
        messages_get(L, 1);
        return 1;
    }
    int old = keys_push(L);
    for (int i = 0; i < N_LAZY; i++) {
        key(L, lazy_keys[i]);
        int hit = lua_rawequal(L, -1, 2);
        lua_pop(L, 1);
        if (hit) {
            keys_pop(L, old);
            lazy_get(L, 1, i);
            return 1;
        }
    }
    keys_pop(L, old);
    return 0;
}

static int world_pairs(lua_State *L)
{
    int old = keys_push(L);
    for (int i = 0; i < N_LAZY; i++) {
        key(L, lazy_keys[i]);
        int t = lua_rawget(L, 1);
        lua_pop(L, 1);
        if (t == LUA_TNIL) {
            lazy_get(L, 1, i);
            lua_pop(L, 1);
        }
    }
    keys_pop(L, old);
    lua_pushliteral(L, "messages");
    int t = lua_rawget(L, 1);
    lua_pop(L, 1);
    if (t == LUA_TNIL) {
        messages_get(L, 1);
        lua_pop(L, 1);
    }
    return bot_pairs_raw(L);
}

int bot_api_engine_table(lua_State *L, int idx)
{
    if (lua_type(L, idx) != LUA_TTABLE)
        return 0;
    idx = lua_absindex(L, idx);
    int old = keys_push(L), which = 0;
    for (int k = K_ME_TABLE; k <= K_OUT_TABLE && !which; k++) {
        key(L, k);
        if (lua_rawequal(L, -1, idx))
            which = k - K_ME_TABLE + 1;
        lua_pop(L, 1);
    }
    keys_pop(L, old);
    return which;
}

int bot_api_push_engine_table(lua_State *L, int which)
{
    if (which < 1 || which > K_OUT_TABLE - K_ME_TABLE + 1)
        return -1;
    int old = keys_push(L);
    key(L, K_ME_TABLE + which - 1);
    keys_pop(L, old);                   /* removes the keys, under it */
    return 0;
}

/* botfield-bots(7) is silent on a field the script set to nil: it means "not set",
 * so the default stays (a bot author clearing a field expects that, not an
 * error). */
static int read_num(lua_State *L, int idx, int kk, const char *k, double *dst, char *msg,
                    size_t n)
{
    key(L, kk);
    int t = lua_rawget(L, idx);
    int rc = 0;
    if (t == LUA_TNUMBER) {
        double d = lua_tonumber(L, -1);
        if (isfinite(d))
            *dst = d;
        else {
            snprintf(msg, n, "out.%s is not a finite number (%s)", k, d != d ? "nan" : d < 0 ? "-inf" : "inf");
            rc = -1;
        }
    } else if (t != LUA_TNIL) {
        snprintf(msg, n, "out.%s is not a finite number (a %s)", k, lua_typename(L, t));
        rc = -1;
    }
    lua_pop(L, 1);
    return rc;
}

int bot_read_out(lua_State *L, int idx, struct bot_out *o, char *msg, size_t n)
{
    const struct bot_view *v = bot_of(L)->view;
    struct bot_out r = { 0, v->speed, v->turret, 0, v->radar };
    idx = lua_absindex(L, idx);
    int old = keys_push(L), rc = 0;
    if (read_num(L, idx, K_TURN, "turn", &r.turn, msg, n)
        || read_num(L, idx, K_SPEED, "speed", &r.speed, msg, n)
        || read_num(L, idx, K_TURRET, "turret", &r.turret, msg, n)
        || read_num(L, idx, K_RADAR, "radar", &r.radar, msg, n))
        rc = -1;
    if (rc == 0) {
        key(L, K_FIRE);
        int t = lua_rawget(L, idx);
        if (t == LUA_TBOOLEAN)
            r.fire = lua_toboolean(L, -1);
        else if (t != LUA_TNIL) {
            snprintf(msg, n, "out.fire is not a boolean (a %s)", lua_typename(L, t));
            rc = -1;
        }
        lua_pop(L, 1);
    }
    keys_pop(L, old);
    if (rc == 0)
        *o = r;
    return rc;
}

/* ---- the built-ins -------------------------------------------------------------- */
static const struct bot_calls *calls(lua_State *L, const char *name, int have)
{
    const struct bot_view *v = bot_of(L)->view;
    if (!v || !v->calls || !have)
        luaL_error(L, "%s is not available for this vehicle", name);
    bot_charge(L, BOT_CALL_COST);
    return v->calls;
}

const struct bot_calls *bot_api_calls(lua_State *L, const char *name)
{
    return calls(L, name, 1);
}

static double checkfinite(lua_State *L, int arg)
{
    double d = luaL_checknumber(L, arg);
    luaL_argcheck(L, isfinite(d), arg, "not a finite number");
    return d;
}

/* The enemy: a table from world.enemies (its id is looked up among this
 * tick's enemies: a stale or forged table is "not seen") or an id. */
static int enemy_handle(lua_State *L, int arg, int *handle)
{
    const struct bot_view *v = bot_of(L)->view;
    const char *id;
    if (lua_type(L, arg) == LUA_TTABLE) {
        lua_pushliteral(L, "id");
        lua_rawget(L, arg);
        id = lua_tostring(L, -1);
        lua_pop(L, 1);  /* the string stays referenced by the table */
    } else {
        id = lua_tostring(L, arg);
    }
    luaL_argcheck(L, id != NULL, arg, "an enemy table (from world.enemies) or its id");
    for (size_t i = 0; i < v->n_enemies; i++)
        if (v->enemies[i].id && !strcmp(v->enemies[i].id, id)) {
            *handle = v->enemies[i].handle;
            return 0;
        }
    return -1;
}

static int do_aim(lua_State *L, int exact)
{
    const char *name = exact ? "aim.exact" : "aim.classic";
    const struct bot_calls *c = calls(L, name, 1);
    int (*fn)(void *, int, double *, double *, const char **) =
        exact ? c->aim_exact : c->aim_classic;
    if (!fn)
        return luaL_error(L, "%s is not available for this vehicle", name);
    int h;
    if (enemy_handle(L, 1, &h) != 0) {
        lua_pushnil(L);
        lua_pushliteral(L, "not seen");
        return 2;
    }
    double dir = 0, t = 0;
    const char *reason = NULL;
    if (fn(bot_of(L)->view->ctx, h, &dir, &t, &reason) != 0) {
        lua_pushnil(L);
        lua_pushstring(L, reason ? reason : "no solution");
        return 2;
    }
    lua_pushnumber(L, dir);
    lua_pushnumber(L, t);
    return 2;
}

static int aim_exact(lua_State *L) { return do_aim(L, 1); }
static int aim_classic(lua_State *L) { return do_aim(L, 0); }

static int push_two(lua_State *L, int rc, double a, double b)
{
    if (rc != 0) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushnumber(L, a);
    lua_pushnumber(L, b);
    return 2;
}

static int do_avoid(lua_State *L, int predictive)
{
    const char *name = predictive ? "avoid.predictive" : "avoid.classic";
    const struct bot_calls *c = calls(L, name, 1);
    int (*fn)(void *, double, double, double *, double *) =
        predictive ? c->avoid_predictive : c->avoid_classic;
    if (!fn)
        return luaL_error(L, "%s is not available for this vehicle", name);
    double h = checkfinite(L, 1), s = checkfinite(L, 2), turn = 0, sp = 0;
    int rc = fn(bot_of(L)->view->ctx, h, s, &turn, &sp);
    return push_two(L, rc, turn, sp);
}

static int avoid_predictive(lua_State *L) { return do_avoid(L, 1); }
static int avoid_classic(lua_State *L) { return do_avoid(L, 0); }

static int do_race(lua_State *L, int exact)
{
    const char *name = exact ? "race.exact" : "race.classic";
    const struct bot_calls *c = calls(L, name, 1);
    int (*fn)(void *, double *, double *) = exact ? c->race_exact : c->race_classic;
    if (!fn)
        return luaL_error(L, "%s is not available for this vehicle", name);
    double turn = 0, sp = 0;
    int rc = fn(bot_of(L)->view->ctx, &turn, &sp);
    return push_two(L, rc, turn, sp);
}

static int race_exact(lua_State *L) { return do_race(L, 1); }
static int race_classic(lua_State *L) { return do_race(L, 0); }

static int race_line(lua_State *L)
{
    const struct bot_calls *c = calls(L, "race.line", 1);
    if (!c->race_line)
        return luaL_error(L, "race.line is not available for this vehicle");
    double turn = 0, sp = 0;
    int rc = c->race_line(bot_of(L)->view->ctx, &turn, &sp);
    return push_two(L, rc, turn, sp);
}

static int b_wander(lua_State *L)
{
    const struct bot_calls *c = calls(L, "wander", 1);
    if (!c->wander)
        return luaL_error(L, "wander is not available for this vehicle");
    double turn = 0, sp = 0;
    int rc = c->wander(bot_of(L)->view->ctx, &turn, &sp);
    return push_two(L, rc, turn, sp);
}

static int hidden_from(lua_State *L)
{
    const struct bot_calls *c = calls(L, "sight.hidden_from", 1);
    if (!c->hidden_from)
        return luaL_error(L, "sight.hidden_from is not available for this vehicle");
    double x = checkfinite(L, 1), y = checkfinite(L, 2), f = 0;
    int rc = c->hidden_from(bot_of(L)->view->ctx, x, y, &f);
    /* A query from far over a big forest goes through thousands of trees
     * (25 us, for the price of a call): charged for what it went through
     * beyond a usual forest's share, after the fact (its work is known
     * then), so one call at most runs over the budget. */
    size_t work = bot_of(L)->view->call_work;
    if (work > BOT_SIGHT_FREE)
        bot_charge(L, (long)((work - BOT_SIGHT_FREE) * BOT_SIGHT_COST));
    if (rc != 0) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushnumber(L, f);
    return 1;
}

/* world.trees(r), also world:trees(r). */
static int w_trees(lua_State *L)
{
    int arg = lua_type(L, 1) == LUA_TTABLE ? 2 : 1;
    const struct bot_calls *c = calls(L, "world.trees", 1);
    if (!c->trees)
        return luaL_error(L, "world.trees is not available for this vehicle");
    double r = checkfinite(L, arg);
    /* The callback looks at every tree of the map: a million of them
     * took 2.5 ms a call, 1 s of a tick in 400 calls at the price of a
     * call each.  Charged before the look, by the map's count (not by r,
     * so the charge is known in advance); a usual forest costs nothing. */
    size_t scan = bot_of(L)->view->trees_total;
    if (scan > BOT_TREES_FREE)
        bot_charge(L, (long)((scan - BOT_TREES_FREE) / 4));
    struct bot_tree t[BOT_TREES_MAX];
    size_t n = c->trees(bot_of(L)->view->ctx, r, t, BOT_TREES_MAX);
    if (n > BOT_TREES_MAX)
        n = BOT_TREES_MAX;
    bot_charge(L, (long)n);
    int old = keys_push(L);
    lua_createtable(L, (int)n, 0);
    for (size_t i = 0; i < n; i++) {
        lua_createtable(L, 0, 3);
        setnum_k(L, K_X, t[i].x);
        setnum_k(L, K_Y, t[i].y);
        setnum_k(L, K_R, t[i].r);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    keys_pop(L, old);
    return 1;
}

/* ---- draw and log ---------------------------------------------------------------- */
/* Shapes past BOT_SHAPES_MAX and log lines past BOT_LOG_LINES in one tick
 * are dropped silently (botfield-bots(7): "at most"); a log line is cut at
 * BOT_LOG_BYTES bytes. */
static struct bot_shape *new_shape(lua_State *L, enum bot_shape_kind k, int color_arg)
{
    struct bot_report *r = bot_of(L)->rep;
    bot_charge(L, 5);
    const char *color = NULL;
    if (color_arg && !lua_isnoneornil(L, color_arg))
        color = luaL_checkstring(L, color_arg);
    if (!r || r->n_shapes >= BOT_SHAPES_MAX)
        return NULL;
    struct bot_shape *s = &r->shapes[r->n_shapes++];
    memset(s, 0, sizeof *s);
    s->kind = k;
    if (color)
        snprintf(s->color, sizeof s->color, "%s", color);
    return s;
}

static int d_line(lua_State *L)
{
    double a = checkfinite(L, 1), b = checkfinite(L, 2), c = checkfinite(L, 3),
           d = checkfinite(L, 4);
    struct bot_shape *s = new_shape(L, BOT_LINE, 5);
    if (s) {
        s->x1 = a; s->y1 = b; s->x2 = c; s->y2 = d;
    }
    return 0;
}

static int d_circle(lua_State *L)
{
    double x = checkfinite(L, 1), y = checkfinite(L, 2), rr = checkfinite(L, 3);
    struct bot_shape *s = new_shape(L, BOT_CIRCLE, 4);
    if (s) {
        s->x1 = x; s->y1 = y; s->x2 = rr;
    }
    return 0;
}

static int d_text(lua_State *L)
{
    double x = checkfinite(L, 1), y = checkfinite(L, 2);
    size_t len;
    const char *t = bot_tostring(L, 3, &len);
    struct bot_shape *s = new_shape(L, BOT_TEXT, 0);
    if (s) {
        s->x1 = x; s->y1 = y;
        snprintf(s->text, sizeof s->text, "%.*s", (int)(len < sizeof s->text ? len : sizeof s->text - 1), t);
    }
    return 0;
}

static int d_mark(lua_State *L)
{
    double x = checkfinite(L, 1), y = checkfinite(L, 2);
    struct bot_shape *s = new_shape(L, BOT_MARK, 3);
    if (s) {
        s->x1 = x; s->y1 = y;
    }
    return 0;
}

/* Appends s to line (at most BOT_LOG_BYTES bytes in all).  A NUL byte
 * becomes U+FFFD (the line is a C string, and the trace writes a byte that
 * is not UTF-8 so); a cut never splits a UTF-8 character, so the trace
 * keeps the text's characters whole.  Returns 0 once the line is full. */
static int put_text(char *line, size_t *at, const char *s, size_t len)
{
    static const char rep[] = "\xEF\xBF\xBD";
    size_t k = 0;
    for (; k < len; k++) {
        size_t need = s[k] ? 1 : 3;
        if (*at + need > BOT_LOG_BYTES)
            break;
        if (s[k])
            line[(*at)++] = s[k];
        else {
            memcpy(line + *at, rep, 3);
            *at += 3;
        }
    }
    if (k == len)
        return 1;
    /* s[k] did not fit: drop the part of its character already copied */
    for (int back = 0; back < 3 && k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80
                       && (unsigned char)s[k - 1] >= 0x80; back++) {
        k--;
        (*at)--;
    }
    return 0;
}

/* log(...): the arguments as tostring gives them, separated by spaces. */
static int b_log(lua_State *L)
{
    struct bot_report *r = bot_of(L)->rep;
    int n = lua_gettop(L);
    char line[BOT_LOG_BYTES + 1];
    size_t at = 0;
    int room = 1;
    for (int i = 1; i <= n; i++) {
        size_t len;
        const char *s = bot_tostring(L, i, &len);
        if (room && i > 1)
            room = put_text(line, &at, " ", 1);
        if (room)
            room = put_text(line, &at, s, len);
        lua_pop(L, 1);
    }
    line[at] = 0;
    bot_charge(L, 1 + (long)(at / 32));
    if (r && r->n_log < BOT_LOG_LINES)
        memcpy(r->log[r->n_log++], line, at + 1);
    return 0;
}

static void lib(lua_State *L, const char *name, const luaL_Reg *fns)
{
    lua_newtable(L);
    luaL_setfuncs(L, fns, 0);
    lua_setglobal(L, name);
}

void bot_api_open(lua_State *L)
{
    static const luaL_Reg aim[] = { { "exact", aim_exact }, { "classic", aim_classic }, { NULL, NULL } };
    static const luaL_Reg avoid[] = { { "predictive", avoid_predictive },
                                      { "classic", avoid_classic }, { NULL, NULL } };
    static const luaL_Reg race[] = { { "exact", race_exact }, { "classic", race_classic },
                                     { "line", race_line }, { NULL, NULL } };
    static const luaL_Reg sight[] = { { "hidden_from", hidden_from }, { NULL, NULL } };
    static const luaL_Reg draw[] = { { "line", d_line }, { "circle", d_circle },
                                     { "text", d_text }, { "mark", d_mark }, { NULL, NULL } };
    lib(L, "aim", aim);
    lib(L, "avoid", avoid);
    lib(L, "race", race);
    lib(L, "sight", sight);
    lib(L, "agent", bot_agent_lib);
    lib(L, "draw", draw);
    lua_register(L, "wander", b_wander);
    lua_register(L, "log", b_log);
    lua_createtable(L, K_SLOTS, 0);
    for (int i = 0; key_names[i]; i++) {
        lua_pushstring(L, key_names[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_createtable(L, 0, 20);
    lua_rawseti(L, -2, K_ME_TABLE);
    lua_createtable(L, 0, 4);
    lua_rawseti(L, -2, K_OUT_TABLE);
    lua_createtable(L, 0, 11);
    lua_createtable(L, 0, 3);
    lua_pushcfunction(L, world_index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, world_pairs);
    lua_setfield(L, -2, "__pairs");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
    lua_rawseti(L, -2, K_WORLD_TABLE);
    refill_open(L, lua_gettop(L));
    bot_of(L)->keys_ref = luaL_ref(L, LUA_REGISTRYINDEX);
}
