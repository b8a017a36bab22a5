/*
 * screen_table: the function table, the first screen of the history. Its
 * state is its own, as every screen's is: the other screens read the event,
 * the units and the filters from the ui, never from the table.
 *
 * Its layout adapts to the width (list.h): the file column appears on wide
 * terminals, and on narrow ones the other events, the percentages, then
 * exact numbers, then the call counts give way, so that the name always
 * keeps room; names too long are shortened together (shorten.h) and shown
 * whole on the name line below the table. The loading screen draws the
 * partial table the same way.
 */
#include "ui_internal.h"
#include "ncgrind/model/fmt.h"
#include "ncgrind/model/shorten.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define HEAD_ROWS 3

static bool has_name_line(const struct grid *g)
{
	return g->rows >= 10;
}

int ui_table_rows(const struct grid *g)
{
	int r = g->rows - HEAD_ROWS - 1 - (has_name_line(g) ? 2 : 0);

	return r > 1 ? r : 1;
}

/* The table's columns (list.h): Incl and its %, Self and its %, the other events, Calls (last). */
enum { TCOL_INCL, TCOL_INCL_PCT, TCOL_SELF, TCOL_SELF_PCT, TCOL_EXT };

/* The widths of a cost as wide as the total: at least 4, or a short value's. */
static void table_cost_widths(const struct table *t, int *w, int *sw)
{
	char buf[FMT_NUM];
	uint64_t total = t->p->nev ? t->totals[t->disp->event] : 0;

	*w = list_width(fmt_value(buf, total, t->disp->short_units, t->disp->unit_ps));
	*w = *w < 4 ? 4 : *w;
	/* short units print up to 9,999 whole and 99.9K: five columns whatever the total */
	*sw = list_width(fmt_value(buf, total, true, t->disp->unit_ps));
	*sw = *sw < view_short_width(t->disp->unit_ps) ? view_short_width(t->disp->unit_ps) : *sw;
	if (t->disp->short_units)
		*w = *sw;
}

/*
 * The columns of a value up to v in units unit_ps, exact or short, with the
 * event's name over it: a short value of a smaller number may be wider
 * than the total's (99.9K beside 1.2M).
 */
static int value_width(uint64_t v, bool short_units, uint64_t unit_ps, struct span name)
{
	char buf[FMT_NUM];
	int w = list_width(fmt_value(buf, v, short_units, unit_ps));

	if (short_units && w < view_short_width(unit_ps))
		w = view_short_width(unit_ps);
	if ((int)name.len > w)
		w = (int)name.len;
	return w < 4 ? 4 : w;
}

/* The other events of :set columns: each the self cost, as wide as its name or its total. */
static void table_extra(struct list *l, const struct table *t)
{
	for (uint32_t i = 0; i < t->disp->ncolumns; i++) {
		uint32_t e = t->disp->columns[i];
		struct span n;
		char name[64];
		int w, sw, k;

		if (e == t->disp->event || e >= t->p->nev)
			continue;
		n = t->p->events[e].name;
		w = value_width(t->totals[e], false, fmt_event_unit(t->p, e), n);
		sw = value_width(t->totals[e], true, fmt_event_unit(t->p, e), n);
		snprintf(name, sizeof(name), "%.*s", (int)n.len, n.ptr);
		k = list_add(l, name, t->disp->short_units ? sw : w, sw, 2, true, 1,
			     2 * VIEW_MIN_NAME);
		l->col[k].tag = e;
	}
}

/*
 * The columns fitted to g. On wide screens a File column at the right; on
 * narrow ones, in this order, the other events give way (they leave the name
 * twice its least room), then the percentages, exact numbers, the calls.
 */
static void table_columns(struct list *l, const struct grid *g, const struct table *t)
{
	bool incl = profile_has_calls(t->p) && !t->loading; /* inclusive costs come at the end */
	char buf[FMT_NUM];
	int w, sw, calls = list_width(fmt_commas(buf, t->max_calls));

	list_init(l, t->disp->short_units, 2);
	table_cost_widths(t, &w, &sw);
	list_add(l, "Incl", w, sw, 0, true, 0, 0);
	list_add(l, "%", 6, 0, 1, true, 2, VIEW_MIN_NAME);
	list_add(l, "Self", w, sw, incl ? 2 : 0, true, 0, 0);
	list_add(l, "%", 6, 0, 1, true, 2, VIEW_MIN_NAME);
	table_extra(l, t);
	list_add(l, "Calls", calls < 5 ? 5 : calls, 0, 2, true, 4, VIEW_MIN_NAME);
	l->col[TCOL_INCL].shown = l->col[TCOL_INCL_PCT].shown = l->col[l->n - 1].shown = incl;
	l->col[TCOL_INCL_PCT].together = l->col[TCOL_SELF_PCT].together = true;
	if (!t->disp->show_percent)
		l->col[TCOL_INCL_PCT].shown = l->col[TCOL_SELF_PCT].shown = false;
	l->units_give_way = 3;
	l->units_room = VIEW_MIN_NAME;
	l->trail = g->cols >= 120 ? (g->cols - 60) / 3 + 2 : 0;
	list_fit(l, g->cols);
}

