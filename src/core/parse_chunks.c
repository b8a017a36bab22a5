/*
 * parse_chunks: the index built by several threads, and progressively.
 *
 * The file is cut into chunks, each starting at a line "fn=..." (never
 * right after a calls=, jump= or jcnd= line, whose cost line must follow).
 * Worker threads parse chunks, each into a profile of its own, with the
 * same line machine as the single pass (parser_chunk). The main thread
 * merges the chunks in file order into the real profile: names, functions,
 * edges and parts get the ids they would have got in one pass, and what a
 * chunk could not know at its start (the object and file current there,
 * the names of compressed ids defined before it) is resolved from the
 * chunks merged before it. Between merges the profile holds the functions
 * and self costs of the file's beginning: the browser shows them while the
 * rest is read.
 *
 * A chunk assumes that the part it starts in has the events and positions
 * of the file's first header. Anything a chunk cannot reproduce exactly
 * (a wrong assumption, a problem in the file, an id defined twice, a sum
 * that overflows) makes the job throw the merged chunks away and read the
 * file in one pass, as --jobs=1 does: the results are always those of one
 * pass, and files with problems get their messages from it.
 */
#define _GNU_SOURCE /* sched_getaffinity */
#include "parser.h"
#include "ncgrind/core/lex.h"
#include "ncgrind/core/memwatch.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define SMALL_FILE (4u << 20)  /* read in one pass: threads would not pay */
#define MIN_CHUNK (1u << 20)   /* chunk size bounds when it is chosen */
#define MAX_CHUNK (32u << 20)  /* small enough for the browser to fill in often */
#define FIRST_CHUNK (2u << 20) /* the first chunk, merged first: the first table sooner */
#define CHUNKS_PER_THREAD 8    /* so that threads finish close together */
#define AHEAD_PER_THREAD 4     /* chunks parsed ahead of the merge, per thread */
#define TAPER 2                /* the last chunks: of what is left, a share of 1 / (TAPER jobs) */
#define HELD_PERCENT 12        /* of the file: more anonymous memory, and freed pages go back */

/* CH_MERGED: merged, its memory left for the worker that read it to free */
enum chunk_state { CH_TODO, CH_RUNNING, CH_DONE, CH_MERGED };

struct chunk {
	uint64_t start, end; /* byte offsets in the mapping of file src */
	uint32_t src;
	bool first;      /* the file's first chunk: it reads its own header */
	uint64_t before; /* bytes of the files before src, for the progress */
	enum chunk_state state;
	unsigned reader; /* the worker that read it, + 1; 0: the merging thread */
	struct profile local;
	struct diag diag;
	struct placeholders ph;
	struct chunk_end fin;
};

struct parse_job {
	struct profile *prof;
	struct diag *diag;
	struct parse_opts opts;
	uint64_t total; /* bytes */

	/* the threads; mu guards the chunk states, next_todo, merged, stop */
	pthread_mutex_t mu;
	pthread_cond_t done_cond, room_cond;
	pthread_t *threads;
	unsigned nthreads, nworkers; /* running; started last (for the stats) */
	unsigned jobs;               /* asked for (the finish works with as many) */
	double *thread_cpu;
	bool stop;
	atomic_bool cancel; /* the threads stop where they are (their work is thrown away) */
	bool one_pass;      /* a thread reads the file in one pass: prof is not readable */
	bool helped;        /* the merging thread parsed chunks too (opts.help) */
	bool finished;      /* every chunk merged, or the one pass over */
	atomic_uint_fast64_t one_pass_done;

	struct chunk *chunks;
	size_t nchunks, chunks_alloc, next_todo, merged, ahead;
	struct profile_spare spare; /* the merging thread's (chunk_parse()) */
	struct chunk_start *guess;  /* per file */

	/* the merge: the state at the end of the chunks merged so far, in prof's ids */
	uint32_t part;  /* the current part of prof, NCG_NONE before the first */
	uint64_t lines; /* in the current file */
	uint64_t all_lines;
	uint64_t *part_sum; /* the current part's self sum, prof's event order */
	size_t part_sum_alloc;
	/* every merged chunk's self sum, saturated: the browser's totals while it reads */
	uint64_t *read_sum;
	size_t read_sum_alloc;
	struct chunk_end end;                /* evmap in prof's events */
	uint32_t *ntrans, *ftrans, *evtrans; /* chunk id -> prof id */
	size_t ntrans_n, ftrans_n, evtrans_n;
	/* prof's calls by caller: out_first[function], then out_next[call] (merged_edge()) */
	uint32_t *out_first, *out_next;
	size_t nout_first, out_first_alloc, out_next_alloc;
	double t0, cpu0; /* wall and main thread's CPU at the start */
	/* NCGRIND_TEST_CHUNK_DELAY_MS: each chunk takes that much longer (the browser's tests) */
	struct timespec delay;
};

/* ---- cutting ----------------------------------------------------------- */

