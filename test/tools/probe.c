/*
 * probe: a test program linked only with the core (no curses, no libedit).
 * It drives the lazy per-function re-read (parse_block) that later views use.
 *
 *   probe check FILE       re-read every function's blocks and compare their
 *                          sums with the index: self costs, and the cost and
 *                          count of every call edge. Prints "ok: ..." or the
 *                          first differences; exit 1 on a difference.
 *   probe lines FILE NAME  print the cost lines of the functions named NAME,
 *                          one per line: kind, source file, subpositions
 *                          (instr bb line), then the costs.
 *   probe long FILE        as check, after every block is made one whose
 *                          length and line did not fit in 32 bits (the
 *                          whole values in its block_ctx, as a file of more
 *                          than 4 GiB has them): the same sums, the same
 *                          ends and lines. Prints "ok: ..." or differences.
 *   probe unpack FILE MAX  decompress FILE (gzip, xz, zstd) as the reader
 *                          does, under a limit of MAX bytes (ncgrind's is
 *                          half the memory): "ok: N bytes", then the
 *                          warning if any; or "error: ..." and exit 1.
 *   probe unpack FILE MAX stop   the same, its progress saying stop at the
 *                          first report (q on the decompressing screen):
 *                          "stopped: ..." and exit 3.
 *   probe first FILE K     for every sort, the first 3 events, with and
 *                          without the names' ranks and with every third
 *                          function kept: report_sort_functions_first()
 *                          has the functions of report_sort_functions(), the
 *                          first K in its order. "ok: N orders" or the first
 *                          difference, and exit 1.
 */
#include "ncgrind/core/decompress.h"
#include "ncgrind/core/parse.h"
#include "ncgrind/core/profile.h"
#include "ncgrind/core/report.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

struct sums {
	const struct profile *p;
	uint64_t *self;   /* nev */
	uint64_t *edges;  /* nedges x nev, for the function's own calls */
	uint64_t *counts; /* nedges */
	uint32_t fn;
	const char *want; /* lines mode: NULL in check mode */
};

static void add(uint64_t *dst, const uint64_t *src, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		dst[i] += src[i];
}

static uint32_t find_edge(const struct profile *p, uint32_t caller, uint32_t callee)
{
	for (size_t e = 0; e < p->nedges; e++)
		if (p->edges[e].caller == caller && p->edges[e].callee == callee)
			return (uint32_t)e;
	return NCG_NONE;
}

static void on_line_sum(void *ctx, const struct parse_line *l)
{
	struct sums *s = ctx;
	const struct profile *p = s->p;

	if (l->kind == PARSE_SELF) {
		add(s->self, l->costs, p->nraw);
	} else if (l->kind == PARSE_CALL) {
		uint32_t e = find_edge(p, s->fn, l->callee);

		if (e == NCG_NONE) {
			printf("function %u: call at line %" PRIu64 " to %u has no edge\n", s->fn,
			       l->line, l->callee);
			return;
		}
		add(s->edges + (size_t)e * p->nev, l->costs, p->nraw);
		s->counts[e] += l->count;
	}
}

static void print_span(struct span s)
{
	fwrite(s.ptr, 1, s.len, stdout);
}

static void on_line_print(void *ctx, const struct parse_line *l)
{
	struct sums *s = ctx;
	static const char *const kind[] = {"self", "call", "jump"};

	printf("%s\t", kind[l->kind]);
	print_span(profile_name(s->p, l->file));
	printf("\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64, l->pos[POS_INSTR], l->pos[POS_BB],
	       l->pos[POS_LINE]);
	if (l->kind == PARSE_CALL) {
		printf("\t-> ");
		print_span(profile_name(s->p, s->p->funcs[l->callee].name));
		printf(" x%" PRIu64, l->count);
	} else if (l->kind == PARSE_JUMP) {
		printf("\t%s %" PRIu64 "/%" PRIu64 " to %" PRIu64 "/%" PRIu64,
		       l->conditional ? "jcnd" : "jump", l->taken, l->count, l->target[POS_INSTR],
		       l->target[POS_LINE]);
	}
	for (uint32_t i = 0; i < s->p->nraw; i++)
		printf("\t%" PRIu64, l->costs[i]);
	printf("\n");
}

static void read_function(const struct profile *p, uint32_t f, parse_line_fn fn, struct sums *s)
{
	s->fn = f;
	for (uint32_t b = p->funcs[f].first_block; b != NCG_NONE; b = p->blocks[b].next)
		parse_block(p, b, fn, s);
}

