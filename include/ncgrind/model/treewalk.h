/*
 * treewalk: what the call trees of one profile (calltree.c) and of a diff
 * (difftree.c) do alike, on nodes kept in one array and linked by index:
 * flattening the expanded part for display, expanding everything below a
 * node within a depth and a budget of nodes, and the "(tree cut at N
 * nodes)" row that marks where the budget ran out. A tree's node type
 * starts with TREE_LINKS in an anonymous union with a struct tree_links,
 * so that n->parent reads as before and &n->links is what this module
 * walks; a tree gives its nodes and its steps as a struct tree_walk_ops.
 *
 * A tree built again (another threshold, event, cycle mode or filter)
 * keeps what the user opened: tree_save() takes the expanded rows and the
 * cursor's row as paths of keys (a key is what a node is among its
 * siblings: its function, cycle or diff row, or "the fold row"), and
 * tree_restore() opens the same paths in the new tree, a fold row as far
 * as a saved row behind it, and puts the cursor on the same path, or on the
 * nearest of its ancestors that is still there.
 */
#ifndef NCGRIND_TREEWALK_H
#define NCGRIND_TREEWALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TREE_LINKS_FIELDS                                                                          \
	uint32_t parent;      /* node index, NCG_NONE for a root */                                \
	uint32_t depth;       /* 0 for a root */                                                   \
	uint32_t first_child; /* NCG_NONE until expanded */                                        \
	uint32_t next;        /* the next sibling */                                               \
	bool expanded

struct tree_links {
	TREE_LINKS_FIELDS;
};

/* The links as the first member of a node type: n->parent, and &n->links. */
#define TREE_LINKS                                                                                 \
	union {                                                                                    \
		struct tree_links links;                                                           \
		struct {                                                                           \
			TREE_LINKS_FIELDS;                                                         \
		};                                                                                 \
	}

struct tree_walk_ops {
	struct tree_links *(*links)(void *tree, uint32_t n);
	/* Make n's children if it has none yet; whether it has any now. */
	bool (*expand)(void *tree, uint32_t n);
	/* n is on the walk's path now (delta 1), or off it again (-1). */
	void (*on_path)(void *tree, uint32_t n, int delta);
	/* The nodes made so far. */
	size_t (*count)(const void *tree);
	/* A new "(tree cut at N nodes)" node under parent (not yet linked). */
	uint32_t (*new_cut)(void *tree, uint32_t parent, size_t made);
	/* Whether node n can go on a hot path (a function or a cycle, not a fold row). */
	bool (*follow)(const void *tree, uint32_t n);
	/* Whether expanding n makes no node: a leaf, a recursive, member, fold or cut row. */
	bool (*barren)(const void *tree, uint32_t n);
	/* What n is among its siblings, the same in a tree built again (see above). */
	uint64_t (*key)(const void *tree, uint32_t n);
	/*
	 * The children of parent (a node expanded, or NCG_NONE: the roots)
	 * whose keys are keys[0..n), into out (NCG_NONE where none is); a key
	 * folded into the parent's fold row opens the fold as far as it.
	 */
	void (*match)(void *tree, uint32_t parent, const uint64_t *keys, size_t n, uint32_t *out);
};

/*
 * The expanded tree in display order: the roots, each followed by its
 * expanded descendants (an explicit stack: a chain of 100,000 calls must
 * not exhaust the C stack). Into *visible (grown as ALLOC_GROW does).
 */
void tree_flatten(const struct tree_walk_ops *ops, void *tree, const uint32_t *roots, size_t nroots,
		  uint32_t **visible, size_t *n, size_t *alloc);

/*
 * Expand everything under n to depth levels at most, depth first, telling
 * on_path which nodes are on the current path (so that "is this call
 * recursive?" costs O(1)). Past max_nodes nodes made the walk stops where
 * it would make more (a node left that makes none, a leaf or one at the
 * depth, does not stop it: a tree of max_nodes is whole), leaves a cut
 * node (returned in *cut) and returns false.
 */
bool tree_expand_all(const struct tree_walk_ops *ops, void *tree, uint32_t n, uint32_t depth,
		     size_t max_nodes, uint32_t *cut);

/*
 * The hot path from n down: n expanded, then its first (hottest) child,
 * again and again while follow() takes it, each marked on the path.
 */
void tree_expand_hot(const struct tree_walk_ops *ops, void *tree, uint32_t n);
/* Every node collapsed. */
void tree_collapse_all(const struct tree_walk_ops *ops, void *tree);

/* Take the cut node out of its parent's children (*cut NCG_NONE after). */
void tree_cut_remove(const struct tree_walk_ops *ops, void *tree, uint32_t *cut);

/* One saved row: its key, its parent and children among the saved rows. */
struct tree_saved_row {
	uint64_t key;
	uint32_t parent, first_child, next; /* indexes in rows, NCG_NONE for none */
	bool expanded;
};

/* The rows of a tree that tree_restore() opens again (tree_saved_release frees them). */
struct tree_saved {
	struct tree_saved_row *rows;
	size_t n, alloc;
	uint32_t first_root; /* the saved roots, linked by next */
	uint32_t cursor;     /* the cursor's row, NCG_NONE: none */
};

/*
 * The expanded rows among visible[0..nvisible) (a flattened tree), and the
 * row at cursor: O(rows shown), whatever the size of the tree.
 */
void tree_save(const struct tree_walk_ops *ops, void *tree, const uint32_t *visible,
	       size_t nvisible, size_t cursor, struct tree_saved *s);
/*
 * Open the saved rows again in a tree just built (its roots alone): each
 * saved row found under its parent is expanded if it was; returns the node
 * the cursor goes to (the saved cursor's, or its deepest ancestor found),
 * NCG_NONE when none is found.
 */
uint32_t tree_restore(const struct tree_walk_ops *ops, void *tree, const struct tree_saved *s);
void tree_saved_release(struct tree_saved *s);

/*
 * Whole numbers out[0..n) for the costs cost[0..n) of a node's children
 * (fold row included), that add up to no more than whole, the node's own
 * whole cost: largest remainders. Each gets its cost rounded down (a cost
 * a hair off a whole number, a share's error of rounding, counts as that
 * number), then the units left, up to the costs' sum rounded and never
 * past whole, go one each to the largest fractions (ties: the smaller
 * key[i], a node's function, so that a diff against itself and the
 * profile's own tree agree; without keys, the earlier). So each is its
 * cost rounded down or up, and costs already whole stay as they are. With
 * all, the units go up to whole itself (the costs are all of what whole
 * stood for: the rows that take an opened fold's place).
 */
void tree_wholes(const double *cost, const uint64_t *key, size_t n, uint64_t whole, bool all,
		 uint64_t *out);

#endif
