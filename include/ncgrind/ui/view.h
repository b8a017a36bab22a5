/*
 * view: draws the screens into a grid (no curses): the function table with
 * its header, name and status lines, the help screen generated from the
 * request list, and the loading screen.
 */
#ifndef NCGRIND_VIEW_H
#define NCGRIND_VIEW_H

#include "ncgrind/model/calltree.h"
#include "ncgrind/model/detail.h"
#include "ncgrind/model/grid.h"
#include "ncgrind/ui/keys.h"
#include "ncgrind/model/srcview.h"
#include "ncgrind/model/table.h"

#include <stdbool.h>
#include <stdio.h>

/* What the screen shows besides the table. */
struct view_state {
	const char *path;  /* the profile, as named */
	char message[256]; /* on the status line until the next key */
	bool message_is_error;
	bool prompting;   /* the status line is an input line */
	char prompt_char; /* '/' */
	char prompt[256];
	size_t prompt_len;
	size_t prompt_cursor; /* in bytes */
	char filters[256];    /* the active filters, for the header; "" for none */
};

/* What the screens other than the table draw with: the profile, the event, units and columns. */
struct view_ctx {
	const struct profile *p;
	const struct display *disp;
};

/* Rows of the function table on a grid of this height. */
int view_table_rows(const struct grid *g);

void view_draw_table(struct grid *g, const struct table *t, const struct view_state *vs);
/* How many of the other events of :set columns the table has room for on g (the first ones). */
int view_table_columns_shown(const struct grid *g, const struct table *t);
/* A function's callers and callees; units as in the table. */
void view_draw_detail(struct grid *g, const struct detail *d, const struct view_ctx *t,
		      const struct view_state *vs);
/* A call tree; nav is the cursor over its visible nodes. */
void view_draw_tree(struct grid *g, struct calltree *tree, const struct nav *nav,
		    const struct view_ctx *t, const struct view_state *vs);
/* A function's annotated source or instructions. */
void view_draw_source(struct grid *g, const struct srcview *v, const struct view_ctx *t,
		      const struct view_state *vs);
/*
 * The whole content of a screen as text, for :write: its head, then every
 * row (not only those in view), at a width where nothing is shortened.
 * -1 on a write error.
 */
int view_write_detail(FILE *f, const struct detail *d, const struct view_ctx *t);
int view_write_tree(FILE *f, struct calltree *tree, const struct view_ctx *t);
int view_write_source(FILE *f, const struct srcview *v, const struct view_ctx *t);
/* Rows of a detail, tree or source list on a grid of this height. */
int view_list_rows(const struct grid *g);
/* The status line of a list screen: the position, then a message or the hints (or the prompt). */
void view_draw_status(struct grid *g, const struct nav *nav, const struct view_state *vs,
		      const char *hints);

/* Source text with tabs expanded (8 columns), from column skip on, into out. */
void view_expand_tabs(char *out, size_t size, struct span text, int skip);

void view_draw_loading(struct grid *g, const char *path, uint64_t done, uint64_t total);
/* The same with another what ("Decompressing"): "WHAT: N% (x of y MB)". */
void view_draw_progress(struct grid *g, const char *path, const char *what, uint64_t done,
			uint64_t total);

#endif
