/* decide_guard.h — included LAST by every file of decision code (see
 * decide.h).  A decision gets a `const struct decide_view *`: the world
 * through a pointer to const, its lane's scratch, its racer's record and
 * its own struct decision.  A const world still holds pointers to data
 * that is not const (its arrays, its grids, its tick context), so this
 * poisons the names of every such member: a line of decision code that
 * names one fails to compile (gcc and clang both honour the pragma), and
 * the world is read only through the const accessors of world.h
 * (world_vehicle, world_sight, world_aim, world_racer, world_route...).
 * tick_ctx is poisoned too: no decision sees another's slot.
 * tests/source/decide-readonly.sh checks that the writes are refused; `make
 * lint` refuses a cast to a pointer to non-const in these files. */
#ifndef BOTFIELD_DECIDE_GUARD_H
#define BOTFIELD_DECIDE_GUARD_H
#pragma GCC poison vehicles racers shells overlaps events aims aim_steps sights stats
#pragma GCC poison ctx tick_ctx teams trees track route_points tree_grid vgrid
#pragma GCC poison now scratch cell_start_buf cell_item_buf cell_box_buf
#pragma GCC poison bots map_path params params_hash ids sight_intervals sight_store brain name
#endif
