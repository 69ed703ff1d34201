/* bot.c — one sandboxed Lua state per vehicle: the allocator with its two
 * caps, the instruction-count hook, and the protected calls of the
 * script's top level, init and tick.
 *
 * Every call into the state goes through lua_pcall of a C function, so
 * that a memory error raised while we build `me` and `world` or read
 * `out` back is caught like the script's own errors (an unprotected error
 * would reach Lua's panic handler and abort the program).  The globals,
 * `out` and `mem` are read raw: a script's metatable on _G or on `out`
 * never runs Lua code from here. */
#include <lauxlib.h>
#include <locale.h>
#include <lua.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot_impl.h"

#define DEFAULT_STEP 1000

const char bot_reg_mem = 'M';
const char bot_reg_probe = 'P';

struct bot *bot_of(lua_State *L)
{
    return *(struct bot **)lua_getextraspace(L);
}

static void set_err(char *err, size_t n, const char *fmt, ...)
{
    if (!err || !n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
}

/* An error for the caller of bot_new/bot_reload (a map error that
 * --check prints): control characters of the script or path escaped. */
static void set_err_clean(char *err, size_t n, const char *fmt, ...)
{
    if (!err || !n)
        return;
    char raw[BOT_ERR_BYTES + BOT_ERR_BYTES];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    bot_text_escape(err, n, raw);
}

/* The script's line running now: the innermost Lua function's (a C
 * function charging or allocating has none); 0 when none.  Allocation-
 * free, so the allocator and the hook may ask. */
static int line_now(lua_State *L)
{
    lua_Debug ar;
    for (int level = 0; level < 8 && lua_getstack(L, level, &ar); level++)
        if (lua_getinfo(L, "l", &ar) && ar.currentline > 0)
            return ar.currentline;
    return 0;
}

/* A memory limit broken (1 bot_memory, 2 the tick's allocations): the
 * first in a call names the line the script was at, for the error. */
static void mem_break(struct bot *b, int how)
{
    if (!b->mem_broke && b->caps_on)
        b->mem_line = line_now(b->L);
    b->mem_broke = how;
}

/* ---- the allocator ---------------------------------------------------------
 * bot_memory is kept by a count of the data the script can reach (see
 * memory_check below and bot_heap.c); the allocator keeps the rest:
 *  - the per-call cap (a quarter of bot_memory for a tick, all of it for
 *    the top level and init) on the bytes of objects made (strings,
 *    tables, functions: Lua tells the allocator each one's type, and its
 *    size follows from what it holds), a figure the same in every run;
 *  - a backstop on Lua's own bytes, BOT_HEAP_HARD: a table that keeps the
 *    room of keys it no longer holds is not in the count, and this cap,
 *    where Lua's layout decides, is the only one a script can meet at
 *    another point in another run (botfield-bots(7) says so).
 * Lua's collector is stopped (build()): it runs at the counts only, so
 * which strings are still interned, and so which objects a script's line
 * makes, is the same in every run.  Shrinking never fails (Lua relies on
 * that). */
static size_t heap_hard(const struct bot *b)
{
    return BOT_HEAP_HARD * b->lim.memory_bytes + ((size_t)1 << 20);
}

static void *bot_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    struct bot *b = ud;
    /* a new object: Lua passes its type where a block's old size goes */
    size_t made = !ptr && osize >= LUA_TSTRING && osize <= LUA_NUMTYPES + 1 && !b->walking
                  ? nsize : 0;
    if (!ptr)
        osize = 0;
    if (nsize == 0) {
        free(ptr);
        b->heap -= osize;
        return NULL;
    }
    if (made && b->caps_on && b->tick_new + made > b->tick_cap) {
        mem_break(b, 2);
        return NULL;
    }
    /* the last count found the data over bot_memory: a little more (the
     * engine's me and world, a closure to pcall) until the next count,
     * which comes at the next look */
    if (made && b->metered && b->data > b->lim.memory_bytes
        && b->made_since + made > b->lim.memory_bytes / 32) {
        mem_break(b, 1);
        b->mem_over = 1;
        return NULL;
    }
    if (nsize > osize) {
        size_t grow = nsize - osize;
        /* (the count's own work table is never refused: a memory error
         * raised inside the count would leave it half done) */
        if (b->heap + grow > heap_hard(b) && !b->walking) {
            mem_break(b, 1);
            return NULL;
        }
        void *p = realloc(ptr, nsize);
        if (!p)
            return NULL;
        b->heap += grow;
        if (b->heap > b->heap_peak)
            b->heap_peak = b->heap;
        if (made) {
            b->tick_new += made;
            b->made_since += made;
            if (b->metered)
                b->debt += made;
        }
        return p;
    }
    void *p = realloc(ptr, nsize);
    if (!p)
        return ptr;         /* a failed shrink keeps the bigger block */
    b->heap -= osize - nsize;
    return p;
}

