/*
 * treewalk: flattening and expanding trees of nodes linked by index (see
 * treewalk.h). Every walk keeps its own stack: trees may be deep.
 */
#include "ncgrind/model/treewalk.h"
#include "ncgrind/core/util.h"

#include <stdlib.h>

static struct tree_links *L(const struct tree_walk_ops *ops, void *tree, uint32_t n)
{
	return ops->links(tree, n);
}

void tree_flatten(const struct tree_walk_ops *ops, void *tree, const uint32_t *roots, size_t nroots,
		  uint32_t **visible, size_t *n, size_t *alloc)
{
	uint32_t *stack = NULL;
	size_t sp = 0, cap = 0;

	*n = 0;
	for (size_t i = nroots; i-- > 0;) {
		ALLOC_GROW(stack, sp + 1, cap);
		stack[sp++] = roots[i];
	}
	while (sp) {
		uint32_t x = stack[--sp];
		size_t first = sp;

		ALLOC_GROW(*visible, *n + 1, *alloc);
		(*visible)[(*n)++] = x;
		if (!L(ops, tree, x)->expanded)
			continue;
		for (uint32_t c = L(ops, tree, x)->first_child; c != NCG_NONE;
		     c = L(ops, tree, c)->next) {
			ALLOC_GROW(stack, sp + 1, cap);
			stack[sp++] = c;
		}
		for (size_t i = first, j = sp; i + 1 < j; i++, j--) { /* reversed: out in order */
			uint32_t tmp = stack[i];

			stack[i] = stack[j - 1];
			stack[j - 1] = tmp;
		}
	}
	free(stack);
}

void tree_cut_remove(const struct tree_walk_ops *ops, void *tree, uint32_t *cut)
{
	uint32_t *link;

	if (*cut == NCG_NONE)
		return;
	for (link = &L(ops, tree, L(ops, tree, *cut)->parent)->first_child; *link != NCG_NONE;
	     link = &L(ops, tree, *link)->next)
		if (*link == *cut) {
			*link = L(ops, tree, *cut)->next;
			break;
		}
	*cut = NCG_NONE;
}

/* Leave a cut node as the last child of parent. */
static uint32_t cut_add(const struct tree_walk_ops *ops, void *tree, uint32_t parent)
{
	uint32_t cut = ops->new_cut(tree, parent, ops->count(tree)), *link;

	/* (new_cut may move the nodes: the links are read after it) */
	for (link = &L(ops, tree, parent)->first_child; *link != NCG_NONE;
	     link = &L(ops, tree, *link)->next)
		;
	*link = cut;
	L(ops, tree, parent)->expanded = true;
	return cut;
}

bool tree_expand_all(const struct tree_walk_ops *ops, void *tree, uint32_t n, uint32_t depth,
		     size_t max_nodes, uint32_t *cut)
{
	uint32_t *stack = xmalloc_array(64, sizeof(uint32_t)), *path = NULL;
	size_t sp = 0, cap = 64, np = 0, pcap = 0, made = ops->count(tree);
	size_t limit = max_nodes > SIZE_MAX - made ? SIZE_MAX : made + max_nodes;
	uint32_t base = L(ops, tree, n)->depth;
	bool whole = true;

	tree_cut_remove(ops, tree, cut);
	stack[sp++] = n;
	while (sp) {
		uint32_t cur = stack[--sp], rel = L(ops, tree, cur)->depth - base;

		if (ops->count(tree) >= limit && rel < depth && !ops->barren(tree, cur)) {
			uint32_t parent = L(ops, tree, cur)->parent;

			whole = false;
			*cut = cut_add(ops, tree, parent != NCG_NONE ? parent : cur);
			break;
		}
		for (; np > rel; np--) /* back up the path to cur's parent */
			ops->on_path(tree, path[np - 1], -1);
		if (rel >= depth)
			continue;
		ALLOC_GROW(path, np + 1, pcap);
		path[np++] = cur;
		ops->on_path(tree, cur, 1);
		if (!ops->expand(tree, cur))
			continue;
		for (uint32_t c = L(ops, tree, cur)->first_child; c != NCG_NONE;
		     c = L(ops, tree, c)->next) {
			ALLOC_GROW(stack, sp + 1, cap);
			stack[sp++] = c;
		}
	}
	for (; np > 0; np--)
		ops->on_path(tree, path[np - 1], -1);
	free(stack);
	free(path);
	return whole;
}

