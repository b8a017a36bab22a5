/*
 * profile: the index of one loaded profile. Built by parse_profile() in one
 * pass over the mapping; afterwards read-only, except profile_finish() which
 * derives inclusive costs, cycles and inherited events.
 *
 * Functions are identified as KCachegrind does: by (object, file of `fl=`,
 * name). Costs are dense uint64_t rows of `nev` values, one row per function
 * (self, incl) and per call edge (inclusive cost of the calls). Names are
 * spans into the mapping (zero copy); name ids index `names`.
 *
 * For the views that come later, every run of lines that belongs to one
 * function (a "block", opened by `fn=`) is recorded with the parser state at
 * its start, so that a function's per-line and per-instruction costs can be
 * parsed again for that function alone (see detail.h).
 */
#ifndef NCGRIND_PROFILE_H
#define NCGRIND_PROFILE_H

#include "ncgrind/core/diag.h"
#include "ncgrind/core/map.h"
#include "ncgrind/core/names.h"
#include "ncgrind/core/demangle.h"
#include "ncgrind/core/util.h"

#include <stdbool.h>
#include <stdint.h>

#define PROFILE_MAX_POS 3 /* instr, bb, line */

enum pos_kind { POS_INSTR, POS_BB, POS_LINE };

/* A ratio event's values are millionths: 1,000,000 is 1. */
#define EVENT_RATIO_ONE 1000000u

/*
 * One term of an inherited event's formula: factor times the value of event
 * ev, raw or inherited (one defined before, so a row is worked out from left
 * to right). A formula keeps the terms it was written with, not one factor
 * per raw event: 30,000 `event:` lines over 30,000 events are 30,000 terms.
 */
struct event_term {
	uint64_t factor;
	uint32_t ev;
};

struct event {
	struct span name;
	struct span long_name; /* from `event:`, may be empty */
	struct span formula;   /* inherited events only, e.g. "Ir + 10 I1mr" */
	char *formula_text;    /* owned: the formula when made here (well-known events), or NULL */
	bool derived;          /* computed from `formula`, no raw data */
	bool builtin;          /* a well-known one ncgrind adds (KCachegrind's L1m, CEst ...) */
	bool ratio;            /* terms / den of a row's own values, in millionths */
	uint32_t nterms, nden;
	struct event_term *terms; /* derived: the sum it is (a ratio: its numerator) */
	struct event_term *den;   /* ratio: the denominator's terms */
	uint64_t line;            /* of its event: line, 0 if none */
};

/*
 * A compressed id that the index used before it got the name it ends with:
 * redefined, or used before its definition. Until `line` it stood for
 * `before` (NCG_NONE: undefined), so that parse_block() sees each id as the
 * index saw it at that line. Valid files have none.
 */
struct id_change {
	uint64_t id, line;
	uint32_t before;
	uint32_t kind; /* 0 object, 1 file, 2 function */
};

/* How the index was built: for --stats and the bench. */
struct index_stats {
	unsigned jobs;      /* threads that indexed */
	size_t chunks;      /* 0: one pass */
	bool one_pass;      /* read in one pass (asked for, small, or a chunk could not be used) */
	double wall;        /* seconds from the start to the last merge */
	double main_cpu;    /* CPU seconds of the thread that merged */
	double *thread_cpu; /* CPU seconds of each thread that indexed */
	/* seconds of profile_finish() after the last merge (0: none, a kept index) */
	double finish;
	double inclusive;   /* of which the inclusive costs (graph_inclusive()) */
	double ranked;      /* the names' ranking, on a thread of its own beside them */
	unsigned part_jobs; /* threads that last counted the chosen parts again (0: none did) */
	int cache;          /* enum cache_use (cache.h): read from a kept index, or why not */
};