static double cpu_since(const struct timespec *t0);

/* ---- bot_memory's count ----------------------------------------------------
 * The count (a full collection, then bot_heap_measure) runs when the debt
 * since the last one passes a gap: objects made, and for each instruction
 * or charge DEBT_PER_INSTRUCTION bytes (a loop that fills a table adds an
 * entry, 16 bytes, every two instructions).  It is looked at on the script's own clock only: every
 * CHECK_EVERY instructions and at the end of a call, so a bot over its
 * bot_memory is stopped at the same instruction in every run. */
#define DEBT_PER_INSTRUCTION 8
#define CHECK_EVERY 1000

/* Collections as often as the live data is large (twice it made between
 * two, as Lua's own pace), sooner near the limit, but never sooner than
 * an eighth of bot_memory of debt: a count costs the whole data, and a
 * bot that holds its limit would be counted every few thousand
 * instructions (botfield-bots(7): the data may pass bot_memory by about
 * that much before a count stops it). */
static size_t debt_gap(const struct bot *b)
{
    size_t lim = b->lim.memory_bytes, c = b->data;
    size_t room = lim > c ? (lim - c) / 2 : 0;
    if (c > lim)
        return 0;           /* over: counted again at every look until it fits */
    size_t g = c * 2 > ((size_t)64 << 10) ? c * 2 : ((size_t)64 << 10);
    if (g > room)
        g = room;
    /* and at least half a tick's instructions (up to bot_memory): a bot
     * of a big budget holding its limit is counted a few times a tick,
     * not a few times a millisecond */
    size_t tick = (size_t)b->lim.budget * DEBT_PER_INSTRUCTION / 2;
    size_t floor = lim / 8;
    if (floor < (tick < lim ? tick : lim))
        floor = tick < lim ? tick : lim;
    if (g < floor)
        g = floor;
    return g;
}

/* Collects and counts now: 1 when the data is over bot_memory (or could
 * not be counted), else 0. */
static int memory_count(struct bot *b)
{
    size_t bytes = 0;
    /* the count's CPU time is the engine's, not the script's: the 2 s
     * backstop must not fall at a count on one machine and not another */
    struct timespec t0;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    b->walking = 1;
    lua_gc(b->L, LUA_GCCOLLECT);
    int rc = bot_heap_measure(b->L, &bytes);
    b->walking = 0;
    b->debt = 0;
    b->made_since = 0;
    b->data = bytes;
    b->count_cpu += cpu_since(&t0);
    return rc != 0 || bytes > b->lim.memory_bytes;
}

/* The debt brought up to this call's count; a count when due.  1 when
 * the data is over bot_memory. */
static int memory_check(struct bot *b)
{
    if (b->used > b->debt_seen) {
        b->debt += (size_t)(b->used - b->debt_seen) * DEBT_PER_INSTRUCTION;
        b->debt_seen = b->used;
    }
    return b->debt >= debt_gap(b) ? memory_count(b) : 0;
}

/* ---- the count hook ----------------------------------------------------- */
static const char budget_msg[] = "instruction budget exceeded";

static double cpu_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (t.tv_nsec - t0->tv_nsec) * 1e-9;
}

static void count_hook(lua_State *L, lua_Debug *ar);
static void probe_fired(lua_State *L, struct bot *b, lua_Debug *ar);

/* The hook fires just before the armed-th instruction from now runs, so
 * arming at remaining + 1 lets exactly `budget` instructions run. */
static void arm(lua_State *L, struct bot *b)
{
    long rem = b->budget - b->used;
    long a = rem + 1 < b->step ? rem + 1 : b->step;
    if (a < 1)
        a = 1;
    b->armed = a;
    lua_sethook(L, count_hook, LUA_MASKCOUNT, (int)a);
}

static const char memory_msg[] = "memory limit exceeded";

/* Over budget: from now on every instruction raises the error again, so
 * a pcall in the script that catches it cannot go on. */
static int go_over(lua_State *L, struct bot *b)
{
    /* Where the script was, for the report ("x.lua:12: instruction budget
     * exceeded", as any error names its line): the innermost Lua function
     * (a C function charging has none).  Once, and allocation-free. */
    if (!b->over)
        b->over_line = line_now(L);
    b->over = 1;
    b->armed = 1;
    lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
    lua_pushstring(L, budget_msg);
    return lua_error(L);
}

