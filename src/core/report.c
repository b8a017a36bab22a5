/*
 * report: functions and calls as text, tsv or json. Names are bytes: tsv
 * keeps them as they are (escaping only its separators) unless it goes to a
 * terminal, json keeps valid UTF-8 and writes each byte that is not as the
 * text \xNN (a lone surrogate such as \udcXX would not be valid JSON), text
 * escapes anything a terminal would interpret (escape.h).
 *
 * A report of a 1 GiB profile has a million rows: what can be worked out
 * once is. The orders are radix sorts on keys made once (report_sort.c);
 * whether a name needs an escape is known per name, not per row; numbers
 * are written without printf into one buffer that goes out in large writes.
 */
#define _POSIX_C_SOURCE 200809L /* sysconf under -std=c11 */
#include "ncgrind/core/report.h"
#include "ncgrind/core/escape.h"
#include "ncgrind/core/graph.h"

#include <float.h>
#include <pthread.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdlib.h>
#include <unistd.h>

int report_parse_events(const struct profile *p, const char *list, uint32_t *out, char *err,
			size_t errsize)
{
	int n = 0;
	const char *s = list;

	while (*s) {
		size_t len = strcspn(s, ", \t");
		uint32_t ev;

		if (!len) {
			s++;
			continue;
		}
		ev = profile_find_event(p, span_make(s, len));
		if (ev == NCG_NONE) {
			snprintf(err, errsize, "%.*s", (int)(len > 64 ? 64 : len), s);
			return -1;
		}
		if (n < (int)p->nev)
			out[n++] = ev;
		s += len;
	}
	return n;
}

/* ---- output ------------------------------------------------------------ */

/*
 * The report is built in one buffer and written in large fwrite()s: a stdio
 * call per number or name costs more than formatting it. A sink without a
 * file grows instead (the json keys of the events, made once).
 */
struct sink {
	FILE *out;
	char *buf;
	size_t len, cap;
};

#define SINK_SIZE (256 * 1024)

static void sink_init(struct sink *s, FILE *out, size_t cap)
{
	s->out = out;
	s->buf = xmalloc(cap);
	s->len = 0;
	s->cap = cap;
}

static void sink_flush(struct sink *s)
{
	if (s->out && s->len)
		fwrite(s->buf, 1, s->len, s->out);
	s->len = 0;
}

static void sink_release(struct sink *s)
{
	sink_flush(s);
	free(s->buf);
}

static void sink_grow(struct sink *s, size_t n)
{
	if (s->out)
		sink_flush(s);
	ALLOC_GROW(s->buf, st_add(s->len, n), s->cap);
}

/* Room for n more bytes at the returned place; the caller adds what it wrote to len. */
static inline char *sink_room(struct sink *s, size_t n)
{
	if (n > s->cap - s->len)
		sink_grow(s, n);
	return s->buf + s->len;
}

static inline void sink_mem(struct sink *s, const char *p, size_t n)
{
	if (!n) /* an empty name may have no bytes at all (p NULL): memcpy may not be told so */
		return;
	memcpy(sink_room(s, n), p, n);
	s->len += n;
}

static inline void sink_char(struct sink *s, char c)
{
	*sink_room(s, 1) = c;
	s->len++;
}

static void sink_str(struct sink *s, const char *str)
{
	sink_mem(s, str, strlen(str));
}

static void sink_pad(struct sink *s, size_t n)
{
	memset(sink_room(s, n), ' ', n);
	s->len += n;
}

static inline void sink_u64(struct sink *s, uint64_t v)
{
	char *at = sink_room(s, 20);

	s->len += fmt_u64(at, v);
}

int report_ratio(char *buf, size_t size, uint64_t v)
{
	return snprintf(buf, size, "%" PRIu64 ".%06" PRIu64, v / EVENT_RATIO_ONE,
			v % EVENT_RATIO_ONE);
}

/* A ratio event's value as a decimal. */
static void sink_ratio(struct sink *s, uint64_t v)
{
	s->len += (size_t)report_ratio(sink_room(s, 32), 32, v);
}

/* v of event e: a count, or a ratio's decimal. */
static void sink_value(struct sink *s, const struct profile *p, uint32_t e, uint64_t v)
{
	if (p->events[e].ratio)
		sink_ratio(s, v);
	else
		sink_u64(s, v);
}

/* v with thousands separators, right-aligned in width, as "%*s". */
static void sink_commas(struct sink *s, uint64_t v, int width)
{
	char num[32];
	size_t n = fmt_u64_commas(num, v);

	if (width > 0 && (size_t)width > n)
		sink_pad(s, (size_t)width - n);
	sink_mem(s, num, n);
}

/* The header lines: few, so printf is fine there. */
__attribute__((format(printf, 2, 3))) static void sink_printf(struct sink *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	va_start(ap, fmt);
	vsnprintf(sink_room(s, (size_t)n + 1), (size_t)n + 1, fmt, ap);
	va_end(ap);
	s->len += (size_t)n;
}

/* ---- names ------------------------------------------------------------- */

/* What a name holds, as far as each format's escaping goes. */
enum {
	NAME_SEEN = 1,  /* the flags are known */
	NAME_SEP = 2,   /* tsv's separators: \t, \n, \\ */
	NAME_ESC = 4,   /* what text escapes: a byte that is not UTF-8, a control, bidi */
	NAME_QUOTE = 8, /* json's: ", \\ */
};

/*
 * Whether the 8 bytes at p are printable ASCII, and neither a backslash
 * nor a double quote: nothing to flag (each test may see one where there
 * is none, never miss one).
 */
static bool plain_word(const char *p)
{
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
	uint64_t w, bs, dq;

	memcpy(&w, p, sizeof(w));
	bs = w ^ ones * '\\';
	dq = w ^ ones * '"';
	return !((((w - ones * 0x20) & ~w) /* a byte under 0x20 */
		  | w | (w + ones)         /* 0x7f and up */
		  | ((bs - ones) & ~bs)    /* a backslash */
		  | ((dq - ones) & ~dq)) & /* a double quote */
		 highs);
}

