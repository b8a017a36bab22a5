/*
 * flame: an icicle graph of a call tree (calltree.h), laid out in eighths
 * of a terminal cell: the root (or the frame zoomed into) spans the width,
 * one row per depth below it, each frame as wide as its cost on the path.
 *
 * A frame's extent is its share of the top, not of its parent: its start
 * and end are costs summed from the left of the top (a frame starts where
 * the siblings before it end, the first where its parent starts), scaled
 * once to eighths and rounded. So no width is lost level by level (a frame
 * at 99.998% of the top is as wide as the top), a frame is never wider than
 * its share rounded up, never outside its parent, and siblings never
 * overlap: the tree's rule and invariant, drawn. A node is expanded only
 * while its frame is a cell wide or more, so the layout costs what it shows.
 * No curses: screen_flame.c draws it.
 */
#ifndef NCGRIND_FLAME_H
#define NCGRIND_FLAME_H

#include "ncgrind/model/calltree.h"

#define FLAME_EIGHTHS 8 /* layout units in a cell */

struct flame_frame {
	uint32_t node;   /* in the tree */
	uint32_t depth;  /* row, 0 for the frame zoomed into */
	uint64_t x0, x1; /* [x0, x1) in eighths of a cell */
	uint32_t parent; /* frame index, NCG_NONE at depth 0 */
	uint32_t kids;   /* the first child frame; the children are kids..kids+nkids-1 */
	uint32_t nkids;  /* (largest first, then a fold row) */
	uint32_t bottom; /* the deepest row of the frames under it, itself included */
	double start;    /* x0 as a cost from the left of the top (before rounding) */
};

struct flame {
	struct calltree tree;
	uint32_t zoom; /* the node at the top, spanning the width */
	/* the zooms before each zoom in, for zooming out the way it came (a browser's back) */
	uint32_t *zooms;
	size_t nzooms, azooms;
	struct flame_frame *f;
	size_t n, alloc;
	size_t sel; /* the selected frame */
	int cols;
	uint32_t max_depth; /* rows laid out at most */
	uint32_t depth;     /* rows laid out: the deepest frame's depth + 1 (0: none) */
	bool deeper;        /* max_depth left out frames that would be a row below */
};

/*
 * A flame of the tree rooted at fn (NCG_NONE: the entry points; inverted:
 * callers), through the frames filters hide, of the functions keep lets
 * through (NULL: all; see calltree_set_keep): what a dropped call cost is
 * drawn as its caller's own.
 */
void flame_init(struct flame *fl, const struct profile *p, const struct callgraph *g, uint32_t fn,
		bool inverted, uint32_t event, const struct filters *filters, const bool *keep);
void flame_release(struct flame *fl);

/*
 * Lay out cols cells wide and max_depth rows deep at most (UINT32_MAX: all
 * of it) from fl->zoom; the selection stays on its node. Frames come
 * parents first, and each row left to right.
 */
void flame_layout(struct flame *fl, int cols, uint32_t max_depth);

/*
 * The frame drawn at cell col of row depth selected (a click): the one
 * whose whole cells cover it, else the one whose end, a few eighths of
 * that cell, is drawn there; false where no frame is.
 */
bool flame_select_at(struct flame *fl, uint32_t depth, int col);

/* To the frame left (-1) or right (1) in the selection's row. */
bool flame_horizontal(struct flame *fl, int dir);
/*
 * Up the parents or down to row depth: down along the largest child whose
 * frames reach that row, or, where none does, the one that goes deepest
 * (one row down: the largest child). False when the selection stays.
 */
bool flame_to_depth(struct flame *fl, uint32_t depth);

/*
 * Zoom into the selected frame; out again to where the last zoom in was
 * (one Backspace undoes one Enter, however deep the frame was), or to the
 * zoom's parent; false when at the top.
 */
void flame_zoom_in(struct flame *fl);
bool flame_zoom_out(struct flame *fl);

/* The cost of the frames whose names match re, none counted twice (under another match). */
double flame_match_cost(const struct flame *fl, const regex_t *re, bool *match);

#endif
