/* test-bot-attack — a stranger's scripts against the bots' sandbox: each
 * attack found by reading Lua 5.4's C library for loops, recursion and
 * state that the sandbox's rules might miss.  Every check asserts that
 * the attack is stopped: this program survives, the tick is abandoned
 * with the error named, or the result is the same in two fresh states. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../lib/bot-fixture.h"
#include "../lib/tap.h"

static struct fixture fx;
static struct bot_report rep;
static struct bot_out out;
static char err[1024];

/* The process's CPU seconds: the bounds below are on the work a limit
 * lets through (the CPU backstop counts CPU time too), which the wall
 * clock of a loaded machine overstates (11 s for 2 s of CPU seen under
 * a full parallel suite). */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* One tick of a fresh bot running body inside tick(); rc of bot_tick,
 * -2 when the script did not load.  The time taken goes to *dt. */
static size_t memory_bytes;     /* the next runs' bot_memory; 0: the default */

static int once(const char *body, double *dt)
{
    char lua[8192];
    snprintf(lua, sizeof lua, "function tick(me, world, mem, out)\n out.turn = 5\n%s\nend", body);
    fixture_init(&fx, 1);
    err[0] = 0;
    double t0 = now();
    struct bot *b = fixture_bot(lua, 0, memory_bytes, err, sizeof err);
    int rc = -2;
    if (b) {
        rc = bot_tick(b, &fx.view, &out, &rep);
        bot_free(b);
    } else {
        tap_note("did not load: %s", err);
    }
    if (dt)
        *dt = now() - t0;
    return rc;
}

/* The tick must be abandoned quickly (well before the 2 s CPU backstop)
 * with one of `want`'s '|'-separated words in its error and the default intents kept. */
static void stopped(const char *body, const char *want)
{
    double dt;
    int rc = once(body, &dt);
    check_int(rc, ==, -1);
    check(rep.abandoned);
    check_num(out.turn, ==, 0);
    check_num(dt, <, 1.0);
    int found = 0;
    char alt[256];
    snprintf(alt, sizeof alt, "%s", want);
    for (char *w = strtok(alt, "|"); w; w = strtok(NULL, "|"))
        found |= strstr(rep.error, w) != NULL;
    if (!found)
        tap_note("%s\n  error %s, want %s", body, rep.error, want);
    check(found);
}

/* The tick must run to its end and log exactly `want` as its first line. */
static void logs(const char *body, const char *want)
{
    double dt;
    int rc = once(body, &dt);
    if (rc != 0)
        tap_note("%s\n  rc %d: %s", body, rc, rep.error);
    check_int(rc, ==, 0);
    check_num(dt, <, 1.0);
    check_int(rep.n_log, >=, 1);
    if (rep.n_log >= 1 && strcmp(rep.log[0], want) != 0)
        tap_note("%s", body);
    check_str(rep.n_log >= 1 ? rep.log[0] : "", want);
}

/* The same script gives the same log lines in two fresh states (whose
 * string hashes have different seeds). */
static void same_in_two_states(const char *lua, int ticks)
{
    char first[BOT_LOG_LINES][BOT_LOG_BYTES + 1];
    int n = -1;
    for (int run = 0; run < 2; run++) {
        fixture_init(&fx, 7);
        struct bot *b = fixture_bot(lua, 0, 0, err, sizeof err);
        check(b != NULL);
        if (!b) {
            tap_note("%s", err);
            return;
        }
        for (int t = 0; t < ticks; t++)
            check_int(bot_tick(b, &fx.view, &out, &rep), ==, 0);
        if (run == 0) {
            n = rep.n_log;
            memcpy(first, rep.log, sizeof first);
        } else {
            check_int(rep.n_log, ==, n);
            for (int i = 0; i < n && i < rep.n_log; i++)
                check_str(rep.log[i], first[i]);
        }
        bot_free(b);
    }
    check_int(n, >, 0);
}

TEST(string_rep_of_nothing)
{
    /* Lua's str_rep loops n times even when each copy is empty: without
     * the wrapper this spins in C for years, out of the hook's reach. */
    logs("log('[' .. string.rep('', math.maxinteger) .. ']')", "[]");
    logs("log('[' .. ('').rep('', 1e15, '') .. ']')", "[]");
    logs("log(string.rep('ab', 3, ',') .. string.rep('x', 0) .. string.rep('x', -5))", "ab,ab,ab");
    /* non-empty: the copying is charged; a bomb is refused by the caps */
    stopped("while true do local s = string.rep('x', 4000) end", "budget|limit exceeded");
    stopped("local s = string.rep('x', 1e12)", "too large|limit exceeded");
    stopped("local s = string.rep('x', math.maxinteger, 'y')", "too large");
}