static uint8_t name_flags(struct span s)
{
	uint8_t f = NAME_SEEN;

	for (size_t i = 0; i < s.len;) {
		unsigned char c = (unsigned char)s.ptr[i];
		uint32_t cp;
		size_t n;

		if (i + 8 <= s.len && plain_word(s.ptr + i)) { /* most names: 8 bytes a step */
			i += 8;
			continue;
		}
		if (c >= 0x20 && c < 0x7f) { /* printable ASCII: most names are nothing else */
			f |= c == '\\' ? NAME_SEP | NAME_QUOTE : c == '"' ? NAME_QUOTE : 0;
			i++;
			continue;
		}
		n = escape_utf8(s.ptr + i, s.len - i, &cp);
		if (!n || escape_wanted(cp))
			f |= NAME_ESC;
		if (c == '\t' || c == '\n')
			f |= NAME_SEP;
		i += n ? n : 1;
	}
	return f;
}

/*
 * Names by id, for one report: whether a name needs an escape is worked
 * out once per name (a call report writes each function's names once per
 * edge); the others, nearly all, are copied as they are.
 */
struct namer {
	const struct profile *p;
	uint8_t *flags;  /* per name id: 0 until seen */
	uint8_t escaped; /* the flags that make this report escape a name */
};

static void namer_init(struct namer *nm, const struct profile *p, uint8_t escaped)
{
	nm->p = p;
	nm->flags = xcalloc(p->names.nr, 1);
	nm->escaped = escaped;
}

static void namer_release(struct namer *nm)
{
	free(nm->flags);
}

/* Whether the name id (not NCG_NONE) is written as its bytes. */
static inline bool namer_plain(struct namer *nm, uint32_t id)
{
	if (!nm->flags[id])
		nm->flags[id] = name_flags(names_get(&nm->p->names, id));
	return !(nm->flags[id] & nm->escaped);
}

/* tsv's escape of its separators, or 0 for a byte that is not one. */
static char tsv_escape(char c)
{
	return c == '\t' ? 't' : c == '\n' ? 'n' : c == '\\' ? '\\' : 0;
}

/*
 * Names as they are, but for the separators of tsv; on a terminal, also
 * what it would act on, as text writes it.
 */
static void tsv_name_escaped(struct sink *s, struct span n, bool terminal)
{
	for (size_t i = 0; i < n.len;) {
		char esc[ESCAPE_MAX] = "";
		size_t len = 1;

		if (tsv_escape(n.ptr[i])) {
			esc[0] = '\\';
			esc[1] = tsv_escape(n.ptr[i]);
			esc[2] = '\0';
		} else if (terminal) {
			len = escape_next(n.ptr + i, n.len - i, esc);
		} else { /* the bytes up to the next separator in one go */
			while (i + len < n.len && !tsv_escape(n.ptr[i + len]))
				len++;
		}
		if (esc[0])
			sink_str(s, esc);
		else
			sink_mem(s, n.ptr + i, len);
		i += len;
	}
}

/* A name for people: valid UTF-8 as is, anything a terminal would act on escaped. */
static void text_name_escaped(struct sink *s, struct span n)
{
	char esc[ESCAPE_MAX];

	for (size_t i = 0; i < n.len;) {
		size_t len = escape_next(n.ptr + i, n.len - i, esc);

		if (esc[0])
			sink_str(s, esc);
		else
			sink_mem(s, n.ptr + i, len);
		i += len;
	}
}

/*
 * A JSON string's contents. Valid UTF-8 stays, but for what a terminal
 * would act on, written as \uXXXX (the same string); each byte that is not
 * UTF-8 becomes the four characters \xNN, as the text report shows it: a
 * JSON string holds only Unicode, and \udcXX (Python's surrogateescape) is
 * a lone surrogate, which strict parsers reject.
 */
static void json_name_escaped(struct sink *s, struct span n)
{
	for (size_t i = 0; i < n.len;) {
		char esc[16];
		uint32_t cp = 0;
		size_t len = escape_utf8(n.ptr + i, n.len - i, &cp);

		if (len == 0)
			snprintf(esc, sizeof(esc), "\\\\x%02x", (unsigned char)n.ptr[i]);
		else if (cp == '"' || cp == '\\')
			snprintf(esc, sizeof(esc), "\\%c", (char)cp);
		else if (escape_wanted(cp))
			snprintf(esc, sizeof(esc), "\\u%04x", (unsigned)cp);
		else
			esc[0] = '\0';
		if (esc[0])
			sink_str(s, esc);
		else
			sink_mem(s, n.ptr + i, len);
		i += len ? len : 1;
	}
}

static void json_string(struct sink *s, struct span n)
{
	sink_char(s, '"');
	json_name_escaped(s, n);
	sink_char(s, '"');
}

/* ---- one report -------------------------------------------------------- */

/* A report being written: its rows (functions or edges) in report order. */
struct report {
	struct sink out;
	const struct profile *p;
	const struct report_opts *o;
	uint32_t *rows;
	size_t n;
	struct namer names;
	const int *w;  /* text: each event's column width */
	char point[8]; /* text: the decimal point, as printf writes it here */
	size_t *keys;  /* json: where each event's key ends in key_text */
	struct sink key_text;
	uint64_t *row[2];           /* a row of costs read out of the profile's 32-bit cells */
	struct call_shares *shares; /* what a call costs as shown (graph.h) */
	int cw;                     /* text: the width of the calls column */
};

/*
 * A call's costs as shown, its share of the caller's, in the events shown
 * (into row[1]); row[0] keeps what the file records for the recorded: columns.
 */
