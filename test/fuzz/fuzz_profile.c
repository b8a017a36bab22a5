/*
 * fuzz_profile: a libFuzzer target (`make fuzz`) that takes its input as a
 * profile and runs everything a profile reaches without a terminal: the
 * reader and the index, the lazy re-read of every function's blocks (which
 * must agree with the index exactly: abort() when not, as `probe check`
 * says it), cycles on and off, callers and callees, call trees (the hot
 * path, everything under a node cap, inverted, top-down, with and without
 * `hide`), the filters, the function table, the source view-model, short
 * names in a grid, and every batch report written to /dev/null.
 *
 * There is no reader of a memory buffer (the reader maps a file): each input
 * is written to /dev/shm/ncgrind-fuzz/PID.callgrind, read from there, and
 * the file removed once it is mapped (its directory is the profile's for the
 * source lookups).
 *
 * The work per input is bounded: at most MAX_FUNCS functions get their views,
 * and trees are cut at MAX_NODES nodes.
 *
 * Every input runs everything. The problems of ../shared/corpus/hostile are
 * fixed; while one was open, NCG_FUZZ_KNOWN=0 stepped around it (and still
 * does, to look past a finding that comes back again and again):
 *   - compressed ids so large that the dense id tables take gigabytes:
 *     inputs whose largest (id) times the number of header lines passes
 *     MAX_ID_SLOTS are skipped whole;
 *   - line numbers up to 2^64: the source dump and the source view walk every
 *     line number up to the largest; they are not run for a function with a
 *     line past MAX_LINE;
 *   - a cost that reaches 2^63 (a saturated sum): the tree report casts node
 *     costs to uint64_t; report_tree is not run;
 *   - index / re-read mismatches of the shapes already known (a compressed id
 *     used before it is defined; cob=/cfi=/cfl= given before fn=, no calls=
 *     between; a calls= while no function is current: before fn=, after ob=,
 *     after a new part; a rejected calls= line, or a rejected line after one):
 *     the comparison is not made fatal for such an input, the rest runs.
 */
#define _POSIX_C_SOURCE 200809L
#include "ncgrind/core/display.h"
#include "ncgrind/core/graph.h"
#include "ncgrind/core/parse.h"
#include "ncgrind/core/profile.h"
#include "ncgrind/core/report.h"
#include "ncgrind/model/calltree.h"
#include "ncgrind/model/detail.h"
#include "ncgrind/model/filter.h"
#include "ncgrind/model/fmt.h"
#include "ncgrind/model/grid.h"
#include "ncgrind/model/session.h"
#include "ncgrind/model/source.h"
#include "ncgrind/model/srcview.h"
#include "ncgrind/model/table.h"
#include "ncgrind/report/views.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FUNCS 20            /* functions whose views are built, per input */
#define MAX_TREES 6             /* of those, the ones with call trees */
#define MAX_NODES 3000          /* cap of calltree_expand_all() */
#define MAX_LINE 10000          /* source views only below this line number */
#define MAX_ID_SLOTS (1u << 22) /* largest id x header lines */
#define PAGE 20

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[96];
static FILE *devnull;
static bool run_known = true; /* NCG_FUZZ_KNOWN=0: the known shapes are stepped around */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *known = getenv("NCG_FUZZ_KNOWN");
	const char *dir = "/dev/shm/ncgrind-fuzz";

	(void)argc;
	(void)argv;
	setlocale(LC_ALL, "C.UTF-8");
	/* one directory for every run, a file per process, removed once it is mapped */
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		dir = "/tmp";
	snprintf(path, sizeof(path), "%s/%ld.callgrind", dir, (long)getpid());
	devnull = fopen("/dev/null", "w");
	if (!devnull) {
		perror("fuzz_profile: /dev/null");
		exit(2);
	}
	run_known = !(known && !strcmp(known, "0"));
	return 0;
}

static void write_input(const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	size_t done = 0;

	if (fd < 0) {
		perror("fuzz_profile: open");
		abort();
	}
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);

		if (n <= 0) {
			perror("fuzz_profile: write");
			abort();
		}
		done += (size_t)n;
	}
	close(fd);
}

