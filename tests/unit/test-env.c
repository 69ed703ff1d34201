/* test-env.c — libbotfield (botfield.h): B worlds stepped together give
 * each world's episode as one world alone does; observations are the
 * documented size and finite; rewards are the score's; bad input is a
 * clear error that steps nothing. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "botfield.h"
#include "../lib/tap.h"

/* AddressSanitizer and ThreadSanitizer reserve terabytes of address
 * space: no RLIMIT_AS under them */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define ASAN 1
#endif
#endif

#ifndef MAPS
#define MAPS "maps"
#endif

static const char *map_path(void)
{
    static char p[4096];
    const char *src = getenv("srcdir");
    snprintf(p, sizeof p, "%s/maps/learn.ini", src ? src : ".");
    return p;
}

static struct bf_env *open_env(int worlds, int auto_reset)
{
    struct bf_config c = { map_path(), NULL, worlds, -1, -1, NULL, auto_reset, NULL, 0 };
    struct bf_env *env = NULL;
    char err[2048];
    int rc = bf_open(&c, &env, err, sizeof err);
    if (rc)
        tap_note("bf_open: %s", err);
    return env;
}

/* A fixed, varied policy: a function of the tick, world and agent only. */
static void policy(float *act, int n, long t)
{
    for (int k = 0; k < n; k++) {
        float *a = act + k * BF_ACTIONS;
        a[0] = (float)sin(0.05 * (double)t + k);
        a[1] = (float)cos(0.03 * (double)t);
        a[2] = (float)sin(0.11 * (double)t);
        a[3] = (t / 7 + k) % 3 == 0 ? 1.0f : -1.0f;
        a[4] = 0;
    }
}

TEST(sizes)
{
    struct bf_env *env = open_env(3, 0);
    check(env != NULL);
    if (!env)
        return;
    check_int(bf_worlds(env), ==, 3);
    check_int(bf_agents(env), ==, 1);
    check_int(bf_obs_size(env), ==, BF_OWN + 4 * (BF_ENEMY + BF_SHELL) + 8);
    check_str(bf_agent_id(env, 0), "tank.agent");
    check(bf_agent_id(env, 1) == NULL);
    bf_close(env);
}

/* World k of a B-world env, reset with seed s, is the 1-world env reset
 * with seed s + k: the same observations and rewards each tick. */
TEST(worlds_alike)
{
    enum { B = 4, T = 300 };
    struct bf_env *many = open_env(B, 0), *one = open_env(1, 0);
    check(many && one);
    if (!many || !one)
        return;
    int O = bf_obs_size(many);
    float *om = calloc((size_t)B * O, sizeof *om), *o1 = calloc((size_t)O, sizeof *o1);
    float act[B * BF_ACTIONS], rm[B], r1[1];
    uint8_t dm[B], d1[1];
    check_int(bf_reset(many, -1, 100, om), ==, BF_OK);
    check_int(bf_reset(one, 0, 102, o1), ==, BF_OK);
    int same = !memcmp(om + 2 * O, o1, (size_t)O * sizeof *o1), steps = 0, finite = 1;
    for (long t = 0; t < T && same; t++) {
        policy(act, B, t);
        if (bf_step(many, act, om, rm, dm) || bf_step(one, act + 2 * BF_ACTIONS, o1, r1, d1))
            break;
        steps++;
        same = !memcmp(om + 2 * O, o1, (size_t)O * sizeof *o1) && rm[2] == r1[0]
            && dm[2] == d1[0];
        for (int k = 0; k < B * O; k++)
            finite &= isfinite(om[k]) && om[k] >= -1.0001f && om[k] <= 1.0001f;
        if (d1[0])
            break;
    }
    check(same);
    check(finite);
    check_int(steps, >, 50);
    free(om);
    free(o1);
    bf_close(many);
    bf_close(one);
}

/* The reward is the agent's score gained, and an episode ends. */
TEST(rewards_and_end)
{
    struct bf_env *env = open_env(1, 0);
    check(env != NULL);
    if (!env)
        return;
    float obs[256], act[BF_ACTIONS] = { 0, -1, 0, -1, 0 }, r;
    uint8_t d = 0;
    check_int(bf_reset(env, 0, 7, obs), ==, BF_OK);
    check_num(obs[0], ==, 1);       /* alive */
    double total = 0;
    long t = 0;
    /* held still, unarmed: the built-in tank knocks it out (its reward
     * stays 0: it scores nothing) */
    for (; t < 900 && !d; t++) {
        check_int(bf_step(env, act, obs, &r, &d), ==, BF_OK);
        total += r;
    }
    check(d & BF_TERMINATED);
    check_num(total, ==, 0);
    check_num(obs[0], ==, 0);       /* a wreck's observation: zeros */
    const char *team;
    long tick;
    check_int(bf_winner(env, 0, &team, &tick), ==, BF_OK);
    check_str(team, "bot");
    /* stepping the finished episode: an error, nothing stepped */
    check_int(bf_step(env, act, obs, &r, &d), ==, BF_E_DONE);
    check(strstr(bf_error(env), "reset") != NULL);
    long tick2;
    bf_winner(env, 0, NULL, &tick2);
    check_int(tick2, ==, tick);
    bf_close(env);
}

