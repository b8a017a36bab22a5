/*
 * graph: Tarjan's strongly connected components over a CSR adjacency built
 * from the aggregated call edges, then inclusive costs (see graph.h for the
 * definition). Linear in functions + edges, times the number of events.
 */
#include "ncgrind/core/events.h"
#include "ncgrind/core/graph.h"
#include "ncgrind/core/parse.h"

#include <stdlib.h>

/* Group the edges by an endpoint: start[f]..start[f + 1] index edge[]. */
static void group_edges(const struct profile *p, bool by_callee, uint32_t **startp,
			uint32_t **edgep)
{
	size_t n = p->nfuncs;
	uint32_t *start = xcalloc(n + 2, sizeof(uint32_t));
	uint32_t *edge = xmalloc_array(p->nedges, sizeof(uint32_t));
	uint32_t *fill = xmalloc_array(n, sizeof(uint32_t));

	for (size_t e = 0; e < p->nedges; e++)
		if (profile_edge_counts(p, (uint32_t)e)) /* (a call of no part that counts: none) */
			start[(by_callee ? p->edges[e].callee : p->edges[e].caller) + 1]++;
	for (size_t f = 0; f < n; f++)
		start[f + 1] += start[f];
	memcpy(fill, start, n * sizeof(uint32_t));
	for (size_t e = 0; e < p->nedges; e++)
		if (profile_edge_counts(p, (uint32_t)e))
			edge[fill[by_callee ? p->edges[e].callee : p->edges[e].caller]++] =
			    (uint32_t)e;
	free(fill);
	*startp = start;
	*edgep = edge;
}

struct callee_side {
	const struct profile *p;
	struct callgraph *g;
};

static void group_by_callee(void *arg)
{
	struct callee_side *c = arg;

	group_edges(c->p, true, &c->g->in_start, &c->g->in_edge);
}

#define GRAPH_THREAD_MIN 100000 /* edges: fewer are grouped on one thread */

/*
 * The two sides are grouped at once when there are many calls: each reads
 * every edge and writes its own arrays (0.046 s on one thread for the 3
 * million calls of a 5 GiB profile, at the end of every load).
 */
void callgraph_init(struct callgraph *g, const struct profile *p)
{
	struct callee_side c = {p, g};
	struct side_work in;

	side_work_start(&in, group_by_callee, &c, p->nedges >= GRAPH_THREAD_MIN);
	group_edges(p, false, &g->out_start, &g->out_edge);
	side_work_join(&in);
	g->shares = call_shares_new();
}

void callgraph_release(struct callgraph *g)
{
	free(g->out_start);
	free(g->out_edge);
	free(g->in_start);
	free(g->in_edge);
	call_shares_free(g->shares);
	memset(g, 0, sizeof(*g));
}

/*
 * Per event, per function: self plus its calls but those to itself (what it
 * spends with cycle detection on), and with them (off). Summed as doubles
 * in the order of the edges, as the trees sum them, so that both divide by
 * the same number to the last bit.
 */
struct spent_sums {
	double *other, *all; /* nfuncs each; NULL until the event is asked for */
};

struct call_shares {
	struct spent_sums *ev; /* nev, grown as events are asked for */
	uint32_t nev;
};

struct call_shares *call_shares_new(void)
{
	return xcalloc(1, sizeof(struct call_shares));
}

void call_shares_free(struct call_shares *s)
{
	if (!s)
		return;
	for (uint32_t i = 0; i < s->nev; i++) {
		free(s->ev[i].other);
		free(s->ev[i].all);
	}
	free(s->ev);
	free(s);
}

/* One pass over the calls that count: every function's sums in event ev. */
static const struct spent_sums *spent_sums(struct call_shares *s, const struct profile *p,
					   uint32_t ev)
{
	struct spent_sums *m;

	if (ev >= s->nev) {
		s->ev = xrealloc(s->ev, st_mult(p->nev, sizeof(*s->ev)));
		memset(s->ev + s->nev, 0, (p->nev - s->nev) * sizeof(*s->ev));
		s->nev = p->nev;
	}
	m = &s->ev[ev];
	if (m->all)
		return m;
	m->other = xmalloc_array(p->nfuncs + 1, sizeof(double));
	m->all = xmalloc_array(p->nfuncs + 1, sizeof(double));
	for (size_t f = 0; f < p->nfuncs; f++)
		m->other[f] = m->all[f] = (double)profile_self_at(p, (uint32_t)f, ev);
	for (size_t e = 0; e < p->nedges; e++) {
		const struct call_edge *ce = &p->edges[e];
		double v;

		if (!profile_edge_counts(p, (uint32_t)e))
			continue;
		v = (double)profile_edge_at(p, (uint32_t)e, ev);
		m->all[ce->caller] += v;
		if (ce->caller != ce->callee)
			m->other[ce->caller] += v;
	}
	return m;
}

