/* test-grid-par.c — the vehicle grid built in blocks on threads
 * (grid_stage.c) is the one block's grid, entry for entry: two worlds of a 3,000-tank battle
 * step side by side, one on one thread and one on two, and after every
 * tick their grids (of the tick's end) are compared field by field, wrecks
 * left out the same way. */
#include "config.h"

#include <string.h>

#include "../lib/tap.h"
#include "../lib/map-fixture.h"
#include "core/par.h"
#include "core/tick.h"
#include "core/world.h"
#include "io/map.h"

static const char battle[] =
    "[map]\nname = grid\nwidth = 6000\nheight = 6000\nseed = 7\n"
    "[team.a]\nrandom = 1500\n[team.b]\nrandom = 1500\n";

static int load(struct world *w, int threads)
{
    if (fixture_load_text("grid", battle, w))
        return -1;
    w->threads = threads;
    return 0;
}

/* The number of entries that differ (or -1 when the shapes do). */
static long grid_diff(const struct vehicle_grid *a, const struct vehicle_grid *b)
{
    if (a->n != b->n || a->nx != b->nx || a->ny != b->ny || a->cell != b->cell
        || a->max_radius != b->max_radius || a->max_speed != b->max_speed)
        return -1;
    long d = 0;
    for (size_t c = 0; c <= (size_t)a->nx * a->ny; c++)
        d += a->start[c] != b->start[c];
    for (int k = 0; k < a->n; k++) {
        const struct vgrid_entry *x = &a->items[k], *y = &b->items[k];
        d += x->index != y->index || x->pos.x != y->pos.x || x->pos.y != y->pos.y
           || x->vel.x != y->vel.x || x->vel.y != y->vel.y || x->radius != y->radius
           || x->team != y->team || x->shares != y->shares;
    }
    return d;
}

TEST(same_grid)
{
    struct world one, two;
    if (load(&one, 1)) {
        check(!"the battle loads");
        return;
    }
    if (load(&two, 2)) {
        check(!"the battle loads");
        world_free(&one);
        return;
    }
    long differ = 0;
    int wrecks = 0;
    for (int t = 0; t < 40; t++) {
        check_int(tick_step(&one), ==, 0);
        check_int(tick_step(&two), ==, 0);
        long d = grid_diff(&one.scratch.vgrid, &two.scratch.vgrid);
        if (d != 0) {
            tap_note("tick %d: %ld differences", t + 1, d);
            differ++;
        }
        wrecks |= one.scratch.vgrid.n < (int)one.vehicles.n;
    }
    check_int(differ, ==, 0);
    check(wrecks);              /* the wrecks were left out too */
    check_int(par_threads(&two), ==, 2);    /* still built on threads */
    world_free(&one);
    world_free(&two);
}

int main(void)
{
    run(same_grid, "the grid built on two threads is the one-thread grid, entry for entry");
    return tap_done();
}
