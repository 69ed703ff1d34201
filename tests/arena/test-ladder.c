/* test-ladder.c — the arena's ladder engine (src/arena/ladder_run.h) on
 * an arena folder in $TMPDIR: a strong bot, an idle one and three
 * hostile ones play until 20 matches are over; the matches come in
 * sides-swapped pairs on one seed, each has its result and recording,
 * the strong bot leads, the hostile ones are bot errors (never a failed
 * match or a crash), a restart gives the same ladder.json byte for byte,
 * a torn last results line is cut and a left .part deleted.
 *
 * ARENA_BENCH=1: instead, 1,000 bots and 100,000 results: how long
 * opening, the ladder, the matches and one refit take (a note). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "arena/ladder_impl.h"
#include "arena/settings.h"

static char dir[512];
static char *maps[] = { "duel.ini" };
static struct arena_settings set = { dir, "test arena", maps, 1, 1, 3, 65536, 10, 0, 2 };
static const int WANT = 20;

static const char map_text[] =
    "[map]\nname = arena duel\nwidth = 600\nheight = 400\nseed = 1\nduration = 20\n\n"
    "[team.red]\ncolor = red\nhealth = 2\n[team.blue]\ncolor = blue\nhealth = 2\n\n"
    "[tank.red]\nteam = red\nx = 100\ny = 200\nheading = 0\n\n"
    "[tank.blue]\nteam = blue\nx = 500\ny = 200\nheading = 180\n";

static void put(const char *rel, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f)) {
        fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
        exit(99);
    }
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "r");
    char *buf = NULL;
    size_t len = 0;
    FILE *m = f ? open_memstream(&buf, &len) : NULL;
    for (int c; m && (c = fgetc(f)) != EOF;)
        fputc(c, m);
    if (m)
        fclose(m);
    if (f)
        fclose(f);
    if (n)
        *n = len;
    return buf;
}

static void mk(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    mkdir(path, 0755);
}

static int exists(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    return access(path, F_OK) == 0;
}

static void folder(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/arena-ladder-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        exit(99);
    char src[1024];
    snprintf(src, sizeof src, "%s/maps/bots/hunter.lua", getenv("top_srcdir") ? getenv("top_srcdir") : "..");
    char *hunter = slurp(src, NULL);
    if (!hunter)
        exit(99);
    put("duel.ini", map_text);
    mk("bots"), mk("bots/alice"), mk("bots/bob"), mk("bots/carol"), mk("bots/Bad-Name");
    mk("matches");
    put("bots/alice/hunter.lua", hunter);
    put("bots/bob/idle.lua", "function tick(me, world, mem, out) end\n");
    put("bots/bob/Bad.lua", "function tick(me, world, mem, out) end\n");
    put("bots/Bad-Name/x.lua", "function tick(me, world, mem, out) end\n");
    put("bots/carol/loop.lua", "function tick(me, world, mem, out) while true do end end\n");
    put("bots/carol/bomb.lua", "function tick(me, world, mem, out)\n  local t = {}\n"
        "  for i = 1, 1e9 do t[i] = string.rep('x', 1000) .. i end\nend\n");
    put("bots/carol/err.lua", "function tick(me, world, mem, out) error('boom') end\n");
    put("matches/7.part", "left by a crash\n");
    free(hunter);
}

static struct arena_ladder *L;

/* Until matches 1 to n have all finished (two workers finish them in
 * any order). */
static long finished_upto(long n)
{
    long k = 0;
    for (long i = 0; i < L->nres; i++)
        k += L->res[i].id <= n;
    return k;
}

static void play_until(long n)
{
    while (finished_upto(n) < n) {
        int ms = arena_ladder_poll(L);
        usleep((useconds_t)(ms < 50 ? ms : 50) * 1000);
    }
}

/* The ratings' refit (a child) done. */
static void settle(void)
{
    while (L->fit_pid > 0)
        ladder_fit_poll(L, 1);
}

static const struct lresult *result(long id)
{
    for (long i = 0; i < L->nres; i++)
        if (L->res[i].id == id)
            return &L->res[i];
    return NULL;
}

