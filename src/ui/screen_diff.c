/*
 * screen_diff: the functions of two profiles, base and new (--diff BASE
 * NEW, or :diff FILE with the open profile as the new one): each with its
 * base and new cost in the event shown, the change, the change as a share
 * of the base's total, the ratio, and whether it is new or gone; biggest
 * change first. s and i sort by the change of the self or inclusive cost,
 * again to see the most grown first, then the most shrunk first; Enter
 * opens the function's callers and callees as a diff too (each call's base
 * and new cost and count), and Enter there goes on to that function; t, r,
 * T and v open trees and the source as diffs (screen_difftree.c,
 * screen_diffsrc.c). The diff itself is model/diff.c.
 */
#include "ui_internal.h"

#include "ncgrind/model/fmt.h"
#include "ncgrind/model/shorten.h"

#include <stdlib.h>
#include <string.h>

#define RATIO_W 8            /* the ratio column */
#define DIFF_SHARE_W 9       /* the %base column: "+12.34%", fewer decimals where it is large */
#define DCOL_STATUS DCOL_OWN /* new, gone: the functions' and the calls' own column */

struct diff_screen {
	struct nav nav;
	size_t *order;
	bool incl; /* sorted by the inclusive cost's change */
	int dir;   /* 0: biggest change first; 1: most grown first; -1: most shrunk first */
};

static const struct screen_ops screen_diff_ops, screen_diff_calls_ops; /* at the end */

/* The detail lines under the list (the function's whole name, its file and object). */
static bool has_detail(const struct grid *g)
{
	return g->rows >= 10;
}

int ui_diff_list_rows(const struct grid *g)
{
	int r = view_list_rows(g) - (has_detail(g) ? 2 : 0);

	return r > 1 ? r : 1;
}

int ui_diff_rows(const struct ui *u)
{
	return ui_diff_list_rows(&u->g);
}

static struct diff_screen *state_of(struct screen *s)
{
	return s->state;
}

static void diff_screen_free(void *state)
{
	struct diff_screen *ds = state;

	free(ds->order);
	free(ds);
}

/*
 * The width of the base, new and change columns: 14, or wide enough for
 * the bigger total in the units shown, and its sign.
 */
static int diff_width(const struct ui *u, bool short_units, int least)
{
	const struct diff *d = u->diff;
	uint32_t e = ui_diff_event(u);
	uint64_t big =
	    d->nev ? (d->total_base[e] > d->total_new[e] ? d->total_base[e] : d->total_new[e]) : 0;
	char buf[FMT_NUM];
	int w = (int)strlen(fmt_value(buf, big, short_units, u->disp.unit_ps)) + 1;

	return w > least ? w : least;
}

/*
 * The diff's event shown: one only the base has (stepped to with Tab on a
 * diff screen), else the event shown (the new profile's come first in the
 * diff's, in its order).
 */
uint32_t ui_diff_event(const struct ui *u)
{
	if (u->diff_event != NCG_NONE && u->diff_event < u->diff->nev)
		return u->diff_event;
	return u->disp.event < u->diff->nev ? u->disp.event : 0;
}

/* Tab, S-Tab on a diff screen: through the events of both profiles. */
void ui_diff_step_event(struct ui *u, int dir)
{
	uint32_t n = u->diff->nev, e;

	if (n < 2) {
		ui_message(u, false, "the two profiles have one event");
		return;
	}
	e = (ui_diff_event(u) + n + (uint32_t)(dir > 0 ? 1 : n - 1)) % n;
	if (e < u->ses.prof.nev) {
		ui_set_event(u, e);
		return;
	}
	u->diff_event = e;
	ui_message(u, false, "%.*s: an event of the base only", (int)u->diff->ev_name[e].len,
		   u->diff->ev_name[e].ptr);
	ui_refresh_all(u);
}

static void sort_rows(struct ui *u, struct diff_screen *ds)
{
	free(ds->order);
	ds->order = diff_order(u->diff, ui_diff_event(u), ds->incl, ds->dir);
	ds->nav.count = u->diff->nrows;
}

static const char *status_word(const struct diff *d, size_t r)
{
	if (d->rows[r].base == NCG_NONE)
		return "new";
	return d->rows[r].new == NCG_NONE ? "gone" : "";
}

/*
 * x with as many of its decimals (at most `decimals`) as fit in width
 * columns, else in e-notation: a ratio of 18209.949 reads 18209.95 in its
 * column of 8 rather than pushing the rest of the row to the right. The
 * reports write the full value.
 */
static char *fit_decimal(char *buf, double x, int decimals, bool sign, int width)
{
	for (int d = decimals; d >= 0; d--) {
		snprintf(buf, FMT_NUM, sign ? "%+.*f" : "%.*f", d, x);
		if ((int)strlen(buf) <= width)
			return buf;
	}
	snprintf(buf, FMT_NUM, sign ? "%+.1e" : "%.1e", x);
	return buf;
}

/* The change from b to n as a share of total, "+12.34%" (or "-"), in its column. */
static char *diff_share(char *buf, uint64_t b, uint64_t n, uint64_t total)
{
	double ch = n >= b ? (double)(n - b) : -(double)(b - n);

	if (!total)
		return strcpy(buf, "-");
	fit_decimal(buf, 100.0 * ch / (double)total, 2, true, DIFF_SHARE_W - 1);
	return strcat(buf, "%");
}

