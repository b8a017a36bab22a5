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

/*
 * A name's 8 bytes from `at`, big-endian, 0 past its end: names whose bytes
 * before `at` are the same are ordered as these are, or equal.
 */
static uint64_t name_bytes_at(struct span s, size_t at)
{
	uint64_t k = 0;

	for (size_t i = at; i < at + 8; i++)
		k = k << 8 | (i < s.len ? (unsigned char)s.ptr[i] : 0u);
	return k;
}

static uint64_t name_prefix(struct span s)
{
	return name_bytes_at(s, 0);
}

struct name_ref {
	struct span s;
	uint32_t slot;
};

static int cmp_name_ref(const void *va, const void *vb)
{
	return cmp_span(((const struct name_ref *)va)->s, ((const struct name_ref *)vb)->s);
}

/*
 * A few names by all their bytes (a run too short for a pass of its own).
 * Their keys become their places, equal names keeping the same one, so
 * that name_ranks() need not read them again to tell them apart.
 */
static void sort_by_bytes(const struct profile *p, struct keyed *a, size_t n, struct name_ref *r)
{
	for (size_t k = 0; k < n; k++)
		r[k] = (struct name_ref){slot_span(p, a[k].idx), a[k].idx};
	qsort(r, n, sizeof(*r), cmp_name_ref);
	for (size_t k = 0; k < n; k++) {
		a[k].idx = r[k].slot;
		a[k].key = k && !cmp_span(r[k].s, r[k - 1].s) ? a[k - 1].key : k;
	}
}

#define NAMES_AHEAD 64
#define RUN_SHORT 16 /* a run this short is sorted by comparing its names */

/* A run of names whose first `at` bytes (0 past the end) are the same. */
struct name_run {
	size_t from, to, at;
};

/*
 * The names of run [from, to) that end by its `at` bytes go first, shortest
 * first (each is the start of the names after it); the others are keyed by
 * their next 8 bytes. Returns where the others start.
 */
static size_t key_run(const struct profile *p, struct keyed *a, struct keyed *tmp,
		      const struct name_run *run)
{
	size_t ended = 0, rest = 0, n = run->to - run->from;
	struct keyed *r = a + run->from, *t = tmp + run->from;

	for (size_t k = 0; k < n; k++) {
		struct span s;

		/* the names are all over the file: each one a miss, overlapped */
		if (k + NAMES_AHEAD < n)
			__builtin_prefetch(&p->names.spans[r[k + NAMES_AHEAD].idx]);
		if (k + NAMES_AHEAD / 2 < n) {
			s = slot_span(p, r[k + NAMES_AHEAD / 2].idx);
			if (s.len > run->at)
				__builtin_prefetch(s.ptr + run->at);
		}
		s = slot_span(p, r[k].idx);
		if (s.len <= run->at)
			r[ended++] = (struct keyed){s.len, r[k].idx};
		else
			t[rest++] = (struct keyed){name_bytes_at(s, run->at), r[k].idx};
	}
	if (ended > 1) {
		struct keyed *sorted = radix_sort(r, t + rest, ended);

		if (sorted != r)
			memcpy(r, sorted, ended * sizeof(*r));
	}
	memcpy(r + ended, t, rest * sizeof(*r));
	return run->from + ended;
}

/*
 * Runs of names (sorted by prefix) that share their first 8 bytes, by all
 * their bytes: a radix pass on their next 8 bytes, and again on the runs
 * that share those (an MSD radix sort). C++ names share long prefixes
 * (a namespace, a class template): sorted by memcmp, each comparison read
 * two names from all over a 5 GiB file, the most of the ranking's time.
 */
static void sort_prefix_runs(const struct profile *p, struct keyed *a, size_t n)
{
	struct keyed *tmp = NULL;
	struct name_ref *refs = NULL;
	struct name_run *stack = NULL;
	size_t depth = 0, stack_alloc = 0;

	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && a[j].key == a[i].key; j++)
			;
		if (j - i < 2)
			continue;
		ALLOC_GROW(stack, depth + 1, stack_alloc);
		stack[depth++] = (struct name_run){i, j, 8};
	}
	if (depth) {
		tmp = xmalloc_array(n, sizeof(*tmp));
		refs = xmalloc_array(RUN_SHORT, sizeof(*refs));
	}
	while (depth) {
		struct name_run run = stack[--depth];
		struct keyed *sorted;
		size_t from;

		if (run.to - run.from <= RUN_SHORT) {
			sort_by_bytes(p, a + run.from, run.to - run.from, refs);
			continue;
		}
		from = key_run(p, a, tmp, &run);
		if (run.to - from < 2)
			continue;
		sorted = radix_sort(a + from, tmp + from, run.to - from);
		if (sorted != a + from)
			memcpy(a + from, sorted, (run.to - from) * sizeof(*a));
		for (size_t i = from, j; i < run.to; i = j) {
			for (j = i + 1; j < run.to && a[j].key == a[i].key; j++)
				;
			if (j - i < 2)
				continue;
			ALLOC_GROW(stack, depth + 1, stack_alloc);
			stack[depth++] = (struct name_run){i, j, run.at + 8};
		}
	}
	free(stack);
	free(refs);
	free(tmp);
}

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
		if (s + NAMES_AHEAD < p->names.nr && rank[s + NAMES_AHEAD] &&
		    p->names.spans[s + NAMES_AHEAD].ptr)
			__builtin_prefetch(p->names.spans[s + NAMES_AHEAD].ptr);
		if (rank[s])
			a[k++] =
			    (struct keyed){name_prefix(slot_span(p, (uint32_t)s)), (uint32_t)s};
	}
	r = radix_sort(a, tmp, m);
	sort_prefix_runs(p, r, m);
	/* (keys differ: names differ; a name has the same key at every depth) */
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