TEST(opens_and_cleans)
{
    char *err = NULL;
    L = arena_ladder_open(&set, "", &err);
    check(L != NULL);
    if (!L) {
        tap_note("%s", err ? err : "?");
        exit(1);
    }
    check(!exists("matches/7.part"));
    int current = 0;
    for (int i = 0; i < L->nbots; i++)
        current += L->bots[i].current;
    check_int(current, ==, 5);      /* Bad.lua and Bad-Name/ ignored */
    settle();
    check(exists("ladder.json"));
}

TEST(pairs_swapped_on_one_seed)
{
    play_until(WANT);
    for (long id = 1; id <= WANT; id += 2) {
        const struct lresult *a = result(id), *b = result(id + 1);
        if (!check(a && b))
            continue;
        check_int((long)a->seed, ==, (long)b->seed);
        check_int(a->map, ==, b->map);
        check_int(a->bot[0], ==, b->bot[1]);
        check_int(a->bot[1], ==, b->bot[0]);
        check(a->bot[0] != a->bot[1]);
    }
}

TEST(results_and_recordings)
{
    size_t n;
    char *text = slurp(strcat(strcpy((char[1024]){ 0 }, dir), "/results.jsonl"), &n);
    long lines = 0;
    for (size_t i = 0; text && i < n; i++)
        lines += text[i] == '\n';
    check_int(lines, ==, L->nres);
    free(text);
    check_int(L->failed, ==, 0);    /* hostile bots are bot errors, never a failed match */
    for (long i = 0; i < L->nres; i++) {
        char rel[64];
        snprintf(rel, sizeof rel, "matches/%ld.rec", L->res[i].id);
        check(exists(rel));
    }
    /* the full recording replays and verifies its checkpoints */
    const char *bf = getenv("BOTFIELD");
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' --headless --replay '%s/matches/1.rec' >/dev/null",
             bf ? bf : "./botfield", dir);
    check_int(system(cmd), ==, 0);
}

static int bot_named(const char *person, const char *name)
{
    for (int i = 0; i < L->nbots; i++)
        if (L->bots[i].current && !strcmp(L->bots[i].person, person)
            && !strcmp(L->bots[i].name, name))
            return i;
    return -1;
}

TEST(strong_bot_leads)
{
    settle();
    int h = bot_named("alice", "hunter"), idle = bot_named("bob", "idle");
    check(h >= 0 && idle >= 0);
    if (h >= 0 && idle >= 0)
        check_num(L->bots[h].r.elo, >, L->bots[idle].r.elo);
    char *t = arena_ladder_table(L, 0);
    check(t && strstr(t, "alice/hunter") && strstr(t, "alice/hunter") < strstr(t, "bob/idle"));
    tap_note("%s", t ? t : "");
    free(t);
    char *j = arena_ladder_table(L, 1);
    check(j && j[0] == '[' && strstr(j, "\"bot\":\"alice/hunter\""));
    free(j);
}

TEST(hostile_bots_logged_privately)
{
    char *log = arena_ladder_log(L, "carol", "loop");
    check(log && strstr(log, "error"));
    free(log);
    log = arena_ladder_log(L, "carol", "err");
    check(log && strstr(log, "boom"));
    free(log);
    log = arena_ladder_log(L, "alice", "loop");     /* not alice's bot */
    check(log && !strstr(log, "tick"));
    free(log);
    char *bots = arena_ladder_bots(L, "carol");
    check(bots && strstr(bots, "bomb") && strstr(bots, "boom") && !strstr(bots, "hunter"));
    free(bots);
}

