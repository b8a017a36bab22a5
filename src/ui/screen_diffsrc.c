/*
 * screen_diffsrc: a function's annotated source as a diff (v on the diff
 * screens; model/diffsrc.c is the view-model): file by file, each line
 * with cost in either build and a few around it, with its base and new
 * self cost and the change. Where the two builds' texts of a file differ,
 * the base's lines are not set against the new ones: the base's cost in
 * the file is said once. Tab and S-Tab go to the next and previous line
 * with cost, f and F to the next and previous file, o shows the lines with
 * cost only or with their context, < and > scroll the lines sideways.
 * Where a file's text is not found, the paths tried are listed, as the
 * source screen lists them.
 */
#include "ui_internal.h"

#include "ncgrind/model/diffsrc.h"
#include "ncgrind/model/fmt.h"

#include <stdlib.h>
#include <string.h>

#define DIFFSRC_CONTEXT 3 /* lines shown around a line with cost */

struct diffsrc_screen {
	struct diffsrc src;
	struct nav nav;
	uint32_t row;   /* the diff row */
	bool only;      /* the lines with cost only */
	uint32_t event; /* the diff event it was built for */
	int hscroll;    /* columns of the lines scrolled off at the left (<, >) */
};

static const struct screen_ops screen_diffsrc_ops; /* at the end */

static struct diffsrc_screen *dss(struct screen *s)
{
	return s->state;
}

static void diffsrc_screen_free(void *state)
{
	struct diffsrc_screen *d = state;

	diffsrc_release(&d->src);
	free(d);
}

static uint64_t change_size(const struct dsrc_row *r)
{
	return r->new > r->base ? r->new - r->base : r->base - r->new;
}

/* Built for the event shown; the cursor on the line of the biggest change. */
static void build(struct ui *u, struct diffsrc_screen *d)
{
	size_t best = 0;

	d->event = ui_diff_event(u);
	diffsrc_release(&d->src);
	diffsrc_build(&d->src, u->diff, d->row, d->event, u->rules, u->sources,
		      d->only ? -1 : DIFFSRC_CONTEXT);
	for (size_t i = 0; i < d->src.nrows; i++)
		if (d->src.rows[i].kind == DSRC_LINE && d->src.rows[i].costed &&
		    (d->src.rows[best].kind != DSRC_LINE ||
		     change_size(&d->src.rows[i]) > change_size(&d->src.rows[best])))
			best = i;
	d->nav.count = d->src.nrows;
	d->nav.cursor = d->nav.top = 0;
	nav_to(&d->nav, best, ui_list_rows(u));
}

void ui_open_diff_source(struct ui *u, uint32_t row)
{
	struct diffsrc_screen *d = xcalloc(1, sizeof(*d));

	d->row = row;
	build(u, d);
	ui_push_screen(u, &screen_diffsrc_ops, d, diffsrc_screen_free);
}

static struct nav *src_nav(struct ui *u, struct screen *s)
{
	(void)u;
	return &dss(s)->nav;
}

static struct span row_name(const struct diff *d, uint32_t row)
{
	const struct profile *p;
	uint32_t f = diff_function(d, row, &p);

	return p->funcs[f].name == NCG_NONE ? span_make("(unknown)", 9)
					    : profile_name(p, p->funcs[f].name);
}

/* The columns: the diff's base, new and change (no share, no ratio), the line. */
#define SCOL_LINE DCOL_OWN

static void columns(const struct ui *u, struct list *l, int cols)
{
	ui_diff_columns(u, l, false, false, DIFF_MIN_NAME);
	list_add(l, "Line", 7, 0, 1, true, 0, 0);
	list_fit(l, cols);
}

/* The text of line row i: the source line, tabs expanded, or why there is none. */
static void line_text(const struct diffsrc_screen *d, size_t i, char *buf, size_t size)
{
	const struct dsrc_row *r = &d->src.rows[i];
	const struct dsrc_file *f = &d->src.files[r->file];

	if (r->kind == DSRC_TRIED)
		view_tried_text(buf, size, &f->text.tried[r->line], d->hscroll);
	else if (f->text.data && r->line && r->line <= f->text.nlines)
		view_expand_tabs(buf, size, source_line(&f->text, r->line), d->hscroll);
	else
		snprintf(buf, size, "%s", r->line ? "" : "(no line information)");
}

