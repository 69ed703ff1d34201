/* decide_guard.h — included LAST by every file of decision code (see
 * decide.h).  It poisons the names of the world's writable arrays and
 * derived stores: a decision reads vehicles, racers, sight records and
 * aim records only through the const accessors of world.h, and writes
 * only its own struct decision.  A line of decision code that names one
 * of these fails to compile (gcc and clang both honour the pragma). */
#ifndef BOTFIELD_DECIDE_GUARD_H
#define BOTFIELD_DECIDE_GUARD_H
#pragma GCC poison vehicles racers shells overlaps events aims aim_steps sights stats
#endif