/* One part of the file (a dump, a thread, an Xdebug profile). */
struct part {
	uint32_t src; /* the file it is in (profile.src) */
	uint64_t first_line;
	int64_t number, thread, pid; /* -1 when not given */
	struct span cmd, creator, trigger;
	struct span timerange; /* desc: Timerange: (Callgrind: "Basic block 0 - 2141188") */
	int npos;
	enum pos_kind pos[PROFILE_MAX_POS];
	uint32_t nev;               /* events of this part, in its `events:` order */
	uint32_t *evmap;            /* part event -> global event */
	uint64_t *sum;              /* computed self-cost sum, global event order */
	uint32_t nsum;              /* values in sum (events known when the part ended) */
	uint64_t *summary, *totals; /* as written, in the part's event order, or NULL */
	uint32_t nsummary, ntotals;
	uint64_t summary_line, totals_line;
	/*
	 * compressed name ids of this part (object, file, function): id -> name;
	 * NULL until the part sets one (profile_part_ids()), and again once they
	 * went to the shared table: 312 bytes a part that 4,000 dumps need not.
	 */
	struct idtab *ids;
	/*
	 * When the part ended its ids went to the profile's shared_ids, where they
	 * agree with every other part's (Callgrind gives a name the same id in
	 * every dump): 4,000 dumps need not keep 4,000 tables. See profile_part_id().
	 */
	bool ids_shared;
	/* ids whose name changed after the index used them, sorted (see id_change) */
	struct id_change *changes;
	size_t nchanges, changes_alloc;
};

struct function {
	uint32_t name, file, object; /* name ids, NCG_NONE when unknown */
	uint32_t first_block;        /* NCG_NONE, or index into blocks */
	uint32_t last_block;         /* the list's tail, for appending in file order */
	uint32_t nblocks;
	uint32_t cycle; /* 0, or the number of its cycle (1-based) */
	bool recursive; /* called from its own component (or itself) */
	bool used;      /* has a cost line, makes or receives a call */
	uint64_t calls; /* sum of the counts of the calls to it */
};

/*
 * Lines [start, end) of the mapping hold costs of one function, read again
 * by parse_block() with the parser's state at `start`. 32 bytes: the parts
 * of the state that are nearly always the function's own (its object and
 * file, no cob=/cfi=/jfi=/jfn= pending) or of no use (the position, when the
 * block's first line gives an absolute one) are kept apart, in a block_ctx,
 * only for the blocks where they are not; so are a length or a line number
 * past 32 bits (BLOCK_LONG), which only files of more than 4 GiB can have.
 * Blocks are most of the index of a profile of many parts (70% of a 60 MB
 * --separate-callers one, at 40 bytes).
 */
struct block {
	uint64_t start;    /* byte offset into map.data */
	uint32_t len;      /* end - start, or BLOCK_LONG: see profile_block_end() */
	uint32_t line;     /* line number of `start`, or BLOCK_LONG: see profile_block_line() */
	uint32_t fn, next; /* next block of the same function, or NCG_NONE */
	uint32_t callee;   /* the cfn= current at start */
	uint32_t part;     /* | BLOCK_HAS_CTX when there is a block_ctx */
};

#define BLOCK_LONG UINT32_MAX

#define BLOCK_HAS_CTX 0x80000000u

/* The rest of a block's starting state, where it is not the default. */
struct block_ctx {
	uint32_t block;
	uint32_t object, fn_file, file;      /* default: the function's object and file */
	uint32_t cobject, cfile, jfile, jfn; /* default: NCG_NONE */
	bool pos_set;                        /* default: true */
	uint64_t pos[PROFILE_MAX_POS];       /* default: 0 (the first line sets them) */
	uint64_t end, line;                  /* the block's, whole (default: what the block says) */
};

/* A block's end and line as 32-bit fields, BLOCK_LONG where they do not fit. */
static inline void block_set_span(struct block *b, uint64_t end, uint64_t line)
{
	b->len = end - b->start < BLOCK_LONG ? (uint32_t)(end - b->start) : BLOCK_LONG;
	b->line = line < BLOCK_LONG ? (uint32_t)line : BLOCK_LONG;
}

static inline uint32_t block_part(const struct block *b)
{
	return b->part & ~BLOCK_HAS_CTX;
}

struct call_edge {
	uint32_t caller, callee;
	uint64_t count;
};

/*
 * Cost rows once the profile is finished: 32 bits a value (nearly every
 * value fits), half the memory of the 64-bit rows the parse adds into. A
 * larger value leaves COST_BIG in its cell and is kept in `big`, sorted by
 * cell.
 */
