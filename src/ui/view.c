/*
 * view: the screens, drawn into a grid. The function table's layout adapts
 * to the width: the file column appears on wide terminals, and on narrow
 * ones the percentages, then exact numbers, then the call counts give way,
 * so that the name always keeps room; names too long are shortened (fmt.c)
 * and shown whole on the name line below the table.
 */
#include "ncgrind/ui/view.h"
#include "ncgrind/core/commands.h"
#include "ncgrind/model/fmt.h"
#include "ncgrind/model/shorten.h"
#include "ncgrind/ui/list.h"

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define HEAD_ROWS 3

struct layout {
	bool incl; /* an Incl column: not where the file records no calls */
	/* the self costs of the other events of :set columns, as many as have room */
	uint32_t ext[DISPLAY_MAX_COLUMNS];
	int extw[DISPLAY_MAX_COLUMNS];
	struct span names[DISPLAY_MAX_COLUMNS];
	int next;
	int num;        /* width of a cost */
	int pct;        /* width of a percentage, 0: none */
	int calls;      /* width of the calls column, 0: none */
	int name, file; /* widths; file 0: none */
	bool short_units;
	uint64_t unit_ps;
};

/* The widest short value: 99.9K, or a time, 99.9ms (a smaller total may be wider: 999us). */
static int short_width(uint64_t unit_ps)
{
	return unit_ps ? 6 : 5;
}

static bool has_name_line(const struct grid *g)
{
	return g->rows >= 10;
}

int view_table_rows(const struct grid *g)
{
	int r = g->rows - HEAD_ROWS - 1 - (has_name_line(g) ? 2 : 0);

	return r > 1 ? r : 1;
}

static int text_width(const char *s)
{
	return grid_width(s, strlen(s));
}

static int put_right(struct grid *g, int r, int c, int w, const char *s, enum grid_attr a)
{
	int sw = text_width(s);

	return grid_put(g, r, c + (sw < w ? w - sw : 0), s, strlen(s), w, a);
}

/* The base of event e's percentages: its total; none for a ratio (a share of it means nothing). */
static uint64_t pct_total(const struct profile *p, uint32_t e, uint64_t total)
{
	return e < p->nev && p->events[e].ratio ? 0 : total;
}

static uint64_t max_calls(const struct table *t)
{
	uint64_t m = 0;

	for (size_t i = 0; i < t->nav.count; i++)
		if (t->p->funcs[t->rows[i]].calls > m)
			m = t->p->funcs[t->rows[i]].calls;
	return m;
}

/* Columns used by everything but the name. */
static int fixed_width(const struct layout *L)
{
	int cost = L->num + (L->pct ? L->pct + 1 : 0) + 2;

	int ext = 0;

	for (int i = 0; i < L->next; i++)
		ext += L->extw[i] + 2;
	return (L->incl ? 2 : 1) * cost + ext + (L->calls ? L->calls + 2 : 0) +
	       (L->file ? L->file + 2 : 0);
}

/* The other events of :set columns: each as wide as its name or its total. */
static void layout_extra(const struct table *t, struct layout *L)
{
	char buf[FMT_NUM];

	L->next = 0;
	for (uint32_t i = 0; i < t->disp->ncolumns; i++) {
		uint32_t e = t->disp->columns[i];
		int w;

		if (e == t->disp->event || e >= t->p->nev)
			continue;
		w = text_width(
		    fmt_value(buf, t->totals[e], L->short_units, fmt_event_unit(t->p, e)));
		if ((int)t->p->events[e].name.len > w)
			w = (int)t->p->events[e].name.len;
		L->ext[L->next] = e;
		L->names[L->next] = t->p->events[e].name;
		L->extw[L->next++] = w < 4 ? 4 : w;
	}
}

static void layout_columns(const struct grid *g, const struct table *t, struct layout *L)
{
	char buf[FMT_NUM];
	uint64_t total = t->p->nev ? t->totals[t->disp->event] : 0;

	L->short_units = t->disp->short_units;
	L->unit_ps = t->disp->unit_ps;
	L->incl = profile_has_calls(t->p) && !t->loading; /* inclusive costs come at the end */
	L->num = text_width(fmt_value(buf, total, L->short_units, L->unit_ps));
	L->num = L->num < 4 ? 4 : L->num;
	L->pct = t->disp->show_percent ? 6 : 0;
	L->calls = text_width(fmt_commas(buf, max_calls(t)));
	L->calls = !L->incl ? 0 : L->calls < 5 ? 5 : L->calls;
	L->file = g->cols >= 120 ? (g->cols - 60) / 3 : 0;
	layout_extra(t, L);
	/* give way, in this order, until the name has room: the other events first (they
	 * leave the name twice its least room) */
	while (L->next && g->cols - fixed_width(L) < 2 * VIEW_MIN_NAME)
		L->next--;
	if (g->cols - fixed_width(L) < VIEW_MIN_NAME)
		L->pct = 0;
	if (g->cols - fixed_width(L) < VIEW_MIN_NAME && !L->short_units) {
		L->short_units = true;
		L->num = text_width(fmt_value(buf, total, true, L->unit_ps));
	}
	/* short units print up to 9,999 whole and 99.9K: five columns whatever the total */
	if (L->short_units && L->num < short_width(L->unit_ps))
		L->num = short_width(L->unit_ps);
	if (g->cols - fixed_width(L) < VIEW_MIN_NAME)
		L->calls = 0;
	L->name = g->cols - fixed_width(L);
	if (L->name < 1)
		L->name = 1;
}

