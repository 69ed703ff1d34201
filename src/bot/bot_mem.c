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
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot_impl.h"
#include "core/grow.h"
#include "io/trace_put.h"

struct enc {
    struct bot *bot;
    const void *open[BOT_MEM_DEPTH + 1];    /* the tables on the path: a cycle */
    int nopen;
    long work;              /* keys visited and sort steps, this save */
    int fatal;              /* a limit of the whole save broke: stop at once */
    char *err;
    size_t n;
    char path[160];
    /* out.say (bot_say_encode): named so in messages, and held to what
     * the receiving bots and the trace can take (no engine table, no
     * number JSON cannot write) */
    const char *what;
    int say;
    int too_big;            /* out.say passed BOT_SAY_BYTES: no more is written */
};

/* The walk's work is bounded like a call's budget (a table reached many
 * times is walked each time). */
#define ENC_WORK_MAX BOT_BUDGET_MAX

static int put(struct enc *e, const void *p, size_t len)
{
    struct bot *b = e->bot;
    /* out.say past its size is not an error yet: the walk goes on writing
     * nothing, so that a bad value anywhere is the error reported (the
     * first in the sorted order), whatever order Lua walked the keys in */
    if (e->say && (e->too_big || len > 4 + BOT_SAY_BYTES - b->save_len)) {
        e->too_big = 1;
        return 0;
    }
    size_t max = 2 * b->lim.memory_bytes;
    if (len > max - b->save_len) {
        /* no path: where the walk was depends on Lua's order of keys */
        snprintf(e->err, e->n, "size limit exceeded: written out, mem would take more than "
                 "%zu KiB (twice bot_memory): a string or table it reaches many times is "
                 "written at each place", max / 1024);
        e->fatal = 1;
        return -1;
    }
    if (grow_reserve(&b->save_buf, &b->save_cap, b->save_len + len, 1)) {
        snprintf(e->err, e->n, "out of memory");
        e->fatal = 1;
        return -1;
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

/* Appends ".k" or "[k]" to the path named in an error message (the key
 * at kidx is a boolean, number or string: nothing is converted in Lua). */
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

static int enc_value(struct enc *e, lua_State *L, int idx, int depth);

/* A table, keys in the pairs order.  The walk allocates nothing in the
 * bot's heap (the viewer saves mem every tick and a recording hashes it:
 * Lua garbage made here would move the collector's pace, and with it the
 * tick at which a bot near its bot_memory breaks the limit): lua_next
 * gives the pairs in Lua's own order, each is written as it comes, and
 * the written pieces are then put in the sorted order in C memory.  Of
 * several bad values the one reported is the first in the sorted order,
 * so the message does not follow Lua's per-state hash seed. */
/* The table at idx may be walked: not too deep, not open already (a
 * cycle), room on the stack.  0, or -1 with e->err said. */
static int table_enterable(struct enc *e, lua_State *L, const void *self, int depth)
{
    if (depth >= BOT_MEM_DEPTH) {
        snprintf(e->err, e->n, "%s: tables nested deeper than %d", e->path, BOT_MEM_DEPTH);
        return -1;
    }
    for (int i = 0; i < e->nopen; i++)
        if (e->open[i] == self) {
            snprintf(e->err, e->n, "%s: a cycle (a table that contains itself)", e->path);
            return -1;
        }
    if (!lua_checkstack(L, 4)) {
        snprintf(e->err, e->n, "%s: mem nested too deep", e->path);
        return -1;
    }
    return 0;
}

/* The table's key count into *n, every key of a type with a fixed order,
 * and its keys and sort steps within the work limit.  0, or -1 said. */
static int table_count(struct enc *e, lua_State *L, int idx, size_t *n)
{
    int bad_type = -1;
    *n = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        int t = lua_type(L, -1);
        if (t != LUA_TBOOLEAN && t != LUA_TNUMBER && t != LUA_TSTRING
            && (bad_type < 0 || t < bad_type))
            bad_type = t;
        (*n)++;
    }
    if (bad_type >= 0) {
        snprintf(e->err, e->n, "%s: the table has a key of type %s (keys must be booleans, "
                 "numbers or strings for a fixed order)", e->path, lua_typename(L, bad_type));
        return -1;
    }
    if (*n > UINT32_MAX) {
        snprintf(e->err, e->n, "%s: a table too big", e->path);
        return -1;
    }
    e->work += (long)*n + (long)*n * bot_log2_ceil(*n);
    if (e->work > ENC_WORK_MAX) {
        snprintf(e->err, e->n, "work limit exceeded: more than %ld keys and sort steps to "
                 "save mem (a table reached many times is walked each time)", (long)ENC_WORK_MAX);
        e->fatal = 1;
        return -1;
    }
    return 0;
}

/* Each pair encoded in Lua's order, its bytes' span in seg; the error
 * kept is the lowest-ranked pair's (the one the sorted order meets
 * first), so the message does not depend on Lua's order.  0, or -1
 * said. */
static int enc_pairs(struct enc *e, lua_State *L, int idx, int depth, const size_t *rank,
                     size_t *seg)
{
    char *first = NULL;
    size_t first_rank = SIZE_MAX, i = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        int k = lua_gettop(L) - 1;
        size_t mark = path_push(e, L, k);
        seg[2 * i] = e->bot->save_len;
        int bad = rank[i] < first_rank
                  && (enc_value(e, L, k, depth + 1) || enc_value(e, L, k + 1, depth + 1));
        seg[2 * i + 1] = e->bot->save_len;
        e->path[mark] = 0;
        lua_settop(L, k);
        if (bad && e->fatal)
            break;
        if (bad) {
            free(first);
            first = strdup(e->err);
            first_rank = rank[i];
            if (!first) {
                snprintf(e->err, e->n, "out of memory");
                return -1;
            }
        }
        i++;
    }
    if (e->fatal) {
        free(first);
        return -1;
    }
    int rc = first ? -1 : 0;
    if (first)
        snprintf(e->err, e->n, "%s", first);
    free(first);
    return rc;
}

