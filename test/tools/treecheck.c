/*
 * treecheck: the property test of the call trees (issue 11), linked with the
 * core and the tree view-model only (no curses).
 *
 *   treecheck [--threshold=PCT]... [--hide=REGEX] [--ignore|focus|filter=REGEX]... FILE...
 *
 * For each profile, with cycle detection on and off, at each threshold (1
 * and 0.1 percent unless given): the tree from the entry points, and each
 * used function's tree of callees (t) and of callers (r), expanded as E
 * expands them (with --hide, through the frames a `hide REGEX` skips; with
 * --ignore, --focus or --filter, of the functions those filters keep: no
 * function they drop is below a root).
 * Every expanded node is checked:
 *
 *   - its children, fold row included, add up to no more than the node;
 *   - no child costs more than its parent, none is negative;
 *   - the entry points add up to no more than the total;
 *   - with cycle detection on, no node is recursive (a cycle is one node);
 *   - no recursive node, member row or fold row has children;
 *   - E finishes without the last-resort cut;
 *   - children come in order of cost (fold and cut rows aside);
 *   - the whole costs (what is printed) keep the first rule exactly, and
 *     each is its cost rounded down or up; so do those of up to four other
 *     events (the columns of :set columns).
 *
 * Then each fold row is opened once (calltree_unfold): its parent's
 * children add up to what they did (whole costs exactly), they keep the
 * rules above, and the
 * tree built again from what calltree_save() keeps of it finds the rows
 * again: the same rows after E, the last row's path after the folds opened.
 *
 * And the flame graphs (flame.c) of the same trees, 1, 80, 120 and 200
 * cells wide, and zoomed into their widest frame below the top: every frame
 * lies within its parent, its siblings do not overlap, each is a row below
 * its parent, none is wider than its share of the top rounded up, and both
 * its ends lie within half an eighth of where the costs put them: the costs
 * summed from the left of the top, through the tree's own order of
 * children, however deep (no width lost level by level).
 *
 * Prints "ok: FILE: ..." with the number of trees and nodes, or each broken
 * rule with the path to the node; exits 1 when one is broken, 2 on bad use.
 */
#include "ncgrind/model/calltree.h"
#include "ncgrind/model/flame.h"
#include "ncgrind/core/parse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Rounding of sums of doubles: a relative slack far below what is printed. */
#define SLACK(x) ((x)*1e-9 + 1e-6)

struct tally {
	size_t trees, nodes, largest, broken;
};

static void put_path(const struct calltree *t, uint32_t n)
{
	if (n == NCG_NONE)
		return;
	put_path(t, t->nodes[n].parent);
	if (t->nodes[n].kind == NODE_CYCLE)
		fprintf(stderr, " > <cycle %u>", t->nodes[n].fn);
	else if (t->nodes[n].kind == NODE_FUNCTION)
		fprintf(stderr, " > %.*s",
			(int)profile_name(t->p, t->p->funcs[t->nodes[n].fn].name).len,
			profile_name(t->p, t->p->funcs[t->nodes[n].fn].name).ptr);
	else
		fprintf(stderr, " > (%s)", t->nodes[n].kind == NODE_MORE ? "more" : "cut");
}

static void broken(struct tally *y, const struct calltree *t, uint32_t n, const char *what,
		   double a, double b)
{
	if (y->broken++ < 20) {
		fprintf(stderr, "treecheck: %s (%s, cycles %s, threshold %g%%): %.3f vs %.3f at",
			what,
			t->top_down   ? "T"
			: t->inverted ? "r"
				      : "t",
			t->cycles ? "on" : "off", t->threshold, a, b);
		put_path(t, n);
		putc('\n', stderr);
	}
}

/* A whole cost is its cost rounded down or up (a near-whole cost: the whole it stands for). */
static void check_whole(struct tally *y, const struct calltree *t, uint32_t n)
{
	const struct tree_node *x = &t->nodes[n];
	double w = (double)x->whole;

	if (x->kind != NODE_CUT && (w > ceil(x->cost - SLACK(x->cost)) + SLACK(w) ||
				    w < floor(x->cost + SLACK(x->cost)) - SLACK(w)))
		broken(y, t, n, "whole cost not the cost rounded down or up", w, x->cost);
}