double call_shares_spent(struct call_shares *s, const struct profile *p, uint32_t fn, uint32_t ev)
{
	const struct spent_sums *m = spent_sums(s, p, ev);
	double sum = p->no_cycles ? m->all[fn] : m->other[fn];
	double incl = (double)profile_incl_at(p, fn, ev);

	return sum > incl ? sum : incl;
}

double call_shares_scale(struct call_shares *s, const struct profile *p, uint32_t caller,
			 uint32_t callee, uint32_t ev)
{
	double incl, spent;

	if (ev >= p->nev || p->events[ev].ratio)
		return 1.0;
	incl = (double)profile_incl_at(p, caller, ev);
	spent = call_shares_spent(s, p, caller, ev);
	/* a call to itself, left out of spent with detection on: a share of all f spends */
	if (caller == callee && !p->no_cycles && spent_sums(s, p, ev)->all[caller] > spent)
		spent = spent_sums(s, p, ev)->all[caller];
	return spent > incl ? incl / spent : 1.0;
}

uint64_t call_share_of(uint64_t v, double scale)
{
	return scale == 1.0 ? v : u64_from_double((double)v * scale);
}

uint64_t call_shares_cost(struct call_shares *s, const struct profile *p, uint32_t e, uint32_t ev)
{
	const struct call_edge *ce = &p->edges[e];

	return call_share_of(profile_edge_at(p, e, ev),
			     call_shares_scale(s, p, ce->caller, ce->callee, ev));
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

	t.index = xmalloc_array(n, sizeof(uint32_t));
	t.low = xmalloc_array(n, sizeof(uint32_t));
	t.stack = xmalloc_array(n, sizeof(uint32_t));
	t.scc = xmalloc_array(n, sizeof(uint32_t));
	t.on_stack = xcalloc(n, 1);
	t.frames = xmalloc_array(n, sizeof(struct frame));
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
	for (size_t f = 0; f < p->nfuncs; f++)
		p->funcs[f].recursive = false;
	for (size_t e = 0; e < p->nedges; e++)
		if (scc[p->edges[e].caller] == scc[p->edges[e].callee] &&
		    profile_edge_counts(p, (uint32_t)e))
			p->funcs[p->edges[e].callee].recursive = true;
	free(size);
	*cycle_of_scc = num;
}

/*
 * The cycles (cyc: each function's) numbered 1, 2, ... by their first
 * function, of two or more each, one scc a cycle.
 */
static bool cycles_numbered(const struct profile *p, const uint32_t *cyc, const uint32_t *scc)
{
	size_t nc = (size_t)p->ncycles + 1;
	uint32_t *size = xcalloc(nc, sizeof(uint32_t)), *of = xmalloc_array(nc, sizeof(uint32_t));
	uint32_t next = 1;
	bool ok = true;

	for (size_t f = 0; ok && f < p->nfuncs; f++) {
		uint32_t c = cyc[f];

		if (!c)
			continue;
		if (c > p->ncycles || c > next) {
			ok = false;
			break;
		}
		if (c == next)
			of[next++] = scc[f];
		ok = of[c] == scc[f];
		size[c]++;
	}
	ok = ok && next == nc;
	for (size_t c = 1; ok && c < nc; c++)
		ok = size[c] >= 2;
	free(size);
	free(of);
	return ok;
}

bool graph_cycles_certified(const struct profile *p, const uint32_t *scc)
{
	size_t n = p->nfuncs ? p->nfuncs : 1;
	unsigned char *rec;
	uint32_t *cyc;
	bool ok;

	/* the cycles in an array of their own: the calls read them at random */
	cyc = xmalloc_array(n, sizeof(uint32_t));
	for (size_t f = 0; f < p->nfuncs; f++)
		cyc[f] = p->funcs[f].cycle;
	rec = xcalloc(n, 1);
	ok = cycles_numbered(p, cyc, scc);
	for (size_t e = 0; ok && e < p->nedges; e++) {
		uint32_t u = p->edges[e].caller, v = p->edges[e].callee;

		if (u == v || (cyc[u] && cyc[u] == cyc[v]))
			rec[v] = 1;
		else
			ok = scc[v] < scc[u];
	}
	for (size_t f = 0; ok && f < p->nfuncs; f++)
		ok = p->funcs[f].recursive == (rec[f] != 0);
	free(cyc);
	free(rec);
	return ok;
}

