/* bot_lib.c — the library a bot sees: Lua's own base, string, table,
 * math and utf8 libraries with the dangerous or non-deterministic names
 * removed, and C replacements where Lua's version would break the
 * sandbox:
 *
 *   pairs, next      fixed key order (booleans, numbers, strings)
 *   tostring         never an address; string.format refuses %p and
 *                    formats %s of tables and functions the same way
 *   setmetatable     refuses __gc and __mode
 *   table.*          raw access, one instruction charged per element
 *                    touched (Lua's own loop in C with a __len of 2^50
 *                    would run for days uncounted), a stable merge sort
 *   string.find      plain only (Lua patterns can run unbounded in C),
 *                    charged by the bytes searched
 *   tonumber, string.byte, string.unpack, utf8.codepoint/len/offset:
 *                    charged by the bytes of their string arguments
 *   math.random      the vehicle's own generator
 *
 * botfield-bots(7) is silent on _G and _VERSION: they stay (a bot author expects
 * them and they open nothing). */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "bot_impl.h"

/* ---- the key order ------------------------------------------------------------ */
static int key_class(int t)
{
    switch (t) {
    case LUA_TBOOLEAN: return 0;
    case LUA_TNUMBER: return 1;
    case LUA_TSTRING: return 2;
    default: return -1;
    }
}

int bot_key_cmp(lua_State *L, int a, int b, int *bad)
{
    int ca = key_class(lua_type(L, a)), cb = key_class(lua_type(L, b));
    if (ca < 0 || cb < 0) {
        *bad = 1;
        return 0;
    }
    if (ca != cb)
        return ca < cb ? -1 : 1;
    if (ca == 0)
        return lua_toboolean(L, a) - lua_toboolean(L, b);
    if (ca == 1) {
        /* Keys are never NaN; int and float compared exactly by Lua. */
        if (lua_rawequal(L, a, b))
            return 0;
        return lua_compare(L, a, b, LUA_OPLT) ? -1 : 1;
    }
    size_t la, lb;
    const char *sa = lua_tolstring(L, a, &la), *sb = lua_tolstring(L, b, &lb);
    int c = memcmp(sa, sb, la < lb ? la : lb);
    if (c)
        return c < 0 ? -1 : 1;
    return la < lb ? -1 : la > lb;
}


static int cmp_num(const struct bot_key *a, const struct bot_key *b)
{
    if (a->isint && b->isint)
        return a->i < b->i ? -1 : a->i > b->i;
    if (!a->isint && !b->isint)
        return a->d < b->d ? -1 : a->d > b->d;
    /* int against float: exact, without rounding the integer */
    const struct bot_key *ik = a->isint ? a : b, *fk = a->isint ? b : a;
    int r;
    double f = fk->d;
    if (f >= 9223372036854775808.0)
        r = -1;
    else if (f < -9223372036854775808.0)
        r = 1;
    else {
        double fl = floor(f);
        lua_Integer fi = (lua_Integer)fl;
        if (ik->i < fi)
            r = -1;
        else if (ik->i > fi)
            r = 1;
        else
            r = fl < f ? -1 : 0;   /* floats with integer values are int keys */
    }
    return a->isint ? r : -r;
}

static int cmp_key(const struct bot_key *a, const struct bot_key *b)
{
    if (a->cls != b->cls)
        return a->cls < b->cls ? -1 : 1;
    if (a->cls == 0)
        return (int)a->i - (int)b->i;
    if (a->cls == 1)
        return cmp_num(a, b);
    int c = memcmp(a->s, b->s, a->len < b->len ? a->len : b->len);
    if (c)
        return c < 0 ? -1 : 1;
    return a->len < b->len ? -1 : a->len > b->len;
}

/* Bottom-up merge sort of n keys with a buffer of n; counts comparisons. */
struct bot_key *bot_keys_sort(struct bot_key *a, struct bot_key *tmp, size_t n, long *cmps)
{
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                ++*cmps;
                tmp[k++] = cmp_key(&a[j], &a[i]) < 0 ? a[j++] : a[i++];
            }
            while (i < mid)
                tmp[k++] = a[i++];
            while (j < hi)
                tmp[k++] = a[j++];
        }
        struct bot_key *t = a;
        a = tmp;
        tmp = t;
    }
    return a;
}

long bot_log2_ceil(size_t n)
{
    long l = 0;
    while (l < 63 && ((size_t)1 << l) < n)
        l++;
    return l;
}

