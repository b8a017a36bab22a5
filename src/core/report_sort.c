/*
 * report_sort: the orders of the function and call reports (and of the
 * browser's function table). Every order ends with the names (function,
 * file, object, compared as bytes) and then the index; the cost orders put
 * a cost, descending, first; calls compare the caller's names, then the
 * callee's.
 *
 * Each order is a chain of stable radix sorts, least significant key
 * first, over positions in a list of indices in index order: the object's
 * rank, the file's, the name's, then ~cost; equal keys keep the order of
 * the passes before. The ranks come from one sort of the distinct names by
 * their bytes. A comparator that read the rows (qsort) went to memory for
 * every comparison: 5.6% of the time of a report on a 1 GiB profile.
 */
#include "ncgrind/core/graph.h"
#include "ncgrind/core/report.h"

#include <stdlib.h>

/* The list being sorted: positions into the caller's list, and room for the next pass. */
struct order {
	struct keyed *a, *tmp;
	uint64_t *keys; /* a key per position, filled for each pass */
	size_t n;
};

static void order_init(struct order *o, size_t n)
{
	o->a = xmalloc_array(n, sizeof(*o->a));
	o->tmp = xmalloc_array(n, sizeof(*o->tmp));
	o->keys = xmalloc_array(n, sizeof(*o->keys));
	o->n = n;
	for (size_t i = 0; i < n; i++)
		o->a[i].idx = (uint32_t)i;
}

static void order_release(struct order *o)
{
	free(o->a);
	free(o->tmp);
	free(o->keys);
}

/* Sort by o->keys, stably: equal keys keep the order of the passes before. */
static void order_pass(struct order *o)
{
	struct keyed *r;

	for (size_t i = 0; i < o->n; i++)
		o->a[i].key = o->keys[o->a[i].idx];
	r = radix_sort(o->a, o->tmp, o->n);
	if (r != o->a) {
		o->tmp = o->a;
		o->a = r;
	}
}

/* list (o->n indices) in the order found, in place. */
static void order_apply(const struct order *o, uint32_t *list)
{
	uint32_t *copy = xmalloc_array(o->n, sizeof(*copy));

	for (size_t i = 0; i < o->n; i++)
		copy[i] = list[o->a[i].idx];
	memcpy(list, copy, o->n * sizeof(*copy));
	free(copy);
}

static int cmp_span(struct span a, struct span b)
{
	size_t n = a.len < b.len ? a.len : b.len;
	int c = n ? memcmp(a.ptr, b.ptr, n) : 0;

	return c ? c : (a.len > b.len) - (a.len < b.len);
}

/* A name id, with the slot after the last name for NCG_NONE (the empty name). */
static uint32_t name_slot(const struct profile *p, uint32_t id)
{
	return id == NCG_NONE ? (uint32_t)p->names.nr : id;
}

static struct span slot_span(const struct profile *p, uint32_t slot)
{
	return slot == p->names.nr ? span_make("", 0) : names_get(&p->names, slot);
}

/* A name's first 8 bytes, big-endian, 0 past its end: ordered as its bytes are, or equal. */
static uint64_t name_prefix(struct span s)
{
	uint64_t k = 0;

	for (size_t i = 0; i < 8; i++)
		k = k << 8 | (i < s.len ? (unsigned char)s.ptr[i] : 0u);
	return k;
}

struct name_ref {
	struct span s;
	uint32_t slot;
};

static int cmp_name_ref(const void *va, const void *vb)
{
	return cmp_span(((const struct name_ref *)va)->s, ((const struct name_ref *)vb)->s);
}

/* Runs of names (sorted by prefix) that share their first 8 bytes, by all their bytes. */
static void sort_prefix_runs(const struct profile *p, struct keyed *a, size_t n)
{
	struct name_ref *r = NULL;

	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && a[j].key == a[i].key; j++)
			;
		if (j - i < 2)
			continue;
		if (!r)
			r = xmalloc_array(n, sizeof(*r));
		for (size_t k = i; k < j; k++)
			r[k - i] = (struct name_ref){slot_span(p, a[k].idx), a[k].idx};
		qsort(r, j - i, sizeof(*r), cmp_name_ref);
		for (size_t k = i; k < j; k++)
			a[k].idx = r[k - i].slot;
	}
	free(r);
}

