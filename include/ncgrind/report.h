/*
 * report: the batch reports of `ncgrind --dump=...`, written without curses.
 *
 * tsv is a contract other tools rely on (see doc/ncgrind.1): a header line,
 * one row per function or per caller/callee pair, plain decimal integers,
 * an empty field for an unknown name, and '\t', '\n', '\\' inside names
 * written as the two characters \t, \n, \\. json carries the same data with
 * the events and totals; text is a table for people, in the spirit of
 * callgrind_annotate.
 */
#ifndef NCGRIND_REPORT_H
#define NCGRIND_REPORT_H

#include "ncgrind/profile.h"

#include <stdio.h>

enum report_kind {
	REPORT_FUNCTIONS,
	REPORT_CALLS,
	REPORT_TREE,
	REPORT_CALLERS,
	REPORT_CALLEES,
	REPORT_SOURCE,
	REPORT_LINES,
};

struct source_paths;
struct filters;
enum report_format { REPORT_TEXT, REPORT_TSV, REPORT_JSON };
enum report_sort { SORT_SELF, SORT_INCL, SORT_CALLS, SORT_NAME };

struct report_opts {
	enum report_kind kind;
	enum report_format format;
	enum report_sort sort;
	uint32_t sort_event;    /* event the numeric sorts use */
	const uint32_t *events; /* events shown, in this order */
	uint32_t nevents;
	const bool *keep;              /* functions the filters let through, or NULL for all */
	const struct filters *filters; /* for `hide` in trees, or NULL */
	/* trees, callers and callees (report_tree.c) */
	const char *function; /* regex: the functions to report on (tree roots) */
	uint32_t depth;       /* levels of a tree below its root */
	double threshold;     /* percent of the root under which branches are folded */
	bool inverted;        /* a tree of callers */
	/* annotated source (report_source.c) */
	uint32_t context; /* lines shown around lines with cost */
	const struct source_paths *sources;
};

/*
 * Parse a list of event names ("Ir,Dr" or "Ir Dr") into out (p->nev slots).
 * Returns the count, or -1 with the unknown name quoted in err.
 */
int report_parse_events(const struct profile *p, const char *list, uint32_t *out, char *err,
			size_t errsize);

/*
 * Indices of the used functions in report order, *n of them (caller frees);
 * with keep, only the functions it lets through.
 */
uint32_t *report_sort_functions(const struct profile *p, enum report_sort sort, uint32_t ev,
				const bool *keep, size_t *n);
/* Edge indices in report order, *n of them (with keep: both ends kept; caller frees). */
uint32_t *report_sort_calls(const struct profile *p, enum report_sort sort, uint32_t ev,
			    const bool *keep, size_t *n);

/*
 * A name as the reports write it: tsv escapes only \t, \n and \\; text keeps
 * valid UTF-8 and writes anything a terminal would interpret as \xNN.
 */
void report_put_name(FILE *out, struct span s, bool tsv);

/* Write the report; returns 0, or -1 when writing failed. */
int report_write(FILE *out, const struct profile *p, const struct report_opts *o);

/*
 * Trees, callers and callees of the functions matching o->function (or a
 * tree from every entry point when it is NULL). Returns 0, or -1 with a
 * message in err (a bad regex, no matching function).
 */
int report_tree(FILE *out, const struct profile *p, const struct report_opts *o, char *err,
		size_t errsize);

/*
 * --dump=source: the annotated source of the functions matching o->function;
 * --dump=lines: every source line's self cost, summed over the functions (tsv).
 * Returns 0, or -1 with a message in err.
 */
int report_source(FILE *out, const struct profile *p, const struct report_opts *o, char *err,
		  size_t errsize);

#endif