int bot_key_of(lua_State *L, int idx, struct bot_key *e)
{
    e->cls = key_class(lua_type(L, idx));
    e->slot = 0;
    e->s = NULL;
    e->len = 0;
    e->d = 0;
    e->i = 0;
    e->isint = 0;
    if (e->cls == 0)
        e->i = lua_toboolean(L, idx);
    else if (e->cls == 1) {
        e->isint = lua_isinteger(L, idx);
        if (e->isint)
            e->i = lua_tointeger(L, idx);
        else
            e->d = lua_tonumber(L, idx);
    } else if (e->cls == 2)
        e->s = lua_tolstring(L, idx, &e->len);
    return e->cls < 0 ? -1 : 0;
}

static int bad_type_error(lua_State *L, const char *who, int type)
{
    return luaL_error(L, "%s: the table has a key of type %s (keys must be booleans, "
                      "numbers or strings for a fixed order)", who, lua_typename(L, type));
}

static int bad_key(lua_State *L, const char *who, int idx)
{
    return bad_type_error(L, who, lua_type(L, idx));
}

/* Of a table's bad keys the error names the lowest type (table before
 * function), not the first lua_next gives: tables and functions come in
 * the order of their addresses, which differ from run to run. */
static void note_bad(int type, int *bad)
{
    if (key_class(type) < 0 && (*bad < 0 || type < *bad))
        *bad = type;
}

void bot_sorted_keys(lua_State *L, int idx, const char *who)
{
    idx = lua_absindex(L, idx);
    lua_newtable(L);                        /* the keys as collected */
    int raw = lua_gettop(L);
    lua_Integer n = 0;
    int bad = -1;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        if (key_class(lua_type(L, -1)) < 0) {
            note_bad(lua_type(L, -1), &bad);
            continue;
        }
        lua_pushvalue(L, -1);
        lua_rawseti(L, raw, ++n);
    }
    if (bad >= 0)
        bad_type_error(L, who, bad);
    bot_charge(L, (long)n);
    /* The sort is charged n * ceil(log2 n), before it runs (a sort of many
     * long keys with a common prefix is seconds of memcmp the budget must
     * refuse, not pay for afterwards), and not by the comparisons made:
     * those follow the order lua_next gave the keys in, which for string
     * keys follows the state's random hash seed, and the count is in the
     * trace and decides whether the budget breaks. */
    bot_charge(L, (long)n * bot_log2_ceil((size_t)n));
    struct bot_key *k = lua_newuserdatauv(L, (size_t)(n ? n : 1) * 2 * sizeof *k, 0);
    for (lua_Integer i = 0; i < n; i++) {
        lua_rawgeti(L, raw, i + 1);
        bot_key_of(L, -1, &k[i]);   /* a string stays alive in `raw` */
        k[i].slot = i + 1;
        lua_pop(L, 1);
    }
    long cmps = 0;
    struct bot_key *sorted = bot_keys_sort(k, k + n, (size_t)n, &cmps);
    lua_createtable(L, (int)(n < 1 << 24 ? n : 0), 0);
    for (lua_Integer i = 0; i < n; i++) {
        lua_rawgeti(L, raw, sorted[i].slot);
        lua_rawseti(L, -2, i + 1);
    }
    lua_replace(L, raw);
    lua_pop(L, 1);                          /* the userdata */
}

/* ---- pairs and next --------------------------------------------------------- */
/* The iterator walks a snapshot of the sorted keys, skipping keys that were
 * set to nil meanwhile (Lua allows clearing fields while traversing). */
static int pairs_iter(lua_State *L)
{
    lua_Integer i = lua_tointeger(L, lua_upvalueindex(3));
    for (;;) {
        i++;
        if (lua_rawgeti(L, lua_upvalueindex(1), i) == LUA_TNIL) {
            lua_pushinteger(L, i - 1);
            lua_replace(L, lua_upvalueindex(3));
            return 1;
        }
        lua_pushvalue(L, -1);
        if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL) {
            lua_pushinteger(L, i);
            lua_replace(L, lua_upvalueindex(3));
            return 2;
        }
        lua_pop(L, 2);
    }
}

static int b_pairs(lua_State *L)
{
    luaL_checkany(L, 1);
    if (luaL_getmetafield(L, 1, "__pairs") != LUA_TNIL) {
        lua_pushvalue(L, 1);
        lua_call(L, 1, 3);
        return 3;
    }
    return bot_pairs_raw(L);
}

