/*
 * term: the terminal, through ncursesw; the only module that calls curses.
 * It paints a grid, reads keys, follows the window size, lends the terminal
 * to another program (the editor) and takes it back, and restores the
 * terminal on quit, on a fatal error, and on every signal that ends the
 * process (Ctrl-C, SIGTERM, SIGHUP, C-\\, and crashes).
 */
#ifndef NCGRIND_TERM_H
#define NCGRIND_TERM_H

#include "ncgrind/model/grid.h"
#include "ncgrind/ui/keys.h"

#include <stdbool.h>

enum { TERM_NO_TTY = -1, TERM_UNFIT = -2 };
/*
 * Start curses on the controlling terminal; 0, or with a message in err:
 * TERM_NO_TTY (standard output is not a terminal, or there is no keyboard:
 * standard input is not one and /dev/tty cannot be opened) or TERM_UNFIT (a
 * terminal terminfo does not know, or one that cannot move its cursor).
 */
int term_open(char *err, size_t errsize);
void term_close(void);
void term_size(int *rows, int *cols);
void term_paint(const struct grid *g);
/* Colour on or off (off: attributes only, as with NO_COLOR). */
void term_set_colour(bool on);
bool term_colour_wanted(void);
/* --color=always: colour even where NO_COLOR is set (no-color.org: the user's flag wins). */
void term_override_no_color(void);
/* NO_COLOR is set, not empty and not overridden: no colour, whatever term_set_colour says. */
bool term_no_color(void);
/*
 * An area's colours (a configuration file's color AREA FG BG ATTR...):
 * curses colour numbers (-1: the terminal's default) and config.h's
 * attribute bits; without colour, only attributes given take effect.
 */
void term_set_area(enum grid_attr a, int fg, int bg, unsigned attrs);
/* What term_set_area() gave area a: false when it gave nothing. */
bool term_area(enum grid_attr a, int *fg, int *bg, unsigned *attrs);
/*
 * Mouse reporting on or off (set mouse; off at start): false when the
 * terminal has none. Before the terminal starts (or in a script), what
 * term_mouse_wanted() says, and the start takes it.
 */
bool term_set_mouse(bool on);
bool term_mouse_wanted(void);
/* The event of the last KEYS_MOUSE that term_read_key() returned. */
struct mouse_event term_mouse(void);
/*
 * Give the terminal to another program (the editor) and take it back: the
 * screen and the tty's modes as the shell had them, then as they were
 * (the alternate screen, the keypad, the cursor hidden), everything to be
 * painted again. term_suspend returns the descriptor of the keyboard, for
 * the program's standard input (standard input, or /dev/tty when the
 * profile came down a pipe); -1 when no terminal is open (a script: then
 * both do nothing).
 */
int term_suspend(void);
void term_resume(void);
/*
 * In a child process of the browser (fork) that does not draw: the
 * signals' own actions again, so that nothing it meets touches the
 * parent's terminal.
 */
void term_child(void);
/* Block for the next key code (curses codes; KEY_RESIZE after a resize). */
int term_read_key(void);
/* The same, waiting at most ms milliseconds: -1 when no key came. */
int term_read_key_within(int ms);

#endif
