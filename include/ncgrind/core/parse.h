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

struct parse_opts {
	/* called now and then with bytes done and total; may be NULL */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	/*
	 * called with the bytes of a compressed file decompressed so far; true
	 * stops it, as reading does for a pipe. may be NULL
	 */
	bool (*unpacking)(void *ctx, uint64_t done, uint64_t total);
	/*
	 * called while a pipe or standard input is read (map.h's map_watch);
	 * true stops it: the load fails, saying it was stopped. may be NULL
	 */
	bool (*reading)(void *ctx, uint64_t done);
	void *ctx;
	unsigned jobs; /* threads that index: 0 for the cores available, 1 for one pass */
	/* --event=NAME=FORMULA (strings that outlive the profile); may be NULL */
	const char *const *events;
	size_t nevents;
	uint64_t chunk; /* bytes a thread takes at a time: 0 to choose from the size */
	/*
	 * The caller's thread indexes chunks too while it waits for the next one
	 * to merge (a report: it has nothing else to do), as one of the jobs.
	 * Not the browser's: it must stay free for the keys.
	 */
	bool help;
};

/*
 * Open the files added with profile_add_source() ("-" is standard input;
 * gzip, xz and zstd are decompressed), index them into the one profile and
 * finish it. Problems go to d, each with file:line. Returns 0 when the
 * profile could be read (possibly with errors: what was readable is
 * indexed), -1 when nothing usable was found (d holds the fatal message).
 * o may be NULL.
 *
 * With several jobs the files are cut into chunks that threads index at the
 * same time (parse_chunks.c); the result is the one pass's, always.
 */
int parse_profile(struct profile *p, struct diag *d, const struct parse_opts *o);

/*
 * The same, a step at a time, for the browser to show the profile while
 * it is read. parse_start() maps the files and starts the threads (NULL with
 * d's fatal message when it cannot be read); parse_poll() merges what they
 * have indexed, waiting up to timeout_ms for something to merge, and says
 * whether the whole file is in. Between calls, while parse_partial() holds,
 * p has the names, functions and self costs of the file's beginning (no
 * totals, inclusive costs or graph: profile_finish() makes those);
 * parse_end() waits for the rest (or, with cancel, stops at once) and
 * finishes the profile, returning as parse_profile() does (-1 when
 * cancelled).
 */
struct parse_job;
struct parse_job *parse_start(struct profile *p, struct diag *d, const struct parse_opts *o);
bool parse_poll(struct parse_job *j, int timeout_ms);
bool parse_partial(const struct parse_job *j);
void parse_done_bytes(struct parse_job *j, uint64_t *done, uint64_t *total);
/*
 * While parse_partial() holds: the sums of the self costs merged so far, by
 * event (nev of them): what the functions' self rows add up to, without
 * reading them.
 */
void parse_read_sums(const struct parse_job *j, uint64_t *out, uint32_t nev);
int parse_end(struct parse_job *j, bool cancel);

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
