/* watch_client.c — arena-shell's `watch` (watch_client.h). */
#include "config.h"

#include <stdio.h>
#include <unistd.h>

#include "watch_client.h"
#include "view/follow.h"
#include "view/view.h"

int arena_watch_client(int fd, const char *person, const char *maps_dir)
{
    (void)person;       /* (the daemon filtered what it sends by it) */
    (void)maps_dir;     /* (a recording holds its map and the scripts) */
    struct view_follow *f = follow_new(fd, "the arena");
    if (!f) {
        close(fd);
        fprintf(stderr, "botfield: out of memory\n");
        return 1;
    }
    fprintf(stderr, "botfield: waiting for a live match (Ctrl-C quits)\n");
    struct view_options vo = { 0 };
    vo.speed = 1;
    vo.fps = ARENA_WATCH_FPS;
    vo.rate = ARENA_WATCH_RATE;
    vo.threads = 1;
    int rc = view_follow_run(&vo, f);
    follow_free(f);
    return rc;
}
