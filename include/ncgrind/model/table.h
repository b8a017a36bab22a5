/*
 * table: the function table as plain data (no curses): the functions in
 * display order, the sort, the current event, the cursor and the scroll
 * position, and the search. Movement changes numbers and returns whether
 * anything must be redrawn; it never draws.
 */
#ifndef NCGRIND_TABLE_H
#define NCGRIND_TABLE_H

#include "ncgrind/core/display.h"
#include "ncgrind/model/nav.h"
#include "ncgrind/core/profile.h"
#include "ncgrind/core/report.h"

#include <regex.h>
#include <stdbool.h>

struct table {
	const struct profile *p;
	uint32_t *rows; /* function indices, in display order (nav.count of them) */
	struct nav nav; /* selected row, first row on screen */
	enum report_sort sort;
	bool reverse;
	struct display *disp; /* the event, units and percentages (the browser's) */
	int name_scroll;      /* columns the name line (below the table) is scrolled by */
	const bool *keep;     /* the filters' verdict per function, or NULL: all */
	size_t limit;         /* `top N`: at most this many rows, 0: no limit */
	bool have_search;
	regex_t search;
	/* the percentages' base: p->totals, or while the file is read the sums so far */
	const uint64_t *totals;
	bool loading; /* p is being read: self costs only, no inclusive costs nor calls */
};

void table_init(struct table *t, const struct profile *p, struct display *disp);
void table_release(struct table *t);

/* The rows again, after the filters (keep) or the limit changed. */
void table_refresh(struct table *t);
/* Sort by key; the same key again reverses. The selected function stays selected. */
void table_sort(struct table *t, enum report_sort key);
/*
 * Make event ev current (re-sorts the numeric sorts, shown from the top);
 * step: +1/-1 through the events, the cursor kept on its function (Tab
 * compares one function's events).
 */
void table_set_event(struct table *t, uint32_t ev);
void table_step_event(struct table *t, int step);

/*
 * Search function names with a POSIX extended regex (case-insensitive when
 * the pattern has no upper-case letter). Returns 0 and moves the cursor to
 * the next match (dir +1) or the previous one (-1), wrapping; -1 with a
 * message in err (a bad regex, no match).
 */
int table_search(struct table *t, const char *pattern, char *err, size_t errsize, int page);
int table_search_next(struct table *t, int dir, char *err, size_t errsize, int page);

static inline uint32_t table_selected(const struct table *t)
{
	return t->nav.count ? t->rows[t->nav.cursor] : NCG_NONE;
}

#endif