/*
 * After the title, what the filters keep and how much of the profile that
 * is. The counts are what a filter is for: where the line is too short, the
 * filters' text gives way (cut with …), not they.
 */
static void draw_filters(struct grid *g, int c, const struct table *t, const char *filters)
{
	uint64_t self = 0,
		 total = t->p->nev ? pct_total(t->p, t->disp->event, t->totals[t->disp->event]) : 0;
	size_t n = 0;
	char pct[FMT_NUM], counts[160];
	int room;

	for (uint32_t f = 0; f < t->p->nfuncs; f++)
		if (profile_function_used(t->p, f) && (!t->keep || t->keep[f])) {
			u64_add_sat(&self, profile_self_at(t->p, f, t->disp->event));
			n++;
		}
	snprintf(counts, sizeof(counts), ": %zu function%s, %s of the self cost]", n,
		 n == 1 ? "" : "s", fmt_percent(pct, self, total));
	c += grid_puts(g, 0, c, "  [", ATTR_HOT);
	room = g->cols - c - text_width(counts);
	if (text_width(filters) <= room) {
		c += grid_puts(g, 0, c, filters, ATTR_HOT);
	} else {
		c += grid_put(g, 0, c, filters, strlen(filters), room - 1, ATTR_HOT);
		c += grid_puts(g, 0, c, "\xe2\x80\xa6", ATTR_HOT); /* … */
	}
	grid_puts(g, 0, c, counts, ATTR_HOT);
}

static void draw_title(struct grid *g, const struct table *t, const struct view_state *vs)
{
	const struct part *pt = t->p->nparts ? &t->p->parts[0] : NULL;
	char buf[FMT_NUM], line[512];
	int c;

	grid_fill(g, 0, 0, ATTR_TITLE);
	c = grid_puts(g, 0, 0, "ncgrind: ", ATTR_TITLE);
	c += grid_puts(g, 0, c, vs->path, ATTR_TITLE);
	if (vs->filters[0]) {
		draw_filters(g, c, t, vs->filters);
	} else if (pt && pt->cmd.len) {
		c += grid_puts(g, 0, c, "  cmd: ", ATTR_TITLE);
		grid_put(g, 0, c, pt->cmd.ptr, pt->cmd.len, g->cols, ATTR_TITLE);
	}
	grid_fill(g, 1, 0, ATTR_NORMAL);
	c = grid_puts(g, 1, 0, "Events:", ATTR_NORMAL);
	for (uint32_t e = 0; e < t->p->nev; e++) {
		struct span n = t->p->events[e].name;
		bool cur = e == t->disp->event;

		c += grid_puts(g, 1, c, cur ? " [" : " ", ATTR_NORMAL);
		c += grid_put(g, 1, c, n.ptr, n.len, g->cols, cur ? ATTR_HOT : ATTR_NORMAL);
		if (cur)
			c += grid_puts(g, 1, c, "]", ATTR_NORMAL);
	}
	if (t->p->nev) {
		struct span n = t->p->events[t->disp->event].name;

		char parts[48];

		snprintf(parts, sizeof(parts), "%zu", t->p->nparts);
		if (t->p->part_sel) /* some parts count (P): how many of them */
			snprintf(parts, sizeof(parts), "%zu of %zu", profile_parts_counted(t->p),
				 t->p->nparts);
		snprintf(line, sizeof(line), "   Total %.*s: %s   Parts: %s", (int)n.len, n.ptr,
			 fmt_value(buf, t->totals[t->disp->event], t->disp->short_units,
				   t->disp->unit_ps),
			 parts);
		grid_puts(g, 1, c, line, ATTR_NORMAL);
	}
}

static int draw_head_cost(struct grid *g, int c, const struct layout *L, const char *title)
{
	put_right(g, 2, c, L->num, title, ATTR_HEAD);
	c += L->num;
	if (L->pct) {
		put_right(g, 2, c + 1, L->pct, "%", ATTR_HEAD);
		c += L->pct + 1;
	}
	return c + 2;
}

