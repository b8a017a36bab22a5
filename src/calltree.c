/*
 * calltree: trees of calls grown node by node from the call graph (see
 * calltree.h for how a node is costed). Nodes live in one array and point
 * to each other by index; the expanded part is flattened into `visible`
 * for display, as htop rebuilds its display list.
 */
#include "ncgrind/calltree.h"
#include "ncgrind/parse.h"

#include <stdlib.h>

static uint32_t node_new(struct calltree *t, enum tree_node_kind kind, uint32_t fn,
			 uint32_t parent)
{
	struct tree_node *n;

	ALLOC_GROW(t->nodes, t->nnodes + 1, t->alloc);
	n = &t->nodes[t->nnodes];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->fn = fn;
	n->edge = NCG_NONE;
	n->parent = parent;
	n->depth = parent == NCG_NONE ? 0 : t->nodes[parent].depth + 1;
	n->first_child = n->next = NCG_NONE;
	return (uint32_t)t->nnodes++;
}

static double incl_of(const struct calltree *t, uint32_t fn)
{
	return (double)profile_incl(t->p, fn)[t->event];
}

/* The edges that give the children of a function: its calls, or its callers. */
static void edges_of(const struct calltree *t, uint32_t fn, const uint32_t **edges, size_t *n)
{
	const uint32_t *start = t->inverted ? t->g->in_start : t->g->out_start;

	*edges = (t->inverted ? t->g->in_edge : t->g->out_edge) + start[fn];
	*n = start[fn + 1] - start[fn];
}

static uint32_t other_end(const struct calltree *t, uint32_t e)
{
	return t->inverted ? t->p->edges[e].caller : t->p->edges[e].callee;
}

static bool on_path(const struct calltree *t, uint32_t n, uint32_t fn)
{
	if (t->path_count) /* calltree_expand_all() keeps the functions of n's path */
		return t->path_count[fn] > 0;
	for (; n != NCG_NONE; n = t->nodes[n].parent)
		if (t->nodes[n].kind == NODE_FUNCTION && t->nodes[n].fn == fn)
			return true;
	return false;
}

static uint32_t function_node(struct calltree *t, uint32_t fn, uint32_t parent, double cost)
{
	const uint32_t *edges;
	size_t n;
	uint32_t id = node_new(t, NODE_FUNCTION, fn, parent);

	t->nodes[id].cost = cost;
	edges_of(t, fn, &edges, &n);
	t->nodes[id].leaf = n == 0;
	return id;
}

void calltree_init(struct calltree *t, const struct profile *p, const struct callgraph *g,
		   uint32_t fn, bool inverted, uint32_t event, double threshold)
{
	memset(t, 0, sizeof(*t));
	t->p = p;
	t->g = g;
	t->inverted = inverted;
	t->top_down = fn == NCG_NONE;
	t->event = event;
	t->threshold = threshold;
	if (fn != NCG_NONE) {
		t->roots = xmalloc(sizeof(uint32_t));
		t->roots[0] = function_node(t, fn, NCG_NONE, incl_of(t, fn));
		t->nroots = 1;
	} else {
		uint32_t *entry;

		t->nroots = calltree_entry_points(p, g, &entry);
		t->roots = entry;
		/* an entry point costs what calls into it do not cover: roots add up to the total */
		for (size_t i = 0; i < t->nroots; i++)
			t->roots[i] = function_node(t, entry[i], NCG_NONE,
						    (double)calltree_uncovered(p, g, entry[i], event));
	}
	calltree_flatten(t);
}

void calltree_release(struct calltree *t)
{
	free(t->hidden);
	free(t->hide_mark);
	free(t->hide_share);
	free(t->nodes);
	free(t->roots);
	free(t->visible);
	memset(t, 0, sizeof(*t));
}

uint64_t calltree_uncovered(const struct profile *p, const struct callgraph *g, uint32_t f,
			    uint32_t ev)
{
	uint64_t incl = profile_incl(p, f)[ev], in = 0;
	uint32_t c = p->funcs[f].cycle;

	for (uint32_t i = g->in_start[f]; i < g->in_start[f + 1]; i++) {
		uint32_t e = g->in_edge[i], caller = p->edges[e].caller;

		if (caller != f && !(c && p->funcs[caller].cycle == c))
			u64_add_sat(&in, profile_edge_cost(p, e)[ev]);
	}
	return in < incl ? incl - in : 0;
}

static const uint64_t *entry_sort_cost; /* qsort has no context argument in C11 */

