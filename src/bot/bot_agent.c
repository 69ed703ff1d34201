/* bot_agent.c — agent.observe() and agent.act(): a Lua bot sees and acts
 * on the very numbers libbotfield's agents do (botfield-env(3)), so a
 * policy trained through the library plays as an ordinary bot.  The
 * numbers come from the caller's callbacks (bot_world.c: the core's
 * observe_vehicle, bot_out_of_action); this file only checks arguments,
 * charges and builds the tables. */
#include <lauxlib.h>
#include <lua.h>
#include <math.h>

#include "bot_impl.h"

/* What the value at idx is, for an error: the number ("nan" whatever
 * its sign bit, which C libraries print differently), else its type. */
static const char *what(lua_State *L, int idx)
{
    int t = lua_type(L, idx);
    if (t != LUA_TNUMBER)
        return t == LUA_TNIL ? "missing" : lua_typename(L, t);
    lua_Number d = lua_tonumber(L, idx);
    if (d != d)
        return "nan";
    lua_pushvalue(L, idx);
    return lua_tostring(L, -1);     /* the copy converted: idx stays a number */
}

/* Argument arg: nil or none gives def, else an integer in lo .. hi; any
 * other value is an error naming the argument and the allowed range (a
 * policy fed the wrong layout would act on garbage without a word). */
static int opt_count(lua_State *L, int arg, const char *name, int def, int hi)
{
    if (lua_isnoneornil(L, arg))
        return def;
    int ok = 0;
    lua_Integer n = lua_tointegerx(L, arg, &ok);
    if (!ok || lua_type(L, arg) != LUA_TNUMBER || n < 0 || n > hi)
        luaL_error(L, "agent.observe: %s (argument %d) must be an integer 0..%d, not %s", name,
                   arg, hi, what(L, arg));
    return (int)n;
}

/* agent.observe([K [, R]]): a sequence of observe_size(K, R) numbers. */
static int observe(lua_State *L)
{
    int K = opt_count(L, 1, "K", 4, BOT_OBSERVE_NEAREST);
    int R = opt_count(L, 2, "R", 8, BOT_OBSERVE_RAYS);
    const struct bot_calls *c = bot_api_calls(L, "agent.observe");
    if (!c->observe)
        return luaL_error(L, "agent.observe is not available for this vehicle");
    const struct bot_view *v = bot_of(L)->view;
    float o[BOT_OBSERVE_MAX];
    int n = c->observe(v->ctx, K, R, o, BOT_OBSERVE_MAX);
    /* the rays look at every vehicle, the shell scan at every shell: a
     * big map's call is charged for what it looked at beyond a usual
     * map's share, after the fact (as sight.hidden_from) */
    if (v->call_work > BOT_OBSERVE_FREE)
        bot_charge(L, (long)((v->call_work - BOT_OBSERVE_FREE) / 4));
    if (n < 0)
        return luaL_error(L, "agent.observe: no observation for this vehicle");
    bot_charge(L, n);
    lua_createtable(L, n, 0);   /* the Lua allocator: the bot's memory limit */
    for (int k = 0; k < n; k++) {
        lua_pushnumber(L, (lua_Number)o[k]);
        lua_rawseti(L, -2, k + 1);
    }
    return 1;
}

/* agent.act(out, a): out's intents from the action a[1..5]. */
static int act(lua_State *L)
{
    static const char *const names[5] = { "turn", "speed", "turret", "fire", "radar" };
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, 2, LUA_TTABLE);
    double a[5];
    for (int k = 0; k < 5; k++) {
        int t = lua_rawgeti(L, 2, k + 1);
        double d = t == LUA_TNUMBER ? lua_tonumber(L, -1) : NAN;
        /* NaN fails both comparisons */
        if (!(d >= -1 && d <= 1))
            return luaL_error(L, "agent.act: a[%d] (%s) must be a number in [-1, 1], not %s",
                              k + 1, names[k], what(L, -1));
        lua_pop(L, 1);
        a[k] = d;
    }
    const struct bot_calls *c = bot_api_calls(L, "agent.act");
    if (!c->act)
        return luaL_error(L, "agent.act is not available for this vehicle");
    struct bot_out o;
    if (c->act(bot_of(L)->view->ctx, a, &o) != 0)
        return luaL_error(L, "agent.act: no action for this vehicle");
    lua_pushnumber(L, o.turn);
    lua_setfield(L, 1, "turn");
    lua_pushnumber(L, o.speed);
    lua_setfield(L, 1, "speed");
    lua_pushnumber(L, o.turret);
    lua_setfield(L, 1, "turret");
    lua_pushboolean(L, o.fire);
    lua_setfield(L, 1, "fire");
    lua_pushnumber(L, o.radar);
    lua_setfield(L, 1, "radar");
    return 0;
}

const luaL_Reg bot_agent_lib[] = { { "observe", observe }, { "act", act }, { NULL, NULL } };
