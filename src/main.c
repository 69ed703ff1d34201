/* main.c — the command line: a headless run, a map check, or the viewer. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "core/par.h"
#include "core/world.h"
#include "run/compare.h"
#include "run/headless.h"
#include "bot/bot_world.h"
#include "io/map.h"
#include "io/map_write.h"
#include "tour/tour.h"
#include "run/recording.h"
#include "run/replay_run.h"
#include "run/stop.h"
#include "view/pace.h"
#include "view/view.h"

/* The bundled maps' folder (Makefile.am passes it; a compile without it,
 * as make lint's, gets the source tree's). */
#ifndef BOTFIELD_MAPS_DIR
# define BOTFIELD_MAPS_DIR "maps"
#endif

static void usage(FILE *f)
{
    fprintf(f,
"Usage: botfield [OPTION]... [MAP.ini]\n"
"       botfield --headless [--ticks N | --seconds S] [--seed S]\n"
"                [--trace FILE [--trace-decisions]] [--trace-every K]\n"
"                [--summary] MAP.ini\n"
"       botfield --headless --seeds A-B [--set SECTION.KEY=VALUE]... [--jobs N]\n"
"                [MAP.ini]\n"
"       botfield --check [--seed S] [--set SECTION.KEY=VALUE]... MAP.ini\n"
"       botfield [--headless [--trace FILE]...] --replay RECORDING\n"
"A terminal sandbox for game AI: tanks that wander, see and shoot, race cars\n"
"on waypoints.  Without MAP, the built-in default map.\n"
"\n"
"Viewer:\n"
"      --paused           start paused (the default without --speed)\n"
"      --speed X          simulation speed, 0.25 to 64 (default 1)\n"
"      --ascii            plain ASCII drawing, no braille dots\n"
"      --rate BYTES       bytes a second to the terminal at most (a slow\n"
"                         link): frames over it are skipped; 0: any\n"
"      --fps N            frames a second at most, 1 to 60 (default 30)\n"
"Headless:\n"
"      --headless         run without a screen, as fast as possible\n"
"      --ticks N          perform exactly N updates\n"
"      --seconds S        perform S x tick_rate updates\n"
"      --trace FILE       write a JSON Lines trace to FILE ('-': stdout;\n"
"                         never the map file itself)\n"
"      --trace-every K    state lines every K ticks (default 1)\n"
"      --trace-decisions  a decide line per live vehicle per tick in the\n"
"                         trace: the numbers behind its decisions\n"
"      --summary          print the summary line on standard output\n"
"                         (the default when no --trace is given)\n"
"Tournaments (headless; botfield(6), TOURNAMENTS):\n"
"      --seeds A-B        a battle per seed A to B: a run line each, then the\n"
"                         aggregate (wins with 95%% intervals, draws, ...)\n"
"      --set SECTION.KEY=VALUE  a map key set (repeatable; also for one run);\n"
"                         VALUE1,VALUE2,... runs every value (a sweep)\n"
"      --jobs N           runs at once (default: the number of cores)\n"
"      --csv FILE         write a row a run to FILE\n"
"      --chart            draw the aggregate in 80 columns instead\n"
"      --aggregate FILE...  read run lines ('-': standard input) and print\n"
"                         what the tournament would\n"
"Both:\n"
"      --compare SECTION.KEY=VALUE  a second world with this setting beside\n"
"                         the first (repeatable): side by side in the viewer;\n"
"                         headless, both summaries and where they differ\n"
"      --seed S           override the map's seed (digits only)\n"
"      --threads N        threads for sight and decisions, 1 to 256 (default:\n"
"                         the cores available); the same run for any N\n"
"      --record FILE      record the run into FILE as it goes (the map, the\n"
"                         bots' scripts, --set, reloads, a checkpoint every\n"
"                         600 ticks); with --seeds a folder, a file a run\n"
"      --replay FILE      recompute a recording (no MAP, --seed or --ticks:\n"
"                         the recording holds them); exit 1 where it diverges\n"
"      --check            load and validate MAP, print nothing on success\n"
"                         (takes --seed and --set; any other option is an\n"
"                         error)\n"
"      --help             display this help and exit\n"
"      --version          output version information and exit\n"
"\n"
"Exit status: 0 success, 1 runtime failure, 2 bad command line or bad map.\n"
"See botfield(6) for the map format and the viewer's keys.\n");
}