/* new / base in the ratio column (inf from nothing, - for nothing from nothing) */
static char *ratio_text(char *buf, uint64_t b, uint64_t n)
{
	if (!b)
		return fmt_ratio(buf, b, n);
	return fit_decimal(buf, (double)n / (double)b, 3, false, RATIO_W);
}

void ui_diff_columns(const struct ui *u, struct list *l, bool share, bool ratio, int room)
{
	static const char *const title[] = {"Base", "New", "Change"};
	/* narrow: as wide as the values, and "Change"; short: a short change and its sign */
	int w = diff_width(u, false, 14), sw = diff_width(u, true, 14),
	    nw = diff_width(u, false, 6),
	    nsw = diff_width(u, true, view_short_width(u->disp.unit_ps) + 1);

	list_init(l, u->disp.short_units, 2);
	l->flush_left = true; /* (the change alone starts at column 0) */
	for (int i = DCOL_BASE; i <= DCOL_CHANGE; i++) {
		list_add(l, title[i], w, sw, i == DCOL_BASE ? 0 : 1, true, i == DCOL_CHANGE ? 0 : 6,
			 room);
		list_narrow(l, i, nw, nsw, 1, room);
		l->col[i].together = true;
	}
	list_add(l, "%base", DIFF_SHARE_W, 0, 1, true, 3, room);
	list_add(l, "Ratio", RATIO_W, 0, 1, true, 2, room);
	l->col[DCOL_SHARE].shown = share;
	l->col[DCOL_RATIO].shown = ratio;
	l->units_give_way = 4;
	l->units_room = room;
}

void ui_diff_cells(const struct ui *u, const struct list *l, char (*cells)[LIST_CELL], uint64_t b,
		   uint64_t n, uint64_t total)
{
	fmt_value(cells[DCOL_BASE], b, l->short_units, u->disp.unit_ps);
	fmt_value(cells[DCOL_NEW], n, l->short_units, u->disp.unit_ps);
	fmt_change(cells[DCOL_CHANGE], b, n, l->short_units, u->disp.unit_ps);
	diff_share(cells[DCOL_SHARE], b, n, total);
	ratio_text(cells[DCOL_RATIO], b, n);
}

int ui_diff_put_cells(struct grid *g, int y, const struct list *l, char (*cells)[LIST_CELL],
		      uint64_t b, uint64_t n, enum grid_attr a)
{
	enum grid_attr mark = a == ATTR_CURSOR ? a : n > b ? ATTR_GROWN : n < b ? ATTR_SHRUNK : a;

	return list_put_cells_marked(g, y, l, cells, a, DCOL_CHANGE, mark);
}

static struct span row_fn_name(const struct diff *d, uint32_t row)
{
	const struct profile *p;
	uint32_t f = diff_function(d, row, &p);

	return p->funcs[f].name == NCG_NONE ? span_make("(unknown)", 9)
					    : profile_name(p, p->funcs[f].name);
}

/*
 * The columns of the functions and the calls: the diff's, then new or
 * gone; on a wide screen the file at the right, as in the table.
 */
static void columns(const struct ui *u, struct list *l, int cols, bool ratio)
{
	ui_diff_columns(u, l, true, ratio, DIFF_MIN_NAME);
	list_add(l, "", 4, 0, 2, false, 0, 0);
	l->trail = ui_diff_trail(cols);
	list_fit(l, cols);
}

int ui_diff_trail(int cols)
{
	return cols >= 120 ? (cols - 60) / 3 + 2 : 0; /* as the table's */
}

static struct span name_or(const struct profile *p, uint32_t id, const char *none)
{
	return id == NCG_NONE ? span_make(none, strlen(none)) : profile_name(p, id);
}

void ui_diff_put_file(struct grid *g, int y, const struct list *l, const struct diff *d, uint32_t r,
		      enum grid_attr a)
{
	const struct profile *p;
	uint32_t f = diff_function(d, r, &p);
	char buf[SHORTEN_SIZE];

	if (!l->trail)
		return;
	shorten_path(buf, sizeof(buf), name_or(p, p->funcs[f].file, "???"), l->trail - 2);
	grid_puts_cut(g, y, g->cols - (l->trail - 2), buf, a == ATTR_CURSOR ? a : ATTR_DIM);
}

void ui_diff_file_head(struct grid *g, int y, const struct list *l)
{
	char head[LIST_WRITE_COLS + 8];

	/* (over the end of a long title of the names) */
	if (l->trail && g->cols - l->trail >= 0) {
		snprintf(head, sizeof(head), "  %-*s", l->trail - 2, "File");
		grid_puts_cut(g, y, g->cols - l->trail, head, ATTR_HEAD);
	}
}

/* "A" where both sides say A, else "A -> B" (base -> new), into buf. */
static void both_sides(char *buf, size_t size, struct span b, struct span n)
{
	if (b.len == n.len && !memcmp(b.ptr, n.ptr, b.len))
		snprintf(buf, size, "%.*s", (int)n.len, n.ptr);
	else
		snprintf(buf, size, "%.*s -> %.*s", (int)b.len, b.ptr, (int)n.len, n.ptr);
}