/* A policy that turns its gun to the nearest enemy seen and fires scores. */
TEST(aiming_scores)
{
    struct bf_env *env = open_env(8, 0);
    check(env != NULL);
    if (!env)
        return;
    int O = bf_obs_size(env);
    float *obs = calloc((size_t)8 * O, sizeof *obs), act[8 * BF_ACTIONS], r[8];
    uint8_t d[8] = { 0 };
    double total = 0;
    bf_reset(env, -1, 1, obs);
    int live = 8;
    for (long t = 0; t < 900 && live; t++) {
        for (int b = 0; b < 8; b++) {
            float *o = obs + b * O, *a = act + b * BF_ACTIONS;
            double s = o[BF_OWN] > 0 ? o[BF_OWN + 4] : 0;  /* sin(bearing - turret) */
            a[0] = 0;
            a[1] = -1;
            a[2] = (float)(s > 0.05 ? 1 : s < -0.05 ? -1 : s * 20);
            a[3] = o[BF_OWN] > 0 && o[BF_OWN + 3] > 0.99f ? 1 : -1;
            a[4] = 0;
        }
        if (bf_step(env, act, obs, r, d) == BF_E_DONE)
            break;
        live = 0;
        for (int b = 0; b < 8; b++) {
            total += r[b];
            live += !d[b];
        }
        if (live < 8)
            break;
    }
    check_num(total, >, 0);
    free(obs);
    bf_close(env);
}

TEST(bad_input)
{
    struct bf_config c = { map_path(), NULL, 0, -1, -1, NULL, 0, NULL, 0 };
    struct bf_env *env = (struct bf_env *)1;
    char err[2048];
    check_int(bf_open(&c, &env, err, sizeof err), ==, BF_E_ARG);
    check(env == NULL);
    check(strstr(err, "worlds = 0") != NULL);
    c.worlds = 1000000000;
    check_int(bf_open(&c, &env, err, sizeof err), ==, BF_E_ARG);
    c.worlds = 1;
    c.agents = "tank.nobody";
    check_int(bf_open(&c, &env, err, sizeof err), ==, BF_E_AGENT);
    check(strstr(err, "tank.nobody") != NULL);
    c.agents = NULL;
    c.map = "/nonexistent/map.ini";
    check_int(bf_open(&c, &env, err, sizeof err), ==, BF_E_MAP);
    check(strstr(err, "/nonexistent/map.ini") != NULL);
    c.map = map_path();
    c.rays = 65;
    check_int(bf_open(&c, &env, err, sizeof err), ==, BF_E_ARG);
    c.rays = -1;
    const char *bad_set[] = { "map.width=-5" };
    c.set = bad_set;
    c.nset = 1;
    check_int(bf_open(&c, &env, err, sizeof err), ==, BF_E_MAP);
    check(strstr(err, "width") != NULL);
    c.set = NULL;
    c.nset = 0;
    check_int(bf_open(&c, &env, err, sizeof err), ==, BF_OK);
    float obs[256], r = 0;
    uint8_t d = 0;
    bf_reset(env, 0, 3, obs);
    float nan_act[BF_ACTIONS] = { 0, 0, NAN, 0, 0 }, big[BF_ACTIONS] = { 0, 1.5f, 0, 0, 0 };
    check_int(bf_step(env, nan_act, obs, &r, &d), ==, BF_E_ACTION);
    check(strstr(bf_error(env), "action 2 (turret)") != NULL);
    check_int(bf_step(env, big, obs, &r, &d), ==, BF_E_ACTION);
    check(strstr(bf_error(env), "[-1, 1]") != NULL);
    check_int(bf_step(env, NULL, obs, &r, &d), ==, BF_E_ARG);
    check_int(bf_reset(env, 1, 0, obs), ==, BF_E_ARG);
    check_int(bf_record(env, 0, "/nonexistent/dir/x.rec"), ==, BF_E_RECORD);
    float zero[BF_ACTIONS] = { 0 };
    check_int(bf_step(env, zero, obs, &r, &d), ==, BF_OK);
    check_int(bf_record(env, 0, "x.rec"), ==, BF_E_STATE);
    bf_close(env);
}