int bot_pairs_raw(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    bot_sorted_keys(L, 1, "pairs");
    lua_pushvalue(L, 1);
    lua_pushinteger(L, 0);
    lua_pushcclosure(L, pairs_iter, 3);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

/* next(t, k): the smallest key after k in the fixed order (the first key
 * when k is nil), found by one pass over the table: costs one instruction
 * per key, so a loop of next over a big table is slow; pairs sorts once. */
static int b_next(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    int have_k = !lua_isnil(L, 2);
    if (have_k && key_class(lua_type(L, 2)) < 0)
        bad_key(L, "next", 2);
    lua_pushnil(L);                         /* 3: best key */
    lua_pushnil(L);                         /* 4: iteration key */
    long n = 0;
    int bad_type = -1;
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        n++;
        int bad = 0;
        if (key_class(lua_type(L, -1)) < 0) {
            note_bad(lua_type(L, -1), &bad_type);
            continue;
        }
        if (have_k && bot_key_cmp(L, -1, 2, &bad) <= 0)
            continue;
        if (lua_isnil(L, 3) || bot_key_cmp(L, -1, 3, &bad) < 0) {
            lua_pushvalue(L, -1);
            lua_replace(L, 3);
        }
    }
    if (bad_type >= 0)
        bad_type_error(L, "next", bad_type);
    bot_charge(L, n);
    if (lua_isnil(L, 3)) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushvalue(L, 3);
    lua_pushvalue(L, 3);
    lua_rawget(L, 1);
    return 2;
}

/* ---- tostring, string.format ------------------------------------------------ */
const char *bot_tostring(lua_State *L, int idx, size_t *len)
{
    idx = lua_absindex(L, idx);
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
    case LUA_TSTRING:
        lua_pushvalue(L, idx);
        break;
    case LUA_TNIL:
        lua_pushliteral(L, "nil");
        break;
    case LUA_TBOOLEAN:
        lua_pushstring(L, lua_toboolean(L, idx) ? "true" : "false");
        break;
    default:
        /* __tostring is the script's own Lua code (counted); __name and
         * the address Lua would print are not used. */
        if (luaL_callmeta(L, idx, "__tostring")) {
            if (!lua_isstring(L, -1))
                luaL_error(L, "'__tostring' must return a string");
        } else {
            lua_pushstring(L, luaL_typename(L, idx));
        }
    }
    return lua_tolstring(L, -1, len);
}

static int b_tostring(lua_State *L)
{
    luaL_checkany(L, 1);
    bot_tostring(L, 1, NULL);
    return 1;
}

/* Scans the format as Lua's str_format does: each '%' conversion but "%%"
 * takes one argument. */
static int b_format(lua_State *L)
{
    size_t fl;
    const char *f = luaL_checklstring(L, 1, &fl), *end = f + fl;
    int arg = 1;
    /* Lua runs strlen() over a %s argument that has a precision ("%.1s")
     * and writes only a few bytes of it: without this charge a long
     * string formatted so in a loop costs one instruction a call. */
    size_t bytes = fl;
    for (int i = 2, n = lua_gettop(L); i <= n; i++)
        if (lua_type(L, i) == LUA_TSTRING) {
            size_t li;
            lua_tolstring(L, i, &li);
            bytes += li;
        }
    bot_charge(L, (long)(bytes / 16));
    while (f < end) {
        if (*f++ != '%')
            continue;
        if (f < end && *f == '%') {
            f++;
            continue;
        }
        arg++;
        while (f < end && strchr("-+ #0123456789.", *f))
            f++;
        if (f >= end)
            break;
        if (*f == 'p')
            return luaL_error(L, "string.format: '%%p' is not available (a bot never sees addresses)");
        if (*f == 's' && arg <= lua_gettop(L) && !lua_isstring(L, arg)) {
            bot_tostring(L, arg, NULL);
            lua_replace(L, arg);
        }
        f++;
    }
    return lua_tocfunction(L, lua_upvalueindex(1))(L);
}

