/* fuzz-bot.c — libFuzzer target for the bot layer: arbitrary bytes loaded
 * as a script (budget 20,000 instructions, 256 KiB of heap), then init
 * and three ticks against the fixed fake view of tests/lib/bot-fixture.c,
 * mem saved and loaded into a second state, and a reload.  Whatever the
 * script does must end as a clean error, never a crash, a leak, a hang
 * or undefined behaviour.
 *
 * Built only by ./configure --enable-fuzz CC=clang (make fuzz-bot). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/bot-fixture.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct fixture fx;
    static struct bot_report rep;
    struct bot_out out;
    char err[256];
    struct bot_script s;
    if (bot_script_from_bytes("fuzz.lua", data, size, &s, err, sizeof err))
        return 0;
    struct bot_limits lim = { 20000, 256 * 1024 };
    struct bot *b = bot_new(&s, lim, err, sizeof err);
    if (b) {
        fixture_init(&fx, 1);
        bot_init(b, &fx.view, err, sizeof err);
        for (int i = 0; i < 3; i++)
            bot_tick(b, &fx.view, &out, &rep);
        unsigned char *m = NULL;
        size_t ml = 0;
        if (bot_mem_save(b, &m, &ml, err, sizeof err) == 0) {
            struct bot *b2 = bot_new(&s, lim, err, sizeof err);
            if (b2) {
                bot_mem_load(b2, m, ml);
                bot_tick(b2, &fx.view, &out, &rep);
                bot_free(b2);
            }
            free(m);
        }
        bot_reload(b, &s, err, sizeof err);
        bot_tick(b, &fx.view, &out, &rep);
        bot_free(b);
    }
    bot_script_free(&s);
    return 0;
}
