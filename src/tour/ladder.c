/* ladder.c — the options of --ladder and --sprt, and --ladder: every pair
 * of bots on every seed, twice with the sides swapped (so a map that
 * favours one side favours both bots equally), one JSON line a game, then
 * the Bradley-Terry ratings (ratings.c) as JSON, --csv and --chart. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "ladder.h"
#include "ladder_impl.h"
#include "ratings.h"

enum { O_LADDER = 600, O_SPRT, O_MAP, O_SEEDS, O_JOBS, O_ELO0, O_ELO1, O_ALPHA, O_BETA,
       O_MAX_GAMES, O_ANCHOR, O_CSV, O_CHART, O_GAMES };

static const struct option long_opts[] = {
    { "ladder", no_argument, NULL, O_LADDER }, { "sprt", no_argument, NULL, O_SPRT },
    { "map", required_argument, NULL, O_MAP }, { "seeds", required_argument, NULL, O_SEEDS },
    { "jobs", required_argument, NULL, O_JOBS }, { "elo0", required_argument, NULL, O_ELO0 },
    { "elo1", required_argument, NULL, O_ELO1 }, { "alpha", required_argument, NULL, O_ALPHA },
    { "beta", required_argument, NULL, O_BETA },
    { "max-games", required_argument, NULL, O_MAX_GAMES },
    { "anchor", required_argument, NULL, O_ANCHOR }, { "csv", required_argument, NULL, O_CSV },
    { "chart", no_argument, NULL, O_CHART }, { "games", required_argument, NULL, O_GAMES },
    { NULL, 0, NULL, 0 }
};

static int bad(const char *opt, const char *value, const char *allowed)
{
    fprintf(stderr, "botfield: %s%s%s: %s\n"
            "Try 'botfield --help' and botfield(6), LADDERS AND SEQUENTIAL TESTS.\n",
            opt, *value ? " " : "", value, allowed);
    return 2;
}

static int seed_number(const char *s, size_t n, uint64_t *out)
{
    if (n == 0 || n > 19)
        return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i]))
            return -1;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *out = v;
    return v > (uint64_t)INT64_MAX ? -1 : 0;
}

static int parse_seeds(struct ladder_options *o, const char *arg)
{
    const char *dash = strchr(arg, '-');
    if (!dash || seed_number(arg, (size_t)(dash - arg), &o->lo)
        || seed_number(dash + 1, strlen(dash + 1), &o->hi) || o->hi < o->lo)
        return bad("--seeds", arg, "expected A-B, two seeds from 0 to "
                   "9223372036854775807 (digits only) with A <= B");
    o->has_seeds = 1;
    return 0;
}

static int parse_num(const char *opt, const char *arg, double lo, double hi, int open,
                     double *out, const char *allowed)
{
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    if (errno || end == arg || *end || !isfinite(v) || v < lo || v > hi
        || (open && (v == lo || v == hi)))
        return bad(opt, arg, allowed);
    *out = v;
    return 0;
}

/* One option into o: 0, or 2 after saying what is wrong. */
static int read_option(struct ladder_options *o, int c, const char *arg)
{
    double v;
    switch (c) {
    case O_LADDER: o->ladder = 1; return 0;
    case O_SPRT: o->sprt = 1; return 0;
    case O_MAP: o->map = arg; return 0;
    case O_SEEDS: return parse_seeds(o, arg);
    case O_JOBS:
        if (parse_num("--jobs", arg, 1, 1024, 0, &v, "expected a number of processes, "
                      "1 to 1024") || v != floor(v))
            return 2;
        o->jobs = (long)v;
        return 0;
    case O_ELO0: return parse_num("--elo0", arg, -1000, 1000, 0, &o->elo0,
                                  "expected an Elo difference from -1000 to 1000");
    case O_ELO1: return parse_num("--elo1", arg, -1000, 1000, 0, &o->elo1,
                                  "expected an Elo difference from -1000 to 1000");
    case O_ALPHA: return parse_num("--alpha", arg, 0, 0.5, 1, &o->alpha,
                                   "expected a probability strictly between 0 and 0.5");
    case O_BETA: return parse_num("--beta", arg, 0, 0.5, 1, &o->beta,
                                  "expected a probability strictly between 0 and 0.5");
    case O_MAX_GAMES:
        if (parse_num("--max-games", arg, 2, LADDER_MAX_GAMES, 0, &v,
                      "expected a number of games from 2 to 1000000") || v != floor(v))
            return 2;
        o->max_games = (long)v;
        return 0;
    case O_ANCHOR: o->anchor = arg; return 0;
    case O_CSV: o->csv = arg; return 0;
    case O_CHART: o->chart = 1; return 0;
    case O_GAMES: o->games = arg; return 0;
    default: return bad("", "", "an option --ladder and --sprt do not take "
                        "(they take --map, --seeds, --jobs; --ladder: --anchor, --csv, "
                        "--chart; --sprt: --elo0, --elo1, --alpha, --beta, --max-games)");
    }
}