static const uint64_t *call_shares_row(struct report *r, uint32_t e)
{
	for (uint32_t i = 0; i < r->o->nevents; i++)
		r->row[1][r->o->events[i]] = call_shares_cost(r->shares, r->p, e, r->o->events[i]);
	return r->row[1];
}

/* The word a call within recursion is marked with (graph.h), or NULL. */
static const char *call_mark(const struct report *r, uint32_t e)
{
	const struct call_edge *ce = &r->p->edges[e];

	return graph_call_recursive(r->p, ce->caller, ce->callee) ? GRAPH_RECURSIVE : NULL;
}

/*
 * The rows are in cost order, and what a row shows is all over memory: the
 * edge, its functions, their costs, the spans of their names, the names'
 * bytes in the mapped file. Each is asked for some rows ahead, once the
 * address it takes has come (each stage loads what an earlier one asked
 * for). Without, a row waited on a chain of up to ten misses, and the call
 * report of a 1 GiB profile took 2.5 times as long. always_inline: GCC
 * finds a function that only prefetches free of side effects, and drops
 * the call.
 */
#define PREFETCH static inline __attribute__((always_inline)) void

PREFETCH prefetch_costs(const void *row, size_t bytes)
{
	for (size_t at = 0; row && at < bytes && at < 256; at += 64)
		__builtin_prefetch((const char *)row + at);
}

/* Row `row` of cost cells (or of the 64-bit rows, before the profile is finished). */
PREFETCH prefetch_cells(const struct profile *p, const struct cost_cells *c, const uint64_t *rows,
			size_t row)
{
	if (p->compact)
		prefetch_costs(c->cell + row * p->ncell, p->ncell * sizeof(uint32_t));
	else if (rows)
		prefetch_costs(rows + row * p->stride, p->nev * sizeof(uint64_t));
}

/* Stage 0: the span of a name; 1: the name's first bytes. */
PREFETCH prefetch_name(const struct profile *p, uint32_t id, int stage)
{
	if (id == NCG_NONE)
		return;
	if (stage == 0) {
		__builtin_prefetch(&p->names.spans[id]);
	} else if (p->names.spans[id].ptr) { /* (an empty name may have no bytes at all) */
		__builtin_prefetch(p->names.spans[id].ptr);
		if (p->names.spans[id].len > 64) /* no pointer past the name */
			__builtin_prefetch(p->names.spans[id].ptr + 64);
	}
}

/* A function's name and file (10,000 files of a big profile are all over it too). */
PREFETCH prefetch_names(const struct profile *p, uint32_t f, int stage)
{
	prefetch_name(p, p->funcs[f].name, stage);
	prefetch_name(p, p->funcs[f].file, stage);
}

PREFETCH prefetch_row(const struct report *r, uint32_t row, int stage)
{
	const struct profile *p = r->p;
	const struct call_edge *e;

	if (r->o->kind == REPORT_FUNCTIONS) {
		if (stage == 0) {
			__builtin_prefetch(&p->funcs[row]);
		} else if (stage == 1) {
			prefetch_cells(p, &p->self_c, p->self, row);
			if (!p->no_cycles)
				prefetch_cells(p, &p->incl_c, p->incl, row);
		} else {
			prefetch_names(p, row, stage - 2);
		}
		return;
	}
	e = &p->edges[row];
	if (stage == 0) {
		__builtin_prefetch(e);
	} else if (stage == 1) {
		__builtin_prefetch(&p->funcs[e->caller]);
		__builtin_prefetch(&p->funcs[e->callee]);
		prefetch_cells(p, &p->edge_c, p->edge_cost, row);
	} else {
		prefetch_names(p, e->caller, stage - 2);
		prefetch_names(p, e->callee, stage - 2);
	}
}

/* Before writing row i: stage 0 for row i + 8, 1 for i + 6, 2 for i + 4, 3 for i + 2. */
PREFETCH prefetch_rows(const struct report *r, size_t i)
{
	for (int stage = 0; stage < 4; stage++) {
		size_t ahead = 8 - 2 * (size_t)stage;

		if (i + ahead < r->n)
			prefetch_row(r, r->rows[i + ahead], stage);
	}
}

/* ---- rows on several threads ---------------------------------------------- */

/*
 * The rows of a long function report are written by several threads: each
 * formats blocks of rows into a buffer of its own, which this thread
 * writes out in order, so that the bytes are those one thread would write
 * (each row is what the loop would have written there). A worker has its
 * own copy of the report, with its own names' flags (namer) and cost
 * rows; the rest of a report is only read. At most 2 blocks a thread wait
 * to be written: a few hundred kB, not the report (66 MB of tsv at 1 GiB).
 */
#define PAR_BLOCK 512     /* rows: 2,048 held 4 MB of a 100 MiB profile's report */
#define PAR_MIN_ROWS 8192 /* fewer: one thread writes them */
#define PAR_MAX_THREADS 16

/* Row i of a report, into r->out. */
typedef void (*row_fn)(struct report *r, size_t i);

struct par_slot {
	struct sink out;
	size_t block;
	bool ready;
};

struct par {
	row_fn fn;
	size_t n, nblocks, next, written;
	struct par_slot *slots;
	size_t nslots;
	pthread_mutex_t mu;
	pthread_cond_t cond;
};

struct par_worker {
	struct par *par;
	struct report r;
	pthread_t thread;
};

static void rows_range(struct report *r, row_fn fn, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++) {
		prefetch_rows(r, i);
		fn(r, i);
	}
}