/* The pieces, written in Lua's order, put in the sorted order (an array
 * in order already, the usual case, stays as it is).  0, or -1 said. */
static int enc_reorder(struct enc *e, const struct bot_key *sorted, const size_t *seg,
                       size_t n)
{
    size_t r0 = 0;
    if (e->too_big)
        return 0;               /* the bytes are incomplete: an error anyway */
    while (r0 < n && sorted[r0].slot == (lua_Integer)r0)
        r0++;
    if (r0 == n)
        return 0;
    size_t from = n ? seg[0] : e->bot->save_len, len = e->bot->save_len - from;
    unsigned char *tmp = malloc(len ? len : 1);
    if (!tmp) {
        snprintf(e->err, e->n, "out of memory");
        return -1;
    }
    size_t at = 0;
    for (size_t r = 0; r < n; r++) {
        size_t s = (size_t)sorted[r].slot, l = seg[2 * s + 1] - seg[2 * s];
        memcpy(tmp + at, e->bot->save_buf + seg[2 * s], l);
        at += l;
    }
    if (len)
        memcpy(e->bot->save_buf + from, tmp, len);
    free(tmp);
    return 0;
}

static int enc_table(struct enc *e, lua_State *L, int idx, int depth)
{
    const void *self = lua_topointer(L, idx);
    size_t n;
    if (table_enterable(e, L, self, depth))
        return -1;
    int base = lua_gettop(L);
    if (table_count(e, L, idx, &n))
        return -1;
    if (put_c(e, 'T') || put_u32(e, (uint32_t)n))
        return -1;
    struct bot_key *keys = malloc((n ? n : 1) * 2 * sizeof *keys);
    size_t *seg = malloc((n ? n : 1) * 2 * sizeof *seg);    /* start, end */
    size_t *rank = malloc((n ? n : 1) * sizeof *rank);
    int rc = -1;
    if (!keys || !seg || !rank) {
        snprintf(e->err, e->n, "out of memory");
        goto out;
    }
    /* the order first (keys only), then the pairs in Lua's order */
    size_t i = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        bot_key_of(L, -1, &keys[i]);    /* a string key stays held by the table */
        keys[i].slot = (lua_Integer)i;
        i++;
    }
    long cmps = 0;
    struct bot_key *sorted = bot_keys_sort(keys, keys + n, n, &cmps);
    for (size_t r = 0; r < n; r++)
        rank[sorted[r].slot] = r;
    e->open[e->nopen++] = self;
    rc = enc_pairs(e, L, idx, depth, rank, seg);
    e->nopen--;
    if (rc == 0)
        rc = enc_reorder(e, sorted, seg, n);