/* The options against each other. */
static int check_options(const struct ladder_options *o)
{
    if (o->ladder && o->sprt)
        return bad("--ladder", "--sprt", "one or the other");
    if (!o->map)
        return bad(o->ladder ? "--ladder" : "--sprt", "", "needs --map MAP, a map of two teams");
    if (o->ladder && o->nbots < 2)
        return bad("--ladder", "", "needs two bots or more (BOT.lua ...)");
    if (o->sprt && o->nbots != 2)
        return bad("--sprt", "", "needs two bots: NEW.lua OLD.lua");
    if (o->sprt && !(o->elo1 > o->elo0))
        return bad("--elo1", "", "must be more than --elo0 (the test tells elo0 from elo1)");
    if (o->sprt && (o->anchor || o->csv || o->chart))
        return bad("--sprt", "", "--anchor, --csv and --chart go with --ladder");
    if (o->games && o->jobs)
        return bad("--games", o->games, "reads games played elsewhere: --jobs plays none");
    if (o->ladder && o->max_games)
        return bad("--max-games", "", "goes with --sprt (a ladder plays every pair "
                   "on every seed)");
    double pairs = (double)o->nbots * (o->nbots - 1) / 2;
    if (o->ladder && pairs * 2 * ((double)(o->hi - o->lo) + 1) > LADDER_MAX_GAMES)
        return bad("--seeds", "A-B", "too many games: every pair of bots plays each seed "
                   "twice, and one command plays at most 1000000 games");
    return 0;
}

static int parse(struct ladder_options *o, int argc, char **argv)
{
    *o = (struct ladder_options){ .lo = 1, .hi = 10, .elo0 = 0, .elo1 = 5,
                                  .alpha = 0.05, .beta = 0.05 };
    optind = 0;                 /* 0: getopt starts afresh (main.c's table read argv first) */
    opterr = 1;
    int c, rc = 0;
    while (rc == 0 && (c = getopt_long(argc, argv, "", long_opts, NULL)) != -1)
        rc = read_option(o, c, optarg);
    if (rc)
        return rc;
    o->nbots = argc - optind;
    o->bots = argv + optind;
    if (o->sprt && !o->has_seeds)
        o->hi = o->lo + (uint64_t)(o->max_games ? (o->max_games + 1) / 2 : 10000) - 1;
    if (o->sprt && !o->max_games)
        o->max_games = 2 * (long)(o->hi - o->lo + 1) > LADDER_MAX_GAMES
            ? LADDER_MAX_GAMES : 2 * (long)(o->hi - o->lo + 1);
    return check_options(o);
}

long ladder_jobs(const struct ladder_options *o)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return o->jobs ? o->jobs : n > 0 ? n : 1;
}

int ladder_play(const struct ladder_options *o, const struct games_setup *s,
                const struct game *games, long n, game_done_fn done, void *ctx)
{
    if (o->games)
        return games_read(s, o->bots, games, n, o->games, done, ctx);
    return games_play(s, games, n, ladder_jobs(o), done, ctx) ? 1 : 0;
}