static int compare(const struct profile *p, const struct sums *s)
{
	int bad = 0;

	for (size_t f = 0; f < p->nfuncs; f++)
		for (uint32_t i = 0; i < p->nraw; i++)
			if (s->self[f * p->nev + i] != profile_self_at(p, (uint32_t)f, i) &&
			    bad++ < 5)
				printf("function %zu event %u: blocks say %" PRIu64
				       ", index %" PRIu64 "\n",
				       f, i, s->self[f * p->nev + i],
				       profile_self_at(p, (uint32_t)f, i));
	for (size_t e = 0; e < p->nedges; e++) {
		if (s->counts[e] != p->edges[e].count && bad++ < 5)
			printf("edge %zu: blocks count %" PRIu64 ", index %" PRIu64 "\n", e,
			       s->counts[e], p->edges[e].count);
		for (uint32_t i = 0; i < p->nraw; i++)
			if (s->edges[e * p->nev + i] != profile_edge_at(p, (uint32_t)e, i) &&
			    bad++ < 5)
				printf("edge %zu event %u: blocks say %" PRIu64 ", index %" PRIu64
				       "\n",
				       e, i, s->edges[e * p->nev + i],
				       profile_edge_at(p, (uint32_t)e, i));
	}
	return bad;
}

static int check(const struct profile *p)
{
	struct sums s = {p, NULL, NULL, NULL, 0, NULL};
	uint64_t *self = xcalloc(st_mult(p->nfuncs + 1, p->nev + 1), sizeof(uint64_t));
	int bad;

	s.edges = xcalloc(st_mult(p->nedges + 1, p->nev + 1), sizeof(uint64_t));
	s.counts = xcalloc(p->nedges + 1, sizeof(uint64_t));
	for (size_t f = 0; f < p->nfuncs; f++) {
		s.self = self + f * p->nev;
		read_function(p, (uint32_t)f, on_line_sum, &s);
	}
	s.self = self;
	bad = compare(p, &s);
	if (!bad)
		printf("ok: %zu functions, %zu blocks, %zu call edges re-read\n", p->nfuncs,
		       p->nblocks, p->nedges);
	free(self);
	free(s.edges);
	free(s.counts);
	return bad ? 1 : 0;
}

static int lines(const struct profile *p, const char *name)
{
	struct sums s = {p, NULL, NULL, NULL, 0, name};
	int found = 0;

	for (size_t f = 0; f < p->nfuncs; f++)
		if (span_eq_str(profile_name(p, p->funcs[f].name), name)) {
			read_function(p, (uint32_t)f, on_line_print, &s);
			found = 1;
		}
	return found ? 0 : 1;
}

/* 32-bit fields: what fits is kept, the rest escapes to the block_ctx. */
static int check_spans(void)
{
	struct block b = {.start = 10};
	int bad = 0;

	block_set_span(&b, 10 + (uint64_t)0xfffffffeu, 0xfffffffeu);
	bad += b.len != 0xfffffffeu || b.line != 0xfffffffeu;
	block_set_span(&b, 10 + (uint64_t)0xffffffffu, 0xffffffffu);
	bad += b.len != BLOCK_LONG || b.line != BLOCK_LONG;
	block_set_span(&b, 10 + ((uint64_t)5 << 32), (uint64_t)7 << 32);
	bad += b.len != BLOCK_LONG || b.line != BLOCK_LONG;
	if (bad)
		printf("block_set_span: wrong 32-bit fields\n");
	return bad;
}

/* Every block long: its end and line only in a block_ctx of its own. */
static int make_long(struct profile *p)
{
	struct block_ctx *cx = xcalloc(p->nblocks + 1, sizeof(*cx));
	uint64_t *end = xcalloc(p->nblocks + 1, sizeof(uint64_t));
	uint64_t *line = xcalloc(p->nblocks + 1, sizeof(uint64_t));
	int bad = 0;

	for (uint32_t b = 0; b < p->nblocks; b++) {
		profile_block_context(p, b, &cx[b]);
		end[b] = profile_block_end(p, b);
		line[b] = profile_block_line(p, b);
	}
	for (uint32_t b = 0; b < p->nblocks; b++) {
		p->blocks[b].len = p->blocks[b].line = BLOCK_LONG;
		p->blocks[b].part |= BLOCK_HAS_CTX;
	}
	free(p->block_ctx); /* (a parsed profile's: not from a kept index) */
	p->block_ctx = cx;
	p->nblock_ctx = p->block_ctx_alloc = p->nblocks;
	for (uint32_t b = 0; b < p->nblocks; b++)
		if ((profile_block_end(p, b) != end[b] || profile_block_line(p, b) != line[b]) &&
		    bad++ < 5)
			printf("block %u: end %" PRIu64 " line %" PRIu64 ", was %" PRIu64
			       " %" PRIu64 "\n",
			       b, profile_block_end(p, b), profile_block_line(p, b), end[b],
			       line[b]);
	free(end);
	free(line);
	return bad;
}

/* A progress that stops the decoder at its first report. */
static bool stop_at_once(void *ctx, uint64_t done, uint64_t total)
{
	(void)ctx, (void)done, (void)total;
	return true;
}