static void check_node(struct tally *y, const struct calltree *t, uint32_t n)
{
	const struct tree_node *x = &t->nodes[n];
	double sum = 0.0;
	uint64_t whole = 0;

	check_whole(y, t, n);
	if (x->cost < 0)
		broken(y, t, n, "negative cost", x->cost, 0);
	if (x->kind == NODE_FUNCTION && x->parent != NCG_NONE && t->keep && !t->keep[x->fn])
		broken(y, t, n, "a function the filters drop is in the tree", x->cost, 0);
	if (x->kind == NODE_FUNCTION && x->recursive && t->cycles && !t->filters)
		broken(y, t, n, "recursive node with cycle detection on", x->cost, 0);
	if (x->first_child == NCG_NONE)
		return;
	if (x->recursive || x->member || x->kind == NODE_MORE || x->kind == NODE_CUT)
		broken(y, t, n, "a row that cannot be expanded has children", x->cost, 0);
	for (uint32_t c = x->first_child, prev = NCG_NONE; c != NCG_NONE; c = t->nodes[c].next) {
		if (t->nodes[c].kind == NODE_CUT) {
			broken(y, t, c, "E was cut", (double)t->nodes[c].count, 0);
			continue;
		}
		if (t->nodes[c].kind != NODE_MORE) {
			if (prev != NCG_NONE &&
			    t->nodes[c].cost > t->nodes[prev].cost + SLACK(t->nodes[prev].cost))
				broken(y, t, c, "child costs more than the one before it",
				       t->nodes[c].cost, t->nodes[prev].cost);
			prev = c;
		}
		if (t->nodes[c].cost > x->cost + SLACK(x->cost))
			broken(y, t, c, "child costs more than its parent", t->nodes[c].cost,
			       x->cost);
		sum += t->nodes[c].cost;
		whole += t->nodes[c].whole;
	}
	if (sum > x->cost + SLACK(x->cost))
		broken(y, t, n, "children add up to more than the node", sum, x->cost);
	if (whole > x->whole)
		broken(y, t, n, "whole costs of the children add up to more than the node's",
		       (double)whole, (double)x->whole);
}

static double children_sum(const struct calltree *t, uint32_t n, size_t *rows, uint64_t *whole)
{
	double sum = 0.0;

	*rows = 0;
	*whole = 0;
	for (uint32_t c = t->nodes[n].first_child; c != NCG_NONE; c = t->nodes[c].next) {
		sum += t->nodes[c].cost;
		*whole += t->nodes[c].whole;
		*rows += t->nodes[c].kind == NODE_MORE ? t->nodes[c].count : 1;
	}
	return sum;
}

/* Open every fold row of the tree once: the children it shows replace it, and add up to it. */
static void check_unfold(struct tally *y, struct calltree *t)
{
	size_t made = t->nnodes;

	for (uint32_t n = 0; n < made; n++) {
		uint32_t parent = t->nodes[n].parent;
		size_t rows, rows_after;
		double sum, after;
		uint64_t whole, whole_after;

		if (t->nodes[n].kind != NODE_MORE)
			continue;
		sum = children_sum(t, parent, &rows, &whole);
		if (!calltree_unfold(t, n, 1) || t->nodes[n].kind == NODE_MORE)
			broken(y, t, n, "a fold row does not open", 0, 0);
		after = children_sum(t, parent, &rows_after, &whole_after);
		if (whole_after != whole)
			broken(y, t, parent, "a fold opened changes the whole costs' sum",
			       (double)whole_after, (double)whole);
		if (after > sum + SLACK(sum) || after < sum - SLACK(sum))
			broken(y, t, parent, "a fold opened changes what the children add up to",
			       after, sum);
		if (rows_after != rows)
			broken(y, t, parent, "a fold opened changes the number of children",
			       (double)rows_after, (double)rows);
	}
	for (size_t n = 0; n < t->nnodes; n++)
		check_node(y, t, (uint32_t)n);
}

/* What a row is: the same in a tree built again. */
static bool same_row(const struct calltree *a, uint32_t m, const struct calltree *b, uint32_t n)
{
	const struct tree_node *x = &a->nodes[m], *z = &b->nodes[n];

	if (x->kind != z->kind || x->depth != z->depth)
		return false;
	return x->kind == NODE_MORE || (x->fn == z->fn && x->member == z->member);
}

static bool same_path(const struct calltree *a, uint32_t m, const struct calltree *b, uint32_t n)
{
	for (; m != NCG_NONE && n != NCG_NONE; m = a->nodes[m].parent, n = b->nodes[n].parent)
		if (!same_row(a, m, b, n))
			return false;
	return m == NCG_NONE && n == NCG_NONE;
}