/* ---- what the raw bytes say ------------------------------------------- */

static bool starts(const uint8_t *p, const uint8_t *end, const char *word)
{
	size_t n = strlen(word);

	return (size_t)(end - p) >= n && !memcmp(p, word, n);
}

/* The largest "(id)" times the lines with a ':' (each may open a part). */
static bool huge_ids(const uint8_t *data, size_t size)
{
	uint64_t max = 0, colons = 1;

	for (size_t i = 0; i < size; i++) {
		if (data[i] == ':')
			colons++;
		if (data[i] == '(' && i + 1 < size && data[i + 1] >= '0' && data[i + 1] <= '9') {
			uint64_t v = 0;

			for (i++; i < size && data[i] >= '0' && data[i] <= '9'; i++)
				v = v > UINT32_MAX ? v : v * 10 + (uint64_t)(data[i] - '0');
			max = v > max ? v : max;
			i--;
		}
	}
	return u64_mul_sat(max, colons) > MAX_ID_SLOTS;
}

/*
 * The known shapes of index / re-read mismatch: cob=, cfi= or cfl= before a
 * fn= (no calls= in between), a calls= before the first fn=, and any "(id)"
 * reference (no name) before the line that defines the id.
 */
static bool known_mismatch_shape(const uint8_t *data, size_t size)
{
	const uint8_t *end = data + size;
	bool pending = false, fn = false;
	uint8_t *seen = calloc(4096, 1); /* id & 4095 referenced without a name */

	for (const uint8_t *p = data; p < end;) {
		const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
		const uint8_t *e = nl ? nl : end;

		if (starts(p, e, "cob=") || starts(p, e, "cfi=") || starts(p, e, "cfl=")) {
			pending = true;
		} else if (starts(p, e, "calls=") && !fn) {
			free(seen);
			return true; /* the unnamed function's block starts after it */
		} else if (starts(p, e, "calls=")) {
			pending = false;
		} else if (starts(p, e, "ob=")) {
			fn = false; /* ob= ends the current function */
		} else if (starts(p, e, "fn=")) {
			if (pending) {
				free(seen);
				return true;
			}
			fn = true;
		}
		/* "key=(id)": a reference; "key=(id) name": a definition */
		for (const uint8_t *q = memchr(p, '=', (size_t)(e - p));
		     q && q + 1 < e && q[1] == '('; q = NULL) {
			uint64_t id = 0;
			const uint8_t *r = q + 2;

			while (r < e && *r >= '0' && *r <= '9')
				id = (id * 10 + (uint64_t)(*r++ - '0')) & 0xffffffff;
			if (r == q + 2 || r >= e || *r != ')')
				break;
			for (r++; r < e && (*r == ' ' || *r == '\t'); r++)
				;
			if (r == e || *r == '\r') {
				seen[id & 4095] = 1;
			} else if (seen[id & 4095]) {
				free(seen);
				return true;
			}
		}
		p = e + 1;
	}
	free(seen);
	return false;
}

/*
 * Whether a message of the reader is about a calls= line or the line after
 * one: a rejected call, a call's rejected cost line, or a call's cost line
 * that found no current function (before fn=, after ob= or a new part).
 */
static bool rejected_call(const struct diag *d, const uint8_t *data, size_t size)
{
	if (d->nr < d->errors + d->warnings + d->fatals)
		return true; /* messages were dropped: cannot tell */
	for (size_t m = 0; m < d->nr; m++) {
		uint64_t line = 1;
		const uint8_t *p = data, *prev = NULL, *end = data + size;

		if (!d->msgs[m].line)
			continue;
		while (p < end && line < d->msgs[m].line) {
			const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));

			if (!nl)
				break;
			prev = p;
			p = nl + 1;
			line++;
		}
		if (starts(p, end, "calls=") || (prev && starts(prev, end, "calls=")) ||
		    strstr(d->msgs[m].text, "calls="))
			return true;
	}
	return false;
}

/* ---- the re-read against the index (probe check) ------------------------ */

struct sums {
	const struct profile *p;
	uint32_t fn;
	uint64_t *self;     /* nfuncs x nev */
	uint64_t *edges;    /* nedges x nev */
	uint64_t *counts;   /* nedges */
	uint64_t *max_line; /* per function: the largest line number of its cost lines */
	bool stray;         /* a call with no edge */
	bool verbose;       /* say what differs */
};

