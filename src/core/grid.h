/* grid.h — uniform grids over the map.
 *
 * The tree grid is static: every tree is listed in every cell its circle
 * overlaps (each cell of its bounding box tested against the circle; the
 * border cells reach out past the map's edge), in compressed rows
 * (start[cell] .. start[cell+1] index items[]).
 * The vehicle grid is rebuilt every tick by a counting sort, so the
 * vehicles of a cell are contiguous, in cell order, with a compact copy of
 * what neighbour queries read. */
#ifndef BOTFIELD_GRID_H
#define BOTFIELD_GRID_H

#include <stddef.h>

#include "vec.h"

/* A tree: a circle on the map (the tree grid indexes them). */
struct tree { vec2 c; double r; };


/* Above this many cells a grid uses bigger cells than asked, so a huge
 * sparse map cannot exhaust memory. */
#define GRID_MAX_CELLS (1 << 22)
/* The tree grid lists a tree in every cell it overlaps: past this many
 * listings in all (a bound taken from each tree's bounding box of cells),
 * it doubles its cell until they fit.  Its memory is then at most
 * 4 bytes x (2 x cells + entries + 5) <= 4 x (2 x 2^22 + 2^24 + 5) bytes,
 * about 96 MiB (the count's scratch included), and building it takes
 * time linear in that; it always fits, since with the whole map one cell
 * each tree takes one entry (a map holds at most 10^6 entities). */
#define GRID_MAX_ENTRIES (1 << 24)

struct tree_grid {
    double cell;            /* side of a cell actually used */
    int nx, ny;
    int *start;             /* nx*ny + 1 */
    int *items;             /* tree indices, then GRID_ITEMS_PAD zeros */
};

/* items[] ends in this many zeros (tree 0), so a reader may load a few
 * past the end of a run unconditionally (sight's candidate gathering). */
#define GRID_ITEMS_PAD 8

/* 0, or -1 when memory ran out (or, called with more than
 * GRID_MAX_ENTRIES trees, they cannot fit). */
int tree_grid_build(struct tree_grid *g, const struct tree *trees, int n,
                    double width, double height, double cell);
void tree_grid_free(struct tree_grid *g);

/* floor(v / cell), clamped to [0, n): for the non-negative quotients it
 * keeps, truncation is floor and q >= n exactly when floor(q) >= n, so no
 * floor() (a libm call, or a long inline sequence, without SSE4.1). */
static inline int grid_cell_of(double v, double cell, int n)
{
    double q = v / cell;
    if (!(q >= 0)) return 0;            /* also NaN */
    if (q >= n) return n - 1;
    return (int)q;
}

/* Bounds on grid_cell_of(v, cell, n) without a division (inv = 1 / cell):
 * lo never above it, hi never below (v * inv is within a few ulps of
 * v / cell, and the nudge is wider), so a walk over lo..hi visits every
 * cell the exact range would, and now and then one more beside it. */
static inline int grid_cell_lo(double v, double inv, int n)
{
    double q = v * inv;
    return grid_cell_of(q - (q > 0 ? q : -q) * 0x1p-48 - 0x1p-48, 1, n);
}
static inline int grid_cell_hi(double v, double inv, int n)
{
    double q = v * inv;
    return grid_cell_of(q + (q > 0 ? q : -q) * 0x1p-48 + 0x1p-48, 1, n);
}

/* The cell walk of Amanatides & Woo ("A Fast Voxel Traversal Algorithm for
 * Ray Tracing", 1987), the method "How not to be seen" borrows to list the tiles
 * between two tanks.  Over a grid of nx x ny square cells of side `cell`
 * with its corner at the origin, calls fn(cx, cy, ctx) for each cell the
 * segment a-b passes through, in order from a, each once; fn returns
 * nonzero to stop.  The segment is first clipped to the grid (a ray leaving
 * the map stops at its edge; one wholly outside visits nothing); a
 * segment that only touches a cell at a border or corner may visit it.
 * Returns the number of cells visited. */
typedef int (*grid_walk_fn)(int cx, int cy, void *ctx);
int grid_walk(double cell, int nx, int ny, vec2 a, vec2 b,
              grid_walk_fn fn, void *ctx);
/* The same walk over the extended grid, whose border cells reach out to
 * infinity (the cells grid_cell_of() clamps to): nothing is clipped, a
 * segment outside the map visits the border cells beside it.  For searches
 * that must not lose what lies past the edge. */
int grid_walk_ext(double cell, int nx, int ny, vec2 a, vec2 b,
                  grid_walk_fn fn, void *ctx);
/* The walk row by row: for each row cy the segment crosses, widens
 * [lo[cy], hi[cy]] to the run of columns it visits there (the cells
 * grid_walk or, unclipped, grid_walk_ext visits, up to touching ones). */
