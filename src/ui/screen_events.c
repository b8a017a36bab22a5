/*
 * screen_events: the events of the profile (KCachegrind's event types):
 * each one's total, its long name or, for an inherited event, its formula.
 * Enter shows the event on every screen and goes back. This file is all of
 * it, but for its line in the command table (commands.h) that opens it.
 */
#include "ui_internal.h"

#include "ncgrind/model/fmt.h"
#include "ncgrind/model/shorten.h"

#include <stdlib.h>

struct events_screen {
	struct nav nav;
};

static const struct screen_ops screen_events_ops; /* at the end */

static struct events_screen *state_of(struct screen *s)
{
	return s->state;
}

/*
 * The columns (list.h): the mark of the event shown, its name as wide as
 * the widest (up to EVENT_MAX, cut with …), its total; then its long name
 * or, for an inherited event, "= formula", cut with … at the edge. The
 * total takes 18 columns while the long name keeps MIN_NAME (the blanks
 * that make up 18 give way first), and on a screen too narrow for it gives
 * way whole rather than be cut.
 */
enum { ECOL_MARK, ECOL_NAME, ECOL_PAD, ECOL_TOTAL };

#define EVENT_MAX 40
#define TOTAL_W 18
#define MIN_NAME 16

static void event_columns(struct list *l, const struct ui *u, int cols)
{
	const struct profile *p = &u->ses.prof;
	char buf[LIST_CELL];
	int total;

	list_init(l, false, 2);
	list_add(l, "", 1, 0, 0, false, 0, 0);
	list_add(l, "Event", 12, 0, 1, false, 0, 0);
	list_add(l, "", 0, 0, 1, false, 1, MIN_NAME);
	list_add(l, "Total", 5, 0, 0, true, 2, 0);
	for (uint32_t e = 0; e < p->nev; e++) {
		snprintf(buf, sizeof(buf), "%.*s", (int)p->events[e].name.len,
			 p->events[e].name.ptr);
		list_widen(l, ECOL_NAME, buf, EVENT_MAX);
		list_widen(l, ECOL_TOTAL, fmt_commas(buf, p->totals[e]), 0);
	}
	total = l->col[ECOL_TOTAL].width;
	l->col[ECOL_PAD].width = l->col[ECOL_PAD].short_width =
	    total < TOTAL_W ? TOTAL_W - total : 0;
	list_fit(l, cols);
}

/* Event e's row at r: its cells, then its long name or formula in what is left. */
static void draw_event(struct grid *g, int r, const struct ui *u, const struct list *l, uint32_t e,
		       enum grid_attr a)
{
	const struct event *ev = &u->ses.prof.events[e];
	struct span what = ev->derived ? ev->formula : ev->long_name;
	char cells[LIST_MAX_COLUMNS][LIST_CELL], text[1024];
	int c;

	snprintf(cells[ECOL_MARK], LIST_CELL, "%s", e == u->disp.event ? "*" : "");
	shorten_value(cells[ECOL_NAME], LIST_CELL, ev->name, l->col[ECOL_NAME].width);
	cells[ECOL_PAD][0] = '\0';
	fmt_commas(cells[ECOL_TOTAL], u->ses.prof.totals[e]);
	grid_fill(g, r, 0, a);
	c = list_put_cells(g, r, l, cells, a);
	snprintf(text, sizeof(text), "%s%.*s", ev->derived ? "= " : "", (int)what.len, what.ptr);
	shorten_value(cells[0], LIST_CELL, span_make(text, strlen(text)), l->name);
	grid_puts(g, r, c, cells[0], a);
}

/* :events */
void cmd_events(struct ui *u, const char *cmd, const char *arg)
{
	struct events_screen *es = xcalloc(1, sizeof(*es));

	(void)cmd, (void)arg;
	es->nav.count = u->ses.prof.nev;
	nav_to(&es->nav, u->disp.event, ui_list_rows(u));
	ui_push_screen(u, &screen_events_ops, es, free);
}

static struct nav *events_nav(struct ui *u, struct screen *s)
{
	(void)u;
	return &state_of(s)->nav;
}

