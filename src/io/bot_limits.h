/* bot_limits.h — the ranges and defaults of the map keys bot_budget and
 * bot_memory, and the largest script: one place for the key table
 * (keys.c), the recordings (replay_read.c) and the sandbox (bot/bot.h,
 * on the floor above, includes this). */
#ifndef BOTFIELD_BOT_LIMITS_H
#define BOTFIELD_BOT_LIMITS_H

#define BOT_BUDGET_MIN 1000L
#define BOT_BUDGET_MAX 10000000L
#define BOT_BUDGET_DEFAULT_N 100000
#define BOT_BUDGET_DEFAULT ((long)BOT_BUDGET_DEFAULT_N)
#define BOT_MEMORY_KIB_MIN 64L
#define BOT_MEMORY_KIB_MAX 262144L
#define BOT_MEMORY_KIB_DEFAULT_N 4096
#define BOT_MEMORY_KIB_DEFAULT ((long)BOT_MEMORY_KIB_DEFAULT_N)

/* Largest script file read (bytes): the sandbox's bound, and the
 * recordings' (a bot_source line holds one script). */
#define BOT_SCRIPT_MAX (1024L * 1024L)

/* The defaults as the key table writes them (text: the _N forms, bare). */
#define BOT_LIMIT_TEXT_(x) #x
#define BOT_LIMIT_TEXT(x) BOT_LIMIT_TEXT_(x)

#endif
