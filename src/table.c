/*
 * table: the function table's view-model. Sorting reuses the report's
 * comparison (one definition of each order); reversing is a reversal of
 * the sorted rows, so ties keep a stable, deterministic order.
 */
#include "ncgrind/table.h"
#include "ncgrind/match.h"

#include <stdio.h>
#include <stdlib.h>

static void resort(struct table *t)
{
	uint32_t keep = table_selected(t);
	size_t n;

	free(t->rows);
	t->rows = report_sort_functions(t->p, t->sort, t->event, &n);
	t->nrows = n;
	if (t->reverse)
		for (size_t i = 0; i < n / 2; i++) {
			uint32_t tmp = t->rows[i];

			t->rows[i] = t->rows[n - 1 - i];
			t->rows[n - 1 - i] = tmp;
		}
	t->cursor = 0;
	for (size_t i = 0; keep != NCG_NONE && i < n; i++)
		if (t->rows[i] == keep)
			t->cursor = i;
}

void table_init(struct table *t, const struct profile *p)
{
	memset(t, 0, sizeof(*t));
	t->p = p;
	t->sort = SORT_SELF; /* the first screen: the hot spots, as callgrind_annotate lists them */
	t->show_percent = true;
	resort(t);
	t->cursor = t->top = 0;
}

void table_release(struct table *t)
{
	free(t->rows);
	if (t->have_search)
		regfree(&t->search);
	memset(t, 0, sizeof(*t));
}

void table_sort(struct table *t, enum report_sort key)
{
	t->reverse = t->sort == key ? !t->reverse : false;
	t->sort = key;
	resort(t);
}

void table_set_event(struct table *t, uint32_t ev)
{
	if (ev >= t->p->nev)
		return;
	t->event = ev;
	if (t->sort == SORT_SELF || t->sort == SORT_INCL)
		resort(t);
}

void table_step_event(struct table *t, int step)
{
	uint32_t n = t->p->nev;

	if (n)
		table_set_event(t, (uint32_t)((t->event + n + (uint32_t)(step % (int)n)) % n));
}

void table_scroll(struct table *t, int page)
{
	if (page < 1)
		page = 1;
	if (t->cursor < t->top)
		t->top = t->cursor;
	if (t->cursor >= t->top + (size_t)page)
		t->top = t->cursor - (size_t)page + 1;
	if (t->nrows > (size_t)page && t->top > t->nrows - (size_t)page)
		t->top = t->nrows - (size_t)page;
}

bool table_move_to(struct table *t, size_t row, int page)
{
	size_t old = t->cursor, old_top = t->top;

	if (!t->nrows)
		return false;
	t->cursor = row < t->nrows ? row : t->nrows - 1;
	table_scroll(t, page);
	return t->cursor != old || t->top != old_top;
}

bool table_page(struct table *t, int dir, int page)
{
	size_t old = t->cursor, old_top = t->top, n = (size_t)(page > 0 ? page : 1);
	size_t last_top = t->nrows > n ? t->nrows - n : 0;

	if (!t->nrows)
		return false;
	if (dir > 0) {
		t->top = t->top + n < last_top ? t->top + n : last_top;
		t->cursor = t->cursor + n < t->nrows ? t->cursor + n : t->nrows - 1;
	} else {
		t->top = t->top > n ? t->top - n : 0;
		t->cursor = t->cursor > n ? t->cursor - n : 0;
	}
	table_scroll(t, page);
	return t->cursor != old || t->top != old_top;
}

bool table_move(struct table *t, long delta, int page)
{
	long row = (long)t->cursor + delta;

	if (row < 0)
		row = 0;
	return table_move_to(t, (size_t)row, page);
}

static bool row_matches(const struct table *t, size_t row)
{
	return match_name(&t->search, profile_name(t->p, t->p->funcs[t->rows[row]].name));
}

int table_search_next(struct table *t, int dir, char *err, size_t errsize, int page)
{
	if (!t->have_search) {
		snprintf(err, errsize, "no search yet: type / and a regular expression");
		return -1;
	}
	for (size_t i = 1; i <= t->nrows; i++) {
		size_t row = dir > 0 ? (t->cursor + i) % t->nrows
				     : (t->cursor + t->nrows - i % t->nrows) % t->nrows;

		if (row_matches(t, row)) {
			table_move_to(t, row, page);
			return 0;
		}
	}
	snprintf(err, errsize, "no function matches");
	return -1;
}

int table_search(struct table *t, const char *pattern, char *err, size_t errsize, int page)
{
	regex_t re;

	if (match_compile(&re, pattern, err, errsize) < 0)
		return -1;
	if (t->have_search)
		regfree(&t->search);
	t->search = re;
	t->have_search = true;
	/* the current row counts too: search from just before it */
	if (t->nrows && row_matches(t, t->cursor))
		return 0;
	return table_search_next(t, +1, err, errsize, page);
}
