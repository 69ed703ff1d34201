/* loop.c — view_run(): the terminal set up and restored, and the loop.
 *
 * One poll() over standard input, a self-pipe that the signal handlers
 * write to (SIGWINCH, SIGTSTP, SIGINT, SIGTERM, SIGHUP, SIGQUIT) and an inotify watch on the
 * map file's and the bot scripts' folders (watch.c); its timeout is the
 * next tick, frame, message expiry or pending reload, and infinite when
 * paused and nothing changed, so the process sleeps.  Ticks run at tick_rate x speed; frames at most 30 a
 * second, and curses sends only the cells that changed. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "app.h"
#include "compare.h"
#include "stderr_hold.h"
#include "term_out.h"
#include "term_restore.h"
#include "tui.h"
#include "../bot/bot_world.h"
#include "../core/round.h"
#include "../core/tick.h"
#include "follow.h"
#include "record_hooks.h"
#include "tune_panel.h"
#include "../io/map.h"

/* Where the built-in map's bots are (Makefile.am defines it; the lint's
 * lone compile of this file does not). */
#ifndef BOTFIELD_MAPS_DIR
# define BOTFIELD_MAPS_DIR "maps"
#endif

#define FRAME_SECONDS (1.0 / 30)   /* the default --fps; a turn's work */
#define KEY_DEBT_SECONDS 0.5        /* a key's frame may owe this much of --rate */
#define RELOAD_DELAY 0.2            /* editors write a file in bursts */
#define MESSAGE_SECONDS 4.0

const double view_speeds[SPEED_MAX_IDX] = { 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64 };

static int sig_pipe[2] = { -1, -1 };
static volatile sig_atomic_t quitting;

/* The newcomer's first look (paused on tick 0), until the run starts. */
static const char first_hint[] = "paused: space runs, . steps, r rays, ? keys and legend";

static void on_signal(int sig)
{
    int saved = errno;
    unsigned char c = (unsigned char)sig;
    /* A second quit signal while the first one's clean exit has not come
     * (a long reload, a recording written to a stalled pipe): die now,
     * the terminal given back. */
    int quit = sig != SIGWINCH && sig != SIGTSTP;
    if (quit && quitting)
        term_restore_die(sig);
    if (quit)
        quitting = 1;
    /* Nothing else is async-signal-safe enough: the loop does the work. */
    if (write(sig_pipe[1], &c, 1) < 0) {
        /* a full pipe already wakes the loop */
    }
    errno = saved;
}

double view_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void app_message(struct app *a, int err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->msg, sizeof a->msg, fmt, ap);
    va_end(ap);
    /* Only the first line of a multi-line text fits the status line. */
    char *nl = strchr(a->msg, '\n');
    if (nl)
        *nl = 0;
    a->msg_err = err;
    a->msg_until = err ? 0 : view_now() + MESSAGE_SECONDS;
    a->dirty = 1;
}

/* ---- layout ----------------------------------------------------------------- */

void app_layout(struct app *a)
{
    getmaxyx(stdscr, a->rows, a->cols);
    a->too_small = a->cols < 40 || a->rows < 12;
    a->relayout = 0;
    a->dirty = 1;
    if (a->too_small || compare_layout(a))
        return;
    /* Status on the first line, counts or messages on the last, the
     * inspector on the right while something is selected and it fits. */
    a->panel_w = a->sel >= 0 && a->cols >= 72 ? 30 : 0;
    a->map_x = 0;
    a->map_y = 1;
    int w = a->cols - a->panel_w, h = a->rows - 2;
    if (canvas_resize(&a->cv, w, h)) {
        a->fatal = 1;
        app_message(a, 1, "out of memory");
        a->quit = 1;
        return;
    }
    a->ground_ok = 0;
    camera_resize(&a->cam, w, h, a->world.width, a->world.height);
}

static void world_changed(struct app *a)
{
    double m = 0;
    for (size_t i = 0; i < a->world.trees.n; i++)
        if (a->world.trees.p[i].r > m)
            m = a->world.trees.p[i].r;
    a->max_tree_r = m;
    a->ground_ok = 0;
    timeline_clear(&a->run.inputs);     /* a new world: no inputs yet */
    drive_reset(a);
    if (a->tune)                /* (made once the viewer runs) */
        tune_reset(a);
}

/* ---- stepping ------------------------------------------------------------- */

void note_events(struct app *a)
{
    const struct world *w = &a->world;
    for (size_t k = 0; k < w->now.events.n; k++) {
        const struct event *e = &w->now.events.p[k];
        if (e->kind != EV_COLLISION || e->a < 0 || e->b < 0)
            continue;
        vec2 p = v2_scale(v2_add(w->vehicles.p[e->a].pos, w->vehicles.p[e->b].pos), 0.5);
        if (a->nmarks == MARKS_MAX) {
            memmove(&a->marks[0], &a->marks[1], (MARKS_MAX - 1) * sizeof a->marks[0]);
            a->nmarks--;
        }
        a->marks[a->nmarks++] = (struct mark){ w->tick, p };
    }
}

