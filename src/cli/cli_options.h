/* cli_options.h — botfield's command line: the options read into a
 * struct cli, and each checked against the mode of the run (the table in
 * cli_options.c says both, and writes --help). */
#ifndef BOTFIELD_CLI_OPTIONS_H
#define BOTFIELD_CLI_OPTIONS_H

#include "run/compare.h"
#include "tour/tour.h"
#include "bot/bot_world.h"
#include "view/view.h"

/* The modes of a run: what the mode options ask for.  The viewer is the
 * run without --headless, --check or --aggregate. */
enum {
    CLI_VIEWER = 1u << 0, CLI_HEADLESS = 1u << 1, CLI_CHECK = 1u << 2,
    CLI_REPLAY = 1u << 3, CLI_SEEDS = 1u << 4, CLI_AGGREGATE = 1u << 5,
    CLI_COMPARE = 1u << 6, CLI_LADDER = 1u << 7, CLI_SPRT = 1u << 8
};

/* The options' indexes in the table (cli_options.c), in its order. */
enum cli_opt_id {
    CO_PAUSED, CO_SPEED, CO_ASCII, CO_RATE, CO_FPS,
    CO_HEADLESS, CO_TICKS, CO_SECONDS, CO_TRACE, CO_TRACE_EVERY, CO_TRACE_DECISIONS,
    CO_SUMMARY,
    CO_SEEDS, CO_SET, CO_JOBS, CO_CSV, CO_CHART, CO_AGGREGATE,
    CO_LADDER, CO_SPRT, CO_MAP, CO_ANCHOR, CO_ELO0, CO_ELO1, CO_ALPHA, CO_BETA, CO_MAX_GAMES,
    CO_GAMES,
    CO_COMPARE, CO_SEED, CO_THREADS, CO_RECORD, CO_REPLAY, CO_FOLLOW, CO_CHECK,
    CO_BOT_PROCESS, CO_BOT_TIMEOUT, CO_HELP, CO_VERSION,
    CO_MAN_KEYS, CO_MAN_VIEWER_KEYS,
    CO_COUNT
};

/* What the command line said. */
struct cli {
    const char *given[CO_COUNT];    /* each option's first value ("" for a flag), or NULL */
    unsigned modes;                 /* CLI_* of the run, once read */
    int headless, check, summary, decisions;
    int follow;                     /* --follow */
    long ticks, every, threads;
    double seconds;
    const char *trace, *record, *replay;
    int threads_min;                /* BOTFIELD_THREADS_ALWAYS: -1 */
    struct view_options vo;         /* --seed, --speed, --ascii, --rate, --fps */
    struct tour_options *tour;      /* --seeds, --set, --jobs, --csv, --chart, --aggregate */
    struct compare_opts *cmp;       /* --compare */
    /* --bot-process WHO=COMMAND (at most CLI_PROCESSES), --bot-timeout */
#define CLI_PROCESSES 64
    struct bot_process procs[CLI_PROCESSES];
    int nprocs;
    long bot_timeout;
    int nargs;                      /* the operands: MAP, or --aggregate's files */
    char **args;
};

/* Reads argv into c (tour and cmp: static storage, freed at exit):
 * -1 to go on, else the exit status (--help, --version, a bad option
 * said on stderr: 2). */
int cli_parse(struct cli *c, int argc, char **argv);

/* Each option against the run's modes, then the pairs of options that
 * cannot go together: 0, or 2 after saying what is wrong. */
int cli_check(struct cli *c);

#endif
