/*
 * graph: Tarjan's strongly connected components over a CSR adjacency built
 * from the aggregated call edges, then inclusive costs (see graph.h for the
 * definition). Linear in functions + edges, times the number of events.
 */
#include "ncgrind/graph.h"

#include <stdlib.h>

/* Group the edges by an endpoint: start[f]..start[f + 1] index edge[]. */
static void group_edges(const struct profile *p, bool by_callee, uint32_t **startp,
			uint32_t **edgep)
{
	size_t n = p->nfuncs;
	uint32_t *start = xcalloc(n + 2, sizeof(uint32_t));
	uint32_t *edge = xmalloc((p->nedges ? p->nedges : 1) * sizeof(uint32_t));
	uint32_t *fill = xmalloc((n ? n : 1) * sizeof(uint32_t));

	for (size_t e = 0; e < p->nedges; e++)
		start[(by_callee ? p->edges[e].callee : p->edges[e].caller) + 1]++;
	for (size_t f = 0; f < n; f++)
		start[f + 1] += start[f];
	memcpy(fill, start, n * sizeof(uint32_t));
	for (size_t e = 0; e < p->nedges; e++)
		edge[fill[by_callee ? p->edges[e].callee : p->edges[e].caller]++] = (uint32_t)e;
	free(fill);
	*startp = start;
	*edgep = edge;
}

void callgraph_init(struct callgraph *g, const struct profile *p)
{
	group_edges(p, false, &g->out_start, &g->out_edge);
	group_edges(p, true, &g->in_start, &g->in_edge);
}

void callgraph_release(struct callgraph *g)
{
	free(g->out_start);
	free(g->out_edge);
	free(g->in_start);
	free(g->in_edge);
	memset(g, 0, sizeof(*g));
}

struct frame {
	uint32_t v, it;
};

struct tarjan {
	uint32_t *index, *low, *stack, *scc;
	unsigned char *on_stack;
	struct frame *frames;
	uint32_t counter, sp, nscc;
};

static void tarjan_visit(struct tarjan *t, uint32_t v)
{
	t->index[v] = t->low[v] = t->counter++;
	t->stack[t->sp++] = v;
	t->on_stack[v] = 1;
}

/* Pop the component whose root is v. */
static void tarjan_pop(struct tarjan *t, uint32_t v)
{
	uint32_t w;

	do {
		w = t->stack[--t->sp];
		t->on_stack[w] = 0;
		t->scc[w] = t->nscc;
	} while (w != v);
	t->nscc++;
}

static void tarjan_from(const struct profile *p, const struct callgraph *g, struct tarjan *t,
			uint32_t root)
{
	size_t depth = 0;

	tarjan_visit(t, root);
	t->frames[depth++] = (struct frame){root, g->out_start[root]};
	while (depth) {
		struct frame *f = &t->frames[depth - 1];
		uint32_t v = f->v;

		if (f->it < g->out_start[v + 1]) {
			uint32_t w = p->edges[g->out_edge[f->it++]].callee;

			if (t->index[w] == NCG_NONE) {
				tarjan_visit(t, w);
				t->frames[depth++] = (struct frame){w, g->out_start[w]};
			} else if (t->on_stack[w] && t->index[w] < t->low[v]) {
				t->low[v] = t->index[w];
			}
			continue;
		}
		depth--;
		if (t->low[v] == t->index[v])
			tarjan_pop(t, v);
		if (depth) {
			uint32_t u = t->frames[depth - 1].v;

			if (t->low[v] < t->low[u])
				t->low[u] = t->low[v];
		}
	}
}

