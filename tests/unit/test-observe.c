/* test-observe — observe_vehicle() (core/observe.h) against an oracle of
 * its own, on maps generated here: random trees (none, a few, and more
 * than the few the rays test one by one, so both of the rays' ways are
 * met), two teams of random tanks that drive, aim and fire, tick after
 * tick.
 *
 * What it proves: every number is in [-1, 1]; its own state is the
 * vehicle's; the enemies are those its sight saw, nearest first, in the
 * hull's frame; the shells are the nearest within range not of its team;
 * each ray's number is the nearest entry, along the ray, into a tree or
 * another living vehicle, as a fraction of the range (0 inside one, 1
 * for none), worked out here another way: from the circle's distance
 * along the ray and its distance off it, not from the quadratic the
 * core solves. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../lib/tap.h"
#include "../lib/map-fixture.h"
#include "core/observe.h"
#include "core/tick.h"
#include "core/world.h"

#define K 3
#define R 24
#define TOL 2e-5                /* the observation is float */

static int fails;

static void expect(int ok, const struct world *w, int i, const char *what, int at, double got,
                   double want)
{
    if (ok)
        return;
    if (fails++ < 8)
        tap_note("tick %ld, vehicle %d: %s[%d] = %.9g, the oracle says %.9g", w->tick, i, what,
                 at, got, want);
}

/* The nearest entry along the ray from p in direction u (unit) within
 * range into circle (c, r): as a fraction of the range, 1 for none. */
static double ray_oracle(vec2 p, vec2 u, double range, vec2 c, double r)
{
    vec2 m = v2_sub(c, p);
    double l = v2_len(m);
    if (l <= r)
        return 0;
    double along = v2_dot(m, u), off = v2_cross(u, m);
    if (along <= 0 || fabs(off) > r)
        return 1;
    double s = (along - sqrt(r * r - off * off)) / range;
    return s <= 1 ? s : 1;
}

/* The first hit of ray k of vehicle i, with every circle's radius times f
 * (a ray that grazes a circle may go either way). */
static double ray_all(const struct world *w, int i, double range, int k, double f)
{
    const struct vehicle *me = world_vehicle(w, i);
    vec2 u = v2_dir(me->heading + 2 * M_PI * k / R);
    double best = 1;
    for (size_t t = 0; t < w->trees.n; t++)
        best = fmin(best, ray_oracle(me->pos, u, range, w->trees.p[t].c, w->trees.p[t].r * f));
    for (size_t t = 0; t < w->vehicles.n; t++) {
        const struct vehicle *v = &w->vehicles.p[t];
        if ((int)t != i && v->alive)
            best = fmin(best, ray_oracle(me->pos, u, range, v->pos, v->p->radius * f));
    }
    return best;
}

static int enemy(const struct vehicle *me, const struct vehicle *t)
{
    return t != me && t->alive && (me->team < 0 || t->team != me->team);
}

/* The K nearest of d[0 .. n) (their indices into idx, nearest first). */
static int nearest(const double *d, int n, int *idx)
{
    int got = 0;
    char used[512] = { 0 };
    while (got < K) {
        int best = -1;
        for (int j = 0; j < n && j < 512; j++)
            if (!used[j] && (best < 0 || d[j] < d[best]))
                best = j;
        if (best < 0)
            break;
        used[best] = 1;
        idx[got++] = best;
    }
    return got;
}

static void check_frame(const struct world *w, int i, const float *o, vec2 rel, double range,
                        const char *what, int at)
{
    const struct vehicle *me = world_vehicle(w, i);
    double fwd = v2_dot(rel, me->dir) / range, right = v2_cross(me->dir, rel) / range;
    expect(fabs(o[0] - fwd) < TOL, w, i, what, at, o[0], fwd);
    expect(fabs(o[1] - right) < TOL, w, i, what, at + 1, o[1], right);
}

static void check_enemies(const struct world *w, int i, const float *obs, double range)
{
    const struct vehicle *me = world_vehicle(w, i);
    double d[512];
    int who[512], n = 0, idx[K];
    for (int k = me->sight_first; k < me->sight_first + me->sight_count && n < 512; k++) {
        int t = world_sight_seen(w, k);
        if (t >= 0 && enemy(me, world_vehicle(w, t))) {
            who[n] = t;
            d[n++] = v2_dist(world_vehicle(w, t)->pos, me->pos);
        }
    }
    int got = nearest(d, n, idx);
    expect(fabs(obs[11] - (double)got / K) < TOL, w, i, "own", 11, obs[11], (double)got / K);
    for (int k = 0; k < K; k++) {
        const float *o = obs + OBSERVE_OWN + OBSERVE_ENEMY * k;
        expect(o[0] == (k < got), w, i, "enemy flag", k, o[0], k < got);
        if (k >= got)
            continue;
        const struct vehicle *t = world_vehicle(w, who[idx[k]]);
        check_frame(w, i, o + 1, v2_sub(t->pos, me->pos), range, "enemy", 6 * k + 1);
        double b = atan2(t->pos.y - me->pos.y, t->pos.x - me->pos.x) - me->turret;
        expect(fabs(o[3] - cos(b)) < TOL && fabs(o[4] - sin(b)) < TOL, w, i, "enemy bearing",
               k, o[3], cos(b));
        double h = (double)t->health / t->p->health;
        expect(fabs(o[5] - h) < TOL, w, i, "enemy health", k, o[5], h);
    }
}

