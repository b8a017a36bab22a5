/*
 * screen_difftree: call trees of a diff (t, r, T on the diff screens;
 * model/difftree.c is the view-model): each node with its base and new
 * cost along its path, the change and the change as a share of the base's
 * total, children by the size of their change. Opens with the path of the
 * biggest change expanded: where the change comes from.
 */
#include "ui_internal.h"

#include "ncgrind/model/difftree.h"
#include "ncgrind/model/fmt.h"
#include "ncgrind/model/shorten.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct difftree_screen {
	struct difftree tree;
	struct nav nav;
};

static const struct screen_ops screen_difftree_ops; /* at the end */

static struct difftree_screen *dts(struct screen *s)
{
	return s->state;
}

static void difftree_screen_free(void *state)
{
	struct difftree_screen *t = state;

	difftree_release(&t->tree);
	free(t);
}

static void refresh(struct ui *u, struct screen *s, size_t cursor)
{
	difftree_flatten(&dts(s)->tree);
	dts(s)->nav.count = dts(s)->tree.nvisible;
	nav_to(&dts(s)->nav, cursor, ui_diff_rows(u));
}

/* A new tree with its biggest change open; built again (saved), the rows that were open. */
static void build(struct ui *u, struct screen *s, uint32_t row, bool inverted,
		  const struct tree_saved *saved)
{
	struct difftree *t = &dts(s)->tree;
	size_t cursor = 0, height = dts(s)->nav.cursor - dts(s)->nav.top;

	difftree_init(t, u->diff, row, inverted, ui_diff_event(u), u->disp.threshold);
	if (saved)
		cursor = difftree_restore(t, saved);
	else if (t->nroots)
		difftree_expand_hot(t, t->roots[0]);
	dts(s)->nav.top = cursor > height ? cursor - height : 0;
	refresh(u, s, cursor);
}

static void open_tree(struct ui *u, uint32_t row, bool inverted)
{
	struct screen *s =
	    ui_push_screen(u, &screen_difftree_ops, xcalloc(1, sizeof(struct difftree_screen)),
			   difftree_screen_free);

	build(u, s, row, inverted, NULL);
}

bool ui_diff_request(struct ui *u, uint32_t row, enum request req)
{
	switch (req) {
	case REQ_TREE:
	case REQ_TREE_CALLERS:
		if (row != NCG_NONE)
			open_tree(u, row, req == REQ_TREE_CALLERS);
		return true;
	case REQ_TREE_TOP:
		open_tree(u, NCG_NONE, false);
		return true;
	case REQ_SOURCE:
		if (row != NCG_NONE)
			ui_open_diff_source(u, row);
		return true;
	case REQ_INSTR:
		ui_message(u, false,
			   "a diff shows the source lines of both builds (v), not "
			   "their instructions");
		return true;
	case REQ_EVENT_NEXT:
	case REQ_EVENT_PREV:
		ui_diff_step_event(u, req == REQ_EVENT_NEXT ? 1 : -1);
		return true;
	default:
		return false;
	}
}

/*
 * Same root, other event or threshold (or the new side's parts): built
 * again, the same rows open, the cursor on the same path of functions.
 */
static void rebuild(struct ui *u, struct screen *s)
{
	struct difftree *t = &dts(s)->tree;
	uint32_t root = t->top_down || !t->nroots ? NCG_NONE : t->nodes[t->roots[0]].row;
	bool inverted = t->inverted;
	struct tree_saved saved;

	difftree_save(t, dts(s)->nav.cursor, &saved);
	difftree_release(t);
	build(u, s, root, inverted, &saved);
	tree_saved_release(&saved);
}

static const char *mark_of(const struct difftree_node *n)
{
	if (n->kind != NODE_FUNCTION || n->leaf)
		return " ";
	if (n->recursive)
		return "@";
	return n->expanded ? "-" : "+";
}

/* A node's status: its function's (new, gone), else its call's. */
static const char *status_of(const struct diff *d, const struct difftree_node *n)
{
	if (n->kind != NODE_FUNCTION)
		return "";
	if (d->rows[n->row].base == NCG_NONE)
		return "new";
	if (d->rows[n->row].new == NCG_NONE)
		return "gone";
	if (n->call == NCG_NONE)
		return "";
	return d->calls[n->call].base == NCG_NONE  ? "new call"
	       : d->calls[n->call].new == NCG_NONE ? "gone call"
						   : "";
}

