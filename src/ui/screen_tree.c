/*
 * screen_tree: call trees (t, r, T; calltree.c is the view-model).
 */
#include "ui_internal.h"

static int list_rows(const struct ui *u)
{
	return view_list_rows(&u->g);
}

static void tree_refresh(struct ui *u, struct screen *s, size_t cursor)
{
	calltree_flatten(&s->tree);
	s->nav.count = s->tree.nvisible;
	nav_to(&s->nav, cursor, list_rows(u));
}

/* A new tree with the first root's hot path open, as perf report opens one. */
static void build_tree(struct ui *u, struct screen *s, uint32_t fn, bool inverted)
{
	calltree_init(&s->tree, &u->ses.prof, &u->ses.graph, fn, inverted, u->disp.event,
		      u->disp.threshold);
	s->tree.filters = &u->ses.filters;
	if (s->tree.nroots)
		calltree_expand_hot(&s->tree, s->tree.roots[0]);
	tree_refresh(u, s, 0);
}

void ui_open_tree(struct ui *u, uint32_t fn, bool inverted, bool top_down)
{
	struct screen *s;

	if (!top_down && fn == NCG_NONE)
		return;
	s = hist_push(&u->hist, SCREEN_TREE);
	build_tree(u, s, top_down ? NCG_NONE : fn, inverted);
}

/* Build the tree again (other event, threshold, filters), same root, hot path open. */
static void rebuild_tree(struct ui *u, struct screen *s)
{
	/* a tree from the entry points stays one, even when there is one entry point */
	uint32_t root = s->tree.nroots == 1 && !s->tree.top_down
			    ? s->tree.nodes[s->tree.roots[0]].fn
			    : NCG_NONE;
	bool inverted = s->tree.inverted;

	calltree_release(&s->tree);
	build_tree(u, s, root, inverted);
}

static void expand_or_collapse(struct ui *u, struct screen *s, enum request req, uint32_t id,
			       size_t *cursor)
{
	if (req == REQ_EXPAND) {
		if (!calltree_expand(&s->tree, id))
			ui_message(u, false, "nothing to expand here");
	} else if (req == REQ_COLLAPSE) {
		if (s->tree.nodes[id].expanded) {
			calltree_collapse(&s->tree, id);
		} else if (s->tree.nodes[id].parent != NCG_NONE) {
			/* on a closed node: go to its parent, as file managers do */
			uint32_t parent = s->tree.nodes[id].parent;

			for (size_t i = 0; i < s->tree.nvisible; i++)
				if (s->tree.visible[i] == parent)
					*cursor = i;
		}
	} else if (req == REQ_EXPAND_HOT) {
		calltree_expand_hot(&s->tree, id);
	} else if (req == REQ_EXPAND_ALL) {
		if (!calltree_expand_all(&s->tree, id, UINT32_MAX, CALLTREE_EXPAND_MAX))
			ui_message(u, true,
				   "tree cut at 200,000 nodes: ) raises the threshold, "
				   "or expand a branch at a time");
	} else {
		calltree_collapse_all(&s->tree);
		*cursor = 0;
	}
}

static void set_threshold(struct ui *u, struct screen *s, double pct)
{
	u->disp.threshold = pct < 0.001 ? 0.001 : pct > 100 ? 100 : pct;
	s->tree.threshold = u->disp.threshold;
	rebuild_tree(u, s);
	ui_message(u, false, "threshold %.3g%%: smaller branches are folded", u->disp.threshold);
}

static bool tree_request(struct ui *u, struct screen *s, enum request req)
{
	uint32_t id = s->tree.nvisible ? s->tree.visible[s->nav.cursor] : NCG_NONE;
	size_t cursor = s->nav.cursor;

	switch (req) {
	case REQ_THRESHOLD_DOWN:
		set_threshold(u, s, u->disp.threshold / 2);
		return true;
	case REQ_THRESHOLD_UP:
		set_threshold(u, s, u->disp.threshold * 2);
		return true;
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
	return &s->nav;
}

static void tree_draw(struct ui *u, struct screen *s)
{
	view_draw_tree(&u->g, &s->tree, &s->nav, &u->t, &u->vs);
}

static uint32_t tree_fn(struct ui *u, struct screen *s)
{
	const struct tree_node *n;

	(void)u;
	if (!s->tree.nvisible)
		return NCG_NONE;
	n = &s->tree.nodes[s->tree.visible[s->nav.cursor]];
	return n->kind == NODE_FUNCTION ? n->fn : NCG_NONE;
}

/* A node's function, or its cycle; fold and cut rows have nothing to find. */
static bool tree_text(struct ui *u, struct screen *s, size_t row, char *buf, size_t size)
{
	const struct tree_node *n = &s->tree.nodes[s->tree.visible[row]];
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
	return view_write_tree(f, &s->tree, &u->t);
}

const struct screen_ops screen_tree_ops = {
    .scope = SCOPE_TREE,
    .nav = tree_nav,
    .rows = list_rows,
    .moved = NULL,
    .draw = tree_draw,
    .request = tree_request,
    .selected = tree_fn,
    .row_text = tree_text,
    .write = tree_write,
    .update = rebuild_tree,
};