/*
 * The tree built again from what calltree_save() keeps, its cursor on the
 * last row: the same rows (exact), and the cursor on the same path.
 */
static void check_restore(struct tally *y, struct calltree *t, bool exact)
{
	uint32_t root = t->top_down ? NCG_NONE : t->nodes[t->roots[0]].fn, last;
	struct tree_saved s;
	struct calltree u;
	size_t row;

	calltree_flatten(t);
	if (!t->nvisible)
		return;
	last = t->visible[t->nvisible - 1];
	calltree_save(t, t->nvisible - 1, &s);
	calltree_init(&u, t->p, t->g, root, t->inverted, t->event, t->threshold);
	u.filters = t->filters;
	calltree_set_keep(&u, t->keep);
	row = calltree_restore(&u, &s);
	tree_saved_release(&s);
	if (exact && u.nvisible != t->nvisible)
		broken(y, t, last, "built again: not the same number of rows", (double)u.nvisible,
		       (double)t->nvisible);
	for (size_t i = 0; exact && i < t->nvisible && i < u.nvisible; i++)
		if (!same_row(t, t->visible[i], &u, u.visible[i])) {
			broken(y, t, t->visible[i], "built again: another row here", (double)i, 0);
			break;
		}
	if (!u.nvisible || !same_path(t, last, &u, u.visible[row]))
		broken(y, t, last, "built again: the cursor's row is not found", (double)row, 0);
	calltree_release(&u);
}

/*
 * The other events' whole costs (calltree_whole(), the columns of :set
 * columns): a node's children never add up past it in any event either, nor
 * the first level past the event's total.
 */
static void check_other_events(struct tally *y, struct calltree *t)
{
	for (uint32_t ev = 0, done = 0; ev < t->p->nev && done < 4; ev++) {
		uint64_t first = 0;

		if (ev == t->event || t->p->events[ev].ratio)
			continue;
		done++;
		for (size_t i = 0; i < t->nroots; i++)
			first += calltree_whole(t, t->roots[i], ev);
		if (t->top_down && first > t->p->totals[ev])
			broken(y, t, NCG_NONE, "another event's first level adds up past its total",
			       (double)first, (double)t->p->totals[ev]);
		for (size_t n = 0; n < t->nnodes; n++) {
			uint64_t sum = 0;

			if (t->nodes[n].first_child == NCG_NONE)
				continue;
			for (uint32_t c = t->nodes[n].first_child; c != NCG_NONE;
			     c = t->nodes[c].next)
				sum += calltree_whole(t, c, ev);
			if (sum > calltree_whole(t, (uint32_t)n, ev))
				broken(y, t, (uint32_t)n,
				       "another event's children add up to more than the node",
				       (double)sum, (double)calltree_whole(t, (uint32_t)n, ev));
		}
	}
}

static void check_tree(struct tally *y, struct calltree *t)
{
	double roots = 0.0, total = t->p->nev ? (double)t->p->totals[t->event] : 0.0;
	uint64_t whole = 0;

	for (size_t i = 0; i < t->nroots; i++) {
		calltree_expand_all(t, t->roots[i], UINT32_MAX, CALLTREE_EXPAND_MAX);
		roots += t->nodes[t->roots[i]].cost;
		whole += t->nodes[t->roots[i]].whole;
	}
	if (t->top_down && roots > total + SLACK(total))
		broken(y, t, NCG_NONE, "entry points add up to more than the total", roots, total);
	if (whole > calltree_root_whole(t))
		broken(y, t, NCG_NONE,
		       "whole costs of the first level add up to more than the root", (double)whole,
		       (double)calltree_root_whole(t));
	for (size_t n = 0; n < t->nnodes; n++)
		check_node(y, t, (uint32_t)n);
	check_other_events(y, t);
	check_restore(y, t, true);
	check_unfold(y, t);
	check_restore(y, t, false);
	y->trees++;
	y->nodes += t->nnodes;
	if (t->nnodes > y->largest)
		y->largest = t->nnodes;
}

static const struct filters *hide;   /* --hide, or NULL */
static const struct filters *narrow; /* --ignore, --focus, --filter (hide's too), or NULL */
static bool *keep;                   /* what they keep of the profile being checked, or NULL */