static void *par_main(void *arg)
{
	struct par_worker *w = arg;
	struct par *pa = w->par;

	thread_leave_signals(); /* (the browser's :write: a name read from a cut file) */
	pthread_mutex_lock(&pa->mu);
	for (;;) {
		struct par_slot *s;
		size_t b;

		while (pa->next < pa->nblocks && pa->next >= pa->written + pa->nslots)
			pthread_cond_wait(&pa->cond, &pa->mu);
		if (pa->next >= pa->nblocks)
			break;
		b = pa->next++;
		s = &pa->slots[b % pa->nslots];
		pthread_mutex_unlock(&pa->mu);
		w->r.out = s->out;
		rows_range(&w->r, pa->fn, b * PAR_BLOCK,
			   b * PAR_BLOCK + PAR_BLOCK < pa->n ? b * PAR_BLOCK + PAR_BLOCK : pa->n);
		pthread_mutex_lock(&pa->mu);
		s->out = w->r.out;
		s->block = b;
		s->ready = true;
		pthread_cond_broadcast(&pa->cond);
	}
	pthread_mutex_unlock(&pa->mu);
	return NULL;
}

static unsigned report_jobs(const struct report *r)
{
	unsigned jobs = r->o->jobs;
	size_t blocks = (r->n + PAR_BLOCK - 1) / PAR_BLOCK;

	if (r->o->kind != REPORT_FUNCTIONS) /* (a call's share is worked out as it is asked) */
		return 1;
	if (!jobs) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);

		jobs = c > 0 ? (unsigned)c : 1;
	}
	jobs = jobs < PAR_MAX_THREADS ? jobs : PAR_MAX_THREADS;
	return r->n < PAR_MIN_ROWS ? 1 : jobs < blocks ? jobs : (unsigned)blocks;
}

/* Write the blocks in order, as the workers have them ready. */
static void par_write(struct report *r, struct par *pa)
{
	for (size_t b = 0; b < pa->nblocks; b++) {
		struct par_slot *s = &pa->slots[b % pa->nslots];

		pthread_mutex_lock(&pa->mu);
		while (!(s->ready && s->block == b))
			pthread_cond_wait(&pa->cond, &pa->mu);
		pthread_mutex_unlock(&pa->mu);
		if (s->out.len)
			fwrite(s->out.buf, 1, s->out.len, r->out.out);
		s->out.len = 0;
		pthread_mutex_lock(&pa->mu);
		s->ready = false;
		pa->written++;
		pthread_cond_broadcast(&pa->cond);
		pthread_mutex_unlock(&pa->mu);
	}
}

/* Every row of r, by fn: on several threads when there are many (see above). */
static void rows_write(struct report *r, row_fn fn)
{
	unsigned jobs = report_jobs(r), started = 0;
	struct par pa = {.fn = fn, .n = r->n, .nblocks = (r->n + PAR_BLOCK - 1) / PAR_BLOCK};
	struct par_worker *w;

	if (jobs < 2 || !r->out.out) {
		rows_range(r, fn, 0, r->n);
		return;
	}
	pa.nslots = 2 * (size_t)jobs;
	pa.slots = xcalloc(pa.nslots, sizeof(*pa.slots));
	for (size_t i = 0; i < pa.nslots; i++)
		sink_init(&pa.slots[i].out, NULL, SINK_SIZE);
	pthread_mutex_init(&pa.mu, NULL);
	pthread_cond_init(&pa.cond, NULL);
	w = xcalloc(jobs, sizeof(*w));
	for (unsigned k = 0; k < jobs; k++) {
		w[k].par = &pa;
		w[k].r = *r;
		namer_init(&w[k].r.names, r->p, r->names.escaped);
		w[k].r.row[0] = xcalloc(r->p->nev ? r->p->nev : 1, sizeof(uint64_t));
		w[k].r.row[1] = xcalloc(r->p->nev ? r->p->nev : 1, sizeof(uint64_t));
		if (pthread_create(&w[k].thread, NULL, par_main, &w[k]) != 0)
			break;
		started++;
	}
	sink_flush(&r->out);
	if (started)
		par_write(r, &pa);
	else /* no thread to be had: here */
		rows_range(r, fn, 0, r->n);
	for (unsigned k = 0; k < jobs; k++) {
		if (k < started)
			pthread_join(w[k].thread, NULL);
		namer_release(&w[k].r.names);
		free(w[k].r.row[0]);
		free(w[k].r.row[1]);
	}
	for (size_t i = 0; i < pa.nslots; i++)
		free(pa.slots[i].out.buf);
	free(pa.slots);
	free(w);
	pthread_mutex_destroy(&pa.mu);
	pthread_cond_destroy(&pa.cond);
}

/* ---- tsv --------------------------------------------------------------- */

static void tsv_name(struct report *r, uint32_t id)
{
	struct span n = profile_name(r->p, id);

	if (id == NCG_NONE || namer_plain(&r->names, id))
		sink_mem(&r->out, n.ptr, n.len);
	else
		tsv_name_escaped(&r->out, n, r->o->terminal);
}

static inline void tsv_u64(struct sink *s, uint64_t v)
{
	char *at = sink_room(s, 21);

	*at = '\t';
	s->len += 1 + fmt_u64(at + 1, v);
}

static void tsv_costs(struct report *r, const uint64_t *costs)
{
	for (uint32_t i = 0; i < r->o->nevents; i++) {
		uint32_t e = r->o->events[i];

		if (r->p->events[e].ratio) {
			sink_char(&r->out, '\t');
			sink_ratio(&r->out, costs[e]);
		} else {
			tsv_u64(&r->out, costs[e]);
		}
	}
}

static void tsv_event_header(struct report *r, const char *prefix)
{
	for (uint32_t i = 0; i < r->o->nevents; i++) {
		sink_char(&r->out, '\t');
		sink_str(&r->out, prefix);
		tsv_name_escaped(&r->out, r->p->events[r->o->events[i]].name, r->o->terminal);
	}
}

static void tsv_fn_names(struct report *r, uint32_t f, bool object)
{
	const struct function *fn = &r->p->funcs[f];

	tsv_name(r, fn->name);
	sink_char(&r->out, '\t');
	tsv_name(r, fn->file);
	if (object) {
		sink_char(&r->out, '\t');
		tsv_name(r, fn->object);
	}
}

