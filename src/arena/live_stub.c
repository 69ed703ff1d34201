/* live_stub.c — TEMPORARY stand-in for the ladder engine's
 * arena_ladder_live() (ladder_run.c), which says no match is live:
 * delete this file when the engine is merged. */
struct arena_ladder;
struct arena_live;

int arena_ladder_live(struct arena_ladder *l, struct arena_live *out, int max);

int arena_ladder_live(struct arena_ladder *l, struct arena_live *out, int max)
{
    (void)l, (void)out, (void)max;
    return 0;
}
