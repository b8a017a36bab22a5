/*
 * screen_groups: the functions grouped by object, file, class or cycle
 * (model/groups.c), each group with its inclusive and self cost and its
 * number of functions (O, :group KIND). s, i and a sort by self, inclusive
 * cost or name; O steps to the next kind of group; Enter lists the group's
 * functions, and Enter there opens a function's callers and callees. Only
 * the functions the filters let through count: filters work inside groups.
 */
#include "ui_internal.h"

#include "ncgrind/model/fmt.h"
#include "ncgrind/model/groups.h"
#include "ncgrind/model/shorten.h"

#include <stdlib.h>

struct groups_screen {
	struct groups g;
	struct nav nav;
	size_t *order;
	enum report_sort sort; /* SORT_SELF, SORT_INCL or SORT_NAME */
};

/* A group's functions, by self cost (s), inclusive cost (i), calls (c) or name (a). */
struct members_screen {
	struct nav nav;
	uint32_t *fns;
	char *name;
	enum report_sort sort;
};

static const struct screen_ops screen_groups_ops, screen_members_ops; /* at the end */

static struct groups_screen *gs(struct screen *s)
{
	return s->state;
}

static void groups_screen_free(void *state)
{
	struct groups_screen *g = state;

	groups_release(&g->g);
	free(g->order);
	free(g);
}

static void regroup(struct ui *u, struct groups_screen *g, enum group_kind kind)
{
	groups_release(&g->g);
	free(g->order);
	groups_build(&g->g, &u->ses.prof, kind, u->narrowed ? u->ses.keep : NULL);
	g->order = groups_order(&g->g, u->disp.event, g->sort == SORT_INCL, g->sort == SORT_NAME);
	g->nav.count = g->g.n;
	nav_scroll(&g->nav, ui_list_rows(u));
}

static void open_groups(struct ui *u, enum group_kind kind)
{
	struct groups_screen *g = xcalloc(1, sizeof(*g));

	g->sort = SORT_SELF;
	regroup(u, g, kind);
	ui_push_screen(u, &screen_groups_ops, g, groups_screen_free);
	ui_message(u, false, "%zu group%s by %s (O: the next kind)", g->g.n, g->g.n == 1 ? "" : "s",
		   groups_kind_name(kind));
}

/* O: the next kind after kind (none: objects first). */
static enum group_kind next_kind(enum group_kind kind)
{
	return kind == GROUP_CYCLE ? GROUP_OBJECT : (enum group_kind)(kind + 1);
}

void ui_group(struct ui *u, enum group_kind kind)
{
	struct screen *s = hist_current(&u->hist);

	if (screen_ops_of(s) == &screen_groups_ops) {
		if (kind == GROUP_NONE) {
			hist_close(&u->hist);
			return;
		}
		regroup(u, gs(s), kind);
		gs(s)->nav.cursor = gs(s)->nav.top = 0;
		ui_message(u, false, "%zu group%s by %s", gs(s)->g.n, gs(s)->g.n == 1 ? "" : "s",
			   groups_kind_name(kind));
		return;
	}
	if (kind == GROUP_NONE)
		ui_message(u, false, "no groups are shown");
	else
		open_groups(u, kind);
}

void ui_group_next(struct ui *u)
{
	struct screen *s = hist_current(&u->hist);

	ui_group(u,
		 screen_ops_of(s) == &screen_groups_ops ? next_kind(gs(s)->g.kind) : GROUP_OBJECT);
}

/* group KIND: the functions by object, file, class or cycle; none: back. */
void cmd_group(struct ui *u, const char *cmd, const char *arg)
{
	enum group_kind kind;

	(void)cmd;
	if (groups_kind_parse(*arg ? arg : "object", &kind) < 0) {
		ui_message(u, true, "usage: group object|file|class|cycle|none");
		return;
	}
	ui_group(u, kind);
}

/*
 * The columns of the groups and of a group's functions (list.h): inclusive
 * cost, its share, self cost, its share, the functions (or the calls). The
 * costs take 14 columns, or what their widest value needs: the blanks that
 * make up 14 are a column of their own before each cost, which gives way
 * first on a narrow screen; then, so that the name keeps MIN_NAME columns
 * as in the table, the percentages, exact numbers, the count.
 */
enum {
	GCOL_INCL_PAD,
	GCOL_INCL,
	GCOL_INCL_PCT,
	GCOL_SELF_PAD,
	GCOL_SELF,
	GCOL_SELF_PCT,
	GCOL_COUNT
};