static void add_sat(uint64_t *dst, const uint64_t *src, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		u64_add_sat(&dst[i], src[i]);
}

static void on_line(void *ctx, const struct parse_line *l)
{
	struct sums *s = ctx;
	const struct profile *p = s->p;

	if (l->pos[POS_LINE] > s->max_line[s->fn])
		s->max_line[s->fn] = l->pos[POS_LINE];
	if (l->kind == PARSE_SELF) {
		add_sat(s->self + (size_t)s->fn * p->nev, l->costs, p->nraw);
	} else if (l->kind == PARSE_CALL) {
		uint32_t e = NCG_NONE;

		if (l->callee >= p->nfuncs) { /* NCG_NONE: no function */
			if (s->verbose)
				fprintf(stderr, "fuzz_profile: call to function %u of %zu\n",
					l->callee, p->nfuncs);
			s->stray = true;
			return;
		}
		for (size_t i = 0; i < p->nedges && e == NCG_NONE; i++)
			if (p->edges[i].caller == s->fn && p->edges[i].callee == l->callee)
				e = (uint32_t)i;
		if (e == NCG_NONE) {
			if (s->verbose)
				fprintf(stderr,
					"fuzz_profile: function %u: call at line %" PRIu64
					" to %u has no edge\n",
					s->fn, l->line, l->callee);
			s->stray = true;
			return;
		}
		add_sat(s->edges + (size_t)e * p->nev, l->costs, p->nraw);
		u64_add_sat(&s->counts[e], l->count);
	}
}

/* Returns whether the re-read agrees with the index; fills max_line. */
static bool check(const struct profile *p, uint64_t *max_line, bool verbose)
{
	struct sums s = {p, 0, NULL, NULL, NULL, max_line, false, verbose};
	int bad = 0;

	s.self = xcalloc(st_mult(p->nfuncs + 1, p->nev + 1), sizeof(uint64_t));
	s.edges = xcalloc(st_mult(p->nedges + 1, p->nev + 1), sizeof(uint64_t));
	s.counts = xcalloc(p->nedges + 1, sizeof(uint64_t));
	for (size_t f = 0; f < p->nfuncs; f++) {
		s.fn = (uint32_t)f;
		for (uint32_t b = p->funcs[f].first_block; b != NCG_NONE; b = p->blocks[b].next)
			parse_block(p, b, on_line, &s);
	}
	for (size_t f = 0; f < p->nfuncs; f++)
		for (uint32_t i = 0; i < p->nraw; i++)
			if (s.self[f * p->nev + i] != profile_self_at(p, (uint32_t)f, i) &&
			    bad++ < 5 && verbose)
				fprintf(stderr,
					"fuzz_profile: function %zu event %u: blocks say %" PRIu64
					", index %" PRIu64 "\n",
					f, i, s.self[f * p->nev + i],
					profile_self_at(p, (uint32_t)f, i));
	for (size_t e = 0; e < p->nedges; e++) {
		if (s.counts[e] != p->edges[e].count && bad++ < 5 && verbose)
			fprintf(stderr,
				"fuzz_profile: edge %zu: blocks count %" PRIu64 ", index %" PRIu64
				"\n",
				e, s.counts[e], p->edges[e].count);
		for (uint32_t i = 0; i < p->nraw; i++)
			if (s.edges[e * p->nev + i] != profile_edge_at(p, (uint32_t)e, i) &&
			    bad++ < 5 && verbose)
				fprintf(stderr,
					"fuzz_profile: edge %zu event %u: blocks say %" PRIu64
					", index %" PRIu64 "\n",
					e, i, s.edges[e * p->nev + i],
					profile_edge_at(p, (uint32_t)e, i));
	}
	free(s.self);
	free(s.edges);
	free(s.counts);
	return !bad && !s.stray;
}

/* ---- the views ---------------------------------------------------------- */

/* Rounding of sums of doubles: a relative slack far below what is printed. */
#define SLACK(x) ((x)*1e-9 + 1e-6)