/* A frame's rules against its parent's frame and its siblings. */
static void check_frame(struct tally *y, const struct flame *fl, size_t i)
{
	const struct flame_frame *x = &fl->f[i], *par = &fl->f[x->parent];

	if (x->x0 < par->x0 || x->x1 > par->x1)
		broken(y, &fl->tree, x->node, "flame: a frame outside its parent", (double)x->x1,
		       (double)par->x1);
	if (x->depth != par->depth + 1)
		broken(y, &fl->tree, x->node, "flame: not a row below its parent", (double)x->depth,
		       (double)par->depth);
	for (size_t k = i + 1; k < fl->n; k++) /* a later sibling starts where this one ends */
		if (fl->f[k].parent == x->parent && fl->f[k].x0 < x->x1 && fl->f[k].x0 >= x->x0)
			broken(y, &fl->tree, fl->f[k].node, "flame: overlaps a sibling",
			       (double)fl->f[k].x0, (double)x->x1);
}

/* An end in eighths against the cost that puts it there (scaled), within [lo, hi]. */
static void check_end(struct tally *y, const struct flame *fl, uint32_t node, uint64_t got,
		      double want, uint64_t lo, uint64_t hi)
{
	want = want < (double)lo ? (double)lo : want > (double)hi ? (double)hi : want;
	if ((double)got > want + 0.5 + SLACK(want) || (double)got < want - 0.5 - SLACK(want))
		broken(y, &fl->tree, node, "flame: an end not where the costs put it", (double)got,
		       want);
}

/*
 * Where each frame starts, worked out from the tree alone: a root, or the
 * zoom, at the costs of the roots before it; a child at its parent's start
 * and the costs of the children before it in the tree (start, per node).
 */
static void check_extents(struct tally *y, const struct flame *fl)
{
	const struct calltree *t = &fl->tree;
	double *start = xcalloc(t->nnodes + 1, sizeof(double)), at = 0.0;
	double top = fl->zoom != NCG_NONE ? t->nodes[fl->zoom].cost : calltree_root_cost(t);
	double scale = top > 0 ? (double)fl->cols * FLAME_EIGHTHS / top : 0.0;
	uint64_t width = (uint64_t)fl->cols * FLAME_EIGHTHS;

	for (size_t r = 0; r < t->nroots && fl->zoom == NCG_NONE; r++) {
		start[t->roots[r]] = at;
		at += t->nodes[t->roots[r]].cost;
	}
	for (size_t i = 0; i < fl->n; i++) {
		const struct flame_frame *x = &fl->f[i];
		const struct tree_node *nd = &t->nodes[x->node];
		uint64_t lo = x->parent == NCG_NONE ? 0 : fl->f[x->parent].x0,
			 hi = x->parent == NCG_NONE ? width : fl->f[x->parent].x1;
		double share = nd->cost * scale;

		check_end(y, fl, x->node, x->x0, start[x->node] * scale, lo, hi);
		check_end(y, fl, x->node, x->x1, (start[x->node] + nd->cost) * scale, lo, hi);
		if ((double)(x->x1 - x->x0) > ceil(share - SLACK(share)))
			broken(y, t, x->node, "flame: wider than its share of the top rounded up",
			       (double)(x->x1 - x->x0), share);
		at = start[x->node];
		for (uint32_t c = nd->first_child; c != NCG_NONE; c = t->nodes[c].next) {
			if (t->nodes[c].kind == NODE_CUT)
				continue;
			start[c] = at;
			at += t->nodes[c].cost;
		}
	}
	free(start);
}

/* The frames of a laid-out flame against its rules. */
static void check_frames(struct tally *y, const struct flame *fl)
{
	for (size_t i = 0; i < fl->n; i++) {
		y->nodes++;
		if (fl->f[i].x1 <= fl->f[i].x0)
			broken(y, &fl->tree, fl->f[i].node, "flame: a frame of no width",
			       (double)fl->f[i].x0, (double)fl->f[i].x1);
		else if (fl->f[i].parent != NCG_NONE)
			check_frame(y, fl, i);
	}
	check_extents(y, fl);
}