void ui_diff_detail(const struct diff *d, struct grid *g, uint32_t r)
{
	int y = g->rows - 3;
	const struct profile *p;
	uint32_t f, other = r == NCG_NONE ? NCG_NONE : d->elsewhere[r];
	char line[2400], file[1100], obj[1100];
	struct span name;

	if (!has_detail(g))
		return;
	grid_fill(g, y, 0, ATTR_NORMAL);
	grid_fill(g, y + 1, 0, ATTR_DIM);
	if (r == NCG_NONE)
		return;
	f = diff_function(d, r, &p);
	name = name_or(p, p->funcs[f].name, "(unknown)");
	grid_put_cut(g, y, 0, name.ptr, name.len, g->cols, ATTR_NORMAL);
	if (d->rows[r].base != NCG_NONE && d->rows[r].new != NCG_NONE) {
		const struct function *b = &d->base->funcs[d->rows[r].base],
				      *n = &d->new->funcs[d->rows[r].new];

		both_sides(file, sizeof(file), name_or(d->base, b->file, "???"),
			   name_or(d->new, n->file, "???"));
		both_sides(obj, sizeof(obj), name_or(d->base, b->object, "???"),
			   name_or(d->new, n->object, "???"));
		snprintf(line, sizeof(line), "file: %s  object: %s%s", file, obj,
			 diff_row_moved(d, r) ? "  (matched across directories)" : "");
	} else if (other != NCG_NONE) {
		const struct profile *op = p == d->new ? d->base : d->new;
		struct span of = name_or(op, op->funcs[other].file, "???");

		snprintf(line, sizeof(line),
			 "%s: the %s has it in %.*s (--mod-filename matches them)",
			 p == d->new ? "new" : "gone", p == d->new ? "base" : "new profile",
			 (int)of.len, of.ptr);
	} else {
		struct span fi = name_or(p, p->funcs[f].file, "???"),
			    ob = name_or(p, p->funcs[f].object, "???");

		snprintf(line, sizeof(line), "%s: file: %.*s  object: %.*s",
			 p == d->new ? "new" : "gone", (int)fi.len, fi.ptr, (int)ob.len, ob.ptr);
	}
	grid_put_cut(g, y + 1, 0, line, strlen(line), g->cols, ATTR_DIM);
}

/* Diff row r on row y of g: its costs (self or incl), its status, then name. */
static void draw_fn_row(const struct ui *u, const struct diff_screen *ds, struct grid *g, int y,
			const struct list *l, size_t r, const char *name, enum grid_attr a)
{
	const struct diff *d = u->diff;
	uint32_t e = ui_diff_event(u);
	char cells[LIST_MAX_COLUMNS][LIST_CELL];

	uint64_t b = diff_cost(d, r, false, ds->incl, e), n = diff_cost(d, r, true, ds->incl, e);

	ui_diff_cells(u, l, cells, b, n, d->total_base[e]);
	snprintf(cells[DCOL_STATUS], LIST_CELL, "%s", status_word(d, r));
	grid_fill(g, y, 0, a);
	grid_puts(g, y, ui_diff_put_cells(g, y, l, cells, b, n, a), name, a);
}

/* Row i of names: the function of diff row r, as its profile names it. */
static void diff_name(const struct diff *d, uint32_t r, struct shorten_set *names, size_t i,
		      int width, const char *extra)
{
	const struct profile *p;
	uint32_t f = diff_function(d, r, &p);

	shorten_set_function(names, i, p, f, width, extra);
}

static bool same_span(struct span a, struct span b)
{
	return a.len == b.len && !memcmp(a.ptr, b.ptr, a.len);
}

void ui_diff_tell_apart(const struct diff *d, struct shorten_set *names, const uint32_t *rows,
			bool file_column)
{
	bool *alike = xcalloc(names->n ? names->n : 1, sizeof(bool));

	for (size_t i = 0; i < names->n; i++)
		for (size_t j = i + 1; !file_column && j < names->n; j++)
			if (rows[i] != NCG_NONE && rows[j] != NCG_NONE && rows[i] != rows[j] &&
			    same_span(names->rows[i].name, names->rows[j].name) &&
			    same_span(names->rows[i].file, names->rows[j].file))
				alike[i] = alike[j] = true;
	for (size_t i = 0; i < names->n; i++) {
		const struct profile *p;
		uint32_t f;

		if (rows[i] == NCG_NONE)
			continue;
		if (file_column) {
			names->rows[i].file = span_make("", 0);
		} else if (alike[i]) {
			f = diff_function(d, rows[i], &p);
			names->rows[i].file = name_or(p, p->funcs[f].object, "???");
		}
	}
	free(alike);
}

const char *ui_diff_matched(const struct diff *d, char *buf, size_t size)
{
	if (d->matched_dir)
		snprintf(buf, size, "%zu matched (%zu across directories)", d->matched,
			 d->matched_dir);
	else
		snprintf(buf, size, "%zu matched", d->matched);
	return buf;
}

const char *ui_diff_elsewhere(const struct diff *d, char *buf, size_t size)
{
	size_t n = d->elsewhere_gone + d->elsewhere_new;

	buf[0] = '\0';
	if (n)
		snprintf(buf, size, "; %zu in other files (--mod-filename)", n);
	return buf;
}

/*
 * "ncgrind: WHAT  [FILTERS: 3 of 249 functions]": the title of a diff
 * screen; as the table's, the filters and their counts last, WHAT gives way.
 */
