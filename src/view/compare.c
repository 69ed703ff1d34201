/* compare.c (view) — the second world of `--compare`, kept in step with
 * the first (compare.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "../run/compare.h"
#include "../bot/bot_world.h"
#include "../core/tick.h"

/* Where the built-in map's bots are (Makefile.am defines it). */
#ifndef BOTFIELD_MAPS_DIR
# define BOTFIELD_MAPS_DIR "maps"
#endif

#define SWAP(T, x, y) do { T t_ = (x); (x) = (y); (y) = t_; } while (0)

void compare_swap(struct app *a)
{
    struct compare_side *s = &a->cmp->b;
    SWAP(struct world, a->world, s->world);
    SWAP(struct bot_world *, a->bots, s->bots);
    SWAP(struct history, a->hist, s->hist);
    SWAP(struct session, a->run, s->run);   /* (both step a->world) */
    struct mark m[MARKS_MAX];
    memcpy(m, a->marks, sizeof m);
    memcpy(a->marks, s->marks, sizeof m);
    memcpy(s->marks, m, sizeof m);
    SWAP(int, a->nmarks, s->nmarks);
    SWAP(double, a->max_tree_r, s->max_tree_r);
    SWAP(struct canvas, a->ground, s->ground);
    SWAP(struct camera, a->ground_cam, s->ground_cam);
    SWAP(int, a->ground_ok, s->ground_ok);
    SWAP(struct bot_last_error *, a->last_err, s->last_err);
    SWAP(size_t, a->nlast_err, s->nlast_err);
}

static double largest_tree(const struct world *w)
{
    double m = 0;
    for (size_t i = 0; i < w->trees.n; i++)
        if (w->trees.p[i].r > m)
            m = w->trees.p[i].r;
    return m;
}

/* B's side from a loaded world; 0 or -1 (the world is freed).  Its
 * session steps the app's world and bots, as B is stepped swapped in. */
static int side_init(struct compare_side *s, struct world *w, struct bot_world *bots,
                     struct app *a)
{
    memset(s, 0, sizeof *s);
    session_init(&s->run, &a->world, &a->bots);
    s->world = *w;
    s->world.explain = 1;       /* the inspector shows the records */
    s->bots = bots;
    s->max_tree_r = largest_tree(&s->world);
    if (history_init(&s->hist, &s->world, s->bots)) {
        history_free(&s->hist);
        bot_world_free(&s->world, s->bots);
        world_free(&s->world);
        memset(s, 0, sizeof *s);
        return -1;
    }
    return 0;
}

static void side_free(struct compare_side *s)
{
    session_free(&s->run);
    history_free(&s->hist);
    bot_world_free(&s->world, s->bots);
    world_free(&s->world);
    canvas_free(&s->ground);
    app_last_err_free(s->last_err, s->nlast_err);
    memset(s, 0, sizeof *s);
}

/* Tick 0 of both: equal, or the first difference. */
static void check_start(struct view_compare *c, const struct world *a)
{
    compare_base_label(c->opts, a, c->base, sizeof c->base);
    c->diverged = compare_differ(a, &c->b.world) ? 0 : -1;
    c->checked = c->diverged < 0 ? 0 : -1;
}

int compare_start(struct app *a)
{
    const struct view_options *o = a->opt;
    if (!o->compare_world)
        return 0;
    struct view_compare *c = calloc(1, sizeof *c);
    if (!c || side_init(&c->b, o->compare_world, o->compare_bots, a)) {
        if (!c)
            compare_drop(o);
        free(c);
        return -1;
    }
    c->opts = o->compare;
    a->cmp = c;
    check_start(c, &a->world);
    return 0;
}

void compare_drop(const struct view_options *o)
{
    if (!o->compare_world)
        return;
    bot_world_free(o->compare_world, o->compare_bots);
    world_free(o->compare_world);
}

void compare_free(struct app *a)
{
    if (!a->cmp)
        return;
    side_free(&a->cmp->b);
    free(a->cmp);
    a->cmp = NULL;
}

/* The marks after a restored tick come back with the replay (as A's). */
static void on_restore(void *ctx, long tick)
{
    struct app *a = ctx;
    while (a->nmarks > 0 && a->marks[a->nmarks - 1].tick > tick)
        a->nmarks--;
}

static void on_step(void *ctx)
{
    note_events(ctx);
}

