/* main.c — the command line: a headless run, a map check, or the viewer. */
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "cli_options.h"
#include "core/world.h"
#include "core/race/race.h"
#include "run/compare.h"
#include "run/headless.h"
#include "bot/bot_world.h"
#include "io/map.h"
#include "io/map_write.h"
#include "run/recording.h"
#include "run/replay_run.h"
#include "run/stop.h"
#include "tour/ladder.h"
#include "arena/arena.h"
#include "view/view.h"
#include "view/follow.h"

/* The bundled maps' folder (Makefile.am passes it; a compile without it,
 * as make lint's, gets the source tree's). */
#ifndef BOTFIELD_MAPS_DIR
# define BOTFIELD_MAPS_DIR "maps"
#endif

/* 1 when the trace would be written over the map itself (the same file
 * by another name, or a link to it): refused before anything is written. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0
        && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* "PATH of VEHICLE" (malloc'd) when `out` is one of the bots' scripts
 * (by any name or link), else NULL: like the map, a script is an input
 * that a trace or a recording must not overwrite.  Scripts are relative
 * to the map's folder. */
static char *bot_script_at(const char *out, const char *map_path, const struct world *w,
                           const struct bot_world *bots)
{
    const char *slash = map_path ? strrchr(map_path, '/') : NULL;
    int dirlen = slash ? (int)(slash - map_path) : 1;
    const char *dir = slash ? map_path : map_path ? "." : BOTFIELD_MAPS_DIR;
    if (!map_path)
        dirlen = (int)strlen(dir);
    for (size_t i = 0; bots && i < w->vehicles.n; i++) {
        const struct bot_script *s = bot_world_script(bots, (int)i);
        if (!s)
            continue;
        size_t n = (size_t)dirlen + strlen(s->path) + 2;
        char *p = malloc(n);
        if (!p)
            return NULL;
        snprintf(p, n, "%.*s/%s", dirlen, dir, s->path);
        int same = same_file(out, p);
        free(p);
        if (same) {
            n = strlen(s->path) + strlen(w->vehicles.p[i].id) + 8;
            char *m = malloc(n);
            if (m)
                snprintf(m, n, "%s of %s", s->path, w->vehicles.p[i].id);
            return m;
        }
    }
    return NULL;
}

/* A tournament, a sweep or --aggregate (src/tour/): its exit status, or
 * -1 when the options ask for one run (--set alone: its settings are then
 * in c->vo.map). */
static int run_tour(struct cli *c)
{
    struct tour_cli tc = { c->vo.ascii, c->ticks, c->seconds, c->nargs, c->args,
                           BOTFIELD_MAPS_DIR, c->tour->has_seeds ? c->record : NULL };
    return tour_main(c->tour, &tc, &c->vo.map);
}

/* A trace or a recording over an input (the map, the recording replayed,
 * each other) is refused before anything is written. */
static int check_outputs(const struct cli *c, const char *map)
{
    const char *trace = c->trace, *record = c->record, *replay = c->replay;
    if (trace && map && strcmp(trace, "-") && same_file(trace, map)) {
        fprintf(stderr, "botfield: --trace %s: that is the map file itself; "
                "the trace would overwrite it\n", trace);
        return 2;
    }
    if (record && map && same_file(record, map)) {
        fprintf(stderr, "botfield: --record %s: that is the map file itself; "
                "the recording would overwrite it\n", record);
        return 2;
    }
    if (record && trace && (!strcmp(record, trace) || same_file(record, trace))) {
        fprintf(stderr, "botfield: --record %s: that is the trace's file too; give each "
                "its own\n", record);
        return 2;
    }
    /* The recording replayed is an input like the map: a trace over it
     * would destroy the run it recomputes. */
    if (trace && replay && strcmp(trace, "-") && strcmp(replay, "-") && same_file(trace, replay)) {
        fprintf(stderr, "botfield: --trace %s: that is the recording being replayed; "
                "the trace would overwrite it\n", trace);
        return 2;
    }
    return 0;
}

static void headless_opts(const struct cli *c, struct headless_options *ho,
                          struct bot_world *bots)
{
    *ho = (struct headless_options){ -1, c->trace, c->every, c->summary, bots,
                                     c->decisions, (int)c->threads, c->threads_min };
}

/* --replay --follow: the recording read as it grows, from a file being
 * written or a FIFO (opened without O_NONBLOCK: a FIFO waits for its
 * writer, as `cat` does). */