#define COST_BIG UINT32_MAX
struct cost_big {
	uint64_t at, value;
};
struct cost_cells {
	uint32_t *cell;
	struct cost_big *big;
	size_t nbig;
};

uint64_t cost_cells_big(const struct cost_cells *c, size_t at);
/* Row `row` of cells `width` values wide, into out[0..width). */
void cost_cells_row(const struct cost_cells *c, size_t row, uint32_t width, uint64_t *out);
/* Each column's largest value over nrows rows of cells into top[0..width), where larger. */
void cost_cells_top(const struct cost_cells *c, size_t nrows, uint32_t width, uint64_t *top);

static inline uint64_t cost_cells_get(const struct cost_cells *c, size_t at)
{
	uint32_t v = c->cell[at];

	return v != COST_BIG ? v : cost_cells_big(c, at);
}

/*
 * One file of the profile: `ncgrind a b` reads both into one profile (the
 * costs of a function add up; each file keeps its parts). Compressed ids
 * are a file's own: each file has its table of the ids its parts share.
 */
struct source {
	char *path; /* as the user named it */
	struct map map;
	struct idtab shared_ids[3]; /* the ids of its parts with ids_shared */
	uint64_t lines;             /* lines read */
};

struct all_costs;

struct profile {
	const char *path; /* the first file's */
	bool raw_names;   /* names as written, not demangled */
	/* the demangled names (demangle.h): made and filled as names are shown */
	struct demangle_cache **demangled;
	struct source *src;
	size_t nsrc;
	/* the paths of files skipped as no profile (their messages name them) */
	char **dropped;
	size_t ndropped;
	struct names names;
	bool declared_callgrind; /* "# callgrind format" or a version: line: calls can be there */

	struct event *events;
	uint32_t nev, nraw; /* all events; raw ones come first */
	uint32_t stride;    /* values per self and call row: ncell once the profile is finished */
	/*
	 * Values per row of the finished cost cells: nev, or nraw when the
	 * inherited events are worked out on demand (events_on_demand()).
	 */
	uint32_t ncell;
	size_t ev_alloc;

	struct event *evspecs; /* `event:` lines, resolved by profile_finish() */
	size_t nevspecs, evspecs_alloc;
	/* --event=NAME=FORMULA: the user's inherited events, after the file's */
	const char *const *user_events;
	size_t nuser_events;

	struct part *parts;
	size_t nparts, parts_alloc;

	struct function *funcs;
	size_t nfuncs, funcs_alloc;
	uint64_t *self; /* nfuncs x nev */
	uint64_t *incl; /* nfuncs x nev, after profile_finish() */
	/*
	 * Each function's rank by its names (report_rank_functions()), made by
	 * profile_finish(), or NULL: the reports rank them when they sort.
	 */
	uint32_t *fn_rank;
	/*
	 * Each function's strongly connected component, numbered as Tarjan's
	 * algorithm ends them (a call between two goes to the smaller number),
	 * made by profile_finish(): kept with the index, as the proof of its
	 * cycles (graph_cycles_certified()).
	 */
	uint32_t *fn_scc;
	/*
	 * A kept index's order of the used functions by self cost of the first
	 * event, ties by name (report_sort_functions()'s): the first table of a
	 * second open, without a sort (0.18 s for 1 million functions). NULL
	 * but from a kept index, and used only while every part counts.
	 */
	uint32_t *self_order;
	size_t nself_order;
	uint64_t *incl_flat; /* the same with cycle detection off; NULL until first off */
	bool no_cycles;      /* detection off (profile_set_cycles()): profile_incl() and
				profile_cycle() follow */
	size_t self_alloc;   /* in rows */

	/* finished: self, incl and edge_cost are freed, their values are here */
	bool compact;
	struct cost_cells self_c, incl_c, edge_c;

