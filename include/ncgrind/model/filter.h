/*
 * filter: which functions the views show, from commands the user gives:
 * `filter REGEX` (names; `file:REGEX`, `object:REGEX`), `focus REGEX` (what
 * lies on call paths through matching functions), `ignore REGEX` (drop the
 * matching functions and what is reached only through them) and `hide REGEX`
 * (trees skip matching frames, joining their callers and callees). Filters
 * combine; the last one can be undone. Plain data: no curses.
 */
#ifndef NCGRIND_FILTER_H
#define NCGRIND_FILTER_H

#include "ncgrind/core/graph.h"
#include "ncgrind/core/profile.h"

#include <regex.h>
#include <stdbool.h>

enum filter_kind {
	FILTER_NAME,
	FILTER_FILE,
	FILTER_OBJECT,
	FILTER_FOCUS,
	FILTER_IGNORE,
	FILTER_HIDE
};

struct filter {
	enum filter_kind kind;
	char *pattern;
	regex_t re;
};

struct filters {
	struct filter *list;
	size_t n, alloc;
	unsigned version; /* changes with every change of the list: caches compare it */
};

void filters_init(struct filters *f);
void filters_release(struct filters *f);
/* Add one; -1 with regerror's reason in err for a bad regex. */
/*
 * The kind of filter a command gives: "filter" (a name; "file:" and "object:"
 * before the expression pick the file or object, and *arg moves past them),
 * "focus", "ignore" or "hide". One reading for the prompt and --command.
 */
enum filter_kind filters_kind(const char *cmd, const char **arg);
int filters_add(struct filters *f, enum filter_kind kind, const char *pattern, char *err,
		size_t errsize);
/* Drop the last filter; false when there is none. */
bool filters_undo(struct filters *f);
/* Drop the name, file and object filters (`filter` alone). */
void filters_clear_names(struct filters *f);

/*
 * keep[f] for every function: whether the filters let it through. Returns
 * false (and leaves keep alone) when no filter narrows the functions.
 */
bool filters_apply(const struct filters *f, const struct profile *p, const struct callgraph *g,
		   bool *keep);
/*
 * hidden[fn] = filters_hides() for every function; false (and hidden left
 * alone) when there is no hide filter. A tree asks it once, not once per edge.
 */
bool filters_hidden(const struct filters *f, const struct profile *p, bool *hidden);
/* Whether trees skip this function (a `hide` filter matches it). */
bool filters_hides(const struct filters *f, const struct profile *p, uint32_t fn);
/* "filter ^std:: + ignore malloc", for the header; "" when there is none. */
void filters_describe(const struct filters *f, char *buf, size_t size);

#endif
