/*
 * ui_search: `/`, n and N on every list screen, as less and tig search:
 * over what the rows show (a function's name, a source line, an
 * instruction), through the screen's row_text operation. The status line
 * says which match of how many the cursor is on, and when the search went
 * round the end.
 */
#include "ui_internal.h"
#include "ncgrind/core/match.h"

#include <stdio.h>

static bool row_matches(struct ui *u, struct screen *s, size_t row)
{
	char text[2048];

	return screen_ops_of(s)->row_text(u, s, row, text, sizeof(text)) &&
	       regexec(&u->search_re, text, 0, NULL, 0) == 0;
}

/* Where the match is in the row's text, for a screen that scrolls a long text to it. */
static void show_match(struct ui *u, struct screen *s, size_t row)
{
	const struct screen_ops *ops = screen_ops_of(s);
	char text[2048];
	regmatch_t m;

	if (ops->show_match && ops->row_text(u, s, row, text, sizeof(text)) &&
	    regexec(&u->search_re, text, 1, &m, 0) == 0 && m.rm_so >= 0)
		ops->show_match(u, s, row, (size_t)m.rm_so, (size_t)m.rm_eo);
}

/* "2 of 5 matches": the cursor's match among all of them, in the screen's order. */
static void say_where(struct ui *u, struct screen *s, size_t at, bool wrapped)
{
	size_t n = screen_ops_of(s)->nav(u, s)->count, before = 0, all = 0;

	u->search_pass++;
	for (size_t row = 0; row < n; row++)
		if (row_matches(u, s, row)) {
			all++;
			before += row <= at;
		}
	ui_message(u, false, "%zu of %zu match%s%s", before, all, all == 1 ? "" : "es",
		   wrapped ? " (search wrapped)" : "");
}

/* Go to the next match (dir +1) or the previous one (-1) from the cursor, round the ends. */
static void find(struct ui *u, struct screen *s, int dir, bool from_cursor)
{
	const struct screen_ops *ops = screen_ops_of(s);
	struct nav *nav = ops->nav(u, s);
	size_t n = nav->count;

	u->search_pass++;
	for (size_t i = from_cursor ? 0 : 1; i <= n && n; i++) {
		size_t row = dir > 0 ? (nav->cursor + i) % n : (nav->cursor + n - i % n) % n;

		if (row_matches(u, s, row)) {
			bool wrapped = dir > 0 ? row < nav->cursor || (i && row == nav->cursor)
					       : row > nav->cursor || (i && row == nav->cursor);

			nav_to(nav, row, ops->rows(u));
			if (ops->moved)
				ops->moved(u, s, dir);
			show_match(u, s, row);
			say_where(u, s, row, wrapped);
			return;
		}
	}
	ui_message(u, true, "nothing here matches");
}

void ui_search(struct ui *u, const char *pattern)
{
	char err[300];
	regex_t re;

	if (!*pattern)
		return;
	if (match_compile_at(&re, pattern, true, err, sizeof(err)) < 0) {
		ui_message(u, true, "%s", err);
		return;
	}
	if (u->have_search_re)
		regfree(&u->search_re);
	u->search_re = re;
	u->have_search_re = true;
	/* the row under the cursor counts too */
	if (screen_ops_of(hist_current(&u->hist))->search)
		screen_ops_of(hist_current(&u->hist))->search(u, hist_current(&u->hist), +1, true);
	else
		find(u, hist_current(&u->hist), +1, true);
}

void ui_search_next(struct ui *u, int dir)
{
	if (!u->have_search_re) {
		ui_message(u, true, "no search yet: type / and a regular expression");
		return;
	}
	if (screen_ops_of(hist_current(&u->hist))->search)
		screen_ops_of(hist_current(&u->hist))
		    ->search(u, hist_current(&u->hist), dir, false);
	else
		find(u, hist_current(&u->hist), dir, false);
}