	struct call_edge *edges;
	size_t nedges, edges_alloc;
	/*
	 * While parsing, a call row is 32-bit cells (edge_lo, nedges x stride)
	 * until one of its sums needs more: then the row is 64-bit, row
	 * edge_wide[e] - 1 of edge_hi (profile_edge_add()). 7% of the calls of
	 * a 1 GiB profile get there; the others take half the memory they
	 * took, which was the largest part of the index at its peak.
	 */
	uint32_t *edge_lo;
	uint32_t *edge_wide; /* per edge: 0, or 1 + its row of edge_hi */
	uint64_t *edge_hi;
	size_t edge_lo_alloc, edge_wide_alloc, nedge_hi, edge_hi_alloc; /* (in values) */
	uint64_t *edge_cost;    /* 64-bit call rows instead (profile_select_parts), or NULL */
	size_t edge_cost_alloc; /* in values */

	struct block *blocks;
	size_t nblocks, blocks_alloc;
	struct block_ctx *block_ctx; /* sorted by block */
	size_t nblock_ctx, block_ctx_alloc;

	uint64_t *totals; /* nev: sum of all self costs */
	uint32_t ncycles;
	uint64_t *cycle_incl; /* ncycles x nev: inclusive cost of each cycle */

	/* lookup tables */
	struct htab fn_index;   /* (object, file, name) -> function */
	struct htab edge_index; /* (caller, callee) -> edge */
	struct htab ev_index;   /* event name -> event (100,000 events are one line) */

	struct index_stats stats; /* how the index was built (--stats) */

	bool *part_sel;        /* the parts that count (profile_select_parts), NULL: all */
	bool *edge_sel;        /* the call edges of those parts, NULL: all */
	struct all_costs *all; /* while some parts only count: the whole's costs */
	uint64_t lines;        /* lines read */
	bool saturated;        /* a sum hit UINT64_MAX (reported as an error) */
	char *kept;            /* profile_keep_names(): the names' own copies, or NULL */
	/*
	 * Read from a kept index (cache.h): its mapping, released with the
	 * profile. The arrays that point into it are borrowed, never freed
	 * (profile_free); a change to them copies only the pages it writes.
	 */
	void *cache_base;
	size_t cache_len;
};

void profile_init(struct profile *p, const char *path);
void profile_release(struct profile *p);
/*
 * The largest arrays of a chunk's profile (parse_chunks.c), kept empty by
 * the thread that read it for its next chunk: grown again from nothing,
 * each was copied at every step of its growth into pages it had never
 * touched (a third of the anonymous page faults of a 5 GiB profile).
 */
#define PROFILE_SPARE_ARRAYS(X) /* type, array, its room (as ALLOC_GROW counts it) */              \
	X(struct function, funcs, funcs_alloc)                                                     \
	X(uint64_t, self, self_alloc)                                                              \
	X(uint64_t, edge_hi, edge_hi_alloc)                                                        \
	X(struct call_edge, edges, edges_alloc)                                                    \
	X(uint32_t, edge_lo, edge_lo_alloc)                                                        \
	X(uint32_t, edge_wide, edge_wide_alloc)                                                    \
	X(struct block, blocks, blocks_alloc)

struct profile_spare {
#define SPARE_FIELD(type, a, n)                                                                    \
	type *a;                                                                                   \
	size_t n;
	PROFILE_SPARE_ARRAYS(SPARE_FIELD)
#undef SPARE_FIELD
};
/* p (just initialized) takes s's arrays as its room to grow into; s is left empty. */
void profile_spare_take(struct profile *p, struct profile_spare *s);
/* Releases p, its largest arrays kept in s (what s held is freed). */
void profile_release_keeping(struct profile *p, struct profile_spare *s);
void profile_spare_release(struct profile_spare *s);
/* free(a), unless a is borrowed from the kept index the profile was read from. */
void profile_free(const struct profile *p, void *a);
/* A part's own arrays and id tables (freed as profile_free() frees). */
void profile_part_release(struct part *pt);
/* Cost cells, emptied (their arrays freed as profile_free() frees). */
void profile_cells_release(const struct profile *p, struct cost_cells *c);
/* Adds a file to read (not yet opened); returns its index. */
uint32_t profile_add_source(struct profile *p, const char *path);
/*
 * Takes file s out of those to read, before any is parsed: its map is
 * released, its path kept (messages point at it) until the profile is.
 */