/* Component id of every function (the caller owns the returned array). */
static uint32_t *graph_components(const struct profile *p, const struct callgraph *g)
{
	size_t n = p->nfuncs ? p->nfuncs : 1;
	struct tarjan t = {0};

	t.index = xmalloc(n * sizeof(uint32_t));
	t.low = xmalloc(n * sizeof(uint32_t));
	t.stack = xmalloc(n * sizeof(uint32_t));
	t.scc = xmalloc(n * sizeof(uint32_t));
	t.on_stack = xcalloc(n, 1);
	t.frames = xmalloc(n * sizeof(struct frame));
	memset(t.index, 0xff, n * sizeof(uint32_t));
	for (size_t v = 0; v < p->nfuncs; v++)
		if (t.index[v] == NCG_NONE)
			tarjan_from(p, g, &t, (uint32_t)v);
	free(t.index);
	free(t.low);
	free(t.stack);
	free(t.on_stack);
	free(t.frames);
	return t.scc;
}

/* Number the components with more than one function as cycles 1, 2, ... */
static void name_cycles(struct profile *p, const uint32_t *scc, uint32_t **cycle_of_scc)
{
	size_t n = p->nfuncs ? p->nfuncs : 1;
	uint32_t *size = xcalloc(n, sizeof(uint32_t));
	uint32_t *num = xcalloc(n, sizeof(uint32_t));

	for (size_t f = 0; f < p->nfuncs; f++)
		size[scc[f]]++;
	p->ncycles = 0;
	/* in function order, so that cycle numbers do not depend on Tarjan's order */
	for (size_t f = 0; f < p->nfuncs; f++)
		if (size[scc[f]] > 1 && !num[scc[f]])
			num[scc[f]] = ++p->ncycles;
	for (size_t f = 0; f < p->nfuncs; f++)
		p->funcs[f].cycle = num[scc[f]];
	for (size_t e = 0; e < p->nedges; e++)
		if (scc[p->edges[e].caller] == scc[p->edges[e].callee])
			p->funcs[p->edges[e].callee].recursive = true;
	free(size);
	*cycle_of_scc = num;
}

static void add_row_sat(uint64_t *dst, const uint64_t *src, uint32_t nev)
{
	for (uint32_t i = 0; i < nev; i++)
		u64_add_sat(&dst[i], src[i]);
}

/* in(f) for every f: the calls from other components. */
static void incoming(struct profile *p, const uint32_t *scc)
{
	for (size_t e = 0; e < p->nedges; e++) {
		const struct call_edge *ce = &p->edges[e];

		if (scc[ce->caller] != scc[ce->callee])
			add_row_sat(p->incl + (size_t)ce->callee * p->nev,
				    profile_edge_cost(p, (uint32_t)e), p->nev);
	}
}

/* self(f) + out(f) into row. */
static void self_and_out(const struct profile *p, const struct callgraph *g, const uint32_t *scc,
			 uint32_t f, uint64_t *row)
{
	memcpy(row, profile_self(p, f), p->nev * sizeof(uint64_t));
	for (uint32_t i = g->out_start[f]; i < g->out_start[f + 1]; i++) {
		uint32_t e = g->out_edge[i];

		if (scc[p->edges[e].callee] != scc[f])
			add_row_sat(row, profile_edge_cost(p, e), p->nev);
	}
}

/* Cut row down to cap; remember in excess (if given) the largest cut per event. */
static void cap_row(uint64_t *row, const uint64_t *cap, uint32_t nev, uint64_t *excess)
{
	for (uint32_t i = 0; i < nev; i++)
		if (row[i] > cap[i]) {
			if (excess && row[i] - cap[i] > excess[i])
				excess[i] = row[i] - cap[i];
			row[i] = cap[i];
		}
}

static void max_row(uint64_t *row, const uint64_t *other, uint32_t nev)
{
	for (uint32_t i = 0; i < nev; i++)
		if (other[i] > row[i])
			row[i] = other[i];
}

