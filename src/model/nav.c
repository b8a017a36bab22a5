/*
 * nav: cursor and scroll arithmetic, shared by the list views.
 */
#include "ncgrind/model/nav.h"

void nav_scroll(struct nav *n, int page)
{
	size_t p = page > 0 ? (size_t)page : 1;

	if (n->count && n->cursor >= n->count)
		n->cursor = n->count - 1;
	if (n->cursor < n->top)
		n->top = n->cursor;
	if (n->cursor >= n->top + p)
		n->top = n->cursor - p + 1;
	if (n->count > p && n->top > n->count - p)
		n->top = n->count - p;
	if (n->count <= p)
		n->top = 0;
}

bool nav_to(struct nav *n, size_t row, int page)
{
	size_t old = n->cursor, old_top = n->top;

	if (!n->count)
		return false;
	n->cursor = row < n->count ? row : n->count - 1;
	nav_scroll(n, page);
	return n->cursor != old || n->top != old_top;
}

bool nav_move(struct nav *n, long delta, int page)
{
	long row = (long)n->cursor + delta;

	return nav_to(n, row < 0 ? 0 : (size_t)row, page);
}

bool nav_page(struct nav *n, int dir, int page)
{
	size_t old = n->cursor, old_top = n->top, p = page > 0 ? (size_t)page : 1;
	size_t last_top = n->count > p ? n->count - p : 0;

	if (!n->count)
		return false;
	if (dir > 0) {
		n->top = n->top + p < last_top ? n->top + p : last_top;
		n->cursor = n->cursor + p < n->count ? n->cursor + p : n->count - 1;
	} else {
		n->top = n->top > p ? n->top - p : 0;
		n->cursor = n->cursor > p ? n->cursor - p : 0;
	}
	nav_scroll(n, page);
	return n->cursor != old || n->top != old_top;
}

bool nav_scroll_view(struct nav *n, long delta, int page)
{
	size_t old = n->cursor, old_top = n->top, p = page > 0 ? (size_t)page : 1;
	size_t last_top = n->count > p ? n->count - p : 0;

	if (!n->count)
		return false;
	if (delta < 0)
		n->top = n->top > (size_t)-delta ? n->top - (size_t)-delta : 0;
	else
		n->top = n->top + (size_t)delta < last_top ? n->top + (size_t)delta : last_top;
	if (n->cursor < n->top)
		n->cursor = n->top;
	if (n->cursor >= n->top + p)
		n->cursor = n->top + p - 1;
	nav_scroll(n, page);
	return n->cursor != old || n->top != old_top;
}
