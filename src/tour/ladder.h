/* ladder.h — botfield --ladder and --sprt (botfield(6), LADDERS AND
 * SEQUENTIAL TESTS): games between bots on a two-team map, rated
 * (ratings.c) or tested (sprt.c).  main.c hands the whole command line
 * here when it names either option (its table has checked the modes). */
#ifndef BOTFIELD_LADDER_H
#define BOTFIELD_LADDER_H

/* The run: its exit status (--sprt: 0 NEW better, 1 not, 3 undecided;
 * 2 bad options; 4 a game failed). */
int ladder_main(int argc, char **argv, const char *maps_dir);

#endif
