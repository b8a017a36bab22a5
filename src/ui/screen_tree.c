/*
 * screen_tree: call trees (t, r, T; calltree.c is the view-model).
 */
#include "ui_internal.h"
#include "ncgrind/model/fmt.h"
#include "ncgrind/model/shorten.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const struct screen_ops screen_tree_ops; /* at the end */

/* A tree and the position in its visible rows. */
struct tree_screen {
	struct calltree tree;
	struct nav nav;
};

static struct tree_screen *ts(struct screen *s)
{
	return s->state;
}

static void tree_release(void *state)
{
	struct tree_screen *t = state;

	calltree_release(&t->tree);
	free(t);
}

static void tree_refresh(struct ui *u, struct screen *s, size_t cursor)
{
	calltree_flatten(&ts(s)->tree);
	ts(s)->nav.count = ts(s)->tree.nvisible;
	nav_to(&ts(s)->nav, cursor, ui_list_rows(u));
}

/*
 * A new tree with the first root's hot path open, as perf report opens one;
 * or, built again (saved not NULL), with the rows the user had open and the
 * cursor on its function, at the same height on the screen.
 */
static void build_tree(struct ui *u, struct screen *s, uint32_t fn, bool inverted,
		       const struct tree_saved *saved)
{
	uint32_t ev = u->disp.event;
	size_t cursor = 0, height = ts(s)->nav.cursor - ts(s)->nav.top;

	if (ev < u->ses.prof.nev && u->ses.prof.events[ev].ratio) {
		ev = 0; /* (Tab onto a ratio with a tree open: the tree keeps the first event) */
		ui_message(u, false, "the tree shows %.*s: a ratio does not add up along calls",
			   (int)u->ses.prof.events[0].name.len, u->ses.prof.events[0].name.ptr);
	}
	calltree_init(&ts(s)->tree, &u->ses.prof, session_graph(&u->ses), fn, inverted, ev,
		      u->disp.threshold);
	ts(s)->tree.filters = &u->ses.filters;
	calltree_set_keep(&ts(s)->tree, u->narrowed ? u->ses.keep : NULL);
	if (saved)
		cursor = calltree_restore(&ts(s)->tree, saved);
	else if (ts(s)->tree.nroots)
		calltree_expand_hot(&ts(s)->tree, ts(s)->tree.roots[0]);
	ts(s)->nav.top = cursor > height ? cursor - height : 0;
	tree_refresh(u, s, cursor);
}

void ui_open_tree(struct ui *u, uint32_t fn, bool inverted, bool top_down)
{
	struct screen *s;

	if (!top_down && fn == NCG_NONE)
		return;
	if (u->disp.event < u->ses.prof.nev && u->ses.prof.events[u->disp.event].ratio) {
		/* a tree shares a node's cost out among its calls: a ratio is no such cost */
		ui_message(u, true,
			   "a call tree needs an event that adds up; %.*s is a ratio (Tab)",
			   (int)u->ses.prof.events[u->disp.event].name.len,
			   u->ses.prof.events[u->disp.event].name.ptr);
		return;
	}
	s = ui_push_screen(u, &screen_tree_ops, xcalloc(1, sizeof(struct tree_screen)),
			   tree_release);
	build_tree(u, s, top_down ? NCG_NONE : fn, inverted, NULL);
}

/*
 * Build the tree again (other event, threshold, cycles, filters), same root,
 * the same rows open and the cursor on the same path of functions.
 */
static void rebuild_tree(struct ui *u, struct screen *s)
{
	/* a tree from the entry points stays one, even when there is one entry point */
	uint32_t root = ts(s)->tree.nroots == 1 && !ts(s)->tree.top_down
			    ? ts(s)->tree.nodes[ts(s)->tree.roots[0]].fn
			    : NCG_NONE;
	bool inverted = ts(s)->tree.inverted;
	struct tree_saved saved;

	calltree_save(&ts(s)->tree, ts(s)->nav.cursor, &saved);
	calltree_release(&ts(s)->tree);
	build_tree(u, s, root, inverted, &saved);
	tree_saved_release(&saved);
}

