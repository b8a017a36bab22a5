/*
 * screen_events: the events of the profile (KCachegrind's event types):
 * each one's total, its long name or, for an inherited event, its formula.
 * Enter shows the event on every screen and goes back. This file is all of
 * it, but for its line in the command table (commands.h) that opens it.
 */
#include "ui_internal.h"

#include "ncgrind/model/fmt.h"

#include <stdlib.h>

struct events_screen {
	struct nav nav;
};

static const struct screen_ops screen_events_ops; /* at the end */

static struct events_screen *state_of(struct screen *s)
{
	return s->state;
}

/* One event's row: name, total, long name (or "= formula"). */
static void event_text(const struct ui *u, uint32_t e, char *buf, size_t size)
{
	const struct event *ev = &u->ses.prof.events[e];
	char total[FMT_NUM];
	struct span what = ev->derived ? ev->formula : ev->long_name;

	snprintf(buf, size, "%-12.*s %18s  %s%.*s", (int)ev->name.len, ev->name.ptr,
		 fmt_commas(total, u->ses.prof.totals[e]), ev->derived ? "= " : "", (int)what.len,
		 what.ptr);
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

static void events_draw(struct ui *u, struct screen *s)
{
	struct events_screen *es = state_of(s);
	struct grid *g = &u->g;
	char line[1024];

	grid_clear(g);
	grid_fill(g, 0, 0, ATTR_TITLE);
	grid_puts_cut(g, 0, 0, "ncgrind: events", ATTR_TITLE);
	snprintf(line, sizeof(line), "%u event%s of %s; the one shown is marked *", u->ses.prof.nev,
		 u->ses.prof.nev == 1 ? "" : "s", u->vs.path);
	grid_put_cut(g, 1, 0, line, strlen(line), g->cols, ATTR_DIM);
	snprintf(line, sizeof(line), "  %-12s %18s  %s", "Event", "Total", "Long name, or formula");
	grid_fill(g, 3, 0, ATTR_HEAD);
	grid_puts(g, 3, 0, line, ATTR_HEAD);
	for (int i = 0; i < ui_list_rows(u) && es->nav.top + (size_t)i < es->nav.count; i++) {
		uint32_t e = (uint32_t)(es->nav.top + (size_t)i);
		enum grid_attr a = e == es->nav.cursor ? ATTR_CURSOR : ATTR_NORMAL;

		event_text(u, e, line + 2, sizeof(line) - 2);
		line[0] = e == u->disp.event ? '*' : ' ';
		line[1] = ' ';
		grid_fill(g, 4 + i, 0, a);
		grid_put(g, 4 + i, 0, line, strlen(line), g->cols, a);
	}
	view_draw_status(g, &es->nav, &u->vs, "Enter: show this event  q: back");
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

static bool events_row_text(struct ui *u, struct screen *s, size_t row, char *buf, size_t size)
{
	(void)s;
	event_text(u, (uint32_t)row, buf, size);
	return true;
}

static int events_write(struct ui *u, struct screen *s, FILE *f)
{
	char line[1024];

	(void)s;
	for (uint32_t e = 0; e < u->ses.prof.nev; e++) {
		event_text(u, e, line, sizeof(line));
		fprintf(f, "%s\n", line);
	}
	return ferror(f) ? -1 : 0;
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

const struct keymap keymap_events = KEYMAP("events", "the events", events_keys);

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
};
