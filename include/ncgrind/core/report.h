/*
 * report: the batch reports of `ncgrind --dump=...`, written without curses.
 *
 * tsv is a contract other tools rely on (see doc/ncgrind.1): a header line,
 * one row per function or per caller/callee pair, plain decimal integers,
 * an empty field for an unknown name, and '\t', '\n', '\\' inside names
 * written as the two characters \t, \n, \\; the other bytes as they are,
 * unless the output is a terminal (then escaped as text escapes them). json
 * carries the same data with the events and totals, always valid (a byte
 * that is not UTF-8 is the text \xNN); text is a table for people, in the
 * spirit of callgrind_annotate, with what a terminal would act on escaped
 * (core/escape.h). The reports built on the view-models (trees, source)
 * are in report/views.h.
 */
#ifndef NCGRIND_REPORT_H
#define NCGRIND_REPORT_H

#include "ncgrind/core/profile.h"

#include <stdio.h>

/* The reports, listed once: ID, the name --dump takes. */
#define REPORT_LIST(R)                                                                             \
	R(FUNCTIONS, "functions")                                                                  \
	R(CALLS, "calls")                                                                          \
	R(TREE, "tree")                                                                            \
	R(CALLERS, "callers")                                                                      \
	R(CALLEES, "callees")                                                                      \
	R(FOLDED, "folded")                                                                        \
	R(SOURCE, "source")                                                                        \
	R(LINES, "lines")

enum report_kind {
#define R(id, name) REPORT_##id,
	REPORT_LIST(R)
#undef R
	    REPORT_COUNT
};

/*
 * The sort orders, listed once: ID, the name --sort, :sort and the status
 * line use, the word of the text report's header.
 */
#define SORT_LIST(S)                                                                               \
	S(SELF, "self", "self")                                                                    \
	S(INCL, "incl", "inclusive")                                                               \
	S(CALLS, "calls", "calls")                                                                 \
	S(NAME, "name", "name")

enum report_sort {
#define S(id, name, word) SORT_##id,
	SORT_LIST(S)
#undef S
	    SORT_COUNT
};

/* A sort's or a report's name; a name's sort or report (len bytes), or -1. */
const char *report_sort_name(enum report_sort s);
const char *report_kind_name(enum report_kind k);
int report_sort_find(const char *name, size_t len);
int report_kind_find(const char *name);
/* "functions, calls, ...": the names --dump takes, from REPORT_LIST, into buf. */
char *report_kind_names(char *buf, size_t size);

struct source_paths;
struct filters;
struct call_shares;
enum report_format { REPORT_TEXT, REPORT_TSV, REPORT_JSON };

struct report_opts {
	enum report_kind kind;
	enum report_format format;
	enum report_sort sort;
	uint32_t sort_event;    /* event the numeric sorts use */
	const uint32_t *events; /* events shown, in this order */
	uint32_t nevents;
	const bool *keep;              /* functions the filters let through, or NULL for all */
	const struct filters *filters; /* for `hide` in trees, or NULL */
	bool terminal;                 /* the output is a terminal: tsv escapes as text does */
	/* the filters that narrowed it, as the text report's head says them; NULL: not said */
	const char *filtered_by;
	/* what a call costs as shown (graph.h), the session's; NULL: the report works it out */
	struct call_shares *shares;
	/* threads that write the rows of a long function report (0: the cores) */
	unsigned jobs;
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
/*
 * The same *n functions, the first k of them in that order exactly and the
 * others after them in no order: a screen's worth of a long list, at a cost
 * that grows with k and the functions that tie with the k-th, not with the
 * names of all (the browser's table while the profile is read).
 */
uint32_t *report_sort_functions_first(const struct profile *p, enum report_sort sort, uint32_t ev,
				      const bool *keep, size_t k, size_t *n);
/*
 * Every function's rank in the order of the names (function, file, object,
 * as bytes; equal names, equal rank), by function index (caller frees): the
 * order every report ends with, as profile_finish() keeps it in p->fn_rank.
 */
uint32_t *report_rank_functions(const struct profile *p);
/*
 * Edge indices in report order, *n of them (with keep: both ends kept; caller
 * frees); by cost: the cost shown, the call's share of its caller (graph.h).
 */
uint32_t *report_sort_calls(const struct profile *p, struct call_shares *shares,
			    enum report_sort sort, uint32_t ev, const bool *keep, size_t *n);

/*
 * A name as the reports write it: tsv escapes only \t, \n and \\, and on a
 * terminal also what text escapes; text keeps valid UTF-8 and writes what a
 * terminal would act on as \xNN or \uXXXX (core/escape.h).
 */
void report_put_name(FILE *out, struct span s, bool tsv, bool terminal);
/* A ratio event's value (millionths) as the reports write it, "0.016623"; its length. */
int report_ratio(char *buf, size_t size, uint64_t v);
/* s as a json string, quotes included (as the json report writes names). */
void report_put_json_string(FILE *out, struct span s);
/*
 * The head the json reports share, `{"file":...,"events":[...],"totals":{...}`
 * (o's events), left open for the report's own members.
 */
void report_put_json_head(FILE *out, const struct profile *p, const struct report_opts *o);
/* A costs object, {"Ir":5,"Dr":2}, of o's events in row (NULL: all 0). */
void report_put_json_costs(FILE *out, const struct profile *p, const struct report_opts *o,
			   const uint64_t *row);

/* Write the report; returns 0, or -1 when writing failed. */
int report_write(FILE *out, const struct profile *p, const struct report_opts *o);

#endif
