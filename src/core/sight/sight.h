/* sight.h — field of view, occlusion by trees, and who sees whom ("How not to be seen").
 *
 *   classic  the article: approximate tangents (c ± r × the perpendicular),
 *            `samples` points at the centres of equal parts of the target's
 *            angular width, trees nearest first, no depth test;
 *   exact    ours: exact tangents (asin(r/d)), the exact union of the
 *            blocked intervals, depth tested against the target's hull.
 *
 * sight_update() is the sense phase: it fills w->now.sights with one record for
 * each (observer, enemy whose centre is in its cone and range), keeps the
 * walked cells, candidate trees and hidden intervals of each record for the
 * viewer; each record is a `sight` event (sight_event_of).  sight_query() answers one question
 * ("how much of this shape can a point see?") for tests and benchmarks; it
 * allocates nothing once its scratch has grown to the scene.
 *
 * Angles stored here are radians in the world's convention (atan2(dy, dx),
 * y down).  Degenerate cases, in this order: the observer's centre inside
 * or on the target's outline -> visible 1; the observer's centre strictly
 * inside a tree -> 0; a target of zero angular width -> 1 or 0 as the one
 * ray to it is clear or not. */
#ifndef BOTFIELD_SIGHT_H
#define BOTFIELD_SIGHT_H

#include <stddef.h>

#include "vec.h"
#include "names.h"

struct world;
struct vehicle;

/* What a target looks like to an observer: a tank's hull rectangle, or for
 * a turret (which has no hull) its circle. */
struct sight_shape {
    vec2 c;                 /* centre */
    vec2 axis;              /* rectangle: unit vector along the length */
    double hl, hw;          /* rectangle: half length, half width */
    double r;               /* circle: radius */
    int circle;
};

/* A run of grid cells walked for one record: row cy, columns c0..c1. */
struct sight_span { int cy, c0, c1; };

/* Which threshold applied to a target, and why (the trace's and the
 * inspector's words): a still target, a moving one, or one near the edge
 * of the view (that rule wins). */
#define SIGHT_RULE_LIST(X)                                              \
    X(SIGHT_RULE_STILL, "still") X(SIGHT_RULE_MOVING, "moving")         \
    X(SIGHT_RULE_EDGE, "edge")
enum sight_rule { SIGHT_RULE_LIST(NAMES_ENUM) };
#define SIGHT_RULE_COUNT (0 SIGHT_RULE_LIST(NAMES_COUNT))
extern const char *const sight_rule_names[SIGHT_RULE_COUNT + 1];

/* What the sense phase keeps of a target's outline, so that its angular
 * extent (two atan2 and the frame they come from) is taken only when
 * asked: the records of a battle are many, their angles read only by
 * tests.  With the record's from and to it is the query again. */
struct sight_extent {
    vec2 axis;              /* the outline's axis (sight_shape) */
    double hl, hw;          /* its half length and width; a circle's
                               radius in hl */
};

/* 120 bytes (4 of them padding): a battle writes some 120,000 a tick,
 * so its sense stage is partly a stream of records to memory (the
 * narrow fields last, together).  Nothing the record's other fields
 * give is kept: its distance is sight_record_distance(). */
struct sight_record {
    int observer, target;   /* vehicle indices */
    double visible;         /* fraction of the target's angular width seen */
    double threshold;       /* the [sight] threshold that applied */
    vec2 from, to;          /* both centres at the sense phase */
    struct sight_extent extent; /* the target's angular extent a0, a1
                                   (sight_record_angles) */
    int first_interval;     /* hidden parts in w->now.sight_intervals */
    int n_intervals;
    int first_span, n_spans;    /* cells walked, in w->now.sight_store.spans */
    int first_tree, n_trees;    /* candidate trees, in w->now.sight_store.trees */
    unsigned char rule;     /* which threshold, and why: an enum sight_rule */
    unsigned char seen;     /* visible >= threshold */
    unsigned char circle, method;   /* the extent's: a circle; the sight
                                       method */
};

/* Centre to centre, bit for bit as the look measured it. */
static inline double sight_record_distance(const struct sight_record *r)
{
    return v2_dist(r->to, r->from);
}

/* A record's extent in angles, bit for bit as sight_query() gives them
 * (a0 in (-pi, pi], a0 <= a1 < a0 + pi). */
void sight_record_angles(const struct sight_record *r, double *a0, double *a1);

/* The `sight` event of a record, as the trace and the bots read it.  The
 * records are the tick's sight events: one each, in their order, before
 * every other event of the tick (w->now.events holds the others).  Kept
 * once, not twice: 56 bytes a record, 69 MB in a 100,000-tank battle. */
struct event;
void sight_event_of(const struct sight_record *r, struct event *e);

/* A hidden part of the target's angular extent: absolute radians from the
 * observer's centre, a0 <= a1 (a1 may pass pi).  For `classic` these are
 * runs of hidden samples, each sample standing for its part of the width. */
struct sight_interval { double a0, a1; };

/* An interval inside a query: pseudo-angles (monotonic in the angle, see
 * sight.c) relative to the line of sight, with the direction vectors of
 * their ends. */
struct sight_piece { double lo, hi; vec2 vlo, vhi; };

