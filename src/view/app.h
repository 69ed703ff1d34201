/* app.h — the viewer's state, shared by the files of src/view/ (not a
 * public interface: view.h is).
 *
 * The loop (loop.c) owns an app: the world being shown, the camera, the
 * canvas, the history, and what the user chose (overlays, selection,
 * speed).  Drawing functions read it; key functions change it.  Each screen
 * state (map, help, error) is a draw and a key function, as ncdu does. */
#ifndef BOTFIELD_APP_H
#define BOTFIELD_APP_H

#include "../bot/bot.h"
#include "../core/world.h"
#include "../run/session.h"
#include "camera.h"
#include "canvas.h"
#include "drive.h"
#include "../run/history.h"
#include "pace.h"
#include "palette.h"
#include "replay_check.h"
#include "seek.h"
#include "view.h"
#include "watch.h"

enum overlay {
    OV_RAYS = 1, OV_CONES = 2, OV_AVOID = 4, OV_TRAJ = 8, OV_WAYP = 16,
    OV_COLL = 32, OV_BOTS = 64, OV_LABELS = 128, OV_CANDS = 256,
    OV_WALK = 512
};

enum screen_id { SCREEN_MAP, SCREEN_HELP, SCREEN_ERROR, SCREEN_MATCHES, SCREEN_LADDER,
                 SCREEN_COUNT };

/* Collision marks outlive their one-tick event for a while. */
#define MARKS_MAX 64
#define MARK_TICKS 120
struct mark { long tick; vec2 p; };

/* A bot's report holds only this tick's error; the inspector shows the
 * last one it gave, as of the tick shown (a step back hides later ones). */
struct bot_last_error {
    long tick;                      /* -1: none */
    char error[BOT_ERR_BYTES];
    char traceback[BOT_TRACE_BYTES];
    struct bot_log_ring *logs;      /* its log lines, NULL until it logs */
};

/* A report holds only this tick's log lines either: the inspector keeps
 * each bot's last BOT_LOG_KEEP with their ticks, oldest first, and shows
 * BOT_LOG_SHOW of them at a time ([ and ] scroll). */
#define BOT_LOG_KEEP 50
#define BOT_LOG_SHOW 8
struct bot_log_ring {
    int first, n;                   /* the oldest's slot, how many */
    struct {
        long tick;
        char text[BOT_LOG_BYTES + 1];
    } line[BOT_LOG_KEEP];
};

#define SPEED_MAX_IDX 9             /* speeds[] index of "max" */
extern const double view_speeds[SPEED_MAX_IDX];

struct app {
    struct world world;             /* owned */
    struct bot_world *bots;         /* its Lua bots (owned), NULL: none */
    struct session run;             /* steps them (record_hooks_attach) */
    int have_world;
    const struct view_options *opt;
    struct history hist;
    struct seek seek;               /* going to a tick (seek.h) */
    struct drive_mode drive;        /* driving the player tank (drive.h) */
    struct view_compare *cmp;       /* --compare (compare.h), NULL: none */
    struct replay_check check;      /* replayed ticks against first runs */
    long diverged;                  /* first differing tick of a replay, -1 */
    struct watch wt;                /* the map file and the bots' scripts */
    char bot_err[BOT_ERR_BYTES];    /* the last bot error shown */
    struct bot_last_error *last_err;    /* per vehicle, for the inspector */
    size_t nlast_err;
    int log_scroll;                 /* the inspector's log: lines back from
                                       the newest ([ and ]) */
    struct camera cam;
    struct canvas cv;
    struct canvas ground;           /* trees and track: redrawn only when */
    struct camera ground_cam;       /* the camera moved since (draw_map.c) */
    int ground_ok;
    double max_tree_r;              /* largest tree radius of the world */
    unsigned ground_trees;          /* the world's trees_version drawn */
    struct canvas_style style;
    int ascii;                      /* draw ASCII glyphs (no braille, no arrows) */

    int screen;                     /* enum screen_id */
    int help_top;                   /* first line of the help shown */
    int too_small;
    int rows, cols;                 /* terminal size */
    int map_x, map_y;               /* map area origin; size in cam.w/h */
    int panel_w;                    /* inspector width, 0: hidden */

    int overlays;                   /* enum overlay bits */
    int sel;                        /* selected vehicle, -1: none */
    int follow;
    int paused;
    double speed;                   /* ticks run at tick_rate x speed */
    int speed_max;                  /* as fast as possible */

    int banner_hidden;              /* Esc hid the ending banner */
    int ended_seen;                 /* the ending already paused the run */

    struct mark marks[MARKS_MAX];
    int nmarks;

