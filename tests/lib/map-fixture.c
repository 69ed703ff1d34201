/* map-fixture.c — the test programs' one map loader (map-fixture.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "map-fixture.h"
#include "tap.h"
#include "io/map.h"

const char *fixture_map_path(const char *name)
{
    static char path[4096];
    const char *top = getenv("top_srcdir");
    snprintf(path, sizeof path, "%s/maps/%s", top ? top : ".", name);
    return path;
}

/* Notes what went wrong (the loader's own text) and frees it. */
static int noted(struct map_error *e)
{
    tap_note("%s", e->text ? e->text : "the map does not load (no message)");
    map_error_free(e);
    return -1;
}

int fixture_load_map(const char *name, struct world *w)
{
    struct map_error e = { NULL, 0 };
    return map_load(fixture_map_path(name), NULL, w, &e) ? noted(&e) : 0;
}

int fixture_load_text(const char *name, const char *text, struct world *w)
{
    struct map_error e = { NULL, 0 };
    return map_load_text(name, text, strlen(text), NULL, w, &e) ? noted(&e) : 0;
}