/* With B swapped in: to `target`, through its history as far as it
 * reaches, then computing on.  0, or -1 (said). */
static int bring_to(struct app *a, long target)
{
    struct history_hooks k = { on_restore, on_step, a, app_session_tick };
    long blocked = 0;
    long reach = target < a->hist.end ? target : a->hist.end;
    if (a->world.tick != reach && history_goto(&a->hist, &a->world, reach, &k, &blocked)) {
        app_message(a, 1, "--compare: the second world cannot go to tick %ld", reach);
        return -1;
    }
    char err[256];
    while (a->world.tick < target) {
        if (app_session_tick(a)) {
            app_message(a, 1, "--compare: out of memory while stepping the second world");
            return -1;
        }
        note_events(a);
        if (history_note(&a->hist, &a->world, err, sizeof err) == -2)
            app_message(a, 1, "--compare: the second world's bots keep mem that is not "
                        "plain data (%s)", err);
    }
    return 0;
}

void compare_sync(struct app *a)
{
    struct view_compare *c = a->cmp;
    if (!c || c->b.world.tick == a->world.tick)
        return;
    long target = a->world.tick;
    compare_swap(a);
    bring_to(a, target);
    compare_swap(a);
}

void compare_after_step(struct app *a)
{
    struct view_compare *c = a->cmp;
    if (!c)
        return;
    compare_sync(a);
    /* Every tick is first computed here, in order: the first one that
     * differs is the first step past `checked` to differ. */
    if (c->diverged >= 0 || a->world.tick != c->checked + 1
        || c->b.world.tick != a->world.tick)
        return;
    if (compare_differ(&a->world, &c->b.world))
        c->diverged = a->world.tick;
    else
        c->checked = a->world.tick;
}

void compare_reload_bots(struct app *a)
{
    struct view_compare *c = a->cmp;
    if (!c)
        return;
    compare_sync(a);
    char *err = NULL;
    compare_swap(a);
    int n = bot_world_reload(a->bots, &a->world, &err);
    if (n > 0)
        history_cut(&a->hist, a->world.tick);
    compare_swap(a);
    if (err) {
        app_message(a, 1, "--compare: the second world's bot did not reload: %s", err);
        free(err);
    }
    if (n <= 0)
        return;
    /* The ticks after this one are computed anew, by the new scripts. */
    long t = a->world.tick;
    if (c->diverged > t)
        c->diverged = -1;
    if (c->checked > t)
        c->checked = t;
}

void compare_reloaded(struct app *a)
{
    struct view_compare *c = a->cmp;
    if (!c)
        return;
    /* B is the map's world with the settings: loaded again the same way
     * (its messages go to the status line, not to the terminal). */
    struct world w;
    struct bot_world *bots = NULL;
    struct map_error err = { NULL, 0 };
    const char *path = a->opt->map_path;
    int rc = path ? map_load(path, &c->opts->map, &w, &err)
                  : map_load_text("default.ini", map_default_text, map_default_len,
                                  &c->opts->map, &w, &err);
    char *berr = NULL;
    if (rc == 0 && bot_world_attach(&w, BOTFIELD_MAPS_DIR, &bots, &berr)) {
        world_free(&w);
        rc = -1;
    }
    side_free(&c->b);
    if (rc || side_init(&c->b, &w, bots, a)) {
        char *m = err.text ? compare_messages(c->opts, err.text) : NULL;
        app_message(a, 1, "--compare %s no longer loads with this map: comparing stops (%s)",
                    c->opts->label, m ? m : berr ? berr : "out of memory");
        free(m);
        map_error_free(&err);
        free(berr);
        free(c);
        a->cmp = NULL;
        a->relayout = 1;
        return;
    }
    check_start(c, &a->world);
    a->relayout = 1;
}

int view_compare_run(struct compare_opts *c, struct view_options *o, struct world *w)
{
    static struct world wb;         /* the viewer's until it returns */
    struct bot_world *bb = NULL;
    int rc = compare_prepare(c, &o->map, o->map_path, &wb, &bb);
    if (rc) {
        bot_world_free(w, o->bots);
        world_free(w);
    } else {
        o->compare = c;
        o->compare_world = &wb;
        o->compare_bots = bb;
        rc = view_run(o, w);
    }
    free(c->all);
    return rc;
}