    char msg[256];                  /* status-line message */
    int msg_err;
    double msg_until;               /* monotonic seconds; 0: until replaced */
    char *load_error;               /* full text of the last failed reload */

    int quit;
    int quit_signal;                /* quit because of this signal */
    int fatal;                      /* quit with an error (msg says what) */
    int dirty;                      /* something to redraw */
    int relayout;                   /* sizes changed */
    double now;                     /* monotonic seconds of this loop turn */
    struct view_rec *rec;           /* --record, --replay (record_hooks.c) */
    struct tune_state *tune;        /* the tuning panel (tune_panel.h) */
    struct pace pace;               /* frames a second and bytes a second */
    struct term_out *tout;          /* the counted output (term_out.h), NULL */
    /* --follow (follow.h): the stream, NULL: not following */
    struct view_follow *fl;
    int live;                       /* at the newest tick known, staying there */
    int fl_waiting;                 /* live, waiting for the next tick's lines */
    int fl_dead;                    /* the stream failed: following stopped */
    double fl_retry_at;             /* a regular file's next look */
    double fl_next_at;              /* the arena's next match, 0: not due */
};

/* loop.c */
double view_now(void);
void app_message(struct app *a, int err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void app_layout(struct app *a);
/* One step forward: 0; 1 when the run is at its end (the map's duration:
 * refused, said); -1 on a fatal error. */
int app_step(struct app *a);
/* The run is over: the battle won or the races finished, or the map's
 * duration reached (seek_stop_tick): the banner shows. */
int app_over(const struct app *a);
/* One tick of the world in place through its session (a->run), for the
 * history's recomputations and --compare's second world: 0, or 1 when
 * it could not be computed. */
int app_session_tick(void *ctx);
void app_step_back(struct app *a);
int app_goto(struct app *a, long tick);
void app_restart(struct app *a);
void app_reload(struct app *a, int explicit);
int app_swap_world(struct app *a, struct world *nw, struct bot_world *nb);
void app_select(struct app *a, int dir);
/* The per-vehicle errors and logs freed (their array too). */
void app_last_err_free(struct bot_last_error *e, size_t n);
/* Vehicle i's kept log lines up to the tick shown (the oldest n of its
 * ring: a step back hides the later ones); 0 when none. */
int app_bot_log_lines(const struct app *a, int i);
/* The bytes written to the terminal so far (0 when they are not counted). */
unsigned long long app_term_bytes(struct app *a);
/* A step's collision events into the marks (compare.c: B's too). */
void note_events(struct app *a);

/* draw_map.c: the map layers into the canvas */
void draw_map(struct app *a);
/* glyph helpers shared by the drawing files */
uint32_t glyph_heading(const struct app *a, double heading);
int team_color(const struct app *a, int team);
int team_attr(const struct app *a, int team);
int vehicle_color(const struct app *a, int i);
const char *vehicle_name(const struct app *a, int i);

/* overlays.c */
void draw_overlays(struct app *a);

/* panels.c */
void draw_status(struct app *a);
void draw_inspector(struct app *a);
void draw_banner(struct app *a);

/* keys_table.c: the viewer's keys, one row each: the map screen runs
 * them, the help screen lists them, the man page prints them. */
#define VIEW_KEY_CODES 8
#define VIEW_KEY_ANY_SCREEN 1       /* also on the help and error screens */
#define VIEW_KEY_DRIVE 2            /* only in drive mode, where it comes
                                       first (drive.c) */
#define VIEW_KEY_TUNE 4             /* only while the tuning panel is open,
                                       where it comes first (tune_panel.c) */
struct view_key {
    const char *name;               /* as the help and the man page say it */
    int codes[VIEW_KEY_CODES];      /* what curses reads; 0 ends the list */
    const char *help;               /* its line on the ? screen */
    const char *man;                /* its man page entry (roff) */
    void (*act)(struct app *a, int ch);  /* ch: which of the codes */
    unsigned flags;                 /* VIEW_KEY_* */
};
extern const struct view_key view_keys[];
extern const int view_nkeys;
/* The row of a key code, or NULL (the drive mode's rows are not found). */
const struct view_key *view_key_find(int ch);
/* The drive mode's row of a key code, or NULL. */
const struct view_key *drive_key_find(int ch);
/* The tuning panel's row of a key code, or NULL. */
const struct view_key *tune_key_find(int ch);

/* screens.c: each screen's draw and key functions */
struct screen {
    void (*draw)(struct app *a);
    int (*key)(struct app *a, int ch);   /* 1: handled */
};
extern const struct screen view_screens[SCREEN_COUNT];
void draw_too_small(struct app *a);

#endif
