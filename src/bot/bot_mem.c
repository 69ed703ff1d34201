/* bot_mem.c — `mem` as plain data: a byte string that rebuilds the same
 * tables in a fresh state (step back, reload, replay).
 *
 *   value := 'f' | 't' | 'i' int64-LE | 'd' double-bits-LE | 's' len bytes
 *          | 'T' count (key value)*        keys in the pairs order
 *   len, count := uint32-LE;  the whole: "BFM1" value
 *
 * Integers and floats stay apart ('i' and 'd'), so 3 and 3.0 come back as
 * they went.  A table reached twice (not a cycle) is written twice: mem is
 * data, not a graph.  Metatables are not kept.
 *
 * The bytes are built in a malloc'd buffer held by the bot (freed by the
 * caller even when a Lua error cuts the walk short).  A string or table
 * that mem reaches many times is one object in the heap but written at
 * each place, so the buffer could outgrow the heap a thousandfold (2000
 * references to a 256 KiB string: 512 MiB, every time the viewer's
 * history saves mem) outside every cap: it is capped at twice
 * bot_memory.  Plain data without sharing never needs that much: the
 * heap holds each value in at least as many bytes as it is written in,
 * but for an array of integers (16 bytes a slot, 18 written). */
#include <lauxlib.h>
#include <lua.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot_impl.h"

struct enc {
    struct bot *bot;
    int seen;               /* stack index of the tables being written */
    char *err;
    size_t n;
    char path[160];
};

static int put(struct enc *e, const void *p, size_t len)
{
    struct bot *b = e->bot;
    size_t max = 2 * b->lim.memory_bytes;
    if (len > max - b->save_len) {
        snprintf(e->err, e->n, "%s: written out, mem would exceed %zu KiB (twice bot_memory): "
                 "a string or table it reaches many times is written at each place",
                 e->path, max / 1024);
        return -1;
    }
    if (b->save_len + len > b->save_cap) {
        size_t cap = b->save_cap ? b->save_cap : 256;
        while (cap < b->save_len + len)
            cap *= 2;
        unsigned char *nb = realloc(b->save_buf, cap);
        if (!nb) {
            snprintf(e->err, e->n, "out of memory");
            return -1;
        }
        b->save_buf = nb;
        b->save_cap = cap;
    }
    memcpy(b->save_buf + b->save_len, p, len);
    b->save_len += len;
    return 0;
}

static int put_u32(struct enc *e, uint32_t v)
{
    unsigned char c[4] = { (unsigned char)v, (unsigned char)(v >> 8),
                           (unsigned char)(v >> 16), (unsigned char)(v >> 24) };
    return put(e, c, 4);
}

static int put_u64(struct enc *e, uint64_t v)
{
    return put_u32(e, (uint32_t)v) || put_u32(e, (uint32_t)(v >> 32));
}

static int put_c(struct enc *e, char c)
{
    return put(e, &c, 1);
}

/* Appends ".k" or "[k]" to the path named in an error message. */
static size_t path_push(struct enc *e, lua_State *L, int kidx)
{
    size_t mark = strlen(e->path), room = sizeof e->path - mark;
    if (lua_type(L, kidx) == LUA_TSTRING)
        snprintf(e->path + mark, room, ".%s", lua_tostring(L, kidx));
    else if (lua_isinteger(L, kidx))
        snprintf(e->path + mark, room, "[%lld]", (long long)lua_tointeger(L, kidx));
    else if (lua_type(L, kidx) == LUA_TNUMBER)
        snprintf(e->path + mark, room, "[%.14g]", lua_tonumber(L, kidx));
    else
        snprintf(e->path + mark, room, "[%s]", lua_toboolean(L, kidx) ? "true" : "false");
    return mark;
}

static int enc_value(struct enc *e, lua_State *L, int idx, int depth)
{
    idx = lua_absindex(L, idx);
    switch (lua_type(L, idx)) {
    case LUA_TBOOLEAN:
        return put_c(e, lua_toboolean(L, idx) ? 't' : 'f');
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx))
            return put_c(e, 'i') || put_u64(e, (uint64_t)lua_tointeger(L, idx));
        else {
            double d = lua_tonumber(L, idx);
            uint64_t u;
            memcpy(&u, &d, sizeof u);
            return put_c(e, 'd') || put_u64(e, u);
        }
    case LUA_TSTRING: {
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        if (len > UINT32_MAX) {
            snprintf(e->err, e->n, "%s: a string too long", e->path);
            return -1;
        }
        return put_c(e, 's') || put_u32(e, (uint32_t)len) || put(e, s, len);
    }
    case LUA_TTABLE: {
        /* me, world, out themselves: kept as references (bot_impl.h) */
        int which = bot_api_engine_table(L, idx);
        if (which)
            return put_c(e, 'E') || put_c(e, (char)which);
        break;
    }
    default:
        snprintf(e->err, e->n, "%s is a %s (mem holds plain data: booleans, numbers, "
                 "strings, tables)", e->path, luaL_typename(L, idx));
        return -1;
    }
    if (depth >= BOT_MEM_DEPTH) {
        snprintf(e->err, e->n, "%s: tables nested deeper than %d", e->path, BOT_MEM_DEPTH);
        return -1;
    }
    lua_pushvalue(L, idx);
    if (lua_rawget(L, e->seen) != LUA_TNIL) {
        snprintf(e->err, e->n, "%s: a cycle (a table that contains itself)", e->path);
        lua_pop(L, 1);
        return -1;
    }
    lua_pop(L, 1);
    lua_pushvalue(L, idx);
    lua_pushboolean(L, 1);
    lua_rawset(L, e->seen);
    luaL_checkstack(L, 4, "mem nested too deep");
    bot_sorted_keys(L, idx, "mem");
    int keys = lua_gettop(L);
    lua_Integer n = (lua_Integer)lua_rawlen(L, keys);
    if (n > UINT32_MAX || put_c(e, 'T') || put_u32(e, (uint32_t)n)) {
        if (n > UINT32_MAX)
            snprintf(e->err, e->n, "%s: a table too big", e->path);
        return -1;
    }
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, keys, i);
        int k = lua_gettop(L);
        size_t mark = path_push(e, L, k);
        lua_pushvalue(L, k);
        lua_rawget(L, idx);
        if (enc_value(e, L, k, depth + 1) || enc_value(e, L, k + 1, depth + 1))
            return -1;
        e->path[mark] = 0;
        lua_settop(L, keys);
    }
    lua_settop(L, keys - 1);
    /* off the path again: the same table may appear elsewhere (not a cycle) */
    lua_pushvalue(L, idx);
    lua_pushnil(L);
    lua_rawset(L, e->seen);
    return 0;
}