TEST(utf8_codes_iterator)
{
    /* The iterator skips continuation bytes from the position given:
     * called by hand on a long run of them it rescans the run each time. */
    stopped("local s = 'a' .. string.rep('\\x80', 200000)\n"
            "local f = utf8.codes('a')\n"
            "while true do f(s, 1) end", "budget");
    logs("local t = {} for p, c in utf8.codes('h\\u{e9}\\u{20ac}!') do t[#t + 1] = p .. ':' .. c end\n"
         "log(table.concat(t, ' '))", "1:104 2:233 4:8364 7:33");
}

TEST(string_pack_format_scan)
{
    /* a format of spaces or '!' is scanned in C and produces nothing */
    stopped("local f = string.rep(' ', 200000)\nwhile true do string.pack(f) end", "budget");
    stopped("local f = string.rep('!', 200000)\nwhile true do string.packsize(f) end", "budget");
    logs("log(#string.pack('<i4 d s1', 7, 0.5, 'hi') .. ' ' .. string.packsize('i4i8'))", "15 12");
    /* oversized items are refused, not allocated */
    stopped("string.pack('c2000000000', '')", "limit exceeded");
    stopped("string.packsize(string.rep('c2000000000', 10))", "too large");
}

TEST(select_and_unpack_many_values)
{
    logs("local t = {} for i = 1, 2000 do t[i] = i end\n"
         "log(select('#', table.unpack(t)) .. ' ' .. select(-1, table.unpack(t)))", "2000 2000");
    stopped("local t = {} for i = 1, 1000 do t[i] = i end\n"
            "while true do select('#', table.unpack(t)) end", "budget");
    stopped("select('#', table.unpack({}, 1, 1e8))", "too many results");
    stopped("local s = string.rep('x', 3000000) select('#', s:byte(1, -1))",
            "too long|limit exceeded");
    stopped("select(0, 1)", "out of range");
}

TEST(c_stack_recursion)
{
    /* every C function that calls back into Lua: the C stack is bounded
     * by Lua (LUAI_MAXCCALLS) and the error abandons the tick */
    stopped("local mt = {} mt.__tostring = function(t) return tostring(t) end\n"
            "tostring(setmetatable({}, mt))", "overflow");
    stopped("local mt = {} mt.__tostring = function(t) return string.format('%s', t) end\n"
            "string.format('%s', setmetatable({}, mt))", "overflow");
    stopped("local t = {3, 2, 1}\n"
            "local function c(a, b) table.sort(t, c) return a < b end\n"
            "table.sort(t, c)", "overflow");
    stopped("local mt = {} mt.__index = function(t, k) return t[k] end\n"
            "local x = setmetatable({}, mt).a", "overflow");
    stopped("local mt = {} mt.__newindex = function(t, k, v) t[k] = v end\n"
            "setmetatable({}, mt).a = 1", "overflow");
    stopped("local mt = {} mt.__eq = function(a, b) return a == b end\n"
            "local x = setmetatable({}, mt) == setmetatable({}, mt)", "overflow");
    stopped("local mt = {} mt.__lt = function(a, b) return a < b end\n"
            "local x = setmetatable({}, mt) < setmetatable({}, mt)", "overflow");
    stopped("local mt = {} mt.__le = function(a, b) return a <= b end\n"
            "local x = setmetatable({}, mt) <= setmetatable({}, mt)", "overflow");
    stopped("local mt = {} mt.__concat = function(a, b) return a .. b end\n"
            "local x = setmetatable({}, mt) .. 'x'", "overflow");
    stopped("local mt = {} mt.__len = function(a) return #a end\n"
            "local x = #setmetatable({}, mt)", "overflow");
    /* a tail call through __call does not grow the stack: the count stops it */
    stopped("local mt = {} mt.__call = function(f) return f() end\n"
            "setmetatable({}, mt)()", "budget");
    stopped("local mt = {} mt.__call = function(f) return (f()) end\n"
            "setmetatable({}, mt)()", "overflow|limit exceeded|budget exceeded");
    stopped("local mt = {} mt.__unm = function(a) return -a end\n"
            "local x = -setmetatable({}, mt)", "overflow");
    stopped("local function f() local x <close> = setmetatable({}, {__close = f}) end f()",
            "overflow");
    stopped("local function f(n) return pcall(f, n + 1) end f(1) error('after')", "after");
    /* Lua frames only: the call stack is no data bot_memory counts, so
     * the budget, Lua's stack limit or the backstop on Lua's bytes stops it */
    stopped("local function f(n) return f(n + 1) + 1 end f(1)",
            "overflow|limit exceeded|budget exceeded");
}