/* ---- setmetatable ----------------------------------------------------------- */
static int b_setmetatable(lua_State *L)
{
    if (lua_type(L, 2) == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL)
            return luaL_error(L, "setmetatable: __gc is not available to bots");
        lua_pop(L, 1);
        lua_pushliteral(L, "__mode");
        if (lua_rawget(L, 2) != LUA_TNIL)
            return luaL_error(L, "setmetatable: __mode (weak tables) is not available to bots");
        lua_pop(L, 1);
    }
    return lua_tocfunction(L, lua_upvalueindex(1))(L);
}

/* ---- table ------------------------------------------------------------------ */
static lua_Integer raw_len(lua_State *L, int idx)
{
    return (lua_Integer)lua_rawlen(L, idx);
}

static int t_insert(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer e = raw_len(L, 1) + 1, pos;
    switch (lua_gettop(L)) {
    case 2:
        pos = e;
        break;
    case 3:
        pos = luaL_checkinteger(L, 2);
        luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)e, 2, "position out of bounds");
        bot_charge(L, (long)(e - pos));
        for (lua_Integer i = e; i > pos; i--) {
            lua_rawgeti(L, 1, i - 1);
            lua_rawseti(L, 1, i);
        }
        break;
    default:
        return luaL_error(L, "wrong number of arguments to 'insert'");
    }
    lua_rawseti(L, 1, pos);
    return 0;
}

static int t_remove(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer size = raw_len(L, 1);
    lua_Integer pos = luaL_optinteger(L, 2, size);
    if (pos != size)    /* as Lua: a position given must be in [1, size + 1] */
        luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 2, "position out of bounds");
    lua_rawgeti(L, 1, pos);
    if (pos < size)
        bot_charge(L, (long)(size - pos));
    for (; pos < size; pos++) {
        lua_rawgeti(L, 1, pos + 1);
        lua_rawseti(L, 1, pos);
    }
    lua_pushnil(L);
    lua_rawseti(L, 1, pos);
    return 1;
}

static int t_move(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer f = luaL_checkinteger(L, 2), e = luaL_checkinteger(L, 3),
                t = luaL_checkinteger(L, 4);
    int tt = !lua_isnoneornil(L, 5) ? 5 : 1;
    luaL_checktype(L, tt, LUA_TTABLE);
    if (e >= f) {
        luaL_argcheck(L, f > 0 || e < LUA_MAXINTEGER + f, 3, "too many elements to move");
        lua_Integer n = e - f + 1;
        luaL_argcheck(L, t <= LUA_MAXINTEGER - n + 1, 4, "destination wrap around");
        bot_charge(L, n > LONG_MAX ? LONG_MAX : (long)n);
        if (t > e || t <= f || (tt != 1 && !lua_rawequal(L, 1, tt))) {
            for (lua_Integer i = 0; i < n; i++) {
                lua_rawgeti(L, 1, f + i);
                lua_rawseti(L, tt, t + i);
            }
        } else {
            for (lua_Integer i = n - 1; i >= 0; i--) {
                lua_rawgeti(L, 1, f + i);
                lua_rawseti(L, tt, t + i);
            }
        }
    }
    lua_pushvalue(L, tt);
    return 1;
}

static int t_concat(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    size_t lsep;
    const char *sep = luaL_optlstring(L, 2, "", &lsep);
    lua_Integer i = luaL_optinteger(L, 3, 1), last = luaL_optinteger(L, 4, raw_len(L, 1));
    if (i <= last)
        bot_charge(L, (lua_Unsigned)last - (lua_Unsigned)i >= (lua_Unsigned)LONG_MAX
                          ? LONG_MAX : (long)(last - i + 1));
    luaL_Buffer bb;
    luaL_buffinit(L, &bb);
    for (; i <= last; i++) {
        lua_rawgeti(L, 1, i);
        if (!lua_isstring(L, -1))
            return luaL_error(L, "invalid value (at index %I) in table for 'concat'",
                              (LUAI_UACINT)i);
        luaL_addvalue(&bb);
        if (i != last)
            luaL_addlstring(&bb, sep, lsep);
        if (i == LUA_MAXINTEGER)
            break;
    }
    luaL_pushresult(&bb);
    return 1;
}

static int t_unpack(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer i = luaL_optinteger(L, 2, 1);
    lua_Integer e = luaL_opt(L, luaL_checkinteger, 3, raw_len(L, 1));
    if (i > e)
        return 0;
    lua_Unsigned n = (lua_Unsigned)e - i;
    if (n >= (unsigned int)INT_MAX || !lua_checkstack(L, (int)(++n)))
        return luaL_error(L, "too many results to unpack");
    bot_charge(L, (long)n);
    for (; i < e; i++)
        lua_rawgeti(L, 1, i);
    lua_rawgeti(L, 1, e);
    return (int)n;
}