#define NAMES_AHEAD 64

/*
 * Ranks of the names of fns (n functions), by name slot: equal bytes, equal
 * rank (only an empty name and NCG_NONE can share them). Other slots are 0.
 */
static uint32_t *name_ranks(const struct profile *p, const uint32_t *fns, size_t n)
{
	uint32_t *rank = xcalloc(st_add(p->names.nr, 1), sizeof(*rank));
	struct keyed *a, *tmp, *r;
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		const struct function *fn = &p->funcs[fns[i]];

		rank[name_slot(p, fn->name)] = rank[name_slot(p, fn->file)] =
		    rank[name_slot(p, fn->object)] = 1;
	}
	for (size_t s = 0; s <= p->names.nr; s++)
		m += rank[s];
	a = xmalloc_array(m, sizeof(*a));
	tmp = xmalloc_array(m, sizeof(*tmp));
	for (size_t s = 0, k = 0; s <= p->names.nr; s++) {
		/* the names are all over the file: each one a miss, overlapped */
		if (s + NAMES_AHEAD < p->names.nr && p->names.spans[s + NAMES_AHEAD].ptr)
			__builtin_prefetch(p->names.spans[s + NAMES_AHEAD].ptr);
		if (rank[s])
			a[k++] =
			    (struct keyed){name_prefix(slot_span(p, (uint32_t)s)), (uint32_t)s};
	}
	r = radix_sort(a, tmp, m);
	sort_prefix_runs(p, r, m);
	for (size_t k = 0, v = 0; k < m; k++) {
		if (k && (r[k].key != r[k - 1].key ||
			  !span_eq(slot_span(p, r[k].idx), slot_span(p, r[k - 1].idx))))
			v++;
		rank[r[k].idx] = (uint32_t)v;
	}
	free(a);
	free(tmp);
	return rank;
}

/*
 * Order fns (o->n functions, in index order) by name, file and object; the
 * ties stay in index order. Returns the ranks of their names (caller frees).
 */
static uint32_t *order_by_names(struct order *o, const struct profile *p, const uint32_t *fns)
{
	uint32_t *rank = name_ranks(p, fns, o->n);

	for (size_t i = 0; i < o->n; i++)
		o->keys[i] = rank[name_slot(p, p->funcs[fns[i]].object)];
	order_pass(o);
	for (size_t i = 0; i < o->n; i++)
		o->keys[i] = rank[name_slot(p, p->funcs[fns[i]].file)];
	order_pass(o);
	for (size_t i = 0; i < o->n; i++)
		o->keys[i] = rank[name_slot(p, p->funcs[fns[i]].name)];
	order_pass(o);
	return rank;
}

static uint64_t function_cost(const struct profile *p, enum report_sort sort, uint32_t ev,
			      uint32_t f)
{
	switch (sort) {
	case SORT_SELF:
		return profile_self_at(p, f, ev);
	case SORT_INCL:
		return profile_incl_at(p, f, ev);
	default:
		return p->funcs[f].calls;
	}
}

uint32_t *report_sort_functions(const struct profile *p, enum report_sort sort, uint32_t ev,
				const bool *keep, size_t *n)
{
	uint32_t *idx = xmalloc_array(p->nfuncs, sizeof(uint32_t));
	struct order o;

	*n = 0;
	for (size_t f = 0; f < p->nfuncs; f++)
		if (profile_function_used(p, (uint32_t)f) && (!keep || keep[f]))
			idx[(*n)++] = (uint32_t)f;
	order_init(&o, *n);
	if (p->fn_rank) { /* the names ranked once (profile_finish()): one pass */
		for (size_t i = 0; i < *n; i++)
			o.keys[i] = p->fn_rank[idx[i]];
		order_pass(&o);
	} else {
		free(order_by_names(&o, p, idx));
	}
	if (sort != SORT_NAME && *n > 1) { /* qsort compared no row of one: read no cost */
		for (size_t i = 0; i < *n; i++)
			o.keys[i] = ~function_cost(p, sort, ev, idx[i]);
		order_pass(&o);
	}
	order_apply(&o, idx);
	order_release(&o);
	return idx;
}