static void draw_heads(struct grid *g, const struct layout *L)
{
	int c = 0;

	grid_fill(g, 2, 0, ATTR_HEAD);
	if (L->incl)
		c = draw_head_cost(g, c, L, "Incl");
	c = draw_head_cost(g, c, L, "Self");
	for (int i = 0; i < L->next; i++) {
		char name[64];

		snprintf(name, sizeof(name), "%.*s", (int)L->names[i].len, L->names[i].ptr);
		put_right(g, 2, c, L->extw[i], name, ATTR_HEAD);
		c += L->extw[i] + 2;
	}
	if (L->calls) {
		put_right(g, 2, c, L->calls, "Calls", ATTR_HEAD);
		c += L->calls + 2;
	}
	grid_puts(g, 2, c, "Function", ATTR_HEAD);
	if (L->file)
		grid_puts(g, 2, g->cols - L->file, "File", ATTR_HEAD);
}

static int draw_cost(struct grid *g, int r, int c, const struct layout *L, uint64_t v,
		     uint64_t total, enum grid_attr a)
{
	char buf[FMT_NUM];

	put_right(g, r, c, L->num, fmt_value(buf, v, L->short_units, L->unit_ps), a);
	c += L->num;
	if (L->pct) {
		put_right(g, r, c + 1, L->pct, fmt_percent(buf, v, total), a);
		c += L->pct + 1;
	}
	return c + 2;
}

/* Byte offset in s after skipping `cols` columns. */
static size_t skip_columns(const char *s, size_t n, int cols)
{
	size_t i = 0;

	while (i < n && grid_width(s, i) < cols)
		i++;
	return i;
}

/* A path keeps its end, where the file name is: "…/src/recur.c". */
static void draw_file(struct grid *g, int r, int c, int w, struct span file, enum grid_attr a)
{
	int over = grid_width(file.ptr, file.len) - w;
	size_t skip;

	if (over <= 0) {
		grid_put(g, r, c, file.ptr, file.len, w, a);
		return;
	}
	skip = skip_columns(file.ptr, file.len, over + 1);
	c += grid_puts(g, r, c, "\xe2\x80\xa6", a);
	grid_put(g, r, c, file.ptr + skip, file.len - skip, w - 1, a);
}

static void draw_row(struct grid *g, int r, const struct table *t, size_t row,
		     const struct layout *L, const char *name)
{
	const struct profile *p = t->p;
	uint32_t f = t->rows[row];
	const struct function *fn = &p->funcs[f];
	enum grid_attr a = row == t->nav.cursor ? ATTR_CURSOR : ATTR_NORMAL;
	uint64_t total = pct_total(p, t->disp->event, t->totals[t->disp->event]);
	char buf[FMT_NUM];
	size_t cut;
	int c;

	grid_fill(g, r, 0, a);
	c = L->incl ? draw_cost(g, r, 0, L, profile_incl_at(p, f, t->disp->event), total, a) : 0;
	c = draw_cost(g, r, c, L, profile_self_at(p, f, t->disp->event), total, a);
	for (int i = 0; i < L->next; i++) {
		put_right(g, r, c, L->extw[i],
			  fmt_value(buf, profile_self_at(p, f, L->ext[i]), L->short_units,
				    fmt_event_unit(p, L->ext[i])),
			  a);
		c += L->extw[i] + 2;
	}
	if (L->calls) {
		put_right(g, r, c, L->calls, fmt_commas(buf, fn->calls), a);
		c += L->calls + 2;
	}
	/* the <cycle N> the shortening kept is dim */
	snprintf(buf, sizeof(buf), " <cycle %" PRIu32 ">", profile_cycle(p, f));
	cut = strlen(name);
	if (profile_cycle(p, f) && cut >= strlen(buf) && !strcmp(name + cut - strlen(buf), buf))
		cut -= strlen(buf);
	c += grid_put(g, r, c, name, cut, L->name, a);
	grid_put(g, r, c, name + cut, strlen(name + cut), L->name, a == ATTR_CURSOR ? a : ATTR_DIM);
	(void)fn;
	if (L->file)
		draw_file(g, r, g->cols - L->file, L->file, profile_name(p, fn->file),
			  a == ATTR_CURSOR ? a : ATTR_DIM);
}