static void inclusive(struct profile *p, const struct callgraph *g, const uint32_t *scc,
		      uint64_t *excess)
{
	uint32_t nev = p->nev;
	size_t nc = p->ncycles ? p->ncycles : 1;
	uint64_t *row = xcalloc(nev ? nev : 1, sizeof(uint64_t));
	uint64_t *cyc_out = xcalloc(st_mult(nc, nev ? nev : 1), sizeof(uint64_t));

	p->cycle_incl = xcalloc(st_mult(nc, nev ? nev : 1), sizeof(uint64_t));
	incoming(p, scc);
	for (uint32_t f = 0; f < p->nfuncs; f++) {
		uint32_t c = p->funcs[f].cycle;

		self_and_out(p, g, scc, f, row);
		if (c) {
			add_row_sat(p->cycle_incl + (size_t)(c - 1) * nev,
				    p->incl + (size_t)f * nev, nev);
			add_row_sat(cyc_out + (size_t)(c - 1) * nev, row, nev);
		}
		max_row(p->incl + (size_t)f * nev, row, nev);
	}
	for (size_t c = 0; c < p->ncycles; c++) {
		max_row(p->cycle_incl + c * nev, cyc_out + c * nev, nev);
		cap_row(p->cycle_incl + c * nev, p->totals, nev, excess);
	}
	for (uint32_t f = 0; f < p->nfuncs; f++) {
		if (p->funcs[f].cycle)
			cap_row(p->incl + (size_t)f * nev,
				p->cycle_incl + (size_t)(p->funcs[f].cycle - 1) * nev, nev, NULL);
		cap_row(p->incl + (size_t)f * nev, p->totals, nev, excess);
	}
	free(row);
	free(cyc_out);
}

/*
 * With cycle detection off every function is its own component: only a call
 * of a function to itself is left out, so a function of a cycle of several
 * can count the cycle's recursion again (cut to the total), as KCachegrind
 * shows it without cycle detection.
 */
static void inclusive_flat(struct profile *p)
{
	uint32_t nev = p->nev;
	size_t rows = p->nfuncs ? p->nfuncs : 1;
	uint64_t *in = xcalloc(st_mult(rows, nev ? nev : 1), sizeof(uint64_t));

	/* p->incl_flat starts as self(f) + out(f), in as in(f) */
	p->incl_flat = xmalloc(st_mult(rows, nev ? nev : 1) * sizeof(uint64_t));
	if (p->nfuncs && nev) /* memcpy from a NULL self is undefined, even for 0 bytes */
		memcpy(p->incl_flat, p->self, st_mult(p->nfuncs, nev) * sizeof(uint64_t));
	for (size_t e = 0; e < p->nedges; e++) {
		const struct call_edge *ce = &p->edges[e];

		if (ce->caller == ce->callee)
			continue;
		add_row_sat(in + (size_t)ce->callee * nev, profile_edge_cost(p, (uint32_t)e), nev);
		add_row_sat(p->incl_flat + (size_t)ce->caller * nev,
			    profile_edge_cost(p, (uint32_t)e), nev);
	}
	for (uint32_t f = 0; f < p->nfuncs; f++) {
		max_row(p->incl_flat + (size_t)f * nev, in + (size_t)f * nev, nev);
		cap_row(p->incl_flat + (size_t)f * nev, p->totals, nev, NULL);
	}
	free(in);
}

void graph_inclusive(struct profile *p, uint64_t *excess)
{
	struct callgraph g;
	uint32_t *scc, *cycle_of_scc;

	/* only the callers' side is needed here: the callees' side costs memory at the peak */
	group_edges(p, false, &g.out_start, &g.out_edge);
	scc = graph_components(p, &g);
	name_cycles(p, scc, &cycle_of_scc);
	free(cycle_of_scc);
	p->incl =
	    xcalloc(st_mult(p->nfuncs ? p->nfuncs : 1, p->nev ? p->nev : 1), sizeof(uint64_t));
	inclusive(p, &g, scc, excess);
	inclusive_flat(p);
	free(scc);
	free(g.out_start);
	free(g.out_edge);
}
