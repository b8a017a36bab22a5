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

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define HEAD_ROWS 3
#define MIN_NAME 16

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
	while (L->next && g->cols - fixed_width(L) < 2 * MIN_NAME)
		L->next--;
	if (g->cols - fixed_width(L) < MIN_NAME)
		L->pct = 0;
	if (g->cols - fixed_width(L) < MIN_NAME && !L->short_units) {
		L->short_units = true;
		L->num = text_width(fmt_value(buf, total, true, L->unit_ps));
	}
	/* short units print up to 9,999 whole and 99.9K: five columns whatever the total */
	if (L->short_units && L->num < short_width(L->unit_ps))
		L->num = short_width(L->unit_ps);
	if (g->cols - fixed_width(L) < MIN_NAME)
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

#define LIST_HEAD 4 /* title, function, its costs, column heads */

int view_list_rows(const struct grid *g)
{
	int r = g->rows - LIST_HEAD - 1;

	return r > 1 ? r : 1;
}

/*
 * The columns of the callers/callees and tree screens: a cost, its share of
 * the total (or root), its share of the function (or parent), the calls,
 * the name, and on the callers/callees screen the call site. On a narrow
 * screen they give way so that the name keeps MIN_NAME columns, as in the
 * table: the call site first, then the percentages, exact numbers, calls.
 */
struct list_layout {
	int num;       /* width of the cost */
	bool pct_all;  /* %total / %root */
	bool pct_part; /* %func / %parent */
	bool calls, site;
	bool short_units;
	uint64_t unit_ps;
	int name; /* columns left for the name (and indentation) */
	/* the other events of :set columns (callers/callees: each call's cost in them) */
	uint32_t ext[DISPLAY_MAX_COLUMNS];
	int extw[DISPLAY_MAX_COLUMNS];
	int next;
	const struct profile *p;
};

#define PCT_W 7    /* " 48.78%" */
#define CALLS_W 10 /* "        1" and a blank */

static int list_fixed(const struct list_layout *L)
{
	int ext = 0;

	for (int i = 0; i < L->next; i++)
		ext += L->extw[i] + 2;
	return L->num + (L->pct_all ? PCT_W + 1 : 0) + (L->pct_part ? PCT_W + 1 : 0) +
	       (L->calls ? CALLS_W : 0) + 2 + ext;
}

/*
 * The other events of :set columns, as wide as their names, totals or
 * widest values (widest: per event, may be NULL), with ext set.
 */
static void list_extra(struct list_layout *L, const struct view_ctx *t, bool ext,
		       const uint64_t *widest)
{
	char buf[FMT_NUM];

	L->next = 0;
	L->p = t->p;
	for (uint32_t i = 0; ext && i < t->disp->ncolumns; i++) {
		uint32_t e = t->disp->columns[i];
		int w;

		if (e == t->disp->event || e >= t->p->nev)
			continue;
		w = text_width(fmt_value(
		    buf, widest && widest[e] > t->p->totals[e] ? widest[e] : t->p->totals[e],
		    L->short_units, fmt_event_unit(t->p, e)));
		if ((int)t->p->events[e].name.len > w)
			w = (int)t->p->events[e].name.len;
		L->ext[L->next] = e;
		L->extw[L->next++] = w < 4 ? 4 : w;
	}
}

static void list_layout(struct list_layout *L, const struct grid *g, const struct view_ctx *t,
			uint64_t widest, bool has_site, const uint64_t *ext_widest, bool ext)
{
	char buf[FMT_NUM];

	L->short_units = t->disp->short_units;
	L->unit_ps = t->disp->unit_ps;
	L->num = text_width(fmt_value(buf, widest, L->short_units, L->unit_ps));
	L->num = L->num < short_width(L->unit_ps) ? short_width(L->unit_ps) : L->num;
	L->pct_all = L->pct_part = t->disp->show_percent; /* % hides them on every screen */
	L->calls = true;
	L->site = has_site;
	list_extra(L, t, ext, ext_widest);
	while (L->next && g->cols - list_fixed(L) < 2 * MIN_NAME) /* the other events first */
		L->next--;
	if (g->cols - list_fixed(L) < MIN_NAME)
		L->site = false;
	if (g->cols - list_fixed(L) < MIN_NAME)
		L->pct_all = false;
	if (g->cols - list_fixed(L) < MIN_NAME)
		L->pct_part = false;
	if (g->cols - list_fixed(L) < MIN_NAME && !L->short_units) {
		L->short_units = true;
		L->num = text_width(fmt_value(buf, widest, true, L->unit_ps));
		L->num = L->num < short_width(L->unit_ps) ? short_width(L->unit_ps) : L->num;
	}
	if (g->cols - list_fixed(L) < MIN_NAME)
		L->calls = false;
	L->name = g->cols - list_fixed(L);
	if (L->name < 1)
		L->name = 1;
}