static unsigned cores(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

/* A line a chunk may start at: "fn=", and the line before expects no cost line. */
static bool cut_ok(const char *line, const char *prev)
{
	if (!lex_prefix(line, "fn="))
		return false;
	return !prev || !(lex_prefix(prev, "calls=") || lex_prefix(prev, "jump=") ||
			  lex_prefix(prev, "jcnd="));
}

/* The first line at or after `from` (not at 0) a chunk may start at, or `end`. */
static uint64_t next_cut(const struct map *m, uint64_t from, uint64_t end)
{
	const char *d = m->data, *prev = NULL, *p, *nl;

	if (from >= end)
		return end;
	/* the line `from` is in may be cut in two: start at the next one */
	nl = memchr(d + from - 1, '\n', end - from + 1);
	while (nl && nl + 1 < d + end) {
		p = nl + 1;
		if (cut_ok(p, prev))
			return (uint64_t)(p - d);
		prev = p;
		nl = memchr(p, '\n', (size_t)(d + end - p));
	}
	return end;
}

static void add_chunk(struct parse_job *j, uint32_t src, uint64_t start, uint64_t end,
		      uint64_t before)
{
	struct chunk *c;

	ALLOC_GROW(j->chunks, j->nchunks + 1, j->chunks_alloc);
	c = &j->chunks[j->nchunks++];
	memset(c, 0, sizeof(*c));
	c->src = src;
	c->start = start;
	c->end = end;
	c->first = start == 0;
	c->before = before;
}

/*
 * The size of the chunk that starts with `left` bytes still to cut, of
 * about `size` each: smaller towards the end when the size was chosen, so
 * that no thread waits long for the last chunk of another. With chunks all
 * alike (32 MiB), a thread waited up to a chunk's time at the end: 57 ms
 * of the generated 1 GiB file's index of 1.39 s at 2 jobs.
 */
static uint64_t taper(const struct parse_job *j, uint64_t size, uint64_t left)
{
	uint64_t share = left / ((uint64_t)j->jobs * TAPER);

	if (j->opts.chunk || share >= size) /* a size given is kept, for the tests */
		return size;
	return share > MIN_CHUNK ? share : MIN_CHUNK;
}

/*
 * File src in chunks of about size bytes (one chunk: the whole file);
 * `after`: the bytes of the files after it, cut too.
 */
static void cut_chunks(struct parse_job *j, uint32_t src, uint64_t size, uint64_t before,
		       uint64_t after)
{
	const struct map *m = &j->prof->src[src].map;
	uint64_t at = 0;

	while (at < m->size) {
		/* a small first chunk: the browser has its first table sooner */
		uint64_t want =
		    at || size < FIRST_CHUNK ? taper(j, size, m->size - at + after) : FIRST_CHUNK;
		uint64_t next = next_cut(m, at + want, m->size);

		add_chunk(j, src, at, next, before);
		at = next;
	}
}

/*
 * The events and positions of the file's first header (before its first
 * fn= line): what every chunk assumes of the part it starts in. False when
 * there is none to assume.
 */
static bool guess_header(struct parse_job *j, uint32_t src, uint64_t limit)
{
	const struct map *m = &j->prof->src[src].map;
	const char *p = m->data, *end = m->data + (limit < m->size ? limit : m->size);
	struct chunk_start *g = &j->guess[src];
	size_t alloc = 0;

	g->npos = 1;
	g->pos_kind[0] = POS_LINE;
	while (p < end && !lex_prefix(p, "fn=")) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl)
			break;
		if (lex_prefix(p, "events:")) {
			g->nev = 0;
			for (const char *q = lex_skip_blanks(p + 7); *q != '\n';
			     q = lex_skip_blanks(q)) {
				size_t n = parser_token_len(q);

				ALLOC_GROW(g->events, g->nev + 1, alloc);
				g->events[g->nev++] = span_make(q, n);
				q += n;
			}
		} else if (lex_prefix(p, "positions:")) {
			g->npos = 0;
			for (const char *q = lex_skip_blanks(p + 10);
			     *q != '\n' && g->npos < PROFILE_MAX_POS; q = lex_skip_blanks(q)) {
				size_t n = parser_token_len(q);

				g->pos_kind[g->npos++] = n == 5 && lex_prefix(q, "instr")
							     ? POS_INSTR
							 : n == 2 && lex_prefix(q, "bb") ? POS_BB
											 : POS_LINE;
				q += n;
			}
		}
		p = nl + 1;
	}
	return g->nev > 0 && p < end;
}

/* ---- the threads ------------------------------------------------------- */

/* spare: the arrays of the last chunk this thread read, to grow into */
static void chunk_parse(struct parse_job *j, struct chunk *c, struct profile_spare *spare)
{
	const char *path = j->prof->src[c->src].path;

	profile_init(&c->local, path);
	profile_spare_take(&c->local, spare);
	c->local.names.keep_hash = true; /* (merge_names()) */
	diag_init(&c->diag, path);
	parser_chunk(&c->local, &j->prof->src[c->src].map, &c->diag, c->start, c->end,
		     c->first ? NULL : &j->guess[c->src], &c->ph, &c->fin, &j->cancel);
}

/*
 * A chunk's memory, its state left as it is (the caller's, under mu where it
 * must be); its largest arrays kept in spare, if given, for the next chunk
 * read by the same thread (whose arena holds them).
 */
static void chunk_release(struct chunk *c, struct profile_spare *spare)
{
	if (spare)
		profile_release_keeping(&c->local, spare);
	else
		profile_release(&c->local);
	diag_release(&c->diag);
	free(c->ph.v);
	free(c->fin.evmap);
	memset(&c->ph, 0, sizeof(c->ph));
	c->fin.evmap = NULL;
}

static void chunk_free(struct chunk *c, struct profile_spare *spare)
{
	chunk_release(c, spare);
	c->state = CH_TODO; /* freed */
}

/*
 * A merged chunk's memory is free, but malloc keeps its pages for the next
 * chunk, in the arena of the thread that read it, around what is still in
 * use: on a 60 MB profile with --separate-callers, 4 MB more than the
 * index at the end of the merge (18% of the file at two jobs). Past
 * HELD_PERCENT of the file, the free pages go back to the system (a read
 * of /proc/self/statm a chunk; the trim costs page faults later, so it is
 * done only where the memory is over).
 */
static void give_back(const struct parse_job *j, struct profile_spare *spare)
{
	long kb = memwatch_anon_kb();

	if (kb > 0 && (uint64_t)kb * 1024 * 100 > j->total * HELD_PERCENT) {
		profile_spare_release(spare);
		heap_trim();
	}
}

struct worker {
	struct parse_job *job;
	unsigned n;
	size_t freed; /* the chunks before it that this worker read are freed */
	struct profile_spare spare;
};