void profile_drop_source(struct profile *p, uint32_t s);
/* Bytes in all the files (decompressed). */
uint64_t profile_bytes(const struct profile *p);
/* A file changed or was cut under its mapping since it was read (map_changed). */
bool profile_changed(const struct profile *p);
/*
 * A file is not the one read: cut under its mapping, or its size, time or
 * inode differ now (a profile still being written, or written again).
 */
bool profile_outdated(const struct profile *p);
/*
 * Copy the names (functions, files, objects, events, each part's cmd:) out
 * of the mapped files, so that a file cut or rewritten while the browser
 * shows it leaves the names on the screen as they were. The costs are
 * already in memory; the names are a small part of a profile (each distinct
 * name once), so the index stays zero-copy where it counts.
 */
void profile_keep_names(struct profile *p);
/* The map of the file part pt is in. */
static inline const struct map *profile_part_map(const struct profile *p, const struct part *pt)
{
	return &p->src[pt->src].map;
}

/* A part's own table of ids of one kind, made (with the other two) if it has none. */
struct idtab *profile_part_ids(struct part *pt, int kind);
/* The value of id in a part's own table of that kind: NCG_NONE if none. */
static inline uint32_t profile_part_own_id(const struct part *pt, int kind, uint64_t id)
{
	return pt->ids ? idtab_get(&pt->ids[kind], id) : NCG_NONE;
}

/* Find or create the function (object, file, name); ids may be NCG_NONE. */
uint32_t profile_function(struct profile *p, uint32_t object, uint32_t file, uint32_t name);
/* A hint that profile_function() looks this one up soon (htab_prefetch()). */
void profile_function_prefetch(const struct profile *p, uint32_t object, uint32_t file,
			       uint32_t name);
/* Asks for the call index's slot of caller -> callee and the callee's entry ahead of their use. */
void profile_edge_prefetch(const struct profile *p, uint32_t caller, uint32_t callee);
/* Index event ev (just appended to events) by its name, for profile_find_event(). */
void profile_index_event(struct profile *p, uint32_t ev);
/* Find the function, or NCG_NONE (never creates). */
uint32_t profile_find_function(const struct profile *p, uint32_t object, uint32_t file,
			       uint32_t name);
/*
 * Whether the file records calls: a Cachegrind profile has no calls= lines
 * and does not say it is a Callgrind one, so inclusive equals self and every
 * function would read "called 0 times"; the browser says so instead.
 */
static inline bool profile_has_calls(const struct profile *p)
{
	return p->nedges > 0 || p->declared_callgrind;
}

/*
 * Whether a function is in the profile's data. A name line alone (the spec
 * lets every id be defined up front) makes a function that is not.
 */
static inline bool profile_function_used(const struct profile *p, uint32_t f)
{
	return p->funcs[f].used;
}

/* Find or create the edge caller -> callee. */
uint32_t profile_edge(struct profile *p, uint32_t caller, uint32_t callee);
/*
 * A new edge caller -> callee that the call index does not get: for the
 * merge, which finds the calls its own way (parse_chunks.c).
 */
uint32_t profile_edge_new(struct profile *p, uint32_t caller, uint32_t callee);

/* Append a raw event; returns its index. Existing cost rows are re-laid out. */
uint32_t profile_add_event(struct profile *p, struct span name);
uint32_t profile_find_event(const struct profile *p, struct span name);
uint32_t profile_find_event_str(const struct profile *p, const char *name);

/* While the profile is built: a function's self row (the parse adds into it). */
static inline uint64_t *profile_self(const struct profile *p, uint32_t fn)
{
	return p->self ? p->self + (size_t)fn * p->stride : NULL; /* none before the first value */
}

/* An inherited value of row `row` of finished cells, from its raw ones (events.c). */
uint64_t events_derived_at(const struct profile *p, const struct cost_cells *c, size_t row,
			   uint32_t ev);

/* Event ev of row `row` of finished cost cells: kept, or worked out. */
static inline uint64_t profile_cell_at(const struct profile *p, const struct cost_cells *c,
				       size_t row, uint32_t ev)
{
	if (ev < p->ncell)
		return cost_cells_get(c, row * p->ncell + ev);
	return events_derived_at(p, c, row, ev);
}

