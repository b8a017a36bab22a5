/*
 * detail: a function's callers and callees, by the cost of their calls.
 */
#include "ncgrind/model/detail.h"

#include <stdlib.h>

/* The caller of a caller row, the callee of a callee row. */
static uint32_t other_of(const struct detail *d, const struct detail_row *r)
{
	const struct call_edge *e = &d->p->edges[r->edge];

	return r->kind == DROW_CALLER ? e->caller : e->callee;
}

static int cmp_key(const struct detail *d, const struct detail_row *x, const struct detail_row *y)
{
	const struct profile *p = d->p;

	if (d->sort == SORT_NAME) {
		struct span a = profile_name(p, p->funcs[other_of(d, x)].name);
		struct span b = profile_name(p, p->funcs[other_of(d, y)].name);
		size_t n = a.len < b.len ? a.len : b.len;
		int c = memcmp(a.ptr, b.ptr, n);

		return c ? c : (a.len > b.len) - (a.len < b.len);
	}
	if (d->sort == SORT_CALLS) {
		uint64_t cx = p->edges[x->edge].count, cy = p->edges[y->edge].count;

		return (cx < cy) - (cx > cy);
	}
	{ /* the cost shown: its share of the caller (graph.h), not the recorded cost */
		uint64_t cx = graph_call_cost(p, d->g, x->edge, d->event);
		uint64_t cy = graph_call_cost(p, d->g, y->edge, d->event);

		return (cx < cy) - (cx > cy);
	}
}

/* By the key of detail d (reversed if asked), then by the edge: the same order every time. */
static int cmp_rows(const void *a, const void *b, void *d)
{
	const struct detail_row *x = a, *y = b;
	int c = cmp_key(d, x, y);

	if (((const struct detail *)d)->reverse)
		c = -c;
	return c ? c : (x->edge > y->edge) - (x->edge < y->edge);
}

/* Sort the rows of each section (a heading, then its rows). */
static void sort_sections(struct detail *d)
{
	size_t i = 0;

	while (i < d->nav.count) {
		size_t j = i + 1;

		while (j < d->nav.count && d->rows[j].kind != DROW_CALLERS &&
		       d->rows[j].kind != DROW_CALLEES)
			j++;
		sort_with(d->rows + i + 1, j - i - 1, sizeof(*d->rows), cmp_rows, d);
		i = j;
	}
}

/*
 * A section of callers or callees, each with where its first call is. The
 * calls are in the callers' blocks: each caller's are read once (for the
 * callees, that is the function's own, once for all of them).
 */
static void add_section(struct detail *d, size_t *n, enum detail_row_kind head,
			const uint32_t *edges, size_t count)
{
	struct detail_row *rows = d->rows + *n;
	struct call_sites cs;

	call_sites_init(&cs);
	rows[0] = (struct detail_row){head, NCG_NONE, NCG_NONE, 0, 0};
	for (size_t i = 0; i < count; i++) {
		const struct call_edge *e = &d->p->edges[edges[i]];
		const struct call_site *s;
		size_t ns;

		call_sites_for(&cs, d->p, e->caller);
		ns = call_sites_of(&cs, e->callee, &s);
		rows[1 + i] = (struct detail_row){head + 1, edges[i], ns ? s[0].file : NCG_NONE,
						  ns ? s[0].line : 0, ns ? (uint32_t)(ns - 1) : 0};
	}
	call_sites_release(&cs);
	*n += 1 + count;
}

void detail_init(struct detail *d, const struct profile *p, const struct callgraph *g, uint32_t fn,
		 uint32_t event)
{
	size_t in = g->in_start[fn + 1] - g->in_start[fn];
	size_t out = g->out_start[fn + 1] - g->out_start[fn], n = 0;

	memset(d, 0, sizeof(*d));
	d->p = p;
	d->g = g;
	d->fn = fn;
	d->event = event;
	d->rows = xmalloc_array(in + out + 2, sizeof(*d->rows));
	add_section(d, &n, DROW_CALLERS, g->in_edge + g->in_start[fn], in);
	add_section(d, &n, DROW_CALLEES, g->out_edge + g->out_start[fn], out);
	d->nav.count = n;
	d->sort = SORT_INCL;
	sort_sections(d);
	detail_move(d, 0, 1);
}

void detail_order(struct detail *d, enum report_sort key, bool reverse, int page)
{
	d->sort = key;
	d->reverse = reverse;
	sort_sections(d);
	d->nav.cursor = d->nav.top = 0;
	detail_move(d, 0, page);
}

void detail_sort(struct detail *d, enum report_sort key, int page)
{
	detail_order(d, key, d->sort == key ? !d->reverse : false, page);
}

void detail_release(struct detail *d)
{
	free(d->rows);
	memset(d, 0, sizeof(*d));
}

static bool is_heading(const struct detail *d, size_t row)
{
	return d->rows[row].kind == DROW_CALLERS || d->rows[row].kind == DROW_CALLEES;
}

/* The first row from `from` on, going dir, that is not a heading; -1 if none. */
static long find_row(const struct detail *d, size_t from, long dir)
{
	for (long i = (long)from; i >= 0 && i < (long)d->nav.count; i += dir)
		if (!is_heading(d, (size_t)i))
			return i;
	return -1;
}

bool detail_move(struct detail *d, long delta, int page)
{
	struct nav old = d->nav;

	nav_move(&d->nav, delta, page);
	detail_settle(d, delta < 0 ? -1 : 1, page);
	return d->nav.cursor != old.cursor || d->nav.top != old.top;
}

void detail_settle(struct detail *d, int dir, int page)
{
	long r;

	if (d->nav.count && is_heading(d, d->nav.cursor)) {
		/* step off a heading the way we were going, or back at the end */
		r = find_row(d, d->nav.cursor, dir);
		if (r < 0)
			r = find_row(d, d->nav.cursor, -dir);
		if (r >= 0)
			d->nav.cursor = (size_t)r;
	}
	nav_scroll(&d->nav, page);
	/* keep the first heading in sight while the first row is selected */
	if (d->nav.cursor <= 1)
		d->nav.top = 0;
}

uint32_t detail_target(const struct detail *d)
{
	const struct detail_row *r = &d->rows[d->nav.cursor];

	if (r->kind == DROW_CALLER)
		return d->p->edges[r->edge].caller;
	if (r->kind == DROW_CALLEE)
		return d->p->edges[r->edge].callee;
	return NCG_NONE;
}