/*
 * The trees' invariant (calltree.h, test/tools/treecheck): children, fold
 * row included, add up to no more than their node, none costs more than its
 * parent or less than 0, rows that cannot be expanded have no children, the
 * entry points add up to no more than the total.
 */
static void tree_invariant(const struct calltree *t)
{
	double roots = 0.0, total = t->p->nev ? (double)t->p->totals[t->event] : 0.0;
	const char *what = NULL;
	size_t bad = 0;

	for (size_t i = 0; i < t->nroots; i++)
		roots += t->nodes[t->roots[i]].cost;
	if (t->top_down && roots > total + SLACK(total))
		what = "the entry points add up to more than the total";
	for (size_t n = 0; n < t->nnodes && !what; n++) {
		const struct tree_node *x = &t->nodes[n];
		double sum = 0.0;

		bad = n;
		if (!(x->cost >= 0)) /* NaN too */
			what = "a negative cost";
		else if (x->kind == NODE_FUNCTION && x->recursive && t->cycles && !t->filters)
			what = "a recursive node with cycle detection on";
		if (what || x->first_child == NCG_NONE)
			continue;
		if (x->recursive || x->member || x->kind == NODE_MORE || x->kind == NODE_CUT)
			what = "a row that cannot be expanded has children";
		for (uint32_t c = x->first_child; c != NCG_NONE && !what; c = t->nodes[c].next) {
			if (t->nodes[c].kind == NODE_CUT)
				continue;
			if (t->nodes[c].cost > x->cost + SLACK(x->cost))
				what = "a child costs more than its parent";
			sum += t->nodes[c].cost;
		}
		if (!what && sum > x->cost + SLACK(x->cost))
			what = "children add up to more than their node";
	}
	if (what) {
		fprintf(stderr,
			"fuzz_profile: tree of %u (%s, cycles %s, threshold %g%%, hide %s): %s "
			"at node %zu\n",
			t->nroots ? t->nodes[t->roots[0]].fn : NCG_NONE,
			t->top_down   ? "T"
			: t->inverted ? "r"
				      : "t",
			t->cycles ? "on" : "off", t->threshold, t->filters ? "on" : "off", what,
			bad);
		abort();
	}
}

static void trees_of(const struct profile *p, const struct callgraph *g, const struct filters *flt,
		     uint32_t fn, uint32_t ev)
{
	for (int inv = 0; inv < 2; inv++) {
		struct calltree t;

		calltree_init(&t, p, g, fn, inv, ev, 1.0);
		t.filters = flt;
		for (size_t i = 0; i < t.nroots && i < 4; i++)
			calltree_expand_hot(&t, t.roots[i]);
		calltree_flatten(&t);
		(void)calltree_root_cost(&t);
		if (t.nvisible > 1)
			calltree_collapse(&t, t.visible[1]);
		calltree_collapse_all(&t);
		calltree_flatten(&t);
		for (size_t i = 0; i < t.nroots && t.nnodes < MAX_NODES; i++)
			if (!calltree_expand_all(&t, t.roots[i], UINT32_MAX, MAX_NODES - t.nnodes))
				break;
		calltree_flatten(&t);
		tree_invariant(&t);
		/* everything, threshold 0: the cap is what stops it */
		t.threshold = 0;
		calltree_collapse_all(&t);
		for (size_t i = 0; i < t.nroots && t.nnodes < 2 * MAX_NODES; i++)
			if (!calltree_expand_all(&t, t.roots[i], 8, 2 * MAX_NODES - t.nnodes))
				break;
		calltree_flatten(&t);
		for (size_t i = 0; i < t.nvisible && i < 50; i++)
			if (!t.nodes[t.visible[i]].expanded &&
			    t.nodes[t.visible[i]].kind != NODE_CUT)
				calltree_expand(&t, t.visible[i]);
		calltree_flatten(&t);
		tree_invariant(&t);
		calltree_release(&t);
	}
}