static void one_flame(struct tally *y, struct profile *p, const struct callgraph *g, uint32_t fn,
		      bool inverted)
{
	static const int widths[] = {1, 80, 120, 200};

	for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
		struct flame fl;
		size_t widest = 0;

		flame_init(&fl, p, g, fn, inverted, 0, hide, keep);
		flame_layout(&fl, widths[w], UINT32_MAX);
		check_frames(y, &fl);
		for (size_t i = 1; i < fl.n; i++)
			if (fl.f[i].x1 - fl.f[i].x0 > fl.f[widest].x1 - fl.f[widest].x0 || !widest)
				widest = i;
		if (widest) {
			fl.sel = widest;
			flame_zoom_in(&fl);
			check_frames(y, &fl);
			flame_zoom_out(&fl);
			check_frames(y, &fl);
		}
		flame_release(&fl);
	}
}

static void one_tree(struct tally *y, struct profile *p, const struct callgraph *g, uint32_t fn,
		     bool inverted, double threshold)
{
	struct calltree t;

	calltree_init(&t, p, g, fn, inverted, 0, threshold);
	t.filters = hide;
	calltree_set_keep(&t, keep);
	check_tree(y, &t);
	calltree_release(&t);
	if (threshold == 1.0) /* (the flame's threshold is its width: once a tree) */
		one_flame(y, p, g, fn, inverted);
}

static int check_file(const char *path, const double *thr, size_t nthr)
{
	struct profile p;
	struct callgraph g;
	struct diag d;
	struct tally y = {0, 0, 0, 0};

	profile_init(&p, path);
	diag_init(&d, path);
	profile_add_source(&p, path);
	if (parse_profile(&p, &d, NULL) < 0 || !p.nev) {
		fprintf(stderr, "treecheck: cannot read %s\n", path);
		diag_release(&d);
		profile_release(&p);
		return 2;
	}
	callgraph_init(&g, &p);
	if (narrow) {
		keep = xcalloc(p.nfuncs + 1, sizeof(bool));
		filters_apply(narrow, &p, &g, keep);
	}
	for (int off = 0; off < 2; off++) {
		profile_set_cycles(&p, !off);
		for (size_t k = 0; k < nthr; k++) {
			one_tree(&y, &p, &g, NCG_NONE, false, thr[k]);
			for (uint32_t f = 0; f < p.nfuncs; f++) {
				if (!profile_function_used(&p, f))
					continue;
				one_tree(&y, &p, &g, f, false, thr[k]);
				one_tree(&y, &p, &g, f, true, thr[k]);
			}
		}
	}
	if (!y.broken)
		printf("ok: %s: %zu trees, %zu nodes, the largest %zu\n", path, y.trees, y.nodes,
		       y.largest);
	else
		fprintf(stderr, "treecheck: %s: %zu broken\n", path, y.broken);
	free(keep);
	keep = NULL;
	callgraph_release(&g);
	diag_release(&d);
	profile_release(&p);
	return y.broken ? 1 : 0;
}

/* --hide=, --ignore=, --focus=, --filter=REGEX into f: 1, or 0 for another option, -1 on error. */
static int filter_option(struct filters *f, const char *opt)
{
	static const char *const names[] = {"hide", "ignore", "focus", "filter"};
	char err[300];

	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		size_t n = strlen(names[k]);
		const char *arg = opt + 3 + n;
		enum filter_kind kind;

		if (strncmp(opt + 2, names[k], n) || opt[2 + n] != '=')
			continue;
		kind = filters_kind(names[k], &arg);
		if (filters_add(f, kind, arg, err, sizeof(err)) < 0) {
			fprintf(stderr, "treecheck: %s\n", err);
			return -1;
		}
		if (kind == FILTER_HIDE)
			hide = f;
		else
			narrow = f;
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	double thr[8] = {1.0, 0.1};
	size_t nthr = 0;
	int ret = 0, i;
	struct filters f;

	filters_init(&f);
	for (i = 1; i < argc && !strncmp(argv[i], "--", 2); i++) {
		char *end;
		int r = filter_option(&f, argv[i]);

		if (r < 0)
			return 2;
		if (!r && (strncmp(argv[i], "--threshold=", 12) || nthr == 8 ||
			   (thr[nthr++] = strtod(argv[i] + 12, &end)) < 0 || *end)) {
			fprintf(stderr, "treecheck: bad option '%s'\n", argv[i]);
			return 2;
		}
	}
	if (!nthr)
		nthr = 2;
	if (i == argc) {
		fprintf(stderr, "usage: treecheck [--threshold=PCT]... FILE...\n");
		return 2;
	}
	for (; i < argc; i++) {
		int r = check_file(argv[i], thr, nthr);

		ret = r > ret ? r : ret;
	}
	filters_release(&f);
	return ret;
}