int bot_mem_encode(lua_State *L, int idx, char *err, size_t n)
{
    struct enc e = { bot_of(L), 0, err, n, "mem" };
    idx = lua_absindex(L, idx);
    lua_newtable(L);
    e.seen = lua_gettop(L);
    e.bot->save_len = 0;
    int rc = put(&e, "BFM1", 4) || enc_value(&e, L, idx, 0);
    lua_settop(L, e.seen - 1);
    return rc ? -1 : 0;
}

/* ---- decoding ---------------------------------------------------------------- */
struct dec {
    const unsigned char *p, *end;
};

static int get(struct dec *d, void *dst, size_t len)
{
    if ((size_t)(d->end - d->p) < len)
        return -1;
    memcpy(dst, d->p, len);
    d->p += len;
    return 0;
}

static int get_u32(struct dec *d, uint32_t *v)
{
    unsigned char c[4];
    if (get(d, c, 4))
        return -1;
    *v = (uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 | (uint32_t)c[3] << 24;
    return 0;
}

static int get_u64(struct dec *d, uint64_t *v)
{
    uint32_t lo, hi;
    if (get_u32(d, &lo) || get_u32(d, &hi))
        return -1;
    *v = (uint64_t)hi << 32 | lo;
    return 0;
}

/* Pushes one value; -1 (nothing pushed) on bad bytes.  Keys must be
 * booleans, numbers (not NaN) or strings. */
static int dec_value(struct dec *d, lua_State *L, int depth, int is_key)
{
    unsigned char tag;
    if (get(d, &tag, 1))
        return -1;
    switch (tag) {
    case 'f':
    case 't':
        lua_pushboolean(L, tag == 't');
        return 0;
    case 'i': {
        uint64_t u;
        if (get_u64(d, &u))
            return -1;
        lua_pushinteger(L, (lua_Integer)u);
        return 0;
    }
    case 'd': {
        uint64_t u;
        double x;
        if (get_u64(d, &u))
            return -1;
        memcpy(&x, &u, sizeof x);
        if (is_key && x != x)
            return -1;
        lua_pushnumber(L, x);
        return 0;
    }
    case 's': {
        uint32_t len;
        if (get_u32(d, &len) || (size_t)(d->end - d->p) < len)
            return -1;
        lua_pushlstring(L, (const char *)d->p, len);
        d->p += len;
        return 0;
    }
    case 'E': {
        unsigned char which;
        if (is_key || depth == 0 || get(d, &which, 1))    /* mem itself is never one */
            return -1;
        return bot_api_push_engine_table(L, which);
    }
    case 'T': {
        uint32_t n;
        if (is_key || depth >= BOT_MEM_DEPTH || get_u32(d, &n) || n > (size_t)(d->end - d->p) / 2)
            return -1;
        luaL_checkstack(L, 4, "mem nested too deep");
        lua_createtable(L, 0, (int)n);
        for (uint32_t i = 0; i < n; i++) {
            if (dec_value(d, L, depth + 1, 1))
                return lua_pop(L, 1), -1;
            if (dec_value(d, L, depth + 1, 0))
                return lua_pop(L, 2), -1;
            lua_rawset(L, -3);
        }
        return 0;
    }
    default:
        return -1;
    }
}

int bot_mem_decode(lua_State *L, const unsigned char *buf, size_t len)
{
    if (!buf)
        return -1;
    struct dec d = { buf, buf + len };
    char magic[4];
    if (get(&d, magic, 4) || memcmp(magic, "BFM1", 4))
        return -1;
    int top = lua_gettop(L);
    if (dec_value(&d, L, 0, 0) || d.p != d.end || lua_type(L, -1) != LUA_TTABLE) {
        lua_settop(L, top);
        return -1;
    }
    return 0;
}