static void hook_restore(void *ctx, long tick)
{
    struct app *a = ctx;
    /* Marks after the restored tick come back, identical, with the replay. */
    while (a->nmarks > 0 && a->marks[a->nmarks - 1].tick > tick)
        a->nmarks--;
    drive_apply_log(a);
    tune_restored(a);
}

/* After every computed tick, forward or replayed: was it computed before,
 * differently?  Only the first such tick of a step is told. */
static void check_tick(struct app *a)
{
    if (replay_check_note(&a->check, &a->world, a->bots) && a->diverged < 0)
        a->diverged = a->world.tick;
}

void app_last_err_free(struct bot_last_error *e, size_t n)
{
    for (size_t i = 0; e && i < n; i++)
        free(e[i].logs);
    free(e);
}

/* The per-vehicle records, one for each vehicle of the world: 0, or -1
 * out of memory. */
static int last_err_sized(struct app *a)
{
    const struct world *w = &a->world;
    if (a->nlast_err == w->vehicles.n && a->last_err)
        return 0;
    app_last_err_free(a->last_err, a->nlast_err);
    a->nlast_err = 0;
    a->last_err = calloc(w->vehicles.n ? w->vehicles.n : 1, sizeof *a->last_err);
    if (!a->last_err)
        return -1;
    a->nlast_err = w->vehicles.n;
    for (size_t i = 0; i < a->nlast_err; i++)
        a->last_err[i].tick = -1;
    return 0;
}

#define LOG_AT(g, k) ((g)->line[((g)->first + (k)) % BOT_LOG_KEEP])

int app_bot_log_lines(const struct app *a, int i)
{
    const struct bot_log_ring *g = i >= 0 && (size_t)i < a->nlast_err ? a->last_err[i].logs : NULL;
    int n = 0;
    while (g && n < g->n && LOG_AT(g, n).tick <= a->world.tick)
        n++;
    return n;
}

/* Keeps each bot's log lines of this tick in its ring.  A tick computed
 * again (a step back replays from a snapshot) first drops what the ring
 * holds of it and after it, so no line shows twice. */
static void note_bot_logs(struct app *a)
{
    const struct world *w = &a->world;
    if (!a->bots)
        return;
    for (size_t i = 0; i < w->vehicles.n; i++) {
        struct bot_last_error *e = &a->last_err[i];
        while (e->logs && e->logs->n > 0 && LOG_AT(e->logs, e->logs->n - 1).tick >= w->tick)
            e->logs->n--;
        const struct bot_report *r = bot_world_report(a->bots, (int)i);
        if (!r || r->n_log <= 0)
            continue;
        if (!e->logs && !(e->logs = calloc(1, sizeof *e->logs)))
            continue;       /* out of memory: the inspector shows less */
        struct bot_log_ring *g = e->logs;
        for (int k = 0; k < r->n_log && k < BOT_LOG_LINES; k++) {
            if (g->n == BOT_LOG_KEEP) {
                g->first = (g->first + 1) % BOT_LOG_KEEP;
                g->n--;
            }
            LOG_AT(g, g->n).tick = w->tick;
            snprintf(LOG_AT(g, g->n).text, sizeof g->line[0].text, "%s", r->log[k]);
            g->n++;
        }
    }
}

/* Keeps each bot's last error for the inspector (a report holds only this
 * tick's), and its log lines. */
static void note_bot_errors(struct app *a)
{
    const struct world *w = &a->world;
    if (last_err_sized(a))
        return;
    note_bot_logs(a);
    if (bot_world_errors(a->bots) == 0)
        return;
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct bot_report *r = bot_world_report(a->bots, (int)i);
        if (!r || !r->error[0])
            continue;
        struct bot_last_error *e = &a->last_err[i];
        e->tick = w->tick;
        snprintf(e->error, sizeof e->error, "%s", r->error);
        snprintf(e->traceback, sizeof e->traceback, "%s", r->traceback);
    }
}

static void hook_step(void *ctx)
{
    /* The tick's hash before its logged input is set again: the hash of
     * the first run was taken before the player changed it (app_step). */
    note_events(ctx);
    check_tick(ctx);
    drive_apply_log(ctx);
    tune_apply_log(ctx);
    note_bot_errors(ctx);
}

static void tell_divergence(struct app *a)
{
    if (a->diverged < 0)
        return;
    /* A bot disabled at the step back acts otherwise than it did: that
     * is the reason then, and its bot_error (Tab) says why. */
    if (bot_world_unrebuilt(a->bots) > 0)
        app_message(a, 1, "replay differs from the first run at tick %ld: a bot was "
                    "disabled at the step back", a->diverged);
    else
        app_message(a, 1, "replay differs from the first run at tick %ld: a bot keeps "
                    "state outside mem (a global?)", a->diverged);
    a->diverged = -1;
}

/* A new bot error of this step: in the status line for a few seconds (the
 * inspector keeps it for its vehicle). */
static void tell_bot_error(struct app *a)
{
    if (bot_world_errors(a->bots) == 0) {
        a->bot_err[0] = 0;
        return;
    }
    for (size_t i = 0; i < a->world.vehicles.n; i++) {
        const struct bot_report *r = bot_world_report(a->bots, (int)i);
        if (!r || !r->error[0])
            continue;
        if (strcmp(r->error, a->bot_err)) {
            snprintf(a->bot_err, sizeof a->bot_err, "%s", r->error);
            app_message(a, 1, "%s: %s", a->world.vehicles.p[i].id, r->error);
            a->msg_until = view_now() + MESSAGE_SECONDS;
        }
        return;
    }
}

