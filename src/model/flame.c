/*
 * flame: the layout of an icicle graph over a call tree (see flame.h).
 * Frames are laid out depth first with an explicit stack; a node is
 * expanded (calltree_expand) only when its frame is a cell wide or more.
 */
#include "ncgrind/model/flame.h"
#include "ncgrind/core/match.h"

#include <stdlib.h>

void flame_init(struct flame *fl, const struct profile *p, const struct callgraph *g, uint32_t fn,
		bool inverted, uint32_t event, const struct filters *filters)
{
	memset(fl, 0, sizeof(*fl));
	/* a tiny threshold: the width decides what is drawn, and folds the rest */
	calltree_init(&fl->tree, p, g, fn, inverted, event, 0.01);
	fl->tree.filters = filters;
	fl->zoom = NCG_NONE;
}

void flame_release(struct flame *fl)
{
	calltree_release(&fl->tree);
	free(fl->f);
	memset(fl, 0, sizeof(*fl));
}

static size_t frame_add(struct flame *fl, uint32_t node, uint32_t depth, uint64_t x0, uint64_t x1,
			uint32_t parent)
{
	ALLOC_GROW(fl->f, fl->n + 1, fl->alloc);
	fl->f[fl->n] = (struct flame_frame){node, depth, x0, x1, parent};
	return fl->n++;
}

/* Children of frame i, each its share of the frame, rounded down (never more than the frame). */
static void place_children(struct flame *fl, size_t i, uint32_t **stack, size_t *sp, size_t *cap)
{
	struct calltree *t = &fl->tree;
	uint32_t node = fl->f[i].node;
	const struct tree_node *x = &t->nodes[node];
	uint64_t width = fl->f[i].x1 - fl->f[i].x0, at = fl->f[i].x0;
	double cost = x->cost;
	size_t first = *sp;

	if (width < FLAME_EIGHTHS || cost <= 0 ||
	    (x->kind != NODE_FUNCTION && x->kind != NODE_CYCLE) || !calltree_expand(t, node))
		return;
	for (uint32_t c = t->nodes[node].first_child; c != NCG_NONE; c = t->nodes[c].next) {
		uint64_t w = (uint64_t)((double)width * (t->nodes[c].cost / cost));

		if (t->nodes[c].kind == NODE_CUT || w < 1)
			continue; /* (a fold row may come wider after narrow ones) */
		if (at + w > fl->f[i].x1)
			w = fl->f[i].x1 - at;
		ALLOC_GROW(*stack, *sp + 1, *cap);
		(*stack)[(*sp)++] =
		    (uint32_t)frame_add(fl, c, fl->f[i].depth + 1, at, at + w, (uint32_t)i);
		at += w;
	}
	/* the stack pops the last first: reverse the children to lay them out left to right */
	for (size_t a = first, b = *sp; a + 1 < b; a++, b--) {
		uint32_t tmp = (*stack)[a];

		(*stack)[a] = (*stack)[b - 1];
		(*stack)[b - 1] = tmp;
	}
}

void flame_layout(struct flame *fl, int cols, int rows)
{
	struct calltree *t = &fl->tree;
	uint32_t sel_node = fl->n && fl->sel < fl->n ? fl->f[fl->sel].node : NCG_NONE;
	uint64_t width = (uint64_t)(cols > 0 ? cols : 1) * FLAME_EIGHTHS, at = 0;
	uint32_t *stack = NULL;
	size_t sp = 0, cap = 0;

	fl->cols = cols;
	fl->rows = rows;
	fl->n = 0;
	fl->sel = 0;
	if (fl->zoom != NCG_NONE) {
		frame_add(fl, fl->zoom, 0, 0, width, NCG_NONE);
	} else {
		double total = calltree_root_cost(t);

		for (size_t i = 0; i < t->nroots && total > 0; i++) {
			uint64_t w =
			    (uint64_t)((double)width * (t->nodes[t->roots[i]].cost / total));

			if (!w)
				continue;
			if (at + w > width)
				w = width - at;
			frame_add(fl, t->roots[i], 0, at, at + w, NCG_NONE);
			at += w;
		}
	}
	for (size_t i = fl->n; i-- > 0;) {
		ALLOC_GROW(stack, sp + 1, cap);
		stack[sp++] = (uint32_t)i;
	}
	while (sp) {
		uint32_t i = stack[--sp];

		if (fl->f[i].node == sel_node)
			fl->sel = i;
		if ((int)fl->f[i].depth + 1 >= rows)
			continue;
		place_children(fl, i, &stack, &sp, &cap);
	}
	free(stack);
}