/* ---- --ladder --------------------------------------------------------- */

struct ladder_run {
    const struct ladder_options *o;
    const struct games_setup *s;
    const struct game *games;
    struct rating_game *rated;
    long nrated, failed;
    int write_failed;
};

static int put_json(json_t *o)
{
    char *line = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(o);
    int rc = line && printf("%s\n", line) >= 0 && fflush(stdout) == 0 ? 0 : -1;
    free(line);
    return rc;
}

/* A game's line: its seed, which bot drove which team, the winner. */
static int game_line(const struct ladder_run *L, const struct game *g,
                     const struct game_result *r)
{
    json_t *o = json_object(), *bots = json_object();
    json_object_set_new(o, "type", json_string("game"));
    json_object_set_new(o, "seed", json_integer((json_int_t)g->seed));
    for (int t = 0; t < 2; t++)
        json_object_set_new(bots, L->s->team[t], json_string(L->o->bots[g->bot[t]]));
    json_object_set_new(o, "bots", bots);
    if (r->half0 < 0)
        json_object_set_new(o, "failed", json_string(r->why ? r->why : "out of memory"));
    else
        json_object_set_new(o, "winner", r->winner ? json_string(r->winner) : json_null());
    return put_json(o);
}

static int ladder_game_done(void *ctx, long i, const struct game_result *r)
{
    struct ladder_run *L = ctx;
    const struct game *g = &L->games[i];
    if (r->half0 >= 0)
        L->rated[L->nrated++] = (struct rating_game){ g->bot[0], g->bot[1], r->half0 };
    else
        L->failed++;
    if (!L->o->chart && game_line(L, g, r))
        L->write_failed = 1;
    return 0;
}

static int ratings_json(const struct ladder_run *L, const struct rating *r, int anchor)
{
    json_t *o = json_object(), *list = json_array();
    json_object_set_new(o, "type", json_string("ratings"));
    json_object_set_new(o, "anchor", json_string(L->o->bots[anchor]));
    json_object_set_new(o, "games", json_integer(L->nrated));
    json_object_set_new(o, "failed", json_integer(L->failed));
    for (int i = 0; i < L->o->nbots; i++) {
        json_t *b = json_object();
        json_object_set_new(b, "bot", json_string(L->o->bots[i]));
        json_object_set_new(b, "elo", json_real(r[i].elo));
        json_object_set_new(b, "lo", json_real(r[i].lo));
        json_object_set_new(b, "hi", json_real(r[i].hi));
        json_object_set_new(b, "games", json_integer(r[i].games));
        json_object_set_new(b, "points", json_real(0.5 * (double)r[i].half_points));
        json_array_append_new(list, b);
    }
    json_object_set_new(o, "ratings", list);
    return put_json(o);
}

static int ratings_csv(const struct ladder_options *o, const struct rating *r)
{
    FILE *f = fopen(o->csv, "w");
    if (!f) {
        fprintf(stderr, "botfield: --csv %s: %s\n", o->csv, strerror(errno));
        return -1;
    }
    fprintf(f, "bot,elo,lo,hi,games,points\n");
    for (int i = 0; i < o->nbots; i++) {
        /* A bot's name is a path: quoted as CSV quotes, its quotes doubled. */
        fputc('"', f);
        for (const char *p = o->bots[i]; *p; p++)
            fputs(*p == '"' ? "\"\"" : (char[]){ *p, 0 }, f);
        fprintf(f, "\",%.2f,%.2f,%.2f,%ld,%.1f\n", r[i].elo, r[i].lo, r[i].hi, r[i].games,
                0.5 * (double)r[i].half_points);
    }
    if (fclose(f)) {
        fprintf(stderr, "botfield: --csv %s: %s\n", o->csv, strerror(errno));
        return -1;
    }
    return 0;
}

/* --chart: a row a bot, its interval as a line of dashes and its rating
 * as 'O' on one scale, 0 (the anchor) as '|'. */
