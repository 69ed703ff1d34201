/* bot_impl.h — what the files of src/bot/ share; not for the rest of the
 * program. */
#ifndef BOTFIELD_BOT_IMPL_H
#define BOTFIELD_BOT_IMPL_H

#include <lauxlib.h>
#include <lua.h>
#include <time.h>

#include "bot.h"

struct bot {
    lua_State *L;
    char *path;                 /* the chunk name's path, as written */
    struct bot_limits lim;
    /* the allocator's books */
    size_t heap, heap_peak;     /* Lua's own bytes (their cap: BOT_HEAP_HARD) */
    size_t tick_new, tick_cap;  /* bytes of objects made this call, its cap */
    int mem_broke;              /* a cap refused an allocation this call, or
                                   the count passed bot_memory */
    int mem_line;               /* the script's line when mem_broke was
                                   first set this call (0: none) */
    int caps_on;                /* off while the state is built */
    /* bot_memory's count (bot_heap.c), taken at points the script's own
     * progress decides: never where Lua's layout does */
    int metered;                /* this call is the script's (top, init, tick) */
    int walking;                /* the count runs: its own objects are not made */
    size_t data;                /* the last count */
    size_t debt;                /* objects made + DEBT_PER_INSTRUCTION an
                                   instruction since the last count */
    long debt_seen;             /* this call's instructions already in debt */
    long ins;                   /* this call's VM instructions (the hook's) */
    double count_cpu;           /* CPU seconds of this call's counts */
    size_t made_since;          /* bytes of objects made since the last count */
    int mem_over;               /* the count passed bot_memory: every
                                   instruction errors from then on */
    /* the count hook */
    long budget;                /* of this call */
    long used;                  /* instructions counted + charges, this call */
    long armed;                 /* the hook's count now */
    int step;                   /* the hook's step (1000 by default) */
    int over;                   /* over budget: every instruction errors */
    int exact;                  /* the tail of each call is counted
                                   (bot_set_exact_count) */
    int probing;                /* the count probe runs (count_tail) */
    long probe_left;            /* the hook's count left, as the probe found it */
    int over_line;              /* the script's line running then (0: none) */
    int timed_out;
    int clock_on;               /* cpu_start taken */
    struct timespec cpu_start;
    double cpu_limit;
    /* this call's view and report */
    const struct bot_view *view;
    struct bot_report *rep;
    struct bot_report scratch;  /* when the caller gives none (init) */
    /* scratch of the protected calls */
    const struct bot_script *loading;
    struct bot_out out;
    int out_bad;
    char out_msg[BOT_ERR_BYTES];
    unsigned char *save_buf;
    size_t save_len, save_cap;
    char save_err[BOT_ERR_BYTES];
    const unsigned char *load_buf;
    size_t load_len;
    unsigned char said[BOT_SAY_ENCODED];   /* this tick's out.say, encoded */
    size_t said_len;            /* 0: it said nothing */
    int keys_at;                /* bot_api.c's field-name table, on the stack */
    int keys_ref;               /* ... and its registry reference (the state's) */
    int in_row;                 /* abandoned ticks in a row */
    int disabled;
    int announce;               /* disabled from outside: say so next tick */
    char disabled_reason[BOT_ERR_BYTES];
};

/* bot_lib.c: the sandboxed library, on a fresh state. */
void bot_lib_open(lua_State *L);
/* Charge n instructions (C work done for the script); raises the budget
 * error once over.  Only inside a protected call. */
void bot_charge(lua_State *L, long n);
/* The bot of a state (stored in the extra space). */
struct bot *bot_of(lua_State *L);
/* The deterministic key order: -1, 0, 1 for the values at indexes a, b
 * (booleans, then numbers, then strings); *bad set for other types. */
int bot_key_cmp(lua_State *L, int a, int b, int *bad);
/* One key, in C, for the sort: its class (0 boolean, 1 number, 2
 * string), value, and for a string a pointer into Lua's string (valid
 * while something holds the key). */