static void note_history(struct app *a)
{
    char err[256];
    int rc = history_note(&a->hist, &a->world, err, sizeof err);
    if (rc == -1)
        app_message(a, 1, "out of memory: stepping back reaches less far");
    else if (rc == -2)
        app_message(a, 1, "tick %ld: a bot's mem is not plain data (%s): stepping "
                    "back over it is refused", a->world.tick, err);
}

static void fatal(struct app *a, const char *what)
{
    app_message(a, 1, "%s", what);
    a->fatal = 1;
    a->quit = 1;
}

int app_over(const struct app *a)
{
    long stop = seek_stop_tick(a);
    /* a match: each round's end shows its banner and pauses once */
    if (a->world.rounds > 1)
        return round_over(&a->world);
    return a->world.ended || (stop >= 0 && a->world.tick >= stop);
}

static void check_end(struct app *a)
{
    if (!app_over(a)) {
        a->ended_seen = 0;
        return;
    }
    if (!a->ended_seen) {
        /* The ending pauses the run once; it can still be stepped. */
        a->ended_seen = 1;
        a->paused = 1;
        a->banner_hidden = 0;
    }
}

int app_session_tick(void *ctx)
{
    struct app *a = ctx;
    return session_step(&a->run) != SESSION_STEPPED;
}

int app_step(struct app *a)
{
    int r;
    if (!follow_may_step(a)) {      /* --follow: the tick is not known yet */
        a->fl_waiting = 1;
        return 1;
    }
    /* A headless run stops at the map's duration: the viewer too, so what
     * it shows past there is no run's. */
    long stop = seek_stop_tick(a);
    if (a->world.rounds > 1 && a->seek.limit < 0 && round_match_over(&a->world)) {
        a->paused = 1;
        app_message(a, 0, "the match ends at tick %ld (its last round, %d, is over)",
                    a->world.tick, a->world.rounds);
        return 1;
    }
    if (a->world.rounds <= 1 && stop >= 0 && a->world.tick >= stop) {
        a->paused = 1;
        app_message(a, 0, "the run ends at tick %ld (the map's duration, %gs)", stop,
                    a->world.duration);
        return 1;
    }
    /* (a recorded map reload swaps the world first: then the step) */
    while ((r = session_step(&a->run)) == SESSION_NEW_WORLD)
        ;
    if (r == SESSION_FAILED) {
        fatal(a, "out of memory while stepping the simulation");
        return -1;
    }
    note_events(a);
    check_tick(a);              /* the state the step made, before ...  */
    drive_apply_log(a);         /* ... the player's input logged on it */
    tune_apply_log(a);          /* and the values tuned on it */
    note_bot_errors(a);
    tell_bot_error(a);
    note_history(a);
    compare_after_step(a);
    follow_after_step(a);
    record_hooks_after_step(a);     /* the recording's and the replay's news */
    tell_divergence(a);
    check_end(a);
    a->dirty = 1;
    return 0;
}

void app_step_back(struct app *a)
{
    if (a->world.tick <= 0) {
        app_message(a, 0, "already at tick 0");
        return;
    }
    struct history_hooks k = { hook_restore, hook_step, a, app_session_tick };
    long blocked = 0;
    int rc = history_back(&a->hist, &a->world, a->world.tick - 1, &k, &blocked);
    if (rc == 1)
        app_message(a, 0, "the history reaches back to tick %ld only",
                    history_oldest(&a->hist));
    else if (rc == 2)
        app_message(a, 1, "cannot step back: a bot's mem was not plain data at tick %ld",
                    blocked);
    else if (rc < 0)
        fatal(a, "out of memory while stepping back (or a bot could not be rebuilt)");
    tell_divergence(a);
    /* Ending seen again when stepping forward over it. */
    a->ended_seen = app_over(a);
    a->dirty = 1;
}

/* To a computed tick, back or forward (seek.c); history_goto's code. */
int app_goto(struct app *a, long tick)
{
    struct history_hooks k = { hook_restore, hook_step, a, app_session_tick };
    long blocked = 0;
    int rc = history_goto(&a->hist, &a->world, tick, &k, &blocked);
    if (rc == 2)
        app_message(a, 1, "cannot go to tick %ld: a bot's mem was not plain data at "
                    "tick %ld", tick, blocked);
    else if (rc < 0)
        fatal(a, "out of memory while seeking (or a bot could not be rebuilt)");
    tell_divergence(a);
    a->ended_seen = app_over(a);
    a->dirty = 1;
    return rc;
}

void app_restart(struct app *a)
{
    struct history_hooks k = { hook_restore, hook_step, a, app_session_tick };
    if (history_restart(&a->hist, &a->world, &k)) {
        fatal(a, "out of memory while restarting");
        return;
    }
    a->nmarks = 0;
    a->ended_seen = 0;
    a->diverged = -1;
    seek_reset(&a->seek);
    app_message(a, 0, "restarted");
}