static void count_hook(lua_State *L, lua_Debug *ar)
{
    struct bot *b = bot_of(L);
    if (b->probing) {
        probe_fired(L, b, ar);
        return;
    }
    if (b->over || b->timed_out) {
        lua_pushstring(L, budget_msg);
        lua_error(L);
    }
    b->used += b->armed;
    long before = b->ins;
    b->ins += b->armed;
    /* The CPU clock is a system call on some machines: read it only once a
     * call has run a step of instructions (a short tick never pays). */
    if (!b->clock_on) {
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b->cpu_start);
        b->clock_on = 1;
    } else if (cpu_since(&b->cpu_start) - b->count_cpu > b->cpu_limit) {
        b->timed_out = 1;
        go_over(L, b);
    }
    if (b->used > b->budget)
        go_over(L, b);
    arm(L, b);
    /* Over bot_memory: an error the script may catch (as Lua's own memory
     * errors), to let go of data; the tick is abandoned all the same, and
     * while the data stays over little more can be made (the allocator). */
    if (b->metered && b->ins / CHECK_EVERY != before / CHECK_EVERY && memory_check(b)) {
        b->mem_over = 1;
        mem_break(b, 1);
        lua_pushstring(L, memory_msg);
        lua_error(L);
    }
}

/* ---- the exact count ---------------------------------------------------------
 * The hook fires every `armed` instructions, so what a call ran since the
 * last firing is not counted, and Lua has no call that reads the hook's
 * count left.  The probe runs a loop of known instructions at the end of
 * the call, the hook still armed: where in the loop the hook fires says
 * how many were left, so how many the call ran.  Its instructions sit on
 * lines of their own (LOADI 2, MOVE 3, LOADI 4, FORPREP 5) and the loop's
 * one FORLOOP on line 1, its index the loop's first hidden local. */
static const char probe_src[] = "return function(n) for i =\n1,\nn,\n1\ndo\nend end\n";
#define PROBE_SETUP 4       /* instructions before the first FORLOOP */

/* The hook inside the probe: the count left, then the hook off. */
static void probe_fired(lua_State *L, struct bot *b, lua_Debug *ar)
{
    long ran = -1;          /* the probe's instructions before this one */
    if (lua_getinfo(L, "l", ar) && ar->currentline >= 2 && ar->currentline <= 5)
        ran = ar->currentline - 2;
    else if (lua_getlocal(L, ar, 2)) {
        ran = PROBE_SETUP + (long)lua_tointeger(L, -1) - 1;
        lua_pop(L, 1);
    }
    b->probe_left = ran + 1;
    b->probing = 0;
    lua_sethook(L, NULL, 0, 0);
}

/* Instructions the call ran since the hook last fired (0 when the probe
 * cannot tell). */
static long count_tail(struct bot *b)
{
    lua_State *L = b->L;
    if (!lua_checkstack(L, 4) || lua_rawgetp(L, LUA_REGISTRYINDEX, &bot_reg_probe) != LUA_TFUNCTION) {
        lua_pop(L, 1);
        return 0;
    }
    lua_pushinteger(L, b->armed + 2);
    b->probing = 1;
    b->probe_left = 0;
    if (lua_pcall(L, 1, 0, 0) != LUA_OK)
        lua_pop(L, 1);
    b->probing = 0;
    long tail = b->probe_left > 0 ? b->armed - b->probe_left : 0;
    return tail > 0 ? tail : 0;
}

void bot_charge(lua_State *L, long n)
{
    struct bot *b = bot_of(L);
    if (n < 0)
        n = 0;
    if (n > b->budget - b->used || b->over) {
        b->used = b->budget + 1;
        go_over(L, b);
    }
    b->used += n;
}

/* ---- the message handler -------------------------------------------------
 * C only and allocation-free: it may run with hooks off (an error raised
 * by the count hook runs the handler inside the hook), so it must not run
 * Lua code (no __tostring) and must not need memory the caps refuse. */
static void short_src(char *dst, size_t n, const lua_Debug *ar)
{
    snprintf(dst, n, "%s", ar->short_src);
}