#define MIN_NAME 16
#define PCT_W 7
#define COST_W 14

/* The columns for a screen of cols columns whose biggest cost is widest, its count count_w wide. */
static void group_columns(struct list *l, const struct ui *u, int cols, uint64_t widest,
			  const char *count, int count_w)
{
	char buf[FMT_NUM];
	int w = list_width(fmt_value(buf, widest, false, u->disp.unit_ps)),
	    sw = list_width(fmt_value(buf, widest, true, u->disp.unit_ps)), pad;

	w = w < 4 ? 4 : w; /* as wide as "Incl" */
	/* (a smaller value may take more in short units: 77.5M against 185M) */
	sw = sw < view_short_width(u->disp.unit_ps) ? view_short_width(u->disp.unit_ps) : sw;
	pad = COST_W - (u->disp.short_units ? sw : w);
	pad = pad > 0 ? pad : 0;
	list_init(l, u->disp.short_units, 2);
	list_add(l, "", pad, 0, 0, false, 1, MIN_NAME);
	list_add(l, "Incl", w, sw, 0, true, 0, 0);
	list_add(l, "%", PCT_W, 0, 1, true, 2, MIN_NAME);
	list_add(l, "", pad, 0, 0, false, 1, MIN_NAME);
	list_add(l, "Self", w, sw, 1, true, 0, 0);
	list_add(l, "%", PCT_W, 0, 1, true, 2, MIN_NAME);
	list_add(l, count, count_w, 0, 1, true, 4, MIN_NAME);
	l->col[GCOL_INCL_PAD].together = l->col[GCOL_SELF_PAD].together = true;
	l->col[GCOL_INCL_PCT].together = l->col[GCOL_SELF_PCT].together = true;
	l->col[GCOL_INCL_PCT].shown = l->col[GCOL_SELF_PCT].shown = u->disp.show_percent;
	l->units_give_way = 3;
	l->units_room = MIN_NAME;
	list_fit(l, cols);
}

/* The cells of a row: its costs in the event shown and their shares of total, its count. */
static void group_cells(char (*cells)[LIST_CELL], const struct list *l, const struct ui *u,
			uint64_t incl, uint64_t self, uint64_t total, const char *count)
{
	cells[GCOL_INCL_PAD][0] = cells[GCOL_SELF_PAD][0] = '\0';
	fmt_value(cells[GCOL_INCL], incl, l->short_units, u->disp.unit_ps);
	fmt_percent(cells[GCOL_INCL_PCT], incl, total);
	fmt_value(cells[GCOL_SELF], self, l->short_units, u->disp.unit_ps);
	fmt_percent(cells[GCOL_SELF_PCT], self, total);
	snprintf(cells[GCOL_COUNT], LIST_CELL, "%s", count);
}

/*
 * What the two screens of this file draw alike: a list of text rows (the
 * groups, a group's functions) in the columns above, its name after them.
 */
struct group_list {
	const struct ui *u;
	const void *state;
	const struct nav *nav;
	struct list l;
	/* the cells of row k; the name of row k as set's row i, shortened to width */
	void (*cells)(const struct group_list *, size_t k, char (*cells)[LIST_CELL]);
	void (*name)(const struct group_list *, size_t k, struct shorten_set *set, size_t i,
		     int width);
};

static void draw_row(struct grid *g, int r, const struct group_list *gl, size_t k, const char *name,
		     enum grid_attr a)
{
	char cells[LIST_MAX_COLUMNS][LIST_CELL];
	int c;

	gl->cells(gl, k, cells);
	grid_fill(g, r, 0, a);
	c = list_put_cells(g, r, &gl->l, cells, a);
	grid_put(g, r, c, name, strlen(name), gl->l.name, a);
}

/* The title, what the list is, the heads and the rows in view, into g. */
static void draw_list(struct grid *g, const struct group_list *gl, const char *title,
		      const char *what, const char *name_title, const struct view_state *vs,
		      const char *hints)
{
	const struct nav *nav = gl->nav;
	size_t n = nav->top < nav->count ? nav->count - nav->top : 0;
	int rows = view_list_rows(g);
	struct shorten_set names;

	grid_clear(g);
	grid_fill(g, 0, 0, ATTR_TITLE);
	grid_puts_cut(g, 0, 0, title, ATTR_TITLE);
	grid_put_cut(g, 1, 0, what, strlen(what), g->cols, ATTR_DIM);
	list_put_heads(g, VIEW_LIST_HEAD - 1, &gl->l, name_title);
	/* the names in view, shortened together to what is left after the numbers */
	shorten_set_init(&names, n < (size_t)rows ? n : (size_t)rows);
	for (size_t i = 0; i < names.n; i++)
		gl->name(gl, nav->top + i, &names, i, gl->l.name);
	shorten_set_apply(&names);
	for (size_t i = 0; i < names.n; i++) {
		size_t k = nav->top + i;

		draw_row(g, VIEW_LIST_HEAD + (int)i, gl, k, shorten_set_out(&names, i),
			 k == nav->cursor ? ATTR_CURSOR : ATTR_NORMAL);
	}
	shorten_set_release(&names);
	view_draw_status(g, nav, vs, hints);
}

