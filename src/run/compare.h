/* compare.h — `--compare KEY=VALUE`: a second world from the same map and
 * seed with one or more settings changed, run beside the first.
 *
 * The settings go through the map loader exactly as `--set` ones do
 * (overrides.c), so a bad value is refused with the map's own message,
 * naming the option.  Headless, both worlds run and both summaries are
 * printed with the first tick where their states differ; in the viewer
 * (src/view/compare.c) they are shown side by side. */
#ifndef BOTFIELD_COMPARE_H
#define BOTFIELD_COMPARE_H

#include <stddef.h>

#include "io/map.h"

struct world;
struct bot_world;

#define COMPARE_MAX 8               /* --compare options at most */

struct compare_opts {
    int n;
    struct map_set set[COMPARE_MAX];    /* key and value point into argv */
    char key[COMPARE_MAX][128];         /* the key part, NUL-ended */
    /* B's map options: A's --set list with these replacing or added */
    struct map_set *all;
    struct map_options map;
    char label[256];                    /* "team.red.aim=classic ..." */
};

/* One --compare argument: its syntax checked (the value's own check is
 * the map loader's).  0, or 2 after saying what is wrong on stderr. */
int compare_option(struct compare_opts *c, const char *arg);

/* --record FILE with a headless comparison: each side recorded, A's in
 * FILE with A's --set, B's in FILE with ".b" before its extension with
 * B's settings (A's and the --compare ones). */
struct compare_record {
    const char *file;           /* NULL: no recording */
    const char *map_path;       /* NULL: the built-in map */
    const char *map_text;
    const struct map_set *set;  /* A's --set */
    int nset;
};

/* --record FILE with --compare: A's recording is FILE, B's the same name
 * with ".b" before its extension (run.rec: run.b.rec; run: run.b). */
void compare_b_name(const char *file, char *buf, size_t cap);

/* B's options built from A's (a, with c's settings) and B loaded into
 * *wb and *bb: 0, 1 out of memory, 2 B's errors (each said on stderr). */
int compare_prepare(struct compare_opts *c, const struct map_options *a, const char *map_path,
                    struct world *wb, struct bot_world **bb);

/* The headless comparison, once the first world is loaded: B prepared,
 * both run to the end (ticks, or seconds, or the maps' durations: -1),
 * both summaries and the compare line printed.  Takes over w and bots.
 * Returns the exit status.  (The viewer's comparison: view/compare.h.) */
int compare_run(struct compare_opts *c, const struct map_options *a, const char *map_path,
                struct world *w, struct bot_world *bots, long ticks, double seconds,
                const struct compare_record *rec);

/* 1 when the two worlds' states differ, their settings apart: b's
 * vehicles are hashed with a's settings (b is put back as it was). */
int compare_differ(const struct world *a, struct world *b);

/* The first world's own values of the compared keys, as a label
 * ("team.red.aim=exact"; "(map)" for one its vehicles do not show). */
void compare_base_label(const struct compare_opts *c, const struct world *w, char *buf,
                        size_t cap);

/* The loader's messages (text) with those of c's settings naming
 * --compare instead of --set; malloc'd, NULL when memory ran out. */
char *compare_messages(const struct compare_opts *c, const char *text);

/* B's world loaded with c's options: 0, or 2 after saying why. */
int compare_load(const struct compare_opts *c, const char *map_path, struct world *out,
                 struct bot_world **bots);

#endif