static int msgh(lua_State *L)
{
    struct bot *b = bot_of(L);
    struct bot_report *r = b->rep;
    if (lua_type(L, 1) == LUA_TSTRING) {
        /* NUL bytes written as \0 (one first would hide the rest, and an
         * empty text reads as no error at all) */
        size_t len, at = 0;
        const char *s = lua_tolstring(L, 1, &len);
        for (size_t i = 0; i < len && at + 3 < sizeof r->error; i++) {
            if (s[i]) {
                r->error[at++] = s[i];
            } else {
                r->error[at++] = '\\';
                r->error[at++] = '0';
            }
        }
        r->error[at] = 0;
        if (!at)
            snprintf(r->error, sizeof r->error, "(an empty error message)");
    } else {
        snprintf(r->error, sizeof r->error, "(error object is a %s value)",
                 luaL_typename(L, 1));
    }
    size_t at = 0;
    r->traceback[0] = 0;
    lua_Debug ar;
    for (int level = 1; lua_getstack(L, level, &ar) && level < 24; level++) {
        if (!lua_getinfo(L, "Sln", &ar))
            break;
        char src[LUA_IDSIZE + 1];
        short_src(src, sizeof src, &ar);
        /* as luaL_traceback words it: a name when Lua knows one, else
         * where the function was defined */
        char what[LUA_IDSIZE + 64];
        if (ar.name)
            snprintf(what, sizeof what, "%s '%s'", *ar.namewhat ? ar.namewhat : "function", ar.name);
        else if (*ar.what == 'm')
            snprintf(what, sizeof what, "main chunk");
        else if (*ar.what == 'C')
            snprintf(what, sizeof what, "?");
        else
            snprintf(what, sizeof what, "function <%s:%d>", src, ar.linedefined);
        int w;
        if (ar.currentline > 0)
            w = snprintf(r->traceback + at, sizeof r->traceback - at, "%s%s:%d: in %s",
                         at ? "\n" : "", src, ar.currentline, what);
        else
            w = snprintf(r->traceback + at, sizeof r->traceback - at, "%s[C]: in %s",
                         at ? "\n" : "", what);
        if (w < 0 || (size_t)w >= sizeof r->traceback - at)
            break;
        at += (size_t)w;
    }
    lua_settop(L, 1);
    return 1;
}

/* ---- protected calls ------------------------------------------------------ */
struct call {
    int (*fn)(lua_State *L);
    long budget;
    size_t tick_cap;
};

static void begin(struct bot *b, long budget, size_t tick_cap)
{
    b->budget = budget;
    b->used = 0;
    b->ins = 0;
    b->count_cpu = 0;
    b->debt_seen = 0;
    b->mem_over = 0;
    b->over = 0;
    b->timed_out = 0;
    b->mem_broke = 0;
    b->mem_line = 0;
    b->tick_new = 0;
    b->tick_cap = tick_cap;
    b->caps_on = 1;
    b->cpu_limit = BOT_CPU_SECONDS * (budget > b->lim.budget ? BOT_INIT_FACTOR : 1);
    b->clock_on = 0;
    b->rep->error[0] = 0;
    b->rep->traceback[0] = 0;
    arm(b->L, b);
}

/* ":12" for a line, "" for none: the error's place after the path. */
static const char *at_line(char *buf, size_t n, int line)
{
    buf[0] = 0;
    if (line > 0)
        snprintf(buf, n, ":%d", line);
    return buf;
}

/* Runs fn protected; 0, or -1 with rep->error set (a broken limit named
 * before whatever the script's error handling turned it into).  A
 * metered call is the script's own (its top level, init, tick): bot_memory
 * is counted in it and at its end; the engine's calls (saving and loading
 * mem) change no count, so the viewer, which saves mem every tick, runs a
 * bot as a headless run does. */
