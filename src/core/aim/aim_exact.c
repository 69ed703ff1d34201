/* aim_exact.c — the intercept with turret rotation, solved exactly.
 *
 * The article ("Throwing a Winning Pass") asks for an impact time T with
 *     T = t_rotate + t_flight                              (its (1)-(3))
 * and bisects on it.  We solve the same equation, generalised:
 *   - the shooter moves straight at shooter_vel while its turret turns, so
 *     the shell leaves from where the gun is at the firing time t_fire;
 *   - the turret turns the shortest way round: t_rotate = |angle| / w with
 *     the signed angle from the current facing (equation (3), not the
 *     listing's absolute heading);
 *   - the gun cannot fire before t_ready (reload).
 * For an impact at T, the aim point is A = Pt + vT*T and the flight time u
 * solves Sb*u = |A - (Ps + vS*(T - u))| (one positive root: a quadratic).
 * The slack f(T) = (T - u) - max(t_rotate, t_ready) is >= 0 exactly when a
 * shell can be fired in time (turn, wait if early, fire); the earliest
 * impact is the earliest root of f.
 *
 * f may have several roots (the aim direction can swing faster than the
 * turret turns when the target passes close).  With U = |vT - vS| /
 * (Sb - |vS|) bounding |u'|, f' >= 1 - U - |theta'| / w, where theta is the
 * aim direction; over an interval, |theta'| <= |cross(ray, ray')| / dist^2
 * is bounded from the aim vector's segment (see min_slope).  The solver
 * starts at T0, where a shell fired now would meet the target (the
 * article's non-rotating solution): f < 0 before it without a test.  Where
 * a stretch provably has f' > 0, one sign test at its end decides whether
 * the only root of the stretch is there.  Close to the gun, where no such
 * stretch can be proven, it steps as far as f provably stays negative:
 * by a parabola over f from a bound on |f''| (smooth), closing in on the
 * root quadratically, or, across the kinks of |angle|, by the rotation
 * time's lower bound over where the aim can point (no_root).  The root,
 * once bracketed in a rising stretch, is polished by Newton's method with
 * the analytic derivative, kept inside the bracket (bisection when a step
 * leaves it or |f| fails to halve, as in Numerical Recipes' rtsafe); the
 * last Newton step is not evaluated but proven, from the |f''| bound, to
 * land within 1e-10 s (newton_lands).  No false success: every answer is
 * a root within 1e-10 s whose left part is proven root-free, so it is the
 * earliest.
 *
 * Cost (bench-aim, 10^6 scenes): about 3.1 evaluations a solve; the angle
 * comes from our own arctangent (xatan2), not libm's correctly rounded one,
 * and the tests multiply through instead of dividing where they can. */
#include <math.h>
#include <string.h>

#include "aim.h"
#include "decide_guard.h"

#define EXACT_TOL 1e-10         /* seconds */
#define EXACT_MAX_EVALS 400

struct xctx {
    vec2 d0;            /* target - shooter at t = 0 */
    vec2 vt, vs, vrel;  /* target, shooter, target - shooter velocities */
    double fa;          /* the current turret facing, in (-pi, pi] */
    double sb, a, inv_a;    /* shell speed; Sb^2 - |vS|^2 and its inverse */
    double w, inv_w, t_ready;
    double vsn, inv_sbv;    /* |vS|, 1 / (Sb - |vS|) */
    double U, V;        /* bounds of |u'| and of |ray'| = |vrel + vS*u'| */
    int evals;
    struct aim_solution *sol;
};

struct xeval {
    double f, df;       /* slack and its derivative */
    double u, dist;     /* flight time, flight distance */
    double tr;          /* rotation time */
    double th;          /* absolute aim direction (0 when dist = 0) */
    double ang;         /* signed turn from the facing to th */
    double du, dth;     /* u' and theta' (0 when dist = 0) */
    vec2 ray;           /* fire position -> aim point */
};