static void node_label(const struct diff *d, const struct difftree_node *n, char *buf, size_t size)
{
	char num[FMT_NUM];
	const struct profile *p;
	uint32_t f;
	struct span name;

	if (n->kind == NODE_MORE) {
		snprintf(buf, size, "(%" PRIu64 " more)", n->count_new);
		return;
	}
	if (n->kind == NODE_CUT) {
		snprintf(buf, size, "(tree cut at %s nodes)", fmt_commas(num, n->count_new));
		return;
	}
	f = diff_function(d, n->row, &p);
	name = p->funcs[f].name == NCG_NONE ? span_make("(unknown)", 9)
					    : profile_name(p, p->funcs[f].name);
	snprintf(buf, size, "%.*s%s", (int)name.len, name.ptr, n->recursive ? " [recursive]" : "");
}

/* The calls along a node's call: "3", or "1 -> 0" where they changed (buf of 2 FMT_NUM + 8). */
static void calls_text(const struct difftree_node *n, char *buf)
{
	char b[FMT_NUM], nw[FMT_NUM];

	buf[0] = '\0';
	if (n->kind != NODE_FUNCTION || n->call == NCG_NONE)
		return;
	fmt_commas(nw, n->count_new);
	if (n->count_base == n->count_new)
		strcpy(buf, nw);
	else
		sprintf(buf, "%s -> %s", fmt_commas(b, n->count_base), nw);
}

/* The tree's columns: the diff's, a node's status (new, gone, new call...), its calls. */
enum { TCOL_STATUS = DCOL_OWN, TCOL_CALLS };
#define TREE_ROOM (DIFF_MIN_NAME + 2) /* the name after its mark and a blank */

static void columns(const struct ui *u, struct list *l, int cols)
{
	ui_diff_columns(u, l, true, false, TREE_ROOM);
	list_add(l, "", 9, 0, 1, false, 0, 0);
	list_add(l, "Calls", 13, 0, 1, true, DIFF_STEP_OWN, TREE_ROOM);
	/* (the names of a tree are indented: the file only where they keep room) */
	l->trail = cols >= 160 ? ui_diff_trail(cols) : 0;
	list_fit(l, cols);
}

/*
 * A node's indent: two columns a level up to 40 levels, at most what
 * leaves the name DIFF_MIN_NAME columns (deep nodes stop moving right
 * before the name runs out of room).
 */
static int node_indent(const struct list *l, const struct difftree_node *n)
{
	int indent = (int)(n->depth > 40 ? 40 : n->depth) * 2, room = l->name - TREE_ROOM;

	return indent > room ? (room > 0 ? room : 0) : indent;
}

/* Row y of g: node id's costs, status and calls, then its name (shown) indented by its depth. */
static void draw_node_row(const struct ui *u, const struct difftree *t, struct grid *g, int y,
			  const struct list *l, uint32_t id, const char *shown, enum grid_attr a)
{
	const struct difftree_node *n = &t->nodes[id];
	char cells[LIST_MAX_COLUMNS][LIST_CELL];
	int c;

	ui_diff_cells(u, l, cells, n->whole_base, n->whole_new, t->d->total_base[t->event]);
	snprintf(cells[TCOL_STATUS], LIST_CELL, "%s", status_of(t->d, n));
	calls_text(n, cells[TCOL_CALLS]);
	grid_fill(g, y, 0, a);
	c = ui_diff_put_cells(g, y, l, cells, n->whole_base, n->whole_new, a) + node_indent(l, n);
	c += grid_puts(g, y, c, mark_of(n), a);
	c += grid_puts(g, y, c, " ", a);
	grid_puts(g, y, c, shown, a);
}

/* Row i of names: a node's function (" [recursive]" after it), or a fold's text. */
static void node_name(const struct diff *d, const struct difftree_node *n, struct shorten_set *set,
		      size_t i, int width, char *buf, size_t size)
{
	const struct profile *p;
	uint32_t f;

	if (n->kind != NODE_FUNCTION) {
		node_label(d, n, buf, size);
		shorten_set_text(set, i, span_make(buf, strlen(buf)), span_make("", 0), width);
		return;
	}
	f = diff_function(d, n->row, &p);
	shorten_set_function(set, i, p, f, width, n->recursive ? " [recursive]" : NULL);
}