/*
 * A worker frees the chunks it read once merged, in its own thread (called
 * with mu held): freed by the merging thread, their small blocks went to
 * that thread's cache of free blocks, and the index's own small arrays
 * (a part's rows) were then made from them, in the worker's arena, whose
 * pages they held to the end.
 */
static void free_merged(struct worker *w)
{
	struct parse_job *j = w->job;
	size_t to = j->merged;
	bool any = false;

	for (size_t i = w->freed; i < to; i++) {
		struct chunk *c = &j->chunks[i];

		if (c->state != CH_MERGED || c->reader != w->n + 1)
			continue;
		pthread_mutex_unlock(&j->mu);
		chunk_release(c, &w->spare);
		pthread_mutex_lock(&j->mu);
		c->state = CH_TODO; /* freed */
		any = true;
	}
	w->freed = to;
	if (any) {
		pthread_mutex_unlock(&j->mu);
		give_back(j, &w->spare);
		pthread_mutex_lock(&j->mu);
	}
}

/* Once the threads are joined: the chunks read and not freed (merged or not). */
static void free_chunks_left(struct parse_job *j)
{
	for (size_t i = 0; i < j->nchunks; i++)
		if (j->chunks[i].state == CH_DONE || j->chunks[i].state == CH_MERGED)
			chunk_free(&j->chunks[i], NULL);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct parse_job *j = w->job;

	thread_leave_signals();
	pthread_mutex_lock(&j->mu);
	for (;;) {
		size_t i;

		free_merged(w);
		while (!j->stop && j->next_todo < j->nchunks &&
		       j->next_todo >= j->merged + j->ahead) {
			pthread_cond_wait(&j->room_cond, &j->mu);
			free_merged(w);
		}
		if (j->stop)
			break;
		if (j->next_todo >= j->nchunks) {
			/* nothing left to read: free what it read as it is merged */
			while (!j->stop && j->merged < j->nchunks) {
				pthread_cond_wait(&j->room_cond, &j->mu);
				free_merged(w);
			}
			free_merged(w); /* (merges done while it freed, unlocked) */
			break;
		}
		i = j->next_todo++;
		j->chunks[i].state = CH_RUNNING;
		j->chunks[i].reader = w->n + 1;
		pthread_mutex_unlock(&j->mu);
		chunk_parse(j, &j->chunks[i], &w->spare);
		if (j->delay.tv_nsec)
			nanosleep(&j->delay, NULL);
		pthread_mutex_lock(&j->mu);
		j->chunks[i].state = CH_DONE;
		pthread_cond_broadcast(&j->done_cond);
	}
	pthread_mutex_unlock(&j->mu);
	profile_spare_release(&w->spare);
	j->thread_cpu[w->n] = seconds_thread_cpu();
	free(w);
	return NULL;
}

static void on_one_pass_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct parse_job *j = ctx;

	(void)total;
	atomic_store(&j->one_pass_done, done);
}

static void *one_pass_main(void *arg)
{
	struct parse_job *j = arg;
	struct parse_opts o = {.progress = on_one_pass_progress, .ctx = j};

	thread_leave_signals();
	parser_one_pass(j->prof, j->diag, &o, &j->cancel);
	atomic_store(&j->one_pass_done, j->total);
	j->thread_cpu[0] = seconds_thread_cpu();
	pthread_mutex_lock(&j->mu);
	j->finished = true;
	pthread_cond_broadcast(&j->done_cond);
	pthread_mutex_unlock(&j->mu);
	return NULL;
}

static void start_threads(struct parse_job *j, unsigned n, void *(*fn)(void *))
{
	j->threads = xcalloc(n, sizeof(pthread_t));
	j->thread_cpu = xcalloc(n, sizeof(double));
	j->nthreads = j->nworkers = n;
	for (unsigned i = 0; i < n; i++) {
		struct worker *w = xcalloc(1, sizeof(*w));
		void *arg = w;

		w->job = j;
		w->n = i;
		w->freed = 0;
		if (fn == one_pass_main) {
			free(w);
			arg = j;
		}
		if (pthread_create(&j->threads[i], NULL, fn, arg) != 0)
			die("cannot start a thread");
	}
}

static void join_threads(struct parse_job *j)
{
	pthread_mutex_lock(&j->mu);
	j->stop = true;
	pthread_cond_broadcast(&j->room_cond);
	pthread_mutex_unlock(&j->mu);
	for (unsigned i = 0; i < j->nthreads; i++)
		pthread_join(j->threads[i], NULL);
	free(j->threads);
	j->threads = NULL;
	j->nthreads = 0;
}

/* ---- merging ----------------------------------------------------------- */

static uint32_t tr(const uint32_t *t, uint32_t id)
{
	return id == NCG_NONE ? NCG_NONE : t[id];
}

/* A placeholder's name, from the chunks merged before; false when unknown. */
static bool resolve_placeholder(struct parse_job *j, const struct placeholder *ph, uint32_t *out)
{
	switch (ph->kind) {
	case PH_OBJECT:
		*out = j->end.object;
		return true;
	case PH_FN_FILE:
		*out = j->end.fn_file;
		return true;
	default:
		if (j->part == NCG_NONE)
			return false;
		*out = profile_part_own_id(&j->prof->parts[j->part], ph->kind, ph->id);
		return *out != NCG_NONE && *out != ID_UNDEFINED_USED;
	}
}

#define GROW_TRANS(t, n, need)                                                                     \
	do {                                                                                       \
		if ((need) > (n)) {                                                                \
			free(t);                                                                   \
			(t) = xmalloc_array((need), sizeof(uint32_t));                             \
			(n) = (need);                                                              \
		}                                                                                  \
	} while (0)

/*
 * The merge looks up every name, function and call of a chunk in prof's
 * tables, which are too big for the cache (a miss a lookup, the most of
 * the merge's time): each loop asks for the slot MERGE_AHEAD keys ahead.
 */
#define MERGE_AHEAD 8

