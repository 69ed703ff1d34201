/* bot_heap.c — the bot's data as bot_memory counts it: every value the
 * state can still reach, sized by what it holds, never by how Lua laid
 * it out.
 *
 * Lua sizes a table's parts when it rehashes, and when a table that lost
 * keys rehashes depends on where its keys hash, so on a seed Lua draws
 * afresh for every state: the allocator's byte count differed from run to
 * run, and a bot near its limit broke it at another tick.  This count is
 * the same in every run (botfield-bots(7) gives the sizes):
 *   a string      24 bytes + its length + 1
 *   a table       56 bytes + 16 an entry with an integer key, 32 another
 *   a function    32 bytes + 16 an upvalue (the upvalue's value counted
 *                 where it is reached)
 *   a userdata    40 bytes + its size
 * each object once, however many places hold it.  The roots are the
 * registry (globals, mem, the libraries) and the running call's
 * innermost frames.
 *
 * The walk keeps the objects still to visit in a Lua table of its own
 * (skipped by the count), not on the C stack or the Lua stack, so a deep
 * or wide graph is walked in the same bounded way whatever order
 * lua_next gives; the pointers seen are in a C hash set. */
#include <lua.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bot_impl.h"

#define STRING_HEAD 25      /* header and the terminating NUL */
#define TABLE_HEAD 56
#define ENTRY_INT 16
#define ENTRY_OTHER 32
#define FUNCTION_HEAD 32
#define UPVALUE 16
#define USERDATA_HEAD 40

struct walk {
    lua_State *L;
    const void **set;       /* open addressing, NULL empty */
    size_t cap, n;
    int todo;               /* stack index of the work table */
    lua_Integer ntodo;
    size_t bytes;
    int failed;             /* out of C memory */
    const void *keys;       /* bot_api.c's keys table: its slots past
                             * BOT_KEYS_DATA are the engine's, not data */
};

static size_t hash_ptr(const void *p, size_t cap)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x & (cap - 1);
}

static int grow(struct walk *w)
{
    size_t cap = w->cap ? w->cap * 2 : 1024;
    const void **s = calloc(cap, sizeof *s);
    if (!s)
        return -1;
    for (size_t i = 0; i < w->cap; i++)
        if (w->set[i]) {
            size_t h = hash_ptr(w->set[i], cap);
            while (s[h])
                h = (h + 1) & (cap - 1);
            s[h] = w->set[i];
        }
    free(w->set);
    w->set = s;
    w->cap = cap;
    return 0;
}

/* 1 when p is new (now seen), 0 when seen before, -1 out of memory. */
static int first_time(struct walk *w, const void *p)
{
    if ((w->n + 1) * 2 > w->cap && grow(w))
        return -1;
    size_t h = hash_ptr(p, w->cap);
    while (w->set[h]) {
        if (w->set[h] == p)
            return 0;
        h = (h + 1) & (w->cap - 1);
    }
    w->set[h] = p;
    w->n++;
    return 1;
}

/* The value at idx: counted and, for an object that holds others, put on
 * the work table (when seen for the first time). */
static void reach(struct walk *w, int idx)
{
    lua_State *L = w->L;
    int t = lua_type(L, idx);
    if (t != LUA_TSTRING && t != LUA_TTABLE && t != LUA_TFUNCTION && t != LUA_TUSERDATA)
        return;
    int fresh = first_time(w, lua_topointer(L, idx));
    if (fresh < 0)
        w->failed = 1;
    if (fresh <= 0)
        return;
    if (t == LUA_TSTRING) {
        size_t len;
        lua_tolstring(L, idx, &len);
        w->bytes += STRING_HEAD + len;
        return;
    }
    if (t == LUA_TUSERDATA)
        w->bytes += USERDATA_HEAD + lua_rawlen(L, idx);
    else if (t == LUA_TTABLE)
        w->bytes += TABLE_HEAD;
    else
        w->bytes += FUNCTION_HEAD;
    lua_pushvalue(L, idx);
    lua_rawseti(L, w->todo, ++w->ntodo);
}

/* What the object on the top holds: its entries, upvalues, metatable.
 * Pops it. */
static void expand(struct walk *w)
{
    lua_State *L = w->L;
    int o = lua_gettop(L);
    switch (lua_type(L, o)) {
    case LUA_TTABLE:
        lua_pushnil(L);
        while (lua_next(L, o)) {
            if (lua_touserdata(L, -2) == &bot_reg_probe
                || (lua_topointer(L, o) == w->keys && lua_isinteger(L, -2)
                    && lua_tointeger(L, -2) > BOT_KEYS_DATA)) {
                lua_pop(L, 1);  /* the engine's: the probe, the refills */
                continue;
            }
            w->bytes += lua_isinteger(L, -2) ? ENTRY_INT : ENTRY_OTHER;
            reach(w, -2);
            reach(w, -1);
            lua_pop(L, 1);
        }
        break;
    case LUA_TFUNCTION:
        for (int i = 1; lua_getupvalue(L, o, i); i++) {
            w->bytes += UPVALUE;
            reach(w, -1);
            lua_pop(L, 1);
        }
        break;
    case LUA_TUSERDATA:
        for (int i = 1; lua_getiuservalue(L, o, i) != LUA_TNONE; i++) {
            reach(w, -1);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);      /* the LUA_TNONE's nil */
        break;
    }
    if (lua_getmetatable(L, o)) {
        reach(w, -1);
        lua_pop(L, 1);
    }
    lua_settop(L, o - 1);
}

/* The locals, temporaries and varargs of the running call's innermost
 * STACK_LEVELS frames: lua_getstack walks the frames from the innermost
 * for each level, so all of a deep recursion's would cost its depth
 * squared at every count.  The rule is the script's (the same frames in
 * every run); a recursion deeper is held by Lua's own stack limit. */
#define STACK_LEVELS 64

static void reach_stack(struct walk *w)
{
    lua_State *L = w->L;
    lua_Debug ar;
    for (int level = 0; level < STACK_LEVELS && lua_getstack(L, level, &ar); level++) {
        for (int n = 1; lua_getlocal(L, &ar, n); n++) {
            reach(w, -1);
            lua_pop(L, 1);
        }
        for (int n = -1; lua_getlocal(L, &ar, n); n--) {
            reach(w, -1);
            lua_pop(L, 1);
        }
    }
}

int bot_heap_measure(lua_State *L, size_t *bytes)
{
    struct walk w;
    memset(&w, 0, sizeof w);
    w.L = L;
    if (!lua_checkstack(L, 8))
        return -1;
    int top = lua_gettop(L);
    lua_createtable(L, 64, 0);
    w.todo = lua_gettop(L);
    /* the walk's own table is no data of the bot's: seen already */
    if (first_time(&w, lua_topointer(L, w.todo)) < 0) {
        lua_settop(L, top);
        return -1;
    }
    if (lua_rawgeti(L, LUA_REGISTRYINDEX, bot_of(L)->keys_ref) == LUA_TTABLE)
        w.keys = lua_topointer(L, -1);
    lua_pop(L, 1);
    lua_pushvalue(L, LUA_REGISTRYINDEX);
    reach(&w, -1);
    lua_pop(L, 1);
    reach_stack(&w);
    while (w.ntodo > 0 && !w.failed) {
        lua_rawgeti(L, w.todo, w.ntodo);
        lua_pushnil(L);
        lua_rawseti(L, w.todo, w.ntodo--);
        expand(&w);
    }
    lua_settop(L, top);
    free(w.set);
    *bytes = w.bytes;
    return w.failed ? -1 : 0;
}