static void write_row(void *ctx, struct grid *g, size_t k)
{
	const struct group_list *gl = ctx;
	struct shorten_set names;

	shorten_set_init(&names, 1);
	gl->name(gl, k, &names, 0, gl->l.name);
	shorten_set_apply(&names);
	draw_row(g, 0, gl, k, shorten_set_out(&names, 0), ATTR_NORMAL);
	shorten_set_release(&names);
}

/* The biggest cost of the groups in the event shown, and the most functions of one. */
static uint64_t groups_widest(const struct ui *u, const struct groups_screen *g, uint32_t *most)
{
	uint32_t e = u->disp.event < g->g.nev ? u->disp.event : 0;
	uint64_t w = 0;

	*most = 0;
	for (size_t k = 0; k < g->g.n; k++) {
		if (g->g.v[k].nfuncs > *most)
			*most = g->g.v[k].nfuncs;
		if (!g->g.nev)
			continue;
		if (g->g.v[k].incl[e] > w)
			w = g->g.v[k].incl[e];
		if (g->g.v[k].self[e] > w)
			w = g->g.v[k].self[e];
	}
	return w;
}

static void group_row_cells(const struct group_list *gl, size_t k, char (*cells)[LIST_CELL])
{
	const struct ui *u = gl->u;
	const struct groups_screen *g = gl->state;
	const struct group *gr = &g->g.v[g->order[k]];
	uint32_t e = u->disp.event < g->g.nev ? u->disp.event : 0;
	/* (a ratio's share of a total means nothing: no percentage) */
	uint64_t total =
	    u->ses.prof.nev && !u->ses.prof.events[e].ratio ? u->ses.prof.totals[e] : 0;
	char n[16];

	snprintf(n, sizeof(n), "%u", gr->nfuncs);
	group_cells(cells, &gl->l, u, g->g.nev ? gr->incl[e] : 0, g->g.nev ? gr->self[e] : 0, total,
		    n);
}

/* A group's name is a path, a class or an object: no file of its own. */
static void group_name(const struct group_list *gl, size_t k, struct shorten_set *set, size_t i,
		       int width)
{
	const struct groups_screen *g = gl->state;
	const char *name = g->g.v[g->order[k]].name;

	shorten_set_text(set, i, span_make(name, strlen(name)), span_make("", 0), width);
}

static void groups_list(struct group_list *gl, const struct ui *u, const void *state, int cols)
{
	const struct groups_screen *g = state;
	uint32_t most;
	uint64_t widest = groups_widest(u, g, &most);
	char n[16];
	int count_w = snprintf(n, sizeof(n), "%u", most);

	gl->u = u;
	gl->state = g;
	gl->nav = &g->nav;
	gl->cells = group_row_cells;
	gl->name = group_name;
	group_columns(&gl->l, u, cols, widest, "Funcs", count_w > 7 ? count_w : 7);
}

static struct nav *groups_nav(struct ui *u, struct screen *s)
{
	(void)u;
	return &gs(s)->nav;
}

static void groups_paint(struct grid *grid, const struct ui *u, const struct group_list *gl,
			 const struct view_state *vs)
{
	const struct groups_screen *g = gl->state;
	struct span ev =
	    u->ses.prof.nev ? u->ses.prof.events[u->disp.event].name : span_make("", 0);
	char title[200], what[300];

	snprintf(title, sizeof(title), "ncgrind: functions by %s", groups_kind_name(g->g.kind));
	snprintf(what, sizeof(what),
		 "%zu group%s; %.*s: the self cost of their functions, and inclusive: with the "
		 "calls out of the group; by %s",
		 g->g.n, g->g.n == 1 ? "" : "s", (int)ev.len, ev.ptr,
		 g->sort == SORT_INCL   ? "inclusive cost"
		 : g->sort == SORT_NAME ? "name"
					: "self cost");
	draw_list(grid, gl, title, what, groups_kind_name(g->g.kind), vs,
		  "Enter: its functions  O: next grouping  s/i/a: sort  q: back");
}

