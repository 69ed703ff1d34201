/* tui.h — the one place that picks the curses header (as htop does), so the
 * rest of src/view/ includes "tui.h" and never a curses header directly.
 *
 * configure prefers ncursesw (wide characters: braille dots, arrows); with a
 * narrow curses the viewer still works, drawing plain ASCII.  TUI_WIDE says
 * whether the wide-character calls (cchar_t, setcchar, add_wch) exist. */
#ifndef BOTFIELD_TUI_H
#define BOTFIELD_TUI_H

#include "config.h"

#ifdef HAVE_NCURSESW
/* Ask for the X/Open wide-character API whatever feature macros the build
 * happened to set. */
# ifndef NCURSES_WIDECHAR
#  define NCURSES_WIDECHAR 1
# endif
#endif

#if defined(HAVE_NCURSESW) && defined(HAVE_NCURSESW_CURSES_H)
# include <ncursesw/curses.h>
#elif defined(HAVE_NCURSES_H)
# include <ncurses.h>
#elif defined(HAVE_CURSES_H)
# include <curses.h>
#else
# error "no curses header found (configure checks for ncursesw/curses.h, ncurses.h, curses.h)"
#endif

#if defined(HAVE_NCURSESW) && defined(WACS_BLOCK) && defined(CCHARW_MAX)
# define TUI_WIDE 1
#else
# define TUI_WIDE 0
#endif

#endif
