/*
 * difftree: call trees of a diff, grown node by node from the diff's calls
 * (see difftree.h for how a node is costed). As calltree.c, nodes live in
 * one array and point to each other by index, and the expanded part is
 * flattened into `visible`.
 */
#include "ncgrind/model/difftree.h"
#include "ncgrind/core/graph.h"

#include <math.h>
#include <stdlib.h>

static const struct tree_walk_ops difftree_walk; /* at the end */

static uint32_t node_new(struct difftree *t, enum tree_node_kind kind, uint32_t row,
			 uint32_t parent)
{
	struct difftree_node *n;

	ALLOC_GROW(t->nodes, t->nnodes + 1, t->alloc);
	n = &t->nodes[t->nnodes];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->row = row;
	n->call = NCG_NONE;
	n->parent = parent;
	n->depth = parent == NCG_NONE ? 0 : t->nodes[parent].depth + 1;
	n->first_child = n->next = NCG_NONE;
	return (uint32_t)t->nnodes++;
}

/* The calls that give a row's children: out of it, or into it (inverted). */
static size_t calls_of(const struct difftree *t, uint32_t row, const uint32_t **in, size_t *first)
{
	const struct diff *d = t->d;

	if (t->inverted) {
		*in = d->in_call + d->in_start[row];
		*first = 0;
		return d->in_start[row + 1] - d->in_start[row];
	}
	*in = NULL;
	*first = d->out_start[row];
	return d->out_start[row + 1] - d->out_start[row];
}

static uint32_t call_at(const uint32_t *in, size_t first, size_t i)
{
	return in ? in[i] : (uint32_t)(first + i);
}

static uint32_t other_row(const struct difftree *t, uint32_t call)
{
	return t->inverted ? t->d->calls[call].caller : t->d->calls[call].callee;
}

static uint32_t node_add(struct difftree *t, uint32_t row, uint32_t parent, double base, double new)
{
	const uint32_t *in;
	size_t first;
	uint32_t n = node_new(t, NODE_FUNCTION, row, parent);

	t->nodes[n].base = base;
	t->nodes[n].new = new;
	t->nodes[n].leaf = calls_of(t, row, &in, &first) == 0;
	return n;
}

/*
 * Whole costs on each side for nodes ids[0..n), together no more than base
 * and new (tree_wholes(); with all, all of them: what takes an opened
 * fold's place).
 */
static void wholes_share(struct difftree *t, const uint32_t *ids, size_t n, uint64_t base,
			 uint64_t new, bool all)
{
	double *cost = xmalloc_array(n ? n : 1, sizeof(double));
	uint64_t *out = xmalloc_array(n ? n : 1, sizeof(uint64_t)),
		 *key = xmalloc_array(n ? n : 1, sizeof(uint64_t));

	for (size_t i = 0; i < n; i++) { /* base's function, as a profile's tree keys it */
		const struct diff_row *r = &t->d->rows[t->nodes[ids[i]].row];

		key[i] = t->nodes[ids[i]].kind != NODE_FUNCTION ? UINT64_MAX
			 : r->base != NCG_NONE                  ? r->base
					       : (uint64_t)t->d->base->nfuncs + r->new;
	}
	for (int side = 0; side < 2; side++) {
		for (size_t i = 0; i < n; i++)
			cost[i] = side ? t->nodes[ids[i]].new : t->nodes[ids[i]].base;
		tree_wholes(cost, key, n, side ? new : base, all, out);
		for (size_t i = 0; i < n; i++)
			*(side ? &t->nodes[ids[i]].whole_new : &t->nodes[ids[i]].whole_base) =
			    out[i];
	}
	free(cost);
	free(out);
	free(key);
}

/* The same for the siblings from first up to stop (not included). */
static void wholes_share_chain(struct difftree *t, uint32_t first, uint32_t stop, uint64_t base,
			       uint64_t new, bool all)
{
	uint32_t *ids = NULL;
	size_t n = 0, alloc = 0;

	for (uint32_t c = first; c != stop && c != NCG_NONE; c = t->nodes[c].next) {
		ALLOC_GROW(ids, n + 1, alloc);
		ids[n++] = c;
	}
	wholes_share(t, ids, n, base, new, all);
	free(ids);
}

static double change_of(double b, double n)
{
	return fabs(n - b);
}