static void draw_name_line(struct grid *g, const struct table *t, int r)
{
	uint32_t f = table_selected(t);
	const struct function *fn;
	struct span name, file, obj;
	char line[1024], calls[FMT_NUM + 8];
	size_t skip;

	grid_fill(g, r, 0, ATTR_NORMAL);
	grid_fill(g, r + 1, 0, ATTR_DIM);
	if (f == NCG_NONE)
		return;
	fn = &t->p->funcs[f];
	name = fn->name == NCG_NONE ? span_make("(unknown)", 9) : profile_name(t->p, fn->name);
	skip = skip_columns(name.ptr, name.len, t->name_scroll);
	if (skip)
		grid_puts(g, r, 0, "<", ATTR_DIM);
	grid_put(g, r, skip ? 1 : 0, name.ptr + skip, name.len - skip, g->cols - (skip ? 1 : 0),
		 ATTR_NORMAL);
	if (grid_width(name.ptr + skip, name.len - skip) > g->cols - (skip ? 1 : 0))
		grid_puts(g, r, g->cols - 1, ">", ATTR_DIM);
	file = profile_name(t->p, fn->file);
	obj = profile_name(t->p, fn->object);
	if (profile_has_calls(t->p) && !t->loading)
		snprintf(line, sizeof(line), "called %s%s  file: %.*s  object: %.*s",
			 fmt_times(calls, fn->calls), fn->recursive ? " (recursive)" : "",
			 (int)file.len, file.ptr, (int)obj.len, obj.ptr);
	else
		snprintf(line, sizeof(line), "file: %.*s  object: %.*s", (int)file.len, file.ptr,
			 (int)obj.len, obj.ptr);
	grid_put(g, r + 1, 0, line, strlen(line), g->cols, ATTR_DIM);
}

/* The input line: ':' or '/', the text, the cursor shown as a reversed cell. */
static void draw_prompt(struct grid *g, const struct view_state *vs)
{
	int r = g->rows - 1, c;
	char lead[2] = {vs->prompt_char, '\0'};

	grid_fill(g, r, 0, ATTR_STATUS);
	c = grid_puts(g, r, 0, lead, ATTR_STATUS);
	grid_put(g, r, c, vs->prompt, vs->prompt_len, g->cols - 2, ATTR_STATUS);
	c += grid_width(vs->prompt, vs->prompt_cursor);
	if (c < g->cols) {
		/* the cursor: "_" at the end, else the cell under it reversed */
		if (vs->prompt_cursor >= vs->prompt_len)
			grid_puts(g, r, c, "_", ATTR_STATUS);
		else
			g->cells[r * g->cols + c].attr = ATTR_NORMAL;
	}
	if (vs->message[0] && r > 0) {
		/* completion candidates above the line */
		grid_fill(g, r - 1, 0, ATTR_DIM);
		grid_puts(g, r - 1, 0, vs->message, ATTR_DIM);
	}
}

static void draw_status(struct grid *g, const struct table *t, const struct view_state *vs)
{
	int r = g->rows - 1, c;
	char line[512];

	grid_fill(g, r, 0, ATTR_STATUS);
	if (vs->prompting) {
		draw_prompt(g, vs);
		return;
	}
	snprintf(line, sizeof(line), "%zu/%zu  sort: %s%s%.*s%s",
		 t->nav.count ? t->nav.cursor + 1 : 0, t->nav.count, report_sort_name(t->sort),
		 t->sort == SORT_SELF || t->sort == SORT_INCL ? " " : "",
		 t->sort == SORT_SELF || t->sort == SORT_INCL
		     ? (int)t->p->events[t->disp->event].name.len
		     : 0,
		 t->p->events[t->disp->event].name.ptr, t->reverse ? " (reversed)" : "");
	if (vs->message[0] && text_width(line) + 3 + text_width(vs->message) > g->cols) {
		/* a narrow screen: the message matters more than the position */
		grid_puts(g, r, 0, vs->message, vs->message_is_error ? ATTR_ERROR : ATTR_STATUS);
		return;
	}
	c = grid_puts(g, r, 0, line, ATTR_STATUS);
	if (vs->message[0])
		grid_puts(g, r, c + 3, vs->message,
			  vs->message_is_error ? ATTR_ERROR : ATTR_STATUS);
	else
		grid_put(g, r, c + 3, "? help  q quit", 14, g->cols, ATTR_STATUS);
}

int view_table_columns_shown(const struct grid *g, const struct table *t)
{
	struct layout L;

	layout_columns(g, t, &L);
	return L.next;
}

void view_draw_table(struct grid *g, const struct table *t, const struct view_state *vs)
{
	struct layout L;
	int rows = view_table_rows(g);
	size_t n = t->nav.top < t->nav.count ? t->nav.count - t->nav.top : 0;
	struct shorten_set names;

	grid_clear(g);
	layout_columns(g, t, &L);
	draw_title(g, t, vs);
	draw_heads(g, &L);
	/* the rows in view are shortened together, so that no two read the same */
	shorten_set_init(&names, n < (size_t)rows ? n : (size_t)rows);
	for (size_t i = 0; i < names.n; i++) {
		shorten_set_function(&names, i, t->p, t->rows[t->nav.top + i], L.name, NULL);
		if (L.file) /* (the file column tells them apart) */
			names.rows[i].file = span_make("", 0);
	}
	shorten_set_apply(&names);
	for (size_t i = 0; i < names.n; i++)
		draw_row(g, HEAD_ROWS + (int)i, t, t->nav.top + i, &L, shorten_set_out(&names, i));
	shorten_set_release(&names);
	if (!t->nav.count)
		grid_puts(g, HEAD_ROWS, 0, "(no functions)", ATTR_DIM);
	if (has_name_line(g))
		draw_name_line(g, t, g->rows - 3);
	draw_status(g, t, vs);
}

