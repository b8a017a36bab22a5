/*
 * screen_diff: the functions of two profiles, base and new (--diff BASE
 * NEW, or :diff FILE with the open profile as the new one): each with its
 * base and new cost in the event shown, the change, the change as a share
 * of the base's total, the ratio, and whether it is new or gone; biggest
 * change first. s and i sort by the change of the self or inclusive cost,
 * again to see the most grown first, then the most shrunk first; Enter
 * opens the function's callers and callees in the new profile. The diff
 * itself is model/diff.c; this file is all of the screen.
 */
#include "ui_internal.h"
#include "ncgrind/model/fmt.h"

#include <stdlib.h>

struct diff_screen {
	struct nav nav;
	size_t *order;
	bool incl; /* sorted by the inclusive cost's change */
	int dir;   /* 0: biggest change first; 1: most grown first; -1: most shrunk first */
};

static const struct screen_ops screen_diff_ops; /* at the end */

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

/* The diff's event for the event shown: the new profile's come first, in its order. */
static uint32_t diff_event(const struct ui *u)
{
	return u->disp.event < u->diff->nev ? u->disp.event : 0;
}

static void sort_rows(struct ui *u, struct diff_screen *ds)
{
	free(ds->order);
	ds->order = diff_order(u->diff, diff_event(u), ds->incl, ds->dir);
	ds->nav.count = u->diff->nrows;
}

static const char *status_word(const struct diff *d, size_t r)
{
	if (d->rows[r].base == NCG_NONE)
		return "new";
	return d->rows[r].new == NCG_NONE ? "gone" : "";
}

/* "+1,234", "-56", "0" */
static char *change_text(char *buf, uint64_t b, uint64_t n, bool short_units, uint64_t unit_ps)
{
	buf[0] = n > b ? '+' : n < b ? '-' : '\0';
	fmt_value(buf + (buf[0] != '\0'), n >= b ? n - b : b - n, short_units, unit_ps);
	return buf;
}