static void tsv_function(struct report *r, size_t i)
{
	uint32_t f = r->rows[i];

	tsv_fn_names(r, f, true);
	tsv_u64(&r->out, r->p->funcs[f].calls);
	tsv_costs(r, profile_self_row(r->p, f, r->row[0]));
	tsv_costs(r, profile_incl_row(r->p, f, r->row[1]));
	sink_char(&r->out, '\n');
}

static void tsv_functions(struct report *r)
{
	sink_str(&r->out, "function\tfile\tobject\tcalls");
	tsv_event_header(r, "self:");
	tsv_event_header(r, "incl:");
	sink_char(&r->out, '\n');
	rows_write(r, tsv_function);
}

/* incl: the cost shown (the call's share); recorded: the file's number; mark: recursive */
static void tsv_calls(struct report *r)
{
	sink_str(&r->out, "caller\tcaller_file\tcallee\tcallee_file\tcount");
	tsv_event_header(r, "incl:");
	tsv_event_header(r, "recorded:");
	sink_str(&r->out, "\tmark\n");
	for (size_t i = 0; i < r->n; i++) {
		const struct call_edge *e = &r->p->edges[r->rows[i]];
		const char *mark = call_mark(r, r->rows[i]);

		prefetch_rows(r, i);
		tsv_fn_names(r, e->caller, false);
		sink_char(&r->out, '\t');
		tsv_fn_names(r, e->callee, false);
		tsv_u64(&r->out, e->count);
		tsv_costs(r, call_shares_row(r, r->rows[i]));
		tsv_costs(r, profile_edge_row(r->p, r->rows[i], r->row[0]));
		sink_char(&r->out, '\t');
		sink_str(&r->out, mark ? mark : "");
		sink_char(&r->out, '\n');
	}
}

/* ---- json -------------------------------------------------------------- */

/* The keys of the costs objects, `"Ir":` and `,"Dr":`, made once for every row. */
static void json_keys(struct report *r)
{
	sink_init(&r->key_text, NULL, 64);
	r->keys = xmalloc_array(r->o->nevents, sizeof(*r->keys));
	for (uint32_t i = 0; i < r->o->nevents; i++) {
		if (i)
			sink_char(&r->key_text, ',');
		json_string(&r->key_text, r->p->events[r->o->events[i]].name);
		sink_char(&r->key_text, ':');
		r->keys[i] = r->key_text.len;
	}
}

static void json_name(struct report *r, uint32_t id)
{
	struct span n = profile_name(r->p, id);

	sink_char(&r->out, '"');
	if (id == NCG_NONE || namer_plain(&r->names, id))
		sink_mem(&r->out, n.ptr, n.len);
	else
		json_name_escaped(&r->out, n);
	sink_char(&r->out, '"');
}

static void json_costs(struct report *r, const uint64_t *row)
{
	sink_char(&r->out, '{');
	for (uint32_t i = 0; i < r->o->nevents; i++) {
		size_t from = i ? r->keys[i - 1] : 0;

		sink_mem(&r->out, r->key_text.buf + from, r->keys[i] - from);
		sink_value(&r->out, r->p, r->o->events[i], row[r->o->events[i]]);
	}
	sink_char(&r->out, '}');
}

static void json_header(struct report *r)
{
	const struct profile *p = r->p;
	const struct part *pt = p->nparts ? &p->parts[0] : NULL;
	struct sink *s = &r->out;

	sink_str(s, "{\"file\":");
	json_string(s, span_make(p->path, strlen(p->path)));
	sink_str(s, ",\"creator\":");
	json_string(s, pt ? pt->creator : span_make("", 0));
	sink_str(s, ",\"command\":");
	json_string(s, pt ? pt->cmd : span_make("", 0));
	sink_printf(s, ",\"parts\":%zu,\"events\":[", p->nparts);
	for (uint32_t i = 0; i < r->o->nevents; i++) {
		const struct event *ev = &p->events[r->o->events[i]];

		sink_str(s, i ? ",{\"name\":" : "{\"name\":");
		json_string(s, ev->name);
		sink_str(s, ",\"long_name\":");
		json_string(s, ev->long_name);
		sink_str(s, ",\"formula\":");
		if (ev->derived)
			json_string(s, ev->formula);
		else
			sink_str(s, "null");
		sink_char(s, '}');
	}
	sink_str(s, "],\"totals\":");
	json_costs(r, p->totals);
}

static void json_function(struct report *r, uint32_t f)
{
	const struct function *fn = &r->p->funcs[f];
	struct sink *s = &r->out;

	sink_str(s, "{\"function\":");
	json_name(r, fn->name);
	sink_str(s, ",\"file\":");
	json_name(r, fn->file);
	sink_str(s, ",\"object\":");
	json_name(r, fn->object);
	sink_str(s, ",\"calls\":");
	sink_u64(s, fn->calls);
	sink_str(s, ",\"cycle\":");
	sink_u64(s, profile_cycle(r->p, f));
	sink_str(s, ",\"self\":");
	json_costs(r, profile_self_row(r->p, f, r->row[0]));
	sink_str(s, ",\"incl\":");
	json_costs(r, profile_incl_row(r->p, f, r->row[1]));
	sink_char(s, '}');
}