/* What :write of a groups or members screen needs: its rows, and how it fits and paints. */
struct group_write {
	struct group_list gl;
	const struct ui *u;
	const void *state;
	void (*list)(struct group_list *, const struct ui *, const void *, int);
	void (*paint)(struct grid *, const struct ui *, const struct group_list *,
		      const struct view_state *);
};

static void write_group_row(void *ctx, struct grid *g, size_t k)
{
	write_row(&((struct group_write *)ctx)->gl, g, k);
}

static void write_head(void *ctx, struct grid *g)
{
	struct group_write *w = ctx;
	struct view_state vs = {0};

	w->list(&w->gl, w->u, w->state, g->cols);
	w->paint(g, w->u, &w->gl, &vs);
}

static int write_list(FILE *f, const struct ui *u, const void *state, size_t n,
		      void (*list)(struct group_list *, const struct ui *, const void *, int),
		      void (*paint)(struct grid *, const struct ui *, const struct group_list *,
				    const struct view_state *))
{
	struct group_write w = {.u = u, .state = state, .list = list, .paint = paint};

	return list_write(f, VIEW_LIST_HEAD, n, write_head, write_group_row, &w);
}

static void groups_draw(struct ui *u, struct screen *s)
{
	struct group_list gl;

	groups_list(&gl, u, gs(s), u->g.cols);
	groups_paint(&u->g, u, &gl, &u->vs);
}

static void open_members(struct ui *u, const struct groups *g, size_t gi);

static bool groups_request(struct ui *u, struct screen *s, enum request req)
{
	struct groups_screen *g = gs(s);

	switch (req) {
	case REQ_SORT_SELF:
	case REQ_SORT_INCL:
	case REQ_SORT_NAME:
		g->sort = req == REQ_SORT_SELF   ? SORT_SELF
			  : req == REQ_SORT_INCL ? SORT_INCL
						 : SORT_NAME;
		regroup(u, g, g->g.kind);
		g->nav.cursor = g->nav.top = 0;
		return true;
	case REQ_SORT_CALLS:
		ui_message(u, false, "groups sort by self (s), inclusive cost (i) or name (a)");
		return true;
	case REQ_ENTER:
		if (g->nav.cursor < g->nav.count)
			open_members(u, &g->g, g->order[g->nav.cursor]);
		return true;
	default:
		return false;
	}
}

static uint32_t groups_fn(struct ui *u, struct screen *s)
{
	(void)u, (void)s;
	return NCG_NONE;
}

static bool groups_row_text(struct ui *u, struct screen *s, size_t row, char *buf, size_t size)
{
	snprintf(buf, size, "%s", gs(s)->g.v[gs(s)->order[row]].name);
	(void)u;
	return true;
}

static int groups_write(struct ui *u, struct screen *s, FILE *f)
{
	return write_list(f, u, gs(s), gs(s)->nav.count, groups_list, groups_paint);
}

/* The filters, the event or the parts changed: grouped again. */
static void groups_update(struct ui *u, struct screen *s)
{
	regroup(u, gs(s), gs(s)->g.kind);
}

/* :sort self|incl|name: the groups in that order. */
static bool groups_sort_set(struct ui *u, struct screen *s, enum report_sort key)
{
	struct groups_screen *g = s->state;

	if (key == SORT_CALLS)
		return false;
	g->sort = key;
	regroup(u, g, g->g.kind);
	g->nav.cursor = g->nav.top = 0;
	return true;
}

/* The keys of the screen (the generic keymap of keys.c comes after them). */
static const struct key_binding groups_keys[] = {
    {'s', REQ_SORT_SELF, NULL},
    {'i', REQ_SORT_INCL, NULL},
    {'a', REQ_SORT_NAME, NULL},
    {'\n', REQ_ENTER, "the functions of the group"},
    {KEYS_ENTER, REQ_ENTER, "the functions of the group"},
    {KEYS_RIGHT, REQ_ENTER, "the functions of the group"},
    {KEYS_LEFT, REQ_BACK, NULL},
    {'h', REQ_BACK, NULL},
};

struct keymap keymap_groups =
    KEYMAP("groups", "the functions grouped (by object, file, class, cycle)", groups_keys);

