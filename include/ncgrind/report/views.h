/*
 * views: the batch reports built on the browser's view-models (call trees,
 * callers and callees, annotated source), written without curses; the
 * options and the sort orders are those of core/report.h.
 */
#ifndef NCGRIND_VIEWS_H
#define NCGRIND_VIEWS_H

#include "ncgrind/core/report.h"

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