/* ": 46 functions, 4.81% of the self cost]": what the filters keep, into buf. */
static void filter_counts(char *buf, size_t size, const struct table *t)
{
	uint64_t self = 0,
		 total =
		     t->p->nev ? view_pct_base(t->p, t->disp->event, t->totals[t->disp->event]) : 0;
	size_t n = 0;
	char pct[FMT_NUM];

	for (uint32_t f = 0; f < t->p->nfuncs; f++)
		if (profile_function_used(t->p, f) && (!t->keep || t->keep[f])) {
			u64_add_sat(&self, profile_self_at(t->p, f, t->disp->event));
			n++;
		}
	snprintf(buf, size, ": %zu function%s, %s of the self cost]", n, n == 1 ? "" : "s",
		 fmt_percent(pct, self, total));
}

#define TITLE_LEAST 16 /* what the path and the filters keep at least of the title line */

/*
 * "ncgrind: PATH  [FILTERS: N functions, P% of the self cost]": the counts
 * are what a filter is for, so where the line is too short the path gives
 * way first (keeping its end, the file's name), then the filters' text,
 * each cut with …, and they last.
 */
static void draw_title(struct grid *g, const struct table *t, const struct view_state *vs)
{
	const struct part *pt = t->p->nparts ? &t->p->parts[0] : NULL;
	const char *filters = vs->filters;
	char counts[160], path[1024];
	int c, room, fw = filters[0] ? list_width(filters) : 0;

	counts[0] = '\0';
	if (filters[0])
		filter_counts(counts, sizeof(counts), t);
	room = g->cols - 9 - (filters[0] ? 3 + (fw < TITLE_LEAST ? fw : TITLE_LEAST) : 0) -
	       list_width(counts);
	shorten_path(path, sizeof(path), span_make(vs->path, strlen(vs->path)),
		     room > TITLE_LEAST ? room : TITLE_LEAST);
	grid_fill(g, 0, 0, ATTR_TITLE);
	c = grid_puts_cut(g, 0, 0, "ncgrind: ", ATTR_TITLE);
	c += grid_puts_cut(g, 0, c, path, ATTR_TITLE);
	if (filters[0]) {
		c += grid_puts_cut(g, 0, c, "  [", ATTR_HOT);
		room = g->cols - c - list_width(counts);
		c += grid_put_cut(g, 0, c, filters, strlen(filters), room > 1 ? room : 1, ATTR_HOT);
		grid_puts_cut(g, 0, c, counts, ATTR_HOT);
	} else if (pt && pt->cmd.len) {
		c += grid_puts_cut(g, 0, c, "  cmd: ", ATTR_TITLE);
		grid_put_cut(g, 0, c, pt->cmd.ptr, pt->cmd.len, g->cols, ATTR_TITLE);
	}
}

/* "Events: Ir [Dr] ...   Total Dr: 1,200   Parts: 1": the current event in brackets. */
static void draw_events(struct grid *g, const struct table *t)
{
	char buf[FMT_NUM], line[512];
	int c;

	grid_fill(g, 1, 0, ATTR_NORMAL);
	c = grid_puts_cut(g, 1, 0, "Events:", ATTR_NORMAL);
	for (uint32_t e = 0; e < t->p->nev; e++) {
		struct span n = t->p->events[e].name;
		bool cur = e == t->disp->event;

		c += grid_puts_cut(g, 1, c, cur ? " [" : " ", ATTR_NORMAL);
		c += grid_put_cut(g, 1, c, n.ptr, n.len, g->cols, cur ? ATTR_HOT : ATTR_NORMAL);
		if (cur)
			c += grid_puts_cut(g, 1, c, "]", ATTR_NORMAL);
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
		grid_puts_cut(g, 1, c, line, ATTR_NORMAL);
	}
}