static const struct screen_ops screen_groups_ops = {
    .keymap = &keymap_groups,
    .nav = groups_nav,
    .rows = ui_list_rows,
    .moved = NULL,
    .draw = groups_draw,
    .request = groups_request,
    .selected = groups_fn,
    .row_text = groups_row_text,
    .show_match = NULL,
    .write = groups_write,
    .update = groups_update,
    .subject = NULL,
    .reopen = NULL,
    .sort = groups_sort_set,
    .first_row = VIEW_LIST_HEAD,
};

/* ---- a group's functions -------------------------------------------------- */

static struct members_screen *ms(struct screen *s)
{
	return s->state;
}

static void members_free(void *state)
{
	struct members_screen *m = state;

	free(m->fns);
	free(m->name);
	free(m);
}

/* How sort_members() sorts. */
struct member_order {
	const struct profile *p;
	uint32_t ev;
	enum report_sort sort;
};

static uint64_t member_key(const struct member_order *o, uint32_t f)
{
	switch (o->sort) {
	case SORT_INCL:
		return profile_incl_at(o->p, f, o->ev);
	case SORT_CALLS:
		return o->p->funcs[f].calls;
	default:
		return profile_self_at(o->p, f, o->ev);
	}
}

static int cmp_member(const void *a, const void *b, void *ctx)
{
	const struct member_order *o = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (o->sort == SORT_NAME) {
		struct span nx = profile_name(o->p, o->p->funcs[x].name),
			    ny = profile_name(o->p, o->p->funcs[y].name);
		size_t n = nx.len < ny.len ? nx.len : ny.len;
		int c = memcmp(nx.ptr, ny.ptr, n);

		if (c || nx.len != ny.len)
			return c ? c : nx.len < ny.len ? -1 : 1;
	} else if (member_key(o, x) != member_key(o, y)) {
		return member_key(o, x) > member_key(o, y) ? -1 : 1;
	}
	return (x > y) - (x < y);
}

static void sort_members(struct ui *u, struct members_screen *m)
{
	sort_with(m->fns, m->nav.count, sizeof(uint32_t), cmp_member,
		  &(struct member_order){&u->ses.prof, u->disp.event, m->sort});
}

static void open_members(struct ui *u, const struct groups *g, size_t gi)
{
	struct members_screen *m = xcalloc(1, sizeof(*m));
	size_t n = 0;

	m->fns = xmalloc_array(g->v[gi].nfuncs ? g->v[gi].nfuncs : 1, sizeof(uint32_t));
	for (uint32_t f = g->v[gi].first; f != NCG_NONE; f = g->next[f])
		m->fns[n++] = f;
	m->nav.count = n;
	m->sort = SORT_SELF;
	sort_members(u, m);
	m->name = xstrdup(g->v[gi].name);
	ui_push_screen(u, &screen_members_ops, m, members_free);
}

static void member_cells(const struct group_list *gl, size_t k, char (*cells)[LIST_CELL])
{
	const struct members_screen *m = gl->state;
	const struct profile *p = &gl->u->ses.prof;
	uint32_t f = m->fns[k], e = gl->u->disp.event;
	char c[FMT_NUM];

	group_cells(cells, &gl->l, gl->u, profile_incl_at(p, f, e), profile_self_at(p, f, e),
		    p->events[e].ratio ? 0 : p->totals[e], fmt_commas(c, p->funcs[f].calls));
}

/* The biggest cost of the functions, and the width of the most calls. */
static uint64_t members_widest(const struct ui *u, const struct members_screen *m, int *calls_w)
{
	const struct profile *p = &u->ses.prof;
	uint64_t w = 0, calls = 0;
	char c[FMT_NUM];

	for (size_t k = 0; k < m->nav.count && p->nev; k++) {
		uint32_t f = m->fns[k];

		if (profile_incl_at(p, f, u->disp.event) > w)
			w = profile_incl_at(p, f, u->disp.event);
		if (profile_self_at(p, f, u->disp.event) > w)
			w = profile_self_at(p, f, u->disp.event);
		if (p->funcs[f].calls > calls)
			calls = p->funcs[f].calls;
	}
	*calls_w = list_width(fmt_commas(c, calls));
	*calls_w = *calls_w > 11 ? *calls_w : 11;
	return w;
}

static void member_name(const struct group_list *gl, size_t k, struct shorten_set *set, size_t i,
			int width)
{
	const struct members_screen *m = gl->state;

	shorten_set_function(set, i, &gl->u->ses.prof, m->fns[k], width, NULL);
}

