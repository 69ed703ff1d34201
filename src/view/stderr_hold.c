/* stderr_hold.c — see stderr_hold.h. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "stderr_hold.h"

/* A sanitizer's report goes to stderr and its process may end with
 * _exit(): the death callback gives it back first. */
#if defined(__SANITIZE_ADDRESS__)
# define DEATH_CALLBACK 1
#elif defined(__has_feature)
# if __has_feature(address_sanitizer)
#  define DEATH_CALLBACK 1
# endif
#endif
#ifdef DEATH_CALLBACK
# include <sanitizer/common_interface_defs.h>
#endif

static volatile sig_atomic_t held_fd = -1, real_fd = -1;
static FILE *held;

void stderr_hold_start(void)
{
    if (real_fd >= 0 || !isatty(STDERR_FILENO))
        return;
    fflush(stderr);
    held = tmpfile();
    if (!held)
        return;
    int saved = dup(STDERR_FILENO);
    if (saved < 0 || dup2(fileno(held), STDERR_FILENO) < 0) {
        if (saved >= 0)
            close(saved);
        fclose(held);
        held = NULL;
        return;
    }
    held_fd = fileno(held);
    real_fd = saved;
#ifdef DEATH_CALLBACK
    __sanitizer_set_death_callback(stderr_hold_release_in_signal);
#endif
}

/* Only async-signal-safe calls: dup2, close, pread, write. */
void stderr_hold_release_in_signal(void)
{
    int real = real_fd, h = held_fd;
    if (real < 0)
        return;
    real_fd = -1;
    dup2(real, STDERR_FILENO);
    close(real);
    char buf[4096];
    off_t at = 0;
    ssize_t n;
    while ((n = pread(h, buf, sizeof buf, at)) > 0) {
        at += n;
        for (ssize_t done = 0; done < n;) {
            ssize_t w = write(STDERR_FILENO, buf + done, (size_t)(n - done));
            if (w <= 0)
                return;
            done += w;
        }
    }
}

void stderr_hold_end(void)
{
    if (real_fd < 0)
        return;
    fflush(stderr);
    stderr_hold_release_in_signal();
    fclose(held);
    held = NULL;
    held_fd = -1;
}