/* ---- a function's callers and callees, and call trees ----------------- */

int view_list_rows(const struct grid *g)
{
	int r = g->rows - VIEW_LIST_HEAD - 1;

	return r > 1 ? r : 1;
}

/*
 * The columns of the callers/callees and tree screens (list.h): a cost, its
 * share of the total (or root), its share of the function (or parent), the
 * calls, the other events of :set columns, then the name; on the callers
 * and callees screen the call site after the name. On a narrow screen they
 * give way so that the name keeps VIEW_MIN_NAME columns, as in the table:
 * the other events first (they leave it twice that), the call site, the
 * percentages, exact numbers, the calls.
 */
#define PCT_W 7    /* " 48.78%" */
#define CALLS_W 10 /* "        1" and a blank */

/* A cost column as wide as widest (and a short value) in exact and in short units. */
static void cost_widths(uint64_t widest, bool short_units, uint64_t unit_ps, int *w, int *sw)
{
	char buf[FMT_NUM];

	*w = text_width(fmt_value(buf, widest, short_units, unit_ps));
	*sw = text_width(fmt_value(buf, widest, true, unit_ps));
	*w = *w < short_width(unit_ps) ? short_width(unit_ps) : *w;
	*sw = *sw < short_width(unit_ps) ? short_width(unit_ps) : *sw;
}

void view_calls_columns(struct list *l, const struct grid *g, const struct view_ctx *t,
			const char *const titles[3], uint64_t widest, bool site,
			const uint64_t *ext_widest)
{
	const struct profile *p = t->p;
	int w, sw;

	list_init(l, t->disp->short_units, 2);
	cost_widths(widest, t->disp->short_units, t->disp->unit_ps, &w, &sw);
	list_add(l, titles[0], w, sw, 0, true, 0, 0);
	list_add(l, titles[1], PCT_W, 0, 1, true, 3, VIEW_MIN_NAME);
	list_add(l, titles[2], PCT_W, 0, 1, true, 4, VIEW_MIN_NAME);
	list_add(l, "Calls", CALLS_W, 0, 0, true, 6, VIEW_MIN_NAME);
	/* the call site follows the name: no width of its own, but it gives way at step 2 */
	list_add(l, "", 0, 0, 0, false, 2, VIEW_MIN_NAME);
	l->col[VCOL_SITE].shown = site;
	l->units_give_way = 5;
	l->units_room = VIEW_MIN_NAME;
	/* % hides the percentages on every screen */
	l->col[VCOL_ALL].shown = l->col[VCOL_PART].shown = t->disp->show_percent;
	for (uint32_t i = 0; i < t->disp->ncolumns; i++) {
		uint32_t e = t->disp->columns[i];
		char buf[FMT_NUM], name[64];
		int k;

		if (e == t->disp->event || e >= p->nev)
			continue;
		w = text_width(fmt_value(
		    buf, ext_widest && ext_widest[e] > p->totals[e] ? ext_widest[e] : p->totals[e],
		    t->disp->short_units, fmt_event_unit(p, e)));
		if ((int)p->events[e].name.len > w)
			w = (int)p->events[e].name.len;
		snprintf(name, sizeof(name), "%.*s", (int)p->events[e].name.len,
			 p->events[e].name.ptr);
		k = list_add(l, name, w < 4 ? 4 : w, 0, 2, true, 1, 2 * VIEW_MIN_NAME);
		l->col[k].tag = e;
	}
	list_fit(l, g->cols);
}

void view_calls_cells(char (*cells)[LIST_CELL], const struct list *l, const struct view_ctx *t,
		      uint64_t v, uint64_t all, uint64_t part, const char *calls,
		      const uint64_t *ext)
{
	const struct profile *p = t->p;
	uint32_t ev = t->disp->event;

	fmt_value(cells[VCOL_COST], v, l->short_units, t->disp->unit_ps);
	fmt_percent(cells[VCOL_ALL], v, pct_total(p, ev, all));
	fmt_percent(cells[VCOL_PART], v, pct_total(p, ev, part));
	snprintf(cells[VCOL_CALLS], LIST_CELL, "%s", calls);
	cells[VCOL_SITE][0] = '\0';
	for (int i = VCOL_EXT; i < l->n; i++)
		fmt_value(cells[i], ext[i - VCOL_EXT], l->short_units,
			  fmt_event_unit(p, (uint32_t)l->col[i].tag));
}