static void version(void)
{
    printf("botfield %s\n"
           "This is free software: you are free to change and redistribute it.\n"
           "There is NO WARRANTY, to the extent permitted by law.\n",
           PACKAGE_VERSION);
}

static int bad_option(const char *opt, const char *value, const char *allowed)
{
    fprintf(stderr, "botfield: %s %s: %s\n"
            "Try 'botfield --help' for more information.\n",
            opt, value, allowed);
    return 2;
}

static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int parse_double(const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* Digits only: strtoull alone takes leading spaces and a sign, and reads
 * " -1" as 18446744073709551615. */
static int parse_seed(const char *s, uint64_t *out)
{
    if (!*s)
        return -1;
    for (const char *p = s; *p; p++)
        if (!isdigit((unsigned char)*p))
            return -1;
    errno = 0;
    unsigned long long v = strtoull(s, NULL, 10);
    if (errno)
        return -1;
    *out = v;
    return 0;
}

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

enum { OPT_HEADLESS = 256, OPT_TICKS, OPT_SECONDS, OPT_SEED, OPT_TRACE,
       OPT_TRACE_EVERY, OPT_SUMMARY, OPT_CHECK, OPT_PAUSED, OPT_SPEED,
       OPT_ASCII, OPT_HELP, OPT_VERSION, OPT_MAN_KEYS, OPT_MAN_VIEWER_KEYS,
       OPT_RECORD, OPT_REPLAY, OPT_TRACE_DECISIONS, OPT_COMPARE, OPT_THREADS,
       OPT_RATE, OPT_FPS };

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "headless", no_argument, NULL, OPT_HEADLESS },
        { "ticks", required_argument, NULL, OPT_TICKS },
        { "seconds", required_argument, NULL, OPT_SECONDS },
        { "seed", required_argument, NULL, OPT_SEED },
        { "trace", required_argument, NULL, OPT_TRACE },
        { "trace-every", required_argument, NULL, OPT_TRACE_EVERY },
        { "summary", no_argument, NULL, OPT_SUMMARY },
        { "trace-decisions", no_argument, NULL, OPT_TRACE_DECISIONS },
        { "check", no_argument, NULL, OPT_CHECK },
        { "paused", no_argument, NULL, OPT_PAUSED },
        { "speed", required_argument, NULL, OPT_SPEED },
        { "ascii", no_argument, NULL, OPT_ASCII },
        { "help", no_argument, NULL, OPT_HELP },
        { "version", no_argument, NULL, OPT_VERSION },
        { "man-keys", no_argument, NULL, OPT_MAN_KEYS },
        { "man-viewer-keys", no_argument, NULL, OPT_MAN_VIEWER_KEYS },
        TOUR_LONGOPTS,
        { "record", required_argument, NULL, OPT_RECORD },
        { "replay", required_argument, NULL, OPT_REPLAY },
        { "compare", required_argument, NULL, OPT_COMPARE },
        { "threads", required_argument, NULL, OPT_THREADS },
        { "rate", required_argument, NULL, OPT_RATE },
        { "fps", required_argument, NULL, OPT_FPS },
        { NULL, 0, NULL, 0 }
    };
    /* Numbers in maps and traces are read and written the C way whatever
     * the user's locale; only the character type follows it (UTF-8). */
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C");
    /* A write past the file size limit (ulimit -f) fails with EFBIG and
     * is said, naming the file, with exit 1, as for a full disk, instead
     * of SIGXFSZ ending the run without a word (the viewer's terminal is
     * handled in src/view/term_restore.c the same way). */
    signal(SIGXFSZ, SIG_IGN);

    int headless = 0, check = 0, summary = 0, have_ticks = 0, have_seconds = 0;
    int speed_given = 0, decisions = 0, threads_given = 0, view_given = 0;
    long threads = par_default_threads();
    /* threads for any number of vehicles, not only where they pay: what
     * the tests use to check that the count changes nothing */
    const char *always = getenv("BOTFIELD_THREADS_ALWAYS");
    int threads_min = always && *always && strcmp(always, "0") ? -1 : 0;
    long ticks = -1, every = 1;
    double seconds = 0;
    const char *trace = NULL, *record = NULL, *replay = NULL;
    struct view_options vo = { NULL, { 0, 0, 0, NULL, 0 }, 0, 1.0, 0, NULL, NULL, NULL, NULL,
                               NULL, NULL, NULL, 0, 0, 0, 0 };
    static struct tour_options tour;    /* static: freed at exit (options.c) */
    static struct compare_opts cmp;     /* --compare (compare.c) */
    /* The options that take one value: getopt keeps the last one given
     * without a word (--trace a --trace b wrote only b), so a second is
     * refused. */
    static const int once[] = { OPT_TICKS, OPT_SECONDS, OPT_SEED, OPT_TRACE, OPT_TRACE_EVERY,
                                OPT_RECORD, OPT_REPLAY, OPT_THREADS, OPT_SPEED, OPT_RATE, OPT_FPS,
                                TOUR_OPT_SEEDS, TOUR_OPT_JOBS, TOUR_OPT_CSV };
    const char *once_val[sizeof once / sizeof *once] = { NULL };
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        for (size_t k = 0; k < sizeof once / sizeof *once; k++) {
            if (once[k] != c)
                continue;
            if (once_val[k]) {
                const char *name = "?";
                for (const struct option *o = longopts; o->name; o++)
                    if (o->val == c)
                        name = o->name;
                fprintf(stderr, "botfield: --%s given twice ('%s', then '%s'): give it once\n"
                        "Try 'botfield --help' for more information.\n", name, once_val[k],
                        optarg);
                return 2;
            }
            once_val[k] = optarg;
        }
        if (c >= TOUR_OPT_SEEDS && c < TOUR_OPT_END) {
            if (tour_option(&tour, c, optarg))
                return 2;
            continue;
        }
        switch (c) {
        case OPT_HEADLESS: headless = 1; break;
        case OPT_TICKS:
            if (parse_long(optarg, 0, LONG_MAX / 2, &ticks))
                return bad_option("--ticks", optarg, "expected a whole number of ticks, 0 or more");
            have_ticks = 1;
            break;
        case OPT_SECONDS:
            if (parse_double(optarg, 0, 1e9, &seconds))
                return bad_option("--seconds", optarg, "expected a number of seconds, 0 to 1e9");
            have_seconds = 1;
            break;
        case OPT_SEED:
            if (parse_seed(optarg, &vo.map.seed))
                return bad_option("--seed", optarg, "expected a whole number, 0 to "
                                  "18446744073709551615, digits only (no sign or spaces)");
            vo.map.has_seed = 1;
            break;
        case OPT_TRACE: trace = optarg; break;
        case OPT_TRACE_EVERY:
            if (parse_long(optarg, 1, LONG_MAX, &every))
                return bad_option("--trace-every", optarg, "expected a whole number of ticks, 1 or more");
            break;
        case OPT_SUMMARY: summary = 1; break;
        case OPT_RECORD: record = optarg; break;
        case OPT_REPLAY: replay = optarg; break;
        case OPT_TRACE_DECISIONS: decisions = 1; break;
        case OPT_THREADS:
            if (parse_long(optarg, 1, PAR_MAX_THREADS, &threads))
                return bad_option("--threads", optarg, "expected a whole number of threads, "
                                  "1 to 256");
            threads_given = 1;
            break;
        case OPT_COMPARE:
            if (compare_option(&cmp, optarg))
                return 2;
            break;
        case OPT_CHECK: check = 1; break;
        case OPT_PAUSED: vo.paused = 1; break;
        case OPT_SPEED:
            if (parse_double(optarg, 0.25, 64, &vo.speed))
                return bad_option("--speed", optarg, "expected a speed from 0.25 to 64");
            speed_given = 1;
            break;
        case OPT_RATE: {
            long r;
            if (parse_long(optarg, 0, PACE_RATE_MAX, &r) || (r > 0 && r < PACE_RATE_MIN))
                return bad_option("--rate", optarg, "expected a whole number of bytes a "
                                  "second, 100 to 100000000, or 0 for no budget");
            vo.rate = (double)r;
            view_given = 1;
            break;
        }
        case OPT_FPS: {
            long f;
            if (parse_long(optarg, 1, PACE_FPS_MAX, &f))
                return bad_option("--fps", optarg, "expected a whole number of frames a "
                                  "second, 1 to 60");
            vo.fps = (int)f;
            view_given = 1;
            break;
        }
        case OPT_ASCII: vo.ascii = 1; break;
        case OPT_HELP: usage(stdout); return 0;
        case OPT_VERSION: version(); return 0;
        case OPT_MAN_KEYS:
        case OPT_MAN_VIEWER_KEYS: {
            /* The man page's key lists, from the tables (Makefile.am). */
            char *m = c == OPT_MAN_KEYS ? map_keys_man() : view_keys_man();
            if (!m)
                return 1;
            fputs(m, stdout);
            free(m);
            return 0;
        }
        default:
            if (optopt >= OPT_HEADLESS || (optopt == 0 && argv[optind - 1]))
                fprintf(stderr, "botfield: unrecognized or incomplete option '%s'\n",
                        argv[optind - 1]);
            else
                fprintf(stderr, "botfield: invalid option\n");
            fprintf(stderr, "Try 'botfield --help' for more information.\n");
            return 2;
        }
    }
    if (cmp.n && (tour.has_seeds || tour.aggregate || check || replay || trace
                  || decisions || every != 1)) {
        fprintf(stderr, "botfield: --compare runs two worlds side by side: not with "
                "--seeds, --aggregate, --check, --replay or --trace\n");
        return 2;
    }
    if (cmp.n && record && !headless) {
        fprintf(stderr, "botfield: --compare --record records a headless comparison (add "
                "--headless): the viewer's side-by-side run is not recorded\n");
        return 2;
    }
    /* --aggregate runs nothing; a tournament records each run into the
     * folder --record names (tour/runner.c), and replays none. */
    if ((tour.has_seeds || tour.aggregate) && (replay || (record && tour.aggregate))) {
        fprintf(stderr, "botfield: %s is for one run: not with %s\n"
                "Try 'botfield --help' for more information.\n",
                replay ? "--replay" : "--record", tour.has_seeds ? "--seeds" : "--aggregate");
        return 2;
    }
    /* Tournaments, sweeps, --aggregate and --set (src/tour/). */
    if (tour.given && threads_given) {
        fprintf(stderr, "botfield: --threads is for one run: a tournament runs its "
                "battles side by side (--jobs N)\n");
        return 2;
    }
    if (tour.given) {
        struct tour_cli tc = { headless, check, trace || summary || every != 1,
                               vo.map.has_seed, vo.paused || speed_given || view_given, vo.ascii,
                               have_ticks ? ticks : -1, have_seconds ? seconds : -1,
                               argc - optind, argv + optind, BOTFIELD_MAPS_DIR,
                               tour.has_seeds ? record : NULL };
        int trc = tour_main(&tour, &tc, &vo.map);
        if (trc >= 0)
            return trc;
    }
    if (replay && vo.map.nset) {
        fprintf(stderr, "botfield: --replay %s --set %s=%s: a replay repeats the run as it "
                "was recorded (its settings included); to try a change, run the map with "
                "--set\n", replay, vo.map.set[0].key, vo.map.set[0].value);
        return 2;
    }
    if (argc - optind > 1) {
        fprintf(stderr, "botfield: one map at a time ('%s' is extra)\n"
                "Try 'botfield --help' for more information.\n", argv[optind + 1]);
        return 2;
    }
    if (have_ticks && have_seconds) {
        fprintf(stderr, "botfield: --ticks and --seconds both say how long a run lasts: give one\n");
        return 2;
    }
    /* --check loads the map (with --seed, which can decide whether
     * random tanks fit, and --set, which it checks) and does nothing else: an option it would ignore
     * is a mistake, said at once. */
    if (check && (record || replay)) {
        fprintf(stderr, "botfield: --check only loads the map: no --record or --replay\n");
        return 2;
    }
    if (record && replay) {
        fprintf(stderr, "botfield: --record and --replay: a replay is not recorded again "
                "(copy the recording instead)\n");
        return 2;
    }
    if (replay && (argc - optind > 0 || vo.map.has_seed || have_ticks || have_seconds)) {
        fprintf(stderr, "botfield: --replay %s takes no MAP, --seed, --ticks or --seconds: "
                "the recording holds the map, the seed and where it ends\n", replay);
        return 2;
    }
    if (check && (headless || trace || summary || decisions || have_ticks || have_seconds || every != 1
                  || vo.paused || vo.ascii || speed_given || threads_given || view_given)) {
        fprintf(stderr, "botfield: --check only loads the map: it takes MAP, --seed and "
                "--set, no other option\n"
                "Try 'botfield --help' for more information.\n");
        return 2;
    }
    if (headless && (vo.paused || speed_given || view_given)) {
        fprintf(stderr, "botfield: --paused, --speed, --rate and --fps are the viewer's: a "
                "headless run has no screen to pause, slow or pace\n"
                "Try 'botfield --help' for more information.\n");
        return 2;
    }
    if (decisions && !trace) {
        fprintf(stderr, "botfield: --trace-decisions writes decide lines into the trace: "
                "it needs --trace FILE\n");
        return 2;
    }
    if ((trace || summary || have_ticks || have_seconds || every != 1) && !headless && !check) {
        fprintf(stderr, "botfield: --trace, --trace-every, --summary, --ticks and --seconds "
                "need --headless\n");
        return 2;
    }
    /* A newcomer's first look: without --speed the viewer opens paused
     * with a one-line hint (2), so no fight is over before it is seen. */
    if (!vo.paused && !speed_given)
        vo.paused = 2;
    vo.map_path = optind < argc ? argv[optind] : NULL;
    if (trace && vo.map_path && strcmp(trace, "-") && same_file(trace, vo.map_path)) {
        fprintf(stderr, "botfield: --trace %s: that is the map file itself; "
                "the trace would overwrite it\n", trace);
        return 2;
    }
    if (record && vo.map_path && same_file(record, vo.map_path)) {
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
    if (headless && replay) {
        struct headless_options ho = { -1, trace, every, summary, NULL, decisions,
                                       (int)threads, threads_min };
        return replay_headless(replay, &ho);
    }
    vo.record = record;
    vo.replay = replay;
    vo.threads = (int)threads;
    vo.threads_min = threads_min;
    /* The viewer never waits for a writer: a FIFO as the map is refused. */
    vo.map.regular_only = !headless && !check;

    if (replay) {
        /* As with a map, the viewer never waits for a writer; and its
         * keys come from standard input, which cannot be the recording. */
        struct stat st;
        if (!strcmp(replay, "-")) {
            fprintf(stderr, "botfield: --replay -: the viewer reads its keys from standard "
                    "input; give the recording as a file (or replay it with --headless)\n");
            return 2;
        }
        if (stat(replay, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
            fprintf(stderr, "botfield: %s: is not a regular file (a FIFO, device or socket); "
                    "the viewer reads a recording from a regular file only\n", replay);
            return 2;
        }
        return view_run(&vo, NULL);
    }
    struct world w;
    struct map_error err = { NULL, 0 };
    char *map_text = NULL;          /* what a recording embeds */
    int rc = vo.map_path
        ? map_load_kept(vo.map_path, &vo.map, &w, &err, record ? &map_text : NULL)
        : map_load_text("default.ini", map_default_text, map_default_len, &vo.map, &w, &err);
    if (rc) {
        fputs(err.text ? err.text : "botfield: cannot load the map\n", stderr);
        map_error_free(&err);
        return 2;
    }
    /* The bots' scripts: a script that cannot be read or loaded is an
     * error of the map (exit 2), like any other. */
    struct bot_world *bots = NULL;
    char *berr = NULL;
    if (bot_world_attach(&w, BOTFIELD_MAPS_DIR, &bots, &berr)) {
        /* Lua's message quotes the script's bytes (an unfinished string) */
        char *safe = berr ? text_printable(berr, 1) : NULL;
        fprintf(stderr, "%s\n", safe ? safe : "botfield: cannot load the bots");
        free(safe);
        free(berr);
        free(map_text);
        world_free(&w);
        return 2;
    }
    if (check) {
        bot_world_free(&w, bots);
        world_free(&w);
        return 0;
    }
    const char *out_opt = trace && strcmp(trace, "-") ? "--trace" : NULL;
    const char *over = out_opt ? bot_script_at(trace, vo.map_path, &w, bots) : NULL;
    if (!over && record) {
        out_opt = "--record";
        over = bot_script_at(record, vo.map_path, &w, bots);
    }
    if (over) {
        fprintf(stderr, "botfield: %s %s: that is the bot script %s; the %s would "
                "overwrite it\n", out_opt, !strcmp(out_opt, "--trace") ? trace : record, over,
                !strcmp(out_opt, "--trace") ? "trace" : "recording");
        free((char *)over);
        free(map_text);
        bot_world_free(&w, bots);
        world_free(&w);
        return 2;
    }
    if (cmp.n && record) {
        /* the second side's recording: the same guards as --record's */
        char bfile[4096];
        compare_b_name(record, bfile, sizeof bfile);
        char *bover = bot_script_at(bfile, vo.map_path, &w, bots);
        const char *what = bover ? bover
                         : vo.map_path && same_file(bfile, vo.map_path) ? "the map file itself"
                         : same_file(bfile, record) || !strcmp(bfile, record)
                           ? "the first side's recording" : NULL;
        if (what) {
            fprintf(stderr, "botfield: --compare --record %s: the second side's recording %s "
                    "is %s%s; name the recording otherwise\n", record, bfile,
                    bover ? "the bot script " : "", what);
            free(bover);
            free(map_text);
            bot_world_free(&w, bots);
            world_free(&w);
            return 2;
        }
    }
    if (cmp.n) {
        struct compare_record cr = { record, vo.map_path,
                                     map_text ? map_text : map_default_text,
                                     vo.map.set, vo.map.nset };
        vo.bots = bots;
        rc = headless ? compare_run(&cmp, &vo.map, vo.map_path, &w, bots,
                                    have_ticks ? ticks : -1, have_seconds ? seconds : -1, &cr)
                      : view_compare_run(&cmp, &vo, &w);
        free(map_text);
        return rc;
    }
    if (headless) {
        struct headless_options ho = { -1, trace, every, summary, bots, decisions,
                                       (int)threads, threads_min };
        if (have_ticks)
            ho.ticks = ticks;
        else if (have_seconds)
            ho.ticks = lround(seconds * w.tick_rate);
        struct recording rec;
        /* A trace that cannot be opened stops the run before the
         * recording (maybe an older one) is truncated. */
        int e = record && trace && strcmp(trace, "-") ? file_cannot_write(trace) : 0;
        if (e) {
            fprintf(stderr, "botfield: cannot write the trace %s: %s\n", trace, strerror(e));
            free(map_text);
            bot_world_free(&w, bots);
            world_free(&w);
            return 1;
        }
        /* Armed before the recording's header is written: a signal from
         * now on stops the run with every file whole (stop.h). */
        stop_arm();
        if (record && recording_open(&rec, record, &w, bots, vo.map_path,
                                     map_text ? map_text : map_default_text,
                                     vo.map.set, vo.map.nset)) {
            free(map_text);
            bot_world_free(&w, bots);
            world_free(&w);
            stop_die();
            return 1;
        }
        free(map_text);
        rc = record ? recording_headless(&rec, &w, bots, &ho) : headless_run(&w, &ho);
        bot_world_free(&w, bots);
        world_free(&w);
        return rc;
    }
    vo.bots = bots;
    vo.map_text = map_text ? map_text : map_default_text;
    rc = view_run(&vo, &w);
    free(map_text);
    return rc;
}