static void json_call(struct report *r, uint32_t e)
{
	const struct profile *p = r->p;
	const struct call_edge *ce = &p->edges[e];
	struct sink *s = &r->out;

	sink_str(s, "{\"caller\":");
	json_name(r, p->funcs[ce->caller].name);
	sink_str(s, ",\"caller_file\":");
	json_name(r, p->funcs[ce->caller].file);
	sink_str(s, ",\"callee\":");
	json_name(r, p->funcs[ce->callee].name);
	sink_str(s, ",\"callee_file\":");
	json_name(r, p->funcs[ce->callee].file);
	sink_str(s, ",\"count\":");
	sink_u64(s, ce->count);
	sink_str(s, ",\"incl\":");
	json_costs(r, call_shares_row(r, e));
	sink_str(s, ",\"recorded\":");
	json_costs(r, profile_edge_row(p, e, r->row[0]));
	sink_str(s, call_mark(r, e) ? ",\"recursive\":true}" : ",\"recursive\":false}");
}

static void json_function_row(struct report *r, size_t i)
{
	sink_str(&r->out, i ? ",\n" : "\n");
	json_function(r, r->rows[i]);
}

static void json_call_row(struct report *r, size_t i)
{
	sink_str(&r->out, i ? ",\n" : "\n");
	json_call(r, r->rows[i]);
}

static void json_report(struct report *r)
{
	bool funcs = r->o->kind == REPORT_FUNCTIONS;

	json_keys(r);
	json_header(r);
	sink_str(&r->out, funcs ? ",\"functions\":[" : ",\"calls\":[");
	rows_write(r, funcs ? json_function_row : json_call_row);
	sink_str(&r->out, "\n]}\n");
	sink_release(&r->key_text);
	free(r->keys);
}

/* ---- text ------------------------------------------------------------- */

static const char rule[] =
    "--------------------------------------------------------------------------------\n";

static void text_name(struct sink *s, struct span n, const char *unknown)
{
	if (n.len)
		text_name_escaped(s, n);
	else
		sink_str(s, unknown);
}

static void text_name_id(struct report *r, uint32_t id, const char *unknown)
{
	struct span n = profile_name(r->p, id);

	if (!n.len)
		sink_str(&r->out, unknown);
	else if (namer_plain(&r->names, id))
		sink_mem(&r->out, n.ptr, n.len);
	else
		text_name_escaped(&r->out, n);
}

void report_put_name(FILE *out, struct span n, bool tsv, bool terminal)
{
	struct sink s;

	if (!n.len) /* nothing to write: no buffer is allocated */
		return;
	sink_init(&s, out, 256);
	if (tsv)
		tsv_name_escaped(&s, n, terminal);
	else
		text_name_escaped(&s, n);
	sink_release(&s);
}

void report_put_json_string(FILE *out, struct span n)
{
	struct sink s;

	sink_init(&s, out, 256);
	json_string(&s, n);
	sink_release(&s);
}

void report_put_json_head(FILE *out, const struct profile *p, const struct report_opts *o)
{
	struct report r;

	memset(&r, 0, sizeof(r));
	r.p = p;
	r.o = o;
	sink_init(&r.out, out, 4096);
	json_keys(&r);
	json_header(&r);
	sink_release(&r.out);
	sink_release(&r.key_text);
	free(r.keys);
}

void report_put_json_costs(FILE *out, const struct profile *p, const struct report_opts *o,
			   const uint64_t *row)
{
	struct sink s;

	sink_init(&s, out, 256);
	sink_char(&s, '{');
	for (uint32_t i = 0; i < o->nevents; i++) {
		if (i)
			sink_char(&s, ',');
		json_string(&s, p->events[o->events[i]].name);
		sink_char(&s, ':');
		sink_value(&s, p, o->events[i], row ? row[o->events[i]] : 0);
	}
	sink_char(&s, '}');
	sink_release(&s);
}

static void text_function(struct report *r, uint32_t f)
{
	const struct function *fn = &r->p->funcs[f];
	uint32_t cycle = profile_cycle(r->p, f);

	text_name_id(r, fn->file, "???");
	sink_char(&r->out, ':');
	text_name_id(r, fn->name, "(unknown)");
	if (cycle) {
		sink_str(&r->out, " <cycle ");
		sink_u64(&r->out, cycle);
		sink_char(&r->out, '>');
	}
}

static int digits_with_commas(uint64_t v)
{
	char buf[32];

	return (int)fmt_u64_commas(buf, v);
}

/* Width of the calls/count column: its largest value, at least the heading. */
static int count_width(uint64_t most)
{
	int w = digits_with_commas(most);

	return w > 5 ? w : 5;
}

/* The decimal point of the locale, as printf's %f writes it. */
static void text_point(char point[8])
{
	char buf[32];
	size_t n;

	snprintf(buf, sizeof(buf), "%.1f", 1.5);
	n = strlen(buf) - 2; /* "1" and "5" around it */
	if (n >= 8)
		n = 0;
	memcpy(point, buf + 1, n);
	point[n] = '\0';
}

/*
 * x >= 0 (a share, below 2^60) times 100, rounded as printf's "%.2f" rounds
 * x: to the nearest, ties to even, on the exact binary value. The double
 * product is within 10000 * 2^-53 of the exact one, so it decides but near
 * a tie; there, x * 100 as a long double is exact (53 bits times 7 fit in
 * 64). UINT64_MAX where long double is no wider than double: printf then.
 */
static uint64_t share_cents(double x)
{
	double y = x * 100.0;
	uint64_t c = (uint64_t)y;
	double frac = y - (double)c;

	if (frac < 0.499 || frac > 0.501)
		return c + (frac > 0.5);
#if LDBL_MANT_DIG >= 60
	{
		long double yl = (long double)x * 100.0L;
		long double fl;

		c = (uint64_t)yl;
		fl = yl - (long double)c;
		return c + (fl > 0.5L || (fl == 0.5L && (c & 1)));
	}
#else
	return UINT64_MAX;
#endif
}

