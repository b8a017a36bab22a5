/*
 * parser: the state of the line machine, shared by the two halves of the
 * parse module: parse.c (body lines, the fast path, the entry points) and
 * parse_header.c (parts and header lines). Private to those two files;
 * the module's interface is include/ncgrind/parse.h.
 */
#ifndef NCGRIND_PARSER_H
#define NCGRIND_PARSER_H

#include "ncgrind/core/parse.h"

#include <stdatomic.h>

#define PROGRESS_STEP (32u << 20)
#define FN_CACHE 4096                 /* entries of the parser's function cache (a power of 2) */
#define ID_CACHE 4096                 /* entries of its compressed-id cache, per kind (the same) */
#define EDGE_CACHE 16384              /* entries of its edge cache (a power of 2) */
#define CALLEE_UNKNOWN (NCG_NONE - 1) /* a cfn= that could not be read */
#define ID_UNDEFINED_USED (NCG_NONE - 2) /* an id used before any definition */

/*
 * run()'s progress report, every PROGRESS_STEP bytes; with a cancel flag,
 * every CANCEL_STEP bytes, when it also stops the run once the flag is set.
 */
#define CANCEL_STEP (1u << 20)
struct parse_progress {
	void (*fn)(void *ctx, uint64_t done, uint64_t total);
	void *ctx;
	const atomic_bool *cancel;
};

enum next_line { NEXT_COST, NEXT_CALL, NEXT_JUMP, NEXT_SKIP };
enum id_kind { ID_OB, ID_FL, ID_FN }; /* index into part.ids */

/*
 * Chunks (parse_chunks.c). A chunk of the file, parsed on its own into a
 * profile of its own, starts at a fn= line in the middle of a part: what
 * the lines before it would tell (the object and file current there, the
 * names of compressed ids defined there) is not known yet. Each such name
 * becomes a placeholder, a name of the chunk's profile with no bytes, and
 * is resolved when the chunk is merged in file order.
 */
enum ph_kind { PH_OB = ID_OB, PH_FL = ID_FL, PH_FN = ID_FN, PH_OBJECT, PH_FN_FILE };

struct placeholder {
	uint32_t name; /* in the chunk's names */
	enum ph_kind kind;
	uint64_t id; /* compressed id (PH_OB, PH_FL, PH_FN) */
};

struct placeholders {
	struct placeholder *v;
	size_t n, alloc;
};

/* What a chunk assumes of the part it starts in: its events and positions. */
struct chunk_start {
	struct span *events; /* names, in the part's order */
	uint32_t nev;
	int npos;
	enum pos_kind pos_kind[PROFILE_MAX_POS];
};

/* The parser's state at the end of a chunk, in the chunk's ids. */
struct chunk_end {
	uint32_t object, fn_file, cobject, cfile, jfile, jfn;
	int next; /* enum next_line */
	bool have_events;
	int npos;
	enum pos_kind pos_kind[PROFILE_MAX_POS];
	uint32_t nev;
	uint32_t *evmap; /* the chunk's events; malloc'd */
	uint64_t lines;
};

/* Header keys that, seen twice or after body lines, start a new part. */
enum {
	KEY_EVENTS = 1,
	KEY_POSITIONS = 2,
	KEY_PART = 4,
	KEY_THREAD = 8,
	KEY_PID = 16,
	KEY_VERSION = 32,
	KEY_CREATOR = 64,
};

struct parser {
	struct profile *prof;
	struct diag *diag;       /* NULL in block mode */
	const char *end;         /* one past the last '\n' of the current range */
	const char *words_end;   /* the lines before it may be read by words (swar_limit()) */
	const char *mark;        /* where the next progress report is due */
	const char *range_start; /* to turn pointers into offsets */
	uint64_t range_off;
	uint64_t lineno;
	uint32_t src;           /* the file being read (profile.src) */
	uint64_t progress_base; /* bytes of the files read before it */

	/* chunk mode: names not known at the chunk's start become placeholders */
	struct placeholders *ph;

	/* block mode */
	bool reread; /* block mode: parse_block() re-reads one function's block */
	parse_line_fn sink;
	void *sink_ctx;

	/* current part */
	uint32_t part;
	unsigned part_keys;
	bool part_body; /* the part has body lines */
	bool seen_any;  /* a line was recognized: this is a profile */
	bool have_events;
	bool stop; /* fatal: read no further */
	int npos;
	enum pos_kind pos_kind[PROFILE_MAX_POS];
	uint32_t nev;    /* events of the current part */
	uint32_t *evmap; /* part event -> global event */
	size_t evmap_alloc;
	bool ev_identity;
	uint64_t *part_sum; /* global order, prof->nev values */
	size_t part_sum_alloc;

	/* position and context */
	uint64_t pos[PROFILE_MAX_POS];
	bool pos_set;
	uint32_t object, fn_file, file, fn;
	uint32_t cobject, cfile, callee;
	uint32_t jfile, jfn;
	uint32_t block;
	struct block_ctx block_ctx; /* the state at the open block's start, stored at its end */

