/*
 * flame: the layout of an icicle graph over a call tree (see flame.h).
 * Frames are laid out depth first with an explicit stack (a chain may be
 * thousands deep); a node is expanded (calltree_expand) only when its frame
 * is a cell wide or more. Each frame keeps where it starts as a cost, so
 * its children are placed by costs summed from the left of the top and
 * rounded once, never by widths rounded again at each level.
 */
#include "ncgrind/model/flame.h"
#include "ncgrind/core/match.h"

#include <stdlib.h>

void flame_init(struct flame *fl, const struct profile *p, const struct callgraph *g, uint32_t fn,
		bool inverted, uint32_t event, const struct filters *filters, const bool *keep)
{
	memset(fl, 0, sizeof(*fl));
	/* a tiny threshold: the width decides what is drawn, and folds the rest */
	calltree_init(&fl->tree, p, g, fn, inverted, event, 0.01);
	fl->tree.filters = filters;
	calltree_set_keep(&fl->tree, keep);
	fl->zoom = NCG_NONE;
}

void flame_release(struct flame *fl)
{
	calltree_release(&fl->tree);
	free(fl->f);
	free(fl->zooms);
	memset(fl, 0, sizeof(*fl));
}

static size_t frame_add(struct flame *fl, uint32_t node, uint32_t depth, uint64_t x0, uint64_t x1,
			uint32_t parent, double start)
{
	ALLOC_GROW(fl->f, fl->n + 1, fl->alloc);
	fl->f[fl->n] = (struct flame_frame){node, depth, x0, x1, parent, NCG_NONE, 0, depth, start};
	return fl->n++;
}

/* A cost from the left of the top in eighths, rounded, kept within [lo, hi]. */
static uint64_t eighths(double cost, double scale, uint64_t lo, uint64_t hi)
{
	double x = cost * scale + 0.5;

	return x <= (double)lo ? lo : x >= (double)hi ? hi : (uint64_t)x;
}

/*
 * The children of frame i: each starts where the one before it ends, both
 * ends rounded from costs summed from the left of the top, so nothing is
 * lost level by level; one that rounds to no width takes its share still.
 */
static void place_children(struct flame *fl, size_t i, double scale, uint32_t **stack, size_t *sp,
			   size_t *cap)
{
	struct calltree *t = &fl->tree;
	uint32_t node = fl->f[i].node, depth = fl->f[i].depth + 1;
	uint64_t lo = fl->f[i].x0, hi = fl->f[i].x1;
	double at = fl->f[i].start;
	enum tree_node_kind kind = t->nodes[node].kind;
	size_t first = *sp;

	if (hi - lo < FLAME_EIGHTHS || t->nodes[node].cost <= 0 ||
	    (kind != NODE_FUNCTION && kind != NODE_CYCLE) || !calltree_expand(t, node))
		return;
	for (uint32_t c = t->nodes[node].first_child; c != NCG_NONE; c = t->nodes[c].next) {
		double from = at;
		uint64_t x0, x1;

		if (t->nodes[c].kind == NODE_CUT)
			continue;
		at += t->nodes[c].cost;
		x0 = eighths(from, scale, lo, hi);
		x1 = eighths(at, scale, lo, hi);
		if (x1 <= x0)
			continue;
		if (fl->f[i].kids == NCG_NONE)
			fl->f[i].kids = (uint32_t)fl->n;
		fl->f[i].nkids++;
		ALLOC_GROW(*stack, *sp + 1, *cap);
		(*stack)[(*sp)++] = (uint32_t)frame_add(fl, c, depth, x0, x1, (uint32_t)i, from);
	}
	/* the stack pops the last first: reverse the children to lay them out left to right */
	for (size_t a = first, b = *sp; a + 1 < b; a++, b--) {
		uint32_t tmp = (*stack)[a];

		(*stack)[a] = (*stack)[b - 1];
		(*stack)[b - 1] = tmp;
	}
}

/* The first row: the frame zoomed into, or the roots side by side; the eighths of a cost. */
static double place_top(struct flame *fl, uint64_t width)
{
	const struct calltree *t = &fl->tree;
	double total, scale, at = 0.0;

	if (fl->zoom != NCG_NONE) {
		total = t->nodes[fl->zoom].cost;
		if (total > 0)
			frame_add(fl, fl->zoom, 0, 0, width, NCG_NONE, 0.0);
		return total > 0 ? (double)width / total : 0.0;
	}
	total = calltree_root_cost(t);
	if (!(total > 0))
		return 0.0;
	scale = (double)width / total;
	for (size_t i = 0; i < t->nroots; i++) {
		double from = at;
		uint64_t x0, x1;

		at += t->nodes[t->roots[i]].cost;
		x0 = eighths(from, scale, 0, width);
		x1 = eighths(at, scale, 0, width);
		if (x1 > x0)
			frame_add(fl, t->roots[i], 0, x0, x1, NCG_NONE, from);
	}
	return scale;
}

