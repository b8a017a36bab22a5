/*
 * parse: one pass over a mapped Callgrind/Cachegrind profile that builds the
 * index (struct profile). The same line machine, in "block" mode, reads the
 * blocks of one function again and reports each of its cost lines, without
 * touching the index (the callers and callees, the source view).
 */
#ifndef NCGRIND_PARSE_H
#define NCGRIND_PARSE_H

#include "ncgrind/core/diag.h"
#include "ncgrind/core/profile.h"

struct parse_progress {
	/* called every few megabytes with bytes done and total; may be NULL */
	void (*fn)(void *ctx, uint64_t done, uint64_t total);
	void *ctx;
};

/*
 * Open `path` ("-" is standard input), index it and finish the profile.
 * Problems go to d, each with file:line. Returns 0 when the profile could be
 * read (possibly with errors: what was readable is indexed), -1 when nothing
 * usable was found (d holds the fatal message).
 */
int parse_profile(struct profile *p, const char *path, struct diag *d,
		  const struct parse_progress *progress);

/* One cost line of a function, as block mode reports it. */
enum parse_line_kind { PARSE_SELF, PARSE_CALL, PARSE_JUMP };

struct parse_line {
	enum parse_line_kind kind;
	uint64_t line;                 /* line number in the profile */
	uint32_t file;                 /* source file (after fi=/fe=), name id */
	uint64_t pos[PROFILE_MAX_POS]; /* by enum pos_kind; 0 where absent */
	const uint64_t *costs;         /* nev values; zeros for jumps */
	uint32_t callee;               /* PARSE_CALL: function */
	uint64_t count;                /* calls, or jumps executed */
	uint64_t taken;                /* conditional jumps: times taken */
	bool conditional;
	uint32_t target_fn, target_file; /* PARSE_JUMP */
	uint64_t target[PROFILE_MAX_POS];
};

typedef void (*parse_line_fn)(void *ctx, const struct parse_line *l);

/* Re-read block b of the profile and report its lines to fn (detail.c). */
void parse_block(const struct profile *p, uint32_t b, parse_line_fn fn, void *ctx);

#endif
