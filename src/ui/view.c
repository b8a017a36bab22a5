/*
 * view: what the screens draw alike, into a grid: the columns of the
 * callers and trees, a function's head, the status and prompt line, source
 * text with its tabs expanded, the loading screen. Each screen draws the
 * rest in its own file (screen_*.c), with the column model of list.c.
 */
#include "ncgrind/ui/view.h"
#include "ncgrind/core/commands.h"
#include "ncgrind/model/fmt.h"
#include "ncgrind/model/shorten.h"
#include "ncgrind/model/source.h"
#include "ncgrind/ui/list.h"

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* The widest short value: 99.9K, or a time, 99.9ms (a smaller total may be wider: 999us). */
int view_short_width(uint64_t unit_ps)
{
	return unit_ps ? 6 : 5;
}

static int text_width(const char *s)
{
	return list_width(s);
}

uint64_t view_pct_base(const struct profile *p, uint32_t e, uint64_t total)
{
	return e < p->nev && p->events[e].ratio ? 0 : total;
}

/* The input line: ':' or '/', the text, the cursor shown as a reversed cell. */
void view_draw_prompt(struct grid *g, const struct view_state *vs)
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
	*w = *w < view_short_width(unit_ps) ? view_short_width(unit_ps) : *w;
	*sw = *sw < view_short_width(unit_ps) ? view_short_width(unit_ps) : *sw;
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
		struct span n;
		char name[64];
		uint64_t v;
		int k;

		if (e == t->disp->event || e >= p->nev)
			continue;
		n = p->events[e].name;
		v = ext_widest && ext_widest[e] > p->totals[e] ? ext_widest[e] : p->totals[e];
		/* (a short value of a smaller number may be wider than the total's: 99.9K) */
		cost_widths(v, t->disp->short_units, fmt_event_unit(p, e), &w, &sw);
		w = (int)n.len > w ? (int)n.len : w;
		sw = (int)n.len > sw ? (int)n.len : sw;
		snprintf(name, sizeof(name), "%.*s", (int)n.len, n.ptr);
		k = list_add(l, name, w, sw, 2, true, 1, 2 * VIEW_MIN_NAME);
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
	fmt_percent(cells[VCOL_ALL], v, view_pct_base(p, ev, all));
	fmt_percent(cells[VCOL_PART], v, view_pct_base(p, ev, part));
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
	uint64_t total = view_pct_base(p, t->disp->event, p->totals[t->disp->event]);
	struct span ev = p->events[t->disp->event].name;

	grid_fill(g, 0, 0, ATTR_TITLE);
	snprintf(line, sizeof(line), "ncgrind: %s", what);
	grid_puts_cut(g, 0, 0, line, ATTR_TITLE);
	function_label(name, sizeof(name), p, f, g->cols);
	grid_puts_cut(g, 1, 0, name, ATTR_HOT);
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
	grid_puts_cut(g, 2, 0, line, ATTR_DIM);
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
		view_draw_prompt(g, vs);
		return;
	}
	grid_fill(g, g->rows - 1, 0, ATTR_STATUS);
	snprintf(line, sizeof(line), "%zu/%zu", nav->count ? nav->cursor + 1 : 0, nav->count);
	c = grid_puts(g, g->rows - 1, 0, line, ATTR_STATUS);
	/* a message takes the place of the key hints */
	if (vs->message[0])
		grid_puts_cut(g, g->rows - 1, c + 3, vs->message,
			      vs->message_is_error ? ATTR_ERROR : ATTR_STATUS);
	else
		grid_puts_cut(g, g->rows - 1, c + 2, extra, ATTR_STATUS);
}

/*
 * Columns are the grid's cells, so a line scrolls by whole characters: a
 * character that the left edge cuts (a wide one, an escape) becomes blanks
 * for its part still in view, and the marks that combine with a character
 * scrolled off go with it.
 */
void view_expand_tabs(char *out, size_t size, struct span text, int skip)
{
	size_t o = 0, n;
	int col = 0, w;
	bool kept = skip <= 0; /* (whether the last character is in view) */

	for (size_t i = 0; i < text.len && o + 8 < size; i += n) {
		if (text.ptr[i] == '\t') {
			do {
				if (col++ >= skip)
					out[o++] = ' ';
			} while (col % 8 && o + 1 < size);
			kept = col > skip;
			n = 1;
			continue;
		}
		n = grid_next(text.ptr + i, text.len - i, &w);
		if (w ? col >= skip : kept) {
			memcpy(out + o, text.ptr + i, n);
			o += n;
			kept = true;
		} else {
			for (int c = skip; c < col + w && o + 1 < size; c++)
				out[o++] = ' ';
			kept = false;
		}
		col += w;
	}
	out[o] = '\0';
}

/* The progress of what, of total bytes (0: not known, as from a pipe). */
static void draw_progress(struct grid *g, const char *path, const char *what, uint64_t done,
			  uint64_t total, const char *keys)
{
	char line[512];

	grid_clear(g);
	grid_fill(g, 0, 0, ATTR_TITLE);
	grid_puts_cut(g, 0, 0, "ncgrind: ", ATTR_TITLE);
	grid_puts_cut(g, 0, 9, path, ATTR_TITLE);
	if (total)
		snprintf(line, sizeof(line), "%s: %.0f%% (%.1f of %.1f MB)", what,
			 100.0 * (double)done / (double)total, (double)done / 1e6,
			 (double)total / 1e6);
	else
		snprintf(line, sizeof(line), "%s: %.1f MB so far", what, (double)done / 1e6);
	grid_puts(g, g->rows / 2, 2, line, ATTR_NORMAL);
	grid_fill(g, g->rows - 1, 0, ATTR_STATUS);
	grid_puts(g, g->rows - 1, 0, keys, ATTR_STATUS);
}

void view_draw_loading(struct grid *g, const char *path, uint64_t done, uint64_t total)
{
	draw_progress(g, path, "Reading the profile", done, total, "q stops");
}

void view_draw_progress(struct grid *g, const char *path, const char *what, uint64_t done,
			uint64_t total, const char *keys)
{
	draw_progress(g, path, what, done, total, keys);
}

void view_tried_text(char *out, size_t size, const struct source_tried *tr, int skip)
{
	char path[2048];

	/* from the profile: the grid escapes its control characters (\x1b) */
	view_expand_tabs(path, sizeof(path), span_make(tr->path, strlen(tr->path)), skip);
	snprintf(out, size, "  tried %s%s%s%s", path, tr->why ? " (not read: " : "",
		 tr->why ? tr->why : "", tr->why ? ")" : "");
}
