/*
 * screen_tree: call trees (t, r, T; calltree.c is the view-model).
 */
#include "ui_internal.h"

#include <stdlib.h>

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
	calltree_init(&ts(s)->tree, &u->ses.prof, &u->ses.graph, fn, inverted, ev,
		      u->disp.threshold);
	ts(s)->tree.filters = &u->ses.filters;
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

static void tree_draw(struct ui *u, struct screen *s)
{
	view_draw_tree(&u->g, &ts(s)->tree, &ts(s)->nav, &u->view, &u->vs);
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

static int tree_write(struct ui *u, struct screen *s, FILE *f)
{
	return view_write_tree(f, &ts(s)->tree, &u->view);
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

const struct keymap keymap_tree = KEYMAP(SCOPE_TREE, tree_keys);

const struct screen_ops screen_tree_ops = {
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
};