static int cmp_entry(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t cx = entry_sort_cost[x], cy = entry_sort_cost[y];

	/* by the first event: entry points are few, and their order should not move */
	return cx != cy ? (cx < cy) - (cx > cy) : (x > y) - (x < y);
}

/* Whether a function, or any function of its cycle, is called from outside the cycle. */
static bool *called_from_outside(const struct profile *p, const struct callgraph *g)
{
	bool *called = xcalloc(p->nfuncs + 1, sizeof(bool));
	bool *cycle_called = xcalloc(p->ncycles + 1, sizeof(bool));

	for (uint32_t f = 0; f < p->nfuncs; f++)
		for (uint32_t i = g->in_start[f]; i < g->in_start[f + 1]; i++) {
			uint32_t caller = p->edges[g->in_edge[i]].caller, c = p->funcs[f].cycle;

			if (caller == f || (c && p->funcs[caller].cycle == c))
				continue;
			called[f] = true;
			cycle_called[c] |= c != 0;
		}
	for (uint32_t f = 0; f < p->nfuncs; f++)
		called[f] |= cycle_called[p->funcs[f].cycle] && p->funcs[f].cycle;
	free(cycle_called);
	return called;
}

/*
 * An entry point is a function nothing outside its cycle calls, or one whose
 * calls cover only a little of its cost: a thread's first function (clone()
 * is called by pthread_create() for a few hundred instructions, and then runs
 * the whole thread, whose start has no caller in the profile). "A little":
 * what is left uncovered is over 0.1% of the total, so that rounding and the
 * calls a partial dump cut do not make entry points of everything.
 */
size_t calltree_entry_points(const struct profile *p, const struct callgraph *g, uint32_t **out)
{
	uint32_t *list = xmalloc((p->nfuncs ? p->nfuncs : 1) * sizeof(uint32_t));
	uint64_t *uncovered = xcalloc(p->nfuncs + 1, sizeof(uint64_t));
	uint64_t total = p->nev ? p->totals[0] : 0;
	bool *called = called_from_outside(p, g);
	size_t n = 0;

	for (uint32_t f = 0; f < p->nfuncs; f++) {
		if (!profile_function_used(p, f))
			continue;
		uncovered[f] = p->nev ? calltree_uncovered(p, g, f, 0) : 0;
		if (!called[f] || (!p->funcs[f].cycle && uncovered[f] > total / 1000))
			list[n++] = f;
	}
	free(called);
	entry_sort_cost = uncovered;
	qsort(list, n, sizeof(uint32_t), cmp_entry);
	free(uncovered);
	*out = list;
	return n;
}

double calltree_root_cost(const struct calltree *t)
{
	if (t->nroots == 1)
		return t->nodes[t->roots[0]].cost;
	return t->p->nev ? (double)t->p->totals[t->event] : 0.0;
}

static const struct tree_node *children_sort_nodes; /* qsort has no context argument in C11 */

/* By cost, largest first; then by function, then in the order they came (stable). */
static int cmp_cost_desc(const void *a, const void *b)
{
	uint32_t ia = *(const uint32_t *)a, ib = *(const uint32_t *)b;
	const struct tree_node *x = &children_sort_nodes[ia], *y = &children_sort_nodes[ib];

	if (x->cost != y->cost)
		return x->cost < y->cost ? 1 : -1;
	if (x->fn != y->fn)
		return x->fn > y->fn ? 1 : -1;
	return (ia > ib) - (ia < ib);
}

/* A node may have 100,000 children (the callers of malloc): qsort, not insertion. */
static void sort_children(struct calltree *t, uint32_t *ids, size_t n)
{
	children_sort_nodes = t->nodes;
	if (n > 1)
		qsort(ids, n, sizeof(*ids), cmp_cost_desc);
}

/* Put child after `last` in n's chain of children (first when last is NCG_NONE). */
static void link_after(struct calltree *t, uint32_t n, uint32_t last, uint32_t child)
{
	if (last == NCG_NONE)
		t->nodes[n].first_child = child;
	else
		t->nodes[last].next = child;
}

/* Link the children in ids (sorted) under n, folding those under the threshold. */
static void link_children(struct calltree *t, uint32_t n, uint32_t *ids, size_t count)
{
	double limit = calltree_root_cost(t) * t->threshold / 100.0;
	uint32_t last = NCG_NONE, more = NCG_NONE;

	/*
	 * The chain is linked by index, never through a pointer into t->nodes:
	 * node_new() for the fold row may move the whole array.
	 */
	t->nodes[n].first_child = NCG_NONE;
	for (size_t i = 0; i < count; i++) {
		if (t->nodes[ids[i]].cost < limit && t->threshold > 0) {
			if (more == NCG_NONE)
				more = node_new(t, NODE_MORE, NCG_NONE, n);
			t->nodes[more].count++;
			t->nodes[more].cost += t->nodes[ids[i]].cost;
			continue;
		}
		link_after(t, n, last, ids[i]);
		last = ids[i];
	}
	if (more != NCG_NONE) {
		t->nodes[more].leaf = true;
		link_after(t, n, last, more);
	}
}

