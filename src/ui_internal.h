/*
 * ui_internal: what the two halves of the browser's loop share: ui.c (input,
 * keys, screens, drawing, loading) and ui_commands.c (the command language,
 * the prompt's completion). Private to those files; the interface is ui.h.
 */
#ifndef NCGRIND_UI_INTERNAL_H
#define NCGRIND_UI_INTERNAL_H

#include "ncgrind/filter.h"
#include "ncgrind/history.h"
#include "ncgrind/prompt.h"
#include "ncgrind/table.h"
#include "ncgrind/ui.h"
#include "ncgrind/view.h"

#include <stdio.h>

struct script {
	FILE *f;
	char *line;
	size_t cap;
	char *cur;     /* the rest of the current line */
	char *pending; /* the rest of a "text" token, typed key by key */
	uint64_t lineno;
	const char *path;
};

struct ui {
	struct profile prof;
	struct diag diag;
	struct table t;
	struct view_state vs;
	struct grid g;
	struct history hist;   /* the table, then the screens opened from it */
	char *path;            /* after `open`: the profile's name, owned */
	struct prompt *prompt; /* the command line (libedit); NULL if it could not start */
	struct prompt *search; /* the search line, with its own history; NULL likewise */
	struct filters filters; /* filter, focus, ignore, hide */
	bool *keep;            /* the filters' verdict per function */
	struct callgraph graph;
	double threshold;      /* of new call trees, in percent */
	struct source_paths *sources;
	struct script *script; /* NULL: the terminal */
	bool quit;
	int status;            /* exit status */
};

/* ui.c */
void ui_message(struct ui *u, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int ui_page(const struct ui *u);
void ui_rebuild_tree(struct ui *u, struct screen *s);
/* Cycle detection on or off: the table's costs and marks, every tree of the history. */
void ui_set_cycles(struct ui *u, bool on);
void ui_save_screen(struct ui *u, const char *path);
int ui_parse_size(const char *s, int *cols, int *rows);
int ui_load(struct ui *u, const char *path);
void ui_views_init(struct ui *u);
void ui_views_release(struct ui *u);

/* ui_commands.c */
/* Run one command line (a script's ":...", --command, the prompt). */
void ui_run_command(struct ui *u, char *cmd);
void ui_command(struct ui *u, const char *line);
void ui_undo_filter(struct ui *u);
/* Tab on the command line and on the search line (see prompt_complete_fn). */
size_t ui_complete(void *ctx, const char *line, char *insert, size_t insert_size, char *hint,
		   size_t hint_size);
size_t ui_complete_search(void *ctx, const char *line, char *insert, size_t insert_size,
			  char *hint, size_t hint_size);

#endif