/* table.sort: a stable bottom-up merge sort, so any comparator (even an
 * inconsistent one) gives one answer for one input; each comparison costs
 * one instruction besides the comparator's own. */
static int sort_less(lua_State *L, int has_cmp, int a_tab, lua_Integer ai, int b_tab,
                     lua_Integer bi)
{
    bot_charge(L, 1);
    if (has_cmp) {
        lua_pushvalue(L, 2);
        lua_rawgeti(L, a_tab, ai);
        lua_rawgeti(L, b_tab, bi);
        lua_call(L, 2, 1);
        int r = lua_toboolean(L, -1);
        lua_pop(L, 1);
        return r;
    }
    lua_rawgeti(L, a_tab, ai);
    lua_rawgeti(L, b_tab, bi);
    int r = lua_compare(L, -2, -1, LUA_OPLT);
    lua_pop(L, 2);
    return r;
}

static int t_sort(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    int has_cmp = !lua_isnoneornil(L, 2);
    if (has_cmp)
        luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_settop(L, 2);
    lua_Integer n = raw_len(L, 1);
    if (n < 2)
        return 0;
    luaL_argcheck(L, n < INT_MAX, 1, "array too big");
    bot_charge(L, (long)n);
    lua_createtable(L, (int)n, 0);          /* 3: a */
    lua_createtable(L, (int)n, 0);          /* 4: b */
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, 1, i);
        lua_rawseti(L, 3, i);
    }
    int src = 3, dst = 4;
    for (lua_Integer w = 1; w < n; w *= 2) {
        for (lua_Integer lo = 1; lo <= n; lo += 2 * w) {
            lua_Integer mid = lo + w <= n + 1 ? lo + w : n + 1;
            lua_Integer hi = lo + 2 * w <= n + 1 ? lo + 2 * w : n + 1;
            lua_Integer i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                /* take from the right only when strictly less: stable */
                if (sort_less(L, has_cmp, src, j, src, i))
                    lua_rawgeti(L, src, j++);
                else
                    lua_rawgeti(L, src, i++);
                lua_rawseti(L, dst, k++);
            }
            while (i < mid) {
                lua_rawgeti(L, src, i++);
                lua_rawseti(L, dst, k++);
            }
            while (j < hi) {
                lua_rawgeti(L, src, j++);
                lua_rawseti(L, dst, k++);
            }
        }
        int t = src;
        src = dst;
        dst = t;
    }
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, src, i);
        lua_rawseti(L, 1, i);
    }
    return 0;
}

/* ---- string --------------------------------------------------------------------- */
static size_t pos_start(lua_Integer pos, size_t len)
{
    if (pos > 0)
        return (size_t)pos;
    if (pos == 0)
        return 1;
    if (pos < -(lua_Integer)len)
        return 1;
    return len + (size_t)pos + 1;
}

/* string.find(s, needle [, init]): always plain (a fourth argument is
 * accepted and ignored), linear time (memmem), one instruction per 32
 * bytes searched. */
static int s_find(lua_State *L)
{
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = pos_start(luaL_optinteger(L, 3, 1), ls);
    if (init > ls + 1) {
        luaL_pushfail(L);
        return 1;
    }
    bot_charge(L, 1 + (long)((ls - (init - 1)) / 32));
    const char *hit = lp == 0 ? s + init - 1 : memmem(s + init - 1, ls - (init - 1), p, lp);
    if (!hit) {
        luaL_pushfail(L);
        return 1;
    }
    lua_pushinteger(L, (lua_Integer)(hit - s) + 1);
    lua_pushinteger(L, (lua_Integer)(hit - s) + (lua_Integer)lp);
    return 2;
}

/* A wrapper that charges one instruction per 16 bytes of its string
 * arguments before calling the library's function (upvalue 1): for C
 * functions that scan a string without allocating (tonumber, utf8.len,
 * string.unpack's "z"...), which neither the count nor the allocation cap
 * would bound. */
static int charged_by_len(lua_State *L)
{
    size_t l = 0;
    for (int i = 1, n = lua_gettop(L); i <= n; i++)
        if (lua_type(L, i) == LUA_TSTRING) {
            size_t li;
            lua_tolstring(L, i, &li);
            l += li;
        }
    bot_charge(L, 1 + (long)(l / 16));
    return lua_tocfunction(L, lua_upvalueindex(1))(L);
}

