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

#include "ncgrind/profile.h"

/* The call edges of every function, both ways (built once per profile). */
struct callgraph {
	uint32_t *out_start, *out_edge; /* edges by caller: nfuncs + 1 starts, nedges */
	uint32_t *in_start, *in_edge;   /* edges by callee */
};

void callgraph_init(struct callgraph *g, const struct profile *p);
void callgraph_release(struct callgraph *g);

/*
 * Fill p->incl, p->cycle_incl, p->ncycles and each function's cycle. An
 * inclusive cost above the total is cut to the total; excess (nev values,
 * zeroed by the caller) receives the largest cut per event.
 */
void graph_inclusive(struct profile *p, uint64_t *excess);

#endif