static void add_row_sat(uint64_t *dst, const uint64_t *src, uint32_t nev)
{
	for (uint32_t i = 0; i < nev; i++)
		u64_add_sat(&dst[i], src[i]);
}

#define INCOMING_AHEAD 16 /* edges */

/*
 * in(f) for every f: the calls from other components. The self and call
 * rows are read whole (profile_*_row): 64-bit rows, or the cells that
 * profile_finish() has made of them already; buf holds one.
 */
static void incoming(struct profile *p, const uint32_t *scc, uint64_t *buf)
{
	size_t row_bytes = p->nev * sizeof(uint64_t);

	for (size_t e = 0; e < p->nedges; e++) {
		const struct call_edge *ce = &p->edges[e];

		/*
		 * The edges come by caller, their callees from all over: each
		 * callee's row (and component) a miss, asked for some edges
		 * ahead (the 3 million calls of a 5 GiB profile: 0.68 -> 0.49 s).
		 */
		if (e + INCOMING_AHEAD < p->nedges) {
			uint32_t ahead = p->edges[e + INCOMING_AHEAD].callee;
			const char *row = (const char *)(p->incl + (size_t)ahead * p->nev);

			__builtin_prefetch(&scc[ahead]);
			for (size_t at = 0; at < row_bytes && at < 256; at += 64)
				__builtin_prefetch(row + at, 1);
		}

		if (scc[ce->caller] != scc[ce->callee])
			add_row_sat(p->incl + (size_t)ce->callee * p->nev,
				    profile_edge_row(p, (uint32_t)e, buf), p->nev);
	}
}