void ui_diff_title(const struct ui *u, struct grid *g, const char *what)
{
	const char *filters = u->diff->filtered ? u->vs.filters : "";
	char counts[80];
	int c, room;

	grid_fill(g, 0, 0, ATTR_TITLE);
	if (!filters[0]) {
		grid_puts_cut(g, 0, 0, what, ATTR_TITLE);
		return;
	}
	snprintf(counts, sizeof(counts), ": %zu of %zu functions]", u->diff->nrows,
		 u->diff->nrows_all);
	room = g->cols - 3 - (int)strlen(counts) - list_width(filters);
	c = grid_put_cut(g, 0, 0, what, strlen(what), room > 16 ? room : 16, ATTR_TITLE);
	c += grid_puts_cut(g, 0, c, "  [", ATTR_HOT);
	room = g->cols - c - (int)strlen(counts);
	c += grid_put_cut(g, 0, c, filters, strlen(filters), room > 1 ? room : 1, ATTR_HOT);
	grid_puts_cut(g, 0, c, counts, ATTR_HOT);
}

static const char *order_word(const struct diff_screen *ds)
{
	static const char *const word[] = {"most shrunk first", "biggest change first",
					   "most grown first"};

	return word[ds->dir + 1];
}

void ui_open_diff(struct ui *u)
{
	struct diff_screen *ds = xcalloc(1, sizeof(*ds));

	sort_rows(u, ds);
	ui_push_screen(u, &screen_diff_ops, ds, diff_screen_free);
}

void ui_diff_home(struct ui *u)
{
	for (size_t i = 0; i < u->hist.n; i++)
		if (u->hist.screens[i].ops == &screen_diff_ops) {
			u->hist.cur = i;
			return;
		}
	ui_open_diff(u);
}

/* The diff screen of the history, or NULL. */
static struct screen *diff_screen(struct ui *u)
{
	for (size_t i = 0; i < u->hist.n; i++)
		if (u->hist.screens[i].ops == &screen_diff_ops)
			return &u->hist.screens[i];
	return NULL;
}

struct diff_row ui_diff_cursor(struct ui *u)
{
	struct screen *s = diff_screen(u);
	struct diff_screen *ds = s ? state_of(s) : NULL;

	if (!ds || ds->nav.cursor >= ds->nav.count)
		return (struct diff_row){NCG_NONE, NCG_NONE};
	return u->diff->rows[ds->order[ds->nav.cursor]];
}

void ui_diff_select(struct ui *u, struct diff_row at)
{
	struct screen *s = diff_screen(u);
	struct diff_screen *ds = s ? state_of(s) : NULL;
	const struct diff *d = u->diff;
	uint32_t r = at.new != NCG_NONE ? d->row_of_new[at.new] : NCG_NONE;

	if (r == NCG_NONE && at.base != NCG_NONE)
		r = d->row_of_base[at.base];
	for (size_t k = 0; ds && r != NCG_NONE && k < ds->nav.count; k++)
		if (ds->order[k] == r) {
			ds->nav.cursor = k;
			nav_scroll(&ds->nav, ui_diff_rows(u));
			return;
		}
}

static struct nav *diff_nav(struct ui *u, struct screen *s)
{
	(void)u;
	return &state_of(s)->nav;
}

static void draw(struct ui *u, const struct diff_screen *ds, const struct nav *nav, struct grid *g,
		 const struct view_state *vs)
{
	const struct diff *d = u->diff;
	uint32_t e = ui_diff_event(u);
	char line[1200], a[FMT_NUM], b[FMT_NUM], c[FMT_NUM + 1], ua[FMT_NUM], ub[FMT_NUM],
	    pct[FMT_NUM], across[80], hint[120];
	size_t n = nav->top < nav->count ? nav->count - nav->top : 0,
	       rows = (size_t)ui_diff_list_rows(g);
	struct shorten_set names;
	uint32_t *shown;
	struct list l;

	columns(u, &l, g->cols, true);
	grid_clear(g);
	snprintf(line, sizeof(line), "ncgrind: diff %s -> %s", d->base->path, d->new->path);
	ui_diff_title(u, g, line);
	snprintf(
	    line, sizeof(line), "%.*s: base %s, new %s, change %s (%s%% of the base)",
	    (int)d->ev_name[e].len, d->ev_name[e].ptr,
	    fmt_value(a, d->total_base[e], u->disp.short_units, u->disp.unit_ps),
	    fmt_value(b, d->total_new[e], u->disp.short_units, u->disp.unit_ps),
	    fmt_change(c, d->total_base[e], d->total_new[e], u->disp.short_units, u->disp.unit_ps),
	    d->total_base[e] ? fmt_share(pct, d->total_base[e], d->total_new[e], d->total_base[e])
			     : "+0.00");
	grid_put_cut(g, 1, 0, line, strlen(line), g->cols, ATTR_NORMAL);
	snprintf(line, sizeof(line), "%s, %zu gone (self %s), %zu new (self %s)%s; %s %s",
		 ui_diff_matched(d, across, sizeof(across)), d->only_base,
		 fmt_value(ua, d->unmatched_base[e], u->disp.short_units, u->disp.unit_ps),
		 d->only_new,
		 fmt_value(ub, d->unmatched_new[e], u->disp.short_units, u->disp.unit_ps),
		 ui_diff_elsewhere(d, hint, sizeof(hint)), ds->incl ? "inclusive," : "self,",
		 order_word(ds));
	grid_put_cut(g, 2, 0, line, strlen(line), g->cols, ATTR_DIM);
	list_put_heads(g, 3, &l, "Function");
	ui_diff_file_head(g, 3, &l);
	shorten_set_init(&names, n < rows ? n : rows);
	shown = xmalloc_array(names.n ? names.n : 1, sizeof(uint32_t));
	for (size_t i = 0; i < names.n; i++) {
		shown[i] = (uint32_t)ds->order[nav->top + i];
		diff_name(d, shown[i], &names, i, l.name, NULL);
	}
	ui_diff_tell_apart(d, &names, shown, l.trail > 0);
	shorten_set_apply(&names);
	for (size_t i = 0; i < names.n; i++) {
		size_t k = nav->top + i;
		enum grid_attr at = k == nav->cursor ? ATTR_CURSOR : ATTR_NORMAL;

		draw_fn_row(u, ds, g, 4 + (int)i, &l, ds->order[k], shorten_set_out(&names, i), at);
		ui_diff_put_file(g, 4 + (int)i, &l, d, shown[i], at);
	}
	shorten_set_release(&names);
	free(shown);
	ui_diff_detail(d, g,
		       nav->cursor < nav->count ? (uint32_t)ds->order[nav->cursor] : NCG_NONE);
	view_draw_status(g, nav, vs,
			 "s/i: sort by change  Enter: its calls  t/r/T: trees  q: back");
}

