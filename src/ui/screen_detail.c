/*
 * screen_detail: a function's callers and callees (detail.c is its
 * view-model).
 */
#include "ui_internal.h"
#include "ncgrind/model/fmt.h"
#include "ncgrind/model/shorten.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const struct screen_ops screen_detail_ops; /* at the end */

static struct detail *ds(struct screen *s)
{
	return s->state;
}

static void detail_free(void *state)
{
	detail_release(state);
	free(state);
}

void ui_open_detail(struct ui *u, uint32_t fn)
{
	struct screen *s;

	if (fn == NCG_NONE)
		return;
	s = ui_push_screen(u, &screen_detail_ops, xcalloc(1, sizeof(struct detail)), detail_free);
	detail_init(s->state, &u->ses.prof, session_graph(&u->ses), fn, u->disp.event);
	detail_move(s->state, 0, ui_list_rows(u));
}

static struct nav *detail_nav(struct ui *u, struct screen *s)
{
	(void)u;
	return &ds(s)->nav;
}

/* The cursor skips the headings ("callers", "callees") the way it went. */
static void detail_moved(struct ui *u, struct screen *s, int dir)
{
	detail_settle(s->state, dir, ui_list_rows(u));
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

static bool is_call(const struct detail_row *dr)
{
	return dr->kind == DROW_CALLER || dr->kind == DROW_CALLEE;
}

/* Whether a caller or callee row of d has a call site worth a column head. */
static bool has_sites(const struct detail *d)
{
	char buf[64];

	for (size_t i = 0; i < d->nav.count; i++)
		if (is_call(&d->rows[i]) && site_text(buf, sizeof(buf), d->p, &d->rows[i]))
			return true;
	return false;
}

/* A row's call cost in event ev: its share of the caller (graph.h). */
static uint64_t row_cost(const struct detail *d, size_t row, uint32_t ev)
{
	return graph_call_cost(d->p, d->g, d->rows[row].edge, ev);
}

/*
 * The widest call cost of the event shown, per event of :set columns into
 * ext_w (nev). A share is at most the caller's inclusive cost, so the total
 * is nearly always the widest; the rows are looked at all the same.
 */
static uint64_t widest(const struct detail *d, const struct view_ctx *t, uint64_t *ext_w)
{
	uint64_t w = d->p->totals[t->disp->event];

	for (size_t i = 0; i < d->nav.count; i++) {
		uint64_t v;

		if (!is_call(&d->rows[i]))
			continue;
		v = row_cost(d, i, t->disp->event);
		w = v > w ? v : w;
		for (uint32_t k = 0; k < t->disp->ncolumns; k++) {
			uint32_t e = t->disp->columns[k];

			if (e < d->p->nev && (v = row_cost(d, i, e)) > ext_w[e])
				ext_w[e] = v;
		}
	}
	return w;
}

/* The columns of the screen, fitted to g. */
static void columns(struct list *l, const struct grid *g, const struct detail *d,
		    const struct view_ctx *t)
{
	static const char *const titles[3] = {"Cost", "%total", "%func"};
	uint64_t *ext_w = xcalloc(d->p->nev + 1, sizeof(uint64_t));

	view_calls_columns(l, g, t, titles, widest(d, t, ext_w), has_sites(d), ext_w);
	free(ext_w);
}

/* A caller or callee row: its function, and whether the call is recursive. */
static uint32_t row_function(const struct detail *d, size_t row, const char **extra)
{
	const struct call_edge *e = &d->p->edges[d->rows[row].edge];
	*extra = graph_call_recursive(d->p, e->caller, e->callee) ? " [" GRAPH_RECURSIVE "]" : NULL;
	return d->rows[row].kind == DROW_CALLER ? e->caller : e->callee;
}

/* The names of rows [from, from + names->n), shortened together. */
static void row_names(struct shorten_set *names, const struct detail *d, size_t from,
		      const struct list *l)
{
	for (size_t i = 0; i < names->n; i++) {
		const char *extra = NULL;
		uint32_t f;

		if (!is_call(&d->rows[from + i])) {
			shorten_set_text(names, i, span_make("", 0), span_make("", 0), 0);
			continue;
		}
		f = row_function(d, from + i, &extra);
		shorten_set_function(names, i, d->p, f, l->name, extra);
	}
	shorten_set_apply(names);
}

/* "Callers (3)": a heading row, and how many rows of its kind follow it. */
static void draw_heading(struct grid *g, int r, const struct detail *d, size_t row)
{
	const struct detail_row *dr = &d->rows[row];
	char line[64];
	size_t n = 0;

	for (size_t i = row + 1; i < d->nav.count && d->rows[i].kind == dr->kind + 1; i++)
		n++;
	snprintf(line, sizeof(line), "%s (%zu)", dr->kind == DROW_CALLERS ? "Callers" : "Callees",
		 n);
	grid_fill(g, r, 0, ATTR_TITLE);
	grid_puts(g, r, 0, line, ATTR_TITLE);
}

static void draw_row(struct grid *g, int r, const struct detail *d, size_t row,
		     const struct view_ctx *t, const struct list *l, const char *name)
{
	const struct detail_row *dr = &d->rows[row];
	const struct profile *p = d->p;
	enum grid_attr a = row == d->nav.cursor ? ATTR_CURSOR : ATTR_NORMAL;
	char cells[LIST_MAX_COLUMNS][LIST_CELL], count[FMT_NUM], site[1100];
	uint64_t ext[DISPLAY_MAX_COLUMNS];
	uint32_t ev = t->disp->event;
	int c;

	if (!is_call(dr)) {
		draw_heading(g, r, d, row);
		return;
	}
	for (int i = VCOL_EXT; i < l->n; i++)
		ext[i - VCOL_EXT] = row_cost(d, row, (uint32_t)l->col[i].tag);
	view_calls_cells(cells, l, t, row_cost(d, row, ev), p->totals[ev],
			 profile_incl_at(p, d->fn, ev), fmt_commas(count, p->edges[dr->edge].count),
			 ext);
	grid_fill(g, r, 0, a);
	c = list_put_cells(g, r, l, cells, a);
	/* the call site gives way: after the name (shortened with the rows shown) where it fits */
	c += grid_puts(g, r, c, name, a);
	if (l->col[VCOL_SITE].shown && site_text(site, sizeof(site), p, dr) &&
	    grid_width(site, strlen(site)) <= g->cols - c)
		grid_puts(g, r, c, site, a == ATTR_CURSOR ? a : ATTR_DIM);
}

static void draw(struct grid *g, const struct detail *d, const struct view_ctx *t,
		 const struct view_state *vs)
{
	int rows = view_list_rows(g);
	size_t n = d->nav.top < d->nav.count ? d->nav.count - d->nav.top : 0;
	struct shorten_set names;
	struct list l;

	columns(&l, g, d, t);
	grid_clear(g);
	view_function_head(g, d->p, d->fn, t, "callers and callees");
	list_put_heads(g, VIEW_LIST_HEAD - 1, &l,
		       l.col[VCOL_SITE].shown ? "Function  call site" : "Function");
	if (view_no_calls(g, d->p))
		rows = 0;
	shorten_set_init(&names, n < (size_t)rows ? n : (size_t)rows);
	row_names(&names, d, d->nav.top, &l);
	for (size_t i = 0; i < names.n; i++)
		draw_row(g, VIEW_LIST_HEAD + (int)i, d, d->nav.top + i, t, &l,
			 shorten_set_out(&names, i));
	shorten_set_release(&names);
	view_draw_status(g, &d->nav, vs,
			 profile_has_calls(d->p) ? "Enter: open  t/r: tree  Backspace: back"
						 : NO_CALLS_HINT);
}

static void detail_draw(struct ui *u, struct screen *s)
{
	draw(&u->g, s->state, &u->view, &u->vs);
}

static void sort_by(struct ui *u, struct screen *s, enum report_sort key, const char *what)
{
	detail_sort(s->state, key, ui_list_rows(u));
	ui_message(u, false, "callers and callees by %s%s", what,
		   ds(s)->reverse ? " (reversed)" : "");
}

/* i, c, a: by the cost of the calls, their count ("who calls malloc most often"), name. */
static bool detail_request(struct ui *u, struct screen *s, enum request req)
{
	switch (req) {
	case REQ_SORT_INCL:
		sort_by(u, s, SORT_INCL, "the cost of the calls");
		return true;
	case REQ_SORT_CALLS:
		sort_by(u, s, SORT_CALLS, "the number of calls");
		return true;
	case REQ_SORT_NAME:
		sort_by(u, s, SORT_NAME, "name");
		return true;
	case REQ_SORT_SELF:
		ui_message(u, false, "callers and callees have no self cost: i, c or a sort them");
		return true;
	default:
		return false;
	}
}

static uint32_t detail_fn(struct ui *u, struct screen *s)
{
	(void)u;
	return detail_target(s->state);
}

/* A caller's or callee's name; the headings have none. */
static bool detail_text(struct ui *u, struct screen *s, size_t row, char *buf, size_t size)
{
	const struct detail_row *r = &ds(s)->rows[row];
	const struct call_edge *e;
	struct span name;

	if (r->kind != DROW_CALLER && r->kind != DROW_CALLEE)
		return false;
	e = &u->ses.prof.edges[r->edge];
	name = profile_name(&u->ses.prof,
			    u->ses.prof.funcs[r->kind == DROW_CALLER ? e->caller : e->callee].name);
	snprintf(buf, size, "%.*s", (int)name.len, name.ptr);
	return true;
}

struct detail_write {
	const struct detail *d;
	const struct view_ctx *t;
	struct list l;
};

static void write_row(void *ctx, struct grid *g, size_t i)
{
	struct detail_write *w = ctx;
	struct shorten_set names;

	shorten_set_init(&names, 1);
	row_names(&names, w->d, i, &w->l);
	draw_row(g, 0, w->d, i, w->t, &w->l, shorten_set_out(&names, 0));
	shorten_set_release(&names);
}

/* :write: every row, at a width where nothing gives way and no name is shortened. */
static void write_head(void *ctx, struct grid *g)
{
	struct detail_write *w = ctx;
	struct view_state vs = {0};

	draw(g, w->d, w->t, &vs);
	columns(&w->l, g, w->d, w->t);
}

static int detail_write(struct ui *u, struct screen *s, FILE *f)
{
	struct detail_write w = {.d = s->state, .t = &u->view};

	return list_write(f, VIEW_LIST_HEAD, w.d->nav.count, write_head, write_row, &w);
}

/* Another event: the rows sorted again by it, the cursor on the first. */
static void detail_update(struct ui *u, struct screen *s)
{
	uint32_t fn = ds(s)->fn;
	enum report_sort sort = ds(s)->sort;
	bool reverse = ds(s)->reverse;

	detail_release(s->state);
	detail_init(s->state, &u->ses.prof, session_graph(&u->ses), fn, u->disp.event);
	if (sort != SORT_INCL || reverse) /* detail_init() sorts by cost */
		detail_order(s->state, sort, reverse, ui_list_rows(u));
	else
		detail_move(s->state, 0, ui_list_rows(u));
}

static uint32_t detail_subject(struct ui *u, struct screen *s, unsigned *mode)
{
	(void)u, (void)mode;
	return ds(s)->fn;
}

static void detail_reopen(struct ui *u, uint32_t fn, unsigned mode)
{
	(void)mode;
	ui_open_detail(u, fn);
}

/* :sort KEY: by the cost of the calls (incl), their count or name; they have no self cost. */
static bool detail_sort_set(struct ui *u, struct screen *s, enum report_sort key)
{
	if (key == SORT_SELF)
		return false;
	detail_order(s->state, key, false, ui_list_rows(u));
	return true;
}

/* The keys of the screen (the generic keymap of keys.c comes after them). */
static const struct key_binding callers_keys[] = {
    {'i', REQ_SORT_INCL, "sort by the cost of the calls (again: reverse)"},
    {'c', REQ_SORT_CALLS, "sort by the number of calls (again: reverse)"},
    {'a', REQ_SORT_NAME, NULL},
    {KEYS_RIGHT, REQ_ENTER, "go to the function of the row: its callers and callees"},
    {'\n', REQ_ENTER, "go to the function of the row: its callers and callees"},
    {KEYS_ENTER, REQ_ENTER, "go to the function of the row: its callers and callees"},
    {KEYS_LEFT, REQ_BACK, NULL},
    {'h', REQ_BACK, NULL},
};

struct keymap keymap_callers = KEYMAP("callers", "a function's callers and callees", callers_keys);

static const struct screen_ops screen_detail_ops = {
    .keymap = &keymap_callers,
    .nav = detail_nav,
    .rows = ui_list_rows,
    .moved = detail_moved,
    .draw = detail_draw,
    .request = detail_request,
    .selected = detail_fn,
    .row_text = detail_text,
    .write = detail_write,
    .update = detail_update,
    .subject = detail_subject,
    .reopen = detail_reopen,
    .sort = detail_sort_set,
    .first_row = VIEW_LIST_HEAD,
};