static int pcall_fn(struct bot *b, int (*fn)(lua_State *L), long budget, size_t tick_cap,
                    int metered)
{
    lua_State *L = b->L;
    begin(b, budget, tick_cap);
    b->metered = metered;
    int base = lua_gettop(L);
    lua_pushcfunction(L, msgh);
    lua_pushcfunction(L, fn);
    int st = lua_pcall(L, 0, 0, base + 1);
    b->caps_on = 0;
    lua_settop(L, base);
    /* (a call over its budget or time errs at every instruction: counted) */
    long tail = b->over || b->timed_out || !b->exact ? 0 : count_tail(b);
    lua_sethook(L, NULL, 0, 0);
    /* at the end too (a short call never meets the hook); a tick that
     * broke the limit is abandoned even when the data is back under now */
    if (metered && memory_check(b)) {
        b->mem_over = 1;
        b->mem_broke = 1;       /* no line runs now: the error names none */
    }
    b->metered = 0;
    struct bot_report *r = b->rep;
    char at[16];
    if (b->used > b->budget && !b->over)
        b->used = b->budget;
    /* the tail is reported, never added to used: the debt, and so when
     * bot_memory is counted, stays on the hook's steps */
    r->instructions = b->used + tail > b->budget ? b->budget : b->used + tail;
    if (b->mem_over) {
        snprintf(r->error, sizeof r->error, "%s%s: memory limit exceeded (bot_memory %zu KiB)",
                 b->path, at_line(at, sizeof at, b->mem_line), b->lim.memory_bytes / 1024);
        return -1;
    }
    if (b->timed_out) {
        snprintf(r->error, sizeof r->error, "%s: a call ran past %.0f s of CPU time (the bot is disabled)",
                 b->path, b->cpu_limit);
        return -1;
    }
    if (b->over) {
        if (b->over_line > 0)
            snprintf(r->error, sizeof r->error, "%s:%d: instruction budget exceeded (%ld instructions)",
                     b->path, b->over_line, budget);
        else
            snprintf(r->error, sizeof r->error, "%s: instruction budget exceeded (%ld instructions)",
                     b->path, budget);
        return -1;
    }
    if (b->mem_broke) {
        /* Even when the script caught the memory error and went on: a tick
         * that broke a limit is abandoned. */
        if (b->mem_broke == 1)
            snprintf(r->error, sizeof r->error, "%s%s: memory limit exceeded (bot_memory %zu KiB)",
                     b->path, at_line(at, sizeof at, b->mem_line), b->lim.memory_bytes / 1024);
        else
            snprintf(r->error, sizeof r->error,
                     "%s%s: allocation limit exceeded (%zu KiB newly allocated in one tick)",
                     b->path, at_line(at, sizeof at, b->mem_line), tick_cap / 1024);
        return -1;
    }
    if (st == LUA_OK)
        return 0;
    if (st == LUA_ERRMEM)
        snprintf(r->error, sizeof r->error, "%s: not enough memory", b->path);
    else if (!r->error[0])
        snprintf(r->error, sizeof r->error, "%s: error in the error handler", b->path);
    return -1;
}

/* ---- building a state ------------------------------------------------------- */
static int open_all(lua_State *L)
{
    bot_lib_open(L);
    bot_api_open(L);
    lua_newtable(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &bot_reg_mem);
    if (luaL_loadbufferx(L, probe_src, sizeof probe_src - 1, "=(count probe)", "t") != LUA_OK)
        return lua_error(L);
    lua_call(L, 0, 1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &bot_reg_probe);
    return 0;
}

static int run_top(lua_State *L)
{
    struct bot *b = bot_of(L);
    char name[4096];
    snprintf(name, sizeof name, "@%s", b->path);
    int st = luaL_loadbufferx(L, (const char *)b->loading->bytes, b->loading->len, name, "t");
    if (st != LUA_OK) {
        const char *m = lua_tostring(L, -1);
        /* Lua's "attempt to load a binary chunk" names no file. */
        if (m && strncmp(m, b->path, strlen(b->path)) != 0)
            return luaL_error(L, "%s: %s", b->path, m);
        return lua_error(L);
    }
    lua_call(L, 0, 0);
    lua_pushglobaltable(L);
    lua_pushliteral(L, "tick");
    if (lua_rawget(L, -2) != LUA_TFUNCTION)
        return luaL_error(L, "%s: the script defines no global function tick", b->path);
    return 0;
}

static struct bot *build(const struct bot_script *s, struct bot_limits lim,
                         char *err, size_t errlen)
{
    /* a script whose reading failed (bot_script_read left it empty) */
    if (!s->path || !s->bytes) {
        set_err_clean(err, errlen, "%s: no script text", s->path ? s->path : "(no path)");
        return NULL;
    }
    if (lim.budget < BOT_BUDGET_MIN || lim.budget > BOT_BUDGET_MAX
        || lim.memory_bytes < (size_t)BOT_MEMORY_KIB_MIN * 1024
        || lim.memory_bytes > (size_t)BOT_MEMORY_KIB_MAX * 1024) {
        set_err_clean(err, errlen, "%s: bot_budget or bot_memory out of range", s->path);
        return NULL;
    }
    struct bot *b = calloc(1, sizeof *b);
    if (!b || !(b->path = strdup(s->path))) {
        free(b);
        set_err_clean(err, errlen, "%s: out of memory", s->path);
        return NULL;
    }
    b->lim = lim;
    b->step = DEFAULT_STEP;
    b->rep = &b->scratch;
    b->L = lua_newstate(bot_alloc, b);
    if (!b->L) {
        set_err_clean(err, errlen, "%s: out of memory (bot_memory too small for a Lua state)", s->path);
        free(b->path);
        free(b);
        return NULL;
    }
    *(struct bot **)lua_getextraspace(b->L) = b;
    /* The collector runs at bot_memory's counts only (the allocator's
     * comment says why). */
    lua_gc(b->L, LUA_GCSTOP);
    if (pcall_fn(b, open_all, lim.budget, lim.memory_bytes, 0) != 0) {
        set_err_clean(err, errlen, "%s: bot_memory too small for the bot library", s->path);
        bot_free(b);
        return NULL;
    }
    b->loading = s;
    int rc = pcall_fn(b, run_top, lim.budget * BOT_INIT_FACTOR, lim.memory_bytes, 1);
    b->loading = NULL;
    if (rc != 0) {
        set_err_clean(err, errlen, "%s", b->rep->error);
        bot_free(b);
        return NULL;
    }
    return b;
}