TEST(integer_edges)
{
    /* no trap (SIGFPE) and Lua's defined results */
    logs("log(table.concat({math.mininteger // -1, math.mininteger % -1,\n"
         " math.fmod(math.mininteger, -1), math.abs(math.mininteger),\n"
         " math.maxinteger + 1 == math.mininteger and 'wrap' or 'no',\n"
         " tostring(math.tointeger(2^63)), 7 // 0.0, -7 % math.huge}, ' '))",
         "-9223372036854775808 0 0 -9223372036854775808 wrap nil inf inf");
    stopped("local x = 1 // 0", "divide by zero");
    stopped("local x = 1 % 0", "'n%0'");
    stopped("local x = math.fmod(1, 0)", "zero");
    stopped("local x = string.format('%d', 2^63)", "integer representation");
    stopped("local x = math.random(math.maxinteger, math.mininteger)", "interval is empty");
    logs("log(math.random(math.mininteger, math.maxinteger) ~= nil and 'ok' or 'no')", "ok");
}

TEST(nan_keys_and_sorts)
{
    stopped("local t = {} t[0/0] = 1", "NaN");
    stopped("rawset({}, 0/0, 1)", "NaN");
    logs("local t = {} log(tostring(t[0/0]) .. ' ' .. tostring(rawget(t, 0/0)))", "nil nil");
    /* NaN elements and comparators that lie: one answer in any state */
    const char *sorts =
        "function tick(me, w, mem, out)\n"
        " local t = {5, 0/0, 3, 1, 0/0, 4, 2} table.sort(t)\n"
        " for i = 1, #t do t[i] = t[i] ~= t[i] and 'n' or t[i] end log(table.concat(t, ','))\n"
        " t = {} for i = 1, 50 do t[i] = math.random(1, 9) end\n"
        " table.sort(t, function(a, b) return math.random() < 0.5 end) log(table.concat(t, ''))\n"
        " t = {3, 1, 2} table.sort(t, function(a, b) return true end) log(table.concat(t, ','))\n"
        "end";
    same_in_two_states(sorts, 3);
    stopped("table.sort({3, 2, 1}, function(a, b) error({}) end)", "table value");
    stopped("table.sort({3, 'x', 1})", "compare");
}

TEST(error_objects)
{
    stopped("error()", "nil value");
    stopped("error(nil)", "nil value");
    stopped("error(false)", "boolean value");
    stopped("error(42)", "number value");
    stopped("error(print or error)", "function value");
    stopped("error(setmetatable({}, {__tostring = function() while true do end end,\n"
            " __name = 'X'}))", "table value");
    stopped("error(setmetatable({}, {__index = function() while true do end end}))", "table value");
    stopped("error(string.rep('e', 100000))", "eeee");
    /* caught, rethrown, changed: the last one is reported */
    stopped("local ok, e = pcall(error, {}) error(type(e) .. ' caught')", "table caught");
    /* an error inside __close while another unwinds */
    stopped("do local x <close> = setmetatable({}, {__close = function() error('in close') end})\n"
            " error('first') end", "in close");
}

TEST(tostring_and_tonumber)
{
    /* __name never shows, nor an address; __tostring must give a string */
    logs("local t = setmetatable({}, {__name = 'Secret'})\n"
         "log(tostring(t) .. ' ' .. string.format('%s|%5s|%-6s|', t, print or 'n', {}))",
         "table table|    n|table |");
    stopped("tostring(setmetatable({}, {__tostring = function() return {} end}))",
            "must return a string");
    stopped("local x = setmetatable({}, {__name = 'Secret'}) + 1", "arithmetic");
    stopped("tostring()", "bad argument");
    logs("log(table.concat({tonumber('0x10'), tonumber('z', 36), tostring(tonumber('1e500')),\n"
         " tostring(tonumber(' 10 ')), tostring(tonumber('10', 99 // 99 + 1))}, ' '))",
         "16 35 inf 10 2");
    stopped("local s = string.rep('7', 500000) while true do tonumber(s, 10) end", "budget");
}

