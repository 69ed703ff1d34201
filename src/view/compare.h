/* compare.h (view) — `--compare` in the viewer: the second world, kept at
 * the tick the first shows, drawn beside it with one camera.
 *
 * The second world ("B") lives in a side: what the app keeps per world
 * (the world, its bots, history, collision marks, ground cache).  To draw
 * B, or to step it, the side is swapped with the app's own fields, so
 * every drawing and history function works on it unchanged; it is swapped
 * back at once.  The keys act on the first world ("A") only; B follows it
 * wherever it goes (compare_sync), through its own history. */
#ifndef BOTFIELD_VIEW_COMPARE_H
#define BOTFIELD_VIEW_COMPARE_H

#include "app.h"

struct compare_side {
    struct world world;
    struct bot_world *bots;
    struct history hist;
    struct session run;         /* B's: nothing recorded or replayed */
    struct mark marks[MARKS_MAX];
    int nmarks;
    double max_tree_r;
    struct canvas ground;
    struct camera ground_cam;
    int ground_ok;
    struct bot_last_error *last_err;
    size_t nlast_err;
};

struct view_compare {
    struct compare_side b;
    const struct compare_opts *opts;
    char base[256];         /* A's values of the compared keys */
    long diverged;          /* first tick where the states differ, -1 */
    long checked;           /* the states were equal up to this tick */
    int side_by_side;       /* left/right; else top/bottom */
    int x[2], y[2];         /* each half's label row, its map below */
    int panel_y[2], panel_h[2];     /* each one's inspector rows */
};

/* Takes over o->compare_world and its bots; 0, or -1 (out of memory: they
 * are freed; the caller says so). */
int compare_start(struct app *a);
/* Frees what --compare left when the viewer stops before compare_start. */
void compare_drop(const struct view_options *o);
void compare_free(struct app *a);

/* The loop's hooks: after each forward step of A; after A's world was
 * replaced (a reload: B is loaded again from the map). */
void compare_after_step(struct app *a);
void compare_reloaded(struct app *a);
/* After A's bots were reloaded from their changed scripts: B's too. */
void compare_reload_bots(struct app *a);
/* Brings B to A's tick. */
void compare_sync(struct app *a);
/* Swaps B's side with the app's own fields (twice: back). */
void compare_swap(struct app *a);

/* compare_draw.c: 1 when comparing (the layout, or both halves with
 * their labels and inspectors, was done); then the status line's mark,
 * after draw_status. */
int compare_layout(struct app *a);
int compare_draw(struct app *a);
void compare_draw_status(struct app *a);
/* The columns that mark takes at most (" differ from tick N "), which the
 * status line keeps free after its text when it can. */
#define COMPARE_LABEL_ROOM 28

#endif