#define FIRST_MIN 20000 /* functions: fewer are all sorted, at once */

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

/* The used functions that keep lets through, in index order, *n of them (caller frees). */
static uint32_t *listed_functions(const struct profile *p, const bool *keep, size_t *n)
{
	uint32_t *idx = xmalloc_array(p->nfuncs ? p->nfuncs : 1, sizeof(uint32_t));

	*n = 0;
	for (size_t f = 0; f < p->nfuncs; f++)
		if (profile_function_used(p, (uint32_t)f) && (!keep || keep[f]))
			idx[(*n)++] = (uint32_t)f;
	return idx;
}

/* The n functions of idx (in index order) into report order, in place. */
static void order_functions(const struct profile *p, enum report_sort sort, uint32_t ev,
			    uint32_t *idx, size_t n)
{
	struct order o;

	order_init(&o, n);
	if (p->fn_rank) { /* the names ranked once (profile_finish()): one pass */
		for (size_t i = 0; i < n; i++)
			o.keys[i] = p->fn_rank[idx[i]];
		order_pass(&o);
	} else {
		free(order_by_names(&o, p, idx));
	}
	if (sort != SORT_NAME && n > 1) { /* qsort compared no row of one: read no cost */
		for (size_t i = 0; i < n; i++)
			o.keys[i] = ~function_cost(p, sort, ev, idx[i]);
		order_pass(&o);
	}
	order_apply(&o, idx);
	order_release(&o);
}

uint32_t *report_sort_functions(const struct profile *p, enum report_sort sort, uint32_t ev,
				const bool *keep, size_t *n)
{
	uint32_t *idx;

	if (sort == SORT_SELF && ev == 0 && !keep && p->self_order && !p->all) {
		*n = p->nself_order; /* (the kept index's, checked when it was read) */
		idx = xmalloc_array(*n ? *n : 1, sizeof(uint32_t));
		memcpy(idx, p->self_order, *n * sizeof(uint32_t));
		return idx;
	}
	idx = listed_functions(p, keep, n);

	order_functions(p, sort, ev, idx, *n);
	return idx;
}

/*
 * The k-th largest of the n costs (k <= n): a heap of the k largest seen,
 * its least on top. O(n log k), whatever the costs.
 */
static uint64_t kth_largest(const uint64_t *cost, size_t n, size_t k)
{
	uint64_t *h = xmalloc_array(k, sizeof(*h)), top;

	for (size_t i = 0; i < n; i++) {
		size_t at;

		if (i < k) { /* sift up */
			for (at = i; at && h[(at - 1) / 2] > cost[i]; at = (at - 1) / 2)
				h[at] = h[(at - 1) / 2];
			h[at] = cost[i];
			continue;
		}
		if (cost[i] <= h[0])
			continue;
		for (at = 0;;) { /* the least goes, cost[i] sifts down from the top */
			size_t c = 2 * at + 1;

			if (c >= k)
				break;
			if (c + 1 < k && h[c + 1] < h[c])
				c++;
			if (h[c] >= cost[i])
				break;
			h[at] = h[c];
			at = c;
		}
		h[at] = cost[i];
	}
	top = h[0];
	free(h);
	return top;
}

uint32_t *report_sort_functions_first(const struct profile *p, enum report_sort sort, uint32_t ev,
				      const bool *keep, size_t k, size_t *n)
{
	uint32_t *idx = listed_functions(p, keep, n), *out;
	uint64_t *cost, least;
	size_t m = 0, rest;

	if (sort == SORT_NAME || !k || *n <= FIRST_MIN || k >= *n / 4) {
		order_functions(p, sort, ev, idx, *n);
		return idx;
	}
	cost = xmalloc_array(*n, sizeof(uint64_t));
	for (size_t i = 0; i < *n; i++)
		cost[i] = function_cost(p, sort, ev, idx[i]);
	least = kth_largest(cost, *n, k);
	/* every function that costs as much as the k-th (the k first are among them) first */
	for (size_t i = 0; i < *n; i++)
		m += cost[i] >= least;
	if (m > *n / 4) { /* ties at the k-th: as good as all */
		free(cost);
		order_functions(p, sort, ev, idx, *n);
		return idx;
	}
	out = xmalloc_array(*n, sizeof(uint32_t));
	rest = m;
	m = 0;
	for (size_t i = 0; i < *n; i++)
		out[cost[i] >= least ? m++ : rest++] = idx[i];
	order_functions(p, sort, ev, out, m);
	free(cost);
	free(idx);
	return out;
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