void grid_walk_rows(double cell, int nx, int ny, vec2 a, vec2 b, int clip,
                    int *lo, int *hi);
/* The rows of a convex polygon in one pass, for the sight wedge: sets
 * [lo[r], hi[r]] for every row r in *r0..*r1 to the run of columns of the
 * extended grid the closed polygon v[0..n) (vertices in order around it,
 * either way; 1 <= n <= GRID_POLY_MAX) touches, the cells the walks of its
 * edges with grid_walk_rows and the rows filled between would give, give or
 * take a cell whose border lies within GRID_POLY_SLACK cells of it (rounding
 * must never lose a touched cell, so the runs err outward).  Rows are
 * clamped as grid_cell_of() does.  0, or -1 (nothing set) on a bad grid or
 * a vertex that is not finite. */
#define GRID_POLY_MAX 8
#define GRID_POLY_SLACK 1e-7
int grid_convex_rows(double cell, int nx, int ny, const vec2 *v, int n,
                     int *r0, int *r1, int *lo, int *hi);

/* Compact per-vehicle data the neighbour queries read, in cell order. */
struct vgrid_entry {
    vec2 pos, vel;
    double radius;
    int index;              /* vehicle index */
    int team : 31;          /* a tank's or turret's team, -1 for anything
                               sight never looks at: the sense phase picks
                               enemies without reading the vehicle */
    unsigned shares : 1;    /* runs predictive avoidance: takes half of
                               every gap (avoid_shares_gaps) */
};

struct vehicle_grid {
    double cell;
    double max_radius;      /* of the vehicles in it */
    double max_speed;       /* largest |speed| of the vehicles in it */
    int nx, ny;
    int *start;             /* nx*ny + 1 (and one spare) */
    struct vgrid_entry *items;
    int *cell_of;           /* the build's scratch: each entry's cell */
    int n;
    size_t cap, cell_cap, ncells_cap;
};

/* Rebuilds the grid from n entries (the tick's grid stage makes them, one
 * per live vehicle; entries.h says what they hold) over a width x height
 * map, with cells of at least min_cell.  max_radius and max_speed are the
 * entries' largest radius and |speed|, kept for the queries' bounds.
 * 0, or -1 when memory ran out. */
int vehicle_grid_build(struct vehicle_grid *g, const struct vgrid_entry *entries,
                       int n, double max_radius, double max_speed,
                       double width, double height, double min_cell);
void vehicle_grid_free(struct vehicle_grid *g);

/* The same build in three steps, for a caller that makes each entry as it
 * places it (the tick's grid stage: no array of entries in between):
 * begin for n entries; vehicle_grid_count(k, pos) for k = 0..n-1; sum;
 * vehicle_grid_put(k, entry) for the same k, the entry at the same pos.
 * begin: 0, or -1 when memory ran out. */
int vehicle_grid_begin(struct vehicle_grid *g, int n, double width, double height,
                       double min_cell);
void vehicle_grid_sum(struct vehicle_grid *g, int n, double max_radius, double max_speed);
/* The cell an entry at pos goes to (between begin and put). */
static inline int vehicle_grid_cell(const struct vehicle_grid *g, vec2 pos)
{
    return grid_cell_of(pos.y, g->cell, g->ny) * g->nx + grid_cell_of(pos.x, g->cell, g->nx);
}
/* Entry k counted in cell c (vehicle_grid_count without the position). */
static inline void vehicle_grid_count_cell(struct vehicle_grid *g, int k, int c)
{
    g->start[c + 2]++;
    g->cell_of[k] = c;
}
static inline void vehicle_grid_count(struct vehicle_grid *g, int k, vec2 pos)
{
    vehicle_grid_count_cell(g, k, vehicle_grid_cell(g, pos));
}
/* Where entry k goes in items (after sum; each k once, in order):
 * vehicle_grid_put without the entry, for a caller that writes it
 * later (the grid stage, grid_stage.c). */
static inline int vehicle_grid_slot(struct vehicle_grid *g, int k)
{
    return g->start[g->cell_of[k] + 1]++;
}
static inline void vehicle_grid_put(struct vehicle_grid *g, int k,
                                    const struct vgrid_entry *e)
{
    g->items[vehicle_grid_slot(g, k)] = *e;
}

/* Calls fn for every live vehicle whose centre may lie within `radius` of p
 * (a superset: the caller tests the distance). */
typedef void (*vgrid_fn)(const struct vgrid_entry *e, void *ctx);
void vehicle_grid_query(const struct vehicle_grid *g, vec2 p, double radius,
                        vgrid_fn fn, void *ctx);

#endif