/* hidden[].a1 of a part that runs to the extent's high end, before the
 * width is known (see struct sight_scratch). */
#define SIGHT_TO_END INFINITY

/* Buffers a query reuses; they grow to the largest scene and stay. */
struct sight_scratch {
    unsigned *mark; size_t nmark; unsigned stamp;   /* dedupe of trees */
    int *cand; size_t ncand, capcand;               /* candidate trees */
    int *listed; size_t caplisted;  /* the wedge's listings, repeats too */
    struct sight_span *spans; size_t nspans, capspans;
    int *row_lo, *row_hi; size_t nrows, caplo, caphi;   /* per grid row */
    struct sight_piece *pieces; size_t npieces, cappieces;
    /* the result: hidden parts as offsets in radians from the low end of
       the target's extent, 0 <= a0 < a1 <= width, sorted, disjoint; a
       part hidden to the high end has a1 = SIGHT_TO_END unless the query
       was asked for its result (res), which takes the width: most
       queries in a forest end wholly hidden, and the width is an atan2 a
       caller without res does not need (sight_hidden_angles() resolves
       it from res) */
    struct sight_interval *hidden; size_t nhidden, caphidden;
    unsigned char *gone; size_t capgone;            /* classic samples */
    struct sight_order { double d2; int i; } *order; size_t caporder;
    int oom;                                        /* a buffer could not grow */
    /* the sense phase: cos of the last edge rule's angle, plus a margin */
    int edge_known; double edge_angle, edge_cos;
};

/* The world's sight storage: the query scratch and this tick's details. */
struct sight_store {
    struct sight_scratch scratch;
    struct sight_span *spans; size_t nspans, capspans;
    int *trees; size_t ntrees, captrees;
    int *targets; size_t ntargets, captargets;
    /* The threads' stores lie side by side (par.c): a cache line of room
     * keeps one thread's counters off the line the next one writes. */
    char pad_[64];
};
void sight_store_free(struct sight_store *s);
void sight_scratch_free(struct sight_scratch *s);

/* The details of one answer. */
struct sight_result {
    double visible;
    double a0, a1;          /* as in sight_record */
    double width;           /* a1 - a0, radians */
    int degenerate;         /* enum sight_degenerate */
};
enum sight_degenerate { SIGHT_NORMAL, SIGHT_ON_TOP, SIGHT_INSIDE_TREE,
                        SIGHT_POINT };

/* The outline sight uses for a tank or turret. */
struct sight_shape sight_shape_of(const struct vehicle *v);

/* The trees that may hide part of t from o: those listed in the cells the
 * sight wedge (the convex hull of o and t's outline; for a circle, of its
 * bounding square) covers, each once.  The wedge's boundary is walked with
 * grid_walk and each row filled between its outermost cells.  Fills
 * s->cand and s->spans; returns the count, or -1 when memory ran out. */
int sight_candidates(const struct world *w, vec2 o,
                     const struct sight_shape *t, struct sight_scratch *s);

/* The visible fraction of t from o with method m (an enum sight_method),
 * among the trees cand[0..n); the hidden parts end in s->hidden and, when
 * res is not NULL, the extent in *res. */
double sight_visible(const struct world *w, int m, vec2 o,
                     const struct sight_shape *t, const int *cand, int n,
                     struct sight_scratch *s, struct sight_result *res);

/* sight_candidates then sight_visible: one query through the grid.
 * On running out of memory the answer is 1 (nothing hides) and s->oom set. */
double sight_query(const struct world *w, int m, vec2 o,
                   const struct sight_shape *t, struct sight_scratch *s,
                   struct sight_result *res);

/* The hidden parts of the last sight_visible() as absolute angles;
 * writes at most max, returns how many there are. */
int sight_hidden_angles(const struct sight_scratch *s,
                        const struct sight_result *res,
                        struct sight_interval *out, int max);

/* The threshold that applies to a target at `off` radians from the
 * observer's heading (|off| <= pi) moving or not; seen = visible >= it. */
struct sight_config;
double sight_threshold(const struct sight_config *c, double fov, double off,
                       int moving);
/* The rule behind it, and a rule's threshold. */
enum sight_rule sight_rule_for(const struct sight_config *c, double fov,
                               double off, int moving);
double sight_rule_threshold(const struct sight_config *c, enum sight_rule r);

/* Whether vehicle i sees shell sh this tick: sh in flight, i a live
 * tank or turret (a car has no sight), sh's centre within i's view_range
 * and inside its view cone (vehicle_sensor_dir, fov: the test sight
 * makes of a target's centre), and no tree on the segment between their
 * centres.  Whose shell it is does not matter here. */
struct shell;
int sight_sees_shell(const struct world *w, int i, const struct shell *sh);

/* The sense phase: every live tank and turret looks at every live enemy
 * tank and turret whose centre lies within fov/2 of its heading (a
 * turret's: its facing) and view_range of its centre, found through the
 * vehicle grid of the start of the tick (w->scratch.vgrid; all vehicles when it
 * was never built).  Records per observer in target order. */
/* 0, or -1 when memory ran out (some records are then missing). */
int sight_update(struct world *w);

#endif
