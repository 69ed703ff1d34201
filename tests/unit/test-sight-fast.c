/* test-sight-fast.c — sight's fast paths agree with the plain ones
 * (issue 18): the cone polygon the sense phase asks the vehicle grid with
 * holds every point the range and cone tests accept, edges included, and
 * the sense phase through the grid finds the same records as over all
 * pairs for narrow, wide and degenerate cones; the edge rule, its acos
 * skipped for targets plainly inside, is the one the full angle gives. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "core/world.h"
#include "core/grid.h"
#include "core/tick.h"
#include "core/sight/sight_impl.h"

#define TEST_RNG_SEED 0x2545f4914f6cdd1du
#include "../lib/scene-rng.h"

/* The sense phase's own tests (sight.c, collect_one): in range, and within
 * the cone by the direction of the centre. */
static int accepted(vec2 o, vec2 h, double half, double range, vec2 p)
{
    vec2 d = v2_sub(p, o);
    double d2 = v2_len2(d), k = cos(half);
    if (!(d2 <= range * range))
        return 0;
    if (d2 == 0)
        return 1;
    double dot = v2_dot(h, d);
    return k >= 0 ? dot >= 0 && dot * dot >= d2 * k * k
                  : dot >= 0 || dot * dot <= d2 * k * k;
}

/* Half-angles the cone can have, the awkward ones often. */
static double some_half(void)
{
    static const double special[] = { 0, 1e-12, 1e-7, M_PI / 8, M_PI / 2 - 1e-12,
                                      M_PI / 12, M_PI / 6 };
    int i = (int)(rnd() * 10);
    return i < 7 ? special[i] : rr(0, M_PI / 2 - 1e-12);
}

TEST(cone_polygon_holds_accepted_points)
{
    enum { NX = 60, NY = 50 };
    int lo[NY], hi[NY];
    long tried = 0, on_edge = 0, lost = 0, refused = 0;
    for (int q = 0; q < 4000; q++) {
        double cell = q % 2 ? 100 : 7.5;
        vec2 o = v2(rr(-50, NX * cell + 50), rr(-50, NY * cell + 50));
        double a = rr(-M_PI, M_PI), half = some_half(), range = rr(0, 30 * cell);
        vec2 h = v2_dir(a);
        vec2 poly[GRID_POLY_MAX];
        int n = sight_cone_poly(o, h, cos(half), range, poly);
        int r0, r1;
        if (n < 1 || n > GRID_POLY_MAX
            || grid_convex_rows(cell, NX, NY, poly, n, &r0, &r1, lo, hi)) {
            refused++;
            continue;
        }
        for (int k = 0; k < 200; k++) {
            vec2 p;
            if (k < 100) {
                /* On an edge of the cone or its arc, where rounding decides. */
                double s = k & 1 ? half : -half, t = k < 50 ? rr(0, 1) : 1;
                p = v2_add(o, v2_scale(v2_dir(a + (k < 75 ? s : rr(-half, half))), t * range));
            } else {
                p = v2(rr(o.x - range, o.x + range), rr(o.y - range, o.y + range));
            }
            if (!accepted(o, h, half, range, p))
                continue;
            tried++;
            on_edge += k < 100;
            int cx = grid_cell_of(p.x, cell, NX), cy = grid_cell_of(p.y, cell, NY);
            lost += cy < r0 || cy > r1 || cx < lo[cy] || cx > hi[cy];
        }
    }
    check_int(refused, ==, 0);
    check_int(lost, ==, 0);
    check_int(on_edge, >, 100000);
    check_int(tried, >, 200000);
    tap_note("%ld accepted points (%ld on the cone's edges), none outside its cells",
             tried, on_edge);
}

TEST(cone_polygon_refuses_wider_than_half_plane)
{
    vec2 poly[GRID_POLY_MAX];
    check_int(sight_cone_poly(v2(0, 0), v2(1, 0), 0, 800, poly), ==, 0);
    check_int(sight_cone_poly(v2(0, 0), v2(1, 0), cos(2), 800, poly), ==, 0);
    check_int(sight_cone_poly(v2(0, 0), v2(1, 0), -1, 800, poly), ==, 0);
    check_int(sight_cone_poly(v2(0, 0), v2(0, 0), 0.3, 800, poly), ==, 0);
    check_int(sight_cone_poly(v2(0, 0), v2(1, 0), NAN, 800, poly), ==, 0);
    int n = sight_cone_poly(v2(0, 0), v2(1, 0), cos(M_PI / 2 - 1e-9), 800, poly);
    check(n >= 3 && n <= GRID_POLY_MAX);
    n = sight_cone_poly(v2(0, 0), v2(1, 0), 1, 800, poly);
    check(n >= 3 && n <= GRID_POLY_MAX);
}