/* atan(k/32), k = 0..32, rounded to double (from atanl). */
static const double atan_k32[33] = {
    0x0p+0, 0x1.ffd55bba97625p-6, 0x1.ff55bb72cfdeap-5,
    0x1.7ee182602f10fp-4, 0x1.fd5ba9aac2f6ep-4, 0x1.3d6eee8c6626cp-3,
    0x1.7b97b4bce5b02p-3, 0x1.b90d7529260a2p-3, 0x1.f5b75f92c80ddp-3,
    0x1.18bf5a30bf178p-2, 0x1.362773707ebccp-2, 0x1.530ad9951cd4ap-2,
    0x1.6f61941e4def1p-2, 0x1.8b24d394a1b25p-2, 0x1.a64eec3cc23fdp-2,
    0x1.c0db4c94ec9fp-2, 0x1.dac670561bb4fp-2, 0x1.f40dd0b541418p-2,
    0x1.0657e94db30dp-1, 0x1.1255d9bfbd2a9p-1, 0x1.1e00babdefeb4p-1,
    0x1.2958e59308e31p-1, 0x1.345f01cce37bbp-1, 0x1.3f13fb89e96f4p-1,
    0x1.4978fa3269ee1p-1, 0x1.538f57b89061fp-1, 0x1.5d58987169b18p-1,
    0x1.66d663923e087p-1, 0x1.700a7c5784634p-1, 0x1.78f6bbd5d315ep-1,
    0x1.819d0b7158a4dp-1, 0x1.89ff5ff57f1f8p-1, 0x1.921fb54442d18p-1,
};

/* atan2(y, x) in [-pi, pi], within 1 ulp of pi of libm's: libm's correctly
 * rounded atan2 was 37 % of a solve, and 1e-10 s needs far less.  By
 * symmetry t = min/max of |x|, |y| lies in [0, 1]; with c = k/32 the
 * nearest 32nd, atan(t) = atan(c) + atan(z), z = (t - c) / (1 + t*c)
 * computed from |x| and |y| directly, |z| <= 1/64, where Taylor's series
 * to z^7 leaves out less than |z|^9 / 9 < 3e-18.  The octant is undone by
 * table lookups, not branches: the quadrants of successive solves are
 * random, so branches would be mispredicted half the time. */
static double xatan2(double y, double x)
{
    static const double sgn[2] = { 1, -1 };
    static const double swap_off[2] = { 0, M_PI / 2 }, neg_off[2] = { 0, M_PI };
    double ax = fabs(x), ay = fabs(y);
    int swap = ay > ax, neg = x < 0;
    double n = swap ? ax : ay, d = swap ? ay : ax;
    if (!(d > 0))
        return 0;                               /* atan2(0, 0), NaN */
    double q = n / d;
    /* n <= d, so q is in [0, 1] unless both are infinite (or n is NaN):
     * no table index may come from those (libm knows their answer). */
    if (!(q <= 1))
        return atan2(y, x);
    int k = (int)(q * 32 + 0.5);
    double c = k * (1.0 / 32);
    double z = (n - c * d) / (d + c * n), z2 = z * z;
    double r = atan_k32[k] + (z + z * z2 * (-1.0 / 3 + z2 * (1.0 / 5 - z2 * (1.0 / 7))));
    r = swap_off[swap] + sgn[swap] * r;         /* pi/2 - r when swapped */
    r = neg_off[neg] + sgn[neg] * r;            /* pi - r when x < 0 */
    return sgn[y < 0] * r;
}