void app_select(struct app *a, int dir)
{
    const struct world *w = &a->world;
    int n = (int)w->vehicles.n;
    if (n == 0)
        return;
    int any_alive = 0;
    for (int i = 0; i < n; i++)
        any_alive |= w->vehicles.p[i].alive;
    int i = a->sel;
    for (int k = 0; k < n; k++) {
        i = i < 0 ? (dir > 0 ? 0 : n - 1) : ((i + dir) % n + n) % n;
        /* Wrecks are skipped while something still moves. */
        if (!any_alive || w->vehicles.p[i].alive)
            break;
    }
    if (a->sel < 0)
        a->relayout = 1;
    a->sel = i;
    a->log_scroll = 0;
    a->dirty = 1;
}

/* ---- reload ------------------------------------------------------------------ */

/* The world and bots replaced by nw and nb (taken over), as a reload
 * does: keep the camera, the overlays and, by id, the selection.  0, or
 * -1 after a fatal error. */
int app_swap_world(struct app *a, struct world *nw, struct bot_world *nb)
{
    char sel_id[256] = "";
    if (a->sel >= 0 && (size_t)a->sel < a->world.vehicles.n)
        snprintf(sel_id, sizeof sel_id, "%s", a->world.vehicles.p[a->sel].id);
    history_free(&a->hist);
    int resized = nw->width != a->world.width || nw->height != a->world.height;
    bot_world_free(&a->world, a->bots);
    world_free(&a->world);
    a->world = *nw;
    a->world.threads = a->opt->threads;         /* --threads */
    a->world.threads_min = a->opt->threads_min;
    a->world.explain = 1;       /* the inspector shows the records */
    a->bots = nb;
    session_restart(&a->run);       /* the new world's ticks are new */
    free(a->load_error);
    a->load_error = NULL;
    replay_check_reset(&a->check);
    a->diverged = -1;
    a->bot_err[0] = 0;
    app_last_err_free(a->last_err, a->nlast_err);
    a->last_err = NULL;
    a->nlast_err = 0;
    /* The new map may name other scripts. */
    watch_stop(&a->wt);
    if (!a->opt->replay)
        watch_start(&a->wt, a->opt->map_path, &a->world, BOTFIELD_MAPS_DIR);
    if (history_init(&a->hist, &a->world, a->bots)) {
        fatal(a, "out of memory after reloading the map");
        return -1;
    }
    a->sel = sel_id[0] ? world_find_vehicle(&a->world, sel_id) : -1;
    if (a->sel < 0)
        a->follow = 0;
    a->nmarks = 0;
    a->ended_seen = 0;
    seek_reset(&a->seek);
    world_changed(a);
    a->relayout = 1;
    if (resized && a->cam.fitted)
        camera_fit(&a->cam, a->world.width, a->world.height);
    compare_reloaded(a);
    return 0;
}

void app_reload(struct app *a, int explicit)
{
    const char *path = a->opt->map_path;
    if (a->opt->replay) {
        app_message(a, 1, "a replay runs the recording's map: nothing to reload");
        return;
    }
    struct world nw;
    struct map_error err = { NULL, 0 };
    char *text = NULL;              /* for the recording */
    int rc = path ? map_load_kept(path, &a->opt->map, &nw, &err, &text)
                  : map_load_text("default.ini", map_default_text, map_default_len,
                                  &a->opt->map, &nw, &err);
    if (rc) {
        free(a->load_error);
        a->load_error = err.text;       /* taken over */
        err.text = NULL;
        map_error_free(&err);
        /* The hint goes first: the message is cut at the screen's edge. */
        app_message(a, 1, "map not reloaded (e: details): %s", a->load_error
                    ? a->load_error : "cannot load it");
        return;
    }
    /* The new map's bots too, before anything is swapped: a script that
     * does not load keeps the old map and bots running. */
    struct bot_world *nb = NULL;
    char *berr = NULL;
    if (bot_world_attach(&nw, BOTFIELD_MAPS_DIR, &nb, &berr)) {
        world_free(&nw);
        free(text);
        free(a->load_error);
        a->load_error = berr;
        app_message(a, 1, "map not reloaded (e: details): %s", berr ? berr
                    : "cannot load its bots");
        return;
    }
    long old_tick = a->world.tick;
    int rc2 = app_swap_world(a, &nw, nb);
    if (rc2 == 0)
        record_hooks_reloaded(a, old_tick, text ? text : map_default_text);
    free(text);
    if (rc2)
        return;
    app_message(a, 0, "%s %s", explicit ? "reloaded" : "map changed on disk: reloaded",
                path ? path : "the built-in map");
}

/* A bot script changed on disk: each changed one is reloaded in place (its
 * mem and the world kept); a broken edit keeps the old bot running. */