TEST(formatting_is_fixed)
{
    /* the same text on any machine with IEEE doubles and glibc (musl prints
     * subnormals with %a differently: none here) */
    logs("log(string.format('%a %g %.3f %5.1e %q %i', 0.1, 1e20, 2/3, 12345.678, 1/3, 3))",
         "0x1.999999999999ap-4 1e+20 0.667 1.2e+04 0x1.5555555555555p-2 3");
    logs("log(table.concat({tostring(1e15), tostring(2^53), tostring(-0.0), tostring(3),\n"
         " tostring(3.0), tostring(1/0), tostring(-1/0), 10 // 3, 10 / 2, 2^63}, ' '))",
         "1e+15 9.007199254741e+15 -0.0 3 3.0 inf -inf 3 5.0 9.2233720368548e+18");
    stopped("string.format('%p', {})", "not available");
    stopped("string.format('%10p', 1)", "not available");
    stopped("string.format('%100d', 1)", "invalid conversion");
}

TEST(huge_things)
{
    /* tables grow by entries, counted by bot_memory (16 or 32 bytes
     * each): with 256 KiB they fill it long before the budget */
    memory_bytes = 256 * 1024;
    stopped("local t = {} for i = 1, 1e8 do t[i] = i end", "memory limit exceeded");
    stopped("local t = {} local i = 0 while true do i = i + 1 t['k' .. i] = i end", "limit exceeded");
    memory_bytes = 0;
    stopped("local s = 'x' while true do s = s .. s end", "limit exceeded");
    stopped("local t = {} for i = 1, 1000 do t[i] = 'xxxxxxxxxxxxxxxx' end\n"
            "while true do table.concat(t, string.rep(',', 1000)) end", "limit exceeded");
    stopped("local ok = pcall(string.rep, 'x', 1e9) error(ok and 'made' or 'refused')", "limit exceeded");
    stopped("table.concat({}, '', 1, math.maxinteger)", "budget");
    stopped("table.insert({}, math.maxinteger, 1)", "out of bounds");
    stopped("table.move({1}, math.mininteger, -1, 1)", "too many elements");
}

TEST(state_across_ticks_and_bots)
{
    /* a bot that wrecks its own library and string methods hurts only
     * itself: the other bot in the same process still has them */
    fixture_init(&fx, 1);
    struct bot *a = fixture_bot("function tick(me, w, mem, out)\n"
                                " secret = 'A' string.upper = nil string.format = nil\n"
                                " table.sort = nil math.random = nil _G.pairs = nil\n"
                                " local ok = pcall(function() return ('x'):upper() end)\n"
                                " log(ok and 'upper' or 'no upper')\n"
                                " log(tostring(getmetatable('')))\n"
                                " log(tostring(pcall(setmetatable, '', {})))\n"
                                "end", 0, 0, err, sizeof err);
    struct bot *b = fixture_bot("function tick(me, w, mem, out)\n"
                                " log(tostring(secret) .. ' ' .. ('x'):upper() .. ' ' ..\n"
                                "     string.format('%d', 3) .. ' ' .. type(pairs))\n"
                                "end", 0, 0, err, sizeof err);
    check(a && b);
    if (a && b) {
        for (int t = 0; t < 2; t++) {
            check_int(bot_tick(a, &fx.view, &out, &rep), ==, 0);
            check_str(rep.log[0], "no upper");
            check_str(rep.log[1], "false");
            check_str(rep.log[2], "false");
            check_int(bot_tick(b, &fx.view, &out, &rep), ==, 0);
            check_str(rep.log[0], "nil X 3 function");
        }
    }
    bot_free(a);
    bot_free(b);
}

TEST(pairs_while_mutating)
{
    /* keys added or removed during a traversal: a fixed answer */
    const char *lua =
        "t = {}\n"
        "function tick(me, w, mem, out)\n"
        " for i = 1, 30 do t['k' .. math.random(1, 60)] = i end\n"
        " local seen = {}\n"
        " for k, v in pairs(t) do seen[#seen + 1] = k\n"
        "  t['n' .. v] = v t[k] = nil\n"
        "  if #seen > 20 then break end end\n"
        " log(table.concat(seen, ','):sub(1, 200))\n"
        " local k, n = next(t), 0 while k and n < 50 do n = n + 1 k = next(t, k) end\n"
        " log(tostring(next(t)) .. ' ' .. n)\n"
        "end";
    same_in_two_states(lua, 4);
}