/*
 * The number columns of a row (or, with heads, their titles), then the
 * other events' values of ext (each its event's name in the heads; blank
 * when ext is NULL); returns the next column.
 */
static int list_numbers(struct grid *g, int r, const struct list_layout *L, const char *cost,
			const char *all, const char *part, const char *calls, const uint64_t *ext,
			enum grid_attr a)
{
	int c = 0;

	put_right(g, r, c, L->num, cost, a);
	c += L->num;
	if (L->pct_all) {
		put_right(g, r, c + 1, PCT_W, all, a);
		c += PCT_W + 1;
	}
	if (L->pct_part) {
		put_right(g, r, c + 1, PCT_W, part, a);
		c += PCT_W + 1;
	}
	if (L->calls) {
		put_right(g, r, c, CALLS_W, calls, a);
		c += CALLS_W;
	}
	for (int i = 0; i < L->next; i++) {
		char buf[FMT_NUM > 64 ? FMT_NUM : 64];
		struct span n = L->p->events[L->ext[i]].name;

		if (ext)
			fmt_value(buf, ext[i], L->short_units, fmt_event_unit(L->p, L->ext[i]));
		else
			snprintf(buf, sizeof(buf), "%.*s", a == ATTR_HEAD ? (int)n.len : 0, n.ptr);
		put_right(g, r, c + 2, L->extw[i], buf, a);
		c += L->extw[i] + 2;
	}
	return c + 2;
}