static void xeval(struct xctx *c, double T, struct xeval *e)
{
    if (c->sol && c->sol->nsteps < AIM_STEPS_MAX)
        c->sol->steps[c->sol->nsteps++] = (float)T;
    c->evals++;
    vec2 E = v2_add(c->d0, v2_scale(c->vrel, T));  /* A - (Ps + vS*T) */
    double b = v2_dot(E, c->vs), e2 = v2_len2(E);
    double disc = sqrt(b * b + c->a * e2);
    /* The positive root of a*u^2 - 2*b*u - |E|^2 = 0, without cancellation. */
    double u = b >= 0 ? (b + disc) * c->inv_a : e2 / (disc - b);
    if (!(u >= 0))
        u = 0;                                  /* E = 0 and b = 0 */
    vec2 ray = v2_add(E, v2_scale(c->vs, u));
    double dist = c->sb * u;
    /* The turn from the facing, the shortest way: the difference of two
     * angles in (-pi, pi] wrapped once (no sin/cos of the facing needed). */
    double th = 0, ang = 0;
    if (dist > 0) {
        th = xatan2(ray.y, ray.x);
        ang = th - c->fa;
        if (ang > M_PI)
            ang -= 2 * M_PI;
        else if (ang < -M_PI)
            ang += 2 * M_PI;
    }
    double tr = fabs(ang) * c->inv_w;
    e->u = u;
    e->dist = dist;
    e->tr = tr;
    e->th = th;
    e->ang = ang;
    e->ray = ray;
    e->f = (T - u) - (tr > c->t_ready ? tr : c->t_ready);
    if (dist > 0) {
        /* u' = (ray.vrel) / (Sb*dist - ray.vS) and theta' = cross(ray,
         * ray') / dist^2 with ray' = vrel + vS*u': two divisions that do
         * not wait on each other. */
        double den = c->sb * dist - v2_dot(ray, c->vs);  /* > 0: |vS| < Sb */
        double du = v2_dot(ray, c->vrel) / den;
        double inv2 = 1 / (dist * dist);
        double dth = (v2_cross(ray, c->vrel) + du * v2_cross(ray, c->vs)) * inv2;
        double dr = tr > c->t_ready ? (ang >= 0 ? dth : -dth) * c->inv_w : 0;
        e->df = 1 - du - dr;
        e->du = du;
        e->dth = dth;
    } else {
        e->df = 1;
        e->du = e->dth = 0;
    }
}

/* Over [L, L+h] the aim vector is ray(L) + vrel*tau + vS*(u(T) - u(L)),
 * |u(T) - u(L)| <= U*tau: a segment widened by k*h, k = |vS|*U.  Its
 * nearest distance to the gun bounds dist from below. */
struct cert {
    vec2 r0, vrel, vs;
    double U, k, w, t_ready;
    double inv_vv;      /* 1 / |vrel|^2 (0 when vrel = 0) */
    double vrel_vs2;    /* 2 * |vrel| * |vS| */
    double tau0;        /* where the unwidened segment's line is nearest */
    double c0;          /* |cross(r0, vrel)| + U*|cross(r0, vS)| */
};

/* What the proofs from L need of ray(L), whatever the stretch. */
static void cert_at(struct cert *c, vec2 r0)
{
    c->r0 = r0;
    c->tau0 = -v2_dot(r0, c->vrel) * c->inv_vv;
    c->c0 = fabs(v2_cross(r0, c->vrel)) + c->U * fabs(v2_cross(r0, c->vs));
}

static double seg_dist(const struct cert *c, double h, double *tau)
{
    double t = clampd(c->tau0, 0, h);
    if (tau)
        *tau = t;
    return v2_len(v2_add(c->r0, v2_scale(c->vrel, t)));
}

/* The least slope of f over [L, L+h] when it exceeds thr, else 0.  The aim
 * turns at |cross(ray, ray')| / |ray|^2, and expanding ray and ray' = vrel
 * + vS*u' bounds the cross product by |cross(r0, vrel)| + U*|cross(r0, vS)|
 * + 2*U*h*|vrel|*|vS|; then f' >= 1 - U - |theta'| / w.  The test against
 * thr is done without a division (the halving loop calls it often). */