struct child {
	uint32_t edge, fn;
	double cost;
};

struct children {
	struct child *list;
	size_t n, alloc;
};

static void child_add(struct children *out, uint32_t edge, uint32_t fn, double cost)
{
	ALLOC_GROW(out->list, out->n + 1, out->alloc);
	out->list[out->n++] = (struct child){edge, fn, cost};
}

/*
 * The functions a hide filter matches, worked out once per change of the
 * filters (a regular expression per edge made E on a large profile take
 * seconds); NULL when no hide filter is given.
 */
static bool *hidden_functions(struct calltree *t)
{
	/* version 0: no filter was ever given, so none hides (and a new tree has hidden NULL) */
	if (!t->filters)
		return NULL;
	if (t->hidden_version != t->filters->version) {
		if (!t->hidden)
			t->hidden = xcalloc(t->p->nfuncs + 1, sizeof(bool));
		t->hidden_version = t->filters->version;
		if (!filters_hidden(t->filters, t->p, t->hidden)) {
			free(t->hidden);
			t->hidden = NULL;
		}
	}
	return t->hidden;
}

/* Hidden functions met in one collect(): their summed share, and a queue of them. */
struct hidden_walk {
	uint32_t *queue;
	size_t head, n, alloc;
};

/* A new walk: marks of the last one forgotten (a new generation), fn itself walked. */
static void hidden_walk_begin(struct calltree *t, uint32_t fn)
{
	if (!t->hide_mark) {
		t->hide_mark = xcalloc(t->p->nfuncs + 1, sizeof(uint32_t));
		t->hide_share = xcalloc(t->p->nfuncs + 1, sizeof(double));
	}
	if (++t->hide_gen == 0) { /* wrapped: start the marks again */
		memset(t->hide_mark, 0, (t->p->nfuncs + 1) * sizeof(uint32_t));
		t->hide_gen = 1;
	}
	t->hide_mark[fn] = t->hide_gen;
	t->hide_share[fn] = -1.0;
}

/*
 * The children of fn reached at `ratio` of fn's inclusive cost: its calls
 * (or callers), except that a hidden one gives its own children instead, at
 * its share of the call; a `hide` filter joins the frames around what it
 * hides. Hidden functions are walked breadth first, each once per collect():
 * the shares that reach one before its turn are summed, those that come back
 * to one already walked (a cycle of hidden frames) are not followed again.
 * Paths through hidden frames can be exponentially many; this walk is linear
 * in their edges.
 */
static void collect(struct calltree *t, uint32_t fn, double ratio, struct children *out)
{
	struct hidden_walk w = {NULL, 0, 0, 0};
	bool *hidden = hidden_functions(t);
	uint32_t cur = fn;

	if (hidden)
		hidden_walk_begin(t, fn);
	for (;;) {
		const uint32_t *edges;
		size_t count;

		edges_of(t, cur, &edges, &count);
		for (size_t i = 0; i < count; i++) {
			uint32_t e = edges[i], other = other_end(t, e);
			double cost = (double)profile_edge_cost(t->p, e)[t->event] * ratio, incl;

			if (other == cur && cur != fn)
				continue; /* a hidden function's recursion: inside its own frame */
			if (!hidden || other == cur || !hidden[other]) {
				child_add(out, e, other, cost);
				continue;
			}
			incl = incl_of(t, other);
			if (t->hide_mark[other] != t->hide_gen) {
				t->hide_mark[other] = t->hide_gen;
				t->hide_share[other] = 0.0;
				ALLOC_GROW(w.queue, w.n + 1, w.alloc);
				w.queue[w.n++] = other;
			}
			/* a share that comes back to a function already walked is dropped */
			if (t->hide_share[other] >= 0.0)
				t->hide_share[other] += incl > 0 ? cost / incl : 0.0;
		}
		if (hidden)
			t->hide_share[cur] = -1.0; /* walked */
		if (w.head == w.n)
			break;
		cur = w.queue[w.head++];
		ratio = t->hide_share[cur];
	}
	free(w.queue);
}