static void function_label(char *buf, size_t size, const struct profile *p, uint32_t f, int width)
{
	const struct function *fn = &p->funcs[f];

	if (fn->name == NCG_NONE)
		snprintf(buf, size, "(unknown)");
	else
		fmt_short_name(buf, size, profile_name(p, fn->name), width);
	if (profile_cycle(p, f) && strlen(buf) + 16 < size)
		snprintf(buf + strlen(buf), size - strlen(buf), " <cycle %" PRIu32 ">",
			 profile_cycle(p, f));
}

void view_function_head(struct grid *g, const struct profile *p, uint32_t f,
			const struct view_ctx *t, const char *what)
{
	const struct function *fn = &p->funcs[f];
	char name[1024], line[1200], a[FMT_NUM], b[FMT_NUM], c[FMT_NUM + 8], pa[FMT_NUM],
	    pb[FMT_NUM];
	uint64_t total = pct_total(p, t->disp->event, p->totals[t->disp->event]);
	struct span ev = p->events[t->disp->event].name;

	grid_fill(g, 0, 0, ATTR_TITLE);
	snprintf(line, sizeof(line), "ncgrind: %s", what);
	grid_puts(g, 0, 0, line, ATTR_TITLE);
	function_label(name, sizeof(name), p, f, g->cols);
	grid_puts(g, 1, 0, name, ATTR_HOT);
	if (profile_has_calls(p))
		snprintf(line, sizeof(line), "%.*s incl %s (%s)  self %s (%s)  called %s",
			 (int)ev.len, ev.ptr,
			 fmt_value(a, profile_incl_at(p, f, t->disp->event), t->disp->short_units,
				   t->disp->unit_ps),
			 fmt_percent(pa, profile_incl_at(p, f, t->disp->event), total),
			 fmt_value(b, profile_self_at(p, f, t->disp->event), t->disp->short_units,
				   t->disp->unit_ps),
			 fmt_percent(pb, profile_self_at(p, f, t->disp->event), total),
			 fmt_times(c, fn->calls));
	else
		snprintf(line, sizeof(line), "%.*s self %s (%s)", (int)ev.len, ev.ptr,
			 fmt_value(b, profile_self_at(p, f, t->disp->event), t->disp->short_units,
				   t->disp->unit_ps),
			 fmt_percent(pb, profile_self_at(p, f, t->disp->event), total));
	grid_puts(g, 2, 0, line, ATTR_DIM);
}

bool view_no_calls(struct grid *g, const struct profile *p)
{
	if (profile_has_calls(p))
		return false;
	grid_fill(g, VIEW_LIST_HEAD - 1, 0, ATTR_NORMAL); /* no column heads over nothing */
	grid_puts(g, VIEW_LIST_HEAD - 1, 0,
		  "The profile records no calls (a Cachegrind profile has none):", ATTR_HOT);
	grid_puts(g, VIEW_LIST_HEAD, 0, "no callers, callees or call trees to show.", ATTR_HOT);
	return true;
}

void view_draw_status(struct grid *g, const struct nav *nav, const struct view_state *vs,
		      const char *extra)
{
	char line[512];
	int c;

	if (vs->prompting) {
		draw_prompt(g, vs);
		return;
	}
	grid_fill(g, g->rows - 1, 0, ATTR_STATUS);
	snprintf(line, sizeof(line), "%zu/%zu", nav->count ? nav->cursor + 1 : 0, nav->count);
	c = grid_puts(g, g->rows - 1, 0, line, ATTR_STATUS);
	/* a message takes the place of the key hints */
	if (vs->message[0])
		grid_puts(g, g->rows - 1, c + 3, vs->message,
			  vs->message_is_error ? ATTR_ERROR : ATTR_STATUS);
	else
		grid_puts(g, g->rows - 1, c + 2, extra, ATTR_STATUS);
}

void view_expand_tabs(char *out, size_t size, struct span text, int skip)
{
	size_t o = 0;
	int col = 0;

	for (size_t i = 0; i < text.len && o + 8 < size; i++) {
		if (text.ptr[i] == '\t') {
			do {
				if (col++ >= skip)
					out[o++] = ' ';
			} while (col % 8 && o + 1 < size);
		} else {
			/* columns are counted per byte: good enough to scroll by */
			if (col++ >= skip || ((unsigned char)text.ptr[i] & 0xc0) == 0x80)
				out[o++] = text.ptr[i];
		}
	}
	out[o] = '\0';
}

/* The other events of :set columns on the source screen: their self costs per line. */
struct src_extra {
	uint32_t ev[DISPLAY_MAX_COLUMNS];
	int w[DISPLAY_MAX_COLUMNS];
	int n;
};