void flame_layout(struct flame *fl, int cols, uint32_t max_depth)
{
	uint32_t sel_node = fl->n && fl->sel < fl->n ? fl->f[fl->sel].node : NCG_NONE;
	uint64_t width = (uint64_t)(cols > 0 ? cols : 1) * FLAME_EIGHTHS;
	uint32_t *stack = NULL;
	size_t sp = 0, cap = 0;
	double scale;

	fl->cols = cols;
	fl->max_depth = max_depth;
	fl->n = 0;
	fl->sel = 0;
	fl->depth = 0;
	fl->deeper = false;
	scale = place_top(fl, width);
	for (size_t i = fl->n; i-- > 0;) {
		ALLOC_GROW(stack, sp + 1, cap);
		stack[sp++] = (uint32_t)i;
	}
	while (sp) {
		uint32_t i = stack[--sp];

		if (fl->f[i].node == sel_node)
			fl->sel = i;
		if (fl->f[i].depth + 1 < max_depth)
			place_children(fl, i, scale, &stack, &sp, &cap);
		else if (fl->f[i].x1 - fl->f[i].x0 >= FLAME_EIGHTHS)
			fl->deeper |= !fl->tree.nodes[fl->f[i].node].leaf &&
				      !fl->tree.nodes[fl->f[i].node].recursive;
	}
	free(stack);
	/* parents come before their children: the deepest rows go up in one pass */
	for (size_t i = fl->n; i-- > 0;) {
		uint32_t up = fl->f[i].parent;

		if (up != NCG_NONE && fl->f[up].bottom < fl->f[i].bottom)
			fl->f[up].bottom = fl->f[i].bottom;
		if (fl->f[i].depth + 1 > fl->depth)
			fl->depth = fl->f[i].depth + 1;
	}
}

/* The child of frame i to go down by towards row depth (see flame_to_depth). */
static size_t kid_towards(const struct flame *fl, size_t i, uint32_t depth)
{
	size_t first = fl->f[i].kids, best = first;

	for (size_t k = first; k < first + fl->f[i].nkids; k++) {
		if (fl->f[k].bottom >= depth)
			return k;
		if (fl->f[k].bottom > fl->f[best].bottom)
			best = k;
	}
	return best;
}

bool flame_to_depth(struct flame *fl, uint32_t depth)
{
	size_t was = fl->sel;

	if (!fl->n)
		return false;
	while (fl->f[fl->sel].depth > depth)
		fl->sel = fl->f[fl->sel].parent;
	while (fl->f[fl->sel].depth < depth && fl->f[fl->sel].nkids)
		fl->sel = kid_towards(fl, fl->sel, depth);
	return fl->sel != was;
}

bool flame_select_at(struct flame *fl, uint32_t depth, int col)
{
	uint64_t c = col > 0 ? (uint64_t)col : 0;
	size_t end = NCG_NONE;

	for (size_t i = 0; i < fl->n; i++) {
		const struct flame_frame *x = &fl->f[i];

		if (x->depth != depth)
			continue;
		if (x->x0 / FLAME_EIGHTHS <= c && c < x->x1 / FLAME_EIGHTHS) {
			fl->sel = i;
			return true;
		}
		if (x->x1 / FLAME_EIGHTHS == c && x->x1 % FLAME_EIGHTHS)
			end = i; /* (the next frame's cells, where it has one, are drawn over it) */
	}
	if (end == NCG_NONE)
		return false;
	fl->sel = end;
	return true;
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
	ALLOC_GROW(fl->zooms, fl->nzooms + 1, fl->azooms);
	fl->zooms[fl->nzooms++] = fl->zoom;
	fl->zoom = fl->f[fl->sel].node;
	flame_layout(fl, fl->cols, fl->max_depth);
}

bool flame_zoom_out(struct flame *fl)
{
	uint32_t was = fl->zoom;

	if (was == NCG_NONE)
		return false;
	/* NCG_NONE: back to the whole tree */
	fl->zoom = fl->nzooms ? fl->zooms[--fl->nzooms] : fl->tree.nodes[was].parent;
	fl->sel = 0;
	fl->n = 0;
	flame_layout(fl, fl->cols, fl->max_depth);
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
	bool *under = xcalloc(fl->n + 1, sizeof(bool)); /* a match is above it */
	double sum = 0.0;
	char buf[32];

	/* frames come parents first: a match under a match is not counted again */
	for (size_t i = 0; i < fl->n; i++) {
		uint32_t up = fl->f[i].parent;

		under[i] = up != NCG_NONE && (under[up] || match[up]);
		match[i] = match_name(re, frame_name(fl, i, buf, sizeof(buf)));
		if (match[i] && !under[i])
			sum += fl->tree.nodes[fl->f[i].node].cost;
	}
	free(under);
	return sum;
}
