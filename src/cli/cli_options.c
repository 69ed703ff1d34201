/* cli_options.c — the command line's options: one table that reads them,
 * checks them against the run's modes and writes --help. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "cli_options.h"
#include "core/par.h"
#include "io/map.h"
#include "view/pace.h"

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

struct cli_opt;
/* An option's own reading: -1 to go on, else the exit status. */
typedef int (*cli_set_fn)(struct cli *c, const struct cli_opt *o, const char *arg);

enum cli_kind { K_FLAG, K_TEXT, K_LONG, K_DOUBLE, K_OWN };

struct cli_opt {
    const char *name;       /* --name; there are no short names */
    const char *arg;        /* its value's name in --help; NULL: a flag */
    int operands;           /* arg names the operands, not a value (--aggregate) */
    unsigned modes;         /* the modes (CLI_*) it may be given with */
    unsigned needs;         /* one of these modes must be on; 0: none */
    int repeat;             /* may be given again (else a second is refused) */
    int hidden;             /* not in --help: make's helpers for the man page */
    const char *section;    /* --help's heading above it, NULL: none */
    const char *help;       /* --help's text, its lines joined by \n */
    enum cli_kind kind;     /* how it is read into struct cli ... */
    size_t at;              /* ... and where (offsetof) */
    long lmin, lmax;        /* K_LONG's bounds */
    double dmin, dmax;      /* K_DOUBLE's */
    const char *bad;        /* a bad value: what is allowed */
    cli_set_fn set;         /* K_OWN's reading */
    int code;               /* set's argument: a TOUR_OPT_* code */
};

static int set_seed(struct cli *c, const struct cli_opt *o, const char *arg);
static int set_rate(struct cli *c, const struct cli_opt *o, const char *arg);
static int set_fps(struct cli *c, const struct cli_opt *o, const char *arg);
static int set_tour(struct cli *c, const struct cli_opt *o, const char *arg);
static int set_compare(struct cli *c, const struct cli_opt *o, const char *arg);
static int set_exit(struct cli *c, const struct cli_opt *o, const char *arg);
static int set_ladder(struct cli *c, const struct cli_opt *o, const char *arg);
static int set_process(struct cli *c, const struct cli_opt *o, const char *arg);

#define AT(field) .at = offsetof(struct cli, field)
/* The modes of a viewer's option, a headless run's and a tournament's. */
#define M_VIEW (CLI_VIEWER | CLI_REPLAY | CLI_COMPARE)
#define M_RUN (CLI_HEADLESS | CLI_SEEDS | CLI_COMPARE)
#define M_TOUR (CLI_HEADLESS | CLI_SEEDS | CLI_AGGREGATE)
/* --ladder's and --sprt's */
#define M_LADDER (CLI_LADDER | CLI_SPRT)

/* Every option, once: its name, how it is read, the modes it may be
 * given with and its --help line.  The parser (getopt's table), the mode
 * checks and --help are all made from it, so an option cannot be added
 * to one and forgotten in another (tests/cli/options.sh holds --help to the
 * man page's OPTIONS).  The order is --help's. */
