/*
 * difftree: call trees of a diff (model/diff.h), for the browser's t, r and
 * T on a diff and --dump=tree --diff. A node is a diff row (the function
 * matched in both profiles, or in one) with two costs, base and new, each
 * worked out on its own side by the rule of single-profile trees
 * (calltree.h): a child costs its call's cost scaled by the share of the
 * parent's function the path holds,
 *
 *     base(child) = base(call) * base(parent) / spent_base(parent's row)
 *
 * and the same for new, so the change of a node is the change along its
 * path, and no node's side costs more than its parent's. The two profiles'
 * cycles need not be the same, so a diff tree is expanded call by call (as
 * with cycle detection off): a row already on the path is recursive, shown,
 * marked, never expanded. What is printed are whole costs shared out, side
 * by side, as a single profile's tree does (calltree.h): a node's
 * children never add up to more than it on either side.
 *
 * Children come by the size of their change, biggest first. A child is
 * folded into "(N more)" when both its costs are under the threshold (a
 * percent of the root's bigger side): no change below it can be bigger than
 * its bigger cost, so a fold hides no bigger change (an only child is shown
 * whatever it costs). A fold opens (difftree_unfold) a batch at a time, by
 * change, the rest folded again. Expanding a node costs
 * time in proportion to the children it shows: a row's children are kept
 * sorted by each side's cost, and only the heads of both lists are read.
 * No curses: the browser and the reports read it.
 */
#ifndef NCGRIND_DIFFTREE_H
#define NCGRIND_DIFFTREE_H

#include "ncgrind/model/calltree.h"
#include "ncgrind/model/diff.h"

struct difftree_node {
	TREE_LINKS;               /* parent, depth, first_child, next, expanded (treewalk.h) */
	enum tree_node_kind kind; /* NODE_FUNCTION (a row), NODE_MORE or NODE_CUT */
	uint32_t row;             /* the diff row */
	uint32_t call;            /* the diff call from the parent; NCG_NONE for a root */
	uint64_t count_base, count_new; /* calls along the call; NODE_MORE, NODE_CUT: count_new */
	double base, new;
	uint64_t whole_base, whole_new; /* as shown: shared out as calltree.h says */
	bool recursive, leaf;
};

/* A row's children, unscaled: the calls out of it (or into it, inverted). */
struct difftree_kid {
	uint32_t row, call;
	double base, new;
};

struct difftree_kids {
	struct difftree_kid *k;
	size_t n;
	uint32_t *by_base, *by_new; /* k's indexes, by that side's cost, largest first */
	double sum_base, sum_new;   /* of the calls */
	double spent_base, spent_new;
};

struct difftree {
	const struct diff *d;
	bool inverted, top_down;
	uint32_t event; /* a diff event */
	double threshold;
	struct difftree_kids **kids; /* per row; NULL: not yet */
	size_t nkids;                /* kids' rows (the diff may be matched again before release) */
	uint32_t *seen;              /* per call: gen when shown by the current expansion */
	uint32_t gen;
	uint32_t *path_count; /* during difftree_expand_all(): per row, on the path */
	uint32_t *slot;       /* per row: a child of the node being matched (restore) */
	size_t nslot;
	uint32_t cut;
	struct difftree_node *nodes;
	size_t nnodes, alloc;
	uint32_t *roots;
	size_t nroots;
	double root_base, root_new; /* the root's costs, or both totals (top-down) */
	uint32_t *visible;
	size_t nvisible, visible_alloc;
};

/* A tree rooted at a row (or at every entry point when row is NCG_NONE). */
void difftree_init(struct difftree *t, const struct diff *d, uint32_t row, bool inverted,
		   uint32_t event, double threshold);
void difftree_release(struct difftree *t);

bool difftree_expand(struct difftree *t, uint32_t n);
void difftree_collapse(struct difftree *t, uint32_t n);
void difftree_collapse_all(struct difftree *t);
/* Expand the child of the biggest change, again and again: where the change comes from. */
void difftree_expand_hot(struct difftree *t, uint32_t n);
/* As calltree_expand_all(). */
bool difftree_expand_all(struct difftree *t, uint32_t n, uint32_t depth, size_t max_nodes);
void difftree_flatten(struct difftree *t);
/* As calltree_unfold(): the next children by change; false when n is no fold row. */
bool difftree_unfold(struct difftree *t, uint32_t n, size_t rows);
/* As calltree_save() and calltree_restore(). */
void difftree_save(struct difftree *t, size_t cursor, struct tree_saved *s);
size_t difftree_restore(struct difftree *t, const struct tree_saved *s);

#endif