static bool merge_names(struct parse_job *j, struct chunk *c)
{
	const struct names *ln = &c->local.names;
	struct names *gn = &j->prof->names;
	const uint64_t *hash = ln->hash; /* (keep_hash: chunk_parse()) */

	GROW_TRANS(j->ntrans, j->ntrans_n, ln->nr + 1);
	for (size_t i = 0; i < ln->nr; i++) {
		if (i + MERGE_AHEAD < ln->nr && ln->spans[i + MERGE_AHEAD].ptr)
			htab_prefetch(&gn->index, hash[i + MERGE_AHEAD]);
		j->ntrans[i] =
		    ln->spans[i].ptr ? names_intern_hashed(gn, ln->spans[i], hash[i]) : NCG_NONE;
	}
	for (size_t i = 0; i < c->ph.n; i++)
		if (!resolve_placeholder(j, &c->ph.v[i], &j->ntrans[c->ph.v[i].name]))
			return false;
	return true;
}

static void merge_events(struct parse_job *j, struct chunk *c)
{
	struct profile *p = j->prof, *l = &c->local;

	GROW_TRANS(j->evtrans, j->evtrans_n, (size_t)l->nev + 1);
	for (uint32_t e = 0; e < l->nev; e++) {
		uint32_t g = profile_find_event(p, l->events[e].name);

		j->evtrans[e] = g != NCG_NONE ? g : profile_add_event(p, l->events[e].name);
	}
	for (size_t i = 0; i < l->nevspecs; i++) {
		ALLOC_GROW(p->evspecs, p->nevspecs + 1, p->evspecs_alloc);
		p->evspecs[p->nevspecs] = l->evspecs[i];
		p->evspecs[p->nevspecs++].line += j->lines;
	}
	p->declared_callgrind |= l->declared_callgrind;
}

/* Add a chunk's row (its stride, its events) into a row of prof; false on overflow. */
static bool add_row(struct parse_job *j, uint64_t *dst, const uint64_t *src, uint32_t n)
{
	bool ok = true;

	for (uint32_t i = 0; i < n; i++)
		if (src[i])
			ok &= u64_add_sat(&dst[j->evtrans[i]], src[i]);
	return ok;
}

/* prof's rows are wide enough for every column of the chunk's. */
static void widen_for_chunk(struct parse_job *j, const struct profile *l)
{
	uint32_t need = 0;

	for (uint32_t i = 0; i < l->stride; i++)
		need = j->evtrans[i] + 1 > need ? j->evtrans[i] + 1 : need;
	if (need > j->prof->stride)
		profile_widen(j->prof, need);
}

static bool merge_functions(struct parse_job *j, struct chunk *c)
{
	struct profile *p = j->prof, *l = &c->local;
	bool ok = true;

	GROW_TRANS(j->ftrans, j->ftrans_n, l->nfuncs + 1);
	widen_for_chunk(j, l);
	for (size_t f = 0; f < l->nfuncs; f++) {
		const struct function *lf = &l->funcs[f], *ahead;
		uint32_t g;

		if (f + MERGE_AHEAD < l->nfuncs) {
			ahead = &l->funcs[f + MERGE_AHEAD];
			profile_function_prefetch(p, tr(j->ntrans, ahead->object),
						  tr(j->ntrans, ahead->file),
						  tr(j->ntrans, ahead->name));
		}
		g = profile_function(p, tr(j->ntrans, lf->object), tr(j->ntrans, lf->file),
				     tr(j->ntrans, lf->name));

		j->ftrans[f] = g;
		p->funcs[g].used |= lf->used;
		if (l->stride)
			ok &=
			    add_row(j, profile_self(p, g), profile_self(l, (uint32_t)f), l->stride);
	}
	return ok;
}

/*
 * prof's call caller -> callee, made if it is new, found in the list of
 * the caller's calls rather than in a table of every call (profile_edge()):
 * a caller the chunk brings first has none, and most calls are added with
 * no lookup at all. On the generated 5 GiB profile every one was, and the
 * table had taken 0.53 s of the merge's 1.2 s of CPU.
 */
static uint32_t merged_edge(struct parse_job *j, uint32_t caller, uint32_t callee)
{
	struct profile *p = j->prof;
	uint32_t e;

	for (e = j->out_first[caller]; e != NCG_NONE; e = j->out_next[e])
		if (p->edges[e].callee == callee)
			return e;
	e = profile_edge_new(p, caller, callee);
	ALLOC_GROW(j->out_next, p->nedges, j->out_next_alloc);
	j->out_next[e] = j->out_first[caller];
	j->out_first[caller] = e;
	return e;
}

static void out_lists_release(struct parse_job *j)
{
	free(j->out_first);
	free(j->out_next);
	j->out_first = j->out_next = NULL;
	j->nout_first = j->out_first_alloc = j->out_next_alloc = 0;
}

/* An empty list of calls for each function of prof that has none yet. */
static void grow_out_first(struct parse_job *j)
{
	size_t n = j->prof->nfuncs;

	ALLOC_GROW(j->out_first, n, j->out_first_alloc);
	for (; j->nout_first < n; j->nout_first++)
		j->out_first[j->nout_first] = NCG_NONE;
}

static bool merge_edges(struct parse_job *j, struct chunk *c)
{
	struct profile *p = j->prof, *l = &c->local;
	bool ok = true, same = !l->edge_cost;

	for (uint32_t i = 0; i < l->stride; i++) /* the chunk's events in prof's order */
		same &= j->evtrans[i] == i;
	grow_out_first(j);
	for (size_t e = 0; e < l->nedges; e++) {
		const struct call_edge *le = &l->edges[e];
		uint32_t g;

		if (e + MERGE_AHEAD < l->nedges)
			__builtin_prefetch(
			    &j->out_first[j->ftrans[l->edges[e + MERGE_AHEAD].caller]]);
		g = merged_edge(j, j->ftrans[le->caller], j->ftrans[le->callee]);

		ok &= u64_add_sat(&p->edges[g].count, le->count);
		if (same && profile_edge_add_row(p, g, l, (uint32_t)e))
			continue;
		for (uint32_t i = 0; i < l->stride; i++) {
			uint64_t v = profile_edge_sum(l, (uint32_t)e, i);

			if (v)
				ok &= profile_edge_add(p, g, j->evtrans[i], v);
		}
	}
	return ok;
}

