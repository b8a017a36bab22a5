/*
 * graph: cycles of the call graph and inclusive costs that stay true under
 * recursion.
 *
 * Cycles are the strongly connected components of the caller -> callee graph
 * (Tarjan's algorithm, iterative: no C recursion however deep the graph).
 * A call between two functions of the same component is recursive and is
 * never added to an inclusive cost. For a function f, with in(f) the cost of
 * the calls to f from outside its component and out(f) the cost of the calls
 * from f to outside it:
 *
 *     incl(f) = max(in(f), self(f) + out(f))
 *
 * which is the cost of the calls to f when f is called, and self(f) plus its
 * calls when nothing calls it (the larger one wins where a partial dump makes
 * the two disagree). A cycle C is costed the same way as one node, and a
 * member's inclusive cost never exceeds its cycle's. No inclusive cost
 * exceeds the total.
 */
#ifndef NCGRIND_GRAPH_H
#define NCGRIND_GRAPH_H

#include "ncgrind/core/profile.h"

struct call_shares;

/* The call edges of every function, both ways (built once per profile). */
struct callgraph {
	uint32_t *out_start, *out_edge; /* edges by caller: nfuncs + 1 starts, nedges */
	uint32_t *in_start, *in_edge;   /* edges by callee */
	/* what its calls cost as shown (below): filled as events are asked for */
	struct call_shares *shares;
};

void callgraph_init(struct callgraph *g, const struct profile *p);
void callgraph_release(struct callgraph *g);
/*
 * Whether each function's cycle and recursive flag, and the number of
 * cycles, hold for its call graph, with scc (a number a function, as
 * profile.fn_scc) as the proof: a kept index read from a file is checked
 * with it, since the call trees trust the cycles to stop at recursion.
 * It holds when the members of a cycle share one number, every call
 * between two functions not of one cycle goes to a smaller number (so
 * every loop of calls is inside one cycle, or a call to itself), the
 * cycles are numbered 1, 2, ... in the order of their first function, each
 * of two functions or more, and a function is recursive exactly when a
 * call inside its cycle, or to itself, reaches it. Two passes, no search:
 * Tarjan's over the 3 million calls of the generated 5 GiB profile took
 * 0.19 s of each second open.
 */
bool graph_cycles_certified(const struct profile *p, const uint32_t *scc);

/*
 * Fill p->incl, p->cycle_incl, p->ncycles and each function's cycle. An
 * inclusive cost above the total is cut to the total; excess (nev values,
 * zeroed by the caller) receives the largest cut per event.
 */
void graph_inclusive(struct profile *p, uint64_t *excess);
/*
 * Fill p->incl_flat: the inclusive costs with cycle detection off (only a
 * call of a function to itself is left out), for every event, inherited ones
 * included; worked out when detection is first switched off, not at load.
 */
void graph_inclusive_flat(struct profile *p);

/*
 * Entry points: functions nothing outside their cycle calls ((below main),
 * main, ...), and those whose calls cover little of their cost (a thread's
 * clone() or start routine), by the cost left uncovered, largest first; one
 * function (the costliest) stands for a cycle.
 */
size_t graph_entry_points(const struct profile *p, const struct callgraph *g, uint32_t **out);
/*
 * What of f's inclusive cost of event ev calls into f from outside its
 * cycle do not cover; for a member of a cycle, what of the cycle's.
 */
uint64_t graph_uncovered(const struct profile *p, const struct callgraph *g, uint32_t f,
			 uint32_t ev);

/*
 * What a call costs as every screen and report shows it. The file records a
 * call's inclusive cost, and a call within recursion counts each nested
 * level again (is_odd'2 -> is_even'2: 3.4G Ir of a 13M Ir program). As the
 * call trees do (calltree.h), a call is shown as its share of what its
 * caller spends:
 *
 *     share(e) = recorded(e) * incl(caller) / spent(caller)
 *     spent(f) = max(incl(f), self(f) + the recorded costs of f's calls)
 *
 * With cycle detection on, f's calls to itself are inside f and left out of
 * spent(f), as the trees leave them out; the share of such a call itself is
 * taken of what f spends with them. So no call costs more than its caller's
 * inclusive cost; where nothing recurses spent(f) is incl(f) and the share
 * is the recorded cost exactly. A ratio event's value is not a cost: its
 * share is the value recorded.
 *
 * The sums are worked out once per event asked for (one pass over the
 * calls), kept until the costs change: a callgraph's are released with it
 * (made again when other parts are chosen); standalone ones are the
 * caller's to release when the profile's costs change.
 */