static struct nav *tree_nav(struct ui *u, struct screen *s)
{
	(void)u;
	return &dts(s)->nav;
}

/* The diff row of a node's function; NCG_NONE for a fold or a cut. */
static uint32_t node_row(const struct difftree_node *n)
{
	return n->kind == NODE_FUNCTION ? n->row : NCG_NONE;
}

/* The names of rows [from, from + names->n), shortened together to what their indent leaves. */
static void row_names(const struct difftree *t, const struct list *l, size_t from,
		      struct shorten_set *names, char (*folds)[64])
{
	uint32_t *rows = xmalloc_array(names->n ? names->n : 1, sizeof(uint32_t));

	for (size_t i = 0; i < names->n; i++) {
		const struct difftree_node *nd = &t->nodes[t->visible[from + i]];

		node_name(t->d, nd, names, i, l->name - 2 - node_indent(l, nd), folds[i],
			  sizeof(folds[i]));
		rows[i] = node_row(nd);
	}
	ui_diff_tell_apart(t->d, names, rows, l->trail > 0);
	shorten_set_apply(names);
	free(rows);
}

static void draw(struct ui *u, const struct difftree *t, const struct nav *nav, struct grid *g,
		 const struct view_state *vs)
{
	const struct diff *d = u->diff;
	uint32_t e = t->event;
	char line[1400], a[FMT_NUM], b[FMT_NUM], ch[FMT_NUM + 1], label[1024];
	size_t n = nav->top < t->nvisible ? t->nvisible - nav->top : 0,
	       rows = (size_t)ui_diff_list_rows(g);
	char(*folds)[64];
	struct shorten_set names;
	struct list l;

	columns(u, &l, g->cols);
	grid_clear(g);
	snprintf(line, sizeof(line), "ncgrind: diff, %s, threshold %.3g%%",
		 t->top_down   ? "call tree from the entry points"
		 : t->inverted ? "callers, upward"
			       : "call tree",
		 t->threshold);
	ui_diff_title(u, g, line);
	if (t->top_down) {
		/* (filtered: what the filters keep that nothing kept calls is a root too) */
		snprintf(line, sizeof(line), "%zu %s%s of both profiles", t->nroots,
			 d->filtered ? "root" : "entry point", t->nroots == 1 ? "" : "s");
	} else {
		node_label(d, &t->nodes[t->roots[0]], label, sizeof(label));
		snprintf(line, sizeof(line), "%s", label);
	}
	grid_put_cut(g, 1, 0, line, strlen(line), g->cols, ATTR_HOT);
	snprintf(line, sizeof(line), "%.*s %s: base %s, new %s, change %s", (int)d->ev_name[e].len,
		 d->ev_name[e].ptr, t->top_down ? "total" : "inclusive",
		 fmt_value(a, u64_from_double(t->root_base), u->disp.short_units, u->disp.unit_ps),
		 fmt_value(b, u64_from_double(t->root_new), u->disp.short_units, u->disp.unit_ps),
		 fmt_change(ch, u64_from_double(t->root_base), u64_from_double(t->root_new),
			    u->disp.short_units, u->disp.unit_ps));
	grid_put_cut(g, 2, 0, line, strlen(line), g->cols, ATTR_DIM);
	list_put_heads(g, 3, &l,
		       t->inverted ? "Function, then its callers" : "Function, then its callees");
	ui_diff_file_head(g, 3, &l);
	shorten_set_init(&names, n < rows ? n : rows);
	folds = xcalloc(names.n ? names.n : 1, sizeof(*folds));
	row_names(t, &l, nav->top, &names, folds);
	for (size_t i = 0; i < names.n; i++) {
		size_t k = nav->top + i;
		uint32_t id = t->visible[k];

		enum grid_attr at = k == nav->cursor                     ? ATTR_CURSOR
				    : t->nodes[id].kind != NODE_FUNCTION ? ATTR_DIM
									 : ATTR_NORMAL;

		draw_node_row(u, t, g, 4 + (int)i, &l, id, shorten_set_out(&names, i), at);
		if (node_row(&t->nodes[id]) != NCG_NONE)
			ui_diff_put_file(g, 4 + (int)i, &l, d, t->nodes[id].row, at);
	}
	shorten_set_release(&names);
	free(folds);
	if (nav->cursor < t->nvisible)
		ui_diff_detail(d, g, node_row(&t->nodes[t->visible[nav->cursor]]));
	view_draw_status(g, nav, vs, "Right/Left: expand/collapse  e: biggest change  q: back");
}