static void detail_of(const struct profile *p, const struct callgraph *g, uint32_t fn, uint32_t ev)
{
	struct detail d;

	detail_init(&d, p, g, fn, ev);
	for (int k = 0; k < SORT_COUNT; k++) {
		detail_sort(&d, (enum report_sort)k, PAGE);
		detail_sort(&d, (enum report_sort)k, PAGE);
	}
	detail_order(&d, SORT_INCL, false, PAGE);
	for (int i = 0; i < 5; i++) {
		uint32_t target = detail_target(&d);

		if (target != NCG_NONE && target >= p->nfuncs)
			abort();
		detail_move(&d, 1, PAGE);
	}
	detail_move(&d, -100, PAGE);
	nav_page(&d.nav, 1, PAGE);
	detail_settle(&d, 1, PAGE);
	nav_page(&d.nav, -1, 2);
	detail_settle(&d, -1, 2);
	detail_move(&d, 1000, 3);
	(void)detail_target(&d);
	detail_release(&d);
}

static bool object_is_file(const struct profile *p, uint32_t fn)
{
	struct span o = profile_name(p, p->funcs[fn].object);
	char *name = xmemdup0(o.ptr, o.len);
	struct stat st;
	bool file = *name && stat(name, &st) == 0;

	free(name);
	return file;
}

static void source_of(const struct profile *p, const struct callgraph *g,
		      const struct source_paths *sp, uint32_t fn, uint32_t ev)
{
	for (int instr = 0; instr < 2; instr++) {
		struct srcview v;

		/* the instruction view runs objdump on an object that is there */
		if (instr && object_is_file(p, fn))
			continue;
		srcview_open(&v, p, g->shares, fn, sp, instr, ev, PAGE, NULL);
		srcview_toggle_costly(&v, PAGE);
		while (srcview_next_costly(&v, 1, PAGE))
			(void)srcview_callee(&v);
		srcview_next_costly(&v, -1, PAGE);
		srcview_toggle_costly(&v, PAGE);
		for (size_t i = 1; i < v.fn.nfiles && i < 4; i++)
			srcview_set_file(&v, sp, i, PAGE);
		(void)srcview_callee(&v);
		srcview_close(&v);
	}
}

static void names_of(const struct profile *p, uint32_t fn, struct grid *gr)
{
	const struct function *f = &p->funcs[fn];
	uint32_t ids[3] = {f->name, f->file, f->object};
	char buf[256], num[FMT_NUM + 8];

	for (uint32_t e = 0; e < p->nev; e++) {
		grid_puts(gr, 6, 0, fmt_cost(num, profile_self_at(p, fn, e), false), ATTR_HOT);
		grid_puts(gr, 6, 20, fmt_cost(num, profile_incl_at(p, fn, e), true), ATTR_HOT);
		grid_puts(gr, 6, 40, fmt_percent(num, profile_incl_at(p, fn, e), p->totals[e]),
			  ATTR_HOT);
	}
	grid_puts(gr, 7, 0, fmt_times(num, f->calls), ATTR_DIM);

	for (int i = 0; i < 3; i++) {
		struct span s = profile_name(p, ids[i]);

		for (int w = 1; w < 80; w += 39) {
			fmt_short_name(buf, sizeof(buf), s, w);
			grid_put(gr, i, 0, s.ptr, s.len, w, ATTR_NORMAL);
			grid_puts(gr, i + 3, 2, buf, ATTR_DIM);
		}
	}
}

static void table_of(const struct profile *p, const bool *keep)
{
	struct display disp = display_default();
	struct table t;

	table_init(&t, p, &disp);
	t.keep = keep;
	table_refresh(&t);
	for (int k = 0; k < SORT_COUNT; k++) {
		table_sort(&t, (enum report_sort)k);
		table_sort(&t, (enum report_sort)k);
	}
	/* Tab: the table sorted by the next events, derived ones included */
	for (uint32_t e = 0; e < p->nev && e < 4; e++) {
		disp.event = p->nev - 1 - e;
		table_sort(&t, SORT_SELF);
	}
	t.limit = 3;
	table_refresh(&t);
	table_release(&t);
}