/* One bot tick of `lua` with `budget`: abandoned, by the budget or the
 * CPU backstop, in bounded time, and the program goes on. */
static void backstopped(const char *lua, long budget, size_t memory)
{
    fixture_init(&fx, 1);
    double t0 = now();
    struct bot *b = fixture_bot(lua, budget, memory, err, sizeof err);
    check(b != NULL);
    if (!b) {
        tap_note("did not load: %s", err);
        return;
    }
    int rc = bot_tick(b, &fx.view, &out, &rep);
    double dt = now() - t0;
    tap_note("%s (%.2f s)", rep.error, dt);
    check_int(rc, ==, -1);
    check(rep.abandoned);
    check(strstr(rep.error, "budget") != NULL || strstr(rep.error, "CPU") != NULL);
    check_num(dt, <, 10.0);
    bot_free(b);
}

TEST(long_string_compare_is_backstopped)
{
    /* Comparing two equal long strings is one instruction for Lua but a
     * memcmp of their length: the count cannot see it, the CPU backstop
     * stops it (the bot is disabled), and the program goes on. */
    backstopped("a = string.rep('x', 900000) b = string.rep('x', 900000)\n"
                "function tick(me, w, mem, out)\n"
                " while true do local _ = a == b end end", 0, 0);
}

TEST(vararg_copies_are_backstopped)
{
    /* A ... of 6000 values is copied whole each time it is passed on, for
     * one instruction: 0.17 s a tick at the default budget, and with the
     * largest budget the CPU backstop stops it (botfield-bots(7)). */
    backstopped("local function spin(...) while true do local n = select('#', ...) end end\n"
                "function tick(me, w, mem, out) spin(string.byte(string.rep('x', 6000), 1, -1)) end",
                BOT_BUDGET_MAX, 16 << 20);
}

TEST(index_chains_are_backstopped)
{
    /* A missing key looked up through 1995 tables linked by __index is one
     * instruction: the default budget takes most of a second, the largest
     * one reaches the CPU backstop (botfield-bots(7)). */
    backstopped("local t = {} for i = 1, 1995 do t = setmetatable({}, {__index = t}) end\n"
                "function tick(me, w, mem, out) while true do local x = t.missing end end",
                BOT_BUDGET_MAX, 0);
}

TEST(emptied_table_scans_are_backstopped)
{
    /* A table keeps its slots after its keys are cleared (Lua shrinks it
     * only when it grows again): pairs and next, charged by the keys they
     * find, scan every empty slot uncounted.  131072 slots cost one next()
     * 50 us, so the default budget of next() calls took 0.8 s; with a big
     * bot_budget the CPU backstop stops it and the program goes on (pairs
     * allocates its snapshot each call: the allocation cap stops it first). */
    static const char *const loops[] = {
        "while true do local k = next(t) end",
        "while true do for k in pairs(t) do end end",
    };
    for (size_t i = 0; i < sizeof loops / sizeof loops[0]; i++) {
        char lua[512];
        snprintf(lua, sizeof lua, "t = {} for i = 1, 100000 do t[i] = true end\n"
                 "for i = 1, 100000 do t[i] = nil end\n"
                 "function tick(me, w, mem, out)\n %s end", loops[i]);
        fixture_init(&fx, 1);
        double t0 = now();
        struct bot *b = fixture_bot(lua, BOT_BUDGET_MAX, 0, err, sizeof err);
        check(b != NULL);
        if (!b)
            return;
        int rc = bot_tick(b, &fx.view, &out, &rep);
        double dt = now() - t0;
        tap_note("%s (%.2f s)", rep.error, dt);
        check_int(rc, ==, -1);
        check(rep.abandoned);
        check(strstr(rep.error, "budget") != NULL || strstr(rep.error, "CPU") != NULL
              || strstr(rep.error, "limit exceeded") != NULL);
        check_num(dt, <, 10.0);
        bot_free(b);
    }
}