static const struct cli_opt opts[CO_COUNT] = {
    [CO_PAUSED] = { .name = "paused", .modes = M_VIEW, .section = "Viewer:",
        .help = "start paused (the default without --speed)",
        .kind = K_FLAG, AT(vo.paused) },
    [CO_SPEED] = { .name = "speed", .arg = "X", .modes = M_VIEW,
        .help = "simulation speed, 0.25 to 64 (default 1)",
        .kind = K_DOUBLE, AT(vo.speed), .dmin = 0.25, .dmax = 64,
        .bad = "expected a speed from 0.25 to 64" },
    [CO_ASCII] = { .name = "ascii", .modes = ~(unsigned)(CLI_CHECK | M_LADDER),
        .help = "plain ASCII drawing, no braille dots", .kind = K_FLAG, AT(vo.ascii) },
    [CO_RATE] = { .name = "rate", .arg = "BYTES", .modes = M_VIEW,
        .help = "bytes a second to the terminal at most (a slow\n"
                "link): frames over it are skipped; 0: any",
        .kind = K_OWN, .set = set_rate },
    [CO_FPS] = { .name = "fps", .arg = "N", .modes = M_VIEW,
        .help = "frames a second at most, 1 to 60 (default 30)", .kind = K_OWN, .set = set_fps },
    [CO_HEADLESS] = { .name = "headless", .modes = M_RUN | CLI_REPLAY, .section = "Headless:",
        .help = "run without a screen, as fast as possible", .kind = K_FLAG, AT(headless) },
    [CO_TICKS] = { .name = "ticks", .arg = "N", .modes = M_RUN,
        .help = "perform exactly N updates", .kind = K_LONG, AT(ticks),
        .lmin = 0, .lmax = LONG_MAX / 2, .bad = "expected a whole number of ticks, 0 or more" },
    [CO_SECONDS] = { .name = "seconds", .arg = "S", .modes = M_RUN,
        .help = "perform S x tick_rate updates", .kind = K_DOUBLE, AT(seconds),
        .dmin = 0, .dmax = 1e9, .bad = "expected a number of seconds, 0 to 1e9" },
    [CO_TRACE] = { .name = "trace", .arg = "FILE", .modes = CLI_HEADLESS | CLI_REPLAY,
        .help = "write a JSON Lines trace to FILE ('-': stdout;\nnever the map file itself)",
        .kind = K_TEXT, AT(trace) },
    [CO_TRACE_EVERY] = { .name = "trace-every", .arg = "K", .modes = CLI_HEADLESS | CLI_REPLAY,
        .help = "state lines every K ticks (default 1)", .kind = K_LONG, AT(every),
        .lmin = 1, .lmax = LONG_MAX, .bad = "expected a whole number of ticks, 1 or more" },
    [CO_TRACE_DECISIONS] = { .name = "trace-decisions", .modes = CLI_HEADLESS | CLI_REPLAY,
        .help = "a decide line per live vehicle per tick in the\n"
                "trace: the numbers behind its decisions",
        .kind = K_FLAG, AT(decisions) },
    [CO_SUMMARY] = { .name = "summary", .modes = CLI_HEADLESS | CLI_REPLAY | CLI_COMPARE,
        .help = "print the summary line on standard output\n"
                "(the default when no --trace is given)",
        .kind = K_FLAG, AT(summary) },
    [CO_SEEDS] = { .name = "seeds", .arg = "A-B", .modes = CLI_HEADLESS | CLI_SEEDS | M_LADDER,
        .section = "Tournaments (headless; botfield(6), TOURNAMENTS):",
        .help = "a battle per seed A to B: a run line each, then the\n"
                "aggregate (wins with 95% intervals, draws, ...)",
        .kind = K_OWN, .set = set_tour, .code = TOUR_OPT_SEEDS },
    [CO_SET] = { .name = "set", .arg = "SECTION.KEY=VALUE", .repeat = 1,
        .modes = CLI_VIEWER | CLI_CHECK | M_RUN,
        .help = "a map key set (repeatable; also for one run);\n"
                "VALUE1,VALUE2,... runs every value (a sweep)",
        .kind = K_OWN, .set = set_tour, .code = TOUR_OPT_SET },
    [CO_JOBS] = { .name = "jobs", .arg = "N", .modes = M_TOUR | M_LADDER,
        .needs = CLI_SEEDS | M_LADDER,
        .help = "runs at once (default: the number of cores)",
        .kind = K_OWN, .set = set_tour, .code = TOUR_OPT_JOBS },
    [CO_CSV] = { .name = "csv", .arg = "FILE", .modes = M_TOUR | CLI_LADDER,
        .needs = CLI_SEEDS | CLI_AGGREGATE | CLI_LADDER,
        .help = "write a row a run to FILE", .kind = K_OWN, .set = set_tour, .code = TOUR_OPT_CSV },
    [CO_CHART] = { .name = "chart", .modes = M_TOUR | CLI_LADDER,
        .needs = CLI_SEEDS | CLI_AGGREGATE | CLI_LADDER,
        .help = "draw the aggregate in 80 columns instead",
        .kind = K_OWN, .set = set_tour, .code = TOUR_OPT_CHART },
    [CO_AGGREGATE] = { .name = "aggregate", .arg = "FILE...", .operands = 1, .modes = CLI_AGGREGATE,
        .help = "read run lines ('-': standard input) and print\nwhat the tournament would",
        .kind = K_OWN, .set = set_tour, .code = TOUR_OPT_AGGREGATE },
    /* Their values are read by src/tour/ladder.c once the modes are
     * checked here (main.c hands it the command line). */
    [CO_LADDER] = { .name = "ladder", .modes = CLI_LADDER,
        .section = "Ladders and sequential tests (botfield(6), LADDERS AND SEQUENTIAL TESTS):",
        .help = "BOT.lua BOT.lua...: every pair on every seed, sides\n"
                "swapped; a line a game, then the Bradley-Terry\n"
                "ratings with 95% intervals (also --seeds, --jobs,\n"
                "--csv, --chart)",
        .kind = K_OWN, .set = set_ladder },
    [CO_SPRT] = { .name = "sprt", .modes = CLI_SPRT,
        .help = "NEW.lua OLD.lua: pairs of games, sides swapped, until\n"
                "the sequential test decides; exit 0 NEW is better,\n"
                "1 not, 3 undecided",
        .kind = K_OWN, .set = set_ladder },
    [CO_MAP] = { .name = "map", .arg = "MAP.ini", .modes = M_LADDER, .needs = M_LADDER,
        .help = "the map of two teams the bots play on",
        .kind = K_OWN, .set = set_ladder },
    [CO_ANCHOR] = { .name = "anchor", .arg = "BOT.lua", .modes = CLI_LADDER, .needs = CLI_LADDER,
        .help = "the bot rated 0 (default: the first)", .kind = K_OWN, .set = set_ladder },
    [CO_ELO0] = { .name = "elo0", .arg = "E0", .modes = CLI_SPRT, .needs = CLI_SPRT,
        .help = "the difference of no gain, in Elo (default 0)",
        .kind = K_OWN, .set = set_ladder },
    [CO_ELO1] = { .name = "elo1", .arg = "E1", .modes = CLI_SPRT, .needs = CLI_SPRT,
        .help = "the gain to detect, in Elo, more than E0 (default 5)",
        .kind = K_OWN, .set = set_ladder },
    [CO_ALPHA] = { .name = "alpha", .arg = "A", .modes = CLI_SPRT, .needs = CLI_SPRT,
        .help = "the chance of H1 when E0 holds, in (0, 0.5)\n(default 0.05)",
        .kind = K_OWN, .set = set_ladder },
    [CO_BETA] = { .name = "beta", .arg = "B", .modes = CLI_SPRT, .needs = CLI_SPRT,
        .help = "the chance of H0 when E1 holds, in (0, 0.5)\n(default 0.05)",
        .kind = K_OWN, .set = set_ladder },
    [CO_MAX_GAMES] = { .name = "max-games", .arg = "N", .modes = CLI_SPRT, .needs = CLI_SPRT,
        .help = "stop undecided after N games (2 to 1000000)",
        .kind = K_OWN, .set = set_ladder },
    [CO_GAMES] = { .name = "games", .arg = "FILE", .modes = M_LADDER, .needs = M_LADDER,
        .help = "read the games' lines from FILE ('-': standard\n"
                "input) instead of playing them: the merge of\n"
                "botfield-parallel's jobs",
        .kind = K_OWN, .set = set_ladder },
    [CO_COMPARE] = { .name = "compare", .arg = "SECTION.KEY=VALUE", .repeat = 1,
        .modes = CLI_VIEWER | CLI_HEADLESS | CLI_COMPARE, .section = "Both:",
        .help = "a second world with this setting beside\n"
                "the first (repeatable): side by side in the viewer;\n"
                "headless, both summaries and where they differ",
        .kind = K_OWN, .set = set_compare },
    [CO_SEED] = { .name = "seed", .arg = "S", .modes = CLI_VIEWER | CLI_HEADLESS | CLI_CHECK
                                                     | CLI_COMPARE,
        .help = "override the map's seed (digits only)", .kind = K_OWN, .set = set_seed },
    [CO_THREADS] = { .name = "threads", .arg = "N", .modes = M_VIEW | CLI_HEADLESS,
        .help = "threads for sight and decisions, 1 to 256 (default:\n"
                "the cores available); the same run for any N",
        .kind = K_LONG, AT(threads), .lmin = 1, .lmax = PAR_MAX_THREADS,
        .bad = "expected a whole number of threads, 1 to 256" },
    [CO_RECORD] = { .name = "record", .arg = "FILE", .modes = CLI_VIEWER | M_RUN,
        .help = "record the run into FILE as it goes (the map, the\n"
                "bots' scripts, --set, reloads, a checkpoint every\n"
                "600 ticks); with --seeds a folder, a file a run",
        .kind = K_TEXT, AT(record) },
    [CO_REPLAY] = { .name = "replay", .arg = "FILE", .modes = CLI_VIEWER | CLI_HEADLESS | CLI_REPLAY,
        .help = "recompute a recording (no MAP, --seed or --ticks:\n"
                "the recording holds them); exit 1 where it diverges",
        .kind = K_TEXT, AT(replay) },
    [CO_FOLLOW] = { .name = "follow", .modes = CLI_VIEWER | CLI_REPLAY,
        .help = "with --replay in the viewer: follow the recording as\n"
                "it grows (a file being written, a FIFO), live",
        .kind = K_FLAG, AT(follow) },
    [CO_CHECK] = { .name = "check", .modes = CLI_CHECK,
        .help = "load and validate MAP, print nothing on success\n"
                "(takes --seed and --set; any other option is an\nerror)",
        .kind = K_FLAG, AT(check) },
    [CO_BOT_PROCESS] = { .name = "bot-process", .arg = "VEHICLE=COMMAND", .repeat = 1,
        .modes = CLI_VIEWER | CLI_HEADLESS, .section = "Process bots (botfield-bots(7)):",
        .help = "a program of yours decides for VEHICLE (an id, or\n"
                "team.NAME: each of its vehicles), over JSON lines on\n"
                "its standard input and output (repeatable)",
        .kind = K_OWN, .set = set_process },
    [CO_BOT_TIMEOUT] = { .name = "bot-timeout", .arg = "MS", .modes = CLI_VIEWER | CLI_HEADLESS,
        .help = "the wait for a process bot's answer, 1 to 600000 ms\n(default 1000)",
        .kind = K_LONG, AT(bot_timeout), .lmin = 1, .lmax = 600000,
        .bad = "expected a number of milliseconds, 1 to 600000" },
    [CO_HELP] = { .name = "help", .help = "display this help and exit",
        .kind = K_OWN, .set = set_exit },
    [CO_VERSION] = { .name = "version", .help = "output version information and exit",
        .kind = K_OWN, .set = set_exit },
    /* The man page's key lists, from the tables (Makefile.am). */
    [CO_MAN_KEYS] = { .name = "man-keys", .hidden = 1, .kind = K_OWN, .set = set_exit },
    [CO_MAN_VIEWER_KEYS] = { .name = "man-viewer-keys", .hidden = 1, .kind = K_OWN,
        .set = set_exit },
};