static bool same_names(const struct profile *p, const uint32_t *rank, uint32_t f, uint32_t g)
{
	const struct function *a = &p->funcs[f], *b = &p->funcs[g];

	return rank[name_slot(p, a->name)] == rank[name_slot(p, b->name)] &&
	       rank[name_slot(p, a->file)] == rank[name_slot(p, b->file)] &&
	       rank[name_slot(p, a->object)] == rank[name_slot(p, b->object)];
}

/*
 * fnrank[f] for each f of fns (m of them): its rank in the order of the
 * functions' names (equal names, equal rank); the other slots are left.
 */
static void rank_functions(const struct profile *p, const uint32_t *fns, size_t m, uint32_t *fnrank)
{
	struct order o;
	uint32_t *rank;

	order_init(&o, m);
	rank = order_by_names(&o, p, fns);
	for (size_t k = 0, v = 0; k < m; k++) {
		uint32_t f = fns[o.a[k].idx];

		if (k && !same_names(p, rank, fns[o.a[k - 1].idx], f))
			v++;
		fnrank[f] = (uint32_t)v;
	}
	order_release(&o);
	free(rank);
}

uint32_t *report_rank_functions(const struct profile *p)
{
	uint32_t *fns = xmalloc_array(p->nfuncs, sizeof(uint32_t));
	uint32_t *fnrank = xmalloc_array(p->nfuncs, sizeof(uint32_t));

	for (size_t f = 0; f < p->nfuncs; f++)
		fns[f] = (uint32_t)f;
	rank_functions(p, fns, p->nfuncs, fnrank);
	free(fns);
	return fnrank;
}

/*
 * The rank of each end of the edges (n of idx) in the order of their names,
 * by function index (the other functions' ranks are not set; caller frees).
 */
static uint32_t *function_ranks(const struct profile *p, const uint32_t *idx, size_t n)
{
	bool *end = xcalloc(p->nfuncs, sizeof(bool));
	uint32_t *fns = xmalloc_array(p->nfuncs, sizeof(uint32_t));
	uint32_t *fnrank = xmalloc_array(p->nfuncs, sizeof(uint32_t));
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		end[p->edges[idx[i]].caller] = end[p->edges[idx[i]].callee] = true;
	for (size_t f = 0; f < p->nfuncs; f++)
		if (end[f])
			fns[m++] = (uint32_t)f;
	rank_functions(p, fns, m, fnrank);
	free(fns);
	free(end);
	return fnrank;
}

uint32_t *report_sort_calls(const struct profile *p, struct call_shares *shares,
			    enum report_sort sort, uint32_t ev, const bool *keep, size_t *n)
{
	uint32_t *idx = xmalloc_array(p->nedges, sizeof(uint32_t)), *fnrank;
	struct order o;

	*n = 0;
	for (size_t e = 0; e < p->nedges; e++)
		if ((!keep || (keep[p->edges[e].caller] && keep[p->edges[e].callee])) &&
		    profile_edge_counts(p, (uint32_t)e))
			idx[(*n)++] = (uint32_t)e;
	fnrank = p->fn_rank ? p->fn_rank : function_ranks(p, idx, *n);
	order_init(&o, *n);
	for (size_t i = 0; i < *n; i++)
		o.keys[i] = fnrank[p->edges[idx[i]].callee];
	order_pass(&o);
	for (size_t i = 0; i < *n; i++)
		o.keys[i] = fnrank[p->edges[idx[i]].caller];
	order_pass(&o);
	if (sort != SORT_NAME && *n > 1) {
		for (size_t i = 0; i < *n; i++)
			o.keys[i] = ~(sort == SORT_CALLS ? p->edges[idx[i]].count
							 : call_shares_cost(shares, p, idx[i], ev));
		order_pass(&o);
	}
	order_apply(&o, idx);
	order_release(&o);
	if (fnrank != p->fn_rank)
		free(fnrank);
	return idx;
}