static void diff_draw(struct ui *u, struct screen *s)
{
	draw(u, state_of(s), &state_of(s)->nav, &u->g, &u->vs);
}

/* s, i: by that cost's change; the same again: most grown, most shrunk, biggest. */
static void resort(struct ui *u, struct diff_screen *ds, bool incl)
{
	ds->dir = ds->incl != incl ? 0 : ds->dir == 0 ? 1 : ds->dir == 1 ? -1 : 0;
	ds->incl = incl;
	sort_rows(u, ds);
	ds->nav.cursor = ds->nav.top = 0;
	ui_message(u, false, "sorted by the change of the %s cost, %s", incl ? "inclusive" : "self",
		   order_word(ds));
}

static bool diff_request(struct ui *u, struct screen *s, enum request req)
{
	struct diff_screen *ds = state_of(s);

	switch (req) {
	case REQ_SORT_SELF:
		resort(u, ds, false);
		return true;
	case REQ_SORT_INCL:
		resort(u, ds, true);
		return true;
	case REQ_SORT_CALLS:
	case REQ_SORT_NAME:
		ui_message(u, false, "a diff sorts by the change: s (self) or i (inclusive)");
		return true;
	case REQ_ENTER:
		if (ds->nav.cursor < ds->nav.count)
			ui_open_diff_calls(u, (uint32_t)ds->order[ds->nav.cursor]);
		return true;
	default:
		return ui_diff_request(
		    u,
		    ds->nav.cursor < ds->nav.count ? (uint32_t)ds->order[ds->nav.cursor] : NCG_NONE,
		    req);
	}
}

/* t, r, v: from the function in the new profile. */
static uint32_t diff_fn(struct ui *u, struct screen *s)
{
	struct diff_screen *ds = state_of(s);

	if (ds->nav.cursor >= ds->nav.count)
		return NCG_NONE;
	return u->diff->rows[ds->order[ds->nav.cursor]].new;
}

/* What / looks for: the function's name. */
static bool diff_row_text(struct ui *u, struct screen *s, size_t row, char *buf, size_t size)
{
	struct span name = row_fn_name(u->diff, (uint32_t)state_of(s)->order[row]);

	snprintf(buf, size, "%.*s", (int)name.len, name.ptr);
	return true;
}

/* :write of a diff screen: its columns and the row drawn alone, the name whole. */
struct diff_write {
	struct ui *u;
	const void *screen; /* its state */
	struct list l;
};

static void write_fn_row(void *ctx, struct grid *g, size_t i)
{
	struct diff_write *w = ctx;
	const struct diff_screen *ds = w->screen;
	struct shorten_set names;

	shorten_set_init(&names, 1);
	diff_name(w->u->diff, (uint32_t)ds->order[i], &names, 0, w->l.name, NULL);
	shorten_set_apply(&names);
	draw_fn_row(w->u, ds, g, 0, &w->l, ds->order[i], shorten_set_out(&names, 0), ATTR_NORMAL);
	shorten_set_release(&names);
}

static void write_fn_head(void *ctx, struct grid *g)
{
	struct diff_write *w = ctx;
	struct view_state vs = {0};
	struct nav top = {0};

	draw(w->u, w->screen, &top, g, &vs);
	columns(w->u, &w->l, g->cols, true);
}

static int diff_write(struct ui *u, struct screen *s, FILE *f)
{
	struct diff_write w = {.u = u, .screen = state_of(s)};

	return list_write(f, VIEW_LIST_HEAD, state_of(s)->nav.count, write_fn_head, write_fn_row,
			  &w);
}

/* The event or the new profile's costs changed: sorted again. */
static void diff_update(struct ui *u, struct screen *s)
{
	sort_rows(u, state_of(s));
	nav_scroll(&state_of(s)->nav, ui_diff_rows(u));
}

static void diff_reopen(struct ui *u, uint32_t fn, unsigned mode)
{
	(void)fn, (void)mode;
	if (u->diff)
		ui_open_diff(u);
}

/* :sort self|incl: by the change of that cost, the biggest first. */
static bool diff_sort_set(struct ui *u, struct screen *s, enum report_sort key)
{
	struct diff_screen *ds = state_of(s);

	if (key != SORT_SELF && key != SORT_INCL)
		return false;
	ds->incl = key == SORT_INCL;
	ds->dir = 0;
	sort_rows(u, ds);
	ds->nav.cursor = ds->nav.top = 0;
	return true;
}

