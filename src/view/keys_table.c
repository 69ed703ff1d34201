/* keys_table.c — the viewer's keys: one table of what each key is called,
 * the codes curses reads for it, its line on the ? screen, its entry in
 * the man page and the function it runs.  The map screen dispatches
 * through it, the help screen lists it, and `botfield --man-viewer-keys`
 * prints it for the man page's KEYS section (Makefile.am), so a key is
 * added, changed or documented in this one place. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "app.h"
#include "arena_view.h"
#include "tui.h"
#include "tune_panel.h"

/* ---- what the keys do ---------------------------------------------------- */

static void toggle(struct app *a, int bit, const char *name)
{
    a->overlays ^= bit;
    app_message(a, 0, "%s %s", name, a->overlays & bit ? "on" : "off");
}

static void key_pause(struct app *a, int ch)
{
    (void)ch;
    a->paused = !a->paused;
}

static void key_step(struct app *a, int ch)
{
    a->paused = 1;
    if (ch == ',')
        app_step_back(a);
    else
        app_step(a);
}

/* Seeking (seek.c): a tick, the start, the end, ten seconds, an event. */
static void key_goto(struct app *a, int ch) { (void)ch; seek_prompt(a); }

static void key_home_end(struct app *a, int ch)
{
    if (ch == KEY_END)
        seek_end(a);
    else
        seek_to(a, 0);
}

static void key_page(struct app *a, int ch)
{
    long d = lround(a->world.tick_rate * SEEK_JUMP_SECONDS);
    seek_to(a, a->world.tick + (ch == KEY_PPAGE ? -d : d));
}

static void key_event(struct app *a, int ch) { seek_event(a, ch == 'n' ? 1 : -1); }

static void key_speed(struct app *a, int ch)
{
    if (ch == '+' || ch == '=') {
        if (a->speed_max)
            return;
        if (a->speed >= view_speeds[SPEED_MAX_IDX - 1])
            a->speed_max = 1;
        else
            for (int k = 0; k < SPEED_MAX_IDX; k++)
                if (view_speeds[k] > a->speed * (1 + 1e-9)) {
                    a->speed = view_speeds[k];
                    break;
                }
    } else if (a->speed_max)
        a->speed_max = 0;
    else
        for (int k = SPEED_MAX_IDX - 1; k >= 0; k--)
            if (view_speeds[k] < a->speed * (1 - 1e-9)) {
                a->speed = view_speeds[k];
                break;
            }
}

/* The byte-rate budget (pace.h): b halves it, B doubles it. */
static void key_rate(struct app *a, int ch)
{
    pace_step(&a->pace, ch == 'b' ? -1 : 1, view_now(), app_term_bytes(a));
    if (a->pace.rate > 0)
        app_message(a, 0, "terminal budget %.0f bytes/s: frames that do not fit are "
                    "skipped", a->pace.rate);
    else
        app_message(a, 0, "terminal budget: none");
}

static void key_rays(struct app *a, int ch) { (void)ch; toggle(a, OV_RAYS, "rays"); }
static void key_cones(struct app *a, int ch) { (void)ch; toggle(a, OV_CONES, "view cones"); }
static void key_avoid(struct app *a, int ch) { (void)ch; toggle(a, OV_AVOID, "avoidance"); }
static void key_traj(struct app *a, int ch) { (void)ch; toggle(a, OV_TRAJ, "aim and trajectories"); }
static void key_wayp(struct app *a, int ch) { (void)ch; toggle(a, OV_WAYP, "waypoints and turning circles"); }
static void key_coll(struct app *a, int ch) { (void)ch; toggle(a, OV_COLL, "collision marks"); }
static void key_bots(struct app *a, int ch) { (void)ch; toggle(a, OV_BOTS, "bot drawings"); }
static void key_labels(struct app *a, int ch) { (void)ch; toggle(a, OV_LABELS, "vehicle ids"); }
static void key_cands(struct app *a, int ch) { (void)ch; toggle(a, OV_CANDS, "avoidance candidates"); }