static int add_tank(struct world *w, int team, vec2 p, double heading,
                    double fov, double range)
{
    char id[32];
    snprintf(id, sizeof id, "tank.%zu", w->vehicles.n);
    struct vehicle_params vp;
    world_default_params(&vp, VK_TANK);
    vp.drive = DRIVE_HOLD;
    vp.speed = 0;
    vp.fov = fov;
    vp.view_range = range;
    return world_add_vehicle(w, id, VK_TANK, team, &vp, p, heading);
}

/* Observers with every kind of cone, and enemies put on their cones'
 * edges and arcs: through the grid the same records as over all pairs. */
TEST(sense_cone_grid_vs_all_pairs)
{
    static const double fovs[] = { 0, 2e-12, 2e-7, M_PI / 4, M_PI - 1e-9, M_PI,
                                   M_PI + 1e-9, 3, 2 * M_PI };
    struct world w;
    world_init(&w, 3000, 3000);
    int red = world_add_team(&w, "red", 0), blue = world_add_team(&w, "blue", 1);
    for (int i = 0; i < 300; i++) {
        double fov = i % 3 ? fovs[i % 9] : rr(0, 2 * M_PI), a = rr(-M_PI, M_PI);
        double range = rr(50, 900);
        vec2 o = v2(rr(0, 3000), rr(0, 3000));
        add_tank(&w, red, o, a, fov, range);
        /* Two enemies on the edges, one on the arc, one anywhere. */
        for (int k = 0; k < 4; k++) {
            double s = k == 0 ? fov / 2 : k == 1 ? -fov / 2 : rr(-fov / 2, fov / 2);
            double t = k == 2 ? range : rr(0, range);
            vec2 p = k == 3 ? v2(rr(0, 3000), rr(0, 3000))
                            : v2_add(o, v2_scale(v2_dir(a + s), t));
            add_tank(&w, blue, p, rr(-M_PI, M_PI), fovs[k], range);
        }
    }
    check_int(world_finish(&w), ==, 0);
    /* Without a grid: all pairs. */
    sight_update(&w);
    size_t n = w.now.sights.n;
    struct sight_record *all = malloc(n * sizeof *all);
    memcpy(all, w.now.sights.p, n * sizeof *all);
    world_moved(&w);
    w.now.events.n = 0;
    sight_update(&w);
    check_int(w.now.sights.n, ==, (long long)n);
    int same = w.now.sights.n == n;
    for (size_t i = 0; same && i < n; i++)
        same = all[i].observer == w.now.sights.p[i].observer
            && all[i].target == w.now.sights.p[i].target
            && memcmp(&all[i].visible, &w.now.sights.p[i].visible, sizeof all[i].visible) == 0;
    check(same);
    check_int(n, >, 500);
    tap_note("%zu records either way", n);
    free(all);
    world_free(&w);
}

/* The edge rule with its acos skipped for targets plainly inside the edge
 * angle: every record's rule is the one the full angle gives, targets put
 * a hair either side of the edge angle, for several edge settings. */
TEST(sense_edge_rule_as_by_acos)
{
    static const double edges[] = { 0.75, 0, 1, 0.3, 2.5, -0.5 };
    long records = 0, wrong = 0, edge = 0, plain = 0;
    for (size_t e = 0; e < sizeof edges / sizeof *edges; e++) {
        struct world w;
        world_init(&w, 4000, 4000);
        w.sight.edge = edges[e];
        int red = world_add_team(&w, "red", 0), blue = world_add_team(&w, "blue", 1);
        for (int i = 0; i < 60; i++) {
            double fov = i % 4 ? rr(1e-3, 2 * M_PI) : deg2rad(45), a = rr(-M_PI, M_PI);
            vec2 o = v2(rr(500, 3500), rr(500, 3500));
            add_tank(&w, red, o, a, fov, 800);
            for (int k = 0; k < 6; k++) {
                double t = edges[e] * fov / 2, s = k & 1 ? 1 : -1;
                double off = k < 4 ? t * (1 + s * 1e-15 * (k / 2 + 1)) + s * 1e-15 : rr(0, fov / 2);
                add_tank(&w, blue, v2_add(o, v2_scale(v2_dir(a + (k & 2 ? off : -off)), rr(50, 700))),
                         0, fov, 800);
            }
        }
        check_int(world_finish(&w), ==, 0);
        world_moved(&w);
        sight_update(&w);
        for (size_t k = 0; k < w.now.sights.n; k++) {
            const struct sight_record *r = &w.now.sights.p[k];
            const struct vehicle *v = &w.vehicles.p[r->observer], *t = &w.vehicles.p[r->target];
            vec2 d = v2_sub(t->pos, v->pos);
            double dl = v2_len(d), half = v->p->fov / 2, off = 0;
            if (dl > 0)
                off = acos(clampd(v2_dot(v->dir, d) / dl, -1, 1));
            if (off > half)
                off = half;
            enum sight_rule want = sight_rule_for(&w.sight, v->p->fov, off, t->speed > 0);
            wrong += r->rule != want;
            edge += want == SIGHT_RULE_EDGE;
            plain += want != SIGHT_RULE_EDGE;
            records++;
        }
        world_free(&w);
    }
    check_int(wrong, ==, 0);
    check_int(edge, >, 200);
    check_int(plain, >, 200);
    tap_note("%ld records, %ld by the edge rule, none other than the full angle gives",
             records, edge);
}

