/*
 * table: the function table as plain data (no curses): the functions in
 * display order, the sort, the current event, the cursor and the scroll
 * position. Movement changes numbers and returns whether
 * anything must be redrawn; it never draws.
 */
#ifndef NCGRIND_TABLE_H
#define NCGRIND_TABLE_H

#include "ncgrind/core/display.h"
#include "ncgrind/model/nav.h"
#include "ncgrind/core/profile.h"
#include "ncgrind/core/report.h"

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
	/* the percentages' base: p->totals, or while the file is read the sums so far */
	const uint64_t *totals;
	bool loading;       /* p is being read: self costs only, no inclusive costs nor calls */
	size_t sorted;      /* the first rows in their order (while loading, not all of them) */
	uint64_t max_calls; /* the most calls of a row's function: the Calls column's width */
};

/* An empty table of p: table_refresh() makes its rows. */
void table_init(struct table *t, const struct profile *p, struct display *disp);
void table_release(struct table *t);

/* The rows again, after the filters (keep) or the limit changed. */
void table_refresh(struct table *t);
/* Sort by key; the same key again reverses. The selected function stays selected. */
void table_sort(struct table *t, enum report_sort key);
static inline uint32_t table_selected(const struct table *t)
{
	return t->nav.count ? t->rows[t->nav.cursor] : NCG_NONE;
}

#endif