/* self(f) + out(f) into row. */
static void self_and_out(const struct profile *p, const struct callgraph *g, const uint32_t *scc,
			 uint32_t f, uint64_t *row, uint64_t *buf)
{
	memcpy(row, profile_self_row(p, f, buf), p->nev * sizeof(uint64_t));
	for (uint32_t i = g->out_start[f]; i < g->out_start[f + 1]; i++) {
		uint32_t e = g->out_edge[i];

		if (scc[p->edges[e].callee] != scc[f])
			add_row_sat(row, profile_edge_row(p, e, buf), p->nev);
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
	uint64_t *buf = xcalloc(nev ? nev : 1, sizeof(uint64_t));
	uint64_t *cyc_out = xcalloc(st_mult(nc, nev ? nev : 1), sizeof(uint64_t));

	p->cycle_incl = xcalloc(st_mult(nc, nev ? nev : 1), sizeof(uint64_t));
	incoming(p, scc, buf);
	for (uint32_t f = 0; f < p->nfuncs; f++) {
		uint32_t c = p->funcs[f].cycle;

		self_and_out(p, g, scc, f, row, buf);
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
	free(buf);
	free(cyc_out);
}

/*
 * With cycle detection off every function is its own component: only a call
 * of a function to itself is left out, so a function of a cycle of several
 * can count the cycle's recursion again (cut to the total), as KCachegrind
 * shows it without cycle detection.
 */
void graph_inclusive_flat(struct profile *p)
{
	uint32_t nev = p->nev;
	size_t rows = p->nfuncs ? p->nfuncs : 1;
	uint64_t *in = xcalloc(st_mult(rows, nev ? nev : 1), sizeof(uint64_t));
	uint64_t *buf = xcalloc(nev ? nev : 1, sizeof(uint64_t));

	/* p->incl_flat starts as self(f) + out(f), in as in(f) */
	p->incl_flat = xmalloc_array(st_mult(rows, nev ? nev : 1), sizeof(uint64_t));
	for (uint32_t f = 0; nev && f < p->nfuncs; f++) /* rows of a finished (compact) profile */
		memcpy(p->incl_flat + (size_t)f * nev, profile_self_row(p, f, buf),
		       nev * sizeof(uint64_t));
	for (size_t e = 0; e < p->nedges; e++) {
		const struct call_edge *ce = &p->edges[e];
		const uint64_t *cost;

		if (ce->caller == ce->callee)
			continue;
		cost = profile_edge_row(p, (uint32_t)e, buf);
		add_row_sat(in + (size_t)ce->callee * nev, cost, nev);
		add_row_sat(p->incl_flat + (size_t)ce->caller * nev, cost, nev);
	}
	for (uint32_t f = 0; f < p->nfuncs; f++) {
		max_row(p->incl_flat + (size_t)f * nev, in + (size_t)f * nev, nev);
		cap_row(p->incl_flat + (size_t)f * nev, p->totals, nev, NULL);
		/* the inherited ones from the row's raw values: a ratio is not a sum */
		events_derive_row(p, p->incl_flat + (size_t)f * nev);
	}
	free(buf);
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
	/* (read before written: incoming() adds into the callees' rows) */
	p->incl = xcalloc_written(st_mult(p->nfuncs ? p->nfuncs : 1, p->nev ? p->nev : 1),
				  sizeof(uint64_t));
	inclusive(p, &g, scc, excess);
	free(p->fn_scc);
	p->fn_scc = scc; /* (for the kept index: the proof of the cycles) */
	free(g.out_start);
	free(g.out_edge);
}

/* The cost of the calls into f (or into f's cycle) from outside the cycle. */
static uint64_t called_in(const struct profile *p, const struct callgraph *g, uint32_t f,
			  uint32_t c, uint32_t ev)
{
	uint64_t in = 0;

	for (uint32_t i = g->in_start[f]; i < g->in_start[f + 1]; i++) {
		uint32_t e = g->in_edge[i], caller = p->edges[e].caller;

		if (caller != f && !(c && p->funcs[caller].cycle == c))
			u64_add_sat(&in, profile_edge_at(p, e, ev));
	}
	return in;
}

/*
 * The cycle's inclusive cost less the calls into it, whichever member they
 * reach: an entry point stands for its whole cycle, in both cycle modes, so
 * that the roots add up to the total.
 */
uint64_t graph_uncovered(const struct profile *p, const struct callgraph *g, uint32_t f,
			 uint32_t ev)
{
	uint32_t c = p->funcs[f].cycle;
	uint64_t incl = c ? profile_cycle_incl(p, c)[ev] : profile_incl_cycles_at(p, f, ev);
	uint64_t in = 0;

	if (!c)
		in = called_in(p, g, f, 0, ev);
	else
		for (uint32_t m = 0; m < p->nfuncs; m++) /* the members: entry points are few */
			if (p->funcs[m].cycle == c)
				u64_add_sat(&in, called_in(p, g, m, c, ev));
	return in < incl ? incl - in : 0;
}

/* Functions by cost (a uint64_t per function), biggest first. */
static int cmp_entry(const void *a, const void *b, void *cost)
{
	const uint64_t *c = cost;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t cx = c[x], cy = c[y];

	/* by the first event: entry points are few, and their order should not move */
	return cx != cy ? (cx < cy) - (cx > cy) : (x > y) - (x < y);
}

/*
 * What calls from outside a function's cycle (or from other functions) cover
 * of each function and cycle; in[nfuncs + c] is cycle c's, and called[] the
 * same as "any such call at all".
 */
static void outside_calls(const struct profile *p, uint64_t *in, bool *called)
{
	for (size_t e = 0; e < p->nedges; e++) {
		uint32_t caller = p->edges[e].caller, callee = p->edges[e].callee;
		uint32_t c = p->funcs[callee].cycle;
		size_t key = c ? p->nfuncs + c : callee;

		if (caller == callee || (c && p->funcs[caller].cycle == c))
			continue;
		called[key] = true;
		if (p->nev)
			u64_add_sat(&in[key], profile_edge_at(p, (uint32_t)e, 0));
	}
}

/*
 * An entry point is a function (or a cycle) nothing outside calls, or one
 * whose calls cover only a little of its cost: a thread's first function
 * (clone() is called by pthread_create() for a few hundred instructions, and
 * then runs the whole thread, whose start has no caller in the profile). "A
 * little": what is left uncovered is over 0.1% of the total, so that
 * rounding and the calls a partial dump cut do not make entry points of
 * everything. A cycle is given by its costliest member, once.
 */
size_t graph_entry_points(const struct profile *p, const struct callgraph *g, uint32_t **out)
{
	size_t keys = p->nfuncs + p->ncycles + 1, n = 0;
	uint32_t *list = xmalloc_array(p->nfuncs, sizeof(uint32_t));
	uint64_t *in = xcalloc(keys, sizeof(uint64_t)), *uncovered;
	uint64_t total = p->nev ? p->totals[0] : 0;
	uint32_t *best = xcalloc(p->ncycles + 1, sizeof(uint32_t)); /* member + 1 */
	bool *called = xcalloc(keys, sizeof(bool));

	(void)g; /* the edges are enough: every one is looked at once */
	outside_calls(p, in, called);
	uncovered = xcalloc(p->nfuncs + 1, sizeof(uint64_t));
	for (uint32_t f = 0; f < p->nfuncs; f++) {
		uint32_t c = p->funcs[f].cycle;
		uint64_t incl;

		if (!profile_function_used(p, f))
			continue;
		if (c) {
			if (!best[c] || profile_incl_cycles_at(p, f, 0) >
					    profile_incl_cycles_at(p, best[c] - 1, 0))
				best[c] = f + 1;
			continue;
		}
		incl = p->nev ? profile_incl_cycles_at(p, f, 0) : 0;
		uncovered[f] = in[f] < incl ? incl - in[f] : 0;
		if (!called[f] || uncovered[f] > total / 1000)
			list[n++] = f;
	}
	for (uint32_t c = 1; c <= p->ncycles; c++) {
		uint32_t f = best[c] - 1;
		uint64_t incl = p->nev ? profile_cycle_incl(p, c)[0] : 0;

		if (!best[c])
			continue;
		uncovered[f] = in[p->nfuncs + c] < incl ? incl - in[p->nfuncs + c] : 0;
		if (!called[p->nfuncs + c] || uncovered[f] > total / 1000)
			list[n++] = f;
	}
	free(called);
	free(best);
	free(in);
	sort_with(list, n, sizeof(uint32_t), cmp_entry, uncovered);
	free(uncovered);
	*out = list;
	return n;
}

/* Every call line of the caller's blocks, in file order; merged afterwards. */
static void on_call_line(void *ctx, const struct parse_line *l)
{
	struct call_sites *c = ctx;

	if (l->kind != PARSE_CALL)
		return;
	ALLOC_GROW(c->sites, c->n + 1, c->alloc);
	c->sites[c->n] =
	    (struct call_site){c->caller,         l->callee, l->file,       l->pos[POS_LINE],
			       l->pos[POS_INSTR], l->count,  (uint32_t)c->n};
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
		if (profile_block_counts(p, b))
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
	/* none read (sites may be NULL: NULL + 0 is undefined) */
	*first = end > lo ? cs->sites + lo : NULL;
	return end - lo;
}

void call_sites_release(struct call_sites *cs)
{
	free(cs->sites);
	memset(cs, 0, sizeof(*cs));
}

/* Edge ids by caller, then callee: each caller's calls together. */
static int cmp_edge_ends(const void *a, const void *b, void *ctx)
{
	const struct call_edge *x = &((const struct profile *)ctx)->edges[*(const uint32_t *)a],
			       *y = &((const struct profile *)ctx)->edges[*(const uint32_t *)b];

	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	return (x->callee > y->callee) - (x->callee < y->callee);
}

void call_sites_many_load(struct call_sites_many *m, const struct profile *p, const uint32_t *edges,
			  size_t n)
{
	uint32_t *e = xmalloc_array(n ? n : 1, sizeof(uint32_t));
	struct call_sites cs;

	memset(m, 0, sizeof(*m));
	if (n) /* (edges may be NULL when there are none) */
		memcpy(e, edges, n * sizeof(uint32_t));
	sort_with(e, n, sizeof(uint32_t), cmp_edge_ends, (void *)p);
	call_sites_init(&cs);
	for (size_t i = 0; i < n; i++) {
		const struct call_edge *ce = &p->edges[e[i]];
		const struct call_site *s;
		size_t k;

		if (i && cmp_edge_ends(&e[i - 1], &e[i], (void *)p) == 0)
			continue;
		call_sites_for(&cs, p, ce->caller); /* (read when the caller changes) */
		k = call_sites_of(&cs, ce->callee, &s);
		ALLOC_GROW(m->sites, m->n + k, m->alloc);
		if (k)
			memcpy(m->sites + m->n, s, k * sizeof(*s));
		m->n += k;
	}
	call_sites_release(&cs);
	free(e);
}

size_t call_sites_many_of(const struct call_sites_many *m, uint32_t caller, uint32_t callee,
			  const struct call_site **first)
{
	size_t lo = 0, hi = m->n, end;

	while (lo < hi) { /* the first site of caller -> callee */
		size_t mid = lo + (hi - lo) / 2;
		const struct call_site *s = &m->sites[mid];

		if (s->caller < caller || (s->caller == caller && s->callee < callee))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo;
	     end < m->n && m->sites[end].caller == caller && m->sites[end].callee == callee; end++)
		;
	*first = end > lo ? m->sites + lo : NULL;
	return end - lo;
}

void call_sites_many_release(struct call_sites_many *m)
{
	free(m->sites);
	memset(m, 0, sizeof(*m));
}