bool calltree_expand(struct calltree *t, uint32_t n)
{
	struct tree_node *node = &t->nodes[n];
	struct children kids = {NULL, 0, 0};
	uint32_t *ids, fn = node->fn;
	double ratio;

	if (node->kind != NODE_FUNCTION || node->leaf || node->recursive)
		return false;
	if (node->first_child != NCG_NONE || node->expanded) {
		node->expanded = node->first_child != NCG_NONE;
		return node->expanded;
	}
	ratio = incl_of(t, fn) > 0 ? node->cost / incl_of(t, fn) : 0.0;
	collect(t, fn, ratio, &kids);
	ids = xmalloc((kids.n ? kids.n : 1) * sizeof(uint32_t));
	for (size_t i = 0; i < kids.n; i++) {
		uint32_t c = function_node(t, kids.list[i].fn, n, 0);

		t->nodes[c].edge = kids.list[i].edge;
		t->nodes[c].count = t->p->edges[kids.list[i].edge].count;
		t->nodes[c].cost = kids.list[i].cost;
		t->nodes[c].recursive = on_path(t, n, kids.list[i].fn);
		/*
		 * A recursive call's cost counts the nested calls again and again:
		 * along one path it can be no more than its caller's node.
		 */
		if (t->nodes[c].cost > t->nodes[n].cost)
			t->nodes[c].cost = t->nodes[n].cost;
		ids[i] = c;
	}
	sort_children(t, ids, kids.n);
	link_children(t, n, ids, kids.n);
	free(ids);
	free(kids.list);
	t->nodes[n].expanded = t->nodes[n].first_child != NCG_NONE;
	return t->nodes[n].expanded;
}

void calltree_collapse(struct calltree *t, uint32_t n)
{
	t->nodes[n].expanded = false;
}

void calltree_collapse_all(struct calltree *t)
{
	for (size_t i = 0; i < t->nnodes; i++)
		t->nodes[i].expanded = false;
}

void calltree_expand_hot(struct calltree *t, uint32_t n)
{
	while (n != NCG_NONE && calltree_expand(t, n)) {
		uint32_t c = t->nodes[n].first_child;

		/* the first child is the hottest; a fold node ends the path */
		n = c != NCG_NONE && t->nodes[c].kind == NODE_FUNCTION ? c : NCG_NONE;
	}
}

/* The path of the walk: pop to relative depth d, counting the functions off it. */
struct walk_path {
	uint32_t *node;
	size_t n, alloc;
};

static void path_cut(struct calltree *t, struct walk_path *w, size_t d)
{
	while (w->n > d) {
		const struct tree_node *x = &t->nodes[w->node[--w->n]];

		if (x->kind == NODE_FUNCTION)
			t->path_count[x->fn]--;
	}
}

static void path_push(struct calltree *t, struct walk_path *w, uint32_t n)
{
	ALLOC_GROW(w->node, w->n + 1, w->alloc);
	w->node[w->n++] = n;
	if (t->nodes[n].kind == NODE_FUNCTION)
		t->path_count[t->nodes[n].fn]++;
}

/*
 * Depth first, with an explicit stack (deep call chains must not exhaust the
 * C stack), keeping a count per function of the nodes on the current path,
 * so that "is this call recursive?" costs O(1), not a walk up a path that a
 * chain of 100,000 calls makes 100,000 long.
 */
bool calltree_expand_all(struct calltree *t, uint32_t n, uint32_t depth, size_t max_nodes)
{
	uint32_t *stack = xmalloc(sizeof(uint32_t) * 64);
	size_t sp = 0, cap = 64;
	size_t limit = max_nodes > SIZE_MAX - t->nnodes ? SIZE_MAX : t->nnodes + max_nodes;
	uint32_t base = t->nodes[n].depth;
	struct walk_path w = {NULL, 0, 0};
	bool whole = true;

	t->path_count = xcalloc(t->p->nfuncs + 1, sizeof(uint32_t));
	for (uint32_t a = t->nodes[n].parent; a != NCG_NONE; a = t->nodes[a].parent)
		if (t->nodes[a].kind == NODE_FUNCTION)
			t->path_count[t->nodes[a].fn]++;
	stack[sp++] = n;
	while (sp) {
		uint32_t cur = stack[--sp], rel = t->nodes[cur].depth - base;

		if (t->nnodes >= limit) {
			whole = false;
			break;
		}
		path_cut(t, &w, rel);
		if (rel >= depth)
			continue;
		path_push(t, &w, cur);
		if (!calltree_expand(t, cur))
			continue;
		for (uint32_t c = t->nodes[cur].first_child; c != NCG_NONE; c = t->nodes[c].next) {
			ALLOC_GROW(stack, sp + 1, cap);
			stack[sp++] = c;
		}
	}
	free(stack);
	free(w.node);
	free(t->path_count);
	t->path_count = NULL;
	return whole;
}