static void key_walk(struct app *a, int ch)
{
    (void)ch;
    toggle(a, OV_WALK, "sight walk and hidden parts");
    /* It shows one observer's walk: say so rather than show nothing. */
    if ((a->overlays & OV_WALK) && a->sel < 0)
        app_message(a, 0, "sight walk on: select an observer (Tab) to see its walk");
}

static void key_select(struct app *a, int ch)
{
    app_select(a, ch == KEY_BTAB ? -1 : 1);
    /* Below 72 columns the inspector is not drawn (loop.c's layout): say
     * what was selected and why nothing opened, or Tab seems dead. */
    if (a->cols < 72 && a->sel >= 0 && (size_t)a->sel < a->world.vehicles.n) {
        const char *id = a->world.vehicles.p[a->sel].id;
        app_message(a, 0, "%s selected; the inspector needs 72 columns",
                    id ? id : "a vehicle");
    }
}

static void key_click(struct app *a, int ch)
{
    (void)ch;
    MEVENT ev;
    if (getmouse(&ev) != OK)
        return;
#ifdef BUTTON5_PRESSED
    /* The wheel zooms, where the terminal reports it. */
    if (ev.bstate & BUTTON4_PRESSED) {
        camera_zoom(&a->cam, 1.25);
        return;
    }
    if (ev.bstate & BUTTON5_PRESSED) {
        camera_zoom(&a->cam, 1 / 1.25);
        return;
    }
#endif
    if (!(ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
        return;
    int x = ev.x - a->map_x, y = ev.y - a->map_y;
    if (x < 0 || y < 0 || x >= a->cam.w || y >= a->cam.h)
        return;
    vec2 p = camera_world(&a->cam, x, y);
    /* The nearest vehicle within about a cell and a half of the click:
     * a glyph is much bigger than a tank when zoomed out. */
    double best = fmax(1.5 * 2.0 * a->cam.upc, 0);
    int pick = -1;
    const struct world *w = &a->world;
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        double d = v2_dist(v->pos, p) - v->p->radius;
        if (d < best || (d == best && pick >= 0 && !w->vehicles.p[pick].alive && v->alive)) {
            best = d;
            pick = (int)i;
        }
    }
    if (pick != a->sel) {
        a->sel = pick;
        a->relayout = 1;
    }
}

static void key_follow(struct app *a, int ch)
{
    (void)ch;
    if (a->sel < 0)
        app_select(a, 1);
    a->follow = a->sel >= 0 && !a->follow;
    if (a->follow)
        a->cam.fitted = 0;
}

static void key_pan(struct app *a, int ch)
{
    a->follow = 0;
    switch (ch) {
    case KEY_LEFT: case 'h': camera_pan(&a->cam, -0.125, 0); break;
    case KEY_RIGHT: case 'l': camera_pan(&a->cam, 0.125, 0); break;
    case KEY_UP: case 'k': camera_pan(&a->cam, 0, -0.125); break;
    default: camera_pan(&a->cam, 0, 0.125); break;
    }
}

static void key_zoom(struct app *a, int ch)
{
    camera_zoom(&a->cam, ch == 'z' ? 1.5 : 1 / 1.5);
}

static void key_fit(struct app *a, int ch)
{
    (void)ch;
    a->follow = 0;
    camera_fit(&a->cam, a->world.width, a->world.height);
}

static void key_restart(struct app *a, int ch) { (void)ch; app_restart(a); }
static void key_reload(struct app *a, int ch) { (void)ch; app_reload(a, 1); }

static void key_error(struct app *a, int ch)
{
    (void)ch;
    if (a->load_error)
        a->screen = SCREEN_ERROR;
    else
        /* e shows what failed to load; a run-time error lives in the
         * inspector, and a newcomer pressing e for it must learn where. */
        app_message(a, 0, "no failed load to show; a bot's run-time error: "
                    "Tab, the inspector");
}

static void key_escape(struct app *a, int ch)
{
    (void)ch;
    /* Esc peels one thing at a time: the banner, then the selection.
     * (The help and error screens close on it themselves.) */
    if (app_over(a) && !a->banner_hidden)
        a->banner_hidden = 1;
    else if (a->sel >= 0) {
        a->sel = -1;
        a->follow = 0;
        a->relayout = 1;
    } else
        a->msg[0] = 0;
}

/* The inspector's bot log: half a screen of lines older ([) or newer (]),
 * held to the lines there are. */
static void key_log_scroll(struct app *a, int ch)
{
    int n = app_bot_log_lines(a, a->sel);
    int most = n > BOT_LOG_SHOW ? n - BOT_LOG_SHOW : 0;
    int s = a->log_scroll + (ch == '[' ? BOT_LOG_SHOW / 2 : -BOT_LOG_SHOW / 2);
    a->log_scroll = s < 0 ? 0 : s > most ? most : s;
    if (n <= BOT_LOG_SHOW)
        app_message(a, 0, "%s", a->sel < 0 ? "no vehicle selected (Tab)"
                                          : "the selected bot's log fits the inspector");
    a->dirty = 1;
}

static void key_help(struct app *a, int ch) { (void)ch; a->screen = SCREEN_HELP; }
static void key_quit(struct app *a, int ch) { (void)ch; a->quit = 1; }

/* ---- the table ----------------------------------------------------------- */

/* The man column is roff: \(mu is a multiplication sign. */
const struct view_key view_keys[] = {
    { "space", { ' ' }, "pause / resume",
      "Pause or resume the run.", key_pause, 0 },
    { ".", { '.' }, "step one tick",
      "Step one tick forward (and pause).", key_step, 0 },
    { ",", { ',' }, "step one tick back",
      "Step one tick back (and pause): the earlier state exactly, back to tick "
      "0 (see \\fBSeeking\\fR).", key_step, 0 },
    { "g", { 'g' }, "go to a tick (number, Enter)",
      "Go to a tick: type its number on the bottom line, then Enter (Esc "
      "cancels). A tick not yet computed is computed (any key stops that); "
      "see \\fBSeeking\\fR.", key_goto, 0 },
    { "Home End", { KEY_HOME, KEY_END }, "go to the start / the end",
      "Go to tick 0, or to the end: the furthest tick computed so far.",
      key_home_end, 0 },
    { "PgUp PgDn", { KEY_PPAGE, KEY_NPAGE }, "10 s back / forward",
      "Ten seconds (tick_rate \\(mu 10 ticks) back or forward.", key_page, 0 },
    { "n N", { 'n', 'N' }, "next / previous event",
      "Go to the next or previous tick with an event that matters: a shot, a "
      "hit, a knockout, a collision, a lap or a bot error (the timeline at "
      "the right of the top line marks them). Past the furthest tick "
      "computed, \\fBn\\fR computes on until the next one, at most ten "
      "minutes of the run ahead.", key_event, 0 },
    { "+ -", { '+', '=', '-', '_' }, "faster / slower",
      "Faster or slower: \\(mu0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, then max (as fast "
      "as the machine allows).", key_speed, 0 },
    { "b B", { 'b', 'B' }, "terminal byte budget down / up",
      "The budget of bytes a second written to the terminal (\\fB\\-\\-rate\\fR): "
      "\fBb\fR halves it (from none to 19200, at least 100), \fBB\fR doubles "
      "it (past 19200: none). A frame over the budget is skipped, not queued: "
      "on a slow link the screen shows fewer frames but never falls behind.",
      key_rate, 0 },
    { "r", { 'r' }, "rays: solid seen, dashed partly, dotted hidden",
      "Sight rays from each tank or turret to each enemy in its view: solid and "
      "bold when the target is seen, dashed when partly visible but under the "
      "threshold, dotted and dim when hidden; the eye (\\[u25C9] or @) marks the "
      "observer's end.  Seen rays are drawn over hidden ones and the selected "
      "vehicle's over all; with a vehicle selected, the rays that reach it are "
      "shown too.", key_rays, 0 },
    { "o", { 'o' }, "sight walk of the selected observer",
      "For the selected observer: the tree-grid cells its sight walk visited "
      "(shaded: \\[u00B7] or _) and, for each target, the angular parts the "
      "trees hide (a red wedge from the observer).", key_walk, 0 },
    { "v", { 'v' }, "view cones",
      "View cones: field of view and view range (a radar's with its centre line).", key_cones, 0 },
    { "a", { 'a' }, "avoidance: threat, turn",
      "Avoidance: a line to the threat, a \\fB!\\fR over the threat, the "
      "point of closest approach (\\[u2715] or x), and a stroke on the side "
      "the tank turns to.", key_avoid, 0 },
    { "p", { 'p' }, "avoidance: the turns weighed",
      "Predictive avoidance's candidates: seven turns from hard left to hard "
      "right as a fan of dim strokes, the one its plan holds drawn bold.", key_cands, 0 },
    { "t", { 't' }, "aim points, shells and their impact",
      "Trajectories: the next shot's aim point (\\[u2295] or +), the gun's line "
      "and the target's way to it; each shell's path up to its predicted impact "
      "(\\[u2297] or X) and the seconds left until it.", key_traj, 0 },
    { "w", { 'w' }, "waypoints, turning circles",
      "Waypoints: each vehicle's next waypoint and its turning circle (green and "
      "dashed, red and solid while it brakes); a patrol route.", key_wayp, 0 },
    { "c", { 'c' }, "collision marks",
      "Collision marks (on at start): where vehicles touched in the last two "
      "seconds.", key_coll, 0 },
    { "d", { 'd' }, "bot drawings (draw.*)",
      "The Lua bots' drawings of the last tick (their \\fBdraw.*\\fR calls: "
      "lines, circles, text and marks, in the colours they name), on the map "
      "through the camera; with a vehicle selected, only its bot's.", key_bots, 0 },
    { "i", { 'i' }, "vehicle ids",
      "Labels: each vehicle's id beside it (without its kind).", key_labels, 0 },
    { "Tab S-Tab", { '\t', KEY_BTAB }, "select next / previous",
      "Select the next or previous (shift-Tab) vehicle; the inspector on the right "
      "(on a terminal 72 columns wide or more) shows the numbers behind its "
      "decisions this tick. With a vehicle selected "
      "the overlays show only its decisions.", key_select, 0 },
    { "click", { KEY_MOUSE }, "select a vehicle",
      "The first mouse button selects the vehicle under the pointer, the wheel "
      "zooms (where the terminal reports them).", key_click, 0 },
    { "[ ]", { '[', ']' }, "inspector: bot log older / newer",
      "Scroll the selected bot's log in the inspector: it keeps the last 50 lines "
      "with their ticks (as of the tick shown) and shows 8; [ goes 4 older, ] 4 "
      "newer.", key_log_scroll, 0 },
    { "f", { 'f' }, "follow the selected one",
      "Follow the selected vehicle.", key_follow, 0 },
    { "arrows hjkl", { KEY_LEFT, KEY_DOWN, KEY_UP, KEY_RIGHT, 'h', 'j', 'k', 'l' }, "pan",
      "Pan: the arrows or h, j, k, l.", key_pan, 0 },
    { "z Z", { 'z', 'Z' }, "zoom in / out",
      "Zoom in, out.", key_zoom, 0 },
    { "0", { '0' }, "fit the map",
      "Fit the whole map.", key_fit, 0 },
    { "R", { 'R' }, "restart the run",
      "Restart the run from tick 0.", key_restart, 0 },
    { "L", { 'L' }, "reload the map file",
      "Reload the map file (the built-in map when none was given).", key_reload, 0 },
    { "e", { 'e' }, "the last failed map or bot load",
      "Show every error of the last failed reload of the map or of a bot "
      "script.  A bot's run-time error is in the inspector (select its "
      "vehicle with Tab).", key_error, 0 },
    { "m", { 'm' }, "arena: the live matches (Enter watches one)",
      "Watching an arena (\\fBbotfield\\-arena\\fR(7)): the list of its live "
      "matches, yours marked; \\fBj\\fR and \\fBk\\fR choose one, Enter "
      "watches it from its start, \\fBm\\fR or Esc closes the list.", arena_view_key, 0 },
    { "A", { 'A' }, "arena: the ladder",
      "Watching an arena: its ladder (the first 100 bots and all of yours, "
      "marked), as the daemon has it now; \\fBj\\fR and \\fBk\\fR scroll, "
      "\\fBr\\fR asks again, \\fBA\\fR or Esc closes.", arena_view_key, 0 },
    { "Esc", { 27 }, "close, unselect, hide banner",
      "Close the help or error screen; else hide the ending banner; else "
      "unselect.", key_escape, 0 },
    { "?", { '?' }, "this help",
      "Help (\\fB?\\fR or Esc closes it).", key_help, 0 },
    { "q", { 'q' }, "quit",
      "Quit, from any screen.", key_quit, VIEW_KEY_ANY_SCREEN },
    /* drive mode (drive.c): these come first while it is on; every other
     * key keeps its meaning */
    { "D", { 'D' }, "drive the player tank",
      "Drive mode: the keyboard drives the map's player tank (\\fBplayer = true\\fR); "
      "the camera follows it and the status line says \\fBdriving\\fR with what "
      "it holds. A terminal reports no key releases, so each key moves a held "
      "setting one step and it holds until another key changes it. \\fBD\\fR or "
      "Esc leaves.", drive_key_enter, 0 },
    { "a d", { 'a', 'd' }, "drive: turn left, straight, right",
      "In drive mode: the hull's turn one step left or right (full left, "
      "straight, full right at the tank's turn_rate).", drive_key_turn, VIEW_KEY_DRIVE },
    { "Left Right", { KEY_LEFT, KEY_RIGHT }, "drive: turn, as a d",
      "In drive mode: as \\fBa\\fR and \\fBd\\fR.", drive_key_turn, VIEW_KEY_DRIVE },
    { "w s", { 'w', 's' }, "drive: speed up / down a quarter",
      "In drive mode: the speed a quarter of the cruising speed up or down "
      "(0 to the tank's speed).", drive_key_speed, VIEW_KEY_DRIVE },
    { "Up Down", { KEY_UP, KEY_DOWN }, "drive: speed, as w s",
      "In drive mode: as \\fBw\\fR and \\fBs\\fR.", drive_key_speed, VIEW_KEY_DRIVE },
    { "z x", { 'z', 'x' }, "drive: turret left, still, right",
      "In drive mode: the turret's turn one step left or right, as the hull's "
      "(at turret_rate).", drive_key_turret, VIEW_KEY_DRIVE },
    { "space f", { ' ', 'f' }, "drive: fire (when loaded)",
      "In drive mode: one shot along the turret, at once when the gun is "
      "loaded, else as soon as it is.", drive_key_fire, VIEW_KEY_DRIVE },
    { "p", { 'p' }, "drive: pause / resume",
      "In drive mode: pause or resume (space fires); \\fB.\\fR steps one tick "
      "with what the tank holds.", drive_key_pause, VIEW_KEY_DRIVE },
    { "o", { 'o' }, "drive: fog of war",
      "In drive mode: show only your tank and the enemies it sees (fog of "
      "war), or all again.", drive_key_fog, VIEW_KEY_DRIVE },
    { "Esc", { 27 }, "drive: leave drive mode",
      "In drive mode: leave it (the tank keeps what it holds).", drive_key_leave,
      VIEW_KEY_DRIVE },
    /* the tuning panel (tune_panel.c): these come first while it is open */
    { "T", { 'T' }, "tune the selected vehicle, its team, [sight]",
      "The tuning panel: the keys of the selected vehicle's section (or its "
      "team's, or [sight]) with their values, ranges and help, changed while "
      "the run goes on. A change applies from the tick shown on, without "
      "restarting, and is one step in the history: stepping back before it "
      "shows the old value. \\fBT\\fR or Esc closes it (see Tuning).",
      tune_key_open, 0 },
    { "T Esc", { 'T', 27 }, "tune: close the panel",
      "In the tuning panel: close it (the values stay tuned).", tune_key_open,
      VIEW_KEY_TUNE },
    { "Up Down", { KEY_UP, KEY_DOWN }, "tune: the key above / below",
      "In the tuning panel: move to the key above or below.", tune_key_move,
      VIEW_KEY_TUNE },
    { "+ -", { '+', '=', '-', '_' }, "tune: value up / down (coarse), next method",
      "In the tuning panel: a number up or down by a coarse step (about a "
      "tenth of it, rounded to 1, 2 or 5), kept in its range; a method "
      "(aim, avoid, sight, ...) cycles to the next or previous one.",
      tune_key_change, VIEW_KEY_TUNE },
    { "> <", { '>', '<' }, "tune: value up / down (fine)",
      "In the tuning panel: a number up or down by a fine step (a tenth of "
      "the coarse one).", tune_key_change, VIEW_KEY_TUNE },
    { "Enter", { '\r', '\n', KEY_ENTER }, "tune: type a value",
      "In the tuning panel: type a value (Enter applies it, Esc cancels); it "
      "starts as the value shown, which the first character typed replaces "
      "(Backspace edits it instead, Ctrl\\-U clears it); it "
      "is checked as a map line is, with the same message.", tune_key_type,
      VIEW_KEY_TUNE },
    { "s", { 's' }, "tune: vehicle, team or [sight]",
      "In the tuning panel: show the selected vehicle's keys, its team's, or "
      "[sight]'s, in turn.", tune_key_scope, VIEW_KEY_TUNE },
    { "W", { 'W' }, "tune: save the tuned values into the map file",
      "In the tuning panel: write the values tuned up to the tick shown into "
      "the map file, changing only their values' text (comments, order and "
      "spacing stay); a file changed on disk since it was loaded is "
      "overwritten only after y at the prompt.", tune_key_save, VIEW_KEY_TUNE },
};
const int view_nkeys = (int)(sizeof view_keys / sizeof view_keys[0]);

/* The rows of a mode: none, VIEW_KEY_DRIVE or VIEW_KEY_TUNE. */
#define MODE_FLAGS (VIEW_KEY_DRIVE | VIEW_KEY_TUNE)

/* The row of a code among the rows of a mode. */
static const struct view_key *find_in(int ch, unsigned mode)
{
    for (int i = 0; i < view_nkeys; i++) {
        if ((view_keys[i].flags & MODE_FLAGS) != mode)
            continue;
        for (int j = 0; j < VIEW_KEY_CODES && view_keys[i].codes[j]; j++)
            if (view_keys[i].codes[j] == ch)
                return &view_keys[i];
    }
    return NULL;
}

const struct view_key *view_key_find(int ch) { return find_in(ch, 0); }
const struct view_key *drive_key_find(int ch) { return find_in(ch, VIEW_KEY_DRIVE); }
const struct view_key *tune_key_find(int ch) { return find_in(ch, VIEW_KEY_TUNE); }

/* ---- the man page's list ------------------------------------------------- */

char *view_keys_man(void)
{
    /* A code claimed by two rows would reach only the first: refuse to
     * document (and so to build) such a table. */
    for (int i = 0; i < view_nkeys; i++)
        for (int j = 0; j < VIEW_KEY_CODES && view_keys[i].codes[j]; j++) {
            const struct view_key *first = find_in(view_keys[i].codes[j],
                                                   view_keys[i].flags & MODE_FLAGS);
            if (first && first != &view_keys[i]) {
                fprintf(stderr, "botfield: the viewer key '%s' shares a code with '%s'\n",
                        view_keys[i].name, first->name);
                return NULL;
            }
        }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    for (int i = 0; i < view_nkeys; i++) {
        fputs(".TP\n.B ", f);
        /* The name is plain text: escape what roff reads specially. */
        for (const char *s = view_keys[i].name; *s; s++) {
            if (*s == '\\')
                fputs("\\e", f);
            else if (*s == '-')
                fputs("\\-", f);
            else
                fputc(*s, f);
        }
        fprintf(f, "\n%s\n", view_keys[i].man);
    }
    if (fclose(f)) {
        free(buf);
        return NULL;
    }
    return buf;
}
