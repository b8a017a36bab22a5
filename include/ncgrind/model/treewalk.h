/*
 * treewalk: what the call trees of one profile (calltree.c) and of a diff
 * (difftree.c) do alike, on nodes kept in one array and linked by index:
 * flattening the expanded part for display, expanding everything below a
 * node within a depth and a budget of nodes, and the "(tree cut at N
 * nodes)" row that marks where the budget ran out. A tree's node type
 * starts with TREE_LINKS in an anonymous union with a struct tree_links,
 * so that n->parent reads as before and &n->links is what this module
 * walks; a tree gives its nodes and its steps as a struct tree_walk_ops.
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
 * recursive?" costs O(1)). Past max_nodes nodes made the walk stops, leaves
 * a cut node (returned in *cut) and returns false.
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

#endif
