/* The uniform grids (src/core/grid.c): every tree is listed in exactly the
 * cells its circle overlaps; vehicle-grid queries return a superset of the
 * vehicles in range, each once. */
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "core/world.h"
#include "core/entries.h"

static int listed(const struct tree_grid *g, int cell, int tree)
{
    for (int k = g->start[cell]; k < g->start[cell + 1]; k++)
        if (g->items[k] == tree)
            return 1;
    return 0;
}

/* Independent oracle: the nearest point of the square to the centre. */
static int overlaps(const struct tree *t, double x0, double y0, double s)
{
    double nx = fmax(x0, fmin(t->c.x, x0 + s)), ny = fmax(y0, fmin(t->c.y, y0 + s));
    return (nx - t->c.x) * (nx - t->c.x) + (ny - t->c.y) * (ny - t->c.y) <= t->r * t->r;
}

TEST(trees_in_exactly_their_cells)
{
    struct rng r;
    rng_seed(&r, 3, 3);
    for (int scene = 0; scene < 20; scene++) {
        int n = 50;
        struct tree trees[50];
        double cell = rng_range(&r, 10, 60);
        for (int i = 0; i < n; i++) {
            trees[i].c = v2(rng_range(&r, -20, 520), rng_range(&r, -20, 420));
            trees[i].r = rng_range(&r, 1, 90);
        }
        /* Trees exactly on cell corners and borders too. */
        trees[0].c = v2(2 * cell, 3 * cell);
        trees[1].c = v2(cell, 50);
        struct tree_grid g;
        check_int(tree_grid_build(&g, trees, n, 500, 400, cell), ==, 0);
        int wrong = 0, diagonal = 0;
        for (int cy = 0; cy < g.ny; cy++)
            for (int cx = 0; cx < g.nx; cx++)
                for (int i = 0; i < n; i++) {
                    int want = overlaps(&trees[i], cx * g.cell, cy * g.cell, g.cell);
                    /* Trees poking out of the map land in the edge cells. */
                    if (!want && (cx == 0 || cy == 0 || cx == g.nx - 1 || cy == g.ny - 1))
                        continue;
                    if (listed(&g, cy * g.nx + cx, i) != want)
                        wrong++;
                    diagonal += want;
                }
        check_int(wrong, ==, 0);
        check_int(diagonal, >, n);
        tree_grid_free(&g);
    }
}

TEST(huge_map_grid_is_bounded)
{
    struct tree t = { { 500000, 500000 }, 10 };
    struct tree_grid g;
    check_int(tree_grid_build(&g, &t, 1, 1e6, 1e6, 1), ==, 0);
    check_num((double)g.nx * g.ny, <=, GRID_MAX_CELLS);
    int cell = grid_cell_of(500000, g.cell, g.ny) * g.nx + grid_cell_of(500000, g.cell, g.nx);
    check(listed(&g, cell, 0));
    tree_grid_free(&g);
}

struct seen { int count[400]; };
static void mark(const struct vgrid_entry *e, void *ctx)
{
    ((struct seen *)ctx)->count[e->index]++;
}

TEST(vehicle_query_superset)
{
    struct world w;
    world_init(&w, 1000, 800);
    struct vehicle_params p;
    world_default_params(&p, VK_TANK);
    struct rng r;
    rng_seed(&r, 5, 5);
    for (int i = 0; i < 400; i++) {
        char id[32];
        snprintf(id, sizeof id, "tank.%d", i);
        world_add_vehicle(&w, id, VK_TANK, -1, &p, v2(rng_range(&r, 0, 1000), rng_range(&r, 0, 800)), 0);
    }
    w.vehicles.p[7].alive = 0;
    check_int(world_finish(&w), ==, 0);
    /* the entries the tick's grid stage makes: the live vehicles */
    struct vgrid_entry *e = malloc(w.vehicles.n * sizeof *e);
    int ne = 0;
    double maxr = 0;
    for (size_t i = 0; i < w.vehicles.n; i++)
        if (w.vehicles.p[i].alive) {
            e[ne++] = vehicle_entry(&w.vehicles.p[i], (int)i);
            maxr = fmax(maxr, w.vehicles.p[i].p->radius);
        }
    check_int(vehicle_grid_build(&w.scratch.vgrid, e, ne, maxr, 0, w.width, w.height, 50), ==, 0);
    free(e);
    check_int(w.scratch.vgrid.n, ==, 399);
    int missing = 0, twice = 0, dead = 0;
    for (int q = 0; q < 100; q++) {
        vec2 c = v2(rng_range(&r, -50, 1050), rng_range(&r, -50, 850));
        double rad = rng_range(&r, 1, 200);
        struct seen s;
        memset(&s, 0, sizeof s);
        vehicle_grid_query(&w.scratch.vgrid, c, rad, mark, &s);
        for (int i = 0; i < 400; i++) {
            if (s.count[i] > 1) twice++;
            if (i == 7) { dead += s.count[i]; continue; }
            if (v2_dist(w.vehicles.p[i].pos, c) <= rad && s.count[i] != 1)
                missing++;
        }
    }
    check_int(missing, ==, 0);
    check_int(twice, ==, 0);
    check_int(dead, ==, 0);
    world_free(&w);
}

int main(void)
{
    run(trees_in_exactly_their_cells, "each tree is in exactly the cells its circle overlaps");
    run(huge_map_grid_is_bounded, "a million-unit map gets a bounded grid");
    run(vehicle_query_superset, "vehicle grid queries find every live vehicle in range, once");
    return tap_done();
}