static void check_shells(const struct world *w, int i, const float *obs, double range)
{
    const struct vehicle *me = world_vehicle(w, i);
    double d[512];
    int which[512], n = 0, idx[K];
    for (size_t k = 0; k < w->shells.n && n < 512; k++) {
        const struct shell *sh = world_shell(w, k);
        if (!sh->alive || sh->shooter == i
            || (sh->shooter >= 0 && world_vehicle(w, sh->shooter)->team == me->team))
            continue;
        double dist = v2_dist(sh->pos, me->pos);
        if (dist <= range) {
            which[n] = (int)k;
            d[n++] = dist;
        }
    }
    int got = nearest(d, n, idx);
    for (int k = 0; k < K; k++) {
        const float *o = obs + OBSERVE_OWN + OBSERVE_ENEMY * K + OBSERVE_SHELL * k;
        expect(o[0] == (k < got), w, i, "shell flag", k, o[0], k < got);
        if (k >= got)
            continue;
        const struct shell *sh = world_shell(w, (size_t)which[idx[k]]);
        check_frame(w, i, o + 1, v2_sub(sh->pos, me->pos), range, "shell", 5 * k + 1);
        double sp = v2_len(sh->vel);
        check_frame(w, i, o + 3, sh->vel, sp, "shell velocity", 5 * k + 3);
    }
}

/* Its own state: the numbers that are the vehicle's own, read back. */
static void check_own(const struct world *w, int i, const float *o)
{
    const struct vehicle *me = world_vehicle(w, i);
    double want[] = { 1, (double)me->health / me->p->health, me->pos.x / w->width * 2 - 1,
                      me->pos.y / w->height * 2 - 1, cos(me->heading), sin(me->heading) };
    for (int k = 0; k < 6; k++)
        expect(fabs(o[k] - want[k]) < TOL, w, i, "own", k, o[k], want[k]);
    double rel = me->turret - me->heading;
    expect(fabs(o[7] - cos(rel)) < TOL && fabs(o[8] - sin(rel)) < TOL, w, i, "own", 7, o[7],
           cos(rel));
}

static int rays_hit;

static void check_one(const struct world *w, int i)
{
    float obs[OBSERVE_OWN + (OBSERVE_ENEMY + OBSERVE_SHELL) * K + R];
    int n = observe_size(K, R);
    const struct vehicle *me = world_vehicle(w, i);
    observe_vehicle(w, i, K, R, obs);
    for (int k = 0; k < n; k++)
        expect(obs[k] >= -1 && obs[k] <= 1, w, i, "in [-1, 1]", k, obs[k], 0);
    if (!me->alive) {
        for (int k = 0; k < n; k++)
            expect(obs[k] == 0, w, i, "a wreck's", k, obs[k], 0);
        return;
    }
    double range = me->p->view_range;
    check_own(w, i, obs);
    check_enemies(w, i, obs, range);
    check_shells(w, i, obs, range);
    const float *ray = obs + n - R;
    for (int k = 0; k < R; k++) {
        double lo = ray_all(w, i, range, k, 1 + 1e-9), hi = ray_all(w, i, range, k, 1 - 1e-9);
        expect(ray[k] >= lo - TOL && ray[k] <= hi + TOL, w, i, "ray", k, ray[k],
               ray_all(w, i, range, k, 1));
        rays_hit += ray[k] < 1;
    }
}

/* A map of n random trees and two teams of six random tanks. */
static int scene(int trees, int seed, struct world *w)
{
    char text[1024];
    snprintf(text, sizeof text,
             "[map]\nwidth = 900\nheight = 700\nseed = %d\n"
             "[trees]\nrandom = %d\nmin_radius = 8\nmax_radius = 30\n"
             "[team.red]\nrandom = 6\nview_range = 420\n"
             "[team.blue]\nrandom = 6\nview_range = 300\nfov = 360\n",
             seed, trees);
    return fixture_load_text("scene", text, w);
}

TEST(observations_match_the_oracle)
{
    static const int tree_counts[] = { 0, 5, 30, 48, 49, 140 };
    long looked = 0;
    int shells_seen = 0, enemies_seen = 0;
    fails = rays_hit = 0;
    for (size_t c = 0; c < sizeof tree_counts / sizeof *tree_counts; c++)
        for (int seed = 1; seed <= 3; seed++) {
            struct world w;
            if (scene(tree_counts[c], seed, &w)) {
                fails++;
                continue;
            }
            for (int t = 0; t < 240; t++) {
                tick_step(&w);
                if (t % 7)
                    continue;
                for (int i = 0; i < (int)w.vehicles.n; i++, looked++) {
                    check_one(&w, i);
                    const struct vehicle *me = world_vehicle(&w, i);
                    enemies_seen += me->alive && me->sight_count > 0;
                }
                shells_seen += w.shells.n > 0;
            }
            world_free(&w);
        }
    check_int(fails, ==, 0);
    /* the oracle met every part: enemies, shells, rays that hit */
    check_int(looked, >, 1000);
    check_int(enemies_seen, >, 100);
    check_int(shells_seen, >, 20);
    check_int(rays_hit, >, 1000);
    tap_note("%ld observations; an enemy seen in %d, shells flying at %d looks, %d rays hit",
             looked, enemies_seen, shells_seen, rays_hit);
}

int main(void)
{
    run(observations_match_the_oracle,
        "observe_vehicle() = an oracle's own state, enemies, shells and rays, on 18 maps");
    return tap_done();
}