/* By the size of the change, then the bigger cost, then the row: a stable order. */
static int cmp_change(double b1, double n1, uint32_t r1, double b2, double n2, uint32_t r2)
{
	double c1 = change_of(b1, n1), c2 = change_of(b2, n2);
	double m1 = b1 > n1 ? b1 : n1, m2 = b2 > n2 ? b2 : n2;

	if (c1 != c2)
		return c1 > c2 ? -1 : 1;
	if (m1 != m2)
		return m1 > m2 ? -1 : 1;
	return (r1 > r2) - (r1 < r2);
}

/* Roots, indices into nodes (the tree's). */
static int cmp_root(const void *a, const void *b, void *nodes)
{
	const struct difftree_node *v = nodes;
	const struct difftree_node *x = &v[*(const uint32_t *)a], *y = &v[*(const uint32_t *)b];

	return cmp_change(x->base, x->new, x->row, y->base, y->new, y->row);
}

/*
 * One side's entry points, as its own trees have them (graph.c: what no
 * call from outside covers, a cycle's by one member), summed into their rows.
 */
static void side_entries(const struct difftree *t, bool new_side, double *cost, bool *root)
{
	const struct diff *d = t->d;
	const struct profile *p = new_side ? d->new : d->base;
	const uint32_t *row_of = new_side ? d->row_of_new : d->row_of_base;
	uint32_t ev = new_side ? d->ev_new[t->event] : d->ev_base[t->event], *entry;
	struct callgraph g;
	size_t n;

	if (ev == NCG_NONE || !p->nfuncs)
		return;
	callgraph_init(&g, p);
	n = graph_entry_points(p, &g, &entry);
	for (size_t i = 0; i < n; i++) {
		uint32_t r = row_of[entry[i]];

		if (r == NCG_NONE)
			continue;
		root[r] = true;
		cost[r] += (double)graph_uncovered(p, &g, entry[i], ev);
	}
	free(entry);
	callgraph_release(&g);
}

/*
 * A filtered diff's rows that no row of it calls and that hold no entry
 * point (filter work_: work_a, work_b) are roots too, at their inclusive
 * costs, after the entry points' roots[0 .. from): else a filter that drops
 * the entry points leaves a tree of nothing.
 */
static void filtered_roots(struct difftree *t, size_t from)
{
	const struct diff *d = t->d;
	bool *is_root = xcalloc(d->nrows + 1, sizeof(bool));

	if (!d->filtered) {
		free(is_root);
		return;
	}
	for (size_t i = 0; i < from; i++)
		is_root[t->nodes[t->roots[i]].row] = true;
	for (uint32_t r = 0; r < d->nrows; r++)
		if (!is_root[r] && d->in_start[r] == d->in_start[r + 1])
			t->roots[t->nroots++] =
			    node_add(t, r, NCG_NONE, (double)diff_cost(d, r, false, true, t->event),
				     (double)diff_cost(d, r, true, true, t->event));
	free(is_root);
}

/*
 * The entry points of both sides: a row is a root where it holds one of
 * either side, and costs on each side what that side's entry points in it
 * cost there (so each side's roots are its own tree's, joined by row).
 */
static void entry_roots(struct difftree *t)
{
	const struct diff *d = t->d;
	double tb = (double)d->total_base[t->event], tn = (double)d->total_new[t->event];
	double sb = 0.0, sn = 0.0;
	double *cb = xcalloc(d->nrows + 1, sizeof(double)),
	       *cn = xcalloc(d->nrows + 1, sizeof(double));
	bool *root = xcalloc(d->nrows + 1, sizeof(bool));
	size_t root_at;

	side_entries(t, false, cb, root);
	side_entries(t, true, cn, root);
	t->roots = xmalloc_array(d->nrows ? d->nrows : 1, sizeof(uint32_t));
	for (uint32_t r = 0; r < d->nrows; r++)
		if (root[r]) {
			t->roots[t->nroots++] = node_add(t, r, NCG_NONE, cb[r], cn[r]);
			sb += cb[r];
			sn += cn[r];
		}
	root_at = t->nroots;
	free(cb);
	free(cn);
	free(root);
	/* calls that cost more than their callee spends can make more: scale down */
	for (size_t i = 0; i < root_at; i++) {
		if (sb > tb)
			t->nodes[t->roots[i]].base *= tb / sb;
		if (sn > tn)
			t->nodes[t->roots[i]].new *= tn / sn;
	}
	filtered_roots(t, root_at);
	sort_with(t->roots, t->nroots, sizeof(uint32_t), cmp_root, t->nodes);
	t->root_base = tb;
	t->root_new = tn;
	wholes_share(t, t->roots, t->nroots, d->total_base[t->event], d->total_new[t->event],
		     false);
}