TEST(world_trees_on_a_big_forest)
{
    /* world.trees(r) examines every tree of the map (up to a million) for
     * the price of a call: 400 calls on a million trees took 1 s of a
     * tick.  Beyond BOT_TREES_FREE trees each call is charged for them. */
    fixture_init(&fx, 1);
    struct bot *b = fixture_bot("function tick(me, w, mem, out)\n"
                                " for i = 1, 3 do w.trees(1) end end", 0, 0, err, sizeof err);
    check(b != NULL);
    if (!b)
        return;
    fx.view.trees_total = 1000000;
    check_int(bot_tick(b, &fx.view, &out, &rep), ==, -1);
    check(strstr(rep.error, "budget") != NULL);
    int calls = fx.calls;
    /* a small forest costs the call only */
    fx.view.trees_total = BOT_TREES_FREE;
    check_int(bot_tick(b, &fx.view, &out, &rep), ==, 0);
    check_int(fx.calls - calls, ==, 3);
    bot_free(b);
    /* sight.hidden_from from far over a big forest: the callback reports
     * the trees and spans it went through (this fixture's never does, so
     * the figure set here stands for every call) */
    b = fixture_bot("function tick(me, w, mem, out)\n"
                    " for i = 1, 10 do sight.hidden_from(1e5, 1e5) end end", 0, 0, err, sizeof err);
    check(b != NULL);
    if (!b)
        return;
    fx.view.trees_total = 0;
    fx.view.call_work = 5000;
    check_int(bot_tick(b, &fx.view, &out, &rep), ==, -1);
    check(strstr(rep.error, "budget") != NULL);
    fx.view.call_work = BOT_SIGHT_FREE;
    check_int(bot_tick(b, &fx.view, &out, &rep), ==, 0);
    fx.view.call_work = 0;
    bot_free(b);
}

TEST(bad_key_errors_fixed)
{
    /* pairs and next named the type of the first bad key lua_next gave
     * them, and tables and functions as keys come in the order of their
     * addresses: the error (in the trace) changed from run to run.  They
     * name the lowest type now (table before function). */
    for (int run = 0; run < 10; run++) {
        double dt;
        int rc = once("local t = {a = 1}\n"
                      "for i = 1, 20 do t[{}] = i t[function() end] = i end\n"
                      "local _, e1 = pcall(pairs, t) local _, e2 = pcall(next, t)\n"
                      "local _, e3 = pcall(next, t, 'a')\n"
                      "log(e1) log(e2) log(e3)", &dt);
        check_int(rc, ==, 0);
        check_int(rep.n_log, ==, 3);
        for (int i = 0; i < rep.n_log && i < 3; i++)
            if (!strstr(rep.log[i], "key of type table")) {
                tap_note("run %d: %s", run, rep.log[i]);
                check(0);
            }
    }
}

TEST(string_to_number_scans)
{
    /* a string where a number is wanted is scanned whole by Lua (leading
     * spaces are allowed: this one is the number 1) */
    const char *mk = "local s = string.rep(' ', 300000) .. '1'\n";
    static const char *const loops[] = {
        "while true do math.abs(s) end",
        "while true do local x = s + 0 end",
        "while true do local x = -s end",
        "while true do select(s, 1) end",
        "while true do string.sub('abc', s) end",
        "while true do string.char(s) end",
        "while true do utf8.char(s) end",
        "while true do table.unpack({}, s, 0) end",
        "while true do rawequal(s, s .. '') end",
    };
    for (size_t i = 0; i < sizeof loops / sizeof loops[0]; i++) {
        char body[512];
        snprintf(body, sizeof body, "%s%s", mk, loops[i]);
        stopped(body, "budget|limit exceeded");
    }
    logs("log(math.abs('  -3 ') .. ' ' .. ('2' + 1) .. ' ' .. ('7' // '2') .. ' ' .. -'4' .. ' '\n"
         " .. select('2', 'a', 'b') .. ' ' .. ('abc'):sub('2') .. ' ' .. math.max(1, 5, 3))",
         "3.0 3 3 -4 b bc 5");
    stopped("local x = math.abs('x')", "bad argument #1 to 'abs'");
}

TEST(format_precision_scan)
{
    /* "%.1s" of a long string: Lua scans it all (strlen), writes 1 byte */
    stopped("local s = string.rep('x', 500000)\nwhile true do string.format('%.1s', s) end",
            "budget");
    logs("log(string.format('%.3s|%5.1s|%s', 'abcdef', 'xyz', 'end'))", "abc|    x|end");
}