bool flame_vertical(struct flame *fl, int dir)
{
	if (!fl->n)
		return false;
	if (dir < 0) {
		if (fl->f[fl->sel].parent == NCG_NONE)
			return false;
		fl->sel = fl->f[fl->sel].parent;
		return true;
	}
	for (size_t i = 0; i < fl->n;
	     i++) /* the children come in order: the first is the largest */
		if (fl->f[i].parent == fl->sel) {
			fl->sel = i;
			return true;
		}
	return false;
}

bool flame_horizontal(struct flame *fl, int dir)
{
	const struct flame_frame *s;
	size_t best = NCG_NONE;

	if (!fl->n)
		return false;
	s = &fl->f[fl->sel];
	for (size_t i = 0; i < fl->n; i++) {
		const struct flame_frame *x = &fl->f[i];

		if (x->depth != s->depth || (dir > 0 ? x->x0 <= s->x0 : x->x0 >= s->x0))
			continue;
		if (best == NCG_NONE || (dir > 0 ? x->x0 < fl->f[best].x0 : x->x0 > fl->f[best].x0))
			best = i;
	}
	if (best == NCG_NONE)
		return false;
	fl->sel = best;
	return true;
}

void flame_zoom_in(struct flame *fl)
{
	const struct tree_node *x;

	if (!fl->n)
		return;
	x = &fl->tree.nodes[fl->f[fl->sel].node];
	if (x->kind != NODE_FUNCTION && x->kind != NODE_CYCLE)
		return;
	fl->zoom = fl->f[fl->sel].node;
	flame_layout(fl, fl->cols, fl->rows);
}

bool flame_zoom_out(struct flame *fl)
{
	uint32_t was = fl->zoom;

	if (was == NCG_NONE)
		return false;
	fl->zoom = fl->tree.nodes[was].parent; /* NCG_NONE: back to the whole tree */
	fl->sel = 0;
	fl->n = 0;
	flame_layout(fl, fl->cols, fl->rows);
	for (size_t i = 0; i < fl->n; i++) /* on the frame zoomed out of */
		if (fl->f[i].node == was)
			fl->sel = i;
	return true;
}

/* A frame's name, for a search: the function's, "<cycle N>", or none. */
static struct span frame_name(const struct flame *fl, size_t i, char *buf, size_t size)
{
	const struct tree_node *x = &fl->tree.nodes[fl->f[i].node];
	const struct profile *p = fl->tree.p;

	if (x->kind == NODE_CYCLE) {
		snprintf(buf, size, "<cycle %u>", x->fn);
		return span_make(buf, strlen(buf));
	}
	if (x->kind != NODE_FUNCTION || p->funcs[x->fn].name == NCG_NONE)
		return span_make("", 0);
	return profile_name(p, p->funcs[x->fn].name);
}

double flame_match_cost(const struct flame *fl, const regex_t *re, bool *match)
{
	double sum = 0.0;
	char buf[32];

	/* frames come parents first: a match under a match is not counted again */
	for (size_t i = 0; i < fl->n; i++) {
		size_t up = fl->f[i].parent;
		bool under = false;

		for (; up != NCG_NONE && !under; up = fl->f[up].parent)
			under = match[up];
		match[i] = match_name(re, frame_name(fl, i, buf, sizeof(buf)));
		if (match[i] && !under)
			sum += fl->tree.nodes[fl->f[i].node].cost;
	}
	return sum;
}