struct call_shares *call_shares_new(void);
void call_shares_free(struct call_shares *s);
/* spent(fn) in event ev, as above. */
double call_shares_spent(struct call_shares *s, const struct profile *p, uint32_t fn, uint32_t ev);
/* What a call from caller to callee is scaled by: incl / spent (1: nothing recurses). */
double call_shares_scale(struct call_shares *s, const struct profile *p, uint32_t caller,
			 uint32_t callee, uint32_t ev);
/* Call edge e's share, rounded; exactly its recorded cost where the scale is 1. */
uint64_t call_shares_cost(struct call_shares *s, const struct profile *p, uint32_t e, uint32_t ev);
/* v scaled by scale, rounded; v itself where the scale is 1. */
uint64_t call_share_of(uint64_t v, double scale);

/* The same with the callgraph's shares. */
static inline uint64_t graph_call_cost(const struct profile *p, const struct callgraph *g,
				       uint32_t e, uint32_t ev)
{
	return call_shares_cost(g->shares, p, e, ev);
}

/*
 * A call within recursion: from a function to itself, or between two
 * functions of the same cycle (whether or not cycles are shown: its
 * recorded cost counts nested levels either way).
 */
static inline bool graph_call_recursive(const struct profile *p, uint32_t caller, uint32_t callee)
{
	return caller == callee ||
	       (p->funcs[caller].cycle && p->funcs[caller].cycle == p->funcs[callee].cycle);
}

/* The word every screen and report marks such a call with. */
#define GRAPH_RECURSIVE "recursive"

/* Where a caller calls a callee: from the caller's blocks, re-read on demand. */
struct call_site {
	uint32_t caller, callee;
	uint32_t file; /* name id, NCG_NONE if unknown */
	uint64_t line; /* 0 when the profile has no line numbers */
	uint64_t addr; /* 0 when it has no instruction addresses */
	uint64_t count;
	uint32_t order; /* of its first call line in the caller's blocks */
};

/*
 * Where a caller calls its callees, read from the caller's blocks in one
 * pass: each place once, with its calls summed; grouped by callee, each
 * callee's places in the order of the file.
 */
struct call_sites {
	uint32_t caller;
	struct call_site *sites;
	size_t n, alloc;
};

/* Empty; holds no caller's sites. */
void call_sites_init(struct call_sites *cs);
/* cs holds caller's sites after this: read only when it held another caller's. */
void call_sites_for(struct call_sites *cs, const struct profile *p, uint32_t caller);
/* The places of the calls to callee: *first and the count (0: none). */
size_t call_sites_of(const struct call_sites *cs, uint32_t callee, const struct call_site **first);
void call_sites_release(struct call_sites *cs);

/*
 * The places of many calls at once, for a report that lists them in an
 * order of its own: the callers of every function, where one caller comes
 * back for each of its callees. Each caller's blocks are read once, and
 * only the places of the calls asked for are kept (two callers of 8,000
 * functions each, read in turn per function: 42 s).
 */
struct call_sites_many {
	struct call_site *sites; /* by caller, callee, then the order in the file */
	size_t n, alloc;
};

/* The places of the calls edges[0..n) (edge ids, in any order, repeats allowed). */
void call_sites_many_load(struct call_sites_many *m, const struct profile *p, const uint32_t *edges,
			  size_t n);
/* The places of the calls caller -> callee: *first and the count (0: none, or not asked). */
size_t call_sites_many_of(const struct call_sites_many *m, uint32_t caller, uint32_t callee,
			  const struct call_site **first);
void call_sites_many_release(struct call_sites_many *m);

#endif