static void app_reload_bots(struct app *a)
{
    char *err = NULL;
    int n = bot_world_reload(a->bots, &a->world, &err);
    compare_reload_bots(a);
    if (n > 0) {
        /* The ticks computed so far came from the old script: a replay is
         * now expected to differ from them. */
        replay_check_reset(&a->check);
        history_cut(&a->hist, a->world.tick);
        a->diverged = -1;
        a->bot_err[0] = 0;
        for (size_t i = 0; i < a->nlast_err; i++)
            a->last_err[i].tick = -1;
        app_message(a, 0, "bot script changed on disk: %d bot%s reloaded", n,
                    n == 1 ? "" : "s");
        record_hooks_reloaded(a, a->world.tick, NULL);  /* its message last */
    }
    if (err) {
        free(a->load_error);
        a->load_error = err;
        app_message(a, 1, "bot not reloaded, the old one runs on (e: details): %s", err);
    }
    a->dirty = 1;
}

/* ---- the terminal -------------------------------------------------------------- */

static int init_colors(void)
{
    const char *nc = getenv("NO_COLOR");
    if ((nc && *nc) || !has_colors())
        return 0;
    if (start_color() == ERR)
        return 0;
    short bg = COLOR_BLACK;
#ifdef NCURSES_VERSION
    /* The terminal's own background, not a black rectangle. */
    if (use_default_colors() == OK)
        bg = -1;
#endif
    for (int i = 1; i < COL_COUNT && i < COLOR_PAIRS; i++)
        init_pair((short)i, pal_term_color(i, COLORS), bg);
    return COLOR_PAIRS >= COL_COUNT;
}

/* Braille and arrows need a UTF-8 locale, a wide curses and a font that
 * has them: the Linux console's and a real VT100's do not. */
static int want_unicode(const struct view_options *o)
{
    if (o->ascii || !TUI_WIDE)
        return 0;
    const char *cs = nl_langinfo(CODESET);
    if (!cs || (strcmp(cs, "UTF-8") && strcmp(cs, "utf8")))
        return 0;
    const char *term = getenv("TERM");
    if (term && (!strncmp(term, "linux", 5) || !strncmp(term, "vt1", 3)
                 || !strncmp(term, "vt2", 3) || !strcmp(term, "dumb")))
        return 0;
    return 1;
}

/* Why curses cannot drive this terminal (a blank viewer otherwise), or
 * NULL: TERM=dumb and other terminals without cursor addressing. */
static const char *cannot_drive(void)
{
    char *cup = tigetstr((char *)"cup");
    if (!cup || cup == (char *)-1)
        return "it cannot move the cursor";
    return NULL;
}

/* The quit signals end the viewer as q does (the recording gets its end
 * line), then it dies of the signal; Ctrl-\ (SIGQUIT) is one of them.
 * Ctrl-Z (SIGTSTP) is ours too, not curses': its handler would give the
 * layer (term_out.h) its modes back, not the real terminal. */
static const int handled_signals[] = { SIGWINCH, SIGTSTP, SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define NSIGNALS (int)(sizeof handled_signals / sizeof handled_signals[0])

static int setup_signals(struct sigaction *old)
{
    if (pipe(sig_pipe))
        return -1;
    for (int k = 0; k < 2; k++) {
        fcntl(sig_pipe[k], F_SETFL, fcntl(sig_pipe[k], F_GETFL) | O_NONBLOCK);
        fcntl(sig_pipe[k], F_SETFD, FD_CLOEXEC);
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    quitting = 0;
    /* No SA_RESTART: poll() returns at once. */
    for (int k = 0; k < NSIGNALS; k++) {
        sigaction(handled_signals[k], &sa, &old[k]);
        /* A shell without job control ignores SIGTSTP for its children:
         * Ctrl-Z then stays a no-op. */
        if (handled_signals[k] == SIGTSTP && old[k].sa_handler == SIG_IGN)
            sigaction(SIGTSTP, &old[k], NULL);
    }
    return 0;
}

static void restore_signals(const struct sigaction *old)
{
    for (int k = 0; k < NSIGNALS; k++)
        sigaction(handled_signals[k], &old[k], NULL);
    close(sig_pipe[0]);
    close(sig_pipe[1]);
    sig_pipe[0] = sig_pipe[1] = -1;
}

static void on_resize(struct app *a)
{
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0) {
        if (a->tout)
            term_out_resize(a->tout, ws.ws_row, ws.ws_col);
        resizeterm(ws.ws_row, ws.ws_col);
    }
    /* The physical screen is unknown after a resize: repaint it all once. */
    clearok(curscr, TRUE);
    app_layout(a);
}

static void draw(struct app *a);

/* Ctrl-Z: the real terminal given back as endwin() leaves it (the shell's
 * screen, the cursor, its modes), the process stopped; on SIGCONT the
 * viewer's modes come back and the whole screen is drawn anew. */
static void suspend(struct app *a)
{
    endwin();
    if (a->tout)
        term_out_suspend(a->tout);
    struct sigaction dfl, mine;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGTSTP, &dfl, &mine);
    raise(SIGTSTP);             /* returns once continued (fg, bg) */
    sigaction(SIGTSTP, &mine, NULL);
    reset_prog_mode();
    if (a->tout)
        term_out_sync(a->tout);
    on_resize(a);               /* the size may have changed meanwhile */
    draw(a);
    a->dirty = 0;
}

/* ---- the loop ------------------------------------------------------------------ */

unsigned long long app_term_bytes(struct app *a)
{
    return a->tout ? term_out_bytes(a->tout) : 0;
}