struct bot *bot_new(const struct bot_script *s, struct bot_limits lim, char *err,
                    size_t errlen)
{
    /* Lua's `a < b` on strings calls strcoll(): with the user's locale
     * (main.c takes LC_ALL from the environment) the same bot would sort
     * differently on another machine.  botfield-bots(7) is silent; we pin
     * collation to byte order for the whole process, which shows nothing
     * else sorted by locale. */
    setlocale(LC_COLLATE, "C");
    return build(s, lim, err, errlen);
}

void bot_free(struct bot *b)
{
    if (!b)
        return;
    if (b->L)
        lua_close(b->L);
    free(b->path);
    free(b);
}

void bot_set_exact_count(struct bot *b, int on)
{
    b->exact = on;
}

void bot_set_count_step(struct bot *b, int step)
{
    b->step = step < 1 ? 1 : step;
}

int bot_disabled(const struct bot *b)
{
    return b->disabled;
}

void bot_run_state_get(const struct bot *b, struct bot_run_state *st)
{
    st->in_row = b->in_row;
    st->disabled = b->disabled;
    snprintf(st->reason, sizeof st->reason, "%s", b->disabled_reason);
    st->data = b->data;
    st->debt = b->debt;
}

void bot_run_state_set(struct bot *b, const struct bot_run_state *st)
{
    b->in_row = st->in_row;
    b->disabled = st->disabled;
    b->announce = 0;
    snprintf(b->disabled_reason, sizeof b->disabled_reason, "%s", st->reason);
    b->data = st->data;
    b->debt = st->debt;
}

void bot_disable(struct bot *b, const char *reason)
{
    b->disabled = 1;
    b->announce = 1;
    snprintf(b->disabled_reason, sizeof b->disabled_reason, "%s", reason);
}

const char *bot_lua_version(void)
{
    return LUA_RELEASE;
}

/* ---- init and tick ---------------------------------------------------------- */
/* me (and world and out) refilled with the count hook off: the refill's
 * instructions are the engine's, not the script's.  It runs first in the
 * protected call, before any of the script's, so arming again gives the
 * count begin() set. */
static void refill(lua_State *L, struct bot *b, int tick)
{
    lua_sethook(L, NULL, 0, 0);
    bot_refill(L, b->view, tick);
    arm(L, b);
}

static int call_init(lua_State *L)
{
    struct bot *b = bot_of(L);
    lua_pushglobaltable(L);
    lua_pushliteral(L, "init");
    if (lua_rawget(L, -2) != LUA_TFUNCTION)
        return 0;
    refill(L, b, 0);                        /* me */
    lua_rawgetp(L, LUA_REGISTRYINDEX, &bot_reg_mem);
    lua_call(L, 2, 0);
    return 0;
}

int bot_init(struct bot *b, const struct bot_view *v, char *err, size_t n)
{
    b->view = v;
    b->rep = &b->scratch;
    memset(&b->scratch, 0, sizeof b->scratch);
    int rc = pcall_fn(b, call_init, b->lim.budget * BOT_INIT_FACTOR, b->lim.memory_bytes, 1);
    if (rc != 0)
        set_err(err, n, "%s", b->rep->error);
    if (b->timed_out) {
        b->disabled = 1;
        snprintf(b->disabled_reason, sizeof b->disabled_reason, "%s", b->rep->error);
    }
    b->view = NULL;
    return rc;
}

const struct bot_report *bot_init_report(const struct bot *b)
{
    return &b->scratch;
}

/* out.say (out at index 2), encoded into b->said; nil says nothing.
 * 0, or -1 with out_msg (the tick's error: its intents abandoned). */
