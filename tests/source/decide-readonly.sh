#!/bin/sh
# decide-readonly.sh — decisions cannot write: a probe of decision code
# (the headers decision files include, then decide_guard.h, and a row's
# signature: the view, the vehicle, its own decision) is compiled with
# the configured compiler, once per write.  Writes to the vehicle's own
# decision and to its lane's scratch must compile; every write to what
# other decisions read (another vehicle's decision, the tick context, a
# team, a tree, the world's arrays, sight and aim records, the per-tick
# products: the all-pairs maxima, the racing lines, the shells by cell)
# must be refused.
. "$top_srcdir/tests/lib/lib.sh"
: "${PROBE_CC:?run through make check}"

probe() {   # probe NAME BODY: compiles BODY in a row; status, errors in $TMPD/NAME.err
    cat > "$TMPD/$1.c" <<PROBE
#include "world.h"
#include "decide.h"
#include "race/race_line.h"
#include "decide_guard.h"
void probe_row(const struct decide_view *c, int i, struct decision *d);
void probe_row(const struct decide_view *c, int i, struct decision *d)
{
    const struct world *w = c->w;
    (void)w; (void)i; (void)d;
    $2;
}
PROBE
    # shellcheck disable=SC2086
    $PROBE_CC $PROBE_CPPFLAGS -std=c11 -Wall -Wextra -Werror -fsyntax-only \
        "$TMPD/$1.c" 2> "$TMPD/$1.err"
}

allowed() { # allowed NAME BODY
    probe "$1" "$2"
    st=$?
    [ $st -eq 0 ] || sed 's/^/# /' "$TMPD/$1.err" | head -5
    ok $st "compiles: $2"
}

refused() { # refused NAME BODY: refused for writing a read-only or poisoned name
    # (gcc: "assignment of read-only ...", "poisoned"; clang: "read-only
    # variable", "with const-qualified type", "returns a const value",
    # "poisoned identifier")
    if probe "$1" "$2"; then
        ok 1 "refused: $2 (it compiled)"
    elif grep -qE 'read-only|poisoned|const-qualified|returns a const value' "$TMPD/$1.err"; then
        ok 0 "refused: $2"
    else
        sed 's/^/# /' "$TMPD/$1.err" | head -5
        ok 1 "refused: $2 (for another reason)"
    fi
}

# what a decision may write, and read
allowed own_decision 'd->want.turn = 1; d->want.fire = 1; d->gun.target = -1'
allowed own_lane 'c->lane->failed = 1; c->lane->turns.slot[0].turn = 0'
allowed own_race 'if (c->race) c->race->target_speed = 0'
allowed reads 'd->want.speed = world_vehicle(w, 0)->speed + w->dt + c->tick->brute_maxr'

# another vehicle's decision, the tick context
refused other_decision 'w->scratch.ctx->d[1].want.turn = 1'
refused ctx_failed 'w->scratch.ctx->failed = 1'
refused ctx_type 'struct tick_ctx *t = 0; (void)t'
refused ctx_plans 'w->scratch.ctx->plans = 0'
# the world, its arrays and what they point to
refused team_alive 'w->teams.p[0].alive = 0'
refused tree_radius 'w->trees.p[0].r = 0'
refused vehicles_array 'w->vehicles.p[1].speed = 0'
refused vehicle_record 'world_vehicle(w, 1)->speed = 0'
refused vehicle_params 'world_vehicle(w, 1)->p->speed = 0'
refused world_scalar 'w->tick = 0'
refused racers 'w->racers.p[0].race.next = 0'
refused racer_record 'world_racer(w, world_vehicle(w, 0))->race.next = 0'
refused sight_record 'world_sight(w, 0)->visible = 1'
refused aim_record 'world_aim(w, world_vehicle(w, 0))->ok = 1'
refused sights_array 'w->now.sights.p[0].visible = 1'
refused aims_array 'w->now.aims.p[0].ok = 1'
refused vgrid 'w->scratch.vgrid.start[0] = 0'
refused tree_grid 'w->tree_grid.items[0] = 0'
refused sight_store 'w->now.sight_store.targets[0] = 0'
refused world_name 'w->name[0] = 0'
refused stats 'w->stats.shots = 0'
refused player 'w->player.in.fire = 1'
# the view itself and the per-tick products (the caches decisions filled)
refused view_world 'c->w = 0'
refused view_lane 'c->lane = 0'
refused brute_max 'c->tick->brute_maxr = 1'
refused plan_slot 'c->tick->plan[0] = 0'
refused plan_speed 'c->tick->plan[0]->v[0] = 1'
refused plan_points 'c->tick->plan[0]->pt[0].x = 1'
refused plan_lap 'c->tick->plan = 0'
refused shell_idx 'c->tick->shell_idx = 0'
refused shell_cells 'if (c->tick->shell_idx) c->tick->shell_idx->start[0] = 1'
refused shell_items 'if (c->tick->shell_idx) c->tick->shell_idx->item[0].k = 1'
refused shell_cells_buf 'c->tick->shell_idx->cell_start_buf[0] = 1'
refused shell_items_buf 'c->tick->shell_idx->cell_item_buf[0].k = 1'
refused shell_boxes 'if (c->tick->shell_idx) c->tick->shell_idx->box[0] = 1'
refused shell_boxes_buf 'c->tick->shell_idx->cell_box_buf[0] = 1'

done_testing
