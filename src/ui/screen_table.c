/*
 * screen_table: the function table, the first screen of the history (its
 * state, u->t, outlives the other screens: they read its event and units).
 */
#include "ui_internal.h"

static struct nav *table_nav(struct ui *u, struct screen *s)
{
	(void)s;
	return &u->t.nav;
}

static int table_rows(const struct ui *u)
{
	return view_table_rows(&u->g);
}

/* The name line starts at the start of a new selection's name. */
static void table_moved(struct ui *u, struct screen *s, int dir)
{
	(void)s, (void)dir;
	u->t.name_scroll = 0;
}

static void table_draw(struct ui *u, struct screen *s)
{
	(void)s;
	view_draw_table(&u->g, &u->t, &u->vs);
}

/* Scroll the name line by half a screen, not past the end of the name. */
static void name_right(struct ui *u)
{
	uint32_t f = table_selected(&u->t);
	struct span name;
	int room;

	if (f == NCG_NONE)
		return;
	name = profile_name(&u->ses.prof, u->ses.prof.funcs[f].name);
	room = grid_width(name.ptr, name.len) - (u->g.cols - 2);
	if (u->t.name_scroll < room)
		u->t.name_scroll += u->g.cols / 2 < room - u->t.name_scroll
					? u->g.cols / 2
					: room - u->t.name_scroll;
}

/*
 * A match in the part of a long name that the table shortens (<…>, (…)) or
 * that runs past the screen: the full name's line scrolls to it.
 */
static void table_show_match(struct ui *u, struct screen *s, size_t row, size_t start, size_t end)
{
	struct span name = profile_name(&u->ses.prof, u->ses.prof.funcs[u->t.rows[row]].name);
	int from = grid_width(name.ptr, start < name.len ? start : name.len);
	int to = grid_width(name.ptr, end < name.len ? end : name.len);
	int room = grid_width(name.ptr, name.len) - (u->g.cols - 2);

	(void)s;
	if (to <= u->g.cols - 2 || room <= 0)
		return;
	u->t.name_scroll = from - u->g.cols / 4 > 0 ? from - u->g.cols / 4 : 0;
	if (u->t.name_scroll > room)
		u->t.name_scroll = room;
}

static void table_sort_by(struct ui *u, enum report_sort key)
{
	table_sort(&u->t, key);
	u->t.name_scroll = 0;
}

static bool table_request(struct ui *u, struct screen *s, enum request req)
{
	struct table *t = &u->t;

	(void)s;
	switch (req) {
	case REQ_SORT_INCL:
		table_sort_by(u, SORT_INCL);
		break;
	case REQ_SORT_SELF:
		table_sort_by(u, SORT_SELF);
		break;
	case REQ_SORT_CALLS:
		table_sort_by(u, SORT_CALLS);
		break;
	case REQ_SORT_NAME:
		table_sort_by(u, SORT_NAME);
		break;
	case REQ_NAME_RIGHT:
		name_right(u);
		break;
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
	(void)s;
	return table_selected(&u->t);
}

static bool table_text(struct ui *u, struct screen *s, size_t row, char *buf, size_t size)
{
	struct span name = profile_name(&u->ses.prof, u->ses.prof.funcs[u->t.rows[row]].name);

	(void)s;
	snprintf(buf, size, "%.*s", (int)name.len, name.ptr);
	return true;
}

/* The whole table, not just the screen: the report of what it shows. */
static int table_write(struct ui *u, struct screen *s, FILE *f)
{
	struct report_opts o = {0};
	uint32_t ev = u->disp.event;

	(void)s;
	o.kind = REPORT_FUNCTIONS;
	o.format = REPORT_TEXT;
	o.sort = u->t.sort;
	o.sort_event = ev;
	o.events = &ev;
	o.nevents = 1;
	o.keep = u->t.keep;
	return report_write(f, &u->ses.prof, &o);
}

static void table_update(struct ui *u, struct screen *s)
{
	(void)s;
	table_refresh(&u->t);
	nav_scroll(&u->t.nav, ui_page(u));
}

/* The keys of the screen (the generic keymap of keys.c comes after them). */
static const struct key_binding table_keys[] = {
    {'i', REQ_SORT_INCL, NULL},    {'s', REQ_SORT_SELF, NULL},  {'c', REQ_SORT_CALLS, NULL},
    {'a', REQ_SORT_NAME, NULL},    {'>', REQ_NAME_RIGHT, NULL}, {'<', REQ_NAME_LEFT, NULL},
    {KEYS_RIGHT, REQ_ENTER, NULL}, {KEYS_LEFT, REQ_BACK, NULL}, {'h', REQ_BACK, NULL},
};

const struct keymap keymap_table = KEYMAP(SCOPE_TABLE, table_keys);

const struct screen_ops screen_table_ops = {
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
};