static int follow_view(const struct cli *c)
{
    if (!strcmp(c->replay, "-")) {
        fprintf(stderr, "botfield: --replay - --follow: the viewer reads its keys from "
                "standard input; give the recording as a file or a FIFO\n");
        return 2;
    }
    int fd = open(c->replay, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) || S_ISDIR(st.st_mode)) {
        fprintf(stderr, "botfield: %s: cannot open the recording: %s\n", c->replay,
                fd < 0 ? strerror(errno) : "a folder");
        if (fd >= 0)
            close(fd);
        return 2;
    }
    struct view_follow *f = follow_new(fd, c->replay);
    if (!f) {
        close(fd);
        fprintf(stderr, "botfield: out of memory\n");
        return 1;
    }
    int rc = view_follow_run(&c->vo, f);
    follow_free(f);
    return rc;
}

/* --replay in the viewer: as with a map, the viewer never waits for a
 * writer; and its keys come from standard input, which cannot be the
 * recording. */
static int replay_view(const struct cli *c)
{
    struct stat st;
    if (c->follow)
        return follow_view(c);
    if (!strcmp(c->replay, "-")) {
        fprintf(stderr, "botfield: --replay -: the viewer reads its keys from standard "
                "input; give the recording as a file (or replay it with --headless)\n");
        return 2;
    }
    if (stat(c->replay, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "botfield: %s: is not a regular file (a FIFO, device or socket); "
                "the viewer reads a recording from a regular file only\n", c->replay);
        return 2;
    }
    return view_run(&c->vo, NULL);
}

/* The world a run starts from: the map, its bots, and the map's text
 * when a recording embeds it. */
struct loaded {
    struct world w;
    struct bot_world *bots;
    char *map_text;
};

static void loaded_free(struct loaded *l)
{
    free(l->map_text);
    bot_world_free(&l->w, l->bots);
    world_free(&l->w);
}

/* A map error about the bot key --bot-process set: said as the option's
 * (the vehicle or team it names is not the map's).  1 when said. */
static int process_unknown(const struct cli *c, const char *text)
{
    for (int k = 0; text && k < c->nprocs; k++) {
        char key[96];
        snprintf(key, sizeof key, "--set %s.bot=", c->procs[k].who);
        if (strstr(text, key) && strstr(text, "no such section")) {
            fprintf(stderr, "botfield: --bot-process %s: the map has no vehicle or team of "
                    "that name (a vehicle's id is its section's name: tank.NAME, "
                    "turret.NAME, car.NAME; or team.NAME)\n", c->procs[k].who);
            return 1;
        }
    }
    return 0;
}

/* The map and the bots' scripts: 0, or 2 after saying what is wrong (a
 * script that cannot be read or loaded is an error of the map). */
static int load_world(struct cli *c, struct loaded *l)
{
    struct map_error err = { NULL, 0 };
    const char *path = c->vo.map_path;
    l->bots = NULL;
    l->map_text = NULL;
    int rc = path ? map_load_kept(path, &c->vo.map, &l->w, &err, c->record ? &l->map_text : NULL)
                  : map_load_text("default.ini", map_default_text, map_default_len, &c->vo.map,
                                  &l->w, &err);
    if (rc && process_unknown(c, err.text)) {
        map_error_free(&err);
        return 2;
    }
    if (rc) {
        fputs(err.text ? err.text : "botfield: cannot load the map\n", stderr);
        map_error_free(&err);
        return 2;
    }
    char *berr = NULL;
    if (bot_world_attach(&l->w, BOTFIELD_MAPS_DIR, &l->bots, &berr)) {
        /* Lua's message quotes the script's bytes (an unfinished string) */
        char *safe = berr ? text_printable(berr, 1) : NULL;
        fprintf(stderr, "%s\n", safe ? safe : "botfield: cannot load the bots");
        free(safe);
        free(berr);
        free(l->map_text);
        world_free(&l->w);
        return 2;
    }
    return 0;
}