void tree_expand_hot(const struct tree_walk_ops *ops, void *tree, uint32_t n)
{
	for (;;) {
		uint32_t c;

		ops->on_path(tree, n, 1);
		if (!ops->expand(tree, n))
			break;
		c = L(ops, tree, n)->first_child;
		if (c == NCG_NONE || !ops->follow(tree, c))
			break;
		n = c;
	}
}

void tree_collapse_all(const struct tree_walk_ops *ops, void *tree)
{
	for (size_t i = 0, n = ops->count(tree); i < n; i++)
		L(ops, tree, (uint32_t)i)->expanded = false;
}

void tree_save(const struct tree_walk_ops *ops, void *tree, const uint32_t *visible,
	       size_t nvisible, size_t cursor, struct tree_saved *s)
{
	uint32_t *last = NULL; /* per depth: the last row saved at that depth */
	size_t alloc = 0;

	memset(s, 0, sizeof(*s));
	s->first_root = s->cursor = NCG_NONE;
	for (size_t i = 0; i < nvisible; i++) {
		const struct tree_links *x = L(ops, tree, visible[i]);
		uint32_t depth = x->depth, parent, r, *head;

		if (!x->expanded && i != cursor)
			continue;
		/* in display order a row's parent is the last row saved a level up (it is expanded)
		 */
		parent = depth ? last[depth - 1] : NCG_NONE;
		ALLOC_GROW(s->rows, s->n + 1, s->alloc);
		r = (uint32_t)s->n++;
		s->rows[r] = (struct tree_saved_row){ops->key(tree, visible[i]), parent, NCG_NONE,
						     NCG_NONE, x->expanded};
		head = parent == NCG_NONE ? &s->first_root : &s->rows[parent].first_child;
		s->rows[r].next = *head;
		*head = r;
		if (i == cursor)
			s->cursor = r;
		ALLOC_GROW(last, (size_t)depth + 1, alloc);
		last[depth] = r;
	}
	free(last);
}

/* Scratch of tree_restore(): one parent's saved children, their keys, their nodes. */
struct restore_buf {
	uint64_t *keys;
	uint32_t *which, *out;
	size_t n, alloc;
};

static void restore_push(struct restore_buf *b, uint64_t key, uint32_t row)
{
	if (b->n == b->alloc) { /* three arrays of one size */
		b->alloc = st_add(b->alloc, b->alloc + 16);
		b->keys = xrealloc(b->keys, st_mult(b->alloc, sizeof(*b->keys)));
		b->which = xrealloc(b->which, st_mult(b->alloc, sizeof(*b->which)));
		b->out = xrealloc(b->out, st_mult(b->alloc, sizeof(*b->out)));
	}
	b->keys[b->n] = key;
	b->which[b->n++] = row;
}