static void expand_or_collapse(struct ui *u, struct screen *s, enum request req, uint32_t id,
			       size_t *cursor)
{
	if (req == REQ_EXPAND) {
		if (!calltree_expand(&ts(s)->tree, id) &&
		    !calltree_unfold(&ts(s)->tree, id, (size_t)ui_list_rows(u)))
			ui_message(u, false, "nothing to expand here");
	} else if (req == REQ_COLLAPSE) {
		if (ts(s)->tree.nodes[id].expanded) {
			calltree_collapse(&ts(s)->tree, id);
		} else if (ts(s)->tree.nodes[id].parent != NCG_NONE) {
			/* on a closed node: go to its parent, as file managers do */
			uint32_t parent = ts(s)->tree.nodes[id].parent;

			for (size_t i = 0; i < ts(s)->tree.nvisible; i++)
				if (ts(s)->tree.visible[i] == parent)
					*cursor = i;
		}
	} else if (req == REQ_EXPAND_HOT) {
		calltree_expand_hot(&ts(s)->tree, id);
	} else if (req == REQ_EXPAND_ALL) {
		if (!calltree_expand_all(&ts(s)->tree, id, UINT32_MAX, CALLTREE_EXPAND_MAX))
			ui_message(u, true,
				   "tree cut at 200,000 nodes: ) raises the threshold, "
				   "or expand a branch at a time");
	} else {
		calltree_collapse_all(&ts(s)->tree);
		*cursor = 0;
	}
}

static void set_threshold(struct ui *u, struct screen *s, double pct)
{
	u->disp.threshold = pct < 0.001 ? 0.001 : pct > 100 ? 100 : pct;
	ts(s)->tree.threshold = u->disp.threshold;
	rebuild_tree(u, s);
	ui_message(u, false, "threshold %.3g%%: smaller branches are folded", u->disp.threshold);
}

static bool tree_request(struct ui *u, struct screen *s, enum request req)
{
	uint32_t id = ts(s)->tree.nvisible ? ts(s)->tree.visible[ts(s)->nav.cursor] : NCG_NONE;
	size_t cursor = ts(s)->nav.cursor;

	switch (req) {
	case REQ_THRESHOLD_DOWN:
		set_threshold(u, s, u->disp.threshold / 2);
		return true;
	case REQ_THRESHOLD_UP:
		set_threshold(u, s, u->disp.threshold * 2);
		return true;
	case REQ_ENTER: /* on a fold row: open it; elsewhere the function's callers and callees */
		if (id == NCG_NONE || ts(s)->tree.nodes[id].kind != NODE_MORE)
			return false;
		req = REQ_EXPAND;
		/* fall through */
	case REQ_EXPAND:
	case REQ_COLLAPSE:
	case REQ_EXPAND_HOT:
	case REQ_EXPAND_ALL:
	case REQ_COLLAPSE_ALL:
		if (id != NCG_NONE) {
			expand_or_collapse(u, s, req, id, &cursor);
			tree_refresh(u, s, cursor);
		}
		return true;
	default:
		return false;
	}
}

static struct nav *tree_nav(struct ui *u, struct screen *s)
{
	(void)u;
	return &ts(s)->nav;
}

static const char *node_mark(const struct tree_node *n)
{
	if (n->kind == NODE_MORE || n->kind == NODE_CUT)
		return " ";
	if (n->recursive)
		return "@";
	if (n->leaf)
		return " ";
	return n->expanded ? "-" : "+";
}

/* A row's indent: a narrow screen indents by one column a level, and keeps the names readable. */
static int indent_of(const struct grid *g, const struct list *l, const struct tree_node *n)
{
	int indent = (int)n->depth * (l->name >= 30 ? 2 : 1);

	/* deep nodes stop moving right before the name runs out of room */
	if (indent > l->name - VIEW_MIN_NAME / 2)
		indent = l->name - VIEW_MIN_NAME / 2 > 0 ? l->name - VIEW_MIN_NAME / 2 : 0;
	if (indent > g->cols / 2)
		indent = g->cols / 2;
	return indent;
}

