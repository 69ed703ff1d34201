/* proc_view.h — a process bot's lines (botfield-bots(7), PROCESS BOTS):
 * what botfield writes it (init, tick), with the names and units of a Lua
 * bot's me and world, and its answer read as a Lua bot's out, draw.* and
 * log are, with the same limits and errors. */
#ifndef BOTFIELD_PROC_VIEW_H
#define BOTFIELD_PROC_VIEW_H

#include <stddef.h>
#include <stdio.h>

#include "bot.h"

/* {"type":"tick","tick":T,"me":{...},"world":{...}}, without a newline:
 * me's fields as a Lua bot's, world's with its lists whole (enemies,
 * allies, waypoints, next_waypoint, events, shells, messages).  0, or -1
 * when f failed. */
int proc_tick_line(FILE *f, const struct bot_view *v);

/* {"type":"init","id":ID,"map":{"width","height","trees":[{x,y,r}...],
 * "waypoints":[{x,y,r}...]},"me":{...}}: the map's trees are given once,
 * here (a Lua bot asks world.trees). */
int proc_init_line(FILE *f, const struct bot_view *v, const struct bot_tree *trees,
                   size_t ntrees);

/* What one answer said. */
struct proc_reply {
    struct bot_out out;
    unsigned char say[BOT_SAY_BYTES + 8];   /* out.say's encoding, say_len 0: none */
    size_t say_len;
    char log[BOT_LOG_LINES][BOT_LOG_BYTES + 1];
    int n_log;
    struct bot_shape shapes[BOT_SHAPES_MAX];
    int n_shapes;
};

/* The answer line s (n bytes) read into *r.  Its fields: turn, speed,
 * turret, fire, radar (as out.*: finite numbers, fire true or false; a
 * field left out keeps its default, v's), say (any JSON value but null:
 * what out.say may hold), draw ([["line",x1,y1,x2,y2,COLOR?],
 * ["circle",x,y,r,COLOR?], ["text",x,y,TEXT], ["mark",x,y,COLOR?]...])
 * and log (strings).  Past BOT_SHAPES_MAX shapes and BOT_LOG_LINES lines
 * the rest is dropped, as for a Lua bot.  0; or -1 with err (the tick's
 * bot_error), and *r holds the defaults only. */
int proc_read_reply(const char *s, size_t n, const struct bot_view *v, struct proc_reply *r,
                    char *err, size_t errn);

#endif