static uint32_t tr_callee(const struct parse_job *j, uint32_t f)
{
	return f >= CALLEE_UNKNOWN ? f : j->ftrans[f];
}

static void merge_blocks(struct parse_job *j, struct chunk *c, const uint32_t *ptrans)
{
	struct profile *p = j->prof, *l = &c->local;

	ALLOC_GROW(p->blocks, p->nblocks + l->nblocks, p->blocks_alloc);
	for (size_t i = 0; i < l->nblocks; i++) {
		struct block *b = &p->blocks[p->nblocks];
		struct block_ctx ctx;

		profile_block_context(l, (uint32_t)i, &ctx);
		*b = l->blocks[i];
		ctx.line += j->lines;
		block_set_span(b, ctx.end, ctx.line);
		b->fn = j->ftrans[b->fn];
		b->part = ptrans[block_part(b)];
		b->callee = tr_callee(j, b->callee);
		ctx.object = tr(j->ntrans, ctx.object);
		ctx.fn_file = tr(j->ntrans, ctx.fn_file);
		ctx.file = tr(j->ntrans, ctx.file);
		ctx.cobject = tr(j->ntrans, ctx.cobject);
		ctx.cfile = tr(j->ntrans, ctx.cfile);
		ctx.jfile = tr(j->ntrans, ctx.jfile);
		ctx.jfn = tr(j->ntrans, ctx.jfn);
		profile_set_block_context(p, (uint32_t)p->nblocks, &ctx);
		profile_link_block(p, (uint32_t)p->nblocks++);
	}
}

/* The part being merged ends: what it summed up and its header, as one pass leaves them. */
static void close_part(struct parse_job *j)
{
	struct profile *p = j->prof;
	struct part *pt;

	if (j->part == NCG_NONE)
		return;
	pt = &p->parts[j->part];
	ALLOC_GROW(j->part_sum, p->nev ? p->nev : 1, j->part_sum_alloc);
	free(pt->sum);
	pt->sum = xcalloc(p->nev ? p->nev : 1, sizeof(uint64_t));
	pt->nsum = p->nev;
	memcpy(pt->sum, j->part_sum, p->nev * sizeof(uint64_t));
	free(pt->evmap);
	pt->nev = j->end.nev;
	pt->evmap = xmalloc_array(j->end.nev ? j->end.nev : 1, sizeof(uint32_t));
	if (j->end.nev)
		memcpy(pt->evmap, j->end.evmap, j->end.nev * sizeof(uint32_t));
	pt->npos = j->end.npos;
	memcpy(pt->pos, j->end.pos_kind, sizeof(pt->pos));
	profile_share_ids(p, pt);
}

static void grow_zeroed(uint64_t **a, size_t *alloc, size_t n)
{
	size_t old = *alloc;

	ALLOC_GROW(*a, n ? n : 1, *alloc);
	if (*alloc > old)
		memset(*a + old, 0, (*alloc - old) * sizeof(uint64_t));
}

static void add_part_sum(struct parse_job *j, const struct part *lp)
{
	grow_zeroed(&j->part_sum, &j->part_sum_alloc, j->prof->nev);
	grow_zeroed(&j->read_sum, &j->read_sum_alloc, j->prof->nev);
	for (uint32_t e = 0; e < lp->nsum; e++) {
		j->part_sum[j->evtrans[e]] += lp->sum[e]; /* wraps, as the one pass's sum does */
		u64_add_sat(&j->read_sum[j->evtrans[e]], lp->sum[e]);
	}
}

/* The definitions of a chunk's compressed ids, into prof's part; false on a conflict. */
static bool merge_ids(struct parse_job *j, struct idtab *dst, const struct idtab *src)
{
	uint64_t id;
	uint32_t v, old;

	for (size_t i = 0; idtab_each(src, i, &id, &v); i++) {
		if (v == NCG_NONE)
			continue;
		v = j->ntrans[v];
		if (v == NCG_NONE)
			return false;
		old = idtab_add(dst, id, v);
		if (old != NCG_NONE && old != v)
			return false; /* the one pass logs it (id_change): let it */
	}
	return true;
}

/*
 * A part the chunk holds whole (another part follows it there). Callgrind
 * defines every name again in each part of a file of combined dumps, with
 * the ids the parts before gave them: where each of the part's ids is the
 * shared table's, or new there, its own table was made only to be walked
 * and given to the shared one when the part closed (profile_share_ids(),
 * whose agreement rule, ids_agree(), this is on the chunk's log): a hashed
 * insert and a lookup an id, a third of the merge's instructions on a
 * 121 MB profile of 1,911 parts. Its ids go there at once, in that order.
 * 1: done; 0: the usual way (the part keeps a table of its own); -1: the
 * merge gives up, as merge_ids() does.
 */
static int share_whole_part(struct parse_job *j, const struct part *pt, const struct part *lp)
{
	struct idtab *shared = j->prof->src[pt->src].shared_ids;
	uint64_t id;
	uint32_t v, old;

	for (int k = 0; lp->ids && k < 3; k++)
		for (size_t i = 0; idtab_each(&lp->ids[k], i, &id, &v); i++) {
			if (v == NCG_NONE)
				continue;
			if (j->ntrans[v] == NCG_NONE)
				return -1;
			old = idtab_get(&shared[k], id);
			if (old != NCG_NONE && old != j->ntrans[v])
				return 0;
		}
	for (int k = 0; lp->ids && k < 3; k++)
		for (size_t i = 0; idtab_each(&lp->ids[k], i, &id, &v); i++)
			if (v != NCG_NONE)
				idtab_add(&shared[k], id, j->ntrans[v]);
	return 1;
}