/* A trace or a recording over one of the bots' scripts: refused (2). */
static int check_scripts(const struct cli *c, const struct loaded *l)
{
    const char *map = c->vo.map_path, *trace = c->trace, *record = c->record;
    int is_trace = trace && strcmp(trace, "-");
    char *over = is_trace ? bot_script_at(trace, map, &l->w, l->bots) : NULL;
    if (!over && record) {
        is_trace = 0;
        over = bot_script_at(record, map, &l->w, l->bots);
    }
    if (over) {
        fprintf(stderr, "botfield: %s %s: that is the bot script %s; the %s would "
                "overwrite it\n", is_trace ? "--trace" : "--record", is_trace ? trace : record,
                over, is_trace ? "trace" : "recording");
        free(over);
        return 2;
    }
    if (!c->cmp->n || !record)
        return 0;
    /* the second side's recording: the same guards as --record's */
    char bfile[4096];
    compare_b_name(record, bfile, sizeof bfile);
    char *bover = bot_script_at(bfile, map, &l->w, l->bots);
    const char *what = bover ? bover
                     : map && same_file(bfile, map) ? "the map file itself"
                     : same_file(bfile, record) || !strcmp(bfile, record)
                       ? "the first side's recording" : NULL;
    if (what)
        fprintf(stderr, "botfield: --compare --record %s: the second side's recording %s "
                "is %s%s; name the recording otherwise\n", record, bfile,
                bover ? "the bot script " : "", what);
    free(bover);
    return what ? 2 : 0;
}

static int run_compare(struct cli *c, struct loaded *l)
{
    struct compare_record cr = { c->record, c->vo.map_path,
                                 l->map_text ? l->map_text : map_default_text,
                                 c->vo.map.set, c->vo.map.nset };
    c->vo.bots = l->bots;
    int rc = c->headless ? compare_run(c->cmp, &c->vo.map, c->vo.map_path, &l->w, l->bots,
                                       c->ticks, c->seconds, &cr)
                         : view_compare_run(c->cmp, &c->vo, &l->w);
    free(l->map_text);
    return rc;
}

static int run_headless(const struct cli *c, struct loaded *l)
{
    const char *trace = c->trace, *record = c->record;
    struct headless_options ho;
    headless_opts(c, &ho, l->bots);
    if (c->ticks >= 0)
        ho.ticks = c->ticks;
    else if (c->seconds >= 0)
        ho.ticks = lround(c->seconds * l->w.tick_rate);
    /* A trace that cannot be opened stops the run before the recording
     * (maybe an older one) is truncated. */
    int e = record && trace && strcmp(trace, "-") ? file_cannot_write(trace) : 0;
    if (e) {
        fprintf(stderr, "botfield: cannot write the trace %s: %s\n", trace, strerror(e));
        loaded_free(l);
        return 1;
    }
    /* Armed before the recording's header is written: a signal from now
     * on stops the run with every file whole (stop.h). */
    stop_arm();
    struct recording rec;
    if (record && recording_open(&rec, record, &l->w, l->bots, c->vo.map_path,
                                 l->map_text ? l->map_text : map_default_text,
                                 c->vo.map.set, c->vo.map.nset)) {
        loaded_free(l);
        stop_die();
        return 1;
    }
    free(l->map_text);
    l->map_text = NULL;
    int rc = record ? recording_headless(&rec, &l->w, l->bots, &ho) : headless_run(&l->w, &ho);
    loaded_free(l);
    return rc;
}

/* --bot-process: each vehicle named gets the bot key PROCESS_BOT_NAME
 * (a --set after the user's own: the recording keeps it, and a replay,
 * which finds no script for it, drives the vehicle by its recorded
 * intents), and the programs are handed to the bots' layer, which starts
 * one for each such vehicle in place of reading a script. */
#define PROCESS_BOT_NAME "process-bot.lua"
static int use_processes(struct cli *c)
{
    static struct map_set sets[256 + CLI_PROCESSES];
    static char keys[CLI_PROCESSES][80];
    int n = c->vo.map.nset;
    if (n > 256) {
        fprintf(stderr, "botfield: --bot-process: at most 256 --set beside it\n");
        return 2;
    }
    for (int k = 0; k < n; k++)
        sets[k] = c->vo.map.set[k];
    for (int k = 0; k < c->nprocs; k++) {
        snprintf(keys[k], sizeof keys[k], "%s.bot", c->procs[k].who);
        sets[n++] = (struct map_set){ keys[k], PROCESS_BOT_NAME };
    }
    c->vo.map.set = sets;
    c->vo.map.nset = n;
    bot_world_processes(c->procs, (size_t)c->nprocs, (int)c->bot_timeout);
    return 0;
}