static void wrap_by_len(lua_State *L, const char *name)
{
    lua_getfield(L, -1, name);
    lua_pushcclosure(L, charged_by_len, 1);
    lua_setfield(L, -2, name);
}

/* Lua turns a string into a number wherever a C function asks for one
 * (luaL_checkinteger, luaL_checknumber) and in string arithmetic ("1" + 0
 * through the string metatable): a scan of the whole string, uncounted,
 * so a string of a million spaces passed to math.abs in a loop ran up to
 * the CPU backstop.  Every plain C function of a table (no upvalues: the
 * ones wrapped already keep theirs) is charged by its strings' bytes. */
static void wrap_all_by_len(lua_State *L)
{
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        if (lua_iscfunction(L, -1) && !lua_getupvalue(L, -1, 1)) {
            lua_pushvalue(L, -2);           /* key */
            lua_pushvalue(L, -2);           /* the function */
            lua_pushcclosure(L, charged_by_len, 1);
            lua_rawset(L, -5);              /* an existing key: next goes on */
        } else if (lua_iscfunction(L, -1)) {
            lua_pop(L, 1);                  /* the upvalue */
        }
        lua_pop(L, 1);
    }
}

/* string.rep: Lua's loop runs n times even when each copy is empty, so
 * ("").rep(1e15) would spin in C for days where neither the count hook nor
 * the allocation cap can stop it.  An empty piece and an empty separator
 * give "" at once. */
static int s_rep(lua_State *L)
{
    size_t l, lsep;
    luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &lsep);
    if (n <= 0 || (l == 0 && lsep == 0)) {
        lua_pushliteral(L, "");
        return 1;
    }
    /* Lua allocates the whole result before its loop (the caps refuse a
     * bomb there); the copying is then charged by the length made. */
    int nres = lua_tocfunction(L, lua_upvalueindex(1))(L);
    bot_charge(L, 1 + (long)(lua_rawlen(L, -1) / 16));
    return nres;
}

/* utf8.codes returns Lua's iterator, which skips continuation bytes from
 * the position it is given before decoding: called by hand on one long
 * run of 0x80 bytes it scans the run every time, uncounted.  The
 * iterator is wrapped to charge one instruction per 16 bytes skipped. */
static int codes_step(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    lua_Integer n = lua_tointeger(L, 2);
    size_t skip = 0;
    if (n >= 0)
        for (size_t i = (size_t)n; i < len && ((unsigned char)s[i] & 0xC0) == 0x80; i++)
            skip++;
    bot_charge(L, 1 + (long)(skip / 16));
    return lua_tocfunction(L, lua_upvalueindex(1))(L);
}

static int u_codes(lua_State *L)
{
    int nres = lua_tocfunction(L, lua_upvalueindex(1))(L);
    int it = lua_gettop(L) - nres + 1;      /* the iterator Lua returned */
    lua_pushvalue(L, it);
    lua_pushcclosure(L, codes_step, 1);
    lua_replace(L, it);
    return nres;
}

/* ---- math.random ------------------------------------------------------------- */
static uint64_t rnd64(struct rng *r)
{
    uint64_t hi = rng_u32(r);
    return hi << 32 | rng_u32(r);
}

/* Lua 5.4's argument rules: () float in [0,1); (m) integer in [1,m];
 * (m,n) integer in [m,n]; (0) a whole random integer.  The value in a
 * range is drawn by rejection (no modulo bias), so its draws from the
 * generator depend on the range: deterministic all the same. */