static void take_span(struct span *dst, struct span src)
{
	if (src.len)
		*dst = src;
}

/*
 * Copied, not taken: the chunk's rows come from its thread's malloc arena,
 * and a few hundred parts' small rows kept there would hold that arena's
 * pages (the freed chunks around them) to the end: 0.3 MB of a 60 MB
 * profile's index.
 */
static void take_costs(uint64_t **dst, uint32_t *ndst, uint64_t *line, const uint64_t *src,
		       uint32_t nsrc, uint64_t srcline, uint64_t off)
{
	if (!src)
		return;
	free(*dst);
	*dst = xmalloc_array(nsrc ? nsrc : 1, sizeof(uint64_t));
	if (nsrc)
		memcpy(*dst, src, nsrc * sizeof(uint64_t));
	*ndst = nsrc;
	*line = srcline + off;
}

/* What a chunk's part says about itself, over what prof's part had. */
static void take_header(struct parse_job *j, struct part *pt, const struct part *lp)
{
	take_span(&pt->cmd, lp->cmd);
	take_span(&pt->creator, lp->creator);
	take_span(&pt->trigger, lp->trigger);
	take_span(&pt->timerange, lp->timerange);
	if (lp->number >= 0)
		pt->number = lp->number;
	if (lp->thread >= 0)
		pt->thread = lp->thread;
	if (lp->pid >= 0)
		pt->pid = lp->pid;
	take_costs(&pt->summary, &pt->nsummary, &pt->summary_line, lp->summary, lp->nsummary,
		   lp->summary_line, j->lines);
	take_costs(&pt->totals, &pt->ntotals, &pt->totals_line, lp->totals, lp->ntotals,
		   lp->totals_line, j->lines);
}

/* The events (in the chunk's ids) and positions the merged lines end with. */
static void set_end_header(struct parse_job *j, uint32_t nev, const uint32_t *evmap, int npos,
			   const enum pos_kind *kinds)
{
	j->end.nev = nev;
	free(j->end.evmap);
	j->end.evmap = xmalloc_array(nev ? nev : 1, sizeof(uint32_t));
	for (uint32_t e = 0; e < nev; e++)
		j->end.evmap[e] = j->evtrans[evmap[e]];
	j->end.npos = npos;
	memcpy(j->end.pos_kind, kinds, sizeof(j->end.pos_kind));
}

static bool merge_parts(struct parse_job *j, struct chunk *c, uint32_t *ptrans, bool cont)
{
	struct profile *p = j->prof, *l = &c->local;

	for (size_t i = 0; i < l->nparts; i++) {
		struct part *lp = &l->parts[i], *pt;
		int shared;

		if (lp->nchanges)
			return false;
		if (i == 0 && cont) {
			pt = &p->parts[j->part];
			for (int k = 0; lp->ids && k < 3; k++)
				if (!merge_ids(j, profile_part_ids(pt, k), &lp->ids[k]))
					return false;
		} else {
			close_part(j);
			ALLOC_GROW(p->parts, p->nparts + 1, p->parts_alloc);
			pt = &p->parts[p->nparts];
			memset(pt, 0, sizeof(*pt));
			pt->src = c->src;
			pt->first_line = lp->first_line + j->lines;
			pt->number = pt->thread = pt->pid = -1;
			j->part = (uint32_t)p->nparts++;
			if (j->part_sum)
				memset(j->part_sum, 0, j->part_sum_alloc * sizeof(uint64_t));
			shared = i + 1 < l->nparts ? share_whole_part(j, pt, lp) : 0;
			if (shared < 0)
				return false;
			for (int k = 0; !shared && lp->ids && k < 3; k++)
				if (!merge_ids(j, profile_part_ids(pt, k), &lp->ids[k]))
					return false;
		}
		ptrans[i] = j->part;
		take_header(j, pt, lp);
		add_part_sum(j, lp);
		set_end_header(j, lp->nev, lp->evmap, lp->npos, lp->pos);
	}
	return true;
}

/* Whether the state the chunk assumed at its start is the one the chunks before left. */
static bool guess_holds(struct parse_job *j)
{
	const struct chunk_start *g = &j->guess[j->chunks[j->merged].src];

	if (j->part == NCG_NONE || !j->end.have_events || j->end.next != NEXT_COST ||
	    j->end.cobject != NCG_NONE || j->end.cfile != NCG_NONE || j->end.jfile != NCG_NONE ||
	    j->end.jfn != NCG_NONE)
		return false;
	if (g->npos != j->end.npos || g->nev != j->end.nev ||
	    memcmp(g->pos_kind, j->end.pos_kind, sizeof(g->pos_kind[0]) * (size_t)g->npos))
		return false;
	/* the chunk's first events are the guessed ones, in order */
	for (uint32_t e = 0; e < g->nev; e++)
		if (j->evtrans[e] != j->end.evmap[e])
			return false;
	return true;
}

static void merge_end_state(struct parse_job *j, const struct chunk_end *fin)
{
	j->end.object = tr(j->ntrans, fin->object);
	j->end.fn_file = tr(j->ntrans, fin->fn_file);
	j->end.cobject = tr(j->ntrans, fin->cobject);
	j->end.cfile = tr(j->ntrans, fin->cfile);
	j->end.jfile = tr(j->ntrans, fin->jfile);
	j->end.jfn = tr(j->ntrans, fin->jfn);
	j->end.next = fin->next;
	j->end.have_events = fin->have_events;
	/* the header the chunk ended with (its last part's, or the one it assumed) */
	set_end_header(j, fin->nev, fin->evmap, fin->npos, fin->pos_kind);
}