/* The keys of the screen (the generic keymap of keys.c comes after them). */
static const struct key_binding diff_keys[] = {
    {'s', REQ_SORT_SELF, "sort by the change of self cost (again: the other way)"},
    {'i', REQ_SORT_INCL, "sort by the change of inclusive cost (again: the other way)"},
    {'\n', REQ_ENTER, "the callers and callees of the function, both builds"},
    {KEYS_ENTER, REQ_ENTER, "the callers and callees of the function, both builds"},
    {KEYS_RIGHT, REQ_ENTER, "the callers and callees of the function, both builds"},
    {'\t', REQ_EVENT_NEXT, "the next event of either profile"},
    {KEYS_BTAB, REQ_EVENT_PREV, "the previous event of either profile"},
    {KEYS_LEFT, REQ_BACK, NULL},
    {'h', REQ_BACK, NULL},
};

struct keymap keymap_diff = KEYMAP("diff", "the diff of two profiles", diff_keys);

static const struct screen_ops screen_diff_ops = {
    .keymap = &keymap_diff,
    .nav = diff_nav,
    .rows = ui_diff_rows,
    .moved = NULL,
    .draw = diff_draw,
    .request = diff_request,
    .selected = diff_fn,
    .row_text = diff_row_text,
    .show_match = NULL,
    .write = diff_write,
    .update = diff_update,
    .subject = NULL,
    .reopen = diff_reopen,
    .sort = diff_sort_set,
    .first_row = VIEW_LIST_HEAD,
};

/* ---- a function's callers and callees, as a diff ------------------------ */

/* The screen's rows: a heading (call NCG_NONE, 0 callers, 1 callees) or a call. */
struct calls_row {
	uint32_t call;
	bool callees;
};

struct diff_calls_screen {
	struct nav nav;
	uint32_t row; /* the function's diff row */
	struct calls_row *rows;
};

static struct diff_calls_screen *calls_of(struct screen *s)
{
	return s->state;
}

static void calls_free(void *state)
{
	struct diff_calls_screen *cs = state;

	free(cs->rows);
	free(cs);
}

/* Rows by mag (a uint64_t per call: its change), biggest first. */
static int cmp_mag(const void *a, const void *b, void *mag)
{
	const uint64_t *sort_mag = mag;
	uint32_t x = ((const struct calls_row *)a)->call, y = ((const struct calls_row *)b)->call;

	if (sort_mag[x] != sort_mag[y])
		return sort_mag[x] > sort_mag[y] ? -1 : 1;
	return (x > y) - (x < y);
}

/* The callers, then the callees, each biggest change of the call's cost first. */
static void calls_rows(struct ui *u, struct diff_calls_screen *cs)
{
	const struct diff *d = u->diff;
	uint32_t e = ui_diff_event(u);
	uint64_t *mag = xcalloc(d->ncalls ? d->ncalls : 1, sizeof(uint64_t));
	size_t n = 0, start;

	free(cs->rows);
	cs->rows = xmalloc_array(d->ncalls * 2 + 2, sizeof(*cs->rows));
	for (size_t c = 0; c < d->ncalls; c++) {
		uint64_t b = diff_call_cost(d, c, false, e), nw = diff_call_cost(d, c, true, e);

		mag[c] = nw >= b ? nw - b : b - nw;
	}
	for (int side = 0; side < 2; side++) {
		cs->rows[n++] = (struct calls_row){NCG_NONE, side == 1};
		start = n;
		for (size_t c = 0; c < d->ncalls; c++)
			if ((side ? d->calls[c].caller : d->calls[c].callee) == cs->row)
				cs->rows[n++] = (struct calls_row){(uint32_t)c, side == 1};
		sort_with(cs->rows + start, n - start, sizeof(*cs->rows), cmp_mag, mag);
	}
	free(mag);
	cs->nav.count = n;
}

void ui_open_diff_calls(struct ui *u, uint32_t row)
{
	struct diff_calls_screen *cs = xcalloc(1, sizeof(*cs));

	cs->row = row;
	calls_rows(u, cs);
	cs->nav.cursor = cs->nav.count > 1 ? 1 : 0;
	ui_push_screen(u, &screen_diff_calls_ops, cs, calls_free);
}

/* " (calls 1 -> 2)", after a call's name (buf of 2 FMT_NUM + 16) */
static char *calls_extra(const struct diff *d, uint32_t call, char *buf)
{
	char nb[FMT_NUM], nn[FMT_NUM];

	fmt_commas(nb, diff_call_count(d, call, false));
	fmt_commas(nn, diff_call_count(d, call, true));
	sprintf(buf, " (calls %s -> %s)", nb, nn);
	return buf;
}

/* Row y of g: row k of the screen, a heading or a call with its costs, status and name. */
static void draw_call_row(const struct ui *u, const struct diff_calls_screen *cs, struct grid *g,
			  int y, const struct list *l, size_t k, const char *name, enum grid_attr a)
{
	const struct diff *d = u->diff;
	const struct calls_row *r = &cs->rows[k];
	uint32_t e = ui_diff_event(u);
	char cells[LIST_MAX_COLUMNS][LIST_CELL], line[64];

	grid_fill(g, y, 0, a);
	if (r->call == NCG_NONE) {
		size_t n = 0;

		for (size_t j = k + 1; j < cs->nav.count && cs->rows[j].call != NCG_NONE; j++)
			n++;
		snprintf(line, sizeof(line), "%s (%zu)", r->callees ? "Callees" : "Callers", n);
		grid_puts_cut(g, y, 0, line, a);
		return;
	}
	uint64_t b = diff_call_cost(d, r->call, false, e), n = diff_call_cost(d, r->call, true, e);

	ui_diff_cells(u, l, cells, b, n, d->total_base[e]);
	snprintf(cells[DCOL_STATUS], LIST_CELL, "%s",
		 d->calls[r->call].base == NCG_NONE  ? "new"
		 : d->calls[r->call].new == NCG_NONE ? "gone"
						     : "");
	grid_puts(g, y, ui_diff_put_cells(g, y, l, cells, b, n, a), name, a);
}

