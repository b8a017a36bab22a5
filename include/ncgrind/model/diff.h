/*
 * diff: two profiles side by side, base and new (ncgrind --diff BASE NEW).
 * Functions are matched by (object's base name, file, name), each part
 * rewritten first by the user's rules, in order: s/REGEX/REPLACEMENT/[gi]
 * as cg_annotate's --mod-filename and --mod-funcname take them (POSIX
 * extended regexes, \1 to \9 for the groups, & for the whole match), so that
 * two builds with other paths or addresses match. Then a function alone under
 * its object and name on each side, whose file has the same base name on
 * both, is matched too (unless strict_files). Events are matched by name.
 * No curses: the browser and the reports read it.
 */
#ifndef NCGRIND_DIFF_H
#define NCGRIND_DIFF_H

#include "ncgrind/core/profile.h"

#include <regex.h>
#include <stdbool.h>

enum diff_part { DIFF_OBJECT, DIFF_FILE, DIFF_NAME };

struct rewrite {
	enum diff_part part;
	regex_t re;
	char *repl;
	bool global; /* g: every match, not only the first */
};

struct rewrites {
	struct rewrite *v;
	size_t n, alloc;
	/*
	 * --strict-files: a function's file matches by its whole path only.
	 * Without it, a function alone under its object and name on each side
	 * whose files differ only in the directory (a checkout built twice, in
	 * a/ and in b/) is one row.
	 */
	bool strict_files;
};

void rewrites_release(struct rewrites *r);
/*
 * Adds the rule spec ("s/REGEX/REPLACEMENT/" with g and i as flags; any
 * byte may stand for the /) for a part. -1 with a message in err.
 */
int rewrites_add(struct rewrites *r, enum diff_part part, const char *spec, char *err,
		 size_t errsize);
/* The rules for part applied in order to s; a malloc'd string. */
char *rewrites_apply(const struct rewrites *r, enum diff_part part, struct span s);

/* One row: a function of either side (NCG_NONE where it has none). */
struct diff_row {
	uint32_t base, new;
};

struct call_shares;

struct diff {
	const struct profile *base, *new;
	struct diff_row *rows; /* matched first, then only in base, then only in new */
	size_t nrows, matched, only_base, only_new;
	size_t matched_dir; /* of matched: those whose files differ only in the directory */
	/*
	 * filtered: diff_build was given the filters' verdicts, and the rows
	 * (their counts, calls, totals of what is unmatched) are those kept;
	 * nrows_all: the rows before the filters dropped any.
	 */
	bool filtered;
	size_t nrows_all;
	/*
	 * Per row: for a function of one side only, its namesake (same object
	 * and name after the rules) in another file of the other side, the
	 * function of that profile; else NCG_NONE. The counts: rows gone and
	 * new that have one (what --mod-filename could match).
	 */
	uint32_t *elsewhere;
	size_t elsewhere_gone, elsewhere_new;
	/* the files of the rows matched across directories: base's name -> new's (rules applied) */
	struct diff_file_pair *file_pairs;
	size_t nfile_pairs;
	/* the events of both (by name, new's order, then base's others) */
	uint32_t nev;
	struct span *ev_name;
	uint32_t *ev_base, *ev_new;       /* the event in each profile, NCG_NONE if it lacks it */
	uint64_t *total_base, *total_new; /* per diff event */
	uint64_t *unmatched_base, *unmatched_new; /* self cost of the functions of one side */
	/* per function of each side: the next function of its row (same key), NCG_NONE */
	uint32_t *next_base, *next_new;
	/* per function of each side: its row (NCG_NONE: not listed) */
	uint32_t *row_of_base, *row_of_new;
	/* the calls: caller and callee rows, with the call edges of each side */
	struct diff_call *calls; /* sorted by caller row, then callee row */
	size_t ncalls;
	/* the calls of row r: out of it calls[out_start[r] .. out_start[r + 1]), into it
	 * calls[in_call[i]] for i in [in_start[r], in_start[r + 1]) */
	uint32_t *out_start, *in_start, *in_call;
	uint32_t *next_edge_base, *next_edge_new; /* per edge: the next of its call */
	/* each side's calls as shown: their shares of the callers (graph.h) */
	struct call_shares *shares_base, *shares_new;
};

struct diff_file_pair {
	char *base, *new;
};

/* A call between two rows, made in base, new or both (edges of one side: summed). */
struct diff_call {
	uint32_t caller, callee; /* rows */
	uint32_t base, new;      /* the first edge of each side, NCG_NONE if none */
};

/*
 * Match base and new with the rules (may be NULL). keep_base, keep_new: the
 * filters' verdict per function of each side (filters_apply), or NULL for
 * all: the functions are matched first, then a row is kept where a side
 * that has it keeps it (either side), and the calls between kept rows.
 */
void diff_build(struct diff *d, const struct profile *base, const struct profile *new,
		const struct rewrites *rules, const bool *keep_base, const bool *keep_new);
void diff_release(struct diff *d);

/*
 * A call's count or cost (event e) on one side, summed over its edges (0 if
 * none); the cost as every screen shows a call, each edge's share of its
 * caller (graph.h).
 */
uint64_t diff_call_count(const struct diff *d, size_t call, bool new_side);
uint64_t diff_call_cost(const struct diff *d, size_t call, bool new_side, uint32_t e);
/* The same as the files record them (the diff's trees scale them themselves). */
uint64_t diff_call_recorded(const struct diff *d, size_t call, bool new_side, uint32_t e);
/* The calls in report order: by the absolute change of their cost in e, biggest first. */
size_t *diff_call_order(const struct diff *d, uint32_t e);

/*
 * The new side's name of a base file (after the rules) that rows matched
 * across directories pair with a file of the new side; NULL if none.
 */
const char *diff_file_pair(const struct diff *d, const char *base_file);

/* Whether row r is matched across directories (its files differ in the directory only). */
bool diff_row_moved(const struct diff *d, size_t r);

/* A row's self or inclusive cost on one side in diff event e (0 where it has none). */
uint64_t diff_cost(const struct diff *d, size_t row, bool new_side, bool incl, uint32_t e);

/* The row's function in the side that has it (new first), and that side's profile. */
uint32_t diff_function(const struct diff *d, size_t row, const struct profile **p);

/*
 * The rows in report order: by the absolute change of self cost in event e,
 * biggest first (then by name), or by the change itself, most grown first
 * (dir 1) or most shrunk first (dir -1). A malloc'd array of nrows indexes.
 */
size_t *diff_order(const struct diff *d, uint32_t e, bool incl, int dir);

#endif