static void draw(struct app *a)
{
    if (a->too_small)
        draw_too_small(a);
    else
        view_screens[a->screen].draw(a);
    wnoutrefresh(stdscr);
    doupdate();
}

static void key_act(struct app *a, int ch);

/* A key; --follow notes whether it left the live end. */
static void key(struct app *a, int ch)
{
    a->dirty = 1;
    long tick_before = a->world.tick;
    int paused_before = a->paused;
    if (follow_key(a, ch))
        return;
    key_act(a, ch);
    follow_key_after(a, tick_before, paused_before);
}

static void key_act(struct app *a, int ch)
{
    if (seek_key(a, ch) || tune_key(a, ch) || drive_key(a, ch))
        return;
    const struct view_key *k = view_key_find(ch);
    if (k && (k->flags & VIEW_KEY_ANY_SCREEN)) {
        k->act(a, ch);
        return;
    }
    if (ch == KEY_RESIZE)       /* handled through SIGWINCH */
        return;
    if (a->too_small)
        return;
    int was_paused = a->paused;
    view_screens[a->screen].key(a, ch);
    if (was_paused && !a->paused)
        a->dirty = 1;
}

static int ms_until(double t, double now)
{
    double ms = ceil((t - now) * 1000);
    return ms < 0 ? 0 : ms > 60000 ? 60000 : (int)ms;
}

/* The loop's clocks: when the next tick is due, the next frame, a
 * reload of a changed file (its kinds, WATCH_MAP or scripts). */
struct clocks {
    double next_tick, next_frame, reload_at;
    double last_frame;          /* when the last frame was drawn */
    int key_frame;              /* the frame due shows a key's effect */
    int reload_what;
    int was_running;
};

/* The ticks due by now: a seek's share, as fast as it goes (max), or
 * on the tick rate's clock. */
static void advance(struct app *a, struct clocks *k)
{
    int running = !a->paused;
    double period = 1.0 / (a->world.tick_rate * a->speed);
    if (running && !k->was_running) {
        k->next_tick = a->now + (a->speed_max ? 0 : period);
        /* Its job is done: the counts come back. */
        if (!strcmp(a->msg, first_hint)) {
            a->msg[0] = 0;
            a->dirty = 1;
        }
    }
    k->was_running = running;
    if (seek_busy(a))
        seek_work(a, a->now + FRAME_SECONDS * 0.8);
    else if (running && a->speed_max) {
        /* As fast as it goes, but a frame and the keys every 1/30 s. */
        double stop = a->now + FRAME_SECONDS * 0.8;
        do {
            if (app_step(a))
                break;
        } while (!a->paused && view_now() < stop);
    } else if (running) {
        for (int n = 0; k->next_tick <= a->now && !a->paused && !a->quit; n++) {
            if (app_step(a))
                break;
            k->next_tick += period;
            /* Too slow to keep up: run slower rather than never draw. */
            if (n > 1000 || view_now() - a->now > FRAME_SECONDS) {
                k->next_tick = view_now() + period;
                break;
            }
        }
    }
}

/* What is due besides ticks: a message's end, a reload, a frame. */
static void upkeep(struct app *a, struct clocks *k)
{
    if (a->msg_until > 0 && a->now >= a->msg_until) {
        a->msg[0] = 0;
        a->msg_until = 0;
        a->dirty = 1;
    }
    if (k->reload_at > 0 && a->now >= k->reload_at) {
        k->reload_at = 0;
        /* A new map reads its scripts anew too. */
        if (k->reload_what & WATCH_MAP)
            app_reload(a, 0);
        else
            app_reload_bots(a);
        k->reload_what = 0;
    }
    if (a->relayout)
        app_layout(a);
    if (a->quit || !a->dirty || a->now < k->next_frame)
        return;
    /* Over the byte budget the frame is skipped: the next one, when the
     * budget allows, shows the simulation as it is then. */
    double wait = pace_wait(&a->pace, a->now, app_term_bytes(a));
    /* A key's frame may go into debt (repaid by the frames after it, so
     * the mean stays within the budget): a key shows at once, the
     * simulation's own frames wait. */
    if (k->key_frame && wait <= KEY_DEBT_SECONDS)
        wait = 0;
    if (wait > 0)
        k->next_frame = a->now + wait;
    else {
        draw(a);
        a->dirty = 0;
        k->key_frame = 0;
        k->last_frame = a->now;
        k->next_frame = a->now + 1 / a->pace.fps;
    }
}

static int sooner(int timeout, double t)
{
    int ms = ms_until(t, view_now());
    return timeout < 0 || ms < timeout ? ms : timeout;
}

/* How long poll may sleep: until the first thing due (-1: a key). */
static int poll_timeout(const struct app *a, const struct clocks *k)
{
    int timeout = follow_timeout(a, -1);
    if (!a->paused && !a->fl_waiting) {
        /* Ticks due before the next frame can wait for it: nobody sees
         * them sooner, and the loop wakes 30 times a second, not
         * tick_rate x speed times. */
        double wake = k->next_tick > k->next_frame ? k->next_tick : k->next_frame;
        timeout = a->speed_max ? 0 : ms_until(wake, view_now());
    }
    if (seek_busy(a))
        timeout = 0;
    if (a->dirty)
        timeout = sooner(timeout, k->next_frame);
    if (a->msg_until > 0)
        timeout = sooner(timeout, a->msg_until);
    if (k->reload_at > 0)
        timeout = sooner(timeout, k->reload_at);
    return timeout;
}