	/* a call or jump waiting for its line */
	enum next_line next;
	uint64_t call_count, call_line;
	uint64_t jump_count, jump_taken;
	bool jump_cond;
	uint64_t target[PROFILE_MAX_POS];

	/*
	 * The functions last found by (object, file, name), direct-mapped by
	 * name: a cfn= line makes the same few lookups again and again, and
	 * the hash table's first probe is a cache miss each time.
	 */
	struct fn_cache {
		uint32_t object, file, name, fn;
	} * fcache; /* [FN_CACHE] */

	/*
	 * The same for call edges, by caller and callee: a function calls the
	 * same few again and again, and a part calls what the part before it
	 * called. Both are allocated for indexing only (parser_caches()):
	 * block mode uses neither, and keeps its parser on the stack.
	 */
	struct edge_cache {
		uint32_t caller, callee, edge1; /* the edge + 1; 0 (calloc): none */
	} * ecache;                             /* [EDGE_CACHE] */

	/*
	 * The names last resolved by compressed id, direct-mapped by id, per
	 * kind, for the current part (part1: its index + 1; 0, as memset
	 * leaves it, for no entry). Callgrind numbers ids across the whole
	 * run, so a profile that defines 2,000 ids may number them up to
	 * 70,000: the idtab then hashes them, and each fn=(12) paid a hash
	 * and two cache misses. Every change of an id while indexing goes
	 * through id_set(), which drops its entry. Allocated (zeroed) when
	 * indexing; block mode, which has its own history of ids, has none.
	 */
	struct id_cache {
		uint64_t id;
		uint32_t name, part1;
	} (*icache)[ID_CACHE]; /* [3] */

	/*
	 * One pass only, per kind: the part (its index + 1) that last defined
	 * each id with the very name shared_ids gives it (id_stamp(); ids
	 * below 8 times those shared_ids has). Callgrind defines every name
	 * again in each part of a file of combined dumps, and such a
	 * definition goes in no table of the part's own, which then holds only
	 * what the part defines anew or otherwise. py-sepcallers2's 210,000
	 * definitions, each hashed into its part's table (ids run to 89,000, a
	 * part defines a hundred) and walked twice when the part closed, were
	 * 6.5% of a one-job index's instructions. `stamped`: this part's, for
	 * a part that keeps a table of its own after all (parser_own_stamped()).
	 */
	uint32_t *stamp[3];
	size_t nstamp[3];
	struct stamped {
		uint64_t id;
		enum id_kind kind;
	} * stamped;
	size_t nstamped, stamped_alloc;

	uint64_t *vals; /* costs of one line, part order */
	size_t vals_alloc;
	uint64_t *row; /* block mode: one line in global order */
	size_t row_alloc;
};

/* parse.c */
int parser_error(struct parser *ps, const char *fmt, const char *p, size_t n);
size_t parser_token_len(const char *p);
size_t parser_line_len(const char *p);
void parser_block_close(struct parser *ps, const char *p);
/*
 * At a part's close in one pass, when its ids do not all agree with
 * shared_ids (profile_share_ids() left it its own tables): the ids it
 * stamped go in them too.
 */
void parser_own_stamped(struct parser *ps, struct part *pt);
void parser_pending_check(struct parser *ps, const char *p);

/*
 * Parse lines [start, end) of map m (end after a '\n') into `local`, a
 * profile of the chunk's own. cs: the part it starts in (NULL: the chunk
 * starts the file). Problems go to d: any problem makes the chunk unusable
 * for the merge, which then reads the file in one pass instead.
 */
void parser_chunk(struct profile *local, const struct map *m, struct diag *d, uint64_t start,
		  uint64_t end, const struct chunk_start *cs, struct placeholders *ph,
		  struct chunk_end *ce, const atomic_bool *cancel);

/*
 * Map file s of prof (profile_add_source) for parsing, decompressed if it
 * is compressed; -1 with d's fatal message when it cannot be read.
 */
int parser_open(struct profile *prof, uint32_t s, struct diag *d, const struct parse_opts *o);
/*
 * Of several mapped files, those whose first line is no profile's (junk
 * beside a run: callgrind.out.123.4) are dropped with a warning each, as
 * long as one that is a profile remains; alone, a file is read and refused.
 */
void parser_skip_strangers(struct profile *prof, struct diag *d);
/* Index the mapped files in one pass each (the reference the chunks reproduce). */
void parser_one_pass(struct profile *prof, struct diag *d, const struct parse_opts *o,
		     const atomic_bool *cancel);
/* After the last line: fatal checks, then profile_finish(); 0, or -1. */
int parser_close(struct profile *prof, struct diag *d, unsigned jobs);

/* parse_header.c */
struct part *parser_part(struct parser *ps);
void parser_grow_sum(struct parser *ps);
void parser_part_open(struct parser *ps, const char *p);
void parser_part_close(struct parser *ps);
void parser_context_reset(struct parser *ps);
/* Lines "key: value"; returns 1 when the key is known, 0 when not. */
int parser_header_line(struct parser *ps, const char *line);

#endif
