/* arena.h — the arena (botfield-arena(7)): `botfield serve ARENA`, the
 * daemon, and `botfield arena-shell ARENA NAME`, the command sshd starts
 * for a person's key.  Both are entered from src/cli/main.c by their
 * first word. */
#ifndef BOTFIELD_ARENA_H
#define BOTFIELD_ARENA_H

/* argv[0] is "serve" / "arena-shell"; the exit status. */
int arena_serve_main(int argc, char **argv, const char *maps_dir);
int arena_shell_main(int argc, char **argv, const char *maps_dir);

#endif
