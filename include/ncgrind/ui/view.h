/*
 * view: what the screens draw alike, into a grid (no curses): the columns
 * of the callers and trees, a function's head, the status and prompt line,
 * source text with its tabs expanded, the loading screen.
 */
#ifndef NCGRIND_VIEW_H
#define NCGRIND_VIEW_H

#include "ncgrind/model/calltree.h"
#include "ncgrind/model/detail.h"
#include "ncgrind/model/grid.h"
#include "ncgrind/ui/keys.h"
#include "ncgrind/ui/list.h"
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

/* The list screens' heads: title, function, its costs, the column heads (rows 0 to 3). */
#define VIEW_LIST_HEAD 4
/* The columns a name keeps on a narrow screen before the others give way. */
#define VIEW_MIN_NAME 16
/* The status hint of a callers or tree screen of a profile without calls: only back works. */
#define NO_CALLS_HINT "Backspace: back"

/*
 * The columns of the callers/callees and tree screens, fitted to g (list.h):
 * titles of the cost and its two shares, as wide as widest (and the other
 * events' values as ext_widest, per event; may be NULL), the call site if
 * site. Then a row's cells: its cost v, its shares of all and part, its
 * calls, its values in the other events (one per column from VCOL_EXT on).
 */
enum { VCOL_COST, VCOL_ALL, VCOL_PART, VCOL_CALLS, VCOL_SITE, VCOL_EXT };

void view_calls_columns(struct list *l, const struct grid *g, const struct view_ctx *t,
			const char *const titles[3], uint64_t widest, bool site,
			const uint64_t *ext_widest);
void view_calls_cells(char (*cells)[LIST_CELL], const struct list *l, const struct view_ctx *t,
		      uint64_t v, uint64_t all, uint64_t part, const char *calls,
		      const uint64_t *ext);
/* The base of event e's percentages: its total; none (0) for a ratio, whose share means nothing. */
uint64_t view_pct_base(const struct profile *p, uint32_t e, uint64_t total);
/* The widest short value: 99.9K, or a time, 99.9ms (a smaller total may be wider: 999us). */
int view_short_width(uint64_t unit_ps);
/* The input line of the status line: ':' or '/', the text, the cursor. */
void view_draw_prompt(struct grid *g, const struct view_state *vs);
/* Title (ncgrind: what), function f's name and its costs: rows 0 to 2. */
void view_function_head(struct grid *g, const struct profile *p, uint32_t f,
			const struct view_ctx *t, const char *what);
/* A profile without calls: says so where the rows would be; false when it has calls. */
bool view_no_calls(struct grid *g, const struct profile *p);
/*
 * The whole content of a screen as text, for :write: its head, then every
 * row (not only those in view), at a width where nothing is shortened.
 * -1 on a write error.
 */
/* Rows of a callers, tree or source list on a grid of this height. */
int view_list_rows(const struct grid *g);
/* The status line of a list screen: the position, then a message or the hints (or the prompt). */
void view_draw_status(struct grid *g, const struct nav *nav, const struct view_state *vs,
		      const char *hints);

/* Source text with tabs expanded (8 columns), from column skip on, into out. */
void view_expand_tabs(char *out, size_t size, struct span text, int skip);
/*
 * "  tried PATH (not read: WHY)": a path where a source was looked for, the
 * first skip columns of the path scrolled off, into out (the source
 * screens list them where the source is missing).
 */
struct source_tried;
void view_tried_text(char *out, size_t size, const struct source_tried *tr, int skip);

/*
 * The loading screen: "Reading the profile: N% (x of y MB)", or with total
 * 0 (a pipe, its end not known) "x MB so far"; q stops it.
 */
void view_draw_loading(struct grid *g, const char *path, uint64_t done, uint64_t total);
/* The same with another what ("Decompressing") and the keys that stop it on the status line. */
void view_draw_progress(struct grid *g, const char *path, const char *what, uint64_t done,
			uint64_t total, const char *keys);

#endif
