/*
 * srcview: where a function's cost lies, as plain data (no curses): self
 * cost per source line (or per instruction address), and the calls made on
 * each line, read lazily from the function's blocks (parse_block): nothing
 * per line is kept for a function never opened. Also the files its cost
 * falls in (inlined code, fi=/fe=), each with its share.
 */
#ifndef NCGRIND_SRCVIEW_H
#define NCGRIND_SRCVIEW_H

#include "ncgrind/profile.h"

struct src_cost {
	uint32_t file;    /* name id, NCG_NONE if unknown */
	uint64_t line;    /* 0: no line information */
	uint64_t addr;    /* 0 unless aggregated by instruction */
	uint32_t callee;  /* NCG_NONE: self cost; else a call to this function */
	uint64_t count;   /* calls */
	uint64_t *costs;  /* nev values */
};

struct src_file_share {
	uint32_t file;
	uint64_t *self;   /* nev values: the function's self cost in this file */
};

struct srcfn {
	const struct profile *p;
	uint32_t fn;
	bool by_addr;             /* rows per instruction address, not per line */
	struct src_cost *rows;    /* sorted by file, line (or addr), self before calls */
	size_t nrows;
	struct src_file_share *files; /* by self cost of event 0, largest first */
	size_t nfiles;
	uint64_t *pool;           /* the cost arrays */
	bool has_lines, has_addrs; /* what the profile's positions give */
};

/* Read function fn's blocks; by_addr aggregates per instruction address. */
void srcfn_load(struct srcfn *s, const struct profile *p, uint32_t fn, bool by_addr);
void srcfn_release(struct srcfn *s);

#endif