static void visible_push(struct calltree *t, uint32_t n)
{
	ALLOC_GROW(t->visible, t->nvisible + 1, t->visible_alloc);
	t->visible[t->nvisible++] = n;
}

void calltree_flatten(struct calltree *t)
{
	uint32_t *stack = NULL;
	size_t sp = 0, cap = 0;

	t->nvisible = 0;
	for (size_t i = t->nroots; i-- > 0;) {
		ALLOC_GROW(stack, sp + 1, cap);
		stack[sp++] = t->roots[i];
	}
	while (sp) {
		uint32_t n = stack[--sp], c;
		size_t first = sp;

		visible_push(t, n);
		if (!t->nodes[n].expanded)
			continue;
		/* push the children reversed, so that they come out in order */
		for (c = t->nodes[n].first_child; c != NCG_NONE; c = t->nodes[c].next) {
			ALLOC_GROW(stack, sp + 1, cap);
			stack[sp++] = c;
		}
		for (size_t i = first, j = sp; i + 1 < j; i++, j--) {
			uint32_t tmp = stack[i];

			stack[i] = stack[j - 1];
			stack[j - 1] = tmp;
		}
	}
	free(stack);
}

/* Every call line of the caller's blocks, in file order; merged afterwards. */
static void on_call_line(void *ctx, const struct parse_line *l)
{
	struct call_sites *c = ctx;

	if (l->kind != PARSE_CALL)
		return;
	ALLOC_GROW(c->sites, c->n + 1, c->alloc);
	c->sites[c->n] = (struct call_site){l->callee, l->file, l->pos[POS_LINE], l->pos[POS_INSTR],
					    l->count, (uint32_t)c->n};
	c->n++;
}

/* By callee, then place, then the order in the file. */
static int cmp_site_place(const void *a, const void *b)
{
	const struct call_site *x = a, *y = b;

	if (x->callee != y->callee)
		return x->callee < y->callee ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

/* By callee, then the order of the first call at each place. */
static int cmp_site_order(const void *a, const void *b)
{
	const struct call_site *x = a, *y = b;

	if (x->callee != y->callee)
		return x->callee < y->callee ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

/*
 * One pass over the caller's blocks for the calls to every callee: the
 * callees screen of a function with 30,000 callees read its blocks 30,000
 * times (94 s); now once, and the places are merged by sorting, not by a
 * search per call line.
 */
static void call_sites_load(struct call_sites *cs, const struct profile *p, uint32_t caller)
{
	size_t o = 0;

	cs->caller = caller;
	cs->n = 0;
	for (uint32_t b = p->funcs[caller].first_block; b != NCG_NONE; b = p->blocks[b].next)
		parse_block(p, b, on_call_line, cs);
	if (cs->n > 1)
		qsort(cs->sites, cs->n, sizeof(*cs->sites), cmp_site_place);
	for (size_t i = 0; i < cs->n; i++) {
		struct call_site *prev = o ? &cs->sites[o - 1] : NULL, *cur = &cs->sites[i];

		if (prev && prev->callee == cur->callee && prev->file == cur->file &&
		    prev->line == cur->line && prev->addr == cur->addr) {
			u64_add_sat(&prev->count, cur->count); /* the earlier order stays */
			continue;
		}
		cs->sites[o++] = *cur;
	}
	cs->n = o;
	if (cs->n > 1)
		qsort(cs->sites, cs->n, sizeof(*cs->sites), cmp_site_order);
}

void call_sites_init(struct call_sites *cs)
{
	memset(cs, 0, sizeof(*cs));
	cs->caller = NCG_NONE;
}

void call_sites_for(struct call_sites *cs, const struct profile *p, uint32_t caller)
{
	if (cs->caller != caller)
		call_sites_load(cs, p, caller);
}

size_t call_sites_of(const struct call_sites *cs, uint32_t callee, const struct call_site **first)
{
	size_t lo = 0, hi = cs->n, end;

	while (lo < hi) { /* the first site of callee */
		size_t mid = lo + (hi - lo) / 2;

		if (cs->sites[mid].callee < callee)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < cs->n && cs->sites[end].callee == callee; end++)
		;
	*first = cs->sites + lo;
	return end - lo;
}

void call_sites_release(struct call_sites *cs)
{
	free(cs->sites);
	memset(cs, 0, sizeof(*cs));
}