/* Row y of g: row i (the profile's and the file's bytes escaped by the grid, \x1b). */
static void draw_row(const struct ui *u, const struct diffsrc_screen *d, struct grid *g, int y,
		     const struct list *l, size_t i, enum grid_attr a)
{
	const struct dsrc_row *r = &d->src.rows[i];
	const struct dsrc_file *f = &d->src.files[r->file];
	char cells[LIST_MAX_COLUMNS][LIST_CELL], line[2048], num[FMT_NUM];
	int c;

	grid_fill(g, y, 0, a);
	switch (r->kind) {
	case DSRC_FILE:
		snprintf(line, sizeof(line), "-- file %s", f->name);
		grid_puts_cut(g, y, 0, line, a);
		return;
	case DSRC_DIFFER:
		snprintf(line, sizeof(line),
			 "-- the two builds' texts of this file differ: the base's lines (%s in "
			 "all) are not set against these",
			 fmt_value(num, r->base, u->disp.short_units, u->disp.unit_ps));
		grid_puts_cut(g, y, 0, line, a);
		return;
	case DSRC_NOT_FOUND:
		grid_puts_cut(g, y, 0, "-- the source is not found: line numbers only", a);
		return;
	case DSRC_TRIED:
		line_text(d, i, line, sizeof(line));
		grid_puts_cut(g, y, 0, line, a);
		return;
	case DSRC_GAP:
	case DSRC_LINE:
		break;
	}
	ui_diff_cells(u, l, cells, r->base, r->new, 0);
	if (r->kind == DSRC_GAP || !r->costed)
		cells[DCOL_BASE][0] = cells[DCOL_NEW][0] = cells[DCOL_CHANGE][0] = '\0';
	else if (f->differ)
		strcpy(cells[DCOL_BASE], "-"), strcpy(cells[DCOL_CHANGE], "-");
	cells[SCOL_LINE][0] = '\0';
	if (r->kind == DSRC_LINE)
		snprintf(cells[SCOL_LINE], LIST_CELL, r->line ? "%llu" : "-",
			 (unsigned long long)r->line);
	c = r->kind == DSRC_LINE && r->costed && !f->differ
		? ui_diff_put_cells(g, y, l, cells, r->base, r->new, a)
		: list_put_cells(g, y, l, cells, a);
	if (r->kind == DSRC_GAP) {
		grid_puts(g, y, c - l->name_gap, "...", a);
		return;
	}
	line_text(d, i, line, sizeof(line));
	grid_puts_cut(g, y, c, line, a); /* (> scrolls to the rest) */
}

static enum grid_attr row_attr(const struct diffsrc_screen *d, size_t i)
{
	const struct dsrc_row *r = &d->src.rows[i];

	switch (r->kind) {
	case DSRC_FILE:
		return ATTR_HEAD;
	case DSRC_DIFFER:
		return ATTR_HOT;
	case DSRC_LINE:
		return r->costed ? ATTR_NORMAL : ATTR_DIM;
	default:
		return ATTR_DIM;
	}
}

static void draw(struct ui *u, const struct diffsrc_screen *d, const struct nav *nav,
		 struct grid *g, const struct view_state *vs)
{
	const struct diff *df = u->diff;
	struct span name = row_name(df, d->row);
	uint32_t e = d->event;
	uint64_t sb = diff_cost(df, d->row, false, false, e),
		 sn = diff_cost(df, d->row, true, false, e);
	char line[2600], a[FMT_NUM], b[FMT_NUM], ch[FMT_NUM + 1];
	struct list l;