static void list_heads(struct grid *g, const struct list_layout *L, const char *cost,
		       const char *all, const char *part, const char *name)
{
	int c;

	grid_fill(g, LIST_HEAD - 1, 0, ATTR_HEAD);
	c = list_numbers(g, LIST_HEAD - 1, L, cost, all, part, "Calls", NULL, ATTR_HEAD);
	grid_puts(g, LIST_HEAD - 1, c, name, ATTR_HEAD);
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

/* Title, the function's name, its costs, the column heads. */
static void draw_list_head(struct grid *g, const struct profile *p, uint32_t f,
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

/*
 * A row's call site, "  file.c:12" (" +" after it: more sites), into buf;
 * false where it tells nothing: none known, or Valgrind's ???:0 (code
 * without debug information).
 */
static bool site_text(char *buf, size_t size, const struct profile *p, const struct detail_row *dr)
{
	struct span f;
	const char *base;

	if (dr->site_file == NCG_NONE)
		return false;
	f = profile_name(p, dr->site_file);
	if (!dr->site_line && !dr->more_sites && f.len == 3 && !memcmp(f.ptr, "???", 3))
		return false;
	/* the file's base name: the full path is on the caller's own screen */
	base = f.ptr;
	for (size_t i = 0; i < f.len; i++)
		if (f.ptr[i] == '/')
			base = f.ptr + i + 1;
	snprintf(buf, size, "  %.*s:%" PRIu64 "%s", (int)(f.len - (size_t)(base - f.ptr)), base,
		 dr->site_line, dr->more_sites ? " +" : "");
	return true;
}

/* Whether a caller or callee row of d has a call site worth a column head. */
static bool detail_has_sites(const struct detail *d)
{
	char buf[64];

	for (size_t i = 0; i < d->nav.count; i++)
		if ((d->rows[i].kind == DROW_CALLER || d->rows[i].kind == DROW_CALLEE) &&
		    site_text(buf, sizeof(buf), d->p, &d->rows[i]))
			return true;
	return false;
}

static void draw_detail_row(struct grid *g, int r, const struct detail *d, size_t row,
			    const struct view_ctx *t, const struct list_layout *L, const char *name)
{
	const struct detail_row *dr = &d->rows[row];
	const struct profile *p = d->p;
	enum grid_attr a = row == d->nav.cursor ? ATTR_CURSOR : ATTR_NORMAL;
	char line[1400], cost[FMT_NUM], pt[FMT_NUM], pf[FMT_NUM], cnt[FMT_NUM];
	uint64_t ext[DISPLAY_MAX_COLUMNS];
	const struct call_edge *e;
	uint64_t v;
	int c;

	if (dr->kind == DROW_CALLERS || dr->kind == DROW_CALLEES) {
		size_t n = 0;

		for (size_t i = row + 1; i < d->nav.count && d->rows[i].kind == dr->kind + 1; i++)
			n++;
		snprintf(line, sizeof(line), "%s (%zu)",
			 dr->kind == DROW_CALLERS ? "Callers" : "Callees", n);
		grid_fill(g, r, 0, ATTR_TITLE);
		grid_puts(g, r, 0, line, ATTR_TITLE);
		return;
	}
	e = &p->edges[dr->edge];
	v = profile_edge_at(p, dr->edge, t->disp->event);
	for (int i = 0; i < L->next; i++)
		ext[i] = profile_edge_at(p, dr->edge, L->ext[i]);
	grid_fill(g, r, 0, a);
	c = list_numbers(
	    g, r, L, fmt_value(cost, v, L->short_units, L->unit_ps),
	    fmt_percent(pt, v, pct_total(p, t->disp->event, p->totals[t->disp->event])),
	    fmt_percent(pf, v,
			pct_total(p, t->disp->event, profile_incl_at(p, d->fn, t->disp->event))),
	    fmt_commas(cnt, e->count), ext, a);
	/* the call site gives way: after the name (shortened with the rows shown) where it fits */
	c += grid_puts(g, r, c, name, a);
	if (L->site && site_text(line, sizeof(line), p, dr) && text_width(line) <= g->cols - c)
		grid_puts(g, r, c, line, a == ATTR_CURSOR ? a : ATTR_DIM);
}

/* A caller or callee row: its function, and whether the call is recursive. */
static uint32_t detail_other(const struct detail *d, size_t row, const char **extra)
{
	const struct call_edge *e = &d->p->edges[d->rows[row].edge];
	uint32_t c = profile_cycle(d->p, e->caller);

	*extra = e->caller == e->callee || (c && c == profile_cycle(d->p, e->callee))
		     ? " [recursive]"
		     : NULL;
	return d->rows[row].kind == DROW_CALLER ? e->caller : e->callee;
}

/* The names of rows [from, from + names->n) of a callers/callees screen, shortened together. */
static void detail_names(struct shorten_set *names, const struct detail *d, size_t from,
			 const struct list_layout *L)
{
	for (size_t i = 0; i < names->n; i++) {
		const struct detail_row *dr = &d->rows[from + i];
		const char *extra = NULL;
		uint32_t f;

		if (dr->kind == DROW_CALLERS || dr->kind == DROW_CALLEES) {
			shorten_set_text(names, i, span_make("", 0), span_make("", 0), 0);
			continue;
		}
		f = detail_other(d, from + i, &extra);
		shorten_set_function(names, i, d->p, f, L->name, extra);
	}
	shorten_set_apply(names);
}

/*
 * Instead of the rows of a callers/callees or tree screen: there are none to
 * show, and no row to open, expand or follow: only going back does anything.
 */
#define NO_CALLS_HINT "Backspace: back"

static bool draw_no_calls(struct grid *g, const struct profile *p)
{
	if (profile_has_calls(p))
		return false;
	grid_fill(g, LIST_HEAD - 1, 0, ATTR_NORMAL); /* no column heads over nothing */
	grid_puts(g, LIST_HEAD - 1, 0,
		  "The profile records no calls (a Cachegrind profile has none):", ATTR_HOT);
	grid_puts(g, LIST_HEAD, 0, "no callers, callees or call trees to show.", ATTR_HOT);
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

/*
 * The widest cost of the screen: the calls of a recursive function can cost
 * more than the whole profile (each nested call counts its callees again).
 */
/* The widest call cost of the event shown; per event of :set columns into ext_w (nev). */
static uint64_t detail_widest(const struct detail *d, const struct view_ctx *t, uint64_t *ext_w)
{
	uint64_t w = d->p->totals[t->disp->event];

	for (size_t i = 0; i < d->nav.count; i++)
		if (d->rows[i].kind == DROW_CALLER || d->rows[i].kind == DROW_CALLEE) {
			uint64_t v = profile_edge_at(d->p, d->rows[i].edge, t->disp->event);

			w = v > w ? v : w;
			for (uint32_t k = 0; k < t->disp->ncolumns; k++) {
				uint32_t e = t->disp->columns[k];

				if (e < d->p->nev &&
				    (v = profile_edge_at(d->p, d->rows[i].edge, e)) > ext_w[e])
					ext_w[e] = v;
			}
		}
	return w;
}

void view_draw_detail(struct grid *g, const struct detail *d, const struct view_ctx *t,
		      const struct view_state *vs)
{
	int rows = view_list_rows(g);
	struct list_layout L;
	struct shorten_set names;
	size_t n = d->nav.top < d->nav.count ? d->nav.count - d->nav.top : 0;

	uint64_t *ext_w = xcalloc(d->p->nev + 1, sizeof(uint64_t));

	list_layout(&L, g, t, detail_widest(d, t, ext_w), detail_has_sites(d), ext_w, true);
	free(ext_w);
	grid_clear(g);
	draw_list_head(g, d->p, d->fn, t, "callers and callees");
	list_heads(g, &L, "Cost", "%total", "%func", L.site ? "Function  call site" : "Function");
	if (draw_no_calls(g, d->p))
		rows = 0;
	shorten_set_init(&names, n < (size_t)rows ? n : (size_t)rows);
	detail_names(&names, d, d->nav.top, &L);
	for (size_t i = 0; i < names.n; i++)
		draw_detail_row(g, LIST_HEAD + (int)i, d, d->nav.top + i, t, &L,
				shorten_set_out(&names, i));
	shorten_set_release(&names);
	view_draw_status(g, &d->nav, vs,
			 profile_has_calls(d->p) ? "Enter: open  t/r: tree  Backspace: back"
						 : NO_CALLS_HINT);
}

static const char *node_mark(const struct tree_node *n)
{
	if (n->kind == NODE_MORE || n->kind == NODE_CUT)
		return " ";
	if (n->recursive)
		return "@";
	if (n->leaf)
		return " ";
	return n->expanded ? "-" : "+";
}

/* A tree row's indent: a narrow screen indents by one column a level, and keeps the names readable.
 */
static int tree_indent(const struct grid *g, const struct list_layout *L, const struct tree_node *n)
{
	int indent = (int)n->depth * (L->name >= 30 ? 2 : 1);

	/* deep nodes stop moving right before the name runs out of room */
	if (indent > L->name - MIN_NAME / 2)
		indent = L->name - MIN_NAME / 2 > 0 ? L->name - MIN_NAME / 2 : 0;
	if (indent > g->cols / 2)
		indent = g->cols / 2;
	return indent;
}

/* The names of the tree's visible rows [from, from + names->n), shortened together. */
static void tree_names(struct shorten_set *names, const struct grid *g, struct calltree *tree,
		       size_t from, const struct list_layout *L)
{
	for (size_t i = 0; i < names->n; i++) {
		const struct tree_node *n = &tree->nodes[tree->visible[from + i]];
		int w = L->name - tree_indent(g, L, n) - 2; /* (the mark and a blank) */

		if (n->kind == NODE_FUNCTION)
			shorten_set_function(names, i, tree->p, n->fn, w,
					     n->member      ? " [self]"
					     : n->recursive ? " [recursive]"
							    : NULL);
		else
			shorten_set_text(names, i, span_make("", 0), span_make("", 0), 0);
	}
	shorten_set_apply(names);
}

static void draw_tree_row(struct grid *g, int r, struct calltree *tree, uint32_t id, bool selected,
			  const struct list_layout *L, double root, const char *label)
{
	const struct tree_node *n = &tree->nodes[id];
	double parent = n->parent == NCG_NONE ? root : tree->nodes[n->parent].cost;
	enum grid_attr a = selected ? ATTR_CURSOR : ATTR_NORMAL;
	char name[1024], buf[1024], cost[FMT_NUM], pr[FMT_NUM], pp[FMT_NUM], cnt[FMT_NUM];
	uint64_t v = u64_from_double(n->cost), ext[DISPLAY_MAX_COLUMNS];
	int c;

	for (int i = 0; i < L->next; i++) /* the other events of :set columns, on the same path */
		ext[i] =
		    n->kind == NODE_CUT ? 0 : u64_from_double(calltree_value(tree, id, L->ext[i]));
	grid_fill(g, r, 0, a);
	c = list_numbers(g, r, L, fmt_value(cost, v, L->short_units, L->unit_ps),
			 fmt_percent(pr, v, u64_from_double(root)),
			 fmt_percent(pp, v, u64_from_double(parent)),
			 n->edge == NCG_NONE || n->kind == NODE_MORE || n->kind == NODE_CUT
			     ? ""
			     : fmt_commas(cnt, n->count),
			 ext, a);
	c += tree_indent(g, L, n);
	c += grid_puts(g, r, c, node_mark(n), a);
	c += grid_puts(g, r, c, " ", a);
	if (n->kind == NODE_MORE || n->kind == NODE_CUT) {
		if (n->kind == NODE_MORE)
			snprintf(name, sizeof(name), "(%" PRIu64 " more, %s)", n->count,
				 fmt_percent(pr, v, u64_from_double(root)));
		else
			snprintf(name, sizeof(name), "(tree cut at %s nodes)",
				 fmt_commas(cnt, n->count));
		grid_puts(
		    g, r, c,
		    shorten_value(buf, sizeof(buf), span_make(name, strlen(name)), g->cols - c),
		    a == ATTR_CURSOR ? a : ATTR_DIM);
		return;
	}
	if (n->kind == NODE_CYCLE) {
		snprintf(name, sizeof(name), "<cycle %" PRIu32 ">", n->fn);
		label = name;
	}
	grid_puts(g, r, c, label, a);
}

static void draw_entry_points_head(struct grid *g, const struct calltree *tree,
				   const struct view_ctx *t, const char *what)
{
	struct span ev = tree->p->events[t->disp->event].name;
	char line[300], buf[FMT_NUM];

	grid_fill(g, 0, 0, ATTR_TITLE);
	grid_puts(g, 0, 0, "ncgrind: ", ATTR_TITLE);
	grid_puts(g, 0, 9, what, ATTR_TITLE);
	snprintf(line, sizeof(line),
		 "%zu entry point%s: what no call from outside covers (main, threads)",
		 tree->nroots, tree->nroots == 1 ? "" : "s");
	grid_puts(g, 1, 0, line, ATTR_HOT);
	snprintf(line, sizeof(line), "%.*s total %s", (int)ev.len, ev.ptr,
		 fmt_value(buf, tree->p->totals[t->disp->event], t->disp->short_units,
			   t->disp->unit_ps));
	grid_puts(g, 2, 0, line, ATTR_DIM);
}

void view_draw_tree(struct grid *g, struct calltree *tree, const struct nav *nav,
		    const struct view_ctx *t, const struct view_state *vs)
{
	char what[200];
	int rows = view_list_rows(g);
	double root = calltree_root_cost(tree);
	struct list_layout L;
	struct shorten_set names;
	size_t n = nav->top < tree->nvisible ? tree->nvisible - nav->top : 0;

	list_layout(&L, g, t, u64_from_double(root), false, NULL, true);
	snprintf(what, sizeof(what), "%s, threshold %.3g%%",
		 tree->top_down   ? "call tree from the entry points"
		 : tree->inverted ? "callers, upward"
				  : "call tree",
		 tree->threshold);
	grid_clear(g);
	if (!tree->top_down)
		draw_list_head(g, tree->p, tree->nodes[tree->roots[0]].fn, t, what);
	else
		draw_entry_points_head(g, tree, t, what);
	list_heads(g, &L, "Incl", "%root", "%parent",
		   tree->inverted ? "Function, then its callers" : "Function, then its callees");
	if (draw_no_calls(g, tree->p))
		rows = 0;
	shorten_set_init(&names, n < (size_t)rows ? n : (size_t)rows);
	tree_names(&names, g, tree, nav->top, &L);
	for (size_t i = 0; i < names.n; i++) {
		size_t row = nav->top + i;

		draw_tree_row(g, LIST_HEAD + (int)i, tree, tree->visible[row], row == nav->cursor,
			      &L, root, shorten_set_out(&names, i));
	}
	shorten_set_release(&names);
	view_draw_status(g, nav, vs,
			 profile_has_calls(tree->p)
			     ? "Right/Left: expand/collapse  e: hot path  r: callers"
			     : NO_CALLS_HINT);
}

/*
 * :write on a list screen writes all of it, not the rows in view: the head
 * as drawn on a grid wide enough that no column gives way and no name is
 * shortened, then every row, drawn one at a time into a grid of one row (a
 * tree of a million rows costs one row of cells).
 */
#define WRITE_COLS 1000

static void write_head(FILE *f, struct grid *g)
{
	grid_save_rows(g, 0, LIST_HEAD, f);
	grid_resize(g, 1, WRITE_COLS);
}

int view_write_detail(FILE *f, const struct detail *d, const struct view_ctx *t)
{
	struct view_state vs;
	struct list_layout L;
	struct grid g;
	uint64_t *ext_w;

	memset(&vs, 0, sizeof(vs));
	grid_init(&g, LIST_HEAD + 2, WRITE_COLS);
	view_draw_detail(&g, d, t, &vs);
	ext_w = xcalloc(d->p->nev + 1, sizeof(uint64_t));
	list_layout(&L, &g, t, detail_widest(d, t, ext_w), detail_has_sites(d), ext_w, true);
	free(ext_w);
	write_head(f, &g);
	for (size_t i = 0; i < d->nav.count; i++) {
		struct shorten_set names;

		shorten_set_init(&names, 1);
		detail_names(&names, d, i, &L);
		grid_clear(&g);
		draw_detail_row(&g, 0, d, i, t, &L, shorten_set_out(&names, 0));
		shorten_set_release(&names);
		grid_save(&g, f);
	}
	grid_release(&g);
	return ferror(f) ? -1 : 0;
}

int view_write_tree(FILE *f, struct calltree *tree, const struct view_ctx *t)
{
	double root = calltree_root_cost(tree);
	struct view_state vs;
	struct list_layout L;
	struct nav top;
	struct grid g;

	memset(&vs, 0, sizeof(vs));
	memset(&top, 0, sizeof(top));
	grid_init(&g, LIST_HEAD + 2, WRITE_COLS);
	view_draw_tree(&g, tree, &top, t, &vs);
	list_layout(&L, &g, t, u64_from_double(root), false, NULL, true);
	write_head(f, &g);
	for (size_t i = 0; i < tree->nvisible; i++) {
		struct shorten_set names;

		shorten_set_init(&names, 1);
		tree_names(&names, &g, tree, i, &L);
		grid_clear(&g);
		draw_tree_row(&g, 0, tree, tree->visible[i], false, &L, root,
			      shorten_set_out(&names, 0));
		shorten_set_release(&names);
		grid_save(&g, f);
	}
	grid_release(&g);
	return ferror(f) ? -1 : 0;
}

/* Source text with tabs expanded (8 columns), from column `skip` on. */
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
	draw_list_head(g, p, v->fn.fn, t, v->instr ? "instructions" : "annotated source");
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
		draw_source_row(g, LIST_HEAD + i, v, v->nav.top + (size_t)i, t, numw, &x);
	if (!v->nav.count)
		grid_puts(g, LIST_HEAD, 0, "(no cost lines)", ATTR_DIM);
	view_draw_status(g, &v->nav, vs,
			 v->instr
			     ? "Tab: next costly  Enter: callee  Backspace: back"
			     : "Tab: next costly  o: only costly  f: next file  Enter: callee");
}

int view_write_source(FILE *f, const struct srcview *v, const struct view_ctx *t)
{
	int numw = source_cost_width(v, t);
	struct view_state vs;
	struct src_extra x;
	struct grid g;

	memset(&vs, 0, sizeof(vs));
	grid_init(&g, LIST_HEAD + 2, WRITE_COLS);
	view_draw_source(&g, v, t, &vs);
	source_extra(&x, &g, v, t, numw);
	write_head(f, &g);
	for (size_t i = 0; i < v->nav.count; i++) {
		grid_clear(&g);
		draw_source_row(&g, 0, v, i, t, numw, &x);
		grid_save(&g, f);
	}
	grid_release(&g);
	return ferror(f) ? -1 : 0;
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
