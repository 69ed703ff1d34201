/* env-episode MAP SEED RECORDING TRACE [AGENTS] — one episode of MAP
 * through libbotfield with a fixed policy (a function of the tick only),
 * recorded and traced: tests/cli/env-replay.sh replays the recording with
 * `botfield --headless --replay` and compares the traces byte for byte.
 * Prints "ticks N winner TEAM"; exit 0, or 1 with the library's error. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "botfield.h"

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: env-episode MAP SEED RECORDING TRACE [AGENTS]\n");
        return 2;
    }
    struct bf_config c = { argv[1], argc > 5 ? argv[5] : NULL, 1, -1, -1, NULL, 0, NULL, 0 };
    struct bf_env *env;
    char err[4096];
    if (bf_open(&c, &env, err, sizeof err)) {
        fprintf(stderr, "env-episode: %s\n", err);
        return 1;
    }
    int A = bf_agents(env), O = bf_obs_size(env);
    float *obs = calloc((size_t)A * O, sizeof *obs), *act = calloc((size_t)A * BF_ACTIONS, 4);
    float *rew = calloc((size_t)A, sizeof *rew);
    uint8_t *done = calloc((size_t)A, 1);
    if (bf_reset(env, 0, strtoull(argv[2], NULL, 10), obs) || bf_record(env, 0, argv[3])
        || bf_trace(env, 0, argv[4])) {
        fprintf(stderr, "env-episode: %s\n", bf_error(env));
        return 1;
    }
    long t = 0;
    for (int over = 0; !over; t++) {
        for (int a = 0; a < A; a++) {
            float *x = act + a * BF_ACTIONS;
            x[0] = (float)sin(0.021 * (double)t + a);
            x[1] = (float)cos(0.013 * (double)t);
            x[2] = (float)sin(0.07 * (double)t + 1);
            x[3] = (t + a) % 40 < 3 ? 1.0f : -1.0f;
            x[4] = (float)sin(0.05 * (double)t);
        }
        if (bf_step(env, act, obs, rew, done)) {
            fprintf(stderr, "env-episode: %s\n", bf_error(env));
            return 1;
        }
        over = 1;
        for (int a = 0; a < A; a++)
            over &= done[a] != 0;
        for (int a = 0; a < A && !over; a++)
            over = (done[a] & BF_TRUNCATED) != 0;
    }
    const char *team;
    long tick;
    bf_winner(env, 0, &team, &tick);
    printf("ticks %ld winner %s\n", tick, *team ? team : "none");
    bf_close(env);
    free(obs);
    free(act);
    free(rew);
    free(done);
    return 0;
}