/* Merge chunk i into prof; false when the one pass must read the file instead. */
static bool merge_chunk(struct parse_job *j, size_t i)
{
	struct chunk *c = &j->chunks[i];
	struct profile *l = &c->local;
	bool cont = !c->first, ok;
	uint32_t *ptrans;

	if (c->diag.fatals || c->diag.errors || c->diag.warnings || l->saturated)
		return false;
	if (c->first && j->part != NCG_NONE) {
		/* the next file: it starts with its own part, its lines from 1 */
		close_part(j);
		j->part = NCG_NONE;
		j->lines = 0;
	}
	merge_events(j, c);
	if (cont && !guess_holds(j))
		return false;
	if (!merge_names(j, c))
		return false;
	ok = merge_functions(j, c) && merge_edges(j, c);
	ptrans = xmalloc_array(l->nparts ? l->nparts : 1, sizeof(uint32_t));
	ok = ok && merge_parts(j, c, ptrans, cont);
	if (ok)
		merge_blocks(j, c, ptrans);
	free(ptrans);
	if (!ok)
		return false;
	merge_end_state(j, &c->fin);
	j->lines += c->fin.lines;
	j->all_lines += c->fin.lines;
	j->prof->src[c->src].lines = j->lines;
	j->prof->lines = j->all_lines;
	return true;
}

/* ---- the job ----------------------------------------------------------- */

/* Throw away what was merged and read the file in one pass, in a thread. */
static void go_one_pass(struct parse_job *j)
{
	struct profile *p = j->prof;
	struct source *src = p->src;
	size_t nsrc = p->nsrc;
	const char *path = p->path;
	bool declared = p->declared_callgrind;

	atomic_store(&j->cancel, true); /* the chunks being read are of no use now */
	join_threads(j);
	atomic_store(&j->cancel, false);
	free_chunks_left(j);
	free(j->thread_cpu);
	j->thread_cpu = NULL;
	/* the files stay open (and their ids go: the one pass makes them again) */
	for (size_t i = 0; i < nsrc; i++)
		for (int k = 0; k < 3; k++)
			idtab_release(&src[i].shared_ids[k]);
	p->src = NULL;
	p->nsrc = 0;
	profile_release(p);
	profile_init(p, path);
	out_lists_release(j); /* (the one pass finds its calls in the call index) */
	p->src = src;
	p->nsrc = nsrc;
	p->declared_callgrind = declared;
	j->stop = false;
	j->one_pass = true;
	j->lines = j->all_lines = 0;
	start_threads(j, 1, one_pass_main);
}

/*
 * NCGRIND_CHUNK_SIZE=BYTES: how much of the file a thread indexes at a
 * time, for the tests: a few bytes cut a small fixture at every fn= line.
 */
static uint64_t chunk_from_env(void)
{
	const char *s = getenv("NCGRIND_CHUNK_SIZE");
	char *end;
	unsigned long long v;

	if (!s || !*s)
		return 0;
	v = strtoull(s, &end, 10);
	return *end ? 0 : (uint64_t)v;
}

static void job_init(struct parse_job *j, struct profile *p, struct diag *d,
		     const struct parse_opts *o)
{
	memset(j, 0, sizeof(*j));
	j->prof = p;
	j->diag = d;
	if (o)
		j->opts = *o;
	if (!j->opts.chunk)
		j->opts.chunk = chunk_from_env();
	j->total = profile_bytes(p);
	j->guess = xcalloc(p->nsrc ? p->nsrc : 1, sizeof(j->guess[0]));
	j->part = NCG_NONE;
	pthread_mutex_init(&j->mu, NULL);
	pthread_cond_init(&j->done_cond, NULL);
	pthread_cond_init(&j->room_cond, NULL);
	atomic_init(&j->one_pass_done, 0);
	atomic_init(&j->cancel, false);
	j->t0 = seconds_monotonic();
	if (getenv("NCGRIND_TEST_CHUNK_DELAY_MS")) {
		long ms = atol(getenv("NCGRIND_TEST_CHUNK_DELAY_MS"));

		j->delay.tv_nsec = ms > 0 && ms < 1000 ? ms * 1000000L : 0;
	}
	j->cpu0 = seconds_thread_cpu();
}

static uint64_t chunk_size(const struct parse_job *j, unsigned jobs)
{
	uint64_t size = j->opts.chunk;

	if (!size) {
		size = j->total / ((uint64_t)jobs * CHUNKS_PER_THREAD);
		size = size < MIN_CHUNK ? MIN_CHUNK : size > MAX_CHUNK ? MAX_CHUNK : size;
	}
	return size;
}

/* Every file in chunks (a small one in one), in order; false when there are not two. */
static bool cut_files(struct parse_job *j, uint64_t size)
{
	uint64_t before = 0, after = 0;

	for (uint32_t s = 0; s < j->prof->nsrc; s++)
		after += j->prof->src[s].map.size;
	for (uint32_t s = 0; s < j->prof->nsrc; s++) {
		const struct map *m = &j->prof->src[s].map;

		after -= m->size;
		if ((j->opts.chunk || m->size >= SMALL_FILE) && guess_header(j, s, MAX_CHUNK))
			cut_chunks(j, s, size, before, after);
		else
			add_chunk(j, s, 0, m->size, before);
		before += m->file_size;
	}
	return j->nchunks >= 2;
}

struct parse_job *parse_start(struct profile *p, struct diag *d, const struct parse_opts *o)
{
	struct parse_job *j;
	unsigned jobs = o && o->jobs ? o->jobs : cores();
	uint64_t size;
	int bad = 0;