TEST(fetch_keeps_my_scripts_only)
{
    long id = -1;
    int h = bot_named("alice", "hunter");
    for (long i = 0; i < L->nres && id < 0; i++)
        if (L->res[i].bot[0] == h || L->res[i].bot[1] == h)
            id = L->res[i].id;
    char *err = NULL;
    char *rec = arena_ladder_fetch(L, "alice", id, &err);
    check(rec && strstr(rec, "\"path\":\"bots/alice/hunter.lua\""));
    check(rec && !strstr(rec, "\"path\":\"bots/bob/") && !strstr(rec, "\"path\":\"bots/carol/"));
    free(rec);
    check(arena_ladder_fetch(L, "alice", 999999, &err) == NULL && err);
    free(err);
    char *m = arena_ladder_matches(L, 3);
    long lines = 0;
    for (const char *c = m; c && *c; c++)
        lines += *c == '\n';
    check_int(lines, ==, 3);
    free(m);
}

TEST(new_bot_plays_soon)
{
    mk("bots/dave");
    put("bots/dave/new.lua", "function tick(me, world, mem, out) out.speed = 1 end\n");
    check_int(arena_ladder_add_bot(L, "dave", "new"), ==, 0);
    int d = bot_named("dave", "new");
    long before = L->nres;
    /* the unrated bot is the least certain: the next pair started is its */
    play_until(L->nres + 4);
    int played = 0;
    for (long i = before; i < L->nres; i++)
        played |= L->res[i].bot[0] == d || L->res[i].bot[1] == d;
    check(d >= 0 && played);
}

TEST(restart_same_ladder)
{
    /* closed with matches running: they are lost, their pairs' twins
     * queued again on the next open */
    char path[1024];
    snprintf(path, sizeof path, "%s/ladder.json", dir);
    size_t n1, n2;
    long nres = L->nres;
    arena_ladder_close(L);      /* (waits for the refit running) */
    char *before = slurp(path, &n1);
    /* a torn last line: ignored (and cut), the rest the same */
    snprintf(path, sizeof path, "%s/results.jsonl", dir);
    size_t rn;
    char *res = slurp(path, &rn);
    FILE *f = fopen(path, "a");
    fputs("{\"id\":999,\"map\":\"duel", f);
    fclose(f);
    put("matches/3.part", "x");
    char *err = NULL;
    L = arena_ladder_open(&set, "", &err);
    check(L != NULL);
    if (!L)
        exit(1);
    check_int(L->nres, ==, nres);
    check(!exists("matches/3.part"));
    settle();
    size_t rn2;
    char *res2 = slurp(path, &rn2);
    check(rn2 == rn && !memcmp(res, res2, rn));
    snprintf(path, sizeof path, "%s/ladder.json", dir);
    char *after = slurp(path, &n2);
    if (!check(before && after && n1 == n2 && !memcmp(before, after, n1)))
        tap_note("before:\n%s\nafter:\n%s", before ? before : "", after ? after : "");
    free(before), free(after), free(res2);
    arena_ladder_close(L);
    /* a bad line that is not the last: an error naming it */
    snprintf(path, sizeof path, "%s/results.jsonl", dir);
    f = fopen(path, "w");
    fputs("{\"id\":1}\nnot json\n", f);
    fwrite(res, 1, rn, f);
    fclose(f);
    L = arena_ladder_open(&set, "", &err);
    check(L == NULL && err && strstr(err, "results.jsonl:1:"));
    free(err), free(res);
}

/* A map a match could not load (random trees in a match of rounds):
 * said at open, with the map's own message. */
TEST(bad_map_said_at_open)
{
    char *err = NULL;
    put("duel.ini", "[map]\nname = one team\nwidth = 600\nheight = 400\n[team.red]\n"
        "[tank.red]\nteam = red\nx = 100\ny = 100\n");
    put("results.jsonl", "");
    struct arena_ladder *l = arena_ladder_open(&set, "", &err);
    check(l == NULL && err && strstr(err, "duel.ini"));
    if (err)
        tap_note("%s", err);
    free(err);
    arena_ladder_close(l);
}