	columns(u, &l, g->cols);
	grid_clear(g);
	snprintf(line, sizeof(line), "ncgrind: diff, annotated source of %.*s", (int)name.len,
		 name.ptr);
	ui_diff_title(u, g, line);
	snprintf(line, sizeof(line), "%.*s self: base %s, new %s, change %s",
		 (int)df->ev_name[e].len, df->ev_name[e].ptr,
		 fmt_value(a, sb, u->disp.short_units, u->disp.unit_ps),
		 fmt_value(b, sn, u->disp.short_units, u->disp.unit_ps),
		 fmt_change(ch, sb, sn, u->disp.short_units, u->disp.unit_ps));
	grid_put_cut(g, 1, 0, line, strlen(line), g->cols, ATTR_NORMAL);
	snprintf(line, sizeof(line), "%zu file%s; %s", d->src.nfiles, d->src.nfiles == 1 ? "" : "s",
		 d->only ? "the lines with cost only (o: with context)"
			 : "the lines with cost and those around them (o: with cost only)");
	grid_put_cut(g, 2, 0, line, strlen(line), g->cols, ATTR_DIM);
	list_put_heads(g, 3, &l, "Source");
	if (!d->src.nrows)
		grid_puts(g, 4, 0, "no line of this function has cost in either build", ATTR_DIM);
	for (int i = 0; i < view_list_rows(g) && nav->top + (size_t)i < nav->count; i++) {
		size_t k = nav->top + (size_t)i;

		draw_row(u, d, g, 4 + i, &l, k, k == nav->cursor ? ATTR_CURSOR : row_attr(d, k));
	}
	view_draw_status(g, nav, vs, "Tab: next line with cost  f: next file  o: context");
}

static void src_draw(struct ui *u, struct screen *s)
{
	draw(u, dss(s), &dss(s)->nav, &u->g, &u->vs);
}

/* The next (dir 1) or previous row from the cursor that `want` takes, or the cursor. */
static size_t step(const struct diffsrc_screen *d, int dir, bool file)
{
	for (size_t i = d->nav.cursor; dir > 0 ? i + 1 < d->nav.count : i > 0;) {
		const struct dsrc_row *r;

		i = dir > 0 ? i + 1 : i - 1;
		r = &d->src.rows[i];
		if (file ? r->kind == DSRC_FILE : r->kind == DSRC_LINE && r->costed)
			return i;
	}
	return d->nav.cursor;
}

/*
 * e: the editor at the cursor's line, in the file whose text the screen
 * shows (the new build's); on a file's heading or a gap, at the next line.
 */
static void edit_row(struct ui *u, const struct diffsrc_screen *d)
{
	size_t i = d->nav.cursor;
	const struct dsrc_row *r = i < d->src.nrows ? &d->src.rows[i] : NULL;

	if (!r) {
		ui_message(u, false, "no line here");
		return;
	}
	while (r->kind != DSRC_LINE && i + 1 < d->src.nrows && d->src.rows[i].file == r->file &&
	       (d->src.rows[i].kind != DSRC_LINE || !d->src.rows[i].line))
		i++;
	ui_edit_text(u, d->src.files[r->file].name, &d->src.files[r->file].text,
		     d->src.rows[i].file == r->file && d->src.rows[i].kind == DSRC_LINE
			 ? d->src.rows[i].line
			 : 0);
}

static bool src_request(struct ui *u, struct screen *s, enum request req)
{
	struct diffsrc_screen *d = dss(s);
	size_t to;

	switch (req) {
	case REQ_NEXT_COSTLY:
	case REQ_PREV_COSTLY:
	case REQ_NEXT_FILE:
	case REQ_PREV_FILE:
		to = step(d, req == REQ_NEXT_COSTLY || req == REQ_NEXT_FILE ? 1 : -1,
			  req == REQ_NEXT_FILE || req == REQ_PREV_FILE);
		if (to == d->nav.cursor)
			ui_message(u, false, "no more %s this way",
				   req == REQ_NEXT_FILE || req == REQ_PREV_FILE
				       ? "files"
				       : "lines with cost");
		nav_to(&d->nav, to, ui_list_rows(u));
		return true;
	case REQ_ONLY_COSTLY:
		d->only = !d->only;
		build(u, d);
		return true;
	case REQ_ENTER:
		ui_open_diff_calls(u, d->row);
		return true;
	case REQ_EDIT:
		edit_row(u, d);
		return true;
	case REQ_SOURCE:
		ui_message(u, false, "this is the source of both builds");
		return true;
	case REQ_NAME_RIGHT: /* as the source screen: half a screen sideways */
		d->hscroll += u->g.cols / 2;
		return true;
	case REQ_NAME_LEFT:
		d->hscroll -= d->hscroll > u->g.cols / 2 ? u->g.cols / 2 : d->hscroll;
		return true;
	default:
		return ui_diff_request(u, d->row, req);
	}
}

