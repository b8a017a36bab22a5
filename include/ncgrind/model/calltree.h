/*
 * calltree: call trees as plain data (no curses), for the tree view and the
 * batch reports. A tree is rooted at one function (or, top-down, at every
 * entry point) and grows by the call edges: callees, or callers when the
 * tree is inverted. Expanding a node costs time in proportion to the rows it
 * makes: a node's children are worked out once per function (or cycle),
 * sorted, and only those above the threshold become nodes.
 *
 * Cost of a node. The profile keeps costs per caller/callee pair, not per
 * call path, so a child is its call's cost scaled by the share of its
 * parent's function that the path holds:
 *
 *     cost(child) = cost(call) * cost(parent) / spent(parent's function)
 *
 * where spent(f) is f's inclusive cost, or, when recursion makes them more,
 * what f spends: its self cost plus its calls (top-down), or its calls from
 * callers (inverted). So a node's children, fold row included, never add up
 * to more than the node, no node costs more than its parent, and nothing
 * adds up past the total, cycles or not. A root costs its inclusive cost;
 * the entry points cost what calls into them leave uncovered.
 *
 * Cycles. With cycle detection on (the profile's no_cycles is false), calls
 * into a cycle from outside go to one node, <cycle N>, costed as one
 * function: its children are its members, each with its self cost (what it
 * spends inside the cycle), and the calls that leave the cycle; a member
 * given as the root calls the rest of its cycle as <cycle N>. The cycles
 * are the components of the call graph, so no path comes back to a function
 * and every tree is finite. With detection off, functions are expanded call
 * by call; a node whose function is already on its path is recursive:
 * shown, marked, never expanded.
 *
 * Whole numbers. A node's cost is a double (a share of a call); what the
 * browser and the reports print is its whole cost (tree_node.whole), made
 * here once, so that the printed numbers keep the rule too: a node's
 * children, fold row included, share out the node's whole cost by largest
 * remainders (tree_wholes(), treewalk.h), the first level its root's (or,
 * top-down, the total), so their whole costs never add up to more than the
 * node's, each is its cost rounded down or up, and a cost already whole
 * (no scaling) stays what the profile says. A fold row opened shares out
 * its own whole cost among what takes its place.
 *
 * Children under the threshold (a percent of the root) are folded into one
 * "(N more)" node, unless the fold would be a node's only child and hold
 * one: then the child is shown. A fold opens (calltree_unfold) a batch at
 * a time, in order of cost, the rest folded again, so that opening costs
 * what it shows: a function with 100,000 callers is not 100,000 nodes
 * until the user asks for them again and again.
 */
#ifndef NCGRIND_CALLTREE_H
#define NCGRIND_CALLTREE_H

#include "ncgrind/model/filter.h"
#include "ncgrind/model/treewalk.h"
#include "ncgrind/core/graph.h"
#include "ncgrind/core/profile.h"

#include <stdbool.h>

enum tree_node_kind {
	NODE_FUNCTION,
	NODE_CYCLE, /* fn is the cycle's number */
	NODE_MORE,  /* folded children: count of them */
	NODE_CUT,   /* calltree_expand_all() stopped here: count is the nodes made */
};

struct tree_node {
	TREE_LINKS; /* parent, depth, first_child, next, expanded (treewalk.h) */
	enum tree_node_kind kind;
	uint32_t
	    fn;         /* NODE_FUNCTION; the cycle for NODE_CYCLE; NODE_MORE: the first
			   folded child's index in its parent's tree_kids (those before it are shown) */
	uint32_t edge;  /* a call from the parent, NCG_NONE for a root or member */
	uint64_t count; /* calls along the edge (NODE_MORE: folded nodes) */
	double cost;    /* of the tree's event */
	uint64_t whole; /* cost as a whole number, as shown: see above */
	bool recursive, leaf;
	bool member; /* a member of the parent cycle, at its self cost (a leaf) */
};

/* A node's possible children, unscaled, largest first (worked out once). */
struct tree_kid {
	uint32_t id, edge; /* function or cycle; the first call, NCG_NONE for a member */
	enum tree_node_kind kind;
	bool member;
	uint64_t count;
	double cost;
};

struct tree_kids {
	struct tree_kid *k;
	double *rest; /* rest[i]: the cost of k[i..n) together, for the fold row */
	size_t n;
	double spent; /* what the function or cycle spends (see above) */
};

/* The children worked out per function and per cycle (kids_of), in one event. */
struct tree_kids_cache {
	struct tree_kids **fn_kids, **cycle_kids; /* NULL: not yet */
	uint32_t
	    ncycle_kids;  /* cycle_kids' cycles: the profile's may change (the parts that count) */
	unsigned version; /* of the filters they were worked out with */
	uint32_t event;
};

/* Another event's costs of the same tree (calltree_value): its children and values. */
struct tree_ecache;