	for (uint32_t s = 0; s < p->nsrc; s++)
		bad |= parser_open(p, s, d, o);
	if (p->nsrc)
		d->path = p->src[0].path;
	if (bad || !p->nsrc)
		return NULL;
	if (p->nsrc > 1)
		parser_skip_strangers(p, d);
	j = xmalloc(sizeof(*j));
	job_init(j, p, d, o);
	j->jobs = jobs;
	size = chunk_size(j, jobs);
	if (!(jobs > 1 || j->opts.chunk) || !cut_files(j, size)) {
		free(j->chunks);
		j->chunks = NULL;
		j->nchunks = 0;
		j->one_pass = true;
		start_threads(j, 1, one_pass_main);
		return j;
	}
	j->ahead = (size_t)jobs * AHEAD_PER_THREAD;
	if (j->opts.help) /* this thread is one of the jobs */
		jobs--;
	start_threads(j, jobs < j->nchunks ? jobs : (unsigned)j->nchunks, worker_main);
	return j;
}

/*
 * With opts.help, the merging thread parses the next chunk itself rather
 * than wait for a worker to (called with mu held; true when it did one).
 */
static bool help_parse(struct parse_job *j)
{
	size_t i = j->next_todo;

	if (!j->opts.help || j->one_pass || i >= j->nchunks || i >= j->merged + j->ahead)
		return false;
	j->next_todo++;
	j->chunks[i].state = CH_RUNNING;
	pthread_mutex_unlock(&j->mu);
	chunk_parse(j, &j->chunks[i], &j->spare);
	pthread_mutex_lock(&j->mu);
	j->chunks[i].state = CH_DONE;
	j->helped = true;
	return true;
}

bool parse_poll(struct parse_job *j, int timeout_ms)
{
	struct timespec until;
	bool ready;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += timeout_ms / 1000;
	until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	for (;;) {
		pthread_mutex_lock(&j->mu);
		while (!j->finished && !(j->merged < j->nchunks && !j->one_pass &&
					 j->chunks[j->merged].state == CH_DONE)) {
			if (help_parse(j))
				continue;
			if (pthread_cond_timedwait(&j->done_cond, &j->mu, &until) != 0)
				break;
		}
		ready = !j->finished && !j->one_pass && j->merged < j->nchunks &&
			j->chunks[j->merged].state == CH_DONE;
		pthread_mutex_unlock(&j->mu);
		if (!ready)
			return j->finished;
		if (!merge_chunk(j, j->merged)) {
			chunk_free(&j->chunks[j->merged], NULL);
			go_one_pass(j);
			return false;
		}
		if (!j->chunks[j->merged].reader) /* (a worker's: free_merged()) */
			chunk_free(&j->chunks[j->merged], &j->spare);
		give_back(j, &j->spare);
		pthread_mutex_lock(&j->mu);
		if (j->chunks[j->merged].reader)
			j->chunks[j->merged].state = CH_MERGED;
		j->merged++;
		if (j->merged == j->nchunks) {
			j->finished = true;
			close_part(j);
			profile_spare_release(&j->spare); /* (before the finish trims the heap) */
		}
		pthread_cond_broadcast(&j->room_cond);
		pthread_mutex_unlock(&j->mu);
		if (j->finished)
			return true;
		/* back by the deadline, however fast chunks come: the browser redraws */
		if (seconds_realtime() >= (double)until.tv_sec + (double)until.tv_nsec / 1e9)
			return false;
	}
}

bool parse_partial(const struct parse_job *j)
{
	return !j->one_pass;
}

void parse_read_sums(const struct parse_job *j, uint64_t *out, uint32_t nev)
{
	for (uint32_t e = 0; e < nev; e++)
		out[e] = e < j->read_sum_alloc ? j->read_sum[e] : 0;
}

void parse_done_bytes(struct parse_job *j, uint64_t *done, uint64_t *total)
{
	*total = j->total;
	if (j->one_pass)
		*done = atomic_load(&j->one_pass_done);
	else
		*done = j->merged < j->nchunks
			    ? j->chunks[j->merged].before + j->chunks[j->merged].start
			    : j->total;
	if (*done > j->total)
		*done = j->total;
}

static void record_stats(struct parse_job *j)
{
	struct profile *p = j->prof;

	p->stats.jobs = j->nworkers;
	p->stats.wall = seconds_monotonic() - j->t0;
	p->stats.main_cpu = seconds_thread_cpu() - j->cpu0;
	if (j->helped && !j->one_pass) { /* the merging thread was one of the jobs */
		j->thread_cpu = xrealloc(j->thread_cpu, (j->nworkers + 1) * sizeof(double));
		j->thread_cpu[p->stats.jobs++] = p->stats.main_cpu;
	}
	free(p->stats.thread_cpu);
	p->stats.thread_cpu = j->thread_cpu;
	p->stats.one_pass = j->one_pass;
	p->stats.chunks = j->nchunks;
	j->thread_cpu = NULL;
}

static void job_free(struct parse_job *j)
{
	free_chunks_left(j);
	profile_spare_release(&j->spare);
	free(j->chunks);
	for (size_t i = 0; i < j->prof->nsrc; i++)
		free(j->guess[i].events);
	free(j->guess);
	free(j->part_sum);
	free(j->read_sum);
	free(j->end.evmap);
	free(j->ntrans);
	free(j->ftrans);
	free(j->evtrans);
	out_lists_release(j);
	free(j->thread_cpu);
	pthread_mutex_destroy(&j->mu);
	pthread_cond_destroy(&j->done_cond);
	pthread_cond_destroy(&j->room_cond);
	free(j);
}

int parse_end(struct parse_job *j, bool cancel)
{
	struct profile *prof;
	struct diag *d;
	unsigned jobs = j->jobs;
	int ret;

	if (!cancel)
		while (!parse_poll(j, 1000))
			;
	else
		atomic_store(&j->cancel, true);
	join_threads(j);
	record_stats(j);
	prof = j->prof;
	d = j->diag;
	job_free(j);
	ret = cancel ? -1 : parser_close(prof, d, jobs);
	/*
	 * The chunks' profiles (in the threads' arenas) and the 64-bit rows the
	 * finished profile no longer needs were freed: give their pages back.
	 */
	heap_trim();
	return ret;
}