static double min_slope(const struct cert *c, double h, double thr)
{
    double dmin = seg_dist(c, h, NULL) - c->k * h;
    if (!(dmin > 0))
        return 0;
    double cmax = c->c0 + c->U * h * c->vrel_vs2;
    double den = c->w * dmin * dmin;
    if (!((1 - c->U - thr) * den > cmax))
        return 0;
    return 1 - c->U - cmax / den;
}

/* Whether f < 0 holds on all of [L, L+h]: t_fire(T) <= t_fire(L) + (1+U)*h,
 * and the rotation time is at least the smallest angle between the facing
 * and the directions the widened segment can take.  a0 is the signed turn
 * from the facing to r0 (known from the evaluation at L); the segment spans
 * the signed angle from r0 to its end, and the widening by rho at distance
 * >= ds adds at most asin(rho / ds) <= rho / sqrt(ds^2 - rho^2) either way
 * (an upper bound keeps the proof sound and costs no asin). */
static int no_root(const struct cert *c, double tf_L, double a0, double h)
{
    double tau, ds = seg_dist(c, h, &tau);
    double rho = c->k * h;
    if (!(ds > rho))
        return 0;
    vec2 r1 = v2_add(c->r0, v2_scale(c->vrel, h));
    double span = xatan2(v2_cross(c->r0, r1), v2_dot(c->r0, r1));
    double widen = rho > 0 ? rho / sqrt((ds - rho) * (ds + rho)) : 0;
    double lo = a0 + (span < 0 ? span : 0) - widen;
    double hi = a0 + (span > 0 ? span : 0) + widen;
    double amin = INFINITY;
    for (int j = -1; j <= 1; j++) {
        double z = 2 * M_PI * j;
        double d = z < lo ? lo - z : z > hi ? z - hi : 0;
        if (d < amin)
            amin = d;
    }
    double rmin = amin / c->w;
    if (rmin < c->t_ready)
        rmin = c->t_ready;
    return tf_L + (1 + c->U) * h - rmin < 0;
}

/* Whether f is smooth on [x, x+h] (h may be negative), and a bound M2 of
 * |f''| there.  Along the way |ray| >= dmin = dist - V*|h| (|ray'| <= V),
 * the aim turns at most V*|h| / dmin, which must not reach a kink: |angle|
 * at 0 or pi, max(t_rotate, t_ready) where they meet.  From sb*u = |ray|,
 * ray' = vrel + vS*u', ray'' = vS*u'':
 *   |u''| = cross(n, ray')^2 / (dist * (Sb - n.vS)) <= V^2 / (dmin * (Sb - |vS|))
 *   |theta''| <= |vS|*|u''| / dmin + 2*|theta'|^2,  |theta'| <= V / dmin
 * and |f''| <= |u''| + |theta''| / w.  The tests are multiplied through by
 * dmin (no division); M2 = V^2 / dmin^2 * (dmin / sbv + (|vS| / sbv + 2) / w). */
static int smooth(const struct xctx *c, const struct xeval *e, double h,
                  double *M2)
{
    double va = c->V * fabs(h);
    double dmin = e->dist - va;
    if (!(dmin > 0))
        return 0;
    double aa = fabs(e->ang);
    if (!(aa * dmin > va) || !((M_PI - aa) * dmin > va))
        return 0;
    if (c->t_ready > 0 && !(fabs(e->tr - c->t_ready) * dmin > va * c->inv_w))
        return 0;
    double k = dmin * c->inv_sbv + (c->vsn * c->inv_sbv + 2) * c->inv_w;
    *M2 = c->V * c->V * k / (dmin * dmin);
    return 1;
}

/* Whether Newton's step d from x (evaluated as e) lands within EXACT_TOL
 * of the root on a stretch rising at >= m, proven without evaluating
 * there (that evaluation was a quarter of a typical solve): on a smooth
 * [x, x+d], Taylor's f(x+d) = f(x) + f'(x)*d + f''(xi)*d^2/2 =
 * f''(xi)*d^2/2, and |x + d - root| <= |f(x+d)| / m.  Half the tolerance
 * is kept back for the rounding of f. */