/* The diff row of the function a row of the screen shows: NCG_NONE on a heading. */
static uint32_t call_row_function(const struct diff *d, const struct calls_row *r)
{
	if (r->call == NCG_NONE)
		return NCG_NONE;
	return r->callees ? d->calls[r->call].callee : d->calls[r->call].caller;
}

/* Row i of names: the function of call row k with its calls after it (a heading: its text). */
static void calls_name(const struct ui *u, const struct diff_calls_screen *cs, size_t k,
		       struct shorten_set *names, size_t i, int width)
{
	const struct diff *d = u->diff;
	const struct calls_row *r = &cs->rows[k];
	char extra[2 * FMT_NUM + 16];

	if (r->call == NCG_NONE) {
		shorten_set_text(names, i, span_make("", 0), span_make("", 0), width);
		return;
	}
	diff_name(d, r->callees ? d->calls[r->call].callee : d->calls[r->call].caller, names, i,
		  width, calls_extra(d, r->call, extra));
}

static struct nav *calls_nav(struct ui *u, struct screen *s)
{
	(void)u;
	return &calls_of(s)->nav;
}

/* The cursor skips the headings, the way it went. */
static void calls_moved(struct ui *u, struct screen *s, int dir)
{
	struct diff_calls_screen *cs = calls_of(s);

	(void)u;
	while (cs->nav.cursor < cs->nav.count && cs->rows[cs->nav.cursor].call == NCG_NONE) {
		if (dir < 0 && cs->nav.cursor == 0)
			dir = 1;
		if (dir >= 0 && cs->nav.cursor + 1 >= cs->nav.count)
			break;
		cs->nav.cursor = dir < 0 ? cs->nav.cursor - 1 : cs->nav.cursor + 1;
	}
}

static void draw_calls(struct ui *u, const struct diff_calls_screen *cs, const struct nav *nav,
		       struct grid *g, const struct view_state *vs)
{
	const struct diff *d = u->diff;
	uint32_t e = ui_diff_event(u);
	struct span name = row_fn_name(d, cs->row);
	char line[1200], a[FMT_NUM], b[FMT_NUM], ch[FMT_NUM + 1];
	uint64_t sb = diff_cost(d, cs->row, false, false, e),
		 sn = diff_cost(d, cs->row, true, false, e);
	uint64_t ib = diff_cost(d, cs->row, false, true, e),
		 in = diff_cost(d, cs->row, true, true, e);
	size_t n = nav->top < nav->count ? nav->count - nav->top : 0,
	       rows = (size_t)ui_diff_list_rows(g);
	struct shorten_set names;
	uint32_t *shown;
	struct list l;

	columns(u, &l, g->cols, false);
	grid_clear(g);
	snprintf(line, sizeof(line), "ncgrind: diff, callers and callees of %.*s", (int)name.len,
		 name.ptr);
	ui_diff_title(u, g, line);
	snprintf(line, sizeof(line), "%.*s self: base %s, new %s, change %s",
		 (int)d->ev_name[e].len, d->ev_name[e].ptr,
		 fmt_value(a, sb, u->disp.short_units, u->disp.unit_ps),
		 fmt_value(b, sn, u->disp.short_units, u->disp.unit_ps),
		 fmt_change(ch, sb, sn, u->disp.short_units, u->disp.unit_ps));
	grid_put_cut(g, 1, 0, line, strlen(line), g->cols, ATTR_NORMAL);
	snprintf(line, sizeof(line), "inclusive: base %s, new %s, change %s",
		 fmt_value(a, ib, u->disp.short_units, u->disp.unit_ps),
		 fmt_value(b, in, u->disp.short_units, u->disp.unit_ps),
		 fmt_change(ch, ib, in, u->disp.short_units, u->disp.unit_ps));
	grid_put_cut(g, 2, 0, line, strlen(line), g->cols, ATTR_NORMAL);
	list_put_heads(g, 3, &l, "Function (the call's inclusive cost)");
	ui_diff_file_head(g, 3, &l);
	/* the names in view, shortened together, each with its calls when they fit */
	shorten_set_init(&names, n < rows ? n : rows);
	shown = xmalloc_array(names.n ? names.n : 1, sizeof(uint32_t));
	for (size_t i = 0; i < names.n; i++) {
		calls_name(u, cs, nav->top + i, &names, i, l.name);
		shown[i] = call_row_function(d, &cs->rows[nav->top + i]);
	}
	ui_diff_tell_apart(d, &names, shown, l.trail > 0);
	shorten_set_apply(&names);
	for (size_t i = 0; i < names.n; i++) {
		size_t k = nav->top + i;
		enum grid_attr at = k == nav->cursor               ? ATTR_CURSOR
				    : cs->rows[k].call == NCG_NONE ? ATTR_HEAD
								   : ATTR_NORMAL;

		draw_call_row(u, cs, g, 4 + (int)i, &l, k, shorten_set_out(&names, i), at);
		if (shown[i] != NCG_NONE)
			ui_diff_put_file(g, 4 + (int)i, &l, d, shown[i], at);
	}
	shorten_set_release(&names);
	free(shown);
	ui_diff_detail(d, g,
		       nav->cursor < nav->count ? call_row_function(d, &cs->rows[nav->cursor])
						: NCG_NONE);
	/* two Cachegrind files: no call to open or to grow a tree by */
	view_draw_status(g, nav, vs,
			 profile_has_calls(&u->base->prof) || profile_has_calls(&u->ses.prof)
			     ? "Enter: open  t/r: trees  Backspace: back"
			     : "Backspace: back");
}