static const char help_head[] =
"Usage: botfield [OPTION]... [MAP.ini]\n"
"       botfield --headless [--ticks N | --seconds S] [--seed S]\n"
"                [--trace FILE [--trace-decisions]] [--trace-every K]\n"
"                [--summary] MAP.ini\n"
"       botfield --headless --seeds A-B [--set SECTION.KEY=VALUE]... [--jobs N]\n"
"                [MAP.ini]\n"
"       botfield --check [--seed S] [--set SECTION.KEY=VALUE]... MAP.ini\n"
"       botfield --ladder BOT.lua BOT.lua... --map MAP.ini [--seeds A-B]\n"
"       botfield --sprt NEW.lua OLD.lua --map MAP.ini [--elo0 E0] [--elo1 E1]\n"
"       botfield [--headless [--trace FILE]...] --replay RECORDING\n"
"A terminal sandbox for game AI: tanks that wander, see and shoot, race cars\n"
"on waypoints.  Without MAP, the built-in default map.\n"
"\n";
static const char help_foot[] =
"\n"
"Exit status: 0 success, 1 runtime failure, 2 bad command line or bad map.\n"
"See botfield(6) for the map format and the viewer's keys.\n";

/* --help: each option's name and value left, its text from column 25. */
static void usage(FILE *f)
{
    fputs(help_head, f);
    for (int i = 0; i < CO_COUNT; i++) {
        const struct cli_opt *o = &opts[i];
        if (o->hidden)
            continue;
        if (o->section)
            fprintf(f, "%s\n", o->section);
        char label[64];
        snprintf(label, sizeof label, "--%s%s%s", o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
        fprintf(f, "      %-17s  ", label);
        for (const char *p = o->help;; fprintf(f, "%25s", "")) {
            size_t n = strcspn(p, "\n");
            fprintf(f, "%.*s\n", (int)n, p);
            if (!p[n])
                break;
            p += n + 1;
        }
    }
    fputs(help_foot, f);
}

/* VEHICLE=COMMAND: a vehicle's id or team.NAME (as a map's section
 * names them), then any command (run by /bin/sh -c). */
static int set_process(struct cli *c, const struct cli_opt *o, const char *arg)
{
    (void)o;
    const char *eq = strchr(arg, '=');
    size_t n = eq ? (size_t)(eq - arg) : 0;
    int ok = eq && n > 0 && n < 64 && eq[1] && memchr(arg, '.', n);
    for (size_t i = 0; ok && i < n; i++)
        ok = islower((unsigned char)arg[i]) || isdigit((unsigned char)arg[i])
             || strchr("._-", arg[i]);
    if (!ok)
        return bad_option("--bot-process", arg, "expected VEHICLE=COMMAND: a vehicle's id "
                          "(tank.NAME, turret.NAME, car.NAME) or team.NAME, '=', a command");
    if (c->nprocs == CLI_PROCESSES)
        return bad_option("--bot-process", arg, "at most 64 are given");
    char *who = strndup(arg, n);
    if (!who)
        return bad_option("--bot-process", arg, "out of memory");
    c->procs[c->nprocs++] = (struct bot_process){ who, eq + 1 };
    return -1;
}

static int set_seed(struct cli *c, const struct cli_opt *o, const char *arg)
{
    (void)o;
    if (parse_seed(arg, &c->vo.map.seed))
        return bad_option("--seed", arg, "expected a whole number, 0 to "
                          "18446744073709551615, digits only (no sign or spaces)");
    c->vo.map.has_seed = 1;
    return -1;
}

static int set_rate(struct cli *c, const struct cli_opt *o, const char *arg)
{
    (void)o;
    long r;
    if (parse_long(arg, 0, PACE_RATE_MAX, &r) || (r > 0 && r < PACE_RATE_MIN))
        return bad_option("--rate", arg, "expected a whole number of bytes a "
                          "second, 100 to 100000000, or 0 for no budget");
    c->vo.rate = (double)r;
    return -1;
}

static int set_fps(struct cli *c, const struct cli_opt *o, const char *arg)
{
    (void)o;
    long f;
    if (parse_long(arg, 1, PACE_FPS_MAX, &f))
        return bad_option("--fps", arg, "expected a whole number of frames a second, 1 to 60");
    c->vo.fps = (int)f;
    return -1;
}

static int set_tour(struct cli *c, const struct cli_opt *o, const char *arg)
{
    return tour_option(c->tour, o->code, arg) ? 2 : -1;
}

static int set_compare(struct cli *c, const struct cli_opt *o, const char *arg)
{
    (void)o;
    return compare_option(c->cmp, arg) ? 2 : -1;
}

/* --ladder's and --sprt's options: only noted (c->given) here; their
 * values are read and checked by ladder.c, which main.c calls. */
static int set_ladder(struct cli *c, const struct cli_opt *o, const char *arg)
{
    (void)c;
    (void)o;
    (void)arg;
    return -1;
}

/* --help, --version and the man page's lists: said, and the run ends. */
static int set_exit(struct cli *c, const struct cli_opt *o, const char *arg)
{
    (void)c;
    (void)arg;
    if (o == &opts[CO_HELP]) {
        usage(stdout);
        return 0;
    }
    if (o == &opts[CO_VERSION]) {
        printf("botfield %s\n"
               "This is free software: you are free to change and redistribute it.\n"
               "There is NO WARRANTY, to the extent permitted by law.\n", PACKAGE_VERSION);
        return 0;
    }
    char *m = o == &opts[CO_MAN_KEYS] ? map_keys_man() : view_keys_man();
    if (!m)
        return 1;
    fputs(m, stdout);
    free(m);
    return 0;
}

/* One option read into c by its kind: -1 to go on, else the exit status. */
static int read_option(struct cli *c, const struct cli_opt *o, const char *arg)
{
    char *field = (char *)c + o->at;
    char flag[64];
    snprintf(flag, sizeof flag, "--%s", o->name);
    switch (o->kind) {
    case K_FLAG: *(int *)(void *)field = 1; return -1;
    case K_TEXT: *(const char **)(void *)field = arg; return -1;
    case K_LONG:
        if (parse_long(arg, o->lmin, o->lmax, (long *)(void *)field))
            return bad_option(flag, arg, o->bad);
        return -1;
    case K_DOUBLE:
        if (parse_double(arg, o->dmin, o->dmax, (double *)(void *)field))
            return bad_option(flag, arg, o->bad);
        return -1;
    case K_OWN: return o->set(c, o, arg);
    }
    return 2;
}

static int takes_value(const struct cli_opt *o)
{
    return o->arg && !o->operands;
}

/* getopt's table, from ours: option i comes back as 256 + i. */
enum { CODE0 = 256 };
static void make_longopts(struct option *lo)
{
    for (int i = 0; i < CO_COUNT; i++)
        lo[i] = (struct option){ opts[i].name, takes_value(&opts[i]) ? required_argument
                                                                     : no_argument,
                                 NULL, CODE0 + i };
    lo[CO_COUNT] = (struct option){ NULL, 0, NULL, 0 };
}

static int unknown_option(char **argv)
{
    if (optopt >= CODE0 || (optopt == 0 && argv[optind - 1]))
        fprintf(stderr, "botfield: unrecognized or incomplete option '%s'\n", argv[optind - 1]);
    else
        fprintf(stderr, "botfield: invalid option\n");
    fprintf(stderr, "Try 'botfield --help' for more information.\n");
    return 2;
}

static void defaults(struct cli *c)
{
    static struct tour_options tour;    /* static: freed at exit (tour/options.c) */
    static struct compare_opts cmp;     /* --compare (compare.c) */
    memset(c, 0, sizeof *c);
    c->ticks = -1;
    c->every = 1;
    c->seconds = -1;            /* not given */
    c->threads = par_default_threads();
    c->bot_timeout = 1000;
    c->vo.speed = 1.0;
    c->tour = &tour;
    c->cmp = &cmp;
    /* threads for any number of vehicles, not only where they pay: what
     * the tests use to check that the count changes nothing */
    const char *always = getenv("BOTFIELD_THREADS_ALWAYS");
    c->threads_min = always && *always && strcmp(always, "0") ? -1 : 0;
}

int cli_parse(struct cli *c, int argc, char **argv)
{
    struct option lo[CO_COUNT + 1];
    make_longopts(lo);
    defaults(c);
    int code;
    opterr = 0;
    while ((code = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        if (code < CODE0 || code >= CODE0 + CO_COUNT)
            return unknown_option(argv);
        const struct cli_opt *o = &opts[code - CODE0];
        const char **given = &c->given[code - CODE0];
        /* getopt keeps the last value without a word (--trace a --trace b
         * wrote only b): a second is refused. */
        if (*given && takes_value(o) && !o->repeat) {
            fprintf(stderr, "botfield: --%s given twice ('%s', then '%s'): give it once\n"
                    "Try 'botfield --help' for more information.\n", o->name, *given, optarg);
            return 2;
        }
        if (!*given)
            *given = takes_value(o) ? optarg : "";
        int rc = read_option(c, o, optarg);
        if (rc >= 0)
            return rc;
    }
    c->nargs = argc - optind;
    c->args = argv + optind;
    return -1;
}

/* The modes, in the order their refusals are said: an option given with
 * a mode that its table row does not list is refused with the mode's
 * reason and the options the mode takes (from the table). */
static const struct cli_mode {
    unsigned bit;
    int opt;                /* the option that asks for it; -1: the viewer */
    const char *why;        /* what the mode does, or what the option needs */
    const char *takes;      /* %s: the options it takes */
} modes[] = {
    { CLI_LADDER, CO_LADDER, "--ladder plays every pair of bots on a map of two teams and "
      "rates them", "it takes BOT.lua BOT.lua..., %s" },
    { CLI_SPRT, CO_SPRT, "--sprt tests NEW.lua against OLD.lua in pairs of games",
      "it takes NEW.lua OLD.lua, %s" },
    { CLI_COMPARE, CO_COMPARE, "--compare runs two worlds side by side", "it takes MAP, %s" },
    { CLI_AGGREGATE, CO_AGGREGATE, "--aggregate only reads run lines, it runs nothing",
      "it takes FILE... ('-': standard input), %s" },
    { CLI_SEEDS, CO_SEEDS, "--seeds runs a battle per seed, each with its own seed, side by "
      "side, and prints a run line each and the aggregate", "it takes MAP, %s" },
    { CLI_CHECK, CO_CHECK, "--check only loads the map", "it takes MAP, %s, no other option" },
    { CLI_REPLAY, CO_REPLAY, "a replay repeats the run as it was recorded (its map, seed, "
      "settings and end); to try a change, run the map", "it takes %s" },
    { CLI_HEADLESS, CO_HEADLESS, "that is the viewer's: a headless run has no screen to "
      "pause, slow or pace", "it takes MAP, %s" },
    { CLI_VIEWER, -1, "that needs --headless: the viewer writes no trace, summary or run line "
      "and runs until it is quit", "the viewer takes MAP, %s" },
};
enum { NMODES = sizeof modes / sizeof *modes };

/* "--a, --b and --c": the options that mode m takes (the others of its
 * own mode but itself), or with m 0 the modes of `needs`. */
static void list_options(char *buf, size_t cap, const struct cli_mode *m, unsigned needs)
{
    int ids[CO_COUNT], n = 0;
    for (int i = 0; i < CO_COUNT && m; i++)
        if (!opts[i].hidden && i != m->opt && (opts[i].modes & m->bit)
            && (!opts[i].needs || (opts[i].needs & m->bit)))
            ids[n++] = i;
    for (int k = 0; k < NMODES && !m; k++)
        if (modes[k].opt >= 0 && (needs & modes[k].bit))
            ids[n++] = modes[k].opt;
    size_t len = 0;
    buf[0] = 0;
    for (int k = 0; k < n && len < cap; k++)
        len += (size_t)snprintf(buf + len, cap - len, "%s--%s",
                                k == 0 ? "" : k == n - 1 ? (m ? " and " : " or ") : ", ",
                                opts[ids[k]].name);
}

/* "--name VALUE" as given, or "--name" for a flag. */
static void given_text(char *buf, size_t cap, const struct cli *c, int id)
{
    const char *v = c->given[id];
    snprintf(buf, cap, "--%s%s%s", opts[id].name, v && *v ? " " : "", v && *v ? v : "");
}

static int refuse_mode(const struct cli *c, const struct cli_mode *m, int id)
{
    char mode[256] = "", opt[256], list[1024], takes[1100];
    if (m->opt >= 0)
        given_text(mode, sizeof mode, c, m->opt);
    given_text(opt, sizeof opt, c, id);
    list_options(list, sizeof list, m, 0);
    snprintf(takes, sizeof takes, m->takes, list);
    fprintf(stderr, "botfield: %s%s%s: %s: %s\n"
            "Try 'botfield --help' for more information.\n",
            mode, *mode ? " " : "", opt, m->why, takes);
    return 2;
}

/* Which modes the mode options ask for. */
static unsigned run_modes(const struct cli *c)
{
    unsigned on = 0;
    for (int k = 0; k < NMODES; k++)
        if (modes[k].opt >= 0 && c->given[modes[k].opt])
            on |= modes[k].bit;
    /* a ladder's --seeds is its seed range, not a tournament */
    if (on & M_LADDER)
        on &= ~(unsigned)CLI_SEEDS;
    if (!(on & (CLI_HEADLESS | CLI_CHECK | CLI_AGGREGATE | M_LADDER)))
        on |= CLI_VIEWER;
    return on;
}

/* An option that needs a mode (--jobs: --seeds), then every option
 * given against every mode on, from the table. */
static int check_modes(struct cli *c)
{
    c->modes = run_modes(c);
    for (int i = 0; i < CO_COUNT; i++)
        if (c->given[i] && opts[i].needs && !(opts[i].needs & c->modes)) {
            char opt[256], list[256];
            given_text(opt, sizeof opt, c, i);
            list_options(list, sizeof list, NULL, opts[i].needs);
            fprintf(stderr, "botfield: %s: %s: it needs %s\n"
                    "Try 'botfield --help' for more information.\n", opt,
                    opts[i].needs & (CLI_SEEDS | CLI_AGGREGATE) ? "a tournament's option"
                    : "an option of a ladder or a sequential test", list);
            return 2;
        }
    for (int k = 0; k < NMODES; k++) {
        if (!(c->modes & modes[k].bit))
            continue;
        for (int i = 0; i < CO_COUNT; i++)
            if (c->given[i] && !(opts[i].modes & modes[k].bit))
                return refuse_mode(c, &modes[k], i);
    }
    return 0;
}

static int refuse(const char *what)
{
    fprintf(stderr, "botfield: %s\nTry 'botfield --help' for more information.\n", what);
    return 2;
}

int cli_check(struct cli *c)
{
    int rc = check_modes(c);
    if (rc)
        return rc;
    if (c->cmp->n && c->record && !c->headless)
        return refuse("--compare --record records a headless comparison (add --headless): "
                      "the viewer's side-by-side run is not recorded");
    if (c->given[CO_TICKS] && c->given[CO_SECONDS])
        return refuse("--ticks and --seconds both say how long a run lasts: give one");
    if (c->follow && !c->replay)
        return refuse("--follow follows a recording as it grows: it needs --replay FILE");
    if (c->decisions && !c->trace)
        return refuse("--trace-decisions writes decide lines into the trace: it needs "
                      "--trace FILE");
    if (c->nargs > 1 && !c->tour->aggregate && !(c->modes & M_LADDER)) {
        fprintf(stderr, "botfield: one map at a time ('%s' is extra)\n"
                "Try 'botfield --help' for more information.\n", c->args[1]);
        return 2;
    }
    if (c->replay && c->nargs) {
        fprintf(stderr, "botfield: --replay %s %s: a replay takes no MAP: the recording "
                "holds the map, the seed and where it ends\n", c->replay, c->args[0]);
        return 2;
    }
    return 0;
}
