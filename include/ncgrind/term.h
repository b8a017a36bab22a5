/*
 * term: the terminal, through ncursesw; the only module that calls curses.
 * It paints a grid, reads keys, follows the window size, and restores the
 * terminal on quit, on Ctrl-C and SIGTERM, and on a fatal error.
 */
#ifndef NCGRIND_TERM_H
#define NCGRIND_TERM_H

#include "ncgrind/grid.h"

#include <stdbool.h>

/* Start curses on the controlling terminal; -1 with a message in err. */
int term_open(char *err, size_t errsize);
void term_close(void);
void term_size(int *rows, int *cols);
void term_paint(const struct grid *g);
/* Colour on or off (off: attributes only, as with NO_COLOR). */
void term_set_colour(bool on);
/* Block for the next key code (curses codes; KEY_RESIZE after a resize). */
int term_read_key(void);

#endif
