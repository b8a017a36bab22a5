/*
 * screen_diffsrc: a function's annotated source as a diff (v on the diff
 * screens; model/diffsrc.c is the view-model): file by file, each line
 * with cost in either build and a few around it, with its base and new
 * self cost and the change. Where the two builds' texts of a file differ,
 * the base's lines are not set against the new ones: the base's cost in
 * the file is said once. Tab and S-Tab go to the next and previous line
 * with cost, f and F to the next and previous file, o shows the lines with
 * cost only or with their context.
 */
#include "ui_internal.h"

#include "ncgrind/model/diffsrc.h"
#include "ncgrind/model/fmt.h"

#include <stdlib.h>

#define DIFFSRC_CONTEXT 3 /* lines shown around a line with cost */

struct diffsrc_screen {
	struct diffsrc src;
	struct nav nav;
	uint32_t row;   /* the diff row */
	bool only;      /* the lines with cost only */
	uint32_t event; /* the diff event it was built for */
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

/* One row as text (the profile's and the file's bytes shown as ^X by the grid). */
static void row_text(const struct ui *u, const struct diffsrc_screen *d, size_t i, char *buf,
		     size_t size)
{
	const struct dsrc_row *r = &d->src.rows[i];
	const struct dsrc_file *f = &d->src.files[r->file];
	int w = ui_diff_width(u);
	char a[FMT_NUM], b[FMT_NUM], ch[FMT_NUM + 1], num[24], text[2048];

	switch (r->kind) {
	case DSRC_FILE:
		snprintf(buf, size, "-- file %s", f->name);
		return;
	case DSRC_DIFFER:
		snprintf(buf, size,
			 "-- the two builds' texts of this file differ: the base's lines (%s in "
			 "all) are not set against these",
			 fmt_value(a, r->base, u->disp.short_units, u->disp.unit_ps));
		return;
	case DSRC_NOT_FOUND:
		snprintf(buf, size, "-- the source is not found: line numbers only");
		return;
	case DSRC_GAP:
		snprintf(buf, size, "%*s ...", 3 * w + 9, "");
		return;
	case DSRC_LINE:
		break;
	}
	if (!r->costed)
		a[0] = b[0] = ch[0] = '\0';
	else if (f->differ)
		strcpy(a, "-"), strcpy(ch, "-"),
		    fmt_value(b, r->new, u->disp.short_units, u->disp.unit_ps);
	else
		fmt_value(a, r->base, u->disp.short_units, u->disp.unit_ps),
		    fmt_value(b, r->new, u->disp.short_units, u->disp.unit_ps),
		    fmt_change(ch, r->base, r->new, u->disp.short_units, u->disp.unit_ps);
	snprintf(num, sizeof(num), r->line ? "%llu" : "-", (unsigned long long)r->line);
	if (f->text.data && r->line && r->line <= f->text.nlines)
		view_expand_tabs(text, sizeof(text), source_line(&f->text, r->line), 0);
	else
		snprintf(text, sizeof(text), "%s", r->line ? "" : "(no line information)");
	snprintf(buf, size, "%*s %*s %*s %7s  %s", w, a, w, b, w, ch, num, text);
}

static enum grid_attr row_attr(const struct diffsrc_screen *d, size_t i)
{
	const struct dsrc_row *r = &d->src.rows[i];

	if (i == d->nav.cursor)
		return ATTR_CURSOR;
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

static void src_draw(struct ui *u, struct screen *s)
{
	struct diffsrc_screen *d = dss(s);
	const struct diff *df = u->diff;
	struct grid *g = &u->g;
	struct span name = row_name(df, d->row);
	uint32_t e = d->event;
	int w = ui_diff_width(u);
	uint64_t sb = diff_cost(df, d->row, false, false, e),
		 sn = diff_cost(df, d->row, true, false, e);
	char line[2600], a[FMT_NUM], b[FMT_NUM], ch[FMT_NUM + 1];

	grid_clear(g);
	grid_fill(g, 0, 0, ATTR_TITLE);
	snprintf(line, sizeof(line), "ncgrind: diff, annotated source of %.*s", (int)name.len,
		 name.ptr);
	grid_puts_cut(g, 0, 0, line, ATTR_TITLE);
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
	snprintf(line, sizeof(line), "%*s %*s %*s %7s  %s", w, "Base", w, "New", w, "Change",
		 "Line", "Source");
	grid_fill(g, 3, 0, ATTR_HEAD);
	grid_puts(g, 3, 0, line, ATTR_HEAD);
	if (!d->src.nrows)
		grid_puts(g, 4, 0, "no line of this function has cost in either build", ATTR_DIM);
	for (int i = 0; i < ui_list_rows(u) && d->nav.top + (size_t)i < d->nav.count; i++) {
		size_t k = d->nav.top + (size_t)i;
		enum grid_attr at = row_attr(d, k);

		row_text(u, d, k, line, sizeof(line));
		grid_fill(g, 4 + i, 0, at);
		grid_put(g, 4 + i, 0, line, strlen(line), g->cols, at);
	}
	view_draw_status(g, &d->nav, &u->vs, "Tab: next line with cost  f: next file  o: context");
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
	case REQ_SOURCE:
		ui_message(u, false, "this is the source of both builds");
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

static bool src_row_text(struct ui *u, struct screen *s, size_t row, char *buf, size_t size)
{
	row_text(u, dss(s), row, buf, size);
	return true;
}

static int src_write(struct ui *u, struct screen *s, FILE *f)
{
	char line[2600];

	for (size_t i = 0; i < dss(s)->nav.count; i++) {
		row_text(u, dss(s), i, line, sizeof(line));
		fprintf(f, "%s\n", line);
	}
	return ferror(f) ? -1 : 0;
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
    {'\n', REQ_ENTER, "the callers and callees of the function, both builds"},
    {KEYS_ENTER, REQ_ENTER, "the callers and callees of the function, both builds"},
    {KEYS_RIGHT, REQ_ENTER, "the callers and callees of the function, both builds"},
    {KEYS_LEFT, REQ_BACK, NULL},
    {'h', REQ_BACK, NULL},
};

const struct keymap keymap_diff_source =
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
};