/* A live match: listed with its .part and its bots while it plays. */
TEST(live_match_listed)
{
    char *err = NULL;
    set.live = 1;
    set.workers = 1;
    put("duel.ini", "[map]\nname = short\nwidth = 600\nheight = 400\nduration = 2\n\n"
        "[team.red]\n[team.blue]\n[tank.red]\nteam = red\nx = 100\ny = 200\n"
        "[tank.blue]\nteam = blue\nx = 500\ny = 200\n");
    put("results.jsonl", "");
    L = arena_ladder_open(&set, "", &err);
    if (!check(L != NULL))
        return;
    arena_ladder_poll(L);
    struct arena_live live[2];
    int n = arena_ladder_live(L, live, 2);
    check_int(n, ==, 1);
    char part[1100];
    snprintf(part, sizeof part, "%s/matches/%ld.part", dir, L->next_id - 2);
    check(n == 1 && !strcmp(live[0].path, part) && strchr(live[0].bots[0], '/'));
    play_until(1);
    check_int(arena_ladder_live(L, live, 2), <=, 1);
    arena_ladder_close(L);
}

/* ---- the bench ---------------------------------------------------------- */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void bench(void)
{
    folder();
    char rel[128], *err = NULL;
    for (int p = 0; p < 100; p++) {
        snprintf(rel, sizeof rel, "bots/p%d", p);
        mk(rel);
        for (int b = 0; b < 10; b++) {
            snprintf(rel, sizeof rel, "bots/p%d/b%d.lua", p, b);
            put(rel, "function tick(me, world, mem, out) end\n");
        }
    }
    set.workers = 1;
    L = arena_ladder_open(&set, "", &err);      /* the scripts' version */
    if (!L)
        exit(1);
    char sha[LADDER_SHA];
    snprintf(sha, sizeof sha, "%s", L->bots[0].sha);
    arena_ladder_close(L);
    FILE *f = fopen(strcat(strcpy((char[1024]){ 0 }, dir), "/results.jsonl"), "w");
    srand(1);
    for (long id = 1; id <= 100000; id++) {
        int a = rand() % 1000, b = (a + 1 + rand() % 999) % 1000;
        fprintf(f, "{\"id\":%ld,\"map\":\"duel.ini\",\"seed\":%ld,\"rounds\":1,"
                "\"bots\":[\"p%d/b%d\",\"p%d/b%d\"],\"versions\":[\"%s\",\"%s\"],"
                "\"winner\":%d,\"scores\":[0,0]}\n", id, (id + 1) / 2, a / 10, a % 10,
                b / 10, b % 10, sha, sha, rand() % 2);
    }
    fclose(f);
    double t0 = now();
    L = arena_ladder_open(&set, "", &err);
    double t1 = now();
    if (!L)
        exit(1);
    settle();
    double t2 = now();
    int started = ladder_fit_start(L);      /* as a finished match does */
    double t3 = now();
    char *t = arena_ladder_table(L, 0), *m = arena_ladder_matches(L, 50);
    double t4 = now();
    settle();
    double t5 = now();
    check(t && m && started == 0 && L->bots[0].rated);
    tap_note("1,000 bots, 100,000 results: open %.3f s, its fit %.3f s; after a result: "
             "the refit started in %.3f s, ladder + matches answered in %.3f s meanwhile, "
             "the refit and ladder.json done in %.3f s", t1 - t0, t2 - t1, t3 - t2, t4 - t3,
             t5 - t3);
    free(t), free(m), free(err);
    arena_ladder_close(L);
}

int main(void)
{
    if (getenv("ARENA_BENCH")) {
        bench();
        return tap_done();
    }
    folder();
    run(opens_and_cleans, "open: five good bots, bad names ignored, a .part deleted");
    run(pairs_swapped_on_one_seed, "matches come in sides-swapped pairs on one seed");
    run(results_and_recordings, "a result line and a recording per match; none failed");
    run(strong_bot_leads, "the hunter is rated above the idle bot");
    run(hostile_bots_logged_privately, "loops, bombs and errors are the bot's, in its log");
    run(fetch_keeps_my_scripts_only, "a fetched match holds my scripts only");
    run(new_bot_plays_soon, "a new bot plays in the next pair");
    run(restart_same_ladder, "a restart reads the same results and writes the same ladder");
    run(bad_map_said_at_open, "a map no match could play (one team): said at open");
    run(live_match_listed, "a live match is listed with its recording and bots");
    return tap_done();
}