/* The names of the visible rows [from, from + names->n), shortened together. */
static void row_names(struct shorten_set *names, const struct grid *g, struct calltree *tree,
		      size_t from, const struct list *l)
{
	for (size_t i = 0; i < names->n; i++) {
		const struct tree_node *n = &tree->nodes[tree->visible[from + i]];
		int w = l->name - indent_of(g, l, n) - 2; /* (the mark and a blank) */

		if (n->kind == NODE_FUNCTION)
			shorten_set_function(names, i, tree->p, n->fn, w,
					     n->member      ? " [self]"
					     : n->recursive ? " [recursive]"
							    : NULL);
		else
			shorten_set_text(names, i, span_make("", 0), span_make("", 0), 0);
	}
	shorten_set_apply(names);
}

/* "(12 more, 3.40%)", "(tree cut at 200,000 nodes)": a row that is no function. */
static void draw_fold(struct grid *g, int r, int c, const struct tree_node *n, uint64_t v,
		      double root, enum grid_attr a)
{
	char name[200], pr[FMT_NUM], cnt[FMT_NUM], buf[256];

	if (n->kind == NODE_MORE)
		snprintf(name, sizeof(name), "(%" PRIu64 " more, %s)", n->count,
			 fmt_percent(pr, v, u64_from_double(root)));
	else
		snprintf(name, sizeof(name), "(tree cut at %s nodes)", fmt_commas(cnt, n->count));
	grid_puts(g, r, c,
		  shorten_value(buf, sizeof(buf), span_make(name, strlen(name)), g->cols - c),
		  a == ATTR_CURSOR ? a : ATTR_DIM);
}

static void draw_row(struct grid *g, int r, struct calltree *tree, uint32_t id, bool selected,
		     const struct view_ctx *t, const struct list *l, double root, const char *label)
{
	const struct tree_node *n = &tree->nodes[id];
	/* the whole costs: the children's never add up to more than their parent's (calltree.h) */
	uint64_t parent =
	    n->parent == NCG_NONE ? calltree_root_whole(tree) : tree->nodes[n->parent].whole;
	enum grid_attr a = selected ? ATTR_CURSOR : ATTR_NORMAL;
	char cells[LIST_MAX_COLUMNS][LIST_CELL], cnt[FMT_NUM], cycle[64];
	uint64_t v = n->whole, ext[DISPLAY_MAX_COLUMNS];
	bool fold = n->kind == NODE_MORE || n->kind == NODE_CUT;
	int c;

	for (int i = VCOL_EXT; i < l->n;
	     i++) /* the other events of :set columns, on the same path */
		ext[i - VCOL_EXT] =
		    n->kind == NODE_CUT ? 0 : calltree_whole(tree, id, (uint32_t)l->col[i].tag);
	view_calls_cells(cells, l, t, v, calltree_root_whole(tree), parent,
			 n->edge == NCG_NONE || fold ? "" : fmt_commas(cnt, n->count), ext);
	grid_fill(g, r, 0, a);
	c = list_put_cells(g, r, l, cells, a);
	c += indent_of(g, l, n);
	c += grid_puts(g, r, c, node_mark(n), a);
	c += grid_puts(g, r, c, " ", a);
	if (fold) {
		draw_fold(g, r, c, n, v, root, a);
		return;
	}
	if (n->kind == NODE_CYCLE) {
		snprintf(cycle, sizeof(cycle), "<cycle %" PRIu32 ">", n->fn);
		label = cycle;
	}
	grid_puts(g, r, c, label, a);
}

