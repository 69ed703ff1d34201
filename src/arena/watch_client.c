/* watch_client.c — arena-shell's `watch` (watch_client.h). */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "watch_client.h"
#include "view/arena_view.h"
#include "view/follow.h"
#include "view/side_lines.h"
#include "view/view.h"

/* The daemon's first line, when it refuses this watcher (a cap): said
 * on stderr and fd closed, 1.  Else nothing is taken from the stream. */
static int refused(int fd)
{
    static const char tag[] = "{\"type\":\"refused\"";
    char buf[512];
    ssize_t n;
    do
        n = recv(fd, buf, sizeof buf - 1, MSG_PEEK);
    while (n < 0 && errno == EINTR);
    if (n < (ssize_t)sizeof tag - 1 || memcmp(buf, tag, sizeof tag - 1))
        return 0;
    n = read(fd, buf, sizeof buf - 1);
    buf[n > 0 ? n : 0] = 0;
    json_t *o = json_loads(buf, 0, NULL);
    const char *why = json_string_value(json_object_get(o, "error"));
    fprintf(stderr, "botfield: watch: %s\n", why ? why : "refused by the arena");
    json_decref(o);
    close(fd);
    return 1;
}

int arena_watch_client(int fd, const char *person, const char *maps_dir)
{
    (void)maps_dir;     /* (a recording holds its map and the scripts) */
    /* said first: the daemon's first byte comes with a live match */
    fprintf(stderr, "botfield: waiting for a live match (Ctrl-C quits)\n");
    if (refused(fd))
        return 2;
    struct view_follow *f = follow_new(fd, "the arena");
    if (f && (!(f->arena = arena_view_new(person)) || !(f->side = calloc(1, sizeof *f->side)))) {
        follow_free(f);
        f = NULL;
        fd = -1;
    }
    if (!f) {
        if (fd >= 0)
            close(fd);
        fprintf(stderr, "botfield: out of memory\n");
        return 1;
    }
    struct view_options vo = { 0 };
    vo.speed = 1;
    vo.fps = ARENA_WATCH_FPS;
    vo.rate = ARENA_WATCH_RATE;
    vo.threads = 1;
    int rc = view_follow_run(&vo, f);
    follow_free(f);
    return rc;
}