/* One row: base, new, change, %base, ratio, status, name (the cost shown: self or incl). */
static void row_text(const struct ui *u, const struct diff_screen *ds, size_t r, char *buf,
		     size_t size)
{
	const struct diff *d = u->diff;
	uint32_t e = diff_event(u);
	uint64_t b = diff_cost(d, r, false, ds->incl, e), n = diff_cost(d, r, true, ds->incl, e);
	const struct profile *p;
	uint32_t f = diff_function(d, r, &p);
	struct span name = p->funcs[f].name == NCG_NONE ? span_make("(unknown)", 9)
							: profile_name(p, p->funcs[f].name);
	char a[FMT_NUM], c[FMT_NUM], ch[FMT_NUM + 1], pct[16], ratio[16];
	double change = n >= b ? (double)(n - b) : -(double)(b - n);

	if (d->total_base[e])
		snprintf(pct, sizeof(pct), "%+.2f%%", 100.0 * change / (double)d->total_base[e]);
	else
		snprintf(pct, sizeof(pct), "-");
	if (b)
		snprintf(ratio, sizeof(ratio), "%.3f", (double)n / (double)b);
	else
		snprintf(ratio, sizeof(ratio), n ? "inf" : "-");
	snprintf(buf, size, "%14s %14s %14s %9s %8s  %-4s  %.*s",
		 fmt_value(a, b, u->disp.short_units, u->disp.unit_ps),
		 fmt_value(c, n, u->disp.short_units, u->disp.unit_ps),
		 change_text(ch, b, n, u->disp.short_units, u->disp.unit_ps), pct, ratio,
		 status_word(d, r), (int)name.len, name.ptr);
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

static struct nav *diff_nav(struct ui *u, struct screen *s)
{
	(void)u;
	return &state_of(s)->nav;
}

static void diff_draw(struct ui *u, struct screen *s)
{
	struct diff_screen *ds = state_of(s);
	const struct diff *d = u->diff;
	uint32_t e = diff_event(u);
	struct grid *g = &u->g;
	char line[1200], a[FMT_NUM], b[FMT_NUM], c[FMT_NUM + 1], ua[FMT_NUM], ub[FMT_NUM];

	grid_clear(g);
	grid_fill(g, 0, 0, ATTR_TITLE);
	snprintf(line, sizeof(line), "ncgrind: diff %s -> %s", d->base->path, d->new->path);
	grid_puts(g, 0, 0, line, ATTR_TITLE);
	snprintf(
	    line, sizeof(line), "%.*s: base %s, new %s, change %s (%+.2f%% of the base)",
	    (int)d->ev_name[e].len, d->ev_name[e].ptr,
	    fmt_value(a, d->total_base[e], u->disp.short_units, u->disp.unit_ps),
	    fmt_value(b, d->total_new[e], u->disp.short_units, u->disp.unit_ps),
	    change_text(c, d->total_base[e], d->total_new[e], u->disp.short_units, u->disp.unit_ps),
	    d->total_base[e] ? 100.0 *
				   (d->total_new[e] >= d->total_base[e]
					? (double)(d->total_new[e] - d->total_base[e])
					: -(double)(d->total_base[e] - d->total_new[e])) /
				   (double)d->total_base[e]
			     : 0.0);
	grid_put(g, 1, 0, line, strlen(line), g->cols, ATTR_NORMAL);
	snprintf(line, sizeof(line), "%zu matched, %zu gone (self %s), %zu new (self %s); %s %s",
		 d->matched, d->only_base,
		 fmt_value(ua, d->unmatched_base[e], u->disp.short_units, u->disp.unit_ps),
		 d->only_new,
		 fmt_value(ub, d->unmatched_new[e], u->disp.short_units, u->disp.unit_ps),
		 ds->incl ? "inclusive," : "self,", order_word(ds));
	grid_put(g, 2, 0, line, strlen(line), g->cols, ATTR_DIM);
	snprintf(line, sizeof(line), "%14s %14s %14s %9s %8s  %-4s  %s", "Base", "New", "Change",
		 "%base", "Ratio", "", "Function");
	grid_fill(g, 3, 0, ATTR_HEAD);
	grid_puts(g, 3, 0, line, ATTR_HEAD);
	for (int i = 0; i < ui_list_rows(u) && ds->nav.top + (size_t)i < ds->nav.count; i++) {
		size_t k = ds->nav.top + (size_t)i;
		enum grid_attr at = k == ds->nav.cursor ? ATTR_CURSOR : ATTR_NORMAL;

		row_text(u, ds, ds->order[k], line, sizeof(line));
		grid_fill(g, 4 + i, 0, at);
		grid_put(g, 4 + i, 0, line, strlen(line), g->cols, at);
	}
	view_draw_status(g, &ds->nav, &u->vs, "s/i: sort by change  Enter: callers  q: back");
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
		if (ds->nav.cursor >= ds->nav.count)
			return true;
		if (u->diff->rows[ds->order[ds->nav.cursor]].new == NCG_NONE)
			ui_message(u, false, "gone: the new profile does not have it");
		else
			ui_open_detail(u, u->diff->rows[ds->order[ds->nav.cursor]].new);
		return true;
	default:
		return false;
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

static bool diff_row_text(struct ui *u, struct screen *s, size_t row, char *buf, size_t size)
{
	row_text(u, state_of(s), state_of(s)->order[row], buf, size);
	return true;
}

static int diff_write(struct ui *u, struct screen *s, FILE *f)
{
	char line[1200];

	for (size_t i = 0; i < state_of(s)->nav.count; i++) {
		row_text(u, state_of(s), state_of(s)->order[i], line, sizeof(line));
		fprintf(f, "%s\n", line);
	}
	return ferror(f) ? -1 : 0;
}

/* The event or the new profile's costs changed: sorted again. */
static void diff_update(struct ui *u, struct screen *s)
{
	sort_rows(u, state_of(s));
	nav_scroll(&state_of(s)->nav, ui_list_rows(u));
}

static void diff_reopen(struct ui *u, uint32_t fn, unsigned mode)
{
	(void)fn, (void)mode;
	if (u->diff)
		ui_open_diff(u);
}

static const struct screen_ops screen_diff_ops = {
    .scope = SCOPE_TABLE,
    .nav = diff_nav,
    .rows = ui_list_rows,
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
};