/* printf's "%5.2f" of a share x into buf (room for 40 bytes), without printf. */
static size_t fmt_share(char *buf, double x, const char *point)
{
	uint64_t c = x < 1e15 ? share_cents(x) : UINT64_MAX; /* (a share far above its base) */
	char num[40];
	size_t n, p = strlen(point);

	if (c == UINT64_MAX)
		return (size_t)snprintf(buf, 40, "%5.2f", x);
	n = fmt_u64(num, c / 100);
	memcpy(num + n, point, p);
	n += p;
	num[n++] = (char)('0' + c % 100 / 10);
	num[n++] = (char)('0' + c % 10);
	if (n >= 5) {
		memcpy(buf, num, n);
		return n;
	}
	memset(buf, ' ', 5 - n);
	memcpy(buf + 5 - n, num, n);
	return 5;
}

/*
 * "%*s (%5.2f%%)  " of v of event e with commas and its share of the total,
 * (100.0%) for the total itself, and never cut to it: a share above is
 * printed as it is. A ratio event's value is a decimal with no share; the
 * event's flag says so, never its total, which may be saturated to any value.
 */
static void text_cell(struct report *r, uint64_t v, uint32_t e, int width)
{
	struct sink *s = &r->out;
	uint64_t total = r->p->totals[e];
	char *at;

	if (r->p->events[e].ratio) {
		char num[32];
		int n = report_ratio(num, sizeof(num), v);

		at = sink_room(s, (size_t)(width > n ? width : n) + 12);
		memset(at, ' ', (size_t)(width > n ? width - n : 0));
		memcpy(at + (width > n ? width - n : 0), num, (size_t)n);
		memcpy(at + (width > n ? width : n), "           ", 11);
		s->len += (size_t)(width > n ? width : n) + 11;
		return;
	}

	sink_commas(s, v, width);
	if (total && v == total) {
		sink_str(s, " (100.0%)  ");
		return;
	}
	at = sink_room(s, 48);
	memcpy(at, " (", 2);
	at += 2;
	at += fmt_share(at, total ? 100.0 * (double)v / (double)total : 0.0, r->point);
	memcpy(at, "%)  ", 4);
	s->len = (size_t)(at + 4 - s->buf);
}

static void text_header(struct report *r)
{
	static const char *const sort_word[] = {
#define S(id, name, word) [SORT_##id] = word,
	    SORT_LIST(S)
#undef S
	};
	const struct profile *p = r->p;
	const struct report_opts *o = r->o;
	const struct part *pt = p->nparts ? &p->parts[0] : NULL;
	struct sink *s = &r->out;

	sink_str(s, rule);
	sink_str(s, "Profile data file '");
	text_name(s, span_make(p->path, strlen(p->path)), "");
	sink_str(s, "'");
	if (pt && pt->creator.len) {
		sink_str(s, " (creator: ");
		text_name(s, pt->creator, "");
		sink_str(s, ")");
	}
	sink_str(s, "\n");
	sink_str(s, rule);
	sink_str(s, "Command:     ");
	text_name(s, pt ? pt->cmd : span_make("", 0), "(unknown)");
	sink_printf(s, "\nParts:       %zu\nEvents:      ", p->nparts);
	for (uint32_t i = 0; i < o->nevents; i++) {
		sink_str(s, i ? " " : "");
		text_name(s, p->events[o->events[i]].name, "");
	}
	sink_printf(s, "\nSorted by:   %s", sort_word[o->sort]);
	if (o->sort != SORT_NAME && o->sort != SORT_CALLS) {
		sink_char(s, ' ');
		text_name(s, p->events[o->sort_event].name, "");
	}
	if (o->filtered_by && *o->filtered_by) { /* (what made the list shorter than the profile) */
		sink_str(s, "\nFilters:     ");
		text_name(s, span_make(o->filtered_by, strlen(o->filtered_by)), "");
	}
	sink_str(s, "\n");
}

/* Bytes of a name as text_name writes it (the tables count a byte a column). */
static size_t text_len(struct span s)
{
	char esc[ESCAPE_MAX];
	size_t len = 0;

	for (size_t i = 0; i < s.len;) {
		size_t n = escape_next(s.ptr + i, s.len - i, esc);

		len += esc[0] ? strlen(esc) : n;
		i += n;
	}
	return len;
}

/* Column widths: each event's widest value (totals are the widest). */
static void text_widths(const struct profile *p, const struct report_opts *o, int *w)
{
	for (uint32_t i = 0; i < o->nevents; i++) {
		int name = (int)text_len(p->events[o->events[i]].name) + 5;

		/* a ratio: "1.000000" and above; rows may be up to 999.999999 */
		w[i] = p->events[o->events[i]].ratio ? 10
						     : digits_with_commas(p->totals[o->events[i]]);
		if (w[i] < name - 9)
			w[i] = name - 9;
	}
}

static void text_totals(struct report *r)
{
	const struct profile *p = r->p;
	const struct report_opts *o = r->o;

	sink_str(&r->out, rule);
	for (uint32_t i = 0; i < o->nevents; i++) {
		struct span n = p->events[o->events[i]].name;
		size_t len = text_len(n);

		text_name(&r->out, n, "");
		if (len < (size_t)r->w[i] + 11)
			sink_pad(&r->out, (size_t)r->w[i] + 11 - len);
	}
	sink_str(&r->out, "\n");
	sink_str(&r->out, rule);
	for (uint32_t i = 0; i < o->nevents; i++)
		text_cell(r, p->totals[o->events[i]], o->events[i], r->w[i]);
	sink_str(&r->out, "PROGRAM TOTALS\n");
	sink_str(&r->out, rule);
}

static void text_column_heads(struct report *r, bool self)
{
	for (uint32_t i = 0; i < r->o->nevents; i++) {
		char name[81], head[96];

		escape_copy(name, sizeof(name), r->p->events[r->o->events[i]].name);
		snprintf(head, sizeof(head), "%s incl", name);
		sink_printf(&r->out, "%-*s", r->w[i] + 11, head);
		if (self) {
			snprintf(head, sizeof(head), "%s self", name);
			sink_printf(&r->out, "%-*s", r->w[i] + 11, head);
		}
	}
}

