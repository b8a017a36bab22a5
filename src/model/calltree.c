/*
 * calltree: trees of calls grown node by node from the call graph (see
 * calltree.h for how a node is costed). Nodes live in one array and point
 * to each other by index; the expanded part is flattened into `visible`
 * for display, as htop rebuilds its display list.
 */
#include "ncgrind/model/calltree.h"

#include <stdlib.h>

static const struct tree_walk_ops calltree_walk; /* at the end */

static uint32_t node_new(struct calltree *t, enum tree_node_kind kind, uint32_t fn, uint32_t parent)
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

static double incl_of(const struct calltree *t, uint32_t fn, uint32_t ev)
{
	return (double)profile_incl_at(t->p, fn, ev);
}

static double edge_cost(const struct calltree *t, uint32_t e, uint32_t ev)
{
	return (double)profile_edge_at(t->p, e, ev);
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

/* A function's call to itself: with cycle detection on, it is inside the function. */
static bool skipped_self(const struct calltree *t, uint32_t fn, uint32_t other)
{
	return other == fn && t->cycles;
}

/* The members of every cycle, grouped by cycle (made once, on the first cycle node). */
static void cycle_members(struct calltree *t, uint32_t c, const uint32_t **m, size_t *n)
{
	const struct profile *p = t->p;

	if (!t->cycle_start) {
		uint32_t *fill;

		t->cycle_start = xcalloc(p->ncycles + 2, sizeof(uint32_t));
		t->cycle_member = xmalloc_array(p->nfuncs, sizeof(uint32_t));
		for (uint32_t f = 0; f < p->nfuncs; f++)
			if (p->funcs[f].cycle)
				t->cycle_start[p->funcs[f].cycle]++;
		for (uint32_t i = 1; i <= p->ncycles; i++)
			t->cycle_start[i] += t->cycle_start[i - 1];
		fill = xmalloc_array(p->ncycles + 1, sizeof(uint32_t));
		fill[0] = 0;
		memcpy(fill + 1, t->cycle_start, p->ncycles * sizeof(uint32_t));
		for (uint32_t f = 0; f < p->nfuncs; f++)
			if (p->funcs[f].cycle)
				t->cycle_member[fill[p->funcs[f].cycle]++] = f;
		free(fill);
	}
	*m = t->cycle_member + (c > 1 ? t->cycle_start[c - 1] : 0);
	*n = t->cycle_start[c] - (c > 1 ? t->cycle_start[c - 1] : 0);
}

/* The key of a function or cycle in path_count. */
static size_t path_key(const struct calltree *t, enum tree_node_kind kind, uint32_t id)
{
	return kind == NODE_CYCLE ? t->p->nfuncs + id : id;
}

static bool on_path(const struct calltree *t, uint32_t n, enum tree_node_kind kind, uint32_t id)
{
	/*
	 * A function in no cycle of the call graph, calling itself nowhere, is
	 * no ancestor of itself on any path: a chain 10,000 calls deep opened
	 * again (R, :event) is not 10,000 walks up it.
	 */
	if (kind == NODE_FUNCTION && !t->p->funcs[id].recursive && !t->p->funcs[id].cycle)
		return false;
	if (t->path_count) /* calltree_expand_all() keeps the functions of n's path */
		return t->path_count[path_key(t, kind, id)] > 0;
	for (; n != NCG_NONE; n = t->nodes[n].parent)
		if (t->nodes[n].kind == kind && t->nodes[n].fn == id)
			return true;
	return false;
}

/* Whether a node of this function or cycle can have children (cheaply: its edges). */
static bool has_children(const struct calltree *t, enum tree_node_kind kind, uint32_t id)
{
	const uint32_t *edges;
	size_t n;

	if (kind == NODE_CYCLE)
		return true; /* its members, or the calls into it */
	edges_of(t, id, &edges, &n);
	return n > 1 || (n == 1 && !skipped_self(t, id, other_end(t, edges[0])));
}

/* A root: a function or a cycle at its cost. */
static uint32_t node_add(struct calltree *t, enum tree_node_kind kind, uint32_t id, uint32_t parent,
			 double cost)
{
	uint32_t n = node_new(t, kind, id, parent);

	t->nodes[n].cost = cost;
	t->nodes[n].leaf = !has_children(t, kind, id);
	return n;
}

/* What breaks a tie of remainders (tree_wholes()): a function's id alone, as a diff's. */
static uint64_t share_key(const struct tree_node *x)
{
	return x->kind == NODE_FUNCTION && !x->member
		   ? x->fn
		   : (uint64_t)x->kind << 33 | (uint64_t)x->member << 32 | x->fn;
}

/*
 * Whole costs out[0..n) in event ev for nodes ids[0..n), together no more
 * than `whole` (what their parent holds), by largest remainders (calltree.h,
 * tree_wholes()): the tree's own event and the others of :set columns alike.
 */
static void wholes_of(struct calltree *t, const uint32_t *ids, size_t n, uint64_t whole, bool all,
		      uint32_t ev, uint64_t *out)
{
	double *cost = xmalloc_array(n ? n : 1, sizeof(double));
	uint64_t *key = xmalloc_array(n ? n : 1, sizeof(uint64_t));

	for (size_t i = 0; i < n; i++) {
		cost[i] = calltree_value(t, ids[i], ev); /* (its cost in the tree's event) */
		key[i] = share_key(&t->nodes[ids[i]]);
	}
	tree_wholes(cost, key, n, whole, all, out);
	free(cost);
	free(key);
}

/* The nodes' own whole costs, in the tree's event. */
static void wholes_share(struct calltree *t, const uint32_t *ids, size_t n, uint64_t whole,
			 bool all)
{
	uint64_t *out = xmalloc_array(n ? n : 1, sizeof(uint64_t));

	wholes_of(t, ids, n, whole, all, t->event, out);
	for (size_t i = 0; i < n; i++)
		t->nodes[ids[i]].whole = out[i];
	free(out);
}

/* The same for the chain of siblings from first up to stop (not included). */
static void wholes_share_chain(struct calltree *t, uint32_t first, uint32_t stop, uint64_t whole,
			       bool all)
{
	uint32_t *ids = NULL;
	size_t n = 0, alloc = 0;

	for (uint32_t c = first; c != stop && c != NCG_NONE; c = t->nodes[c].next) {
		ALLOC_GROW(ids, n + 1, alloc);
		ids[n++] = c;
	}
	wholes_share(t, ids, n, whole, all);
	free(ids);
}

void calltree_init(struct calltree *t, const struct profile *p, const struct callgraph *g,
		   uint32_t fn, bool inverted, uint32_t event, double threshold)
{
	memset(t, 0, sizeof(*t));
	t->p = p;
	t->g = g;
	t->inverted = inverted;
	t->top_down = fn == NCG_NONE;
	t->cycles = !p->no_cycles;
	t->event = t->kids.event = event;
	t->threshold = threshold;
	t->cut = NCG_NONE;
	if (fn != NCG_NONE) {
		t->roots = xmalloc(sizeof(uint32_t));
		t->roots[0] = node_add(t, NODE_FUNCTION, fn, NCG_NONE, incl_of(t, fn, event));
		t->nodes[t->roots[0]].whole = profile_incl_at(p, fn, event);
		t->nroots = 1;
	} else {
		uint32_t *entry;

		t->nroots = graph_entry_points(p, g, &entry);
		t->roots = entry;
		/*
		 * An entry point costs what calls into it do not cover, so that the
		 * roots add up to the total; with cycle detection on, one of a
		 * cycle stands for the cycle.
		 */
		double sum = 0.0, total = p->nev ? (double)p->totals[event] : 0.0;

		for (size_t i = 0; i < t->nroots; i++) {
			uint32_t f = entry[i], c = profile_cycle(p, f);
			double cost = (double)graph_uncovered(p, g, f, event);

			t->roots[i] = c ? node_add(t, NODE_CYCLE, c, NCG_NONE, cost)
					: node_add(t, NODE_FUNCTION, f, NCG_NONE, cost);
			sum += cost;
		}
		/* calls that cost more than their callee spends can make more: scale down */
		for (size_t i = 0; sum > total && i < t->nroots; i++)
			t->nodes[t->roots[i]].cost *= total / sum;
		wholes_share(t, t->roots, t->nroots, p->nev ? p->totals[event] : 0, false);
	}
	calltree_flatten(t);
}

static void kids_free(struct tree_kids *k)
{
	if (k) {
		free(k->k);
		free(k->rest);
		free(k);
	}
}

/* Forget the children worked out (the hide filters changed, or the tree goes). */
static void kids_drop(struct calltree *t, struct tree_kids_cache *kc)
{
	if (kc->fn_kids)
		for (size_t f = 0; f < t->p->nfuncs; f++)
			kids_free(kc->fn_kids[f]);
	if (kc->cycle_kids)
		for (size_t c = 0; c <= kc->ncycle_kids; c++)
			kids_free(kc->cycle_kids[c]);
	free(kc->fn_kids);
	free(kc->cycle_kids);
	kc->fn_kids = kc->cycle_kids = NULL;
}

struct tree_ecache {
	struct tree_kids_cache kids; /* its children, in its event */
	double *val;                 /* per node; < 0: not yet */
	size_t nval;
	double root_scale; /* top-down: what the roots are scaled by in ev (< 0: not yet) */
	uint64_t *whole;   /* per node, for the shape it was worked out for; UINT64_MAX: not yet */
	size_t nwhole;
	unsigned shape;
};

static void ecache_release(struct calltree *t)
{
	for (size_t i = 0; i < t->necache; i++) {
		kids_drop(t, &t->ecache[i].kids);
		free(t->ecache[i].val);
		free(t->ecache[i].whole);
	}
	free(t->ecache);
	t->ecache = NULL;
	t->necache = 0;
}

void calltree_release(struct calltree *t)
{
	if (t->p) {
		ecache_release(t);
		kids_drop(t, &t->kids);
	}
	free(t->cycle_start);
	free(t->cycle_member);
	free(t->hidden);
	free(t->hide_mark);
	free(t->hide_share);
	free(t->hide_spent);
	free(t->nodes);
	free(t->roots);
	free(t->visible);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

double calltree_root_cost(const struct calltree *t)
{
	if (t->nroots == 1 && !(t->top_down && t->keep))
		return t->nodes[t->roots[0]].cost;
	return t->p->nev ? (double)t->p->totals[t->event] : 0.0;
}

/* Whether the filters keep a root: its function, or one of its cycle's members. */
static bool root_kept(struct calltree *t, const struct tree_node *r)
{
	const uint32_t *m;
	size_t n;

	if (r->kind != NODE_CYCLE)
		return t->keep[r->fn];
	cycle_members(t, r->fn, &m, &n);
	for (size_t i = 0; i < n; i++)
		if (t->keep[m[i]])
			return true;
	return false;
}

void calltree_set_keep(struct calltree *t, const bool *keep)
{
	size_t o = 0;

	/* children worked out before were not narrowed (the kept roots are not expanded yet) */
	ecache_release(t);
	kids_drop(t, &t->kids);
	t->keep = keep;
	if (!keep || !t->top_down)
		return;
	for (size_t i = 0; i < t->nroots; i++)
		if (root_kept(t, &t->nodes[t->roots[i]]))
			t->roots[o++] = t->roots[i];
	t->nroots = o;
	calltree_flatten(t);
}

uint64_t calltree_root_whole(const struct calltree *t)
{
	if (t->nroots == 1 && !(t->top_down && t->keep)) /* as calltree_root_cost() */
		return t->nodes[t->roots[0]].whole;
	return t->p->nev ? t->p->totals[t->event] : 0;
}

/* Put child after `last` in n's chain of children (first when last is NCG_NONE). */
static void link_after(struct calltree *t, uint32_t n, uint32_t last, uint32_t child)
{
	if (last == NCG_NONE)
		t->nodes[n].first_child = child;
	else
		t->nodes[last].next = child;
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

/* Children as they are collected: one per call, merged afterwards. */
struct kid_buf {
	struct tree_kid *k;
	size_t n, alloc;
	double spent;
	uint32_t ev; /* the event they are worked out in */
};

/* A call to (or from) `other`: a child of its own, or of its cycle's node. */
static void kid_push(struct calltree *t, struct kid_buf *b, uint32_t e, uint32_t other, double cost)
{
	uint32_t c = t->cycles ? t->p->funcs[other].cycle : 0;

	ALLOC_GROW(b->k, b->n + 1, b->alloc);
	b->k[b->n++] = (struct tree_kid){
	    c ? c : other, e, c ? NODE_CYCLE : NODE_FUNCTION, false, t->p->edges[e].count, cost};
}

static void member_push(struct kid_buf *b, uint32_t f, double self)
{
	ALLOC_GROW(b->k, b->n + 1, b->alloc);
	b->k[b->n++] = (struct tree_kid){f, NCG_NONE, NODE_FUNCTION, true, 0, self};
}

/*
 * What a function spends, the denominator of its children's shares (see
 * calltree.h): its inclusive cost, or its self cost and calls (top-down) or
 * its calls from callers (inverted) when recursion makes those more.
 */
static double function_spent(const struct calltree *t, uint32_t fn, uint32_t ev)
{
	const uint32_t *edges;
	size_t n;
	double sum = 0.0;

	if (!t->inverted) /* what every screen divides a call by (graph.h) */
		return call_shares_spent(t->g->shares, t->p, fn, ev);
	edges_of(t, fn, &edges, &n);
	for (size_t i = 0; i < n; i++)
		if (!skipped_self(t, fn, other_end(t, edges[i])))
			sum += edge_cost(t, edges[i], ev);
	return sum > incl_of(t, fn, ev) ? sum : incl_of(t, fn, ev);
}

/* Hidden functions met in one walk: their summed share, and a queue of them. */
struct hidden_walk {
	bool *hidden; /* NULL: no hide filter */
	uint32_t *queue;
	size_t head, n, alloc;
};

/* A new walk: marks of the last one forgotten (a new generation), fn itself walked. */
static void hidden_walk_begin(struct calltree *t, struct hidden_walk *w, uint32_t fn)
{
	memset(w, 0, sizeof(*w));
	w->hidden = hidden_functions(t);
	if (!w->hidden)
		return;
	if (!t->hide_mark) {
		t->hide_mark = xcalloc(t->p->nfuncs + 1, sizeof(uint32_t));
		t->hide_share = xcalloc(t->p->nfuncs + 1, sizeof(double));
		t->hide_spent = xcalloc(t->p->nfuncs + 1, sizeof(double));
	}
	if (++t->hide_gen == 0) { /* wrapped: start the marks again */
		memset(t->hide_mark, 0, (t->p->nfuncs + 1) * sizeof(uint32_t));
		t->hide_gen = 1;
	}
	if (fn != NCG_NONE) {
		t->hide_mark[fn] = t->hide_gen;
		t->hide_share[fn] = -1.0;
	}
}

/*
 * The call e to `other` at `cost`: a child, unless a hide filter hides
 * `other`: then its own calls are children instead, at its share of the
 * call (queued, walked by hidden_walk_run()).
 */
static void call_add(struct calltree *t, struct hidden_walk *w, struct kid_buf *b, uint32_t e,
		     uint32_t other, double cost)
{
	double spent;

	if (!w->hidden || !w->hidden[other]) {
		if (!t->keep || t->keep[other]) /* (a dropped one's cost stays in the parent) */
			kid_push(t, b, e, other, cost);
		return;
	}
	if (t->hide_mark[other] != t->hide_gen) {
		t->hide_mark[other] = t->hide_gen;
		t->hide_share[other] = 0.0;
		t->hide_spent[other] =
		    function_spent(t, other, b->ev); /* once a walk: O(its edges) */
		ALLOC_GROW(w->queue, w->n + 1, w->alloc);
		w->queue[w->n++] = other;
	}
	/* a share that comes back to a function already walked is dropped */
	spent = t->hide_spent[other];
	if (t->hide_share[other] >= 0.0)
		t->hide_share[other] += spent > 0 ? cost / spent : 0.0;
}

/*
 * The hidden functions, breadth first, each once per walk: the shares that
 * reach one before its turn are summed, those that come back to one already
 * walked (a cycle of hidden frames) are not followed again. Paths through
 * hidden frames can be exponentially many; this walk is linear in their edges.
 */
static void hidden_walk_run(struct calltree *t, struct hidden_walk *w, struct kid_buf *b)
{
	while (w->head < w->n) {
		uint32_t cur = w->queue[w->head++];
		double share = t->hide_share[cur];
		const uint32_t *edges;
		size_t count;

		t->hide_share[cur] = -1.0; /* walked */
		edges_of(t, cur, &edges, &count);
		for (size_t i = 0; i < count; i++) {
			uint32_t other = other_end(t, edges[i]);

			if (other != cur) /* a hidden function's recursion: inside its own frame */
				call_add(t, w, b, edges[i], other,
					 edge_cost(t, edges[i], b->ev) * share);
		}
	}
	free(w->queue);
}

/* A function's children: its calls (or callers), through hidden frames. */
static void function_kids(struct calltree *t, uint32_t fn, struct kid_buf *b)
{
	struct hidden_walk w;
	const uint32_t *edges;
	size_t n;

	hidden_walk_begin(t, &w, fn);
	edges_of(t, fn, &edges, &n);
	for (size_t i = 0; i < n; i++) {
		uint32_t other = other_end(t, edges[i]);

		if (!skipped_self(t, fn, other))
			call_add(t, &w, b, edges[i], other, edge_cost(t, edges[i], b->ev));
	}
	hidden_walk_run(t, &w, b);
	b->spent = function_spent(t, fn, b->ev);
}

/*
 * A cycle's children: top-down, its members at their self costs and the
 * calls that leave it; inverted, the calls into it. Costed as one function.
 */
static void cycle_kids(struct calltree *t, uint32_t c, struct kid_buf *b)
{
	struct hidden_walk w;
	const uint32_t *m;
	size_t nm;
	double sum = 0.0, incl = (double)profile_cycle_incl(t->p, c)[b->ev];

	hidden_walk_begin(t, &w, NCG_NONE);
	cycle_members(t, c, &m, &nm);
	for (size_t j = 0; j < nm; j++) {
		const uint32_t *edges;
		size_t n;

		if (!t->inverted) {
			double self = (double)profile_self_at(t->p, m[j], b->ev);

			if (!t->keep || t->keep[m[j]])
				member_push(b, m[j], self);
			sum += self;
		}
		edges_of(t, m[j], &edges, &n);
		for (size_t i = 0; i < n; i++) {
			uint32_t other = other_end(t, edges[i]);

			if (t->p->funcs[other].cycle == c)
				continue; /* inside the cycle */
			sum += edge_cost(t, edges[i], b->ev);
			call_add(t, &w, b, edges[i], other, edge_cost(t, edges[i], b->ev));
		}
	}
	hidden_walk_run(t, &w, b);
	b->spent = sum > incl ? sum : incl;
}

/* By member, kind and id: the order in which equal children are merged. */
static int cmp_kid_key(const void *a, const void *b)
{
	const struct tree_kid *x = a, *y = b;

	if (x->member != y->member)
		return x->member ? 1 : -1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

/* By cost, largest first; then as cmp_kid_key (a stable order on every screen). */
static int cmp_kid_cost(const void *a, const void *b)
{
	const struct tree_kid *x = a, *y = b;

	if (x->cost != y->cost)
		return x->cost < y->cost ? 1 : -1;
	return cmp_kid_key(a, b);
}

/*
 * Merge the calls to one child (the calls into several members of a cycle,
 * a function reached through two hidden frames), sort the children by cost
 * and sum the costs from the end, for the fold row.
 */
static struct tree_kids *kids_finish(struct kid_buf *b)
{
	struct tree_kids *k = xcalloc(1, sizeof(*k));
	size_t o = 0;

	if (b->n > 1)
		qsort(b->k, b->n, sizeof(*b->k), cmp_kid_key);
	for (size_t i = 0; i < b->n; i++) {
		if (o && !cmp_kid_key(&b->k[o - 1], &b->k[i])) {
			b->k[o - 1].cost += b->k[i].cost;
			u64_add_sat(&b->k[o - 1].count, b->k[i].count);
			continue;
		}
		b->k[o++] = b->k[i];
	}
	if (o > 1)
		qsort(b->k, o, sizeof(*b->k), cmp_kid_cost);
	k->k = b->k;
	k->n = o;
	k->spent = b->spent;
	k->rest = xmalloc_array(o + 1, sizeof(double));
	k->rest[o] = 0.0;
	for (size_t i = o; i-- > 0;)
		k->rest[i] = k->rest[i + 1] + k->k[i].cost;
	return k;
}

/*
 * The children of a function or cycle, unscaled: worked out on first use
 * and kept (they do not depend on the path: a node scales them by its
 * share), until the hide filters change.
 */
static const struct tree_kids *kids_of(struct calltree *t, struct tree_kids_cache *kc,
				       enum tree_node_kind kind, uint32_t id)
{
	unsigned version = t->filters ? t->filters->version : 0;
	struct tree_kids **slot;
	struct kid_buf b = {NULL, 0, 0, 0.0, kc->event};

	if (kc->version != version) {
		kids_drop(t, kc);
		kc->version = version;
	}
	if (!kc->fn_kids) {
		kc->fn_kids = xcalloc(t->p->nfuncs + 1, sizeof(*kc->fn_kids));
		kc->cycle_kids = xcalloc(t->p->ncycles + 1, sizeof(*kc->cycle_kids));
		kc->ncycle_kids = t->p->ncycles;
	}
	slot = kind == NODE_CYCLE ? &kc->cycle_kids[id] : &kc->fn_kids[id];
	if (!*slot) {
		if (kind == NODE_CYCLE)
			cycle_kids(t, id, &b);
		else
			function_kids(t, id, &b);
		*slot = kids_finish(&b);
	}
	return *slot;
}

/* Kid x of node n as node c (new when c is NCG_NONE), its cost scaled by ratio. */
static uint32_t kid_add(struct calltree *t, uint32_t n, const struct tree_kid *x, double ratio,
			uint32_t c)
{
	struct tree_node *y;

	if (c == NCG_NONE)
		c = node_new(t, x->kind, x->id, n);
	y = &t->nodes[c];
	y->kind = x->kind;
	y->fn = x->id;
	y->edge = x->edge;
	y->count = x->count;
	y->cost = x->cost * ratio;
	y->member = x->member;
	y->leaf = x->member || !has_children(t, x->kind, x->id);
	y->recursive = !x->member && on_path(t, n, x->kind, x->id);
	y->first_child = NCG_NONE;
	y->expanded = false;
	return c;
}

/* The fold row of n's children from k->k[from] on. */
static uint32_t fold_add(struct calltree *t, uint32_t n, const struct tree_kids *k, size_t from,
			 double ratio)
{
	uint32_t more = node_new(t, NODE_MORE, (uint32_t)from, n);

	t->nodes[more].count = k->n - from;
	t->nodes[more].cost = k->rest[from] * ratio;
	t->nodes[more].leaf = true;
	return more;
}

/* What n's children are scaled by: the share of its function the path holds. */
static double kids_ratio(const struct calltree *t, uint32_t n, const struct tree_kids *k)
{
	return k->spent > 0 ? t->nodes[n].cost / k->spent : 0.0;
}

/*
 * Children of n, largest first, as many as are above the threshold: the
 * rest is one fold row, summed from the end of the sorted list, so a node
 * with 100,000 small callers costs one row, not 100,000 nodes. An only
 * child is shown whatever it costs: a fold of one row would hide it for
 * nothing.
 */
static void make_children(struct calltree *t, uint32_t n, const struct tree_kids *k)
{
	double limit = calltree_root_cost(t) * t->threshold / 100.0;
	double ratio = kids_ratio(t, n, k);
	uint32_t last = NCG_NONE;
	size_t i;

	/*
	 * The chain is linked by index, never through a pointer into t->nodes:
	 * node_new() may move the whole array.
	 */
	t->nodes[n].first_child = NCG_NONE;
	for (i = 0; i < k->n; i++) {
		double cost = k->k[i].cost * ratio;
		uint32_t c;

		if (t->threshold > 0 && (cost < limit || cost <= 0) && k->n > 1)
			break;
		c = kid_add(t, n, &k->k[i], ratio, NCG_NONE);
		link_after(t, n, last, c);
		last = c;
	}
	if (i < k->n)
		link_after(t, n, last, fold_add(t, n, k, i, ratio));
	wholes_share_chain(t, t->nodes[n].first_child, NCG_NONE, t->nodes[n].whole, false);
}

bool calltree_expand(struct calltree *t, uint32_t n)
{
	struct tree_node *node = &t->nodes[n];
	uint32_t first = node->first_child;

	if ((node->kind != NODE_FUNCTION && node->kind != NODE_CYCLE) || node->leaf ||
	    node->recursive)
		return false;
	if (first != NCG_NONE && t->nodes[first].kind == NODE_CUT)
		tree_cut_remove(&calltree_walk, t, &t->cut); /* only the cut row: expand */
	else if (first != NCG_NONE || node->expanded) {
		node->expanded = first != NCG_NONE;
		return node->expanded;
	}
	make_children(t, n, kids_of(t, &t->kids, node->kind, node->fn));
	t->nodes[n].expanded = t->nodes[n].first_child != NCG_NONE;
	/* the edges promised children the filters or hidden frames did not give */
	t->nodes[n].leaf = !t->nodes[n].expanded;
	return t->nodes[n].expanded;
}

void calltree_collapse(struct calltree *t, uint32_t n)
{
	t->nodes[n].expanded = false;
}

void calltree_collapse_all(struct calltree *t)
{
	tree_collapse_all(&calltree_walk, t);
}

/* Count n's function or cycle on the path of a walk (delta 1), or off it (-1). */
static void path_mark(struct calltree *t, uint32_t n, int delta)
{
	const struct tree_node *x = &t->nodes[n];

	if (x->kind == NODE_FUNCTION || x->kind == NODE_CYCLE)
		t->path_count[path_key(t, x->kind, x->fn)] += (uint32_t)delta;
}

/* Count the functions and cycles above n (for a walk from n down). */
static void path_begin(struct calltree *t, uint32_t n)
{
	t->path_count = xcalloc(t->p->nfuncs + t->p->ncycles + 1, sizeof(uint32_t));
	for (uint32_t a = t->nodes[n].parent; a != NCG_NONE; a = t->nodes[a].parent)
		path_mark(t, a, 1);
}

static void path_end(struct calltree *t)
{
	free(t->path_count);
	t->path_count = NULL;
}

/* The hot path may be a chain 100,000 calls deep: the marks keep each step O(1). */
void calltree_expand_hot(struct calltree *t, uint32_t n)
{
	if (n == NCG_NONE)
		return;
	path_begin(t, n);
	tree_expand_hot(&calltree_walk, t, n);
	path_end(t);
}

/* The cached values of node n in other events: it is made again in place. */
static void ecache_forget(struct calltree *t, uint32_t n)
{
	for (size_t i = 0; i < t->necache; i++)
		if (n < t->ecache[i].nval)
			t->ecache[i].val[n] = -1.0;
}

/*
 * Fold row f shows count more of its children: the first takes the fold's
 * place (and index), the others follow it, then a fold of what is left,
 * then what followed the fold (a cut row).
 */
static void fold_open(struct calltree *t, uint32_t f, size_t count)
{
	uint32_t n = t->nodes[f].parent, after = t->nodes[f].next, last = f;
	const struct tree_kids *k = kids_of(t, &t->kids, t->nodes[n].kind, t->nodes[n].fn);
	double ratio = kids_ratio(t, n, k);
	size_t from = t->nodes[f].fn, to = from + count < k->n ? from + count : k->n;
	uint64_t held = t->nodes[f].whole; /* what takes the fold's place shares it out */

	if (from >= to)
		return;
	path_begin(t, f); /* recursion among count children in O(count), not O(count x depth) */
	ecache_forget(t, f);
	kid_add(t, n, &k->k[from], ratio, f);
	for (size_t i = from + 1; i < to; i++) {
		uint32_t c = kid_add(t, n, &k->k[i], ratio, NCG_NONE);

		t->nodes[last].next = c;
		last = c;
	}
	if (to < k->n) {
		uint32_t more = fold_add(t, n, k, to, ratio);

		t->nodes[last].next = more;
		last = more;
	}
	t->nodes[last].next = after;
	wholes_share_chain(t, f, after, held, true);
	path_end(t);
}

bool calltree_unfold(struct calltree *t, uint32_t n, size_t rows)
{
	size_t shown;

	if (n >= t->nnodes || t->nodes[n].kind != NODE_MORE)
		return false;
	shown = t->nodes[n].fn; /* the children before the fold */
	fold_open(t, n, rows > shown ? rows : shown ? shown : 1);
	return true;
}

/* ---- the walks of treewalk.c -------------------------------------------- */

static struct tree_links *walk_links(void *tree, uint32_t n)
{
	return &((struct calltree *)tree)->nodes[n].links;
}

static bool walk_expand(void *tree, uint32_t n)
{
	return calltree_expand(tree, n);
}

static void walk_on_path(void *tree, uint32_t n, int delta)
{
	path_mark(tree, n, delta);
}

static size_t walk_count(const void *tree)
{
	return ((const struct calltree *)tree)->nnodes;
}

static uint32_t walk_new_cut(void *tree, uint32_t parent, size_t made)
{
	struct calltree *t = tree;
	uint32_t cut = node_new(t, NODE_CUT, NCG_NONE, parent);

	t->nodes[cut].count = made;
	t->nodes[cut].leaf = true;
	return cut;
}

/* the first child is the hottest; a fold node ends a hot path */
static bool walk_follow(const void *tree, uint32_t n)
{
	enum tree_node_kind k = ((const struct calltree *)tree)->nodes[n].kind;

	return k == NODE_FUNCTION || k == NODE_CYCLE;
}

static bool walk_barren(const void *tree, uint32_t n)
{
	const struct tree_node *x = &((const struct calltree *)tree)->nodes[n];

	return (x->kind != NODE_FUNCTION && x->kind != NODE_CYCLE) || x->leaf || x->recursive;
}

/* kind, member and id in one key; a fold row's is its kind alone (one fold a parent) */
static uint64_t node_key(enum tree_node_kind kind, bool member, uint32_t id)
{
	return (uint64_t)kind << 33 | (uint64_t)member << 32 | id;
}

static uint64_t walk_key(const void *tree, uint32_t n)
{
	const struct tree_node *x = &((const struct calltree *)tree)->nodes[n];

	if (x->kind != NODE_FUNCTION && x->kind != NODE_CYCLE)
		return node_key(x->kind, false, 0);
	return node_key(x->kind, x->member, x->fn);
}

#define SLOT_WANTED (NCG_NONE - 1) /* a key looked for and not among the children */

/* The slot of a function's or cycle's key; NULL for another kind, or a cycle gone. */
static uint32_t *slot_of(struct calltree *t, uint64_t key)
{
	enum tree_node_kind kind = (enum tree_node_kind)(key >> 33);
	uint32_t id = (uint32_t)key;

	if (kind == NODE_FUNCTION)
		return id < t->p->nfuncs ? &t->slot[id] : NULL;
	if (kind == NODE_CYCLE)
		return id <= t->p->ncycles ? &t->slot[path_key(t, kind, id)] : NULL;
	return NULL;
}

/*
 * Put each child of parent (NCG_NONE: each root) in its slot (on), or
 * take it out again; returns the fold row among them.
 */
static uint32_t slots_fill(struct calltree *t, uint32_t parent, bool on)
{
	uint32_t fold = NCG_NONE, c, *s;
	size_t i = 0;

	c = parent == NCG_NONE ? (t->nroots ? t->roots[0] : NCG_NONE)
			       : t->nodes[parent].first_child;
	while (c != NCG_NONE) {
		if (t->nodes[c].kind == NODE_MORE)
			fold = c;
		else if ((s = slot_of(t, walk_key(t, c))) != NULL && (!on || *s == NCG_NONE))
			*s = on ? c : NCG_NONE; /* (two roots of one cycle: the first) */
		if (parent == NCG_NONE)
			c = ++i < t->nroots ? t->roots[i] : NCG_NONE;
		else
			c = t->nodes[c].next;
	}
	return fold;
}

/* The child of the filled slots with this key (a fold row's: the fold), or NCG_NONE. */
static uint32_t slot_get(struct calltree *t, uint64_t key, uint32_t fold)
{
	uint32_t *s;

	if ((enum tree_node_kind)(key >> 33) == NODE_MORE)
		return fold;
	s = slot_of(t, key);
	if (!s || *s == NCG_NONE || *s == SLOT_WANTED || walk_key(t, *s) != key)
		return NCG_NONE;
	return *s;
}

/* How many of fold f's children to show for every wanted one to be: 0 if none is there. */
static size_t fold_reach(struct calltree *t, uint32_t f)
{
	const struct tree_node *n = &t->nodes[t->nodes[f].parent];
	const struct tree_kids *k = kids_of(t, &t->kids, n->kind, n->fn);
	size_t from = t->nodes[f].fn, reach = 0;

	for (size_t i = from; i < k->n; i++) {
		uint32_t *s = slot_of(t, node_key(k->k[i].kind, k->k[i].member, k->k[i].id));

		if (s && *s == SLOT_WANTED)
			reach = i - from + 1;
	}
	return reach;
}

/* In O(children + keys + folded children), with a slot per function and cycle. */
static void walk_match(void *tree, uint32_t parent, const uint64_t *keys, size_t n, uint32_t *out)
{
	struct calltree *t = tree;
	size_t need = (size_t)t->p->nfuncs + t->p->ncycles + 1, missing = 0, reach = 0;
	uint32_t fold, *s;

	if (t->nslot != need) {
		t->slot = xrealloc(t->slot, st_mult(need, sizeof(uint32_t)));
		memset(t->slot, 0xff, need * sizeof(uint32_t)); /* NCG_NONE */
		t->nslot = need;
	}
	fold = slots_fill(t, parent, true);
	for (size_t i = 0; i < n; i++) /* the fold row's key after the fold has opened */
		if ((out[i] = slot_get(t, keys[i], NCG_NONE)) == NCG_NONE &&
		    (s = slot_of(t, keys[i])) != NULL && *s == NCG_NONE) {
			*s = SLOT_WANTED;
			missing++;
		}
	if (missing && fold != NCG_NONE)
		reach = fold_reach(t, fold);
	for (size_t i = 0; i < n; i++)
		if ((s = slot_of(t, keys[i])) != NULL && *s == SLOT_WANTED)
			*s = NCG_NONE;
	if (reach) {
		slots_fill(t, parent, false);
		fold_open(t, fold, reach);
		fold = slots_fill(t, parent, true);
	}
	for (size_t i = 0; i < n; i++)
		if (out[i] == NCG_NONE)
			out[i] = slot_get(t, keys[i], fold);
	slots_fill(t, parent, false);
}

static const struct tree_walk_ops calltree_walk = {
    walk_links,  walk_expand, walk_on_path, walk_count, walk_new_cut,
    walk_follow, walk_barren, walk_key,     walk_match,
};

/* The threshold bounds the work; max_nodes is the last resort (see calltree.h). */
bool calltree_expand_all(struct calltree *t, uint32_t n, uint32_t depth, size_t max_nodes)
{
	bool whole;

	path_begin(t, n);
	whole = tree_expand_all(&calltree_walk, t, n, depth, max_nodes, &t->cut);
	path_end(t);
	return whole;
}

/* (an environment variable, not an option: it is for the tests, and may only lower the cap) */
size_t calltree_report_max(void)
{
	const char *s = getenv("NCGRIND_TREE_NODES");
	char *end;
	unsigned long long v;

	if (!s || !*s)
		return CALLTREE_REPORT_MAX;
	v = strtoull(s, &end, 10);
	return *end || v >= CALLTREE_REPORT_MAX ? CALLTREE_REPORT_MAX : (size_t)v;
}

void tree_budget_init(struct tree_budget *b)
{
	b->max = b->left = calltree_report_max();
	b->cut = false;
}

bool tree_budget_more(struct tree_budget *b)
{
	if (!b->left)
		b->cut = true;
	return !b->cut;
}

size_t tree_budget_room(const struct tree_budget *b, size_t made)
{
	return b->left > made ? b->left - made : 0;
}

void tree_budget_spend(struct tree_budget *b, size_t made)
{
	b->left -= made < b->left ? made : b->left;
}

void calltree_flatten(struct calltree *t)
{
	t->shape++; /* the wholes of other events are shared out again (calltree_whole) */
	tree_flatten(&calltree_walk, t, t->roots, t->nroots, &t->visible, &t->nvisible,
		     &t->visible_alloc);
}

void calltree_save(struct calltree *t, size_t cursor, struct tree_saved *s)
{
	tree_save(&calltree_walk, t, t->visible, t->nvisible, cursor, s);
}

size_t calltree_restore(struct calltree *t, const struct tree_saved *s)
{
	uint32_t c = tree_restore(&calltree_walk, t, s);

	calltree_flatten(t);
	for (size_t i = 0; c != NCG_NONE && i < t->nvisible; i++)
		if (t->visible[i] == c)
			return i;
	return 0;
}

/* ---- the same tree in another event ------------------------------------- */

static struct tree_ecache *ecache_of(struct calltree *t, uint32_t ev)
{
	struct tree_ecache *c;

	for (size_t i = 0; i < t->necache; i++)
		if (t->ecache[i].kids.event == ev)
			return &t->ecache[i];
	t->ecache = xrealloc(t->ecache, (t->necache + 1) * sizeof(*t->ecache));
	c = &t->ecache[t->necache++];
	memset(c, 0, sizeof(*c));
	c->kids.event = ev;
	c->kids.version = t->kids.version;
	c->root_scale = -1.0;
	return c;
}

/* The kid of k that node x is (same kind, id, member), or NULL. */
static const struct tree_kid *kid_like(const struct tree_kids *k, const struct tree_node *x)
{
	for (size_t i = 0; i < k->n; i++)
		if (k->k[i].id == x->fn && k->k[i].kind == x->kind && k->k[i].member == x->member)
			return &k->k[i];
	return NULL;
}

/* A first-level node's cost in ev, as calltree_init() costs them. */
static double root_value(struct calltree *t, struct tree_ecache *c, uint32_t n)
{
	const struct tree_node *x = &t->nodes[n];
	const struct profile *p = t->p;
	uint32_t f = x->fn;

	if (!t->top_down)
		return x->kind == NODE_CYCLE ? (double)profile_cycle_incl(p, x->fn)[c->kids.event]
					     : (double)profile_incl_at(p, x->fn, c->kids.event);
	if (c->root_scale < 0) { /* the roots add up to the total in ev too */
		double sum = 0.0, total = (double)p->totals[c->kids.event];

		for (size_t i = 0; i < t->nroots; i++) {
			const struct tree_node *r = &t->nodes[t->roots[i]];
			uint32_t g = r->fn;

			if (r->kind == NODE_CYCLE) {
				const uint32_t *m;
				size_t nm;

				cycle_members(t, r->fn, &m, &nm);
				g = nm ? m[0] : 0;
			}
			sum += (double)graph_uncovered(p, t->g, g, c->kids.event);
		}
		c->root_scale = sum > total && sum > 0 ? total / sum : 1.0;
	}
	if (x->kind == NODE_CYCLE) {
		const uint32_t *m;
		size_t nm;

		cycle_members(t, x->fn, &m, &nm);
		f = nm ? m[0] : 0;
	}
	return (double)graph_uncovered(p, t->g, f, c->kids.event) * c->root_scale;
}

/* n's value, its parent's known: a share of it. */
static double child_value(struct calltree *t, struct tree_ecache *c, uint32_t n)
{
	const struct tree_node *x = &t->nodes[n], *par = &t->nodes[x->parent];
	const struct tree_kids *k = kids_of(t, &c->kids, par->kind, par->fn);
	double ratio = k->spent > 0 ? c->val[x->parent] / k->spent : 0.0, rest;
	const struct tree_kid *kid;

	if (x->kind == NODE_CUT)
		return 0.0;
	if (x->kind != NODE_MORE) {
		kid = kid_like(k, x);
		return kid ? kid->cost * ratio : 0.0;
	}
	/* a fold row: the children of its parent in ev but those shown beside it */
	rest = k->n ? k->rest[0] : 0.0;
	for (uint32_t s = par->first_child; s != NCG_NONE; s = t->nodes[s].next)
		if (t->nodes[s].kind == NODE_FUNCTION || t->nodes[s].kind == NODE_CYCLE)
			if ((kid = kid_like(k, &t->nodes[s])) != NULL)
				rest -= kid->cost;
	return rest > 0 ? rest * ratio : 0.0;
}

double calltree_value(struct calltree *t, uint32_t n, uint32_t ev)
{
	struct tree_ecache *c;
	uint32_t *path = NULL;
	size_t np = 0, alloc = 0;

	if (ev == t->event)
		return t->nodes[n].cost;
	if (ev >= t->p->nev || t->p->events[ev].ratio)
		return 0.0;
	c = ecache_of(t, ev);
	if (c->nval < t->nnodes) {
		c->val = xrealloc(c->val, t->nnodes * sizeof(double));
		for (size_t i = c->nval; i < t->nnodes; i++)
			c->val[i] = -1.0; /* not yet */
		c->nval = t->nnodes;
	}
	/* up to a node whose value is known (or a root), then down again */
	for (uint32_t a = n; a != NCG_NONE && c->val[a] < 0; a = t->nodes[a].parent) {
		ALLOC_GROW(path, np + 1, alloc);
		path[np++] = a;
	}
	while (np-- > 0) {
		uint32_t a = path[np];

		c->val[a] =
		    t->nodes[a].parent == NCG_NONE ? root_value(t, c, a) : child_value(t, c, a);
	}
	free(path);
	return c->val[n];
}

/* The same in another event ev, into its cache. */
static void ewholes_share(struct calltree *t, struct tree_ecache *c, const uint32_t *ids, size_t n,
			  uint64_t whole, uint32_t ev)
{
	uint64_t *out = xmalloc_array(n ? n : 1, sizeof(uint64_t));

	wholes_of(t, ids, n, whole, false, ev, out);
	for (size_t i = 0; i < n; i++)
		c->whole[ids[i]] = out[i];
	free(out);
}

/* The wholes in ev of the roots (one root: its inclusive cost), or of n's children. */
static void ewholes_level(struct calltree *t, struct tree_ecache *c, uint32_t parent, uint32_t ev)
{
	uint32_t *ids = NULL;
	size_t n = 0, alloc = 0;

	if (parent == NCG_NONE && !t->top_down) {
		for (size_t i = 0; i < t->nroots; i++)
			c->whole[t->roots[i]] = u64_from_double(calltree_value(t, t->roots[i], ev));
		return;
	}
	if (parent == NCG_NONE) {
		ewholes_share(t, c, t->roots, t->nroots, t->p->totals[ev], ev);
		return;
	}
	for (uint32_t k = t->nodes[parent].first_child; k != NCG_NONE; k = t->nodes[k].next) {
		ALLOC_GROW(ids, n + 1, alloc);
		ids[n++] = k;
	}
	ewholes_share(t, c, ids, n, c->whole[parent], ev);
	free(ids);
}

uint64_t calltree_whole(struct calltree *t, uint32_t n, uint32_t ev)
{
	struct tree_ecache *c;
	uint32_t *path = NULL;
	size_t np = 0, alloc = 0;

	if (ev == t->event)
		return t->nodes[n].whole;
	if (ev >= t->p->nev || t->p->events[ev].ratio)
		return 0;
	c = ecache_of(t, ev);
	if (c->shape != t->shape || c->nwhole < t->nnodes) { /* other rows: shared out again */
		c->whole = xrealloc(c->whole, (t->nnodes ? t->nnodes : 1) * sizeof(uint64_t));
		for (size_t i = 0; i < t->nnodes; i++)
			c->whole[i] = UINT64_MAX;
		c->nwhole = t->nnodes;
		c->shape = t->shape;
	}
	/* up to a node whose whole is known (or a root), then each level down shared out */
	for (uint32_t a = n; a != NCG_NONE && c->whole[a] == UINT64_MAX; a = t->nodes[a].parent) {
		ALLOC_GROW(path, np + 1, alloc);
		path[np++] = a;
	}
	while (np-- > 0)
		if (c->whole[path[np]] == UINT64_MAX)
			ewholes_level(t, c, t->nodes[path[np]].parent, ev);
	free(path);
	return c->whole[n];
}
