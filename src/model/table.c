/*
 * table: the function table's view-model. Sorting reuses the report's
 * comparison (one definition of each order); reversing is a reversal of
 * the sorted rows, so ties keep a stable, deterministic order.
 */
#include "ncgrind/model/table.h"

#include <stdio.h>
#include <stdlib.h>

/*
 * While the profile is read, the rows past the cursor and the top by this
 * many are left unsorted (more than a screen has): sorting them all ranked
 * every function's name five times a second, and the read waited for it.
 */
#define LOADING_ROWS 512

static void resort(struct table *t)
{
	uint32_t keep = table_selected(t);
	size_t n;

	free(t->rows);
	/* while the profile is read, sorted as far as the screen goes */
	if (t->loading && !t->reverse) {
		size_t first =
		    (t->nav.top > t->nav.cursor ? t->nav.top : t->nav.cursor) + LOADING_ROWS;

		t->rows =
		    report_sort_functions_first(t->p, t->sort, t->disp->event, t->keep, first, &n);
		t->sorted = first < n ? first : n;
	} else {
		t->rows = report_sort_functions(t->p, t->sort, t->disp->event, t->keep, &n);
		t->sorted = n;
	}
	if (t->limit && n > t->limit)
		n = t->limit;
	if (t->sorted > n)
		t->sorted = n;
	t->nav.count = n;
	if (t->reverse)
		for (size_t i = 0; i < n / 2; i++) {
			uint32_t tmp = t->rows[i];

			t->rows[i] = t->rows[n - 1 - i];
			t->rows[n - 1 - i] = tmp;
		}
	t->nav.cursor = 0;
	for (size_t i = 0; keep != NCG_NONE && i < n; i++)
		if (t->rows[i] == keep)
			t->nav.cursor = i;
	/*
	 * Once per order, not per frame: a draw reads the rows on the screen
	 * only. While the file is read there are no calls to show.
	 */
	t->max_calls = 0;
	if (t->loading)
		return;
	if (!t->keep && n == t->p->nfuncs) { /* every function: in their order, not the rows' */
		for (size_t f = 0; f < n; f++)
			if (t->p->funcs[f].calls > t->max_calls)
				t->max_calls = t->p->funcs[f].calls;
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (t->p->funcs[t->rows[i]].calls > t->max_calls)
			t->max_calls = t->p->funcs[t->rows[i]].calls;
}

void table_init(struct table *t, const struct profile *p, struct display *disp)
{
	memset(t, 0, sizeof(*t));
	t->p = p;
	t->disp = disp;
	t->totals = p->totals;
	/* the first screen: the hot spots, as callgrind_annotate lists them */
	t->sort = SORT_SELF;
	/*
	 * No rows yet: every caller sets its filters, then asks for them
	 * (table_refresh()). Sorted here as well, a million functions were
	 * sorted twice before the first screen (0.15 s more on 5 GiB).
	 */
}

void table_release(struct table *t)
{
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

void table_refresh(struct table *t)
{
	if (!t->loading) /* the totals may have been made again (the parts that count) */
		t->totals = t->p->totals;
	resort(t);
}

/* A new order shows its top, the cursor on the first row (as tig and htop do). */
static void to_top(struct table *t)
{
	t->nav.cursor = t->nav.top = 0;
}

void table_sort(struct table *t, enum report_sort key)
{
	t->reverse = t->sort == key ? !t->reverse : false;
	t->sort = key;
	resort(t);
	to_top(t);
}