static void draw_entry_points_head(struct grid *g, const struct calltree *tree,
				   const struct view_ctx *t, const char *what)
{
	struct span ev = tree->p->events[t->disp->event].name;
	char line[300], buf[FMT_NUM];

	grid_fill(g, 0, 0, ATTR_TITLE);
	grid_puts_cut(g, 0, 0, "ncgrind: ", ATTR_TITLE);
	grid_puts_cut(g, 0, 9, what, ATTR_TITLE);
	snprintf(line, sizeof(line),
		 "%zu entry point%s: what no call from outside covers (main, threads)",
		 tree->nroots, tree->nroots == 1 ? "" : "s");
	grid_puts_cut(g, 1, 0, line, ATTR_HOT);
	snprintf(line, sizeof(line), "%.*s total %s", (int)ev.len, ev.ptr,
		 fmt_value(buf, tree->p->totals[t->disp->event], t->disp->short_units,
			   t->disp->unit_ps));
	grid_puts_cut(g, 2, 0, line, ATTR_DIM);
}

/* The columns of the screen, fitted to g. */
static void columns(struct list *l, const struct grid *g, struct calltree *tree,
		    const struct view_ctx *t)
{
	static const char *const titles[3] = {"Incl", "%root", "%parent"};

	view_calls_columns(l, g, t, titles, u64_from_double(calltree_root_cost(tree)), false, NULL);
}

static void draw(struct grid *g, struct calltree *tree, const struct nav *nav,
		 const struct view_ctx *t, const struct view_state *vs)
{
	char what[200];
	int rows = view_list_rows(g);
	double root = calltree_root_cost(tree);
	size_t n = nav->top < tree->nvisible ? tree->nvisible - nav->top : 0;
	struct shorten_set names;
	struct list l;

	columns(&l, g, tree, t);
	snprintf(what, sizeof(what), "%s, threshold %.3g%%",
		 tree->top_down   ? "call tree from the entry points"
		 : tree->inverted ? "callers, upward"
				  : "call tree",
		 tree->threshold);
	grid_clear(g);
	if (!tree->top_down)
		view_function_head(g, tree->p, tree->nodes[tree->roots[0]].fn, t, what);
	else
		draw_entry_points_head(g, tree, t, what);
	list_put_heads(g, VIEW_LIST_HEAD - 1, &l,
		       tree->inverted ? "Function, then its callers"
				      : "Function, then its callees");
	if (view_no_calls(g, tree->p))
		rows = 0;
	shorten_set_init(&names, n < (size_t)rows ? n : (size_t)rows);
	row_names(&names, g, tree, nav->top, &l);
	for (size_t i = 0; i < names.n; i++) {
		size_t row = nav->top + i;

		draw_row(g, VIEW_LIST_HEAD + (int)i, tree, tree->visible[row], row == nav->cursor,
			 t, &l, root, shorten_set_out(&names, i));
	}
	shorten_set_release(&names);
	view_draw_status(g, nav, vs,
			 profile_has_calls(tree->p)
			     ? "Right/Left: expand/collapse  e: hot path  r: callers"
			     : NO_CALLS_HINT);
}

static void tree_draw(struct ui *u, struct screen *s)
{
	draw(&u->g, &ts(s)->tree, &ts(s)->nav, &u->view, &u->vs);
}

static uint32_t tree_fn(struct ui *u, struct screen *s)
{
	const struct tree_node *n;

	(void)u;
	if (!ts(s)->tree.nvisible)
		return NCG_NONE;
	n = &ts(s)->tree.nodes[ts(s)->tree.visible[ts(s)->nav.cursor]];
	return n->kind == NODE_FUNCTION ? n->fn : NCG_NONE;
}

/* A node's function, or its cycle; fold and cut rows have nothing to find. */
static bool tree_text(struct ui *u, struct screen *s, size_t row, char *buf, size_t size)
{
	const struct tree_node *n = &ts(s)->tree.nodes[ts(s)->tree.visible[row]];
	struct span name;

	if (n->kind == NODE_CYCLE) {
		snprintf(buf, size, "<cycle %u>", n->fn);
		return true;
	}
	if (n->kind != NODE_FUNCTION)
		return false;
	name = profile_name(&u->ses.prof, u->ses.prof.funcs[n->fn].name);
	snprintf(buf, size, "%.*s", (int)name.len, name.ptr);
	return true;
}

struct tree_write {
	struct calltree *tree;
	const struct view_ctx *t;
	struct list l;
	double root;
};