void difftree_init(struct difftree *t, const struct diff *d, uint32_t row, bool inverted,
		   uint32_t event, double threshold)
{
	memset(t, 0, sizeof(*t));
	t->d = d;
	t->inverted = inverted;
	t->top_down = row == NCG_NONE;
	t->event = event < d->nev ? event : 0;
	t->threshold = threshold;
	t->cut = NCG_NONE;
	if (!d->nev) {
		difftree_flatten(t);
		return;
	}
	if (row != NCG_NONE) {
		t->root_base = (double)diff_cost(d, row, false, true, t->event);
		t->root_new = (double)diff_cost(d, row, true, true, t->event);
		t->roots = xmalloc(sizeof(uint32_t));
		t->roots[0] = node_add(t, row, NCG_NONE, t->root_base, t->root_new);
		t->nodes[t->roots[0]].whole_base = diff_cost(d, row, false, true, t->event);
		t->nodes[t->roots[0]].whole_new = diff_cost(d, row, true, true, t->event);
		t->nroots = 1;
	} else {
		entry_roots(t);
	}
	difftree_flatten(t);
}

static void kids_free(struct difftree_kids *k)
{
	if (k) {
		free(k->k);
		free(k->by_base);
		free(k->by_new);
		free(k);
	}
}

void difftree_release(struct difftree *t)
{
	for (size_t r = 0; t->kids && r < t->nkids; r++)
		kids_free(t->kids[r]);
	free(t->kids);
	free(t->seen);
	free(t->nodes);
	free(t->roots);
	free(t->visible);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

/* Children, indices into kids (a row's difftree_kid array), by their base cost, then new. */
static int cmp_by_base(const void *a, const void *b, void *kids)
{
	const struct difftree_kid *k = kids;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (k[x].base != k[y].base)
		return k[x].base > k[y].base ? -1 : 1;
	return (x > y) - (x < y);
}

static int cmp_by_new(const void *a, const void *b, void *kids)
{
	const struct difftree_kid *k = kids;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (k[x].new != k[y].new)
		return k[x].new > k[y].new ? -1 : 1;
	return (x > y) - (x < y);
}

/*
 * What a row spends on a side, the denominator of its children's shares
 * (see calltree.h): its inclusive cost, or its self cost and calls
 * (top-down) or its calls from callers (inverted) when recursion makes
 * those more.
 */
static double spent(const struct difftree *t, uint32_t row, double calls, bool new_side)
{
	double incl = (double)diff_cost(t->d, row, new_side, true, t->event);
	double sum =
	    calls + (t->inverted ? 0.0 : (double)diff_cost(t->d, row, new_side, false, t->event));

	return sum > incl ? sum : incl;
}

/* A row's children, unscaled, sorted by each side (worked out once a row). */
static const struct difftree_kids *kids_of(struct difftree *t, uint32_t row)
{
	struct difftree_kids *k;
	const uint32_t *in;
	size_t first, n;

	if (!t->kids) {
		t->kids = xcalloc(t->d->nrows + 1, sizeof(*t->kids));
		t->nkids = t->d->nrows;
	}
	if (t->kids[row])
		return t->kids[row];
	k = xcalloc(1, sizeof(*k));
	n = calls_of(t, row, &in, &first);
	k->k = xmalloc_array(n ? n : 1, sizeof(*k->k));
	k->by_base = xmalloc_array(n ? n : 1, sizeof(uint32_t));
	k->by_new = xmalloc_array(n ? n : 1, sizeof(uint32_t));
	k->n = n;
	for (size_t i = 0; i < n; i++) {
		uint32_t c = call_at(in, first, i);
		struct difftree_kid *x = &k->k[i];

		x->call = c;
		x->row = other_row(t, c);
		x->base = (double)diff_call_recorded(t->d, c, false, t->event);
		x->new = (double)diff_call_recorded(t->d, c, true, t->event);
		k->sum_base += x->base;
		k->sum_new += x->new;
		k->by_base[i] = k->by_new[i] = (uint32_t)i;
	}
	sort_with(k->by_base, n, sizeof(uint32_t), cmp_by_base, k->k);
	sort_with(k->by_new, n, sizeof(uint32_t), cmp_by_new, k->k);
	k->spent_base = spent(t, row, k->sum_base, false);
	k->spent_new = spent(t, row, k->sum_new, true);
	t->kids[row] = k;
	return k;
}

static bool on_path(const struct difftree *t, uint32_t n, uint32_t row)
{
	if (t->path_count) /* difftree_expand_all() keeps the rows of n's path */
		return t->path_count[row] > 0;
	for (; n != NCG_NONE; n = t->nodes[n].parent)
		if (t->nodes[n].kind == NODE_FUNCTION && t->nodes[n].row == row)
			return true;
	return false;
}

static double root_cost(const struct difftree *t)
{
	return t->root_base > t->root_new ? t->root_base : t->root_new;
}

/* The children one expansion shows, scaled: a kid and its costs on the path. */
struct shown {
	uint32_t kid;
	double base, new;
	uint32_t row;
};

static int cmp_shown(const void *a, const void *b)
{
	const struct shown *x = a, *y = b;

	return cmp_change(x->base, x->new, x->row, y->base, y->new, y->row);
}

/* Kid i, if not yet taken by this expansion. */
static void shown_add(struct difftree *t, const struct difftree_kids *k, uint32_t i, double rb,
		      double rn, struct shown *s, size_t *ns)
{
	if (t->seen[k->k[i].call] == t->gen)
		return;
	t->seen[k->k[i].call] = t->gen;
	s[(*ns)++] = (struct shown){i, k->k[i].base * rb, k->k[i].new *rn, k->k[i].row};
}

/* A new generation of marks in seen: no call is taken yet. */
static void seen_begin(struct difftree *t)
{
	if (!t->seen)
		t->seen = xcalloc(t->d->ncalls + 1, sizeof(uint32_t));
	if (++t->gen == 0) { /* wrapped: start the marks again */
		memset(t->seen, 0, (t->d->ncalls + 1) * sizeof(uint32_t));
		t->gen = 1;
	}
}

/*
 * The kids above the threshold on either side: the head of each side's
 * list (both read only as far as the threshold), by change, biggest first.
 * An only kid is taken whatever it costs.
 */
static struct shown *shown_kids(struct difftree *t, const struct difftree_kids *k, double rb,
				double rn, size_t *ns)
{
	double limit = root_cost(t) * t->threshold / 100.0;
	bool all = t->threshold <= 0 || k->n == 1;
	struct shown *s = xmalloc_array(k->n ? k->n : 1, sizeof(*s));

	seen_begin(t);
	*ns = 0;
	for (size_t i = 0; i < k->n; i++) {
		double b = k->k[k->by_base[i]].base * rb;

		if (!all && (b < limit || b <= 0))
			break;
		shown_add(t, k, k->by_base[i], rb, rn, s, ns);
	}
	for (size_t i = 0; i < k->n; i++) {
		double n = k->k[k->by_new[i]].new *rn;

		if (!all && (n < limit || n <= 0))
			break;
		shown_add(t, k, k->by_new[i], rb, rn, s, ns);
	}
	if (*ns > 1)
		qsort(s, *ns, sizeof(*s), cmp_shown);
	return s;
}

/* What n's children are scaled by on each side: the share of its row the path holds. */
static void kids_ratio(const struct difftree *t, uint32_t n, const struct difftree_kids *k,
		       double *rb, double *rn)
{
	*rb = k->spent_base > 0 ? t->nodes[n].base / k->spent_base : 0.0;
	*rn = k->spent_new > 0 ? t->nodes[n].new / k->spent_new : 0.0;
}

/* Kid sh of node n as node c (new when c is NCG_NONE). */
static uint32_t kid_add(struct difftree *t, uint32_t n, const struct difftree_kids *k,
			const struct shown *sh, uint32_t c)
{
	const struct difftree_kid *x = &k->k[sh->kid];
	struct difftree_node *y;
	const uint32_t *in;
	size_t first;
	bool leaf = calls_of(t, x->row, &in, &first) == 0;

	if (c == NCG_NONE)
		c = node_new(t, NODE_FUNCTION, x->row, n);
	y = &t->nodes[c];
	y->kind = NODE_FUNCTION;
	y->row = x->row;
	y->base = sh->base;
	y->new = sh->new;
	y->leaf = leaf;
	y->call = x->call;
	y->count_base = diff_call_count(t->d, x->call, false);
	y->count_new = diff_call_count(t->d, x->call, true);
	y->recursive = on_path(t, n, x->row);
	y->first_child = NCG_NONE;
	y->expanded = false;
	return c;
}

/* A fold row under n of count kids, at base and new (never below 0: rounding). */
static uint32_t fold_add(struct difftree *t, uint32_t n, size_t count, double base, double new)
{
	uint32_t more = node_new(t, NODE_MORE, NCG_NONE, n);

	t->nodes[more].count_new = count;
	t->nodes[more].base = base > 0 ? base : 0.0;
	t->nodes[more].new = new > 0 ? new : 0.0;
	t->nodes[more].leaf = true;
	return more;
}

static void make_children(struct difftree *t, uint32_t n, const struct difftree_kids *k)
{
	double rb, rn, fb, fn;
	size_t ns;
	struct shown *s;
	uint32_t last = NCG_NONE;

	kids_ratio(t, n, k, &rb, &rn);
	fb = k->sum_base * rb;
	fn = k->sum_new * rn;
	s = shown_kids(t, k, rb, rn, &ns);
	/* linked by index: node_new() may move the array */
	t->nodes[n].first_child = NCG_NONE;
	for (size_t i = 0; i < ns; i++) {
		uint32_t c = kid_add(t, n, k, &s[i], NCG_NONE);

		if (last == NCG_NONE)
			t->nodes[n].first_child = c;
		else
			t->nodes[last].next = c;
		last = c;
		fb -= s[i].base;
		fn -= s[i].new;
	}
	if (ns < k->n) {
		uint32_t more = fold_add(t, n, k->n - ns, fb, fn);

		if (last == NCG_NONE)
			t->nodes[n].first_child = more;
		else
			t->nodes[last].next = more;
	}
	wholes_share_chain(t, t->nodes[n].first_child, NCG_NONE, t->nodes[n].whole_base,
			   t->nodes[n].whole_new, false);
	free(s);
}

bool difftree_expand(struct difftree *t, uint32_t n)
{
	struct difftree_node *node = &t->nodes[n];
	uint32_t first = node->first_child;

	if (node->kind != NODE_FUNCTION || node->leaf || node->recursive)
		return false;
	if (first != NCG_NONE && t->nodes[first].kind == NODE_CUT)
		tree_cut_remove(&difftree_walk, t, &t->cut); /* only the cut row: expand */
	else if (first != NCG_NONE || node->expanded) {
		node->expanded = first != NCG_NONE;
		return node->expanded;
	}
	make_children(t, n, kids_of(t, node->row));
	t->nodes[n].expanded = t->nodes[n].first_child != NCG_NONE;
	return t->nodes[n].expanded;
}

void difftree_collapse(struct difftree *t, uint32_t n)
{
	t->nodes[n].expanded = false;
}

void difftree_collapse_all(struct difftree *t)
{
	tree_collapse_all(&difftree_walk, t);
}

/* Count n's row on the path of a walk (delta 1), or off it (-1). */
static void path_mark(struct difftree *t, uint32_t n, int delta)
{
	if (t->nodes[n].kind == NODE_FUNCTION)
		t->path_count[t->nodes[n].row] += (uint32_t)delta;
}

/* The rows above n, counted (for a walk from n down: recursion in O(1)). */
static void path_begin(struct difftree *t, uint32_t n)
{
	t->path_count = xcalloc(t->d->nrows + 1, sizeof(uint32_t));
	for (uint32_t a = t->nodes[n].parent; a != NCG_NONE; a = t->nodes[a].parent)
		path_mark(t, a, 1);
}

static void path_end(struct difftree *t)
{
	free(t->path_count);
	t->path_count = NULL;
}

/* The hot path may be a chain 100,000 calls deep: the counts keep each step O(1). */
void difftree_expand_hot(struct difftree *t, uint32_t n)
{
	if (n == NCG_NONE)
		return;
	path_begin(t, n);
	tree_expand_hot(&difftree_walk, t, n);
	path_end(t);
}

#define SLOT_WANTED (NCG_NONE - 1) /* a row looked for and not among the children */

/*
 * n's kids that none of its children shows (the ones in its fold row),
 * scaled, by change, biggest first: O(kids), read when a fold opens.
 */
static struct shown *folded_kids(struct difftree *t, uint32_t n, const struct difftree_kids *k,
				 double rb, double rn, size_t *ns)
{
	struct shown *s = xmalloc_array(k->n ? k->n : 1, sizeof(*s));

	seen_begin(t);
	for (uint32_t c = t->nodes[n].first_child; c != NCG_NONE; c = t->nodes[c].next)
		if (t->nodes[c].kind == NODE_FUNCTION && t->nodes[c].call != NCG_NONE)
			t->seen[t->nodes[c].call] = t->gen;
	*ns = 0;
	for (size_t i = 0; i < k->n; i++)
		shown_add(t, k, (uint32_t)i, rb, rn, s, ns);
	if (*ns > 1)
		qsort(s, *ns, sizeof(*s), cmp_shown);
	return s;
}

/*
 * Fold row f shows count more of its kids (count 0: as many as reach the
 * last one whose row's slot is SLOT_WANTED): the first takes the fold's
 * place, the others follow it, then a fold of the rest, then what followed
 * the fold (a cut row). Returns how many it showed.
 */
static size_t fold_open(struct difftree *t, uint32_t f, size_t count)
{
	uint32_t n = t->nodes[f].parent, after = t->nodes[f].next, last = f;
	const struct difftree_kids *k = kids_of(t, t->nodes[n].row);
	double rb, rn, fb = t->nodes[f].base, fn = t->nodes[f].new;
	uint64_t hb = t->nodes[f].whole_base, hn = t->nodes[f].whole_new; /* the fold's */
	size_t ns;
	struct shown *s;

	kids_ratio(t, n, k, &rb, &rn);
	s = folded_kids(t, n, k, rb, rn, &ns);
	for (size_t i = 0; !count && t->slot && i < ns; i++)
		if (t->slot[s[i].row] == SLOT_WANTED)
			count = i + 1;
	count = count < ns ? count : ns;
	if (count) {
		path_begin(t, f); /* recursion of count kids in O(count), not O(count x depth) */
		for (size_t i = 0; i < count; i++) {
			uint32_t c = kid_add(t, n, k, &s[i], i ? NCG_NONE : f);

			if (i)
				t->nodes[last].next = c;
			last = c;
			fb -= s[i].base;
			fn -= s[i].new;
		}
		path_end(t);
		if (count < ns) {
			uint32_t more = fold_add(t, n, ns - count, fb, fn);

			t->nodes[last].next = more;
			last = more;
		}
		t->nodes[last].next = after;
		wholes_share_chain(t, f, after, hb, hn, true);
	}
	free(s);
	return count;
}

bool difftree_unfold(struct difftree *t, uint32_t n, size_t rows)
{
	size_t shown;

	if (n >= t->nnodes || t->nodes[n].kind != NODE_MORE)
		return false;
	/* the kids shown beside it: all of its parent's but those it holds */
	shown = kids_of(t, t->nodes[t->nodes[n].parent].row)->n - t->nodes[n].count_new;
	fold_open(t, n, rows > shown ? rows : shown ? shown : 1);
	return true;
}

/* ---- the walks of treewalk.c -------------------------------------------- */

static struct tree_links *walk_links(void *tree, uint32_t n)
{
	return &((struct difftree *)tree)->nodes[n].links;
}

static bool walk_expand(void *tree, uint32_t n)
{
	return difftree_expand(tree, n);
}

static void walk_on_path(void *tree, uint32_t n, int delta)
{
	path_mark(tree, n, delta);
}

static size_t walk_count(const void *tree)
{
	return ((const struct difftree *)tree)->nnodes;
}

static uint32_t walk_new_cut(void *tree, uint32_t parent, size_t made)
{
	struct difftree *t = tree;
	uint32_t cut = node_new(t, NODE_CUT, NCG_NONE, parent);

	t->nodes[cut].count_new = made;
	t->nodes[cut].leaf = true;
	return cut;
}

/* a fold row ends a hot path */
static bool walk_follow(const void *tree, uint32_t n)
{
	return ((const struct difftree *)tree)->nodes[n].kind == NODE_FUNCTION;
}

static bool walk_barren(const void *tree, uint32_t n)
{
	const struct difftree_node *x = &((const struct difftree *)tree)->nodes[n];

	return x->kind != NODE_FUNCTION || x->leaf || x->recursive;
}

/* kind and row in one key; a fold row's is its kind alone (one fold a parent) */
static uint64_t walk_key(const void *tree, uint32_t n)
{
	const struct difftree_node *x = &((const struct difftree *)tree)->nodes[n];

	return (uint64_t)x->kind << 32 | (x->kind == NODE_FUNCTION ? x->row : 0);
}

/* The slot of a row's key; NULL for another kind, or a row past the diff's. */
static uint32_t *slot_of(struct difftree *t, uint64_t key)
{
	uint32_t row = (uint32_t)key;

	if ((enum tree_node_kind)(key >> 32) != NODE_FUNCTION || row >= t->d->nrows)
		return NULL;
	return &t->slot[row];
}

/* Each child of parent (NCG_NONE: each root) in its slot (on), or out again; the fold row. */
static uint32_t slots_fill(struct difftree *t, uint32_t parent, bool on)
{
	uint32_t fold = NCG_NONE, c, *s;
	size_t i = 0;

	c = parent == NCG_NONE ? (t->nroots ? t->roots[0] : NCG_NONE)
			       : t->nodes[parent].first_child;
	while (c != NCG_NONE) {
		if (t->nodes[c].kind == NODE_MORE)
			fold = c;
		else if ((s = slot_of(t, walk_key(t, c))) != NULL && (!on || *s == NCG_NONE))
			*s = on ? c : NCG_NONE;
		if (parent == NCG_NONE)
			c = ++i < t->nroots ? t->roots[i] : NCG_NONE;
		else
			c = t->nodes[c].next;
	}
	return fold;
}

static uint32_t slot_get(struct difftree *t, uint64_t key, uint32_t fold)
{
	uint32_t *s;

	if ((enum tree_node_kind)(key >> 32) == NODE_MORE)
		return fold;
	s = slot_of(t, key);
	return s && *s != SLOT_WANTED ? *s : NCG_NONE;
}

/* As calltree.c's: a slot per row, the fold opened once, as far as the rows wanted. */
static void walk_match(void *tree, uint32_t parent, const uint64_t *keys, size_t n, uint32_t *out)
{
	struct difftree *t = tree;
	size_t missing = 0;
	uint32_t fold, *s;

	if (t->nslot != (size_t)t->d->nrows + 1) {
		t->nslot = (size_t)t->d->nrows + 1;
		t->slot = xrealloc(t->slot, st_mult(t->nslot, sizeof(uint32_t)));
		memset(t->slot, 0xff, t->nslot * sizeof(uint32_t)); /* NCG_NONE */
	}
	fold = slots_fill(t, parent, true);
	for (size_t i = 0; i < n; i++) /* the fold row's key after the fold has opened */
		if ((out[i] = slot_get(t, keys[i], NCG_NONE)) == NCG_NONE &&
		    (s = slot_of(t, keys[i])) != NULL && *s == NCG_NONE) {
			*s = SLOT_WANTED;
			missing++;
		}
	slots_fill(t, parent, false);
	if (missing && fold != NCG_NONE)
		fold_open(t, fold, 0); /* its node is a row now: the fold is found again below */
	for (size_t i = 0; i < n; i++)
		if ((s = slot_of(t, keys[i])) != NULL && *s == SLOT_WANTED)
			*s = NCG_NONE;
	fold = slots_fill(t, parent, true);
	for (size_t i = 0; i < n; i++)
		if (out[i] == NCG_NONE)
			out[i] = slot_get(t, keys[i], fold);
	slots_fill(t, parent, false);
}

static const struct tree_walk_ops difftree_walk = {
    walk_links,  walk_expand, walk_on_path, walk_count, walk_new_cut,
    walk_follow, walk_barren, walk_key,     walk_match,
};

/* As calltree_expand_all(). */
bool difftree_expand_all(struct difftree *t, uint32_t n, uint32_t depth, size_t max_nodes)
{
	bool whole;

	path_begin(t, n);
	whole = tree_expand_all(&difftree_walk, t, n, depth, max_nodes, &t->cut);
	path_end(t);
	return whole;
}

void difftree_flatten(struct difftree *t)
{
	tree_flatten(&difftree_walk, t, t->roots, t->nroots, &t->visible, &t->nvisible,
		     &t->visible_alloc);
}

void difftree_save(struct difftree *t, size_t cursor, struct tree_saved *s)
{
	tree_save(&difftree_walk, t, t->visible, t->nvisible, cursor, s);
}

size_t difftree_restore(struct difftree *t, const struct tree_saved *s)
{
	uint32_t c = tree_restore(&difftree_walk, t, s);

	difftree_flatten(t);
	for (size_t i = 0; c != NCG_NONE && i < t->nvisible; i++)
		if (t->visible[i] == c)
			return i;
	return 0;
}
