/* arena_view.h — the arena's own screens on a watch (botfield-arena(7)):
 * the live matches (Enter watches one), the ladder, and a banner when
 * one of the watcher's bots starts a match.  Fed by the daemon's
 * {"type":"arena",...} lines on the followed stream (follow.c); asks it
 * by writing request lines back on the same socket. */
#ifndef BOTFIELD_ARENA_VIEW_H
#define BOTFIELD_ARENA_VIEW_H

#include <stddef.h>

struct app;
struct arena_view;

/* The state of one watch (it outlives each match's viewer); person: the
 * watcher's name, whose bots the banner and the ladder mark.  NULL: out
 * of memory. */
struct arena_view *arena_view_new(const char *person);
void arena_view_free(struct arena_view *v);

/* One of the daemon's lines (a->fl->arena's). */
void arena_view_line(struct app *a, const char *line, size_t len);
/* The daemon said the next header is the match asked for: the viewer
 * goes to it at once (not after the old match's end).  Cleared there. */
int arena_view_switching(const struct arena_view *v);
void arena_view_switched(struct arena_view *v);

/* The keys m (the live matches) and A (the ladder), from the map screen. */
void arena_view_key(struct app *a, int ch);
/* Over the map: the banner, while it lasts. */
void arena_view_draw_banner(struct app *a);

/* The two screens (screens.c's table). */
void arena_matches_draw(struct app *a);
int arena_matches_key(struct app *a, int ch);
void arena_ladder_draw(struct app *a);
int arena_ladder_key(struct app *a, int ch);

#endif