/* A self cost, while the profile is built (ev < stride) or once it is finished. */
static inline uint64_t profile_self_at(const struct profile *p, uint32_t fn, uint32_t ev)
{
	if (p->compact)
		return profile_cell_at(p, &p->self_c, fn, ev);
	return p->self[(size_t)fn * p->stride + ev];
}

/* Inclusive cost with cycle detection on, whatever p->no_cycles says. */
static inline uint64_t profile_incl_cycles_at(const struct profile *p, uint32_t fn, uint32_t ev)
{
	if (p->compact)
		return profile_cell_at(p, &p->incl_c, fn, ev);
	return p->incl[(size_t)fn * p->nev + ev];
}

/* Inclusive cost, with cycle detection on or off (p->no_cycles). */
static inline uint64_t profile_incl_at(const struct profile *p, uint32_t fn, uint32_t ev)
{
	if (p->no_cycles)
		return p->incl_flat[(size_t)fn * p->nev + ev];
	return profile_incl_cycles_at(p, fn, ev);
}

/* What a long computation says of itself: done of total (bytes), from the caller's thread. */
struct profile_progress {
	/* told how far, every 50 ms or so; true stops (q), what was done undone */
	bool (*fn)(void *ctx, uint64_t done, uint64_t total);
	void *ctx;
};

/*
 * Count only the parts with sel[part] set (NULL: all of them): every cost,
 * call count, total and inclusive cost is summed again from their blocks,
 * read again, as if the files held only those parts. Functions and call
 * edges keep their ids; those of no chosen part have no cost. Takes time in
 * proportion to the chosen parts' lines, on up to `jobs` threads (0: the
 * cores): each thread a share of the functions, which write only their own
 * rows; while they read, progress (may be NULL) hears how far they are.
 * False when progress stopped it: then nothing changed, the parts that
 * counted still count.
 */
bool profile_select_parts(struct profile *p, const bool *sel, unsigned jobs,
			  const struct profile_progress *progress);
/* How many of the n flags of a part selection are set. */
size_t profile_parts_in(const bool *sel, size_t n);
/* How many parts count (all of them until some were chosen). */
static inline size_t profile_parts_counted(const struct profile *p)
{
	return p->part_sel ? profile_parts_in(p->part_sel, p->nparts) : p->nparts;
}
/* Whether call edge e is made in a part that counts (the graph, the reports skip the others). */
static inline bool profile_edge_counts(const struct profile *p, uint32_t e)
{
	return !p->edge_sel || p->edge_sel[e];
}
/* Whether block b is in a part that counts: the views that read blocks again skip the others. */
static inline bool profile_block_counts(const struct profile *p, uint32_t b)
{
	return !p->part_sel || p->part_sel[block_part(&p->blocks[b])];
}
/* Cycle detection on or off (the first time off works out incl_flat). */
void profile_set_cycles(struct profile *p, bool on);

/* The cycle a function is shown in: 0 when in none, or when cycle detection is off. */
static inline uint32_t profile_cycle(const struct profile *p, uint32_t fn)
{
	return p->no_cycles ? 0 : p->funcs[fn].cycle;
}

static inline uint64_t *profile_cycle_incl(const struct profile *p, uint32_t c)
{
	return p->cycle_incl + (size_t)(c - 1) * p->nev;
}

/* While the profile is built: a value of a call row (ev < stride), 32 or 64 bits. */
static inline uint64_t profile_edge_sum(const struct profile *p, uint32_t e, uint32_t ev)
{
	size_t at = (size_t)e * p->stride + ev;

	if (p->edge_cost)
		return p->edge_cost[at];
	if (p->edge_wide[e])
		return p->edge_hi[(size_t)(p->edge_wide[e] - 1) * p->stride + ev];
	return p->edge_lo[at];
}

static inline uint64_t profile_edge_at(const struct profile *p, uint32_t e, uint32_t ev)
{
	if (p->compact)
		return profile_cell_at(p, &p->edge_c, e, ev);
	return profile_edge_sum(p, e, ev);
}

