/*
 * table: the function table's view-model. Sorting reuses the report's
 * comparison (one definition of each order); reversing is a reversal of
 * the sorted rows, so ties keep a stable, deterministic order.
 */
#include "ncgrind/model/table.h"
#include "ncgrind/core/match.h"

#include <stdio.h>
#include <stdlib.h>

static void resort(struct table *t)
{
	uint32_t keep = table_selected(t);
	size_t n;

	free(t->rows);
	t->rows = report_sort_functions(t->p, t->sort, t->disp->event, t->keep, &n);
	if (t->limit && n > t->limit)
		n = t->limit;
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
}

void table_init(struct table *t, const struct profile *p, struct display *disp)
{
	memset(t, 0, sizeof(*t));
	t->p = p;
	t->disp = disp;
	t->totals = p->totals;
	t->sort = SORT_SELF; /* the first screen: the hot spots, as callgrind_annotate lists them */
	resort(t);
	t->nav.cursor = t->nav.top = 0;
}

void table_release(struct table *t)
{
	free(t->rows);
	if (t->have_search)
		regfree(&t->search);
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

/* keep: the cursor stays on its function (resort keeps it), else the new order from its top */
static void set_event(struct table *t, uint32_t ev, bool keep)
{
	if (ev >= t->p->nev)
		return;
	t->disp->event = ev;
	if (t->sort == SORT_SELF || t->sort == SORT_INCL) {
		resort(t);
		if (!keep)
			to_top(t);
	}
}

void table_set_event(struct table *t, uint32_t ev)
{
	set_event(t, ev, false);
}

void table_step_event(struct table *t, int step)
{
	uint32_t n = t->p->nev;

	if (n)
		set_event(t, (uint32_t)((t->disp->event + n + (uint32_t)(step % (int)n)) % n),
			  true);
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
	for (size_t i = 1; i <= t->nav.count; i++) {
		size_t row = dir > 0
				 ? (t->nav.cursor + i) % t->nav.count
				 : (t->nav.cursor + t->nav.count - i % t->nav.count) % t->nav.count;

		if (row_matches(t, row)) {
			nav_to(&t->nav, row, page);
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
	if (t->nav.count && row_matches(t, t->nav.cursor))
		return 0;
	return table_search_next(t, +1, err, errsize, page);
}