static int newton_lands(const struct xctx *c, const struct xeval *e, double d,
                        double m)
{
    double M2;
    return m > 0 && smooth(c, e, d, &M2) && M2 * d * d <= m * EXACT_TOL;
}

/* The evaluation at x + d from the one at x, to first order (errors of
 * order f''*d^2, below 1e-13 where the callers use it), but for the
 * direction: ray'' = vS*u'' is far smaller than theta'' near the gun, so
 * the direction is taken from the extrapolated ray itself, and points at
 * the aim point to within 1e-12 units. */
static void extrapolate(const struct xctx *c, struct xeval *e, double d)
{
    e->f += e->df * d;
    e->u += e->du * d;
    e->dist = c->sb * e->u;
    vec2 r0 = e->ray;
    e->ray = v2_add(r0, v2_scale(v2_add(c->vrel, v2_scale(c->vs, e->du)), d));
    /* the turn from the old ray: atan(x) = x - x^3/3 + x^5/5 to 1e-19
     * rad for |x| < 2e-3 (one division), else the full arctangent */
    double cr = v2_cross(r0, e->ray), dt = v2_dot(r0, e->ray);
    double dth;
    if (dt > 0 && fabs(cr) < 2e-3 * dt) {
        double x = cr / dt, x2 = x * x;
        dth = x - x * x2 * (1.0 / 3 - x2 * (1.0 / 5));
    } else {
        dth = xatan2(cr, dt);
    }
    e->th += dth;
    if (e->th > M_PI)
        e->th -= 2 * M_PI;
    else if (e->th < -M_PI)
        e->th += 2 * M_PI;
    double ang = e->th - c->fa;
    if (ang > M_PI)
        ang -= 2 * M_PI;
    else if (ang < -M_PI)
        ang += 2 * M_PI;
    e->ang = ang;
    e->tr = fabs(ang) * c->inv_w;
}

/* Newton inside [a, b] with f(a) < 0 <= f(b) and f rising with slope at
 * least m (0: not known): the root to EXACT_TOL. */
static double polish(struct xctx *c, double a, struct xeval ea, double b,
                     const struct xeval *eb, double m, double *lo, double *hi,
                     struct xeval *out)
{
    /* Newton starts from the end nearer the root (f(b) when known). */
    double x = a;
    struct xeval ex = ea;
    if (eb && eb->f < -ea.f) {
        x = b;
        ex = *eb;
    }
    int slow = 0;
    while (c->evals < EXACT_MAX_EVALS) {
        double nx;
        if (!slow && ex.df > 0) {
            nx = x - ex.f / ex.df;
            if (nx > a && nx < b && newton_lands(c, &ex, nx - x, m)) {
                extrapolate(c, &ex, nx - x);
                x = nx;
                break;
            }
        } else {
            nx = 0.5 * (a + b);
        }
        if (!(nx > a && nx < b))
            nx = 0.5 * (a + b);
        double step = fabs(nx - x);
        x = nx;
        double fprev = ex.f;
        xeval(c, x, &ex);
        if (ex.f < 0)
            a = x;
        else
            b = x;
        /* |x - root| <= |f(x)| / m on a stretch with slope >= m. */
        if (fabs(ex.f) <= m * EXACT_TOL || b - a <= EXACT_TOL)
            break;
        /* Without a slope bound (m = 0), a Newton step this small means
         * quadratic convergence has already put x within it. */
        if (m == 0 && !slow && step < 1e-2 * EXACT_TOL)
            break;
        /* Bisect next when |f| did not at least halve (a kink of
         * |angle| or max(t_rotate, t_ready) between the iterate and the
         * root), as Numerical Recipes' rtsafe does. */
        slow = fabs(ex.f) > 0.5 * fabs(fprev);
    }
    *lo = a;
    *hi = b;
    *out = ex;
    return x;
}