static int read_say(lua_State *L, struct bot *b)
{
    lua_pushliteral(L, "say");
    int rc = 0;
    if (lua_rawget(L, 2) != LUA_TNIL) {
        b->save_buf = NULL;
        b->save_cap = 0;
        if (bot_say_encode(L, lua_gettop(L), b->out_msg, sizeof b->out_msg)) {
            rc = -1;
        } else if (!b->save_buf) {      /* (never: the head is written first) */
            snprintf(b->out_msg, sizeof b->out_msg, "out.say: out of memory");
            rc = -1;
        } else {
            memcpy(b->said, b->save_buf, b->save_len);
            b->said_len = b->save_len;
        }
        free(b->save_buf);
        b->save_buf = NULL;
        b->save_len = b->save_cap = 0;
    }
    lua_pop(L, 1);
    return rc;
}

const unsigned char *bot_said(const struct bot *b, size_t *len)
{
    *len = b->said_len;
    return b->said_len ? b->said : NULL;
}

static int call_tick(lua_State *L)
{
    struct bot *b = bot_of(L);
    lua_pushglobaltable(L);                 /* 1 */
    refill(L, b, 1);                        /* 2 out, 3 me, 4 world */
    lua_pushliteral(L, "tick");
    if (lua_rawget(L, 1) != LUA_TFUNCTION)
        return luaL_error(L, "%s: tick is no longer a function", b->path);
    lua_insert(L, 3);                       /* 3 tick, 4 me, 5 world */
    lua_rawgetp(L, LUA_REGISTRYINDEX, &bot_reg_mem);
    lua_pushvalue(L, 2);
    lua_call(L, 4, 0);
    b->out_bad = bot_read_out(L, 2, &b->out, b->out_msg, sizeof b->out_msg);
    if (!b->out_bad)
        b->out_bad = read_say(L, b);
    return 0;
}

static void defaults(const struct bot_view *v, struct bot_out *o)
{
    o->turn = 0;
    o->speed = v->speed;
    o->turret = v->turret;
    o->fire = 0;
    o->radar = v->radar;
}

int bot_tick(struct bot *b, const struct bot_view *v, struct bot_out *out,
             struct bot_report *rep)
{
    /* Only the counts and the first byte of each text: the report is 35 KB
     * of buffers and a tick must stay cheap. */
    rep->instructions = 0;
    rep->abandoned = 0;
    rep->error[0] = 0;
    rep->traceback[0] = 0;
    rep->n_log = 0;
    rep->n_shapes = 0;
    rep->abandoned_in_row = 0;
    rep->disabled = 0;
    rep->disabled_reason[0] = 0;
    rep->count_step = b->step;
    b->said_len = 0;
    defaults(v, out);
    if (b->disabled) {
        out->speed = 0;
        rep->disabled = 1;
        rep->abandoned = 1;
        rep->abandoned_in_row = b->in_row;
        snprintf(rep->disabled_reason, sizeof rep->disabled_reason, "%s", b->disabled_reason);
        if (b->announce) {
            b->announce = 0;
            set_err(rep->error, sizeof rep->error, "%s: bot disabled until its script is reloaded: %s",
                    b->path, b->disabled_reason);
        }
        rep->heap = b->heap;
        rep->heap_peak = b->heap_peak;
        rep->data = b->data;
        return -1;
    }
    b->view = v;
    b->rep = rep;
    b->out_bad = 0;
    int rc = pcall_fn(b, call_tick, b->lim.budget, b->lim.memory_bytes / 4, 1);
    free(b->save_buf);          /* a say's walk cut short by an error */
    b->save_buf = NULL;
    b->save_len = b->save_cap = 0;
    if (rc == 0 && b->out_bad) {
        set_err(rep->error, sizeof rep->error, "%s: %s", b->path, b->out_msg);
        rc = -1;
    }
    if (rc != 0)
        b->said_len = 0;        /* an abandoned tick says nothing */
    if (rc == 0)
        *out = b->out;
    b->view = NULL;
    b->rep = &b->scratch;
    rep->heap = b->heap;
    rep->heap_peak = b->heap_peak;
    rep->data = b->data;
    if (rc == 0) {
        b->in_row = 0;
        rep->abandoned_in_row = 0;
        return 0;
    }
    rep->abandoned = 1;
    b->in_row++;
    rep->abandoned_in_row = b->in_row;
    if (b->in_row >= BOT_DISABLE_AFTER || b->timed_out) {
        b->disabled = 1;
        if (b->timed_out)
            snprintf(b->disabled_reason, sizeof b->disabled_reason, "%s", rep->error);
        else
            set_err(b->disabled_reason, sizeof b->disabled_reason,
                     "%d abandoned ticks in a row; the last: %s", b->in_row, rep->error);
        rep->disabled = 1;
        snprintf(rep->disabled_reason, sizeof rep->disabled_reason, "%s", b->disabled_reason);
        set_err(rep->error, sizeof rep->error, "%s: bot disabled until its script is reloaded: %s",
                 b->path, b->disabled_reason);
        out->speed = 0;
    }
    return -1;
}

