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
 * The number columns of the groups and of a group's functions: inclusive
 * cost, its share, self cost, its share, the functions (or the calls). The
 * costs take 14 columns, or what their widest value needs; on a narrow
 * screen they give way so that the name keeps MIN_NAME columns, as the
 * table's do: the percentages first, then exact numbers, then the count.
 */
struct group_cols {
	int num;     /* the width of a cost */
	bool pct;    /* the two percentages */
	bool count;  /* the functions of a group, the calls of a function */
	int count_w; /* its width */
	bool short_units;
};

#define MIN_NAME 16
#define PCT_W 7
#define COST_W 14

static int cols_fixed(const struct group_cols *L)
{
	return 2 * L->num + 1 + (L->pct ? 2 * (PCT_W + 1) : 0) + (L->count ? L->count_w + 1 : 0) +
	       2;
}

static int value_width(const struct ui *u, uint64_t v, bool short_units)
{
	char buf[FMT_NUM];

	return (int)strlen(fmt_value(buf, v, short_units, u->disp.unit_ps));
}

/* The columns for a screen of cols columns whose biggest cost is widest. */
static void group_layout(const struct ui *u, struct group_cols *L, int cols, uint64_t widest,
			 int count_w)
{
	int w = value_width(u, widest, u->disp.short_units);

	L->short_units = u->disp.short_units;
	L->num = w > COST_W ? w : COST_W;
	L->pct = u->disp.show_percent;
	L->count = true;
	L->count_w = count_w;
	if (cols - cols_fixed(L) < MIN_NAME)
		L->num = w > 4 ? w : 4; /* as wide as "Incl" */
	if (cols - cols_fixed(L) < MIN_NAME)
		L->pct = false;
	if (cols - cols_fixed(L) < MIN_NAME && !L->short_units) {
		L->short_units = true;
		w = value_width(u, widest, true);
		/* (a smaller value may take more: 77.5M against 185M) */
		L->num = w > (u->disp.unit_ps ? 6 : 5) ? w : u->disp.unit_ps ? 6 : 5;
	}
	if (cols - cols_fixed(L) < MIN_NAME)
		L->count = false;
}

/* The number cells of a row (or of the header), then two blanks; returns its length. */
static int put_numbers(char *buf, size_t size, const struct group_cols *L, const char *incl,
		       const char *pincl, const char *self, const char *pself, const char *count)
{
	int o = snprintf(buf, size, "%*s", L->num, incl);

	if (L->pct)
		o += snprintf(buf + o, size - (size_t)o, " %*s", PCT_W, pincl);
	o += snprintf(buf + o, size - (size_t)o, " %*s", L->num, self);
	if (L->pct)
		o += snprintf(buf + o, size - (size_t)o, " %*s", PCT_W, pself);
	if (L->count)
		o += snprintf(buf + o, size - (size_t)o, " %*s", L->count_w, count);
	o += snprintf(buf + o, size - (size_t)o, "  ");
	return o;
}

/* The biggest cost of the group's rows in the event shown (for the width of the columns). */
static uint64_t groups_widest(const struct ui *u, const struct groups_screen *g)
{
	uint32_t e = u->disp.event < g->g.nev ? u->disp.event : 0;
	uint64_t w = 0;

	for (size_t k = 0; k < g->g.n && g->g.nev; k++) {
		if (g->g.v[k].incl[e] > w)
			w = g->g.v[k].incl[e];
		if (g->g.v[k].self[e] > w)
			w = g->g.v[k].self[e];
	}
	return w;
}

static void group_text(const struct ui *u, const struct groups_screen *g, size_t k,
		       const struct group_cols *L, const char *name, char *buf, size_t size)
{
	const struct group *gr = &g->g.v[g->order[k]];
	uint32_t e = u->disp.event < g->g.nev ? u->disp.event : 0;
	/* (a ratio's share of a total means nothing: no percentage) */
	uint64_t total =
	    u->ses.prof.nev && !u->ses.prof.events[e].ratio ? u->ses.prof.totals[e] : 0;
	char a[FMT_NUM], b[FMT_NUM], pa[FMT_NUM], pb[FMT_NUM], n[16];
	int o;

	snprintf(n, sizeof(n), "%u", gr->nfuncs);
	o = put_numbers(buf, size, L, fmt_value(a, gr->incl[e], L->short_units, u->disp.unit_ps),
			fmt_percent(pa, gr->incl[e], total),
			fmt_value(b, gr->self[e], L->short_units, u->disp.unit_ps),
			fmt_percent(pb, gr->self[e], total), n);
	snprintf(buf + o, size - (size_t)o, "%s", name ? name : gr->name);
}