/* auto_reset: a finished world starts its next episode at once. */
TEST(auto_reset)
{
    struct bf_env *env = open_env(1, 1);
    check(env != NULL);
    if (!env)
        return;
    float obs[256], act[BF_ACTIONS] = { 0, -1, 0, -1, 0 }, r;
    uint8_t d = 0;
    bf_reset(env, 0, 7, obs);
    long t = 0;
    for (; t < 2000 && !d; t++)
        check_int(bf_step(env, act, obs, &r, &d), ==, BF_OK);
    check(d != 0);
    check_num(obs[0], ==, 1);       /* the new episode's first observation */
    check_int(bf_step(env, act, obs, &r, &d), ==, BF_OK);
    bf_close(env);
}

/* team.NAME names its tanks without sections (the built-in map's random
 * ones) and those whose own section names a Lua bot: all are agents. */
TEST(team_agents)
{
    struct bf_config c = { NULL, "team.red", 2, -1, -1, NULL, 0, NULL, 0 };
    struct bf_env *env = NULL;
    char err[2048];
    check_int(bf_open(&c, &env, err, sizeof err), ==, BF_OK);
    if (!env) {
        tap_note("%s", err);
        return;
    }
    int A = bf_agents(env);
    check_int(A, >, 1);
    for (int a = 0; a < A; a++)
        check(strncmp(bf_agent_id(env, a), "tank.red", 8) == 0);
    bf_close(env);
    char p[4096];
    const char *src = getenv("srcdir");
    snprintf(p, sizeof p, "%s/maps/bots-duel.ini", src ? src : ".");
    c.map = p;
    c.worlds = 1;
    check_int(bf_open(&c, &env, err, sizeof err), ==, BF_OK);
    if (!env)
        return;
    check_int(bf_agents(env), ==, 1);
    check_str(bf_agent_id(env, 0), "tank.red");
    bf_close(env);
}

/* A world whose reset fails (its Lua bot's script gone from disk) has no
 * episode: stepping, recording and its winner say so, nothing crashes; a
 * reset once the script is back starts it again. */
TEST(failed_reset)
{
    char dir[] = "/tmp/test-env.XXXXXX", map[256], bot[256];
    if (!mkdtemp(dir)) {
        check(0);
        return;
    }
    snprintf(map, sizeof map, "%s/m.ini", dir);
    snprintf(bot, sizeof bot, "%s/b.lua", dir);
    FILE *f = fopen(map, "w");
    fputs("[map]\nwidth = 400\nheight = 300\n[team.a]\n[team.b]\n"
          "[tank.me]\nteam = a\nx = 50\ny = 150\n"
          "[tank.it]\nteam = b\nx = 350\ny = 150\nbot = b.lua\n", f);
    fclose(f);
    f = fopen(bot, "w");
    fputs("function tick(me, world, mem, out) out.speed = 10 end\n", f);
    fclose(f);
    struct bf_config c = { map, "tank.me", 2, -1, -1, NULL, 0, NULL, 0 };
    struct bf_env *env = NULL;
    char err[2048];
    check_int(bf_open(&c, &env, err, sizeof err), ==, BF_OK);
    if (!env) {
        tap_note("%s", err);
        return;
    }
    float obs[2 * 256], act[2 * BF_ACTIONS] = { 0 }, r[2];
    uint8_t d[2];
    unlink(bot);
    check_int(bf_reset(env, 1, 5, obs), ==, BF_E_MAP);
    check(strstr(bf_error(env), "b.lua") != NULL);
    check_int(bf_step(env, act, obs, r, d), ==, BF_E_STATE);
    check(strstr(bf_error(env), "world 1") != NULL);
    check_int(bf_record(env, 1, "/tmp/never-written.rec"), ==, BF_E_STATE);
    check_int(bf_winner(env, 1, NULL, NULL), ==, BF_E_STATE);
    f = fopen(bot, "w");
    fputs("function tick(me, world, mem, out) out.speed = 10 end\n", f);
    fclose(f);
    check_int(bf_reset(env, 1, 5, obs), ==, BF_OK);
    check_int(bf_step(env, act, obs, r, d), ==, BF_OK);
    bf_close(env);
    unlink(bot);
    unlink(map);
    rmdir(dir);
}

/* A match of rounds: a new round starts its scores at zero, and an agent's
 * reward is what it gained this step, never minus its last round's score
 * (weighted without damage, the one field a friendly hit lowers, every
 * reward is >= 0). */