static void tree_draw(struct ui *u, struct screen *s)
{
	draw(u, &dts(s)->tree, &dts(s)->nav, &u->g, &u->vs);
}

static void expand_or_collapse(struct ui *u, struct difftree *t, enum request req, uint32_t id,
			       size_t *cursor)
{
	if (req == REQ_EXPAND) {
		if (!difftree_expand(t, id) && !difftree_unfold(t, id, (size_t)ui_diff_rows(u)))
			ui_message(u, false, "nothing to expand here");
	} else if (req == REQ_COLLAPSE) {
		if (t->nodes[id].expanded) {
			difftree_collapse(t, id);
		} else if (t->nodes[id].parent != NCG_NONE) { /* to the parent */
			for (size_t i = 0; i < t->nvisible; i++)
				if (t->visible[i] == t->nodes[id].parent)
					*cursor = i;
		}
	} else if (req == REQ_EXPAND_HOT) {
		difftree_expand_hot(t, id);
	} else if (req == REQ_EXPAND_ALL) {
		if (!difftree_expand_all(t, id, UINT32_MAX, CALLTREE_EXPAND_MAX))
			ui_message(u, true,
				   "tree cut at 200,000 nodes: ) raises the threshold, "
				   "or expand a branch at a time");
	} else {
		difftree_collapse_all(t);
		*cursor = 0;
	}
}

/* The row under the cursor, NCG_NONE on a fold or cut row. */
static uint32_t cursor_row(struct screen *s)
{
	const struct difftree *t = &dts(s)->tree;
	const struct difftree_node *n;

	if (dts(s)->nav.cursor >= t->nvisible)
		return NCG_NONE;
	n = &t->nodes[t->visible[dts(s)->nav.cursor]];
	return n->kind == NODE_FUNCTION ? n->row : NCG_NONE;
}

static bool tree_request(struct ui *u, struct screen *s, enum request req)
{
	struct difftree *t = &dts(s)->tree;
	uint32_t id = t->nvisible ? t->visible[dts(s)->nav.cursor] : NCG_NONE;
	size_t cursor = dts(s)->nav.cursor;

	switch (req) {
	case REQ_THRESHOLD_DOWN:
	case REQ_THRESHOLD_UP: {
		double pct =
		    req == REQ_THRESHOLD_UP ? u->disp.threshold * 2 : u->disp.threshold / 2;

		u->disp.threshold = pct < 0.001 ? 0.001 : pct > 100 ? 100 : pct;
		rebuild(u, s);
		ui_message(u, false, "threshold %.3g%%: smaller branches are folded",
			   u->disp.threshold);
		return true;
	}
	case REQ_EXPAND:
	case REQ_COLLAPSE:
	case REQ_EXPAND_HOT:
	case REQ_EXPAND_ALL:
	case REQ_COLLAPSE_ALL:
		if (id != NCG_NONE) {
			expand_or_collapse(u, t, req, id, &cursor);
			refresh(u, s, cursor);
		}
		return true;
	case REQ_ENTER: /* a function's calls; on a fold row: open it */
		if (cursor_row(s) != NCG_NONE)
			ui_open_diff_calls(u, cursor_row(s));
		else if (id != NCG_NONE && t->nodes[id].kind == NODE_MORE)
			return tree_request(u, s, REQ_EXPAND);
		return true;
	case REQ_TOGGLE_CYCLES:
		ui_message(u, false,
			   "a diff's trees go call by call: the two profiles' cycles "
			   "need not be the same");
		return true;
	default:
		return ui_diff_request(u, cursor_row(s), req);
	}
}

/* v, the source: the function in the new profile. */
static uint32_t tree_fn(struct ui *u, struct screen *s)
{
	uint32_t row = cursor_row(s);

	return row == NCG_NONE ? NCG_NONE : u->diff->rows[row].new;
}