static void reports(const struct profile *p, const struct source_paths *sp,
		    const struct filters *flt, const bool *keep, bool trees, bool sources,
		    const uint64_t *max_line, uint32_t ev)
{
	uint32_t *evs = xcalloc(p->nev ? p->nev : 1, sizeof(uint32_t));
	struct report_opts o = {0};
	char err[300], list[200];
	bool source = sources;
	int n;

	/* --events=LIST: the last event and the first, by name (as main.c) */
	snprintf(list, sizeof(list), "%.*s,%.*s", p->nev ? (int)p->events[p->nev - 1].name.len : 0,
		 p->nev ? p->events[p->nev - 1].name.ptr : "",
		 p->nev ? (int)p->events[0].name.len : 0, p->nev ? p->events[0].name.ptr : "");
	n = report_parse_events(p, list, evs, err, sizeof(err));
	if (n <= 0 || sources) { /* all of them, in order, on the first pass */
		for (uint32_t i = 0; i < p->nev; i++)
			evs[i] = i;
		n = (int)p->nev;
	}
	o.events = evs;
	o.nevents = (uint32_t)n;
	o.sort_event = ev;
	o.depth = UINT32_MAX;
	o.threshold = 1.0;
	o.context = 8;
	o.sources = sp;
	o.keep = keep;
	o.filters = flt;
	for (size_t f = 0; f < p->nfuncs; f++)
		if (max_line[f] > MAX_LINE && !run_known)
			source = false;
	for (int fmt = REPORT_TEXT; fmt <= REPORT_JSON; fmt++)
		for (int s = 0; s < SORT_COUNT; s += fmt == REPORT_TEXT ? 1 : 3) {
			o.format = (enum report_format)fmt;
			o.sort = (enum report_sort)s;
			o.kind = REPORT_FUNCTIONS;
			report_write(devnull, p, &o);
			o.kind = REPORT_CALLS;
			report_write(devnull, p, &o);
		}
	for (int fmt = REPORT_TEXT; trees && fmt <= REPORT_TSV; fmt++) {
		o.format = (enum report_format)fmt;
		o.kind = REPORT_TREE;
		o.function = NULL;
		o.inverted = false;
		report_tree(devnull, p, &o, err, sizeof(err));
		o.function = "^$|^[a-h]";
		o.inverted = fmt == REPORT_TSV;
		o.depth = 6;
		report_tree(devnull, p, &o, err, sizeof(err));
		o.depth = UINT32_MAX;
		o.inverted = false;
		o.kind = REPORT_CALLERS;
		report_tree(devnull, p, &o, err, sizeof(err));
		o.kind = REPORT_CALLEES;
		report_tree(devnull, p, &o, err, sizeof(err));
	}
	o.format = REPORT_TEXT;
	o.function = "^$|^[m-z]";
	if (source) {
		o.kind = REPORT_SOURCE;
		report_source(devnull, p, &o, err, sizeof(err));
	}
	o.kind = REPORT_LINES;
	if (sources)
		report_source(devnull, p, &o, err, sizeof(err));
	fflush(devnull);
	clearerr(devnull);
	free(evs);
}

/* The functions the views are built for: the costliest first, MAX_FUNCS of them. */
static uint32_t *pick(const struct profile *p, size_t *n)
{
	uint32_t *fns = report_sort_functions(p, SORT_INCL, 0, NULL, n);

	if (*n > MAX_FUNCS)
		*n = MAX_FUNCS;
	return fns;
}