static void text_function_row(struct report *r, size_t i)
{
	const struct profile *p = r->p;
	const struct report_opts *o = r->o;
	uint32_t f = r->rows[i];
	const uint64_t *incl = profile_incl_row(p, f, r->row[1]),
		       *self = profile_self_row(p, f, r->row[0]);

	for (uint32_t e = 0; e < o->nevents; e++) {
		uint32_t ev = o->events[e];

		text_cell(r, incl[ev], ev, r->w[e]);
		text_cell(r, self[ev], ev, r->w[e]);
	}
	sink_commas(&r->out, p->funcs[f].calls, r->cw);
	sink_mem(&r->out, "  ", 2);
	text_function(r, f);
	sink_char(&r->out, '\n');
}

static void text_functions(struct report *r)
{
	const struct profile *p = r->p;
	uint64_t most = 0;
	int cw;

	for (size_t i = 0; i < r->n; i++)
		most = p->funcs[r->rows[i]].calls > most ? p->funcs[r->rows[i]].calls : most;
	r->cw = cw = count_width(most);
	text_column_heads(r, true);
	sink_printf(&r->out, "%*s  file:function\n", cw, "calls");
	sink_str(&r->out, rule);
	rows_write(r, text_function_row);
}

static void text_calls(struct report *r)
{
	const struct profile *p = r->p;
	const struct report_opts *o = r->o;
	uint64_t most = 0;
	int cw;

	for (size_t i = 0; i < r->n; i++)
		most = p->edges[r->rows[i]].count > most ? p->edges[r->rows[i]].count : most;
	cw = count_width(most);
	text_column_heads(r, false);
	sink_printf(&r->out, "%*s  caller -> callee\n", cw, "count");
	sink_str(&r->out, rule);
	for (size_t i = 0; i < r->n; i++) {
		const struct call_edge *ce = &p->edges[r->rows[i]];
		const uint64_t *cost = call_shares_row(r, r->rows[i]);
		const char *mark = call_mark(r, r->rows[i]);

		prefetch_rows(r, i);
		for (uint32_t e = 0; e < o->nevents; e++)
			text_cell(r, cost[o->events[e]], o->events[e], r->w[e]);
		sink_commas(&r->out, ce->count, cw);
		sink_mem(&r->out, "  ", 2);
		text_function(r, ce->caller);
		sink_mem(&r->out, " -> ", 4);
		text_function(r, ce->callee);
		if (mark)
			sink_printf(&r->out, "  [%s]", mark);
		sink_char(&r->out, '\n');
	}
}

static void report_text(struct report *r)
{
	int *w = xcalloc(r->o->nevents ? r->o->nevents : 1, sizeof(int));

	r->w = w;
	text_point(r->point);
	text_header(r);
	text_widths(r->p, r->o, w);
	text_totals(r);
	if (r->o->kind == REPORT_FUNCTIONS)
		text_functions(r);
	else
		text_calls(r);
	free(w);
}

/* The flags that make a format escape a name (namer_plain). */
static uint8_t escaped_by(const struct report_opts *o)
{
	if (o->format == REPORT_JSON)
		return NAME_ESC | NAME_QUOTE;
	if (o->format == REPORT_TEXT)
		return NAME_ESC;
	return o->terminal ? NAME_SEP | NAME_ESC : NAME_SEP;
}

int report_write(FILE *out, const struct profile *p, const struct report_opts *o)
{
	struct report r = {.p = p, .o = o};
	bool funcs = o->kind == REPORT_FUNCTIONS;

	r.shares = o->shares ? o->shares : call_shares_new();
	r.rows = funcs ? report_sort_functions(p, o->sort, o->sort_event, o->keep, &r.n)
		       : report_sort_calls(p, r.shares, o->sort, o->sort_event, o->keep, &r.n);
	namer_init(&r.names, p, escaped_by(o));
	sink_init(&r.out, out, SINK_SIZE);
	r.row[0] = xcalloc(p->nev ? p->nev : 1, sizeof(uint64_t));
	r.row[1] = xcalloc(p->nev ? p->nev : 1, sizeof(uint64_t));
	if (o->format == REPORT_TSV && funcs)
		tsv_functions(&r);
	else if (o->format == REPORT_TSV)
		tsv_calls(&r);
	else if (o->format == REPORT_JSON)
		json_report(&r);
	else
		report_text(&r);
	sink_release(&r.out);
	namer_release(&r.names);
	free(r.rows);
	free(r.row[0]);
	free(r.row[1]);
	if (r.shares != o->shares)
		call_shares_free(r.shares);
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

static const char *const sort_names[] = {
#define S(id, name, word) [SORT_##id] = name,
    SORT_LIST(S)
#undef S
};

static const char *const report_names[] = {
#define R(id, name) [REPORT_##id] = name,
    REPORT_LIST(R)
#undef R
};

const char *report_sort_name(enum report_sort s)
{
	return s < SORT_COUNT ? sort_names[s] : "";
}

const char *report_kind_name(enum report_kind k)
{
	return k < REPORT_COUNT ? report_names[k] : "";
}

int report_sort_find(const char *name, size_t len)
{
	for (int i = 0; i < SORT_COUNT; i++)
		if (strlen(sort_names[i]) == len && !memcmp(sort_names[i], name, len))
			return i;
	return -1;
}

char *report_kind_names(char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int i = 0; i < REPORT_COUNT && o < size; i++)
		o += (size_t)snprintf(buf + o, size - o, "%s%s", i ? ", " : "", report_names[i]);
	return buf;
}

int report_kind_find(const char *name)
{
	for (int i = 0; i < REPORT_COUNT; i++)
		if (!strcmp(report_names[i], name))
			return i;
	return -1;
}