static void draw_heads(struct grid *g, const struct list *l)
{
	list_put_heads(g, 2, l, "Function");
	if (l->trail)
		grid_puts_cut(g, 2, g->cols - (l->trail - 2), "File", ATTR_HEAD);
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

static void draw_row(struct grid *g, int r, const struct table *t, size_t row, const struct list *l,
		     const char *name)
{
	const struct profile *p = t->p;
	uint32_t f = t->rows[row], ev = t->disp->event;
	const struct function *fn = &p->funcs[f];
	enum grid_attr a = row == t->nav.cursor ? ATTR_CURSOR : ATTR_NORMAL;
	uint64_t total = view_pct_base(p, ev, t->totals[ev]);
	char cells[LIST_MAX_COLUMNS][LIST_CELL], buf[64];
	size_t cut;
	int c;

	cells[TCOL_INCL][0] = cells[TCOL_INCL_PCT][0] = '\0';
	if (l->col[TCOL_INCL].shown) { /* (while the file is read, there are no inclusive costs) */
		fmt_value(cells[TCOL_INCL], profile_incl_at(p, f, ev), l->short_units,
			  t->disp->unit_ps);
		fmt_percent(cells[TCOL_INCL_PCT], profile_incl_at(p, f, ev), total);
	}
	fmt_value(cells[TCOL_SELF], profile_self_at(p, f, ev), l->short_units, t->disp->unit_ps);
	fmt_percent(cells[TCOL_SELF_PCT], profile_self_at(p, f, ev), total);
	fmt_commas(cells[l->n - 1], fn->calls);
	for (int i = TCOL_EXT; i < l->n - 1; i++)
		fmt_value(cells[i], profile_self_at(p, f, (uint32_t)l->col[i].tag), l->short_units,
			  fmt_event_unit(p, (uint32_t)l->col[i].tag));
	grid_fill(g, r, 0, a);
	c = list_put_cells(g, r, l, cells, a);
	/* the <cycle N> the shortening kept is dim */
	snprintf(buf, sizeof(buf), " <cycle %" PRIu32 ">", profile_cycle(p, f));
	cut = strlen(name);
	if (profile_cycle(p, f) && cut >= strlen(buf) && !strcmp(name + cut - strlen(buf), buf))
		cut -= strlen(buf);
	c += grid_put(g, r, c, name, cut, l->name, a);
	grid_put(g, r, c, name + cut, strlen(name + cut), l->name, a == ATTR_CURSOR ? a : ATTR_DIM);
	if (l->trail)
		draw_file(g, r, g->cols - (l->trail - 2), l->trail - 2, profile_name(p, fn->file),
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
	grid_put_cut(g, r + 1, 0, line, strlen(line), g->cols, ATTR_DIM);
}

static void draw_status(struct grid *g, const struct table *t, const struct view_state *vs)
{
	int r = g->rows - 1, c;
	char line[512];

	grid_fill(g, r, 0, ATTR_STATUS);
	if (vs->prompting) {
		view_draw_prompt(g, vs);
		return;
	}
	snprintf(line, sizeof(line), "%zu/%zu  sort: %s%s%.*s%s",
		 t->nav.count ? t->nav.cursor + 1 : 0, t->nav.count, report_sort_name(t->sort),
		 t->sort == SORT_SELF || t->sort == SORT_INCL ? " " : "",
		 t->sort == SORT_SELF || t->sort == SORT_INCL
		     ? (int)t->p->events[t->disp->event].name.len
		     : 0,
		 t->p->events[t->disp->event].name.ptr, t->reverse ? " (reversed)" : "");
	if (vs->message[0] && list_width(line) + 3 + list_width(vs->message) > g->cols) {
		/* a narrow screen: the message matters more than the position */
		grid_puts_cut(g, r, 0, vs->message,
			      vs->message_is_error ? ATTR_ERROR : ATTR_STATUS);
		return;
	}
	c = grid_puts(g, r, 0, line, ATTR_STATUS);
	if (vs->message[0])
		grid_puts_cut(g, r, c + 3, vs->message,
			      vs->message_is_error ? ATTR_ERROR : ATTR_STATUS);
	else
		grid_put_cut(g, r, c + 3, "? help  q quit", 14, g->cols, ATTR_STATUS);
}

static int columns_shown(const struct grid *g, const struct table *t)
{
	struct list l;
	int n = 0;

	table_columns(&l, g, t);
	for (int i = TCOL_EXT; i < l.n - 1; i++)
		n += l.col[i].shown;
	return n;
}

void ui_draw_table(struct grid *g, const struct table *t, const struct view_state *vs)
{
	struct list l;
	int rows = ui_table_rows(g);
	size_t n = t->nav.top < t->nav.count ? t->nav.count - t->nav.top : 0;
	struct shorten_set names;

	grid_clear(g);
	table_columns(&l, g, t);
	draw_title(g, t, vs);
	draw_events(g, t);
	draw_heads(g, &l);
	/* the rows in view are shortened together, so that no two read the same */
	shorten_set_init(&names, n < (size_t)rows ? n : (size_t)rows);
	for (size_t i = 0; i < names.n; i++) {
		shorten_set_function(&names, i, t->p, t->rows[t->nav.top + i], l.name, NULL);
		if (l.trail) /* (the file column tells them apart) */
			names.rows[i].file = span_make("", 0);
	}
	shorten_set_apply(&names);
	for (size_t i = 0; i < names.n; i++)
		draw_row(g, HEAD_ROWS + (int)i, t, t->nav.top + i, &l, shorten_set_out(&names, i));
	shorten_set_release(&names);
	if (!t->nav.count)
		grid_puts(g, HEAD_ROWS, 0, "(no functions)", ATTR_DIM);
	if (has_name_line(g))
		draw_name_line(g, t, g->rows - 3);
	draw_status(g, t, vs);
}

struct table_screen {
	struct table t;
};

static const struct screen_ops screen_table_ops; /* at the end */

static struct table *tab(struct screen *s)
{
	return &((struct table_screen *)s->state)->t;
}

static void table_screen_free(void *state)
{
	table_release(&((struct table_screen *)state)->t);
	free(state);
}

void ui_open_table(struct ui *u)
{
	struct table_screen *ts = xcalloc(1, sizeof(*ts));

	table_init(&ts->t, &u->ses.prof, &u->disp);
	ts->t.keep = u->narrowed ? u->ses.keep : NULL;
	table_refresh(&ts->t);
	hist_init(&u->hist, &screen_table_ops, ts, table_screen_free);
}

static struct nav *table_nav(struct ui *u, struct screen *s)
{
	(void)u;
	return &tab(s)->nav;
}

static int table_rows(const struct ui *u)
{
	return ui_table_rows(&u->g);
}

/* The name line starts at the start of a new selection's name. */
static void table_moved(struct ui *u, struct screen *s, int dir)
{
	(void)u, (void)dir;
	tab(s)->name_scroll = 0;
}

static void table_draw(struct ui *u, struct screen *s)
{
	ui_draw_table(&u->g, tab(s), &u->vs);
}

/* Scroll the name line by half a screen, not past the end of the name. */
static void name_right(struct ui *u, struct table *t)
{
	uint32_t f = table_selected(t);
	struct span name;
	int room;

	if (f == NCG_NONE)
		return;
	name = profile_name(&u->ses.prof, u->ses.prof.funcs[f].name);
	room = grid_width(name.ptr, name.len) - (u->g.cols - 2);
	if (t->name_scroll < room)
		t->name_scroll +=
		    u->g.cols / 2 < room - t->name_scroll ? u->g.cols / 2 : room - t->name_scroll;
}

/*
 * A match in the part of a long name that the table shortens (<…>, (…)) or
 * that runs past the screen: the full name's line scrolls to it.
 */
static void table_show_match(struct ui *u, struct screen *s, size_t row, size_t start, size_t end)
{
	struct table *t = tab(s);
	struct span name = profile_name(&u->ses.prof, u->ses.prof.funcs[t->rows[row]].name);
	int from = grid_width(name.ptr, start < name.len ? start : name.len);
	int to = grid_width(name.ptr, end < name.len ? end : name.len);
	int room = grid_width(name.ptr, name.len) - (u->g.cols - 2);

	if (to <= u->g.cols - 2 || room <= 0)
		return;
	t->name_scroll = from - u->g.cols / 4 > 0 ? from - u->g.cols / 4 : 0;
	if (t->name_scroll > room)
		t->name_scroll = room;
}

/* :sort KEY: that order, from its top (a key already in use keeps its direction). */
static bool table_sort_set(struct ui *u, struct screen *s, enum report_sort key)
{
	struct table *t = tab(s);

	t->reverse = false;
	t->sort = key;
	table_refresh(t);
	t->nav.cursor = t->nav.top = 0;
	t->name_scroll = 0;
	nav_scroll(&t->nav, table_rows(u));
	return true;
}

static bool table_request(struct ui *u, struct screen *s, enum request req)
{
	struct table *t = tab(s);

	switch (req) {
	case REQ_SORT_INCL:
	case REQ_SORT_SELF:
	case REQ_SORT_CALLS:
	case REQ_SORT_NAME:
		table_sort(t, req == REQ_SORT_INCL    ? SORT_INCL
			      : req == REQ_SORT_SELF  ? SORT_SELF
			      : req == REQ_SORT_CALLS ? SORT_CALLS
						      : SORT_NAME);
		t->name_scroll = 0;
		break;
	case REQ_NAME_RIGHT:
		name_right(u, t);
		break;
	case REQ_FLAME: /* from the table: the whole profile, from its entry points */
		ui_open_flame(u, NCG_NONE, false, true);
		return true;
	case REQ_NAME_LEFT:
		t->name_scroll -= t->name_scroll > u->g.cols / 2 ? u->g.cols / 2 : t->name_scroll;
		break;
	default:
		return false;
	}
	nav_scroll(&t->nav, table_rows(u));
	return true;
}

static uint32_t table_fn(struct ui *u, struct screen *s)
{
	(void)u;
	return table_selected(tab(s));
}

/* The cursor on fn, if it is one of the rows. */
static bool table_select(struct ui *u, struct screen *s, uint32_t fn)
{
	struct table *t = tab(s);

	for (size_t i = 0; fn != NCG_NONE && i < t->nav.count; i++)
		if (t->rows[i] == fn) {
			nav_to(&t->nav, i, table_rows(u));
			return true;
		}
	return false;
}

static int table_columns_shown(struct ui *u, struct screen *s)
{
	return columns_shown(&u->g, tab(s));
}

/* :top N: the first N rows (0: all). */
static bool table_top(struct ui *u, struct screen *s, size_t n)
{
	tab(s)->limit = n;
	table_refresh(tab(s));
	nav_scroll(&tab(s)->nav, table_rows(u));
	return true;
}

static bool table_text(struct ui *u, struct screen *s, size_t row, char *buf, size_t size)
{
	struct span name = profile_name(&u->ses.prof, u->ses.prof.funcs[tab(s)->rows[row]].name);

	snprintf(buf, size, "%.*s", (int)name.len, name.ptr);
	return true;
}

/* The whole table, not just the screen: the report of what it shows. */
static int table_write(struct ui *u, struct screen *s, FILE *f)
{
	struct report_opts o = {0};
	uint32_t ev = u->disp.event;

	o.kind = REPORT_FUNCTIONS;
	o.format = REPORT_TEXT;
	o.sort = tab(s)->sort;
	o.sort_event = ev;
	o.events = &ev;
	o.nevents = 1;
	o.keep = tab(s)->keep;
	o.filtered_by = u->vs.filters; /* (the head says which filters made it) */
	return report_write(f, &u->ses.prof, &o);
}

/* The event, the filters, the parts or the cycle mode changed: sorted again, on the same function.
 */
static void table_update(struct ui *u, struct screen *s)
{
	struct table *t = tab(s);

	t->keep = u->narrowed ? u->ses.keep : NULL;
	table_refresh(t);
	nav_scroll(&t->nav, table_rows(u));
}

/* The keys of the screen (the generic keymap of keys.c comes after them). */
static const struct key_binding table_keys[] = {
    {'i', REQ_SORT_INCL, NULL},    {'s', REQ_SORT_SELF, NULL},  {'c', REQ_SORT_CALLS, NULL},
    {'a', REQ_SORT_NAME, NULL},    {'>', REQ_NAME_RIGHT, NULL}, {'<', REQ_NAME_LEFT, NULL},
    {KEYS_RIGHT, REQ_ENTER, NULL},
};

struct keymap keymap_table = KEYMAP("table", "the function table", table_keys);

static const struct screen_ops screen_table_ops = {
    .keymap = &keymap_table,
    .nav = table_nav,
    .rows = table_rows,
    .moved = table_moved,
    .draw = table_draw,
    .request = table_request,
    .selected = table_fn,
    .row_text = table_text,
    .show_match = table_show_match,
    .write = table_write,
    .update = table_update,
    .sort = table_sort_set,
    .select = table_select,
    .top = table_top,
    .columns_shown = table_columns_shown,
    .first_row = HEAD_ROWS,
};
