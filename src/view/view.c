#include "config.h"

#include <stdio.h>

#include "view.h"
#include "../core/world.h"

/* Placeholder until the viewer issue. */
int view_run(const struct view_options *o, struct world *w)
{
    (void)o;
    world_free(w);
    fprintf(stderr, "botfield: the viewer is not built yet; use --headless\n");
    return 1;
}
