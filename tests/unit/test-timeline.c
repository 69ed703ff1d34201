/* test-timeline — the inputs of a run on their ticks (src/run/timeline.c):
 * one rule for every kind (a change at t drops every entry after t, an
 * input at t replaces the one already there), and the lookups the viewer
 * replays them by. */
#include "config.h"

#include <string.h>

#include "../lib/tap.h"
#include "run/timeline.h"

static struct player_input input(double turn)
{
    struct player_input in;
    memset(&in, 0, sizeof in);
    in.turn = turn;
    return in;
}

TEST(one_rule_for_every_kind)
{
    struct timeline t = { 0 };
    struct player_input a = input(1), b = input(-1), c = input(0.5);
    check_int(timeline_input(&t, 10, &a), ==, 0);
    check_int(timeline_tune(&t, 10, "team.red", "turn_rate", "1"), ==, 0);
    check_int(timeline_tune(&t, 20, "sight", "range", "50"), ==, 0);
    check_int(timeline_input(&t, 30, &b), ==, 0);
    check_int(t.n, ==, 4);
    /* an input in the past: the tuning and the input after it go */
    check_int(timeline_input(&t, 15, &c), ==, 0);
    check_int(t.n, ==, 3);
    check_int(t.p[2].tick, ==, 15);
    check(timeline_input_at(&t, 30) == NULL);
    /* a tuning in the past: the input after it goes too */
    check_int(timeline_tune(&t, 12, "team.red", "speed", "3"), ==, 0);
    check_int(t.n, ==, 3);
    check(timeline_input_at(&t, 15) == NULL);
    check_str(t.p[2].key, "speed");
    timeline_free(&t);
}

TEST(an_input_replaces_the_one_of_its_tick_and_tunings_stay)
{
    struct timeline t = { 0 };
    struct player_input a = input(1), b = input(-1);
    timeline_tune(&t, 5, "sight", "range", "40");
    timeline_input(&t, 5, &a);
    timeline_tune(&t, 5, "sight", "range", "45");
    timeline_input(&t, 5, &b);
    check_int(t.n, ==, 3);      /* two tunings, one input */
    const struct player_input *got = timeline_input_at(&t, 5);
    check(got != NULL);
    check_num(got ? got->turn : 0, ==, -1);
    check_str(t.p[0].value, "40");
    check_str(t.p[1].value, "45");
    check_int(t.p[2].kind, ==, TIMELINE_INPUT);
    timeline_free(&t);
}

TEST(upto_finds_the_entries_of_the_ticks_up_to_one)
{
    struct timeline t = { 0 };
    struct player_input a = input(1);
    for (long k = 0; k < 100; k += 10)
        timeline_input(&t, k, &a);
    check_int(timeline_upto(&t, -1), ==, 0);
    check_int(timeline_upto(&t, 0), ==, 1);
    check_int(timeline_upto(&t, 9), ==, 1);
    check_int(timeline_upto(&t, 10), ==, 2);
    check_int(timeline_upto(&t, 1000), ==, 10);
    check(timeline_input_at(&t, 40) != NULL);
    check(timeline_input_at(&t, 41) == NULL);
    timeline_clear(&t);
    check_int(t.n, ==, 0);
    check_int(timeline_upto(&t, 1000), ==, 0);
    timeline_free(&t);
}

int main(void)
{
    run(one_rule_for_every_kind, "a change at t drops every entry after t, of either kind");
    run(an_input_replaces_the_one_of_its_tick_and_tunings_stay,
        "an input replaces its tick's input; a tick's tunings all stay, in order");
    run(upto_finds_the_entries_of_the_ticks_up_to_one, "the lookups by tick");
    return tap_done();
}