/* The function in the new profile (for what opens from here). */
static uint32_t src_fn(struct ui *u, struct screen *s)
{
	return u->diff->rows[dss(s)->row].new;
}

/* What / looks for: a line's text, a file's name. */
static bool src_row_text(struct ui *u, struct screen *s, size_t row, char *buf, size_t size)
{
	const struct dsrc_row *r = &dss(s)->src.rows[row];

	(void)u;
	if (r->kind == DSRC_FILE)
		snprintf(buf, size, "%s", dss(s)->src.files[r->file].name);
	else if (r->kind == DSRC_LINE || r->kind == DSRC_TRIED)
		line_text(dss(s), row, buf, size);
	else
		return false;
	return true;
}

struct src_write {
	struct ui *u;
	const struct diffsrc_screen *d;
	struct list l;
};

static void write_row(void *ctx, struct grid *g, size_t i)
{
	struct src_write *w = ctx;

	draw_row(w->u, w->d, g, 0, &w->l, i, ATTR_NORMAL);
}

static void write_head(void *ctx, struct grid *g)
{
	struct src_write *w = ctx;
	struct view_state vs = {0};
	struct nav top = {0};

	draw(w->u, w->d, &top, g, &vs);
	columns(w->u, &w->l, g->cols);
}

static int src_write(struct ui *u, struct screen *s, FILE *f)
{
	struct src_write w = {.u = u, .d = dss(s)};

	return list_write(f, VIEW_LIST_HEAD, w.d->nav.count, write_head, write_row, &w);
}

/* Another event shown: built again for it. */
static void src_update(struct ui *u, struct screen *s)
{
	build(u, dss(s));
}

/* The keys of the screen (the generic keymap of keys.c comes after them). */
static const struct key_binding diff_source_keys[] = {
    {'\t', REQ_NEXT_COSTLY, NULL},
    {KEYS_BTAB, REQ_PREV_COSTLY, NULL},
    {'o', REQ_ONLY_COSTLY, NULL},
    {'f', REQ_NEXT_FILE, NULL},
    {'F', REQ_PREV_FILE, NULL},
    {'>', REQ_NAME_RIGHT, "scroll the lines right"},
    {'<', REQ_NAME_LEFT, "scroll the lines left"},
    {'e', REQ_EDIT, "edit the file ($VISUAL, else $EDITOR) at the cursor's line"},
    {'\n', REQ_ENTER, "the callers and callees of the function, both builds"},
    {KEYS_ENTER, REQ_ENTER, "the callers and callees of the function, both builds"},
    {KEYS_RIGHT, REQ_ENTER, "the callers and callees of the function, both builds"},
    {KEYS_LEFT, REQ_BACK, NULL},
    {'h', REQ_BACK, NULL},
};

struct keymap keymap_diff_source =
    KEYMAP("diff-source", "the annotated source of a diff", diff_source_keys);

static const struct screen_ops screen_diffsrc_ops = {
    .keymap = &keymap_diff_source,
    .nav = src_nav,
    .rows = ui_list_rows,
    .moved = NULL,
    .draw = src_draw,
    .request = src_request,
    .selected = src_fn,
    .row_text = src_row_text,
    .show_match = NULL,
    .write = src_write,
    .update = src_update,
    .subject = NULL,
    .reopen = NULL,
    .first_row = VIEW_LIST_HEAD,
};