static void xinit(struct xctx *c, const struct aim_scene *s,
                  struct aim_solution *sol)
{
    c->sol = sol;
    c->evals = 0;
    c->d0 = v2_sub(s->target, s->shooter);
    c->vt = s->target_vel;
    /* A shooter as fast as its shells: its own motion is left out (the
     * flight-time equation would have no single root). */
    c->vs = v2_len(s->shooter_vel) < 0.999 * s->shell_speed ? s->shooter_vel
                                                            : v2(0, 0);
    c->vrel = v2_sub(c->vt, c->vs);
    /* the turrets keep their facing in (-pi, pi]: remainder() only if not */
    c->fa = s->facing > -M_PI && s->facing <= M_PI ? s->facing
                                                     : angle_norm(s->facing);
    c->sb = s->shell_speed;
    c->a = c->sb * c->sb - v2_len2(c->vs);
    c->inv_a = 1 / c->a;
    c->w = s->turn_rate;
    c->inv_w = 1 / c->w;
    c->t_ready = s->t_ready > 0 ? s->t_ready : 0;
    c->vsn = v2_len(c->vs);
    c->inv_sbv = 1 / (c->sb - c->vsn);
    c->U = v2_len(c->vrel) * c->inv_sbv;
    c->V = v2_len(c->vrel) + c->vsn * c->U;
}

double aim_exact_slack(const struct aim_scene *s, double T)
{
    struct xctx c;
    xinit(&c, s, NULL);
    struct xeval e;
    xeval(&c, T, &e);
    return e.f;
}

static int finish(struct xctx *c, const struct aim_scene *s, double T,
                  const struct xeval *e, double lo, double hi)
{
    struct aim_solution *sol = c->sol;
    sol->iterations = c->evals;
    sol->lo = lo;
    sol->hi = hi;
    sol->t_impact = T;
    sol->point = v2_add(s->target, v2_scale(c->vt, T));
    sol->dir = e->dist > 0 ? e->th : s->facing;
    sol->t_rotate = e->tr;
    double r = e->tr > c->t_ready ? e->tr : c->t_ready;
    double tf = T - e->u;
    sol->t_fire = tf > r ? tf : r;
    if (e->dist > s->range * (1 + 1e-12)) {
        sol->reason = AIM_REASON_OUT_OF_RANGE;
        return sol->ok = 0;
    }
    sol->reason = AIM_REASON_OK;
    return sol->ok = 1;
}

static int fail(struct xctx *c, enum aim_reason why, double lo, double hi)
{
    c->sol->iterations = c->evals;
    c->sol->lo = lo;
    c->sol->hi = hi;
    c->sol->reason = why;
    return c->sol->ok = 0;
}

/* solver: the exact aim's search (bracket, refine, confirm) is one
 * algorithm whose steps share its bracket and counters; split, each piece
 * would need them all passed in and out. */