static bool tree_row_text(struct ui *u, struct screen *s, size_t row, char *buf, size_t size)
{
	const struct difftree *t = &dts(s)->tree;

	if (t->nodes[t->visible[row]].kind != NODE_FUNCTION)
		return false;
	node_label(u->diff, &t->nodes[t->visible[row]], buf, size);
	return true;
}

struct tree_write {
	struct ui *u;
	const struct difftree *t;
	struct list l;
};

static void write_row(void *ctx, struct grid *g, size_t i)
{
	struct tree_write *w = ctx;
	struct shorten_set names;
	char fold[1][64];

	shorten_set_init(&names, 1);
	row_names(w->t, &w->l, i, &names, fold);
	draw_node_row(w->u, w->t, g, 0, &w->l, w->t->visible[i], shorten_set_out(&names, 0),
		      ATTR_NORMAL);
	shorten_set_release(&names);
}

/* :write: every visible row, at a width where nothing gives way and no name is shortened. */
static void write_head(void *ctx, struct grid *g)
{
	struct tree_write *w = ctx;
	struct view_state vs = {0};
	struct nav top = {0};

	draw(w->u, w->t, &top, g, &vs);
	columns(w->u, &w->l, g->cols);
}

static int tree_write(struct ui *u, struct screen *s, FILE *f)
{
	struct tree_write w = {.u = u, .t = &dts(s)->tree};

	return list_write(f, VIEW_LIST_HEAD, w.t->nvisible, write_head, write_row, &w);
}

/* A click on a row's + or - (where draw_node_row puts it): the node expands or collapses. */
static bool tree_click(struct ui *u, struct screen *s, const struct mouse_event *m)
{
	const struct difftree *t = &dts(s)->tree;
	const struct difftree_node *n;
	struct list l;
	size_t row;

	if ((m->kind != MOUSE_CLICK && m->kind != MOUSE_DOUBLE_CLICK) ||
	    !ui_row_at(u, s, m->row, &row))
		return false;
	n = &t->nodes[t->visible[row]];
	if (mark_of(n)[0] != '+' && mark_of(n)[0] != '-')
		return false;
	columns(u, &l, u->g.cols);
	if (m->col != list_name_start(&l) + node_indent(&l, n))
		return false; /* elsewhere on the row: the cursor goes there (ui.c) */
	ui_click_row(u, s, row);
	tree_request(u, s, n->expanded ? REQ_COLLAPSE : REQ_EXPAND);
	return true;
}

/* The keys of the screen (the generic keymap of keys.c comes after them). */
static const struct key_binding diff_tree_keys[] = {
    {KEYS_RIGHT, REQ_EXPAND, NULL},
    {'l', REQ_EXPAND, NULL},
    {'+', REQ_EXPAND, NULL},
    {KEYS_LEFT, REQ_COLLAPSE, NULL},
    {'h', REQ_COLLAPSE, NULL},
    {'-', REQ_COLLAPSE, NULL},
    {'e', REQ_EXPAND_HOT, "expand the path of the biggest change below the node"},
    {'E', REQ_EXPAND_ALL, NULL},
    {'C', REQ_COLLAPSE_ALL, NULL},
    {'(', REQ_THRESHOLD_DOWN, NULL},
    {')', REQ_THRESHOLD_UP, NULL},
    {'\n', REQ_ENTER, "the callers and callees of the function, both builds"},
    {KEYS_ENTER, REQ_ENTER, "the callers and callees of the function, both builds"},
    {'\t', REQ_EVENT_NEXT, "the next event of either profile"},
    {KEYS_BTAB, REQ_EVENT_PREV, "the previous event of either profile"},
};

struct keymap keymap_diff_tree = KEYMAP("diff-tree", "a call tree of a diff", diff_tree_keys);

static const struct screen_ops screen_difftree_ops = {
    .keymap = &keymap_diff_tree,
    .nav = tree_nav,
    .rows = ui_diff_rows,
    .moved = NULL,
    .draw = tree_draw,
    .request = tree_request,
    .selected = tree_fn,
    .row_text = tree_row_text,
    .show_match = NULL,
    .write = tree_write,
    .update = rebuild,
    .subject = NULL,
    .reopen = NULL,
    .first_row = VIEW_LIST_HEAD,
    .click = tree_click,
};
