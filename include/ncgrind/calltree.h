/*
 * calltree: call trees as plain data (no curses), for the tree view and the
 * batch reports. A tree is rooted at one function (or, top-down, at every
 * entry point) and grows by the call edges: callees, or callers when the
 * tree is inverted. Expanding a node costs time in proportion to its own
 * edges, never to the profile.
 *
 * Cost of a node. The profile keeps costs per caller/callee pair, not per
 * call path, so a node's cost is its edge's cost scaled by how much of its
 * parent's function the path holds: cost(child) = edge cost * cost(parent) /
 * incl(parent's function). A root costs its inclusive cost. So a node never
 * costs more than its parent, the children of a node never add up past it,
 * and nothing adds up past the total. A node whose function is already on
 * its path is recursive: shown, marked, never expanded. Children under the
 * threshold (a percent of the root) are folded into one "(N more)" node.
 */
#ifndef NCGRIND_CALLTREE_H
#define NCGRIND_CALLTREE_H

#include "ncgrind/filter.h"
#include "ncgrind/graph.h"
#include "ncgrind/profile.h"

#include <stdbool.h>

enum tree_node_kind { NODE_FUNCTION, NODE_MORE, NODE_ROOTS };

struct tree_node {
	enum tree_node_kind kind;
	uint32_t fn;          /* NODE_FUNCTION */
	uint32_t edge;        /* the call from the parent, NCG_NONE for a root */
	uint32_t parent;      /* node index, NCG_NONE for a root */
	uint32_t depth;
	uint64_t count;       /* calls along the edge (NODE_MORE: folded nodes) */
	double cost;          /* of the tree's event */
	uint32_t first_child; /* NCG_NONE until expanded */
	uint32_t next;        /* next sibling */
	bool expanded, recursive, leaf;
};

struct calltree {
	const struct profile *p;
	const struct callgraph *g;
	bool inverted;        /* children are callers */
	bool top_down;        /* rooted at the entry points */
	uint32_t event;
	double threshold;     /* percent of the root's cost; smaller children are folded */
	const struct filters *filters; /* `hide`: frames skipped, their calls joined; may be NULL */
	bool *hidden;         /* per function: a hide filter matches it (NULL: none does) */
	unsigned hidden_version; /* of the filters hidden was worked out for */
	uint32_t *path_count; /* during calltree_expand_all(): per function, nodes on the path */
	uint32_t *hide_mark;  /* per function: hide_gen when met in the current walk */
	double *hide_share;   /* per function: its summed share in that walk (-1: walked) */
	uint32_t hide_gen;
	struct tree_node *nodes;
	size_t nnodes, alloc;
	uint32_t *roots;      /* the first level */
	size_t nroots;
	uint32_t *visible;    /* the expanded tree, flattened in display order */
	size_t nvisible, visible_alloc;
};

/* A tree rooted at function fn (or at every entry point when fn is NCG_NONE). */
void calltree_init(struct calltree *t, const struct profile *p, const struct callgraph *g,
		   uint32_t fn, bool inverted, uint32_t event, double threshold);
void calltree_release(struct calltree *t);

/*
 * Entry points: functions nothing outside their cycle calls ((below main),
 * main, ...), and those whose calls cover little of their cost (a thread's
 * clone() or start routine), by the cost left uncovered, largest first.
 */
size_t calltree_entry_points(const struct profile *p, const struct callgraph *g, uint32_t **out);
/* What of f's inclusive cost of event ev calls into f from outside its cycle do not cover. */
uint64_t calltree_uncovered(const struct profile *p, const struct callgraph *g, uint32_t f,
			    uint32_t ev);

/* Expand (create the children of) node n; returns false when it has none. */
bool calltree_expand(struct calltree *t, uint32_t n);
void calltree_collapse(struct calltree *t, uint32_t n);
void calltree_collapse_all(struct calltree *t);
/* Expand the hottest child, again and again, from n down: the hot path. */
void calltree_expand_hot(struct calltree *t, uint32_t n);
/*
 * Expand everything under n that is above the threshold, to depth levels at
 * most, making at most max_nodes new nodes (a tree through a large recursive
 * cycle can grow without end); false when it stopped there.
 */
bool calltree_expand_all(struct calltree *t, uint32_t n, uint32_t depth, size_t max_nodes);
/* What the browser's E makes at most in one go. */
#define CALLTREE_EXPAND_MAX 200000
/* Rebuild the flattened list after expanding or collapsing. */
void calltree_flatten(struct calltree *t);

/* Cost of the tree's root (the whole first level for a top-down tree). */
double calltree_root_cost(const struct calltree *t);

/* Where a caller calls a callee: from the caller's blocks, re-read on demand. */
struct call_site {
	uint32_t callee;
	uint32_t file;    /* name id, NCG_NONE if unknown */
	uint64_t line;    /* 0 when the profile has no line numbers */
	uint64_t addr;    /* 0 when it has no instruction addresses */
	uint64_t count;
	uint32_t order;   /* of its first call line in the caller's blocks */
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

#endif