int aim_exact_solve(const struct aim_scene *s, struct aim_solution *sol)
{
    struct xctx c;
    memset(sol, 0, sizeof *sol);
    xinit(&c, s, sol);

    double vs = v2_len(c.vs), vrel = v2_len(c.vrel);
    double U = vrel / (c.sb - vs);              /* bounds |u'| */
    double rmax = M_PI / c.w > c.t_ready ? M_PI / c.w : c.t_ready;
    /* Once the shell must leave later than rmax, f > 0; so the earliest
     * root fires by rmax, and if it is in range it lands by this: */
    double t_hi = rmax + s->range / c.sb;
    int hi_positive = 0;

    struct xeval eL;
    double L = 0;
    if (U < 1) {
        /* Start where a shell fired now would meet the target: T0 with
         * |d0 + vT*T0| = Sb*T0 (the article's non-rotating solution; a
         * quadratic, positive root taken without cancellation).  There the
         * firing time g(T) = T - u(T) is 0, and g rises at >= 1 - U > 0,
         * so g < 0 and f <= g < 0 on all of [0, T0): no root is skipped,
         * and f(T0) = -max(t_rotate, t_ready) needs no proof. */
        double a0 = c.sb * c.sb - v2_len2(c.vt), b0 = v2_dot(c.d0, c.vt);
        double e0 = v2_len2(c.d0), q = sqrt(b0 * b0 + a0 * e0);
        L = b0 >= 0 ? (b0 + q) / a0 : q > b0 ? e0 / (q - b0) : 0;
        if (!(L >= 0))
            L = 0;
    }
    xeval(&c, L, &eL);
    /* f(T0) >= 0 (up to rounding): facing the aim point with the gun
     * loaded, so fire now; T0 is the earliest root. */
    if (eL.f >= 0)
        return finish(&c, s, L, &eL, L, L);
    if (U < 1) {
        /* u(T) <= u(L) + U*(T - L) makes f(T) >= (1 - U)*(T - L)
         * + (L - u(L)) - rmax: the safe t_max, (Sb*pi/w + D) /
         * (Sb - |v|), for a still gun from L = 0. */
        double ts = L + (rmax + eL.u - L) / (1 - U);
        if (ts <= t_hi) {
            t_hi = ts;
            hi_positive = 1;
        }
    }
    if (L >= t_hi)      /* the earliest root lands later than any in range */
        return fail(&c, AIM_REASON_OUT_OF_RANGE, L, L);
    struct cert ct;
    ct.vrel = c.vrel;
    ct.vs = c.vs;
    ct.U = U;
    ct.k = vs * U;
    ct.w = c.w;
    ct.t_ready = c.t_ready;
    ct.inv_vv = vrel > 0 ? 1 / (vrel * vrel) : 0;
    ct.vrel_vs2 = 2 * vrel * vs;
    double hstep = 0;
    double mono_end = -1, mono_m = 0;   /* a stretch proven to rise */

    while (c.evals < EXACT_MAX_EVALS) {
        cert_at(&ct, eL.ray);
        double H = t_hi - L;
        /* 1. A stretch on which f provably rises, reaching to Newton's
         * estimate of the root (or all that is left): there one sign test
         * at its end tells whether the only root of the stretch lies in
         * it; if not, its end is a Newton step proven to skip no root. */
        double h = H, m = 0;
        int newton = 0;
        if (U < 1) {
            if (eL.df > 0 && -eL.f / eL.df < H) {
                h = -eL.f / eL.df;
                newton = 1;
            }
            if (L + h <= mono_end) {
                m = mono_m;                     /* inside a proven stretch */
            } else {
                /* prove a stretch four Newton steps long, so the steps
                 * that follow need no proof of their own */
                double g = 4 * h < H ? 4 * h : H;
                for (int j = 0; j < 14; j++, g *= 0.5)
                    if ((m = min_slope(&ct, g, 1e-3 * (1 - U))) > 0)
                        break;
                if (m > 1e-3 * (1 - U)) {
                    mono_end = L + g;
                    mono_m = m;
                    if (g < h) {
                        h = g;
                        newton = 0;
                    }
                }
            }
        }
        if (U < 1 && m > 1e-3 * (1 - U)) {
            double R = L + h, lo, hi, x;
            /* Newton's step provably within the tolerance of the root, on
             * the proven stretch: the root, without evaluating there. */
            if (newton && R + EXACT_TOL < mono_end
                && newton_lands(&c, &eL, h, m)) {
                extrapolate(&c, &eL, h);
                return finish(&c, s, R, &eL, L, R + EXACT_TOL);
            }
            struct xeval eR;
            int have_R = 0;
            if (h < H || !hi_positive) {
                xeval(&c, R, &eR);
                have_R = 1;
                if (eR.f < 0) {
                    if (h >= H)
                        return fail(&c, U < 1 ? AIM_REASON_OUT_OF_RANGE
                                              : AIM_REASON_TOO_FAST, L, R);
                    if (-eR.f <= m * EXACT_TOL)
                        return finish(&c, s, R, &eR, L, R);
                    L = R;
                    eL = eR;
                    continue;
                }
                if (eR.f <= m * EXACT_TOL)
                    return finish(&c, s, R, &eR, L, R);
            }
            x = polish(&c, L, eL, R, have_R ? &eR : NULL, m, &lo, &hi, &eR);
            if (c.evals >= EXACT_MAX_EVALS && fabs(eR.f) > m * EXACT_TOL
                && hi - lo > EXACT_TOL)
                break;
            return finish(&c, s, x, &eR, lo, hi);
        }
        /* 2. Close to the gun (or a target faster than the shell) the aim
         * may swing faster than the turret: step as far as f provably stays
         * negative, from a bound on where the aim can point meanwhile. */
        /* Second order first: where f is smooth over the step,
         * f(L + tau) <= f(L) + f'(L)*tau + M2*tau^2/2 < 0 up to the root of
         * that parabola, which lies before f's root, and closes in on it
         * quadratically (a first-order bound only linearly, and not at all
         * where f nearly touches 0 and turns back down).  The step is the
         * parabola's root for M2 at dist(L), shortened until proven. */
        double M2 = 0, h2 = 0;
        if (smooth(&c, &eL, 0, &M2)) {
            double fp = eL.df, q = sqrt(fp * fp - 2 * M2 * eL.f);
            double hq = fp <= 0 ? (q - fp) / M2 : -2 * eL.f / (fp + q);
            if (!(hq <= H))
                hq = H;
            for (int j = 0; j < 6; j++, hq *= 0.5) {
                if (smooth(&c, &eL, hq, &M2)
                    && eL.f + hq * (eL.df + 0.5 * M2 * hq) < 0) {
                    h2 = hq;
                    break;
                }
            }
        }
        /* First order, from a bound on where the aim can point meanwhile:
         * it crosses the kinks of |angle|, and far from the root it may
         * reach further.  The longer proven step is taken. */
        double tf = L - eL.u, a0 = eL.ang;
        h = -eL.f / (1 + U);
        if (hstep > 0 && 4 * hstep < h)
            h = 4 * hstep;
        if (h > H)
            h = H;
        int j = 0;
        for (; j < 40 && h > h2 && !no_root(&ct, tf, a0, h); j++)
            h *= 0.5;
        if (j == 40 || !(h > h2)) {
            if (h2 == 0)
                break;                          /* the target is on the gun */
            h = h2;
        } else {
            hstep = h;
        }
        if (h >= H)
            return fail(&c, U < 1 ? AIM_REASON_OUT_OF_RANGE : AIM_REASON_TOO_FAST,
                        L, t_hi);
        L += h;
        xeval(&c, L, &eL);
        /* Converged from the left: a root (or a touch) within the bound. */
        if (eL.f >= -EXACT_TOL * 1e-2)
            return finish(&c, s, L, &eL, L, L);
        /* Newton's step d from L, proven to end within EXACT_TOL / 2 of
         * the earliest root: with eps = EXACT_TOL / 2 and f smooth on
         * [L, L+d+eps], f <= f(L) + f'(L)*tau + M2*tau^2/2 < 0 up to
         * L+d-eps and f >= f(L) + f'(L)*tau - M2*tau^2/2 > 0 at L+d+eps,
         * both when M2*(d+eps)^2 < f'(L)*EXACT_TOL.  [0, L] is proven
         * root-free, so that root is the earliest. */
        if (eL.df > 0) {
            double d = -eL.f / eL.df, dd = d + 0.5 * EXACT_TOL;
            if (L + d < t_hi && smooth(&c, &eL, dd, &M2)
                && M2 * dd * dd < eL.df * EXACT_TOL) {
                extrapolate(&c, &eL, d);
                return finish(&c, s, L + d, &eL, L, L + dd);
            }
        }
    }
    return fail(&c, AIM_REASON_NO_CONVERGENCE, L, t_hi);
}