/* The columns of :write: every one, the costs as the screen's units say. */
static void full_layout(const struct ui *u, struct group_cols *L, int count_w)
{
	*L = (struct group_cols){COST_W, true, true, count_w, u->disp.short_units};
}

static struct nav *groups_nav(struct ui *u, struct screen *s)
{
	(void)u;
	return &gs(s)->nav;
}

/* The head and the rows of a list screen of text rows (the groups and their functions). */
static void
draw_list(struct ui *u, const char *title, const char *what, const char *head, struct nav *nav,
	  void (*text)(const struct ui *, const void *, size_t, const struct group_cols *,
		       const char *, char *, size_t),
	  void (*name)(const struct ui *, const void *, size_t, struct shorten_set *, size_t, int),
	  const struct group_cols *L, const void *state, const char *hints)
{
	struct grid *g = &u->g;
	char line[1200];
	size_t n = nav->top < nav->count ? nav->count - nav->top : 0;
	struct shorten_set names;
	int numbers = cols_fixed(L);

	grid_clear(g);
	grid_fill(g, 0, 0, ATTR_TITLE);
	grid_puts_cut(g, 0, 0, title, ATTR_TITLE);
	grid_put_cut(g, 1, 0, what, strlen(what), g->cols, ATTR_DIM);
	grid_fill(g, 3, 0, ATTR_HEAD);
	grid_puts(g, 3, 0, head, ATTR_HEAD);
	/* the names in view, shortened together to what is left after the numbers */
	shorten_set_init(&names, n < (size_t)ui_list_rows(u) ? n : (size_t)ui_list_rows(u));
	for (size_t i = 0; i < names.n; i++)
		name(u, state, nav->top + i, &names, i, g->cols - numbers);
	shorten_set_apply(&names);
	for (size_t i = 0; i < names.n; i++) {
		size_t k = nav->top + i;
		enum grid_attr at = k == nav->cursor ? ATTR_CURSOR : ATTR_NORMAL;

		text(u, state, k, L, shorten_set_out(&names, i), line, sizeof(line));
		grid_fill(g, 4 + (int)i, 0, at);
		grid_put(g, 4 + (int)i, 0, line, strlen(line), g->cols, at);
	}
	shorten_set_release(&names);
	view_draw_status(g, nav, &u->vs, hints);
}

static void group_row(const struct ui *u, const void *state, size_t k, const struct group_cols *L,
		      const char *name, char *buf, size_t size)
{
	group_text(u, state, k, L, name, buf, size);
}

/* A group's name is a path, a class or an object: no file of its own. */
static void group_name(const struct ui *u, const void *state, size_t k, struct shorten_set *set,
		       size_t i, int width)
{
	const struct groups_screen *g = state;
	const char *name = g->g.v[g->order[k]].name;

	(void)u;
	shorten_set_text(set, i, span_make(name, strlen(name)), span_make("", 0), width);
}