/* ---- mem ---------------------------------------------------------------------- */
static int call_save(lua_State *L)
{
    struct bot *b = bot_of(L);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &bot_reg_mem);
    if (bot_mem_encode(L, lua_gettop(L), b->save_err, sizeof b->save_err) != 0 && !b->save_err[0])
        snprintf(b->save_err, sizeof b->save_err, "out of memory");
    return 0;
}

int bot_mem_save(struct bot *b, unsigned char **buf, size_t *len, char *err, size_t n)
{
    b->save_buf = NULL;
    b->save_len = 0;
    b->save_cap = 0;
    b->save_err[0] = 0;
    b->rep = &b->scratch;
    int rc = pcall_fn(b, call_save, BOT_BUDGET_MAX, b->lim.memory_bytes, 0);
    if (rc != 0 || b->save_err[0] || !b->save_buf) {
        free(b->save_buf);
        b->save_buf = NULL;
        set_err_clean(err, n, "%s: mem cannot be saved: %s", b->path,
                b->save_err[0] ? b->save_err : b->rep->error);
        return -1;
    }
    *buf = b->save_buf;
    *len = b->save_len;
    b->save_buf = NULL;
    return 0;
}

static int call_load(lua_State *L)
{
    struct bot *b = bot_of(L);
    if (bot_mem_decode(L, b->load_buf, b->load_len) != 0)
        return luaL_error(L, "bad mem data");
    lua_rawsetp(L, LUA_REGISTRYINDEX, &bot_reg_mem);
    return 0;
}

int bot_mem_load(struct bot *b, const unsigned char *buf, size_t len)
{
    b->load_buf = buf;
    b->load_len = len;
    b->rep = &b->scratch;
    size_t then = b->data, debt = b->debt;
    /* mem as the state held it, which a count may have found over
     * bot_memory (the tick then broke it): rebuilt whole, and the next
     * tick's count says the same again */
    if (pcall_fn(b, call_load, BOT_BUDGET_MAX, SIZE_MAX, 0))
        return -1;
    /* The rebuilt state may hold more than the one saved (its top level
     * made globals that one had dropped; a table reached twice in mem is
     * two now): over bot_memory and over what it held then, it does not
     * fit.  The next count comes when it would have (then, debt). */
    int over = memory_count(b);
    size_t now = b->data;
    b->data = then > now ? then : now;
    b->debt = debt;
    if (over && now > then) {
        snprintf(b->scratch.error, sizeof b->scratch.error, "%s: the rebuilt state holds %zu KiB "
                 "of data, more than bot_memory (%zu KiB) and than it held then (%zu KiB)",
                 b->path, now / 1024, b->lim.memory_bytes / 1024, then / 1024);
        return -1;
    }
    return 0;
}

/* ---- reload ------------------------------------------------------------------- */
int bot_reload(struct bot *b, const struct bot_script *s, char *err, size_t n)
{
    struct bot *nb = build(s, b->lim, err, n);
    if (!nb)
        return -1;
    unsigned char *m = NULL;
    size_t mlen = 0;
    if (bot_mem_save(b, &m, &mlen, err, n) != 0) {
        bot_free(nb);
        return -1;
    }
    if (bot_mem_load(nb, m, mlen) != 0) {
        set_err_clean(err, n, "%s: mem does not fit the new state: %s", s->path, nb->scratch.error);
        free(m);
        bot_free(nb);
        return -1;
    }
    free(m);
    /* Swap the states; the struct (the caller's handle) stays. */
    lua_State *oldL = b->L;
    char *oldpath = b->path;
    size_t oldheap = b->heap;
    b->L = nb->L;
    b->path = nb->path;
    b->heap = nb->heap;
    b->heap_peak = nb->heap_peak;
    b->data = nb->data;
    b->debt = 0;
    int keys_ref = b->keys_ref;         /* bot_api.c's tables go with their state */
    b->keys_ref = nb->keys_ref;
    nb->keys_ref = keys_ref;
    *(struct bot **)lua_getextraspace(b->L) = b;
    lua_setallocf(b->L, bot_alloc, b);
    nb->L = oldL;
    nb->path = oldpath;
    nb->heap = oldheap;
    *(struct bot **)lua_getextraspace(oldL) = nb;
    lua_setallocf(oldL, bot_alloc, nb);
    bot_free(nb);
    b->disabled = 0;
    b->announce = 0;
    b->in_row = 0;
    b->disabled_reason[0] = 0;
    return 0;
}