static void calls_draw(struct ui *u, struct screen *s)
{
	draw_calls(u, calls_of(s), &calls_of(s)->nav, &u->g, &u->vs);
}

/* The function a call row leads to: its diff row, or NCG_NONE on a heading. */
static uint32_t calls_target(const struct ui *u, const struct diff_calls_screen *cs)
{
	const struct calls_row *r;

	if (cs->nav.cursor >= cs->nav.count)
		return NCG_NONE;
	r = &cs->rows[cs->nav.cursor];
	if (r->call == NCG_NONE)
		return NCG_NONE;
	return r->callees ? u->diff->calls[r->call].callee : u->diff->calls[r->call].caller;
}

static bool calls_request(struct ui *u, struct screen *s, enum request req)
{
	uint32_t row = calls_target(u, calls_of(s));

	switch (req) {
	case REQ_ENTER:
		if (row != NCG_NONE)
			ui_open_diff_calls(u, row);
		return true;
	case REQ_SORT_SELF:
	case REQ_SORT_INCL:
	case REQ_SORT_CALLS:
	case REQ_SORT_NAME:
		ui_message(u, false, "the calls come by the change of their cost");
		return true;
	default: /* t, r on a heading: the function of the screen */
		return ui_diff_request(u, row != NCG_NONE ? row : calls_of(s)->row, req);
	}
}

/* t, r, v: from the function in the new profile. */
static uint32_t calls_fn(struct ui *u, struct screen *s)
{
	uint32_t row = calls_target(u, calls_of(s));

	return row == NCG_NONE ? NCG_NONE : u->diff->rows[row].new;
}

/* What / looks for: the function of a call (a heading: nothing). */
static bool calls_row_text(struct ui *u, struct screen *s, size_t row, char *buf, size_t size)
{
	const struct diff *d = u->diff;
	const struct calls_row *r = &calls_of(s)->rows[row];
	struct span name;

	if (r->call == NCG_NONE)
		return false;
	name = row_fn_name(d, r->callees ? d->calls[r->call].callee : d->calls[r->call].caller);
	snprintf(buf, size, "%.*s", (int)name.len, name.ptr);
	return true;
}

static void write_call_row(void *ctx, struct grid *g, size_t i)
{
	struct diff_write *w = ctx;
	struct shorten_set names;

	shorten_set_init(&names, 1);
	calls_name(w->u, w->screen, i, &names, 0, w->l.name);
	shorten_set_apply(&names);
	draw_call_row(w->u, w->screen, g, 0, &w->l, i, shorten_set_out(&names, 0), ATTR_NORMAL);
	shorten_set_release(&names);
}

static void write_call_head(void *ctx, struct grid *g)
{
	struct diff_write *w = ctx;
	struct view_state vs = {0};
	struct nav top = {0};

	draw_calls(w->u, w->screen, &top, g, &vs);
	columns(w->u, &w->l, g->cols, false);
}

static int calls_write(struct ui *u, struct screen *s, FILE *f)
{
	struct diff_write w = {.u = u, .screen = calls_of(s)};

	return list_write(f, VIEW_LIST_HEAD, calls_of(s)->nav.count, write_call_head,
			  write_call_row, &w);
}

static void calls_update(struct ui *u, struct screen *s)
{
	calls_rows(u, calls_of(s));
	nav_scroll(&calls_of(s)->nav, ui_diff_rows(u));
}

/* The keys of the screen (the generic keymap of keys.c comes after them). */
static const struct key_binding diff_callers_keys[] = {
    {'\n', REQ_ENTER, "go to the function of the row, both builds"},
    {KEYS_ENTER, REQ_ENTER, "go to the function of the row, both builds"},
    {KEYS_RIGHT, REQ_ENTER, "go to the function of the row, both builds"},
    {'\t', REQ_EVENT_NEXT, "the next event of either profile"},
    {KEYS_BTAB, REQ_EVENT_PREV, "the previous event of either profile"},
    {KEYS_LEFT, REQ_BACK, NULL},
    {'h', REQ_BACK, NULL},
};

struct keymap keymap_diff_callers =
    KEYMAP("diff-callers", "the callers and callees of a function, in a diff", diff_callers_keys);

static const struct screen_ops screen_diff_calls_ops = {
    .keymap = &keymap_diff_callers,
    .nav = calls_nav,
    .rows = ui_diff_rows,
    .moved = calls_moved,
    .draw = calls_draw,
    .request = calls_request,
    .selected = calls_fn,
    .row_text = calls_row_text,
    .show_match = NULL,
    .write = calls_write,
    .update = calls_update,
    .subject = NULL,
    .reopen = NULL,
    .first_row = VIEW_LIST_HEAD,
};