TEST(parser_nesting)
{
    /* the parser runs uncounted but on at most 1 MiB of text, and its
     * C recursion is bounded: deep nesting is a load error */
    static char lua[300000];
    size_t n = 0;
    n += (size_t)snprintf(lua + n, sizeof lua - n, "x = ");
    for (int i = 0; i < 100000; i++)
        lua[n++] = '(';
    lua[n++] = '1';
    for (int i = 0; i < 100000; i++)
        lua[n++] = ')';
    snprintf(lua + n, sizeof lua - n, "\nfunction tick() end");
    fixture_init(&fx, 1);
    struct bot *b = fixture_bot(lua, 0, 0, err, sizeof err);
    check(b == NULL);
    tap_note("%s", err);
    check(strstr(err, "levels") != NULL || strstr(err, "overflow") != NULL);
    bot_free(b);
    n = 0;
    n += (size_t)snprintf(lua + n, sizeof lua - n, "x = ");
    for (int i = 0; i < 60000; i++)
        n += (size_t)snprintf(lua + n, sizeof lua - n, "{");
    for (int i = 0; i < 60000; i++)
        n += (size_t)snprintf(lua + n, sizeof lua - n, "}");
    snprintf(lua + n, sizeof lua - n, "\nfunction tick() end");
    b = fixture_bot(lua, 0, 0, err, sizeof err);
    check(b == NULL);
    bot_free(b);
}

TEST(mem_shared_subtables)
{
    /* mem is data, not a graph: a table reached twice is written twice,
     * so a chain of tables each holding the next twice would write 2^40
     * copies.  The walk is counted and its Lua allocations capped, so
     * the save fails with an error instead of filling the machine. */
    fixture_init(&fx, 1);
    struct bot *b = fixture_bot("function init(me, mem)\n"
                                " local t = {1}\n"
                                " for i = 1, 40 do t = {t, t} end\n"
                                " mem.bomb = t end\n"
                                "function tick() end", 0, 0, err, sizeof err);
    check(b != NULL);
    if (!b)
        return;
    check_int(bot_init(b, &fx.view, err, sizeof err), ==, 0);
    unsigned char *buf = NULL;
    size_t len = 0;
    double t0 = now();
    int rc = bot_mem_save(b, &buf, &len, err, sizeof err);
    double dt = now() - t0;
    tap_note("%s (%.2f s)", err, dt);
    check_int(rc, ==, -1);
    check(buf == NULL);
    check_num(dt, <, 5.0);
    check(strstr(err, "exceeded") != NULL);
    free(buf);
    bot_free(b);
}

TEST(mem_shared_strings)
{
    /* A string is one object however many tables hold it, but mem writes
     * it out at each place: 2000 references to a 256 KiB string fit a
     * 4 MiB heap and wrote 512 MiB (the viewer's history saves mem every
     * tick, a recording's checkpoints hash it), outside every cap.  The
     * written size is capped at twice bot_memory (more than plain data
     * without sharing ever needs), so the save fails, small and quick. */
    fixture_init(&fx, 1);
    struct bot *b = fixture_bot("function init(me, mem)\n"
                                " local s = string.rep('x', 256 * 1024)\n"
                                " mem.t = {} for i = 1, 2000 do mem.t[i] = s end end\n"
                                "function tick() end", 0, 0, err, sizeof err);
    check(b != NULL);
    if (!b)
        return;
    check_int(bot_init(b, &fx.view, err, sizeof err), ==, 0);
    unsigned char *buf = NULL;
    size_t len = 0;
    double t0 = now();
    int rc = bot_mem_save(b, &buf, &len, err, sizeof err);
    double dt = now() - t0;
    tap_note("%s (%.2f s, %zu bytes)", err, dt, len);
    check_int(rc, ==, -1);
    check(buf == NULL);
    check_num(dt, <, 1.0);
    check(strstr(err, "bot_memory") != NULL);
    free(buf);
    bot_free(b);
    /* a mem as big as the heap allows, without sharing, still saves */
    b = fixture_bot("function init(me, mem)\n"
                    " for i = 1, 3 do mem[i] = string.rep(tostring(i), 600 * 1024) end\n"
                    " mem.n = {} for i = 1, 3000 do mem.n[i] = i end end\n"
                    "function tick() end", 0, 0, err, sizeof err);
    check(b != NULL);
    if (!b)
        return;
    check_int(bot_init(b, &fx.view, err, sizeof err), ==, 0);
    buf = NULL;
    rc = bot_mem_save(b, &buf, &len, err, sizeof err);
    if (rc)
        tap_note("%s", err);
    check_int(rc, ==, 0);
    check_int(len, >, 3 * 600 * 1024);
    free(buf);
    bot_free(b);
}