static int m_random(lua_State *L)
{
    struct bot *b = bot_of(L);
    struct rng *r = b->view ? b->view->rng : NULL;
    if (!r)
        return luaL_error(L, "math.random is not available outside init and tick");
    lua_Integer low, up;
    switch (lua_gettop(L)) {
    case 0:
        lua_pushnumber(L, rng_unit(r));
        return 1;
    case 1:
        low = 1;
        up = luaL_checkinteger(L, 1);
        if (up == 0) {
            lua_pushinteger(L, (lua_Integer)rnd64(r));
            return 1;
        }
        break;
    case 2:
        low = luaL_checkinteger(L, 1);
        up = luaL_checkinteger(L, 2);
        break;
    default:
        return luaL_error(L, "wrong number of arguments");
    }
    luaL_argcheck(L, low <= up, lua_gettop(L), "interval is empty");
    uint64_t lim = (uint64_t)up - (uint64_t)low, v;
    if (lim == UINT64_MAX) {
        v = rnd64(r);
    } else {
        uint64_t mask = lim;
        mask |= mask >> 1; mask |= mask >> 2; mask |= mask >> 4;
        mask |= mask >> 8; mask |= mask >> 16; mask |= mask >> 32;
        do
            v = (lim <= UINT32_MAX ? rng_u32(r) : rnd64(r)) & mask;
        while (v > lim);
    }
    lua_pushinteger(L, (lua_Integer)((uint64_t)low + v));
    return 1;
}

/* The wrappers above call Lua's own C function (upvalue 1) directly, in
 * their own frame, so its error messages still name the function as the
 * script called it ("bad argument #1 to 'tonumber'"). */

/* ---- opening ---------------------------------------------------------------------- */
static void drop(lua_State *L, const char *name)
{
    lua_pushnil(L);
    lua_setfield(L, -2, name);
}

static void replace(lua_State *L, const char *name, lua_CFunction f, int keep_old)
{
    if (keep_old)
        lua_getfield(L, -1, name);
    lua_pushcclosure(L, f, keep_old);
    lua_setfield(L, -2, name);
}

void bot_lib_open(lua_State *L)
{
    luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
    lua_pop(L, 1);
    luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
    lua_pop(L, 1);
    luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
    lua_pop(L, 1);
    luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
    lua_pop(L, 1);
    luaL_requiref(L, LUA_UTF8LIBNAME, luaopen_utf8, 1);
    lua_pop(L, 1);
    /* The loaded-modules table is not a bot's business (and would let a
     * traceback search every global). */
    lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);

    lua_pushglobaltable(L);
    static const char *const absent[] = {
        "print", "warn", "load", "loadfile", "dofile", "collectgarbage", "xpcall",
        "require", "module", "io", "os", "package", "debug", "coroutine", NULL
    };
    for (int i = 0; absent[i]; i++)
        drop(L, absent[i]);
    replace(L, "pairs", b_pairs, 0);
    replace(L, "next", b_next, 0);
    replace(L, "tostring", b_tostring, 0);
    replace(L, "setmetatable", b_setmetatable, 1);
    wrap_by_len(L, "tonumber");
    wrap_by_len(L, "select");
    wrap_by_len(L, "rawequal");     /* two long equal strings: a memcmp */

    lua_getfield(L, -1, "string");
    drop(L, "dump");
    drop(L, "match");
    drop(L, "gmatch");
    drop(L, "gsub");
    replace(L, "find", s_find, 0);
    replace(L, "format", b_format, 1);
    wrap_by_len(L, "byte");
    wrap_by_len(L, "unpack");
    /* pack's format is scanned in C: a long run of ' ' or '!' produces
     * nothing, so only the count can bound it */
    wrap_by_len(L, "pack");
    wrap_by_len(L, "packsize");
    replace(L, "rep", s_rep, 1);
    wrap_by_len(L, "sub");
    wrap_by_len(L, "char");
    /* The string metatable (s:upper() etc.) is shared by all strings: a
     * script may not change it. */
    lua_pushliteral(L, "");
    lua_getmetatable(L, -1);
    wrap_all_by_len(L);                     /* __add, __unm ... ("1" + 0) */
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 3);

    lua_getfield(L, -1, "table");
    replace(L, "insert", t_insert, 0);
    replace(L, "remove", t_remove, 0);
    replace(L, "move", t_move, 0);
    replace(L, "concat", t_concat, 0);
    replace(L, "unpack", t_unpack, 0);
    replace(L, "sort", t_sort, 0);
    wrap_all_by_len(L);
    lua_pop(L, 1);

    lua_getfield(L, -1, "math");
    drop(L, "randomseed");
    replace(L, "random", m_random, 0);
    wrap_all_by_len(L);
    lua_pop(L, 1);

    lua_getfield(L, -1, "utf8");
    wrap_by_len(L, "codepoint");
    wrap_by_len(L, "len");
    wrap_by_len(L, "offset");
    replace(L, "codes", u_codes, 1);
    wrap_by_len(L, "char");
    lua_pop(L, 1);

    lua_pop(L, 1);      /* _G */
}
