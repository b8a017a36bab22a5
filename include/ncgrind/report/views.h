/*
 * views: the batch reports built on the browser's view-models (call trees,
 * callers and callees, annotated source), written without curses; the
 * options and the sort orders are those of core/report.h.
 */
#ifndef NCGRIND_VIEWS_H
#define NCGRIND_VIEWS_H

#include "ncgrind/core/report.h"
#include "ncgrind/model/diff.h"
#include "ncgrind/model/groups.h"

/*
 * Trees, callers and callees of the functions matching o->function (or a
 * tree from every entry point when it is NULL). Returns 0, or -1 with a
 * message in err (a bad regex, no matching function).
 */
int report_tree(FILE *out, const struct profile *p, const struct report_opts *o, char *err,
		size_t errsize);

/* A line of source text, escaped as text escapes it, tabs kept for the pager. */
void report_put_text(FILE *out, struct span s);

/*
 * --dump=source: the annotated source of the functions matching o->function;
 * --dump=lines: every source line's self cost, summed over the functions (tsv).
 * Returns 0, or -1 with a message in err.
 */
int report_source(FILE *out, const struct profile *p, const struct report_opts *o, char *err,
		  size_t errsize);
/* --dump=functions --group=KIND: a row per group (groups.h), sorted as o->sort says. */
int report_groups(FILE *out, const struct profile *p, const struct report_opts *o,
		  enum group_kind kind);

/*
 * --diff BASE NEW --dump=functions|calls|lines: every function (call, source
 * line) of either profile with its
 * base and new cost, the change, the change as a percentage of the base's
 * total and the ratio new/base, for self and inclusive costs (text: the self
 * cost of one event). events: a list of event names (NULL: all of both);
 * sort_event: the event the rows are sorted by (NULL: the first), biggest
 * change first (o->sort SORT_INCL: of the inclusive cost). Returns 0; -1
 * with a message in err when the report cannot be made (no function matches,
 * a write error), as a report of one profile; -2 for a usage error (a report
 * a diff has not, no event named).
 */
int report_diff(FILE *out, const struct diff *d, const struct rewrites *rules,
		const struct report_opts *o, const char *events, const char *sort_event, char *err,
		size_t errsize);

#endif