TEST(rounds_rewards)
{
    char map[4096];
    const char *src = getenv("srcdir");
    snprintf(map, sizeof map, "%s/maps/bots-rounds.ini", src ? src : ".");
    static const double weights[4] = { 0, 20, 5, 10 };
    struct bf_config c = { map, "team.red", 1, -1, -1, weights, 0, NULL, 0 };
    struct bf_env *env = NULL;
    char err[2048];
    check_int(bf_open(&c, &env, err, sizeof err), ==, BF_OK);
    if (!env) {
        tap_note("%s", err);
        return;
    }
    int A = bf_agents(env), O = bf_obs_size(env);
    float act[16 * BF_ACTIONS], r[16], *obs = calloc((size_t)16 * O, sizeof *obs);
    uint8_t d[16] = { 0 };
    check_int(A, <=, 16);
    check_int(bf_reset(env, -1, 3, obs), ==, BF_OK);
    int negative = 0, positive = 0, rc = BF_OK, waiting = 0, early = 0, last_all = 0;
    long t;
    for (t = 0; t < 40000 && rc == BF_OK; t++) {
        policy(act, A, t);
        rc = bf_step(env, act, obs, r, d);
        int all = 1;
        for (int a = 0; rc == BF_OK && a < A; a++) {
            if (r[a] < 0)
                tap_note("tick %ld agent %d reward %g", t, a, (double)r[a]);
            negative += r[a] < 0;
            positive += r[a] > 0;
            waiting += obs[a * O] == 0 && !d[a];    /* out, the match goes on */
            all &= (d[a] & BF_TERMINATED) != 0;
        }
        for (int a = 0; rc == BF_OK && !all && a < A; a++)
            early += d[a] != 0;
        if (rc == BF_OK)
            last_all = all;
    }
    check_int(rc, ==, BF_E_DONE);
    check_int(negative, ==, 0);
    check_int(positive, >, 0);
    /* a knocked-out agent plays the next round: done with the match only */
    check_int(waiting, >, 0);
    check_int(early, ==, 0);
    check(last_all);
    free(obs);
    bf_close(env);
}

/* Out of memory while opening many worlds: BF_E_NOMEM, never a crash (a
 * child under a 256 MB address space opens the most worlds of the
 * built-in map; it ran out building a world's bots and crashed freeing
 * them half built). */
TEST(out_of_memory)
{
    pid_t pid = fork();
    check(pid >= 0);
    if (pid == 0) {
        struct rlimit lim = { 256u << 20, 256u << 20 };
        setrlimit(RLIMIT_AS, &lim);
        struct bf_config c = { NULL, "team.red", BF_MAX_WORLDS, -1, -1, NULL, 0, NULL, 0 };
        struct bf_env *env = NULL;
        int rc = bf_open(&c, &env, NULL, 0);
        bf_close(env);
        _exit(-rc);
    }
    int status = 0;
    check_int(waitpid(pid, &status, 0), ==, pid);
    if (WIFSIGNALED(status))
        tap_note("the child died of signal %d", WTERMSIG(status));
    check(WIFEXITED(status));
    check_int(WIFEXITED(status) ? WEXITSTATUS(status) : -1, ==, -BF_E_NOMEM);
}

/* Weights a float reward cannot hold are refused: 1e308 scored +inf with
 * no error (a reward is a float: its weights are at most 1e30 in size). */
TEST(weights)
{
    double nan4[4] = { 10, NAN, 5, 10 }, huge[4] = { 10, 20, -1e308, 10 }, big[4] = { 1e30, -1e30, 0, 0 };
    struct bf_config c = { map_path(), NULL, 1, -1, -1, nan4, 0, NULL, 0 };
    struct bf_env *env = NULL;
    char err[2048];
    check_int(bf_open(&c, &env, err, sizeof err), ==, BF_E_ARG);
    check(strstr(err, "weights[1]") != NULL);
    c.weights = huge;
    check_int(bf_open(&c, &env, err, sizeof err), ==, BF_E_ARG);
    check(strstr(err, "weights[2]") != NULL);
    check(env == NULL);
    bf_close(env);
    c.weights = big;
    check_int(bf_open(&c, &env, err, sizeof err), ==, BF_OK);
    bf_close(env);
}

/* The last line of file, into line (n bytes). */
static void last_line(const char *file, char *line, size_t n)
{
    FILE *f = fopen(file, "r");
    char buf[8192];
    line[0] = 0;
    while (f && fgets(buf, sizeof buf, f))
        snprintf(line, n, "%s", buf);
    if (f)
        fclose(f);
}

