/*
 * detail: one function's callers and callees as plain data (no curses), for
 * the browser's function screen. Each row is one caller/callee pair with
 * the cost of its calls (their share of the caller, graph.h), their count,
 * and where they are
 * (re-read from the caller's blocks when the screen opens).
 */
#ifndef NCGRIND_DETAIL_H
#define NCGRIND_DETAIL_H

#include "ncgrind/model/calltree.h"
#include "ncgrind/model/nav.h"
#include "ncgrind/core/report.h"

enum detail_row_kind { DROW_CALLERS, DROW_CALLER, DROW_CALLEES, DROW_CALLEE };

struct detail_row {
	enum detail_row_kind kind; /* DROW_CALLERS/CALLEES: a section heading */
	uint32_t edge;
	uint32_t site_file; /* the first call site, NCG_NONE if none known */
	uint64_t site_line;
	uint32_t more_sites; /* further call sites */
};

struct detail {
	const struct profile *p;
	const struct callgraph *g; /* its calls' shares (graph.h) */
	uint32_t fn, event;
	enum report_sort sort; /* SORT_INCL (the cost of the calls), SORT_CALLS or SORT_NAME */
	bool reverse;
	struct detail_row *rows;
	struct nav nav; /* over rows; the cursor skips the headings */
};

void detail_init(struct detail *d, const struct profile *p, const struct callgraph *g, uint32_t fn,
		 uint32_t event);
void detail_release(struct detail *d);
/*
 * Sort each section by key (SORT_INCL: the cost of the calls, SORT_CALLS:
 * their count, SORT_NAME: the caller's or callee's name), largest first (names
 * A to Z); the same key again reverses. The cursor goes to the first row.
 */
void detail_sort(struct detail *d, enum report_sort key, int page);
/* Sort by key, reversed or not, whatever the order was (a screen built again keeps its). */
void detail_order(struct detail *d, enum report_sort key, bool reverse, int page);
/* Move by delta rows, over the headings. */
bool detail_move(struct detail *d, long delta, int page);
/* After the cursor moved (dir: the way it went): off a heading, and in sight. */
void detail_settle(struct detail *d, int dir, int page);
/* The function on the selected row (the caller or the callee), or NCG_NONE. */
uint32_t detail_target(const struct detail *d);

#endif