out:
    lua_settop(L, base);
    free(keys);
    free(seg);
    free(rank);
    return rc;
}

static int enc_value(struct enc *e, lua_State *L, int idx, int depth)
{
    idx = lua_absindex(L, idx);
    switch (lua_type(L, idx)) {
    case LUA_TBOOLEAN:
        return put_c(e, lua_toboolean(L, idx) ? 't' : 'f');
    case LUA_TNUMBER:
        if (e->say && !lua_isinteger(L, idx) && !isfinite(lua_tonumber(L, idx))) {
            snprintf(e->err, e->n, "%s is not a finite number (out.say is written to the "
                     "trace as JSON)", e->path);
            return -1;
        }
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
        if (which && e->say) {
            snprintf(e->err, e->n, "%s is the engine's %s table (out.say holds plain data: "
                     "booleans, numbers, strings, tables)", e->path,
                     which == 1 ? "me" : which == 2 ? "world" : "out");
            return -1;
        }
        if (which)
            return put_c(e, 'E') || put_c(e, (char)which);
        return enc_table(e, L, idx, depth);
    }
    default:
        snprintf(e->err, e->n, "%s is a %s (%s holds plain data: booleans, numbers, "
                 "strings, tables)", e->path, luaL_typename(L, idx), e->what);
        return -1;
    }
}

int bot_mem_encode(lua_State *L, int idx, char *err, size_t n)
{
    struct enc e;
    memset(&e, 0, sizeof e);
    e.bot = bot_of(L);
    e.err = err;
    e.n = n;
    e.what = "mem";
    snprintf(e.path, sizeof e.path, "mem");
    e.bot->save_len = 0;
    int rc = put(&e, "BFM1", 4) || enc_value(&e, L, idx, 0);
    return rc ? -1 : 0;
}

/* out.say: the encoding of mem, held to BOT_SAY_BYTES after the 4-byte
 * head, any plain value (not only a table), and no engine table (the
 * bots that read it have their own me, world and out). */