static int ratings_chart(const struct ladder_options *o, const struct rating *r)
{
    enum { W = 44 };
    double lo = 0, hi = 0;
    for (int i = 0; i < o->nbots; i++) {
        lo = fmin(lo, r[i].lo);
        hi = fmax(hi, r[i].hi);
    }
    double span = hi - lo > 1 ? hi - lo : 1;
    printf("%-20s %8s  %.0f .. %.0f Elo, 95%% intervals\n", "bot", "elo", lo, hi);
    for (int i = 0; i < o->nbots; i++) {
        char bar[W + 1];
        memset(bar, ' ', W);
        bar[W] = 0;
        int a = (int)lround((r[i].lo - lo) / span * (W - 1));
        int b = (int)lround((r[i].hi - lo) / span * (W - 1));
        for (int k = a; k <= b; k++)
            bar[k] = '-';
        bar[(int)lround((0 - lo) / span * (W - 1))] = '|';
        bar[(int)lround((r[i].elo - lo) / span * (W - 1))] = 'O';
        const char *name = o->bots[i];
        size_t n = strlen(name);
        printf("%-20s %+8.1f  %s\n", n > 20 ? name + n - 20 : name, r[i].elo, bar);
    }
    return fflush(stdout) == 0 ? 0 : -1;
}

static int anchor_index(const struct ladder_options *o, const struct games_setup *s)
{
    if (!o->anchor)
        return 0;
    for (int i = 0; i < o->nbots; i++)
        if (!strcmp(o->anchor, o->bots[i]) || !strcmp(o->anchor, s->bots[i]))
            return i;
    return -1;
}

/* Every seed, every pair (i < j), i on the first team then on the second.
 * Seed by seed: the games of a range of seeds are then a stretch of the
 * list, so botfield-parallel's jobs (a range each) put end to end are the
 * list itself (--games). */
static struct game *ladder_games(const struct ladder_options *o, long *n)
{
    long seeds = (long)(o->hi - o->lo + 1);
    *n = (long)o->nbots * (o->nbots - 1) * seeds;
    struct game *g = calloc((size_t)*n, sizeof *g);
    long k = 0;
    for (long s = 0; g && s < seeds; s++)
        for (int i = 0; i < o->nbots; i++)
            for (int j = i + 1; j < o->nbots; j++) {
                g[k++] = (struct game){ o->lo + (uint64_t)s, { i, j } };
                g[k++] = (struct game){ o->lo + (uint64_t)s, { j, i } };
            }
    return g;
}

static int ladder_run(const struct ladder_options *o, const struct games_setup *s)
{
    int anchor = anchor_index(o, s);
    if (anchor < 0)
        return bad("--anchor", o->anchor, "not one of the bots given");
    long n;
    struct game *games = ladder_games(o, &n);
    struct ladder_run L = { o, s, games, calloc((size_t)n + 1, sizeof *L.rated), 0, 0, 0 };
    struct rating *r = calloc((size_t)o->nbots, sizeof *r);
    int rc = games && L.rated && r ? 0 : 1;
    if (rc == 0)
        rc = ladder_play(o, s, games, n, ladder_game_done, &L);
    if (rc == 0 && ratings_fit(o->nbots, L.rated, L.nrated, anchor, r))
        rc = 1;
    if (rc == 0 && (o->chart ? ratings_chart(o, r) : ratings_json(&L, r, anchor)))
        L.write_failed = 1;
    if (rc == 0 && o->csv && ratings_csv(o, r))
        L.write_failed = 1;
    if (rc == 0 && (L.failed || L.write_failed))
        rc = 1;
    free(games);
    free(L.rated);
    free(r);
    return rc;
}

int ladder_main(int argc, char **argv, const char *maps_dir)
{
    struct ladder_options o;
    int rc = parse(&o, argc, argv);
    if (rc)
        return rc;
    struct games_setup s;
    rc = games_setup(&s, o.map, maps_dir, o.bots, o.nbots);
    if (rc == 0)
        rc = o.ladder ? ladder_run(&o, &s) : sprt_run(&o, &s);
    games_setup_free(&s);
    return rc;
}
