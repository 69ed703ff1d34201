/* bot-fixture.h — a fixed fake view and trivial fake built-ins for the bot
 * tests, the bot fuzz target and the bot benchmark. */
#ifndef BOTFIELD_BOT_FIXTURE_H
#define BOTFIELD_BOT_FIXTURE_H

#include "bot/bot.h"

struct fixture {
    struct bot_view view;
    struct bot_enemy enemies[3];
    struct bot_ally allies[2];
    struct bot_waypoint waypoints[4];
    struct bot_event events[2];
    struct rng rng;
    int calls;              /* callbacks made */
};

/* The view of tank.1 at (100, 200) heading 90 deg at speed 10, three
 * enemies, two allies, four waypoints, two events, rng seeded with seed. */
void fixture_init(struct fixture *f, unsigned long long seed);
extern const struct bot_calls fixture_calls;

/* A bot from a Lua text (path "test.lua"), default limits unless given;
 * NULL with err filled. */
struct bot *fixture_bot(const char *lua, long budget, size_t memory, char *err, size_t n);

#endif
