/*
 * screen_table: the function table, the first screen of the history. Its
 * state is its own, as every screen's is: the other screens read the event,
 * the units and the filters from the ui, never from the table.
 */
#include "ui_internal.h"

#include <stdlib.h>

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
	return view_table_rows(&u->g);
}

/* The name line starts at the start of a new selection's name. */
static void table_moved(struct ui *u, struct screen *s, int dir)
{
	(void)u, (void)dir;
	tab(s)->name_scroll = 0;
}

static void table_draw(struct ui *u, struct screen *s)
{
	view_draw_table(&u->g, tab(s), &u->vs);
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
	nav_scroll(&t->nav, ui_page(u));
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
	nav_scroll(&t->nav, ui_page(u));
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
			nav_to(&t->nav, i, ui_page(u));
			return true;
		}
	return false;
}

static int table_columns_shown(struct ui *u, struct screen *s)
{
	return view_table_columns_shown(&u->g, tab(s));
}

/* :top N: the first N rows (0: all). */
static bool table_top(struct ui *u, struct screen *s, size_t n)
{
	tab(s)->limit = n;
	table_refresh(tab(s));
	nav_scroll(&tab(s)->nav, ui_page(u));
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
	return report_write(f, &u->ses.prof, &o);
}

/* The event, the filters, the parts or the cycle mode changed: sorted again, on the same function.
 */
static void table_update(struct ui *u, struct screen *s)
{
	struct table *t = tab(s);

	t->keep = u->narrowed ? u->ses.keep : NULL;
	table_refresh(t);
	nav_scroll(&t->nav, ui_page(u));
}

/* The keys of the screen (the generic keymap of keys.c comes after them). */
static const struct key_binding table_keys[] = {
    {'i', REQ_SORT_INCL, NULL},    {'s', REQ_SORT_SELF, NULL},  {'c', REQ_SORT_CALLS, NULL},
    {'a', REQ_SORT_NAME, NULL},    {'>', REQ_NAME_RIGHT, NULL}, {'<', REQ_NAME_LEFT, NULL},
    {KEYS_RIGHT, REQ_ENTER, NULL}, {KEYS_LEFT, REQ_BACK, NULL}, {'h', REQ_BACK, NULL},
};

const struct keymap keymap_table = KEYMAP(SCOPE_TABLE, table_keys);

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
};
