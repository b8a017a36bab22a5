/*
 * list: the column model that list screens share (tig's column drawing,
 * htop's columns). A screen declares its columns, each with its title, its
 * width (in exact and in short units), its alignment and when it gives way
 * on a narrow screen; list_fit() chooses what has room, and the name takes
 * the rest. A row is its cells, one per column: list_put_cells() draws them
 * and says where the name starts, which the screen then draws (shortened
 * with the other rows shown: shorten.h). list_write() writes every row of
 * a screen for :write from the same drawing. No curses: it draws into a
 * grid.
 */
#ifndef NCGRIND_LIST_H
#define NCGRIND_LIST_H

#include "ncgrind/core/display.h"
#include "ncgrind/model/grid.h"

#include <stdbool.h>
#include <stdio.h>

#define LIST_MAX_COLUMNS (8 + DISPLAY_MAX_COLUMNS)
#define LIST_CELL 96 /* bytes of a cell: a number, a percentage, a count */

struct list_column {
	char title[64];
	int width;       /* as wide as the widest value it holds (exact units), and its title */
	int short_width; /* the same in short units (1.2G) */
	int gap;         /* blanks before it */
	bool right;      /* numbers: flush right */
	/*
	 * On a narrow screen it gives way at step give_way (0: never), while
	 * the name would have fewer than `room` columns; at one step, the last
	 * column first.
	 */
	int give_way, room;
	bool together; /* the columns of its step that say so give way all at once */
	/*
	 * A text column that narrows (0: it gives way whole): at its step it
	 * becomes least columns wide, and after the last step takes back what
	 * is left, up to its width, before the name (at least 2 columns: a
	 * character and …). The screen cuts its cells to list_column_width().
	 */
	int least;
	int narrow; /* list_fit's: the width it narrowed to (0: its own) */
	/*
	 * Or it narrows to a fixed width (list_narrow): at step narrow_give_way
	 * (0: never), while the name would have fewer than narrow_room columns,
	 * it takes narrow_width columns (short_narrow_width in short units)
	 * instead of its width; `together` holds for this step too.
	 */
	int narrow_width, short_narrow_width, narrow_give_way, narrow_room;
	bool narrowed; /* list_fit's verdict */
	bool shown;    /* list_fit's verdict */
	int tag;       /* the screen's own: which event a column of values is */
};

struct list {
	struct list_column col[LIST_MAX_COLUMNS];
	int n;
	int units_give_way; /* the step at which exact numbers give way to short ones (0: never) */
	int units_room;
	int name_gap;     /* blanks between the last column and the name */
	int trail;        /* columns kept at the right end, after the name (a file column) */
	bool flush_left;  /* the first column shown starts at column 0, its gap not drawn */
	bool short_units; /* list_fit's: the cells are in short units */
	int name;         /* list_fit's: the columns of the name (and what follows it) */
};

/* An empty list whose numbers start in short units or not (the U setting). */
void list_init(struct list *l, bool short_units, int name_gap);
/* A column more; its index (every column has one, shown or not). */
int list_add(struct list *l, const char *title, int width, int short_width, int gap, bool right,
	     int give_way, int room);
/*
 * Column i narrows at step give_way to width (short_width in short units)
 * while the name would have fewer than room columns (a column as wide as
 * a title or a round number on wide screens, as its values on narrow ones).
 */
void list_narrow(struct list *l, int i, int width, int short_width, int give_way, int room);
/* The columns that have room at this width, step by step; l->name the rest (at least 1). */
void list_fit(struct list *l, int cols);
/* The columns used by everything but the name. */
int list_fixed(const struct list *l);
/* The column where a row's name starts, as list_put_cells() returns it. */
int list_name_start(const struct list *l);
/* The width of column k as list_fit left it (in the units of the cells). */
int list_column_width(const struct list *l, int k);
/*
 * Column k as wide as the text s where s is wider, up to max columns (0:
 * no limit): a text column as wide as its widest value (the same in both
 * units), the cells past max cut by the screen.
 */
void list_widen(struct list *l, int k, const char *s, int max);
/* Column k at least w columns wide (list_widen() with the width measured). */
void list_widen_to(struct list *l, int k, int w);
/*
 * Row r: the cells of the shown columns (cells[i] for column i), in a;
 * returns the column where the name starts. The heads: the same with the
 * titles, in ATTR_HEAD, then name_title.
 */
int list_put_cells(struct grid *g, int r, const struct list *l, char (*cells)[LIST_CELL],
		   enum grid_attr a);
void list_put_heads(struct grid *g, int r, const struct list *l, const char *name_title);
/* list_put_cells, but column k in attribute mark (a diff's change: grown, shrunk). */
int list_put_cells_marked(struct grid *g, int r, const struct list *l, char (*cells)[LIST_CELL],
			  enum grid_attr a, int k, enum grid_attr mark);

/* Columns of UTF-8 text s; s flush right in w columns at (r, c), returns the columns written. */
int list_width(const char *s);
int list_put_right(struct grid *g, int r, int c, int w, const char *s, enum grid_attr a);

/*
 * :write of a list screen, all of it and not only the rows in view: head(ctx,
 * g) draws the screen on a grid LIST_WRITE_COLS wide, where nothing gives way
 * (and fits the columns the rows use), and its first head_rows lines are
 * written; then each of the n rows, drawn by row(ctx, g, i) into row 0 of a
 * grid one row high (a tree of a million rows costs one row of cells). -1 on
 * a write error.
 */
#define LIST_WRITE_COLS 1000
int list_write(FILE *f, int head_rows, size_t n, void (*head)(void *ctx, struct grid *g),
	       void (*row)(void *ctx, struct grid *g, size_t i), void *ctx);

#endif