static void groups_draw(struct ui *u, struct screen *s)
{
	struct groups_screen *g = gs(s);
	struct span ev =
	    u->ses.prof.nev ? u->ses.prof.events[u->disp.event].name : span_make("", 0);
	char title[200], what[300], head[300];
	struct group_cols L;
	int o;

	group_layout(u, &L, u->g.cols, groups_widest(u, g), 7);
	snprintf(title, sizeof(title), "ncgrind: functions by %s", groups_kind_name(g->g.kind));
	snprintf(what, sizeof(what),
		 "%zu group%s; %.*s: the self cost of their functions, and inclusive: with the "
		 "calls out of the group; by %s",
		 g->g.n, g->g.n == 1 ? "" : "s", (int)ev.len, ev.ptr,
		 g->sort == SORT_INCL   ? "inclusive cost"
		 : g->sort == SORT_NAME ? "name"
					: "self cost");
	o = put_numbers(head, sizeof(head), &L, "Incl", "%", "Self", "%", "Funcs");
	snprintf(head + o, sizeof(head) - (size_t)o, "%s", groups_kind_name(g->g.kind));
	draw_list(u, title, what, head, &g->nav, group_row, group_name, &L, g,
		  "Enter: its functions  O: next grouping  s/i/a: sort  q: back");
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
	char line[1200];
	struct group_cols L;

	full_layout(u, &L, 7);
	for (size_t i = 0; i < gs(s)->nav.count; i++) {
		group_text(u, gs(s), i, &L, NULL, line, sizeof(line));
		fprintf(f, "%s\n", line);
	}
	return ferror(f) ? -1 : 0;
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

const struct keymap keymap_groups =
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

static void member_text(const struct ui *u, const void *state, size_t k, const struct group_cols *L,
			const char *shown, char *buf, size_t size)
{
	const struct members_screen *m = state;
	const struct profile *p = &u->ses.prof;
	uint32_t f = m->fns[k], e = u->disp.event;
	uint64_t total = p->events[e].ratio ? 0 : p->totals[e];
	struct span name = p->funcs[f].name == NCG_NONE ? span_make("(unknown)", 9)
							: profile_name(p, p->funcs[f].name);
	char a[FMT_NUM], b[FMT_NUM], pa[FMT_NUM], pb[FMT_NUM], c[FMT_NUM];
	int o = put_numbers(
	    buf, size, L, fmt_value(a, profile_incl_at(p, f, e), L->short_units, u->disp.unit_ps),
	    fmt_percent(pa, profile_incl_at(p, f, e), total),
	    fmt_value(b, profile_self_at(p, f, e), L->short_units, u->disp.unit_ps),
	    fmt_percent(pb, profile_self_at(p, f, e), total), fmt_commas(c, p->funcs[f].calls));

	snprintf(buf + o, size - (size_t)o, "%.*s", shown ? (int)strlen(shown) : (int)name.len,
		 shown ? shown : name.ptr);
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
	*calls_w = (int)strlen(fmt_commas(c, calls));
	*calls_w = *calls_w > 11 ? *calls_w : 11;
	return w;
}

static void member_name(const struct ui *u, const void *state, size_t k, struct shorten_set *set,
			size_t i, int width)
{
	const struct members_screen *m = state;

	shorten_set_function(set, i, &u->ses.prof, m->fns[k], width, NULL);
}

static struct nav *members_nav(struct ui *u, struct screen *s)
{
	(void)u;
	return &ms(s)->nav;
}

static void members_draw(struct ui *u, struct screen *s)
{
	char title[1100], what[100], head[200];
	struct group_cols L;
	int calls_w, o;
	uint64_t widest = members_widest(u, ms(s), &calls_w);

	group_layout(u, &L, u->g.cols, widest, calls_w);
	snprintf(title, sizeof(title), "ncgrind: the functions of %s", ms(s)->name);
	snprintf(what, sizeof(what), "%zu function%s, by %s", ms(s)->nav.count,
		 ms(s)->nav.count == 1 ? "" : "s",
		 ms(s)->sort == SORT_INCL    ? "inclusive cost"
		 : ms(s)->sort == SORT_CALLS ? "calls"
		 : ms(s)->sort == SORT_NAME  ? "name"
					     : "self cost");
	o = put_numbers(head, sizeof(head), &L, "Incl", "%", "Self", "%", "Calls");
	snprintf(head + o, sizeof(head) - (size_t)o, "Function");
	draw_list(u, title, what, head, &ms(s)->nav, member_text, member_name, &L, ms(s),
		  "Enter: callers and callees  t/r: trees  v: source  q: back");
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
	char line[1200];
	struct group_cols L;

	full_layout(u, &L, 11);
	for (size_t i = 0; i < ms(s)->nav.count; i++) {
		member_text(u, ms(s), i, &L, NULL, line, sizeof(line));
		fprintf(f, "%s\n", line);
	}
	return ferror(f) ? -1 : 0;
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

const struct keymap keymap_group = KEYMAP("group", "the functions of a group", group_keys);

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
};
