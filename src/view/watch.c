/* watch.c — inotify on the map file's and the bot scripts' folders. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
# include <sys/inotify.h>
# define HAVE_INOTIFY 1
#endif

#include "watch.h"
#include "../core/world.h"

#ifdef HAVE_INOTIFY
/* Adds a watch on path's folder for its base name; quietly nothing on
 * failure (a reload is still one key away). */
static void add(struct watch *wt, const char *path, int what)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, (size_t)(slash - path + (slash == path))) : strdup(".");
    char *base = strdup(slash ? slash + 1 : path);
    struct watch_item *it = realloc(wt->items, (size_t)(wt->n + 1) * sizeof *it);
    if (it)
        wt->items = it;
    if (!dir || !base || !it) {
        free(dir);
        free(base);
        return;
    }
    /* The same folder twice gives the same descriptor: fine, items are
     * matched by descriptor and name. */
    int wd = inotify_add_watch(wt->fd, dir, IN_CLOSE_WRITE | IN_MOVED_TO
                               | IN_CREATE | IN_MODIFY);
    free(dir);
    if (wd < 0) {
        free(base);
        return;
    }
    wt->items[wt->n++] = (struct watch_item){ wd, base, what };
}
#endif

void watch_start(struct watch *wt, const char *map_path, const struct world *w,
                 const char *bundled_dir)
{
    wt->fd = -1;
    wt->items = NULL;
    wt->n = 0;
#ifdef HAVE_INOTIFY
    wt->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (wt->fd < 0)
        return;
    if (map_path)
        add(wt, map_path, WATCH_MAP);
    /* Scripts are found where bot_world_attach() finds them: in the map
     * file's folder, or with the bundled maps for the built-in one. */
    const char *slash = map_path ? strrchr(map_path, '/') : NULL;
    int dl = map_path ? (slash ? (int)(slash - map_path) : 1) : (int)strlen(bundled_dir);
    const char *dir = map_path ? (slash ? map_path : ".") : bundled_dir;
    for (size_t k = 0; w && k < w->bots.n; k++) {
        size_t len = (size_t)dl + strlen(w->bots.p[k].path) + 2;
        char *p = malloc(len);
        if (!p)
            continue;
        snprintf(p, len, "%.*s/%s", dl, dir, w->bots.p[k].path);
        add(wt, p, WATCH_BOT);
        free(p);
    }
    if (wt->n == 0) {
        close(wt->fd);
        wt->fd = -1;
    }
#else
    (void)map_path;
    (void)w;
    (void)bundled_dir;
#endif
}

int watch_read(struct watch *wt)
{
    int hit = 0;
#ifdef HAVE_INOTIFY
    if (wt->fd < 0)
        return 0;
    char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    ssize_t n;
    while ((n = read(wt->fd, buf, sizeof buf)) > 0)
        for (char *p = buf; p < buf + n;) {
            const struct inotify_event *ev = (const struct inotify_event *)p;
            for (int k = 0; ev->len && k < wt->n; k++)
                if (ev->wd == wt->items[k].wd && !strcmp(ev->name, wt->items[k].name))
                    hit |= wt->items[k].what;
            p += sizeof *ev + ev->len;
        }
#else
    (void)wt;
#endif
    return hit;
}

void watch_stop(struct watch *wt)
{
    if (wt->fd >= 0)
        close(wt->fd);
    for (int k = 0; k < wt->n; k++)
        free(wt->items[k].name);
    free(wt->items);
    wt->fd = -1;
    wt->items = NULL;
    wt->n = 0;
}