static void views(struct session *s, const uint64_t *max_line, uint64_t h)
{
	struct profile *p = &s->prof;
	struct source_paths sp = {0};
	struct filters hide;
	struct grid gr;
	bool big = false, narrowed;
	char err[300];
	static const char *const pats[] = {"^h", "a", "^[a-m]", ".", "(", "^main$"};

	for (uint32_t e = 0; e < p->nev; e++)
		if (p->totals[e] >= (UINT64_C(1) << 63))
			big = true;
	source_paths_set_profile(&sp, path);
	/* -I and --substitute-path, pointing nowhere: the lookups, not what they find */
	source_paths_add_dir(&sp, "/nonexistent/ncgrind-fuzz");
	source_paths_add_rule(&sp, "/home=/nonexistent/ncgrind-fuzz");
	source_paths_add_rule(&sp, "=nothing");
	(void)profile_memory(p);
	filters_init(&hide);
	filters_add(&hide, FILTER_HIDE, pats[h % 6], err, sizeof(err));
	grid_init(&gr, 8, 80);
	for (int cycles = 1; cycles >= 0; cycles--) {
		size_t n;
		uint32_t *fns;
		uint32_t ev = p->nev ? (uint32_t)((h >> 8) % p->nev) : 0;

		profile_set_cycles(p, cycles);
		fns = pick(p, &n);
		/* top-down, from the entry points */
		trees_of(p, &s->graph, NULL, NCG_NONE, ev);
		trees_of(p, &s->graph, &hide, NCG_NONE, ev);
		for (size_t i = 0; i < n; i++) {
			if (fns[i] >= p->nfuncs)
				abort();
			if (i < MAX_TREES) {
				trees_of(p, &s->graph, NULL, fns[i], ev);
				trees_of(p, &s->graph, &hide, fns[i], ev);
			}
			detail_of(p, &s->graph, fns[i], ev);
			if (max_line[fns[i]] <= MAX_LINE || run_known)
				source_of(p, &s->graph, &sp, fns[i], ev);
			if (cycles)
				names_of(p, fns[i], &gr);
		}
		free(fns);
		table_of(p, NULL);
		/* the filters of the prompt, then the reports through them */
		filters_release(&s->filters);
		filters_init(&s->filters);
		filters_add(&s->filters, (enum filter_kind)((h >> 16) % 6), pats[(h >> 20) % 6],
			    err, sizeof(err));
		if ((h >> 24) & 1)
			filters_add(&s->filters, FILTER_IGNORE, pats[(h >> 28) % 6], err,
				    sizeof(err));
		narrowed = filters_apply(&s->filters, p, &s->graph, s->keep);
		table_of(p, narrowed ? s->keep : NULL);
		reports(p, &sp, &s->filters, narrowed ? s->keep : NULL, !big || run_known, cycles,
			max_line, ev);
		filters_describe(&s->filters, err, sizeof(err));
		filters_undo(&s->filters);
		filters_clear_names(&s->filters);
	}
	grid_save_rows(&gr, 0, 8, devnull);
	grid_release(&gr);
	filters_release(&hide);
	source_paths_release(&sp);
}

/*
 * The options main() gives: one pass, the user's formulas (over events most
 * fixtures have; one that names an event the profile lacks is ignored with
 * a warning). One input in four is cut in small chunks indexed by two
 * threads and merged, which must come out as one pass does (the re-read
 * check holds it to the same index).
 */
static const struct parse_opts *load_opts(struct parse_opts *o, uint64_t h)
{
	static const char *const formulas[] = {"Sum=Ir + Dr + 2 * Dw", "Miss=D1mr/Dr",
					       "Cyc=Ir+10 L1m+100 LLm", "Ir=Ir"};

	memset(o, 0, sizeof(*o));
	o->jobs = 1;
	o->events = formulas;
	o->nevents = sizeof(formulas) / sizeof(formulas[0]);
	if ((h >> 40) % 4 == 0) {
		o->jobs = 2;
		o->chunk = 64 + (h >> 44) % 1024;
	}
	return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct session s;
	struct parse_opts o;
	uint64_t h = 1469598103934665603ULL, *max_line;
	int ret;

	if (!run_known && huge_ids(data, size))
		return -1; /* not added to the corpus */
	for (size_t i = 0; i < size; i++)
		h = (h ^ data[i]) * 1099511628211ULL;
	write_input(data, size);
	ret = session_load(&s, (char *[]){path}, 1, load_opts(&o, h));
	unlink(path); /* the mapping stays */
	if (ret == 0) {
		max_line = xcalloc(s.prof.nfuncs + 1, sizeof(uint64_t));
		if (!check(&s.prof, max_line, false) &&
		    (run_known ||
		     !(known_mismatch_shape(data, size) || rejected_call(&s.diag, data, size)))) {
			check(&s.prof, max_line, true);
			fprintf(stderr, "fuzz_profile: the re-read blocks differ from the index\n");
			abort();
		}
		diag_write(&s.diag, devnull);
		views(&s, max_line, h);
		free(max_line);
	}
	session_release(&s);
	return 0;
}