static void write_row(void *ctx, struct grid *g, size_t i)
{
	struct tree_write *w = ctx;
	struct shorten_set names;

	shorten_set_init(&names, 1);
	row_names(&names, g, w->tree, i, &w->l);
	draw_row(g, 0, w->tree, w->tree->visible[i], false, w->t, &w->l, w->root,
		 shorten_set_out(&names, 0));
	shorten_set_release(&names);
}

/* :write: every visible row, at a width where nothing gives way and no name is shortened. */
static void write_head(void *ctx, struct grid *g)
{
	struct tree_write *w = ctx;
	struct view_state vs = {0};
	struct nav top = {0};

	draw(g, w->tree, &top, w->t, &vs);
	columns(&w->l, g, w->tree, w->t);
}

static int tree_write(struct ui *u, struct screen *s, FILE *f)
{
	struct tree_write w = {.tree = &ts(s)->tree, .t = &u->view};

	w.root = calltree_root_cost(w.tree);
	return list_write(f, VIEW_LIST_HEAD, w.tree->nvisible, write_head, write_row, &w);
}

/* A click on a row's + or - (where draw_row puts it): the node expands or collapses. */
static bool tree_click(struct ui *u, struct screen *s, const struct mouse_event *m)
{
	struct calltree *tree = &ts(s)->tree;
	const struct tree_node *n;
	struct list l;
	size_t row;

	if ((m->kind != MOUSE_CLICK && m->kind != MOUSE_DOUBLE_CLICK) ||
	    !ui_row_at(u, s, m->row, &row))
		return false;
	n = &tree->nodes[tree->visible[row]];
	if (node_mark(n)[0] != '+' && node_mark(n)[0] != '-')
		return false;
	columns(&l, &u->g, tree, &u->view);
	if (m->col != list_name_start(&l) + indent_of(&u->g, &l, n))
		return false; /* elsewhere on the row: the cursor goes there (ui.c) */
	ui_click_row(u, s, row);
	tree_request(u, s, n->expanded ? REQ_COLLAPSE : REQ_EXPAND);
	return true;
}

enum { TREE_INVERTED = 1, TREE_TOP_DOWN = 2 };

static uint32_t tree_subject(struct ui *u, struct screen *s, unsigned *mode)
{
	const struct calltree *t = &ts(s)->tree;

	(void)u;
	*mode = (t->inverted ? TREE_INVERTED : 0) | (t->top_down ? TREE_TOP_DOWN : 0);
	return t->nroots == 1 && !t->top_down ? t->nodes[t->roots[0]].fn : NCG_NONE;
}

static void tree_reopen(struct ui *u, uint32_t fn, unsigned mode)
{
	ui_open_tree(u, fn, mode & TREE_INVERTED, mode & TREE_TOP_DOWN);
}

/* The keys of the screen (the generic keymap of keys.c comes after them). */
static const struct key_binding tree_keys[] = {
    {KEYS_RIGHT, REQ_EXPAND, NULL},  {'l', REQ_EXPAND, NULL},       {'+', REQ_EXPAND, NULL},
    {KEYS_LEFT, REQ_COLLAPSE, NULL}, {'h', REQ_COLLAPSE, NULL},     {'-', REQ_COLLAPSE, NULL},
    {'e', REQ_EXPAND_HOT, NULL},     {'E', REQ_EXPAND_ALL, NULL},   {'C', REQ_COLLAPSE_ALL, NULL},
    {'(', REQ_THRESHOLD_DOWN, NULL}, {')', REQ_THRESHOLD_UP, NULL},
};

struct keymap keymap_tree = KEYMAP("tree", "a call tree", tree_keys);

static const struct screen_ops screen_tree_ops = {
    .keymap = &keymap_tree,
    .nav = tree_nav,
    .rows = ui_list_rows,
    .moved = NULL,
    .draw = tree_draw,
    .request = tree_request,
    .selected = tree_fn,
    .row_text = tree_text,
    .write = tree_write,
    .update = rebuild_tree,
    .subject = tree_subject,
    .reopen = tree_reopen,
    .first_row = VIEW_LIST_HEAD,
    .click = tree_click,
};
