/* view.h — the ncurses viewer: the only part of botfield that touches the
 * terminal.  It reads the core's state and asks it to step, to step back
 * (restore a snapshot) or to reload; it never changes the rules. */
#ifndef BOTFIELD_VIEW_H
#define BOTFIELD_VIEW_H

#include "../io/map.h"

struct world;

struct bot_world;
struct compare_opts;
struct view_follow;

struct view_options {
    const char *map_path;       /* NULL: the embedded default map */
    struct map_options map;     /* --seed */
    int paused;                 /* 2: paused with the first-look hint */
    double speed;               /* 0.25 .. 64 */
    int ascii;
    struct bot_world *bots;     /* the world's Lua bots (taken over), NULL */
    const char *record;         /* --record FILE, NULL */
    const char *replay;         /* --replay FILE, NULL: the world is given */
    const char *map_text;       /* the text the world came from (--record) */
    /* --compare: the second world and its bots (taken over), NULL: none */
    const struct compare_opts *compare;
    struct world *compare_world;
    struct bot_world *compare_bots;
    int threads, threads_min;   /* --threads: every world's (par.h) */
    double rate;                /* --rate: bytes a second to the terminal, 0: any */
    int fps;                    /* --fps: frames a second at most, 0: 30 */
    /* --follow: replay reads the recording from this stream as it grows
     * (follow.h); NULL: the whole file first */
    struct view_follow *follow;
};

/* Runs the viewer on a loaded world (taken over: the viewer frees it),
 * or with --replay (w NULL) on the recording's.  Returns the process exit
 * status. */
int view_run(const struct view_options *o, struct world *w);

/* `--compare` in the viewer: B prepared from c and o's map options (its
 * errors said: exit 2), then the viewer on both.  Takes over w and bots
 * (o->bots); c->all is freed after.  The process exit status. */
int view_compare_run(struct compare_opts *c, struct view_options *o, struct world *w);

/* The viewer's keys as man-page (roff) text, from the table the viewer
 * runs (keys_table.c).  A malloc'd string, or NULL when the table gives
 * one key code to two rows (said on stderr) or memory ran out. */
char *view_keys_man(void);

#endif