static void members_list(struct group_list *gl, const struct ui *u, const void *state, int cols)
{
	int calls_w;
	uint64_t widest = members_widest(u, state, &calls_w);

	gl->u = u;
	gl->state = state;
	gl->nav = &((const struct members_screen *)state)->nav;
	gl->cells = member_cells;
	gl->name = member_name;
	group_columns(&gl->l, u, cols, widest, "Calls", calls_w);
}

static void members_paint(struct grid *g, const struct ui *u, const struct group_list *gl,
			  const struct view_state *vs)
{
	const struct members_screen *m = gl->state;
	char title[1100], what[100];

	snprintf(title, sizeof(title), "ncgrind: the functions of %s", m->name);
	snprintf(what, sizeof(what), "%zu function%s, by %s", m->nav.count,
		 m->nav.count == 1 ? "" : "s",
		 m->sort == SORT_INCL    ? "inclusive cost"
		 : m->sort == SORT_CALLS ? "calls"
		 : m->sort == SORT_NAME  ? "name"
					 : "self cost");
	(void)u;
	draw_list(g, gl, title, what, "Function", vs,
		  "Enter: callers and callees  t/r: trees  v: source  q: back");
}

static struct nav *members_nav(struct ui *u, struct screen *s)
{
	(void)u;
	return &ms(s)->nav;
}

static void members_draw(struct ui *u, struct screen *s)
{
	struct group_list gl;

	members_list(&gl, u, ms(s), u->g.cols);
	members_paint(&u->g, u, &gl, &u->vs);
}

static uint32_t members_fn(struct ui *u, struct screen *s)
{
	(void)u;
	return ms(s)->nav.cursor < ms(s)->nav.count ? ms(s)->fns[ms(s)->nav.cursor] : NCG_NONE;
}

static bool members_request(struct ui *u, struct screen *s, enum request req)
{
	struct members_screen *m = ms(s);

	switch (req) {
	case REQ_SORT_SELF:
	case REQ_SORT_INCL:
	case REQ_SORT_CALLS:
	case REQ_SORT_NAME:
		m->sort = req == REQ_SORT_SELF    ? SORT_SELF
			  : req == REQ_SORT_INCL  ? SORT_INCL
			  : req == REQ_SORT_CALLS ? SORT_CALLS
						  : SORT_NAME;
		sort_members(u, m);
		m->nav.cursor = m->nav.top = 0;
		return true;
	default:
		return false;
	}
}

static bool members_row_text(struct ui *u, struct screen *s, size_t row, char *buf, size_t size)
{
	struct span name = profile_name(&u->ses.prof, u->ses.prof.funcs[ms(s)->fns[row]].name);

	snprintf(buf, size, "%.*s", (int)name.len, name.ptr);
	return true;
}

static int members_write(struct ui *u, struct screen *s, FILE *f)
{
	return write_list(f, u, ms(s), ms(s)->nav.count, members_list, members_paint);
}

/* Its functions stay; their costs are read as drawn. */
static void members_update(struct ui *u, struct screen *s)
{
	sort_members(u, ms(s)); /* (the event or the parts may have changed) */
	nav_scroll(&ms(s)->nav, ui_list_rows(u));
}

/* :sort KEY: the group's functions in that order. */
static bool members_sort_set(struct ui *u, struct screen *s, enum report_sort key)
{
	struct members_screen *m = s->state;

	m->sort = key;
	sort_members(u, m);
	m->nav.cursor = m->nav.top = 0;
	return true;
}

/* The keys of the screen (the generic keymap of keys.c comes after them). */
static const struct key_binding group_keys[] = {
    {'i', REQ_SORT_INCL, NULL}, {'s', REQ_SORT_SELF, NULL},    {'c', REQ_SORT_CALLS, NULL},
    {'a', REQ_SORT_NAME, NULL}, {KEYS_RIGHT, REQ_ENTER, NULL}, {KEYS_LEFT, REQ_BACK, NULL},
    {'h', REQ_BACK, NULL},
};

struct keymap keymap_group = KEYMAP("group", "the functions of a group", group_keys);

static const struct screen_ops screen_members_ops = {
    .keymap = &keymap_group,
    .nav = members_nav,
    .rows = ui_list_rows,
    .moved = NULL,
    .draw = members_draw,
    .request = members_request,
    .selected = members_fn,
    .row_text = members_row_text,
    .show_match = NULL,
    .write = members_write,
    .update = members_update,
    .subject = NULL,
    .reopen = NULL,
    .sort = members_sort_set,
    .first_row = VIEW_LIST_HEAD,
};