/* Each parent's saved children are matched at once: a fold opens once, as far as they need. */
uint32_t tree_restore(const struct tree_walk_ops *ops, void *tree, const struct tree_saved *s)
{
	uint32_t *found = xmalloc_array(s->n ? s->n : 1, sizeof(uint32_t)), *stack = NULL, r;
	size_t sp = 0, cap = 0;
	struct restore_buf b = {NULL, NULL, NULL, 0, 0};

	for (size_t i = 0; i < s->n; i++)
		found[i] = NCG_NONE;
	ALLOC_GROW(stack, sp + 1, cap);
	stack[sp++] = NCG_NONE; /* the roots */
	while (sp) {
		r = stack[--sp];
		b.n = 0;
		for (uint32_t c = r == NCG_NONE ? s->first_root : s->rows[r].first_child;
		     c != NCG_NONE; c = s->rows[c].next)
			restore_push(&b, s->rows[c].key, c);
		if (!b.n)
			continue;
		ops->match(tree, r == NCG_NONE ? NCG_NONE : found[r], b.keys, b.n, b.out);
		for (size_t i = 0; i < b.n; i++) {
			uint32_t c = b.which[i];

			found[c] = b.out[i];
			if (found[c] != NCG_NONE && s->rows[c].expanded &&
			    ops->expand(tree, found[c])) {
				ALLOC_GROW(stack, sp + 1, cap);
				stack[sp++] = c;
			}
		}
	}
	for (r = s->cursor; r != NCG_NONE && found[r] == NCG_NONE; r = s->rows[r].parent)
		;
	r = r == NCG_NONE ? NCG_NONE : found[r];
	free(found);
	free(stack);
	free(b.keys);
	free(b.which);
	free(b.out);
	return r;
}

void tree_saved_release(struct tree_saved *s)
{
	free(s->rows);
	memset(s, 0, sizeof(*s));
}

/* ---- whole costs ------------------------------------------------------------ */

/*
 * A remainder of the share-out: how big (in billionths, so that two costs
 * worked out by two ways, a diff's and a profile's, tie as they should),
 * and of which cost.
 */
struct share_rest {
	uint64_t frac, key;
	size_t i;
};

/* Largest first; ties by key (the same node gets the unit in every tree), then index. */
static int cmp_share_rest(const void *a, const void *b)
{
	const struct share_rest *x = a, *y = b;

	if (x->frac != y->frac)
		return x->frac < y->frac ? 1 : -1;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/*
 * A cost rounded down, a near-whole one (a share's error of rounding,
 * 4.9999999999 for 5) first taken for the whole number it stands for.
 */
static uint64_t cost_floor(double v, double *frac)
{
	uint64_t r = u64_from_double(v); /* the nearest whole number, 0 for v <= 0 */
	double d = v - (double)r, slack = 1e-9 * (double)r;

	*frac = 0.0;
	if (!(v > 0.0) || v >= 9007199254740992.0 || (d <= slack && -d <= slack))
		return r; /* (from 2^53 on every double is whole) */
	*frac = v - (double)(uint64_t)v;
	return (uint64_t)v;
}

/*
 * Past `whole` (the doubles' error of rounding: a unit or two), the last
 * ones with a unit give it back; the units left go one each to the
 * largest fractions, so none gets more than its cost rounded up.
 */
void tree_wholes(const double *cost, const uint64_t *key, size_t n, uint64_t whole, bool all,
		 uint64_t *out)
{
	struct share_rest *rest = xmalloc_array(n ? n : 1, sizeof(*rest));
	uint64_t sum = 0, target;
	double exact = 0.0, frac;

	for (size_t i = 0; i < n; i++) {
		out[i] = cost_floor(cost[i], &frac);
		rest[i] = (struct share_rest){(uint64_t)(frac * 1e9 + 0.5), key ? key[i] : i, i};
		u64_add_sat(&sum, out[i]);
		exact += cost[i] > 0 ? cost[i] : 0.0;
	}
	target = !all && u64_from_double(exact) < whole ? u64_from_double(exact) : whole;
	for (size_t i = n; i-- > 0 && sum > target;) {
		uint64_t back = out[i] < sum - target ? out[i] : sum - target;

		out[i] -= back;
		sum -= back;
	}
	if (n > 1 && sum < target)
		qsort(rest, n, sizeof(*rest), cmp_share_rest);
	for (size_t k = 0; k < n && sum < target && rest[k].frac > 0; k++, sum++)
		out[rest[k].i]++;
	free(rest);
}