/* The title and what it lists, the heads and the rows in view, into g (nav: where they start). */
static void draw(struct grid *g, const struct ui *u, const struct nav *nav, const struct list *l,
		 const struct view_state *vs)
{
	char line[1024];

	grid_clear(g);
	grid_fill(g, 0, 0, ATTR_TITLE);
	grid_puts_cut(g, 0, 0, "ncgrind: events", ATTR_TITLE);
	snprintf(line, sizeof(line), "%u event%s of %s; the one shown is marked *", u->ses.prof.nev,
		 u->ses.prof.nev == 1 ? "" : "s", vs->path);
	grid_put_cut(g, 1, 0, line, strlen(line), g->cols, ATTR_DIM);
	list_put_heads(g, VIEW_LIST_HEAD - 1, l, "Long name, or formula");
	for (int i = 0; i < view_list_rows(g) && nav->top + (size_t)i < nav->count; i++) {
		uint32_t e = (uint32_t)(nav->top + (size_t)i);

		draw_event(g, VIEW_LIST_HEAD + i, u, l, e,
			   e == nav->cursor ? ATTR_CURSOR : ATTR_NORMAL);
	}
	view_draw_status(g, nav, vs, "Enter: show this event  q: back");
}

static void events_draw(struct ui *u, struct screen *s)
{
	struct list l;

	event_columns(&l, u, u->g.cols);
	draw(&u->g, u, &state_of(s)->nav, &l, &u->vs);
}

/* Enter: the event on every screen, back to the one before. */
static bool events_request(struct ui *u, struct screen *s, enum request req)
{
	uint32_t e = (uint32_t)state_of(s)->nav.cursor;

	switch (req) {
	case REQ_ENTER:
		if (e >= u->ses.prof.nev)
			return true;
		u->disp.event = e;
		hist_close(&u->hist); /* s is gone after this */
		ui_refresh_all(u);
		ui_message(u, false, "event %.*s", (int)u->ses.prof.events[e].name.len,
			   u->ses.prof.events[e].name.ptr);
		return true;
	case REQ_SORT_INCL:
	case REQ_SORT_SELF:
	case REQ_SORT_CALLS:
	case REQ_SORT_NAME:
		ui_message(u, false, "the events are in the order of the file");
		return true;
	default:
		return false;
	}
}

static uint32_t events_fn(struct ui *u, struct screen *s)
{
	(void)u, (void)s;
	return NCG_NONE;
}

/* What / looks for: the event's name, then its long name or formula. */
static bool events_row_text(struct ui *u, struct screen *s, size_t row, char *buf, size_t size)
{
	const struct event *ev = &u->ses.prof.events[row];
	struct span what = ev->derived ? ev->formula : ev->long_name;

	(void)s;
	snprintf(buf, size, "%.*s  %s%.*s", (int)ev->name.len, ev->name.ptr,
		 ev->derived ? "= " : "", (int)what.len, what.ptr);
	return true;
}

struct events_write {
	const struct ui *u;
	struct list l;
};

static void write_row(void *ctx, struct grid *g, size_t i)
{
	const struct events_write *w = ctx;

	draw_event(g, 0, w->u, &w->l, (uint32_t)i, ATTR_NORMAL);
}

/* :write: every event, at a width where nothing gives way. */
static void write_head(void *ctx, struct grid *g)
{
	struct events_write *w = ctx;
	struct view_state vs = {0};
	struct nav top = {0};

	vs.path = w->u->vs.path;
	event_columns(&w->l, w->u, g->cols);
	draw(g, w->u, &top, &w->l, &vs);
}

static int events_write(struct ui *u, struct screen *s, FILE *f)
{
	struct events_write w = {.u = u};

	(void)s;
	return list_write(f, VIEW_LIST_HEAD, u->ses.prof.nev, write_head, write_row, &w);
}

static void events_update(struct ui *u, struct screen *s)
{
	state_of(s)->nav.count = u->ses.prof.nev;
	nav_scroll(&state_of(s)->nav, ui_list_rows(u));
}

static void events_reopen(struct ui *u, uint32_t fn, unsigned mode)
{
	(void)fn, (void)mode;
	cmd_events(u, "events", "");
}

/* The keys of the screen (the generic keymap of keys.c comes after them). */
static const struct key_binding events_keys[] = {
    {'\n', REQ_ENTER, "show this event"},
    {KEYS_ENTER, REQ_ENTER, "show this event"},
    {KEYS_RIGHT, REQ_ENTER, "show this event"},
    {KEYS_LEFT, REQ_BACK, NULL},
    {'h', REQ_BACK, NULL},
};

struct keymap keymap_events = KEYMAP("events", "the events", events_keys);

static const struct screen_ops screen_events_ops = {
    .keymap = &keymap_events,
    .nav = events_nav,
    .rows = ui_list_rows,
    .moved = NULL,
    .draw = events_draw,
    .request = events_request,
    .selected = events_fn,
    .row_text = events_row_text,
    .show_match = NULL,
    .write = events_write,
    .update = events_update,
    .subject = NULL,
    .reopen = events_reopen,
    .first_row = VIEW_LIST_HEAD,
};