/* A traced episode cut short (bf_reset, bf_close) ends its trace as the
 * replay of its recording does: with the summary line (it had none). */
TEST(trace_cut_short)
{
    char tr[] = "/tmp/test-env-trace-XXXXXX", line[8192];
    int fd = mkstemp(tr);
    check(fd >= 0);
    close(fd);
    for (int how = 0; how < 2; how++) {
        struct bf_env *env = open_env(1, 0);
        check(env != NULL);
        if (!env)
            return;
        float act[BF_ACTIONS] = { 0.2f, 1, 0, 1, 0 };
        check_int(bf_reset(env, 0, 3, NULL), ==, BF_OK);
        check_int(bf_trace(env, 0, tr), ==, BF_OK);
        for (int t = 0; t < 20; t++)
            check_int(bf_step(env, act, NULL, NULL, NULL), ==, BF_OK);
        if (how == 0)
            check_int(bf_reset(env, 0, 4, NULL), ==, BF_OK);
        bf_close(env);
        last_line(tr, line, sizeof line);
        check(!strncmp(line, "{\"type\":\"summary\",\"ticks\":20,", 29));
        if (strncmp(line, "{\"type\":\"summary\"", 17))
            tap_note("%s: the last line: %.80s", how ? "bf_close" : "bf_reset", line);
    }
    unlink(tr);
}

/* A recording that cannot be written: the library prints nothing (a
 * library writes on no terminal) and its error says why.  /dev/full
 * takes the header and fails at a flush: the failure comes at a step. */
TEST(record_errors_said_not_printed)
{
    struct bf_env *env = open_env(1, 0);
    if (!env) {
        check(env != NULL);
        return;
    }
    char path[] = "/tmp/botfield-env-stderr-XXXXXX";
    int fd = mkstemp(path), saved = dup(2);
    fflush(stderr);
    dup2(fd, 2);
    float obs[256], r = 0, act[BF_ACTIONS] = { 0, 1, 0, 1, 0 };
    uint8_t d = 0;
    bf_reset(env, 0, 3, obs);
    int open_rc = bf_record(env, 0, "/nonexistent/dir/x.rec");
    char open_err[1024];
    snprintf(open_err, sizeof open_err, "%s", bf_error(env));
    int step_rc = BF_OK, trace_rc = bf_trace(env, 0, "/dev/full");
    for (int t = 0; t < 2000 && step_rc == BF_OK; t++)
        step_rc = bf_step(env, act, obs, &r, &d);
    char step_err[1024];
    snprintf(step_err, sizeof step_err, "%s", bf_error(env));
    bf_close(env);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    off_t printed = lseek(fd, 0, SEEK_END);
    close(fd);
    unlink(path);
    check_int(open_rc, ==, BF_E_RECORD);
    check(strstr(open_err, "No such file or directory") != NULL);
    check_int(trace_rc, ==, BF_OK);
    check_int(step_rc, ==, BF_E_RECORD);
    check(strstr(step_err, "No space left on device") != NULL);
    check_int(printed, ==, 0);
    tap_note("%s / %s", open_err, step_err);
}

int main(void)
{
    run(sizes, "the sizes: worlds, agents, the observation's floats, agent ids");
    run(worlds_alike, "world k of B is the one-world env of seed + k, tick by tick");
    run(rewards_and_end, "an unarmed still agent is knocked out: reward 0, done, then BF_E_DONE");
    run(aiming_scores, "turning the gun to the enemy seen and firing scores");
    run(bad_input, "bad worlds, agents, map, rays, --set, actions, record: clear errors");
    run(auto_reset, "auto_reset: the next episode's first observation");
    run(failed_reset, "a reset that fails leaves a world without an episode: BF_E_STATE, no crash");
    run(team_agents, "team.NAME: its random tanks, and a tank whose section names a bot");
    run(rounds_rewards, "a match of rounds: a new round's first reward is not minus the last round's score; an agent knocked out in a round is done only with the match");
    run(trace_cut_short, "a traced episode cut short by a reset or close: its trace ends with the summary");
    run(record_errors_said_not_printed, "a file that cannot be written: said in bf_error, nothing printed");
    run(weights, "weights: NaN or beyond a float's reach (1e308) refused");
#ifdef ASAN
    tap_skip("out of memory opening many worlds: BF_E_NOMEM, no crash",
             "a sanitizer build: its runtime cannot run under an address-space limit");
#else
    run(out_of_memory, "out of memory opening many worlds: BF_E_NOMEM, no crash");
#endif
    return tap_done();
}