/* The signals the pipe brought: a resize, a suspend, or a quit. */
static void on_signals(struct app *a, struct clocks *k)
{
    unsigned char s[16];
    ssize_t n = read(sig_pipe[0], s, sizeof s);
    for (ssize_t i = 0; i < n; i++) {
        if (s[i] == SIGWINCH)
            on_resize(a);
        else if (s[i] == SIGTSTP) {
            suspend(a);
            /* The run goes on from where it stopped, no catching up. */
            k->next_tick = view_now();
        } else {
            a->quit = 1;
            a->quit_signal = s[i];
            break;
        }
    }
}

/* Waits for a key, a signal, a changed file or the first thing due, and
 * takes what came. */
static void wait_and_take(struct app *a, struct clocks *k)
{
    struct watch *wt = &a->wt;
    struct pollfd fds[4] = {
        { STDIN_FILENO, POLLIN, 0 }, { sig_pipe[0], POLLIN, 0 },
        { wt->fd, POLLIN, 0 }, { follow_poll_fd(a), POLLIN, 0 },
    };
    int nfds = 4;               /* (poll skips a negative fd) */
    int rc = poll(fds, (nfds_t)nfds, poll_timeout(a, k));
    if (rc < 0 && errno != EINTR) {
        fatal(a, "poll failed");
        return;
    }
    if (rc <= 0)
        return;
    if (fds[1].revents & POLLIN)
        on_signals(a, k);
    if (fds[0].revents & (POLLHUP | POLLERR | POLLNVAL)) {
        /* The terminal went away without a SIGHUP. */
        a->quit = 1;
        a->quit_signal = SIGHUP;
        return;
    }
    if (fds[0].revents & POLLIN) {
        int ch;
        while (!a->quit && (ch = getch()) != ERR)
            key(a, ch);
        /* A key shows at once, not at the next of a low --fps's frames
         * (the arena's 10 a second): at most 30 frames a second still,
         * and the byte budget still holds (upkeep). */
        double soon = k->last_frame + FRAME_SECONDS;
        if (soon < k->next_frame)
            k->next_frame = soon;
        k->key_frame = a->dirty;
    }
    int changed;
    if (fds[3].revents & (POLLIN | POLLHUP))
        follow_read(a);
    if (wt->fd >= 0 && (fds[2].revents & POLLIN) && (changed = watch_read(wt))) {
        k->reload_what |= changed;
        k->reload_at = view_now() + RELOAD_DELAY;
    }
}

static void run(struct app *a)
{
    struct clocks k = { view_now(), 0, 0, 0, 0, 0, 0 };
    while (!a->quit) {
        a->now = view_now();
        advance(a, &k);
        follow_catch_up(a);
        upkeep(a, &k);
        if (a->quit)
            break;
        wait_and_take(a, &k);
    }
}

/* The app for w (taken over, with o's bots and the replay's vr): the
 * session, the history, the second world.  NULL when memory ran out
 * (said; w freed). */
static struct app *app_new(const struct view_options *o, struct world *w, struct view_rec *vr)
{
    struct app *a = calloc(1, sizeof *a);
    if (!a) {
        compare_drop(o);
        bot_world_free(w, o->bots);
        world_free(w);
        fprintf(stderr, "botfield: out of memory\n");
        return NULL;
    }
    a->world = *w;
    a->world.explain = 1;       /* the inspector shows the records */
    a->world.threads = o->threads;              /* --threads */
    a->world.threads_min = o->threads_min;
    a->bots = o->bots;
    a->opt = o;
    a->rec = vr;
    a->fl = o->follow;
    a->live = o->follow != NULL;
    if (a->fl)
        a->screen = (enum screen_id)a->fl->screen;     /* (follow.c: quit_for_next) */
    record_hooks_attach(a);
    a->diverged = -1;
    a->wt.fd = -1;
    a->seek.limit = record_hooks_last_tick(a);  /* -1: a live run */
    seek_reset(&a->seek);
    replay_check_reset(&a->check);
    a->sel = -1;
    a->paused = o->paused != 0;
    if (o->paused == 2) {
        app_message(a, 0, "%s", first_hint);
        a->msg_until = 0;           /* until a key replaces it */
    }
    a->speed = o->speed > 0 ? o->speed : 1;
    a->overlays = OV_COLL;
    a->cam.fitted = 1;
    world_changed(a);
    if (history_init(&a->hist, &a->world, a->bots) || compare_start(a)) {
        history_free(&a->hist);
        bot_world_free(&a->world, a->bots);
        world_free(&a->world);
        session_free(&a->run);
        free(a);
        fprintf(stderr, "botfield: out of memory\n");
        return NULL;
    }
    return a;
}