struct calltree {
	const struct profile *p;
	const struct callgraph *g;
	bool inverted; /* children are callers */
	bool top_down; /* rooted at the entry points */
	bool cycles;   /* cycle detection on: calls into a cycle go to <cycle N> */
	uint32_t event;
	double threshold;              /* percent of the root's cost; smaller children are folded */
	const struct filters *filters; /* `hide`: frames skipped, their calls joined; may be NULL */
	const bool *keep;              /* per function: the filters keep it (NULL: all) */
	bool *hidden;                /* per function: a hide filter matches it (NULL: none does) */
	unsigned hidden_version;     /* of the filters hidden was worked out for */
	struct tree_kids_cache kids; /* the children, in the tree's event */
	uint32_t *cycle_start, *cycle_member; /* the members of cycle c: [start[c-1], start[c]) */
	uint32_t
	    *path_count;     /* during calltree_expand_all(): per function and cycle, on the path */
	uint32_t *hide_mark; /* per function: hide_gen when met in the current walk */
	double *hide_share;  /* per function: its summed share in that walk (-1: walked) */
	double *hide_spent;  /* per function: what it spends, worked out when first met */
	uint32_t hide_gen;
	uint32_t cut;   /* the NODE_CUT row, or NCG_NONE */
	unsigned shape; /* changes with the rows shown (calltree_flatten): for calltree_whole() */
	struct tree_node *nodes;
	size_t nnodes, alloc;
	uint32_t *roots; /* the first level */
	size_t nroots;
	uint32_t *visible; /* the expanded tree, flattened in display order */
	size_t nvisible, visible_alloc;
	struct tree_ecache *ecache; /* per other event asked for */
	size_t necache;
	uint32_t *slot; /* per function and cycle: a child of the node being matched (restore) */
	size_t nslot;
};

/*
 * A tree rooted at function fn (or at every entry point when fn is NCG_NONE),
 * with cycle detection as the profile has it (p->no_cycles).
 */
void calltree_init(struct calltree *t, const struct profile *p, const struct callgraph *g,
		   uint32_t fn, bool inverted, uint32_t event, double threshold);
void calltree_release(struct calltree *t);
/*
 * Narrow a tree just initialised to the functions keep[] lets through (NULL:
 * all; see above); keep is the caller's and must outlive the tree. A
 * top-down tree leaves out the entry points dropped (a cycle stays while one
 * of its members is kept); a tree rooted at a dropped function still shows
 * it, as it was asked for, with its kept children.
 */
void calltree_set_keep(struct calltree *t, const bool *keep);

/* Expand (create the children of) node n; returns false when it has none. */
bool calltree_expand(struct calltree *t, uint32_t n);
void calltree_collapse(struct calltree *t, uint32_t n);
void calltree_collapse_all(struct calltree *t);
/* Expand the hottest child, again and again, from n down: the hot path. */
void calltree_expand_hot(struct calltree *t, uint32_t n);
/*
 * Expand everything under n that is above the threshold, to depth levels at
 * most. The threshold bounds the work (each level of the tree adds up to no
 * more than the root); max_nodes is the last resort (a threshold of 0 on a
 * large profile): past it the walk stops, leaves a "(tree cut at N nodes)"
 * row and returns false.
 */
bool calltree_expand_all(struct calltree *t, uint32_t n, uint32_t depth, size_t max_nodes);
/* What the browser's E makes at most in one go, and a report of trees, all its trees. */
#define CALLTREE_EXPAND_MAX 200000
#define CALLTREE_REPORT_MAX 1000000
/* CALLTREE_REPORT_MAX, or fewer where NCGRIND_TREE_NODES says so (for the tests). */
size_t calltree_report_max(void);

/* What a report of trees may still make, all its trees together, and whether it stopped. */
struct tree_budget {
	size_t max, left;
	bool cut;
};

void tree_budget_init(struct tree_budget *b); /* calltree_report_max() nodes */
/* Before another tree: false, and the report cut, when nothing is left for it. */
bool tree_budget_more(struct tree_budget *b);
/* What a tree that has made `made` nodes may still make. */
size_t tree_budget_room(const struct tree_budget *b, size_t made);
/* A tree of `made` nodes is done: they are taken from what is left. */
void tree_budget_spend(struct tree_budget *b, size_t made);
/* Rebuild the flattened list after expanding or collapsing. */
void calltree_flatten(struct calltree *t);

/*
 * Open fold row n: its next children in order of cost take its place, at
 * least `rows` of them and as many as its parent shows already (so a fold
 * opened again and again doubles what is shown), then a fold of the rest.
 * False when n is no fold row.
 */
bool calltree_unfold(struct calltree *t, uint32_t n, size_t rows);

/*
 * A tree built again (threshold, event, cycles, filters) keeps the user's
 * place: calltree_save() the old one's expanded rows and the cursor's row
 * (cursor: an index in visible), then, on the new tree just initialised,
 * calltree_restore() opens them again and returns the cursor's row in the
 * new visible rows (see tree_restore()).
 */
void calltree_save(struct calltree *t, size_t cursor, struct tree_saved *s);
size_t calltree_restore(struct calltree *t, const struct tree_saved *s);

/*
 * Cost of the tree's root (the whole first level for a top-down tree: the
 * total, with the entry points that filters drop, so their shares stay).
 */
double calltree_root_cost(const struct calltree *t);
/* The same as a whole number: what the root's whole cost (or the total) is a share of. */
uint64_t calltree_root_whole(const struct calltree *t);

/*
 * Node n's cost in another event ev (:set columns): the same path costed by
 * the same rule in ev, each step scaled by the share of the parent the path
 * holds in ev; a fold row the rest of its parent's children in ev; a cut
 * row 0. Worked out once a node and event, as rows are shown.
 */
double calltree_value(struct calltree *t, uint32_t n, uint32_t ev);
/*
 * The same as a whole number, made as the tree's own are (tree_wholes()):
 * a node's children shown, fold row included, share out its whole in ev,
 * so that they never add up past it in any column either.
 */
uint64_t calltree_whole(struct calltree *t, uint32_t n, uint32_t ev);

#endif