/* A record keeps no angles: sight_record_angles() takes them again from
 * the record, and they are sight_query()'s doubles bit for bit, as are
 * the visible fraction and the hidden parts; without trees the sense
 * phase answers 1 without a frame, as the query does.  Tanks and turrets,
 * both methods, observers on or beside their targets. */
TEST(sense_record_angles_as_query)
{
    long records = 0, differ = 0, hidden = 0, on_top = 0;
    for (int forest = 0; forest < 2; forest++) {
        struct world w;
        world_init(&w, 1500, 1500);
        int red = world_add_team(&w, "red", 0), blue = world_add_team(&w, "blue", 1);
        for (int i = 0; forest && i < 150; i++)
            world_add_tree(&w, v2(rr(0, 1500), rr(0, 1500)), rr(10, 30));
        for (int i = 0; i < 120; i++) {
            struct vehicle_params vp;
            enum vehicle_kind kind = i % 3 ? VK_TANK : VK_TURRET;
            world_default_params(&vp, kind);
            vp.drive = DRIVE_HOLD;
            vp.speed = 0;
            vp.fov = 2 * M_PI;
            vp.view_range = 600;
            vp.sight = i % 2 ? SIGHT_EXACT : SIGHT_CLASSIC;
            char id[32];
            snprintf(id, sizeof id, "v.%d", i);
            /* Every fourth one right on the one before it. */
            vec2 p = i % 4 == 3 ? v2_add(w.vehicles.p[w.vehicles.n - 1].pos, v2(rr(-5, 5), rr(-5, 5)))
                                : v2(rr(100, 1400), rr(100, 1400));
            world_add_vehicle(&w, id, kind, i % 2 ? red : blue, &vp, p, rr(-M_PI, M_PI));
        }
        check_int(world_finish(&w), ==, 0);
        world_moved(&w);
        sight_update(&w);
        struct sight_scratch s;
        memset(&s, 0, sizeof s);
        for (size_t k = 0; k < w.now.sights.n; k++) {
            const struct sight_record *r = &w.now.sights.p[k];
            const struct vehicle *v = &w.vehicles.p[r->observer];
            struct sight_shape shape = sight_shape_of(&w.vehicles.p[r->target]);
            struct sight_result res;
            double vis = sight_query(&w, v->p->sight, v->pos, &shape, &s, &res), a0, a1;
            sight_record_angles(r, &a0, &a1);
            int bad = memcmp(&vis, &r->visible, sizeof vis) || memcmp(&a0, &res.a0, sizeof a0)
                   || memcmp(&a1, &res.a1, sizeof a1) || r->n_intervals != (int)s.nhidden
                   || (!forest && vis != 1);
            struct sight_interval iv[64];
            int nh = sight_hidden_angles(&s, &res, iv, 64);
            for (int j = 0; !bad && j < nh && j < 64; j++)
                bad = memcmp(&iv[j], &w.now.sight_intervals.p[r->first_interval + j], sizeof iv[j]) != 0;
            differ += bad;
            hidden += r->n_intervals > 0;
            on_top += res.degenerate == SIGHT_ON_TOP;
            records++;
        }
        sight_scratch_free(&s);
        world_free(&w);
    }
    check_int(differ, ==, 0);
    check_int(hidden, >, 20);
    check_int(on_top, >, 5);
    tap_note("%ld records, %ld with hidden parts, %ld on top", records, hidden, on_top);
}

int main(void)
{
    run(cone_polygon_holds_accepted_points,
        "cone polygon: every point the range and cone tests accept lies in its cells");
    run(cone_polygon_refuses_wider_than_half_plane,
        "cone polygon: none for a cone of a half-plane or more, or no direction");
    run(sense_cone_grid_vs_all_pairs,
        "sense phase: the cone's cells find what all pairs find, edges included");
    run(sense_edge_rule_as_by_acos,
        "sense phase: the edge rule as the full angle decides it, at the edge too");
    run(sense_record_angles_as_query,
        "sense phase: a record's angles, fraction and hidden parts as the query's, trees or none");
    return tap_done();
}