static int unpack(const char *path, const char *max, bool stop)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL, err[300] = "";
	size_t n = 0, alloc = 0, got;
	struct decompressed out;
	int ret;

	if (!f) {
		perror(path);
		return 2;
	}
	do {
		ALLOC_GROW(buf, n + 4096, alloc);
		got = fread(buf + n, 1, alloc - n, f);
		n += got;
	} while (got);
	fclose(f);
	ret = decompress(decompress_detect(buf, n), buf, n, strtoull(max, NULL, 10),
			 stop ? stop_at_once : NULL, NULL, &out, err, sizeof(err));
	if (ret == DECOMPRESS_STOPPED) {
		printf("stopped: %s\n", err);
		ret = 3;
	} else if (ret < 0) {
		printf("error: %s\n", err);
		ret = 1;
	} else {
		printf("ok: %zu bytes\n", out.size);
		if (*out.warn)
			printf("warning: %s\n", out.warn);
	}
	free(out.data);
	free(buf);
	return ret > 0 ? ret : 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* One order: 0 when the first k agree and both hold the same functions. */
static int first_agrees(const struct profile *p, enum report_sort s, uint32_t ev, const bool *keep,
			size_t k)
{
	size_t n, m;
	uint32_t *all = report_sort_functions(p, s, ev, keep, &n);
	uint32_t *first = report_sort_functions_first(p, s, ev, keep, k, &m);
	int bad = n != m;

	for (size_t i = 0; !bad && i < k && i < n; i++)
		if (all[i] != first[i]) {
			printf("%s, event %u, %s: row %zu is function %u, not %u\n",
			       report_sort_name(s), ev, keep ? "a third kept" : "all", i, first[i],
			       all[i]);
			bad = 1;
		}
	if (!bad) {
		qsort(all, n, sizeof(*all), cmp_u32);
		qsort(first, m, sizeof(*first), cmp_u32);
		bad = memcmp(all, first, n * sizeof(*all)) != 0;
		if (bad)
			printf("%s, event %u: not the same functions\n", report_sort_name(s), ev);
	} else if (n != m) {
		printf("%s, event %u: %zu functions, not %zu\n", report_sort_name(s), ev, m, n);
	}
	free(all);
	free(first);
	return bad;
}

static int first(struct profile *p, const char *karg)
{
	size_t k = (size_t)strtoul(karg, NULL, 10), orders = 0;
	uint32_t *ranks = p->fn_rank;
	bool *third = calloc(p->nfuncs ? p->nfuncs : 1, sizeof(bool));
	int bad = 0;

	for (size_t f = 0; f < p->nfuncs; f += 3)
		third[f] = true;
	for (int ranked = 1; ranked >= 0 && !bad; ranked--) {
		p->fn_rank =
		    ranked ? ranks : NULL; /* (the browser's table, while it reads: none) */
		for (int s = 0; s < SORT_COUNT && !bad; s++)
			for (uint32_t ev = 0; ev < p->nev && ev < 3 && !bad; ev++, orders += 2)
				bad = first_agrees(p, (enum report_sort)s, ev, NULL, k) ||
				      first_agrees(p, (enum report_sort)s, ev, third, k);
	}
	p->fn_rank = ranks;
	free(third);
	if (!bad)
		printf("ok: %zu orders\n", orders);
	return bad;
}

int main(int argc, char **argv)
{
	struct profile p;
	struct diag d;
	int ret;

	if ((argc == 4 || (argc == 5 && !strcmp(argv[4], "stop"))) && !strcmp(argv[1], "unpack"))
		return unpack(argv[2], argv[3], argc == 5);
	if (argc < 3 ||
	    (strcmp(argv[1], "check") && strcmp(argv[1], "lines") && strcmp(argv[1], "long") &&
	     strcmp(argv[1], "first")) ||
	    ((!strcmp(argv[1], "lines") || !strcmp(argv[1], "first")) && argc != 4)) {
		fprintf(stderr,
			"usage: probe check FILE | probe long FILE | probe lines FILE NAME | "
			"probe first FILE K | probe unpack FILE MAX [stop]\n");
		return 2;
	}
	profile_init(&p, argv[2]);
	diag_init(&d, argv[2]);
	profile_add_source(&p, argv[2]);
	if (parse_profile(&p, &d, NULL) < 0) {
		fprintf(stderr, "probe: cannot read %s\n", argv[2]);
		return 2;
	}
	if (!strcmp(argv[1], "long"))
		ret = check_spans() || make_long(&p) ? 1 : check(&p);
	else if (!strcmp(argv[1], "first"))
		ret = first(&p, argv[3]);
	else
		ret = !strcmp(argv[1], "check") ? check(&p) : lines(&p, argv[3]);
	diag_release(&d);
	profile_release(&p);
	return ret;
}