/* As wide as each event's name or widest line; as many as leave the text 40 columns. */
static void source_extra(struct src_extra *x, const struct grid *g, const struct srcview *v,
			 const struct view_ctx *t, int numw)
{
	const struct profile *p = v->fn.p;
	int used = numw + 8 + 8;
	char buf[FMT_NUM];

	x->n = 0;
	for (uint32_t i = 0; i < t->disp->ncolumns; i++) {
		uint32_t e = t->disp->columns[i];
		uint64_t widest = 0;
		int w;

		if (e == t->disp->event || e >= p->nev)
			continue;
		for (size_t k = 0; k < v->fn.nrows; k++)
			if (v->fn.rows[k].costs[e] > widest)
				widest = v->fn.rows[k].costs[e];
		w = text_width(fmt_value(buf, widest, t->disp->short_units, fmt_event_unit(p, e)));
		w = (int)p->events[e].name.len > w ? (int)p->events[e].name.len : w;
		if (g->cols - used - w - 1 < 40)
			break;
		used += w + 1;
		x->ev[x->n] = e;
		x->w[x->n++] = w;
	}
}

static void draw_source_row(struct grid *g, int r, const struct srcview *v, size_t row,
			    const struct view_ctx *t, int numw, const struct src_extra *x)
{
	const struct src_row *sr = &v->rows[row];
	const struct profile *p = v->fn.p;
	enum grid_attr a = row == v->nav.cursor ? ATTR_CURSOR : ATTR_NORMAL;
	uint64_t cost = sr->cost ? sr->cost->costs[t->disp->event] : 0;
	char line[2400], num[FMT_NUM], pct[FMT_NUM], text[2048], times[FMT_NUM + 8];
	const char *insn;
	int c;

	grid_fill(g, r, 0, a);
	if (sr->kind == SROW_TRIED) {
		/* from the profile: grid_put shows its control characters as ^X */
		const struct source_tried *tr = &v->text.tried[sr->where];

		view_expand_tabs(text, sizeof(text), span_make(tr->path, strlen(tr->path)),
				 v->hscroll);
		snprintf(line, sizeof(line), "  tried %s%s%s%s", text,
			 tr->why ? " (not read: " : "", tr->why ? tr->why : "", tr->why ? ")" : "");
		grid_puts(g, r, 0, line, a == ATTR_CURSOR ? a : ATTR_DIM);
		return;
	}
	if (sr->kind == SROW_GAP) {
		grid_puts(g, r, numw + 10, "...", a == ATTR_CURSOR ? a : ATTR_DIM);
		return;
	}
	snprintf(
	    line, sizeof(line), "%*s %7s ", numw,
	    cost ? fmt_value(num, cost, t->disp->short_units, t->disp->unit_ps) : ".",
	    cost ? fmt_percent(pct, cost, pct_total(p, t->disp->event, p->totals[t->disp->event]))
		 : "");
	c = grid_puts(
	    g, r, 0, line,
	    cost > 0 && cost * 20 >= p->totals[t->disp->event] && a != ATTR_CURSOR ? ATTR_HOT : a);
	for (int i = 0; i < x->n; i++) {
		uint64_t xv = sr->cost ? sr->cost->costs[x->ev[i]] : 0;

		put_right(g, r, c, x->w[i],
			  xv ? fmt_value(num, xv, t->disp->short_units, fmt_event_unit(p, x->ev[i]))
			     : ".",
			  a);
		c += x->w[i] + 1;
	}
	if (sr->kind == SROW_CALL) {
		struct span name = profile_name(p, p->funcs[sr->cost->callee].name);

		snprintf(line, sizeof(line), "%*s=> %.*s (%s)", v->instr ? 10 : 7, "",
			 (int)name.len, name.ptr, fmt_times(times, sr->cost->count));
		grid_puts(g, r, c, line, a == ATTR_CURSOR ? a : ATTR_DIM);
		return;
	}
	if (sr->kind == SROW_INSN) {
		insn = disasm_at(&v->dis, sr->where);
		view_expand_tabs(text, sizeof(text),
				 insn ? span_make(insn, strlen(insn)) : span_make("", 0),
				 v->hscroll);
		snprintf(line, sizeof(line), "%8" PRIx64 "  %s", sr->where, text);
	} else {
		struct span src = v->found ? source_line(&v->text, sr->where) : span_make("", 0);

		view_expand_tabs(text, sizeof(text), src, v->hscroll);
		snprintf(line, sizeof(line), "%5" PRIu64 "  %s", sr->where, text);
	}
	grid_puts(g, r, c, line, a);
}

/* The width of the cost column: call rows carry inclusive costs, the widest sets it. */
static int source_cost_width(const struct srcview *v, const struct view_ctx *t)
{
	uint64_t widest = profile_self_at(v->fn.p, v->fn.fn, t->disp->event);
	char buf[FMT_NUM];
	int w;

	for (size_t i = 0; i < v->fn.nrows; i++)
		if (v->fn.rows[i].costs[t->disp->event] > widest)
			widest = v->fn.rows[i].costs[t->disp->event];
	w = text_width(fmt_value(buf, widest, t->disp->short_units, t->disp->unit_ps));
	return w < 5 ? 5 : w;
}