/* profile_edge_add() of a value past 32 bits: the row made 64-bit first. */
bool profile_edge_add_wide(struct profile *p, uint32_t e, uint32_t ev, uint64_t v);
/*
 * While merging: call row e of l added to p's row g column for column (l's
 * events are p's first ones, in the same order), when both are 32-bit rows
 * and no sum needs more; false, and nothing added, for any other (then
 * profile_edge_add() adds value by value). A row of no width adds nothing.
 */
bool profile_edge_add_row(struct profile *p, uint32_t g, const struct profile *l, uint32_t e);

/*
 * While parsing: v added to value ev (< stride) of call row e; false when
 * the sum saturates at UINT64_MAX (what u64_add_sat() says).
 */
static inline bool profile_edge_add(struct profile *p, uint32_t e, uint32_t ev, uint64_t v)
{
	uint32_t w = p->edge_wide[e];

	if (!w) {
		uint32_t *cell = &p->edge_lo[(size_t)e * p->stride + ev];
		uint64_t sum = *cell + v;

		if (v < COST_BIG && sum < COST_BIG) {
			*cell = (uint32_t)sum;
			return true;
		}
		return profile_edge_add_wide(p, e, ev, v);
	}
	return u64_add_sat(&p->edge_hi[(size_t)(w - 1) * p->stride + ev], v);
}

/* A whole row (nev values), into buf when the profile is compact; returns it. */
const uint64_t *profile_self_row(const struct profile *p, uint32_t fn, uint64_t *buf);
const uint64_t *profile_edge_row(const struct profile *p, uint32_t e, uint64_t *buf);
const uint64_t *profile_incl_row(const struct profile *p, uint32_t fn, uint64_t *buf);

/*
 * While parsing, the self and call rows are only as wide as the events that
 * cost lines have given values to (stride <= nev): 10,000 events declared
 * and one value per line must not cost 10,000 values per function. Make
 * them at least cols wide (re-laid out, so row pointers change).
 */
void profile_widen(struct profile *p, uint32_t cols);

/* A name id as a span; an empty span for NCG_NONE. */
/* A name as shown: demangled (demangle.h) unless p->raw_names. */
static inline struct span profile_name(const struct profile *p, uint32_t id)
{
	struct span s;

	if (id == NCG_NONE)
		return span_make("", 0);
	s = names_get(&p->names, id);
	if (p->raw_names || !p->demangled || !demangle_candidate(s))
		return s;
	/* the cache is the profile's, filled as names are first shown */
	return demangle_name(p->demangled, id, s, p->names.nr);
}

/* A name as the file writes it. */
static inline struct span profile_raw_name(const struct profile *p, uint32_t id)
{
	return id == NCG_NONE ? span_make("", 0) : names_get(&p->names, id);
}

/* The name compressed id `id` of kind (0 object, 1 file, 2 function) has in a part. */
uint32_t profile_part_id(const struct profile *p, const struct part *pt, int kind, uint64_t id);
/*
 * A part has ended: its ids go to shared_ids if they agree with those there
 * (and it logged no change), and its own tables are freed; false when they
 * do not, and the part keeps its own tables for good.
 */
bool profile_share_ids(struct profile *p, struct part *pt);

/* A block's starting state (the defaults filled in). */
void profile_block_context(const struct profile *p, uint32_t b, struct block_ctx *out);
/* Where block b ends, and the line it starts at. */
uint64_t profile_block_end(const struct profile *p, uint32_t b);
uint64_t profile_block_line(const struct profile *p, uint32_t b);
/* Appends block b to its function's list; blocks come in file order, so the list is too. */
void profile_link_block(struct profile *p, uint32_t b);
/* Record block b's starting state (the last block so far); nothing when it is the default. */
void profile_set_block_context(struct profile *p, uint32_t b, const struct block_ctx *c);

/* Bytes the index holds (allocated capacity), not counting the mapped file. */
size_t profile_memory(const struct profile *p);

/*
 * After parsing: totals, inherited events, cycles (strongly connected
 * components) and inclusive costs, the functions ranked by name; checks
 * summary:/totals: lines (warnings). Up to jobs threads.
 */
void profile_finish(struct profile *p, struct diag *d, unsigned jobs);

#endif