/* Everything the app holds, freed (its recording ended first). */
static void app_free(struct app *a)
{
    record_hooks_finish(a);
    compare_free(a);
    history_free(&a->hist);
    bot_world_free(&a->world, a->bots);
    world_free(&a->world);
    canvas_free(&a->cv);
    canvas_free(&a->ground);
    app_last_err_free(a->last_err, a->nlast_err);
    free(a->load_error);
    drive_reset(a);
    tune_free(a);
    session_free(&a->run);
    free(a);
}

/* The screen: curses on the (counted) terminal, set up as the viewer
 * wants it.  NULL, or why it cannot be (*scr NULL then). */
static const char *screen_open(struct app *a, SCREEN **scr)
{
    /* A short Esc: the help closes at once (ncurses waits 1 s by default
     * to tell Esc from the start of an escape sequence). */
    if (!getenv("ESCDELAY"))
        setenv("ESCDELAY", "25", 1);
    term_restore_save(STDIN_FILENO);
    /* Counted, for --rate; without a pseudo-terminal, straight. */
    a->tout = term_out_open(STDIN_FILENO, STDOUT_FILENO);
    *scr = newterm(NULL, a->tout ? term_out_file(a->tout) : stdout, stdin);
    if (*scr)
        set_term(*scr);
    const char *why = *scr ? cannot_drive() : "curses does not know it";
    if (why) {
        if (*scr) {
            endwin();
            delscreen(*scr);
            *scr = NULL;
        }
        term_out_close(a->tout);
        a->tout = NULL;
        return why;
    }
    /* Whatever shared code says on stderr from now on waits for the
     * screen to be given back. */
    stderr_hold_start();
    cbreak();               /* keys at once; ^C still sends SIGINT */
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);  /* getch() never blocks: poll() waits */
    leaveok(stdscr, TRUE);
    curs_set(0);
    mmask_t mm = BUTTON1_PRESSED | BUTTON1_CLICKED;
#ifdef BUTTON5_PRESSED
    mm |= BUTTON4_PRESSED | BUTTON5_PRESSED;
#endif
    mousemask(mm, NULL);
    mouseinterval(0);
    if (a->tout)
        term_out_sync(a->tout);
    pace_init(&a->pace, a->opt->rate, a->opt->fps, view_now(), app_term_bytes(a));
    /* A crash gives the terminal back too (the fatal signals die, but
     * only after restoring it). */
    term_restore_arm(STDOUT_FILENO);
    a->style.color = init_colors();
    a->style.no_bold = a->style.color ? pal_no_bold(COLORS) : 0;
    a->style.utf8 = want_unicode(a->opt);
    a->ascii = !a->style.utf8;
    a->cv.braille = a->style.utf8;
    app_layout(a);
    return NULL;
}

/* The terminal given back as it was. */
static void screen_close(struct app *a, SCREEN *scr)
{
    endwin();
    delscreen(scr);
    term_out_close(a->tout);
    a->tout = NULL;
    term_restore_disarm();
    stderr_hold_end();
}

int view_run(const struct view_options *o, struct world *w)
{
    /* --replay: the recording's world and bots (o->replay, w NULL). */
    struct view_options ro;
    struct world rw;
    struct view_rec *vr = NULL;
    if (o->replay) {
        int rc = record_hooks_replay_open(o, &ro, &rw, &vr);
        if (rc)
            return rc;
        o = &ro;
        w = &rw;
    }
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        compare_drop(o);
        bot_world_free(w, o->bots);
        world_free(w);
        fprintf(stderr, "botfield: the viewer needs a terminal; use --headless for a run without one\n");
        return 1;
    }
    struct app *a = app_new(o, w, vr);
    if (!a)
        return 1;
    /* A recording into a pipe whose reader is gone fails with EPIPE and
     * is said, from its first line on: the header is written here, before
     * term_restore_arm() ignores SIGPIPE for the screen's sake, and a
     * reader that left early killed the viewer without a word. */
    signal(SIGPIPE, SIG_IGN);
    if (record_hooks_start(a)) {
        app_free(a);
        return 1;
    }
    struct sigaction old[NSIGNALS];
    if (setup_signals(old)) {
        int e = errno;
        app_free(a);
        fprintf(stderr, "botfield: cannot set up the signal pipe: %s\n", strerror(e));
        return 1;
    }
    SCREEN *scr;
    const char *why = screen_open(a, &scr);
    if (why) {
        restore_signals(old);
        app_free(a);
        const char *t = getenv("TERM");
        fprintf(stderr, "botfield: cannot use the terminal type '%s': %s; the viewer needs "
                "a terminal such as xterm-256color (or use --headless)\n",
                t ? t : "(unset)", why);
        return 1;
    }
    if (!o->replay)             /* a replay's map and scripts are the recording's */
        watch_start(&a->wt, o->map_path, &a->world, BOTFIELD_MAPS_DIR);
    tune_reset(a);
    run(a);
    watch_stop(&a->wt);
    screen_close(a, scr);
    restore_signals(old);

    int status = 0;
    if (a->fatal) {
        fprintf(stderr, "botfield: %s\n", a->msg);
        status = 1;
    }
    int sig = a->quit_signal;
    app_free(a);
    if (sig) {
        /* Die of the signal, as the parent expects, now the terminal is
         * restored. */
        signal(sig, SIG_DFL);
        raise(sig);
        return 128 + sig;
    }
    return status;
}