struct bot_key {
    int cls;
    int isint;
    lua_Integer i;
    lua_Number d;
    const char *s;
    size_t len;
    lua_Integer slot;       /* the caller's: where the key came from */
};
/* Fills *k from the key at idx without allocating or raising; -1 (cls
 * -1) for a key of another type. */
int bot_key_of(lua_State *L, int idx, struct bot_key *k);
/* Sorts n keys into the fixed order (a stable merge sort, tmp holds n);
 * returns a or tmp, whichever holds the result; counts comparisons. */
struct bot_key *bot_keys_sort(struct bot_key *a, struct bot_key *tmp, size_t n, long *cmps);
/* ceil(log2(n)), 0 for n <= 1: a sort of n keys is charged n times this,
 * a figure that does not depend on the order Lua holds the keys in. */
long bot_log2_ceil(size_t n);
/* Pushes the sorted keys of the table at idx as a sequence; raises an
 * error naming `who` for a key of another type. */
void bot_sorted_keys(lua_State *L, int idx, const char *who);
/* pairs(t) without looking at __pairs: the sorted iteration. */
int bot_pairs_raw(lua_State *L);
/* tostring without addresses (and without __name). */
const char *bot_tostring(lua_State *L, int idx, size_t *len);

/* bot_api.c: me, world, the callbacks, draw and log.  Its keys table's
 * slots 1 to BOT_KEYS_DATA (the field names, me, world, out) are counted
 * as the bot's data, as they always were; the slots after them (the
 * refill functions, the strings it keeps) are the engine's and are not:
 * bot_memory means the same as before the refill was made in Lua. */
#define BOT_KEYS_DATA 49
void bot_api_open(lua_State *L);
/* Refills me (a tick: and world and out) with this call's values and
 * pushes me (a tick: out, me, world).  It runs a small Lua function of the engine's: the caller
 * keeps the instruction count off around it (they are not the script's). */
void bot_refill(lua_State *L, const struct bot_view *v, int tick);
/* me, world and out are one table each for the state's life (refilled
 * every call): mem keeps a reference to one of them as that reference, so
 * a restored mem aliases the new state's table as the saved one did (a
 * copy would make a replay differ).  1, 2, 3 for the table at idx being
 * me, world, out, else 0; push one back: 0, or -1 for a bad number. */
int bot_api_engine_table(lua_State *L, int idx);
int bot_api_push_engine_table(lua_State *L, int which);
/* The callbacks for built-in `name`, the call charged BOT_CALL_COST;
 * raises "not available" when the view has none. */
const struct bot_calls *bot_api_calls(lua_State *L, const char *name);
/* Reads the out table at idx into *o; 0, or -1 with msg filled. */
int bot_read_out(lua_State *L, int idx, struct bot_out *o, char *msg, size_t n);

/* bot_agent.c: agent.observe and agent.act, libbotfield's numbers. */
extern const luaL_Reg bot_agent_lib[];

/* bot_heap.c: the bytes of data the state can reach, as bot_memory counts
 * them (sizes by what each value holds); 0, or -1 out of C memory.  Runs
 * Lua API calls on L (a hook may call it). */
int bot_heap_measure(lua_State *L, size_t *bytes);

/* bot_mem.c */
/* Encodes the table at idx into the bot's save_buf/save_len. */
int bot_mem_encode(lua_State *L, int idx, char *err, size_t n);
int bot_mem_decode(lua_State *L, const unsigned char *buf, size_t len);  /* pushes a table */
/* out.say at idx into save_buf/save_len (mem's encoding, at most
 * BOT_SAY_BYTES after its head); 0, or -1 with err. */
int bot_say_encode(lua_State *L, int idx, char *err, size_t n);
/* Pushes the value of a say's bytes; -1 (nothing pushed) on bad bytes. */
int bot_value_decode(lua_State *L, const unsigned char *buf, size_t len);

/* Registry keys: addresses (lua_rawgetp), cheaper than strings. */
extern const char bot_reg_mem;          /* the bot's mem table */
extern const char bot_reg_probe;        /* bot.c's count probe: no data of
                                           the bot's (bot_heap.c skips it) */

#endif