int bot_say_encode(lua_State *L, int idx, char *err, size_t n)
{
    struct enc e;
    memset(&e, 0, sizeof e);
    e.bot = bot_of(L);
    e.err = err;
    e.n = n;
    e.what = "out.say";
    e.say = 1;
    snprintf(e.path, sizeof e.path, "out.say");
    e.bot->save_len = 0;
    int rc = put(&e, "BFM1", 4) || enc_value(&e, L, idx, 0);
    if (!rc && e.too_big) {
        snprintf(err, n, "out.say is more than %d bytes once encoded", BOT_SAY_BYTES);
        rc = -1;
    }
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
        for (uint32_t i = 0; i < n; i++) {
            if (dec_value(d, L, depth + 1, 1))
                return i ? (lua_pop(L, 1), -1) : -1;
            if (i == 0) {
                /* Sized by the first key: keys come in the pairs order, so
                 * a table whose first key is 1 is (mostly) a sequence, and
                 * its values go to the array part, as the script's own
                 * table had them; in the hash part they took twice the
                 * bytes, and a mem that filled the heap did not fit a
                 * fresh state of the same bot_memory (a step back in the
                 * viewer then failed).  Lua moves what is not a sequence
                 * to the hash part when the first such key comes. */
                int seq = lua_isinteger(L, -1) && lua_tointeger(L, -1) == 1;
                lua_createtable(L, seq ? (int)n : 0, seq ? 0 : (int)n);
                lua_insert(L, -2);
            }
            if (dec_value(d, L, depth + 1, 0))
                return lua_pop(L, 2), -1;
            lua_rawset(L, -3);
        }
        if (n == 0)
            lua_createtable(L, 0, 0);
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

int bot_value_decode(lua_State *L, const unsigned char *buf, size_t len)
{
    if (!buf)
        return -1;
    struct dec d = { buf, buf + len };
    char magic[4];
    if (get(&d, magic, 4) || memcmp(magic, "BFM1", 4))
        return -1;
    int top = lua_gettop(L);
    if (dec_value(&d, L, 0, 0) || d.p != d.end) {
        lua_settop(L, top);
        return -1;
    }
    return 0;
}

/* ---- JSON, for the trace's say lines ----------------------------------------- */
/* Skips one value; -1 on bad bytes. */
static int skip_value(struct dec *d, int depth)
{
    unsigned char tag;
    uint32_t n;
    uint64_t u;
    if (depth > BOT_MEM_DEPTH || get(d, &tag, 1))
        return -1;
    switch (tag) {
    case 'f':
    case 't':
        return 0;
    case 'i':
    case 'd':
        return get_u64(d, &u);
    case 's':
        if (get_u32(d, &n) || (size_t)(d->end - d->p) < n)
            return -1;
        d->p += n;
        return 0;
    case 'T':
        if (get_u32(d, &n))
            return -1;
        for (uint32_t i = 0; i < 2 * (uint64_t)n; i++)
            if (skip_value(d, depth + 1))
                return -1;
        return 0;
    default:
        return -1;
    }
}

/* Whether the n pairs at d have the keys 1..n in order (a JSON array). */
static int is_sequence(struct dec d, uint32_t n)
{
    for (uint32_t i = 1; i <= n; i++) {
        unsigned char tag;
        uint64_t u;
        if (get(&d, &tag, 1) || tag != 'i' || get_u64(&d, &u) || u != i
            || skip_value(&d, 1))
            return 0;
    }
    return 1;
}

static int json_value(FILE *f, struct dec *d, int depth, int as_key)
{
    unsigned char tag;
    uint32_t n;
    uint64_t u;
    if (depth > BOT_MEM_DEPTH || get(d, &tag, 1))
        return -1;
    const char *q = as_key ? "\"" : "";
    switch (tag) {
    case 'f':
    case 't':
        fprintf(f, "%s%s%s", q, tag == 't' ? "true" : "false", q);
        return 0;
    case 'i':
        if (get_u64(d, &u))
            return -1;
        fprintf(f, "%s%lld%s", q, (long long)(int64_t)u, q);
        return 0;
    case 'd': {
        double x;
        if (get_u64(d, &u))
            return -1;
        memcpy(&x, &u, sizeof x);
        fputs(q, f);
        trace_put_value(f, x);
        fputs(q, f);
        return 0;
    }
    case 's':
        if (get_u32(d, &n) || (size_t)(d->end - d->p) < n)
            return -1;
        trace_put_strn(f, (const char *)d->p, n);
        d->p += n;
        return 0;
    case 'T': {
        if (as_key || get_u32(d, &n))
            return -1;
        int seq = n > 0 && is_sequence(*d, n);
        fputc(seq ? '[' : '{', f);
        for (uint32_t i = 0; i < n; i++) {
            if (i)
                fputc(',', f);
            if (seq ? skip_value(d, depth + 1) : json_value(f, d, depth + 1, 1))
                return -1;
            if (!seq)
                fputc(':', f);
            if (json_value(f, d, depth + 1, 0))
                return -1;
        }
        fputc(seq ? ']' : '}', f);
        return 0;
    }
    default:
        return -1;
    }
}

int bot_value_json(FILE *f, const unsigned char *buf, size_t len)
{
    if (!buf)
        return -1;
    struct dec d = { buf, buf + len };
    char magic[4];
    if (get(&d, magic, 4) || memcmp(magic, "BFM1", 4) || json_value(f, &d, 0, 0)
        || d.p != d.end)
        return -1;
    return 0;
}
