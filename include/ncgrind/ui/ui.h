/*
 * ui: the browser. Loads the profile (showing progress on the terminal),
 * then runs the loop: a key from the terminal or from a script becomes a
 * request, the request changes the view-model, the view is drawn into the
 * grid and the grid is painted (or, in script mode, saved on request).
 */
#ifndef NCGRIND_UI_H
#define NCGRIND_UI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct source_paths;
struct rewrites;

/* --color: colour where the terminal has it and NO_COLOR is not set, always, never. */
enum ui_colour { UI_COLOUR_AUTO, UI_COLOUR_ALWAYS, UI_COLOUR_NEVER };

struct ui_opts {
	struct source_paths *sources; /* where to look for source files; :include adds */
	const char *script;           /* headless: keys and :commands from this file */
	const char **commands;        /* --command: run after loading, in order */
	size_t ncommands;
	int rows, cols;    /* script mode screen size (default 24 x 80) */
	bool no_cycles;    /* --no-cycles: cycle detection off from the start */
	unsigned jobs;     /* --jobs: threads that index (0: the cores) */
	bool first_screen; /* --bench-first-screen: quit once the first table is shown */
	bool whole_table;  /* --bench-whole-table: quit once the table is whole (the read ended) */
	const char *diff_base;        /* --diff BASE NEW: BASE (the files read are NEW's) */
	const struct rewrites *rules; /* --mod-*: how the diff matches names */
	bool no_siblings;             /* --no-siblings: a diff's base is the file named alone */
	bool no_demangle;             /* --no-demangle: names as the profile writes them */
	const char *const *events;    /* --event=NAME=FORMULA */
	size_t nevents;
	const char *config;    /* --config=FILE; NULL: the default one, if there is one */
	enum ui_colour colour; /* --color */
};

/*
 * Returns the process exit status, or UI_NO_BROWSER (after saying why on
 * stderr) when the terminal cannot show the browser (TERM=dumb): the caller
 * prints the report instead.
 */
#define UI_NO_BROWSER (-1)

/*
 * --list-keys: every binding, "SCOPE\tKEYS\tREQUEST\tHELP" a line, the
 * generic keymap first, then each kind of screen's own.
 */
void ui_list_keys(FILE *f);
int ui_main(char *const *paths, size_t n, const struct ui_opts *o);

#endif
