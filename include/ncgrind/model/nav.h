/*
 * nav: a cursor and a scroll position over a list of rows, as every list
 * view has them (the function table, a function's callers and callees, a
 * call tree). Plain numbers: moving returns whether anything changed.
 */
#ifndef NCGRIND_NAV_H
#define NCGRIND_NAV_H

#include <stdbool.h>
#include <stddef.h>

struct nav {
	size_t cursor, top, count;
};

/* Keep the cursor within count and visible in a window of `page` rows. */
void nav_scroll(struct nav *n, int page);
bool nav_to(struct nav *n, size_t row, int page);
bool nav_move(struct nav *n, long delta, int page);
/* A whole page down (+1) or up (-1), the cursor with it, as less and tig do. */
bool nav_page(struct nav *n, int dir, int page);
/*
 * The view delta rows down (or up), the cursor on its row unless it would
 * leave the view (then on the nearest row in view): a mouse wheel's
 * scrolling, as tig's.
 */
bool nav_scroll_view(struct nav *n, long delta, int page);

#endif
