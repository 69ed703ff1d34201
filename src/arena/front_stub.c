/* front_stub.c — placeholder for the daemon and arena-shell (serve.c,
 * shell.c, settings.c replace it). */
#include "arena.h"
#include "settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int arena_serve_main(int argc, char **argv, const char *maps_dir)
{
    (void)argc, (void)argv, (void)maps_dir;
    fputs("botfield serve: not built yet\n", stderr);
    return 2;
}

int arena_shell_main(int argc, char **argv, const char *maps_dir)
{
    (void)argc, (void)argv, (void)maps_dir;
    fputs("botfield arena-shell: not built yet\n", stderr);
    return 2;
}

int arena_settings_read(const char *dir, struct arena_settings *s, char **err)
{
    (void)dir;
    memset(s, 0, sizeof *s);
    *err = strdup("arena settings: not built yet\n");
    return -1;
}

void arena_settings_free(struct arena_settings *s) { (void)s; }

int arena_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n < 1 || n > 32)
        return 0;
    return strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_-") == n;
}