void view_draw_source(struct grid *g, const struct srcview *v, const struct view_ctx *t,
		      const struct view_state *vs)
{
	const struct profile *p = v->fn.p;
	char line[600], pct[FMT_NUM];
	int rows = view_list_rows(g), numw = source_cost_width(v, t), c;
	uint64_t fself = profile_self_at(p, v->fn.fn, t->disp->event);
	struct src_extra x;

	grid_clear(g);
	view_function_head(g, p, v->fn.fn, t, v->instr ? "instructions" : "annotated source");
	grid_fill(g, 2, 0, ATTR_NORMAL); /* the file line takes the place of the costs */
	if (v->instr || !v->fn.nfiles) {
		grid_put(g, 2, 0, v->note, strlen(v->note), g->cols,
			 v->note[0] ? ATTR_ERROR : ATTR_DIM);
	} else {
		struct span f = profile_name(p, v->fn.files[v->file].file);

		snprintf(line, sizeof(line), "file %zu/%zu (%s of the self cost): %.*s%s%s",
			 v->file + 1, v->fn.nfiles,
			 fmt_percent(pct, v->fn.files[v->file].self[t->disp->event], fself),
			 (int)f.len, f.ptr, v->note[0] ? "  " : "", v->note);
		grid_puts(g, 2, 0, line, v->found && !v->text.newer ? ATTR_DIM : ATTR_ERROR);
	}
	source_extra(&x, g, v, t, numw);
	snprintf(line, sizeof(line), "%*s %7s ", numw, "Self", "%total");
	grid_fill(g, 3, 0, ATTR_HEAD);
	c = grid_puts(g, 3, 0, line, ATTR_HEAD);
	for (int i = 0; i < x.n; i++) {
		struct span n = p->events[x.ev[i]].name;

		snprintf(line, sizeof(line), "%.*s", (int)n.len, n.ptr);
		put_right(g, 3, c, x.w[i], line, ATTR_HEAD);
		c += x.w[i] + 1;
	}
	grid_puts(g, 3, c, v->instr ? " Address  Instruction" : " Line  Source", ATTR_HEAD);
	for (int i = 0; i < rows && v->nav.top + (size_t)i < v->nav.count; i++)
		draw_source_row(g, VIEW_LIST_HEAD + i, v, v->nav.top + (size_t)i, t, numw, &x);
	if (!v->nav.count)
		grid_puts(g, VIEW_LIST_HEAD, 0, "(no cost lines)", ATTR_DIM);
	view_draw_status(g, &v->nav, vs,
			 v->instr
			     ? "Tab: next costly  Enter: callee  Backspace: back"
			     : "Tab: next costly  o: only costly  f: next file  Enter: callee");
}

struct source_write {
	const struct srcview *v;
	const struct view_ctx *t;
	int numw;
	struct src_extra x;
};

static void source_write_row(void *ctx, struct grid *g, size_t i)
{
	struct source_write *w = ctx;

	draw_source_row(g, 0, w->v, i, w->t, w->numw, &w->x);
}

int view_write_source(FILE *f, const struct srcview *v, const struct view_ctx *t)
{
	struct source_write w = {.v = v, .t = t, .numw = source_cost_width(v, t)};
	struct view_state vs;
	struct grid g;
	int ret;

	memset(&vs, 0, sizeof(vs));
	grid_init(&g, VIEW_LIST_HEAD + 2, LIST_WRITE_COLS);
	view_draw_source(&g, v, t, &vs);
	source_extra(&w.x, &g, v, t, w.numw);
	ret = list_write(f, &g, VIEW_LIST_HEAD, v->nav.count, source_write_row, &w);
	grid_release(&g);
	return ret;
}

void view_draw_loading(struct grid *g, const char *path, uint64_t done, uint64_t total)
{
	view_draw_progress(g, path, "Reading the profile", done, total);
}

void view_draw_progress(struct grid *g, const char *path, const char *what, uint64_t done,
			uint64_t total)
{
	char line[512];

	grid_clear(g);
	grid_fill(g, 0, 0, ATTR_TITLE);
	grid_puts(g, 0, 0, "ncgrind: ", ATTR_TITLE);
	grid_puts(g, 0, 9, path, ATTR_TITLE);
	snprintf(line, sizeof(line), "%s: %.0f%% (%.1f of %.1f MB)", what,
		 total ? 100.0 * (double)done / (double)total : 0.0, (double)done / 1e6,
		 (double)total / 1e6);
	grid_puts(g, g->rows / 2, 2, line, ATTR_NORMAL);
	grid_fill(g, g->rows - 1, 0, ATTR_STATUS);
	grid_puts(g, g->rows - 1, 0, "Ctrl-C cancels", ATTR_STATUS);
}