/* KNOWN HOLE, not asserted (botfield-bots(7) says so): setmetatable
 * refuses a metatable holding __mode, but the field can be added after:
 *   local mt = {} local w = setmetatable({}, mt) mt.__mode = 'v'
 *   w[1] = {} for i = 1, 5000 do local j = {i} end
 *   -- w[1] is now nil: the collector ran
 * so the table's contents follow the collector's timing, which follows
 * the heap's history (a reload, a step back, Lua's hash seed).  Lua reads
 * __mode raw at each collection; closing it needs every write of
 * "__mode" to a table in use as a metatable refused (a guard metatable
 * on it and a rawset that refuses the key), which breaks giving such a
 * table a metatable of its own later: left to the lead. */

/* #t of a table with holes is "any border" (Lua's rule).  The border Lua
 * finds depends on the table's layout, which depends only on the
 * operations done as long as every key hashes the same in every state:
 * integer keys do, so this checks it.
 *
 * KNOWN HOLE, not asserted: with string keys in the same table (replace
 * t[math.random(25, 60)] below by t['s' .. math.random(30)]) the layout,
 * and so #t, depends on Lua's per-state random string-hash seed
 * (luai_makeseed: time and addresses); two fresh states with the same rng
 * seed then log different sums (seen: 2 or 3 different values in 4
 * states, 600 trials each).  The system liblua5.4 offers no way to fix
 * the seed; the fix is a Lua built with luai_makeseed defined constant.
 * botfield-bots(7) tells bot authors to keep sequences without holes. */
TEST(length_with_holes)
{
    const char *lua =
        "function tick(me, w, mem, out)\n"
        " local h = 0\n"
        " for trial = 1, 100 do local t = {}\n"
        "  for op = 1, 40 do local x = math.random(10)\n"
        "   if x <= 4 then t[math.random(25, 60)] = true\n"
        "   elseif x <= 5 then t[math.random(25, 60)] = nil\n"
        "   elseif x <= 8 then t[math.random(24)] = true\n"
        "   else t[math.random(24)] = nil end end\n"
        "  h = (h * 31 + #t) % 1000000007 end\n"
        " log(tostring(h)) end";
    same_in_two_states(lua, 2);
}

int main(void)
{
    run(string_rep_of_nothing, "string.rep of an empty string returns at once; copies are charged");
    run(utf8_codes_iterator, "utf8.codes' iterator called by hand is charged for what it skips");
    run(string_pack_format_scan, "string.pack/packsize formats are charged by length");
    run(select_and_unpack_many_values, "select('#') and unpack with many values: charged, bounded");
    run(c_stack_recursion, "recursion through every metamethod and C callback stops cleanly");
    run(integer_edges, "mininteger // -1, % 0, // 0 and friends: no trap, Lua's results");
    run(nan_keys_and_sorts, "NaN keys refused; sorts with NaN or lying comparators deterministic");
    run(error_objects, "error objects of every type, from pcall and __close");
    run(tostring_and_tonumber, "tostring and tonumber: no __name or address, charged");
    run(formatting_is_fixed, "%a %g %q, integer and float printing: fixed texts");
    run(huge_things, "huge tables, strings, concat and moves: the caps hold");
    run(state_across_ticks_and_bots, "a bot wrecking its library affects only itself");
    run(pairs_while_mutating, "pairs and next on a table changed during traversal: deterministic");
    run(vararg_copies_are_backstopped, "a long ... passed on in a loop: stopped by the CPU backstop");
    run(index_chains_are_backstopped, "lookups through long __index chains: stopped by the CPU backstop");
    run(emptied_table_scans_are_backstopped, "pairs/next over an emptied table: stopped by the CPU backstop");
    run(world_trees_on_a_big_forest, "world.trees and sight.hidden_from on a big forest are charged for it");
    run(bad_key_errors_fixed, "pairs/next name the same bad key type in every run");
    run(string_to_number_scans, "strings turned into numbers (math.abs(s), s + 0) are charged");
    run(format_precision_scan, "string.format charged by its strings ('%.1s' of a long one)");
    run(parser_nesting, "deeply nested source is a load error, not a crash");
    run(mem_shared_subtables, "mem with a table reached 2^40 times: the save fails, bounded");
    run(mem_shared_strings, "mem with one big string reached 2000 times: the save fails, bounded");
    run(length_with_holes, "#t with holes and integer keys: the same in two states");
    run(long_string_compare_is_backstopped, "long-string compares: stopped by the CPU backstop");
    return tap_done();
}
