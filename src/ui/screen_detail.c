/*
 * screen_detail: a function's callers and callees (detail.c is its
 * view-model).
 */
#include "ui_internal.h"

#include <stdlib.h>

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
	detail_init(s->state, &u->ses.prof, &u->ses.graph, fn, u->disp.event);
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

static void detail_draw(struct ui *u, struct screen *s)
{
	view_draw_detail(&u->g, s->state, &u->view, &u->vs);
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

static int detail_write(struct ui *u, struct screen *s, FILE *f)
{
	return view_write_detail(f, s->state, &u->view);
}

/* Another event: the rows sorted again by it, the cursor on the first. */
static void detail_update(struct ui *u, struct screen *s)
{
	uint32_t fn = ds(s)->fn;
	enum report_sort sort = ds(s)->sort;
	bool reverse = ds(s)->reverse;

	detail_release(s->state);
	detail_init(s->state, &u->ses.prof, &u->ses.graph, fn, u->disp.event);
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

const struct keymap keymap_callers = KEYMAP(SCOPE_CALLERS, callers_keys);

const struct screen_ops screen_detail_ops = {
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
};