/* --check's warnings, the map still valid (exit 0): each car's waypoint
 * that the skip rule passes as soon as the car leaves the one before, so
 * no lap of it is clean (cars alike in radius and max_speed said once). */
static void warn_track(const char *map, const struct world *w)
{
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        int n, same = 0;
        const struct waypoint *wp = world_route(w, v, &n);
        if (v->kind != VK_CAR || !wp)
            continue;
        for (size_t j = 0; j < i && !same; j++)
            same = w->vehicles.p[j].kind == VK_CAR
                && w->vehicles.p[j].p->radius == v->p->radius
                && w->vehicles.p[j].p->max_speed == v->p->max_speed;
        for (int k = 0; k < n && !same; k++)
            if (race_skipped_at_once(w, wp, n, v->p, w->dt, k))
                fprintf(stderr, "botfield: %s: warning: [%s]: waypoint %d cannot be "
                        "reached cleanly: a car leaving waypoint %d's disc is already nearer "
                        "waypoint %d, so the skip rule passes %d untouched (move waypoint %d, "
                        "or widen its disc or %d's)\n", map, v->id, k, (k + n - 1) % n,
                        (k + 1) % n, k, k, (k + n - 1) % n);
    }
}

/* One run from a map: checked (--check), headless, compared or viewed. */
static int run_map(struct cli *c)
{
    struct loaded l;
    int rc = load_world(c, &l);
    if (rc)
        return rc;
    if (c->check)
        warn_track(c->vo.map_path ? c->vo.map_path : "default.ini", &l.w);
    if (c->check || (rc = check_scripts(c, &l))) {
        loaded_free(&l);
        return rc;
    }
    if (c->cmp->n)
        return run_compare(c, &l);
    if (c->headless)
        return run_headless(c, &l);
    c->vo.bots = l.bots;
    c->vo.map_text = l.map_text ? l.map_text : map_default_text;
    rc = view_run(&c->vo, &l.w);
    free(l.map_text);
    return rc;
}

int main(int argc, char **argv)
{
    /* Numbers in maps and traces are read and written the C way whatever
     * the user's locale; only the character type follows it (UTF-8). */
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C");
    /* A write past the file size limit (ulimit -f) fails with EFBIG and
     * is said, naming the file, with exit 1, as for a full disk, instead
     * of SIGXFSZ ending the run without a word (the viewer's terminal is
     * handled in src/view/term_restore.c the same way). */
    signal(SIGXFSZ, SIG_IGN);

    /* The arena's two programs are words, not options: sshd starts
     * `botfield arena-shell ARENA NAME` from a key's command=. */
    if (argc >= 2 && strcmp(argv[1], "serve") == 0)
        return arena_serve_main(argc - 1, argv + 1, BOTFIELD_MAPS_DIR);
    if (argc >= 2 && strcmp(argv[1], "arena-shell") == 0)
        return arena_shell_main(argc - 1, argv + 1, BOTFIELD_MAPS_DIR);

    static struct cli c;        /* static: its options live until exit */
    int rc = cli_parse(&c, argc, argv);
    if (rc >= 0 || (rc = cli_check(&c)))
        return rc;
    /* --ladder and --sprt read their options' values (src/tour/ladder.c)
     * once the table has checked them against the modes. */
    if (c.modes & (CLI_LADDER | CLI_SPRT))
        return ladder_main(argc, argv, BOTFIELD_MAPS_DIR);
    if (c.tour->given && (rc = run_tour(&c)) >= 0)
        return rc;
    /* A newcomer's first look: without --speed the viewer opens paused
     * with a one-line hint (2), so no fight is over before it is seen. */
    if (!c.vo.paused && !c.given[CO_SPEED])
        c.vo.paused = 2;
    c.vo.map_path = c.nargs ? c.args[0] : NULL;
    if ((rc = check_outputs(&c, c.vo.map_path)))
        return rc;
    if (c.nprocs && (rc = use_processes(&c)))
        return rc;
    if (c.headless && c.replay) {
        struct headless_options ho;
        headless_opts(&c, &ho, NULL);
        return replay_headless(c.replay, &ho);
    }
    c.vo.record = c.record;
    c.vo.replay = c.replay;
    c.vo.threads = (int)c.threads;
    c.vo.threads_min = c.threads_min;
    /* The viewer never waits for a writer: a FIFO as the map is refused. */
    c.vo.map.regular_only = !c.headless && !c.check;
    return c.replay ? replay_view(&c) : run_map(&c);
}
