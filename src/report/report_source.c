/*
 * report_source: annotated source in batch, from the same model as the
 * browser's source view (srcview.c): --dump=source, one function at a time,
 * in the manner of callgrind_annotate --auto=yes; and --dump=lines, the self
 * cost of every source line summed over all functions, as tsv, which is
 * what callgrind_annotate's per-line numbers are.
 */
#include "ncgrind/model/fmt.h"
#include "ncgrind/core/escape.h"
#include "ncgrind/core/graph.h"
#include "ncgrind/core/match.h"
#include "ncgrind/report/views.h"
#include "ncgrind/core/events.h"
#include "ncgrind/model/source.h"
#include "ncgrind/model/srcview.h"

#include <inttypes.h>
#include <stdlib.h>

/* Text of the profile or of a source file: what a terminal would act on escaped. */
void report_put_text(FILE *out, struct span s)
{
	char esc[ESCAPE_MAX];

	for (size_t i = 0; i < s.len;) {
		size_t n = escape_next(s.ptr + i, s.len - i, esc);

		if (s.ptr[i] == '\t')
			putc('\t', out); /* a terminal or a pager expands it */
		else if (esc[0])
			fputs(esc, out);
		else
			fwrite(s.ptr + i, 1, n, out);
		i += n;
	}
}

/* One column per shown event: "1,234 (0.12%)", or "." for nothing. */
static void put_costs(FILE *out, const struct profile *p, const struct report_opts *o,
		      const uint64_t *costs, const int *w)
{
	char num[FMT_NUM];

	for (uint32_t i = 0; i < o->nevents; i++) {
		uint32_t ev = o->events[i];

		if (!costs || !costs[ev])
			fprintf(out, "%*s%9s", w[i], ".", "");
		else if (p->events[ev].ratio) /* a decimal, and no share of a total */
			fprintf(out, "%*s%9s", w[i], fmt_value(num, costs[ev], false, FMT_RATIO),
				"");
		else
			fprintf(out, "%*s (%5.2f%%)", w[i], fmt_commas(num, costs[ev]),
				p->totals[ev] ? 100.0 * (double)costs[ev] / (double)p->totals[ev]
					      : 0.0);
		putc(' ', out);
	}
	putc(' ', out);
}

static void put_call(FILE *out, const struct profile *p, const struct report_opts *o, uint32_t fn,
		     const struct src_cost *c, const int *w)
{
	char num[FMT_NUM + 8];
	struct span name = profile_name(p, p->funcs[c->callee].name);

	put_costs(out, p, o, c->costs, w);
	fputs("=> ", out);
	report_put_text(out, name.len ? name : span_make("(unknown)", 9));
	if (graph_call_recursive(p, fn, c->callee))
		fputs(" [" GRAPH_RECURSIVE "]", out);
	fprintf(out, " (%s)\n", fmt_times(num, c->count));
}

static void put_missing(FILE *out, const struct source_text *t)
{
	if (t->no_debug_info) {
		fputs(
		    "-- no source file: the code has no debug information (compiled without -g?)\n",
		    out);
		return;
	}
	fputs(source_refused(t) ? "-- not read; tried:\n" : "-- not found; tried:\n", out);
	/* the paths come from the profile: escaped like every name in it */
	for (size_t i = 0; i < t->ntried; i++) {
		fputs("--   ", out);
		escape_write(out, span_make(t->tried[i].path, strlen(t->tried[i].path)));
		if (t->tried[i].why)
			fprintf(out, " (not read: %s)", t->tried[i].why);
		putc('\n', out);
	}
	fputs("-- add a directory with -I DIR, or a rule with --substitute-path=FROM=TO\n", out);
}

/* The rows of one file: rows[lo, hi), annotated on the source when there is one. */
static void put_file(FILE *out, const struct profile *p, const struct report_opts *o,
		     const struct srcfn *s, size_t lo, size_t hi, const struct source_text *t,
		     const int *w)
{
	/* without the source, context lines would say nothing: only lines with cost */
	uint64_t last = 0, n;
	size_t r = lo;
	struct srcfn_walk walk;

	srcfn_walk_init(&walk, s->rows + lo, hi - lo, t->data ? t->nlines : 0, false,
			t->data ? o->context : 0);
	while (srcfn_walk_next(&walk, &n)) {
		if (n && n != last + 1)
			fprintf(out,
				"-- line %" PRIu64 " ----------------------------------------\n",
				n);
		last = n;
		while (r < hi && s->rows[r].line < n)
			r++;
		put_costs(out, p, o,
			  r < hi && s->rows[r].line == n && s->rows[r].callee == NCG_NONE
			      ? s->rows[r].costs
			      : NULL,
			  w);
		if (t->data && n)
			report_put_text(out, source_line(t, n));
		else
			fprintf(out, n ? "(line %" PRIu64 ")" : "(no line information)", n);
		putc('\n', out);
		for (; r < hi && s->rows[r].line == n; r++)
			if (s->rows[r].callee != NCG_NONE)
				put_call(out, p, o, s->fn, &s->rows[r], w);
	}
}

static void function_source(FILE *out, const struct profile *p, const struct report_opts *o,
			    uint32_t fn, const int *w)
{
	struct srcfn s;
	size_t lo = 0;

	srcfn_load(&s, p, fn, false);
	srcfn_share_calls(&s, o->shares);
	fputs("--------------------------------------------------------------------------------\n",
	      out);
	fputs("-- function ", out);
	report_put_text(out, profile_name(p, p->funcs[fn].name));
	putc('\n', out);
	while (lo < s.nrows) {
		size_t hi = lo;
		struct source_text t;
		struct span file = profile_name(p, s.rows[lo].file);

		while (hi < s.nrows && s.rows[hi].file == s.rows[lo].file)
			hi++;
		fputs("-- file ", out);
		report_put_text(out, file.len ? file : span_make("???", 3));
		putc('\n', out);
		if (source_load(&t, o->sources, file) == 0) {
			if (t.newer)
				fputs("-- warning: the source is newer than the profile\n", out);
		} else {
			put_missing(out, &t);
		}
		put_file(out, p, o, &s, lo, hi, &t, w);
		source_release(&t);
		lo = hi;
	}
	srcfn_release(&s);
}

static void widths(const struct profile *p, const struct report_opts *o, int *w)
{
	char num[FMT_NUM];

	for (uint32_t i = 0; i < o->nevents; i++) {
		char name[81];
		int len = (int)escape_copy(name, sizeof(name), p->events[o->events[i]].name);

		w[i] = p->events[o->events[i]].ratio
			   ? 8 /* "0.0166": a ratio's decimal */
			   : (int)strlen(fmt_commas(num, p->totals[o->events[i]]));
		if (w[i] < len)
			w[i] = len;
	}
}

static int dump_source(FILE *out, const struct profile *p, const struct report_opts *o, char *err,
		       size_t errsize)
{
	regex_t re;
	size_t n;
	uint32_t *fns;
	int *w = xcalloc(o->nevents ? o->nevents : 1, sizeof(int));
	size_t shown = 0;

	if (!o->function) {
		snprintf(err, errsize, "--dump=source needs --function=REGEX");
		free(w);
		return -1;
	}
	if (match_compile(&re, o->function, err, errsize) < 0) {
		free(w);
		return -1;
	}
	widths(p, o, w);
	for (uint32_t i = 0; i < o->nevents; i++) {
		char name[81];

		escape_copy(name, sizeof(name), p->events[o->events[i]].name);
		fprintf(out, "%*s%9s ", w[i], name, "");
	}
	fputs(" source\n", out);
	fns = report_sort_functions(p, SORT_INCL, o->sort_event, o->keep, &n);
	for (size_t i = 0; i < n; i++)
		if (match_name(&re, profile_name(p, p->funcs[fns[i]].name))) {
			function_source(out, p, o, fns[i], w);
			shown++;
		}
	regfree(&re);
	free(fns);
	free(w);
	if (!shown) {
		snprintf(err, errsize, "no function matches '%s'", o->function);
		return -1;
	}
	return 0;
}

/* Lines by the name of their file in profile p, then by number. */
static int cmp_line(const void *a, const void *b, void *p)
{
	const struct src_cost *x = a, *y = b;
	struct span fx = profile_name(p, x->file), fy = profile_name(p, y->file);
	size_t n = fx.len < fy.len ? fx.len : fy.len;
	int c = n ? memcmp(fx.ptr, fy.ptr, n) : 0;

	if (c || fx.len != fy.len)
		return c ? c : fx.len < fy.len ? -1 : 1;
	return x->line != y->line ? (x->line < y->line ? -1 : 1) : 0;
}

/* Sort the lines by file name and number, and print each place once, summed. */
static void sum_lines(FILE *out, const struct profile *p, const struct report_opts *o,
		      struct src_cost *all, size_t n)
{
	uint32_t nev = p->nev;

	sort_with(all, n, sizeof(*all), cmp_line,
		  (void *)p); /* all is NULL when no line has cost */
	for (size_t i = 0; i < n;) {
		uint64_t *sum = all[i].costs;
		size_t j = i + 1;

		for (; j < n && cmp_line(&all[i], &all[j], (void *)p) == 0; j++)
			for (uint32_t e = 0; e < nev; e++)
				u64_add_sat(&sum[e], all[j].costs[e]);
		events_derive_row(p, sum); /* a ratio of the line's sums, not summed */
		report_put_name(out, profile_name(p, all[i].file), true, o->terminal);
		fprintf(out, "\t%" PRIu64, all[i].line);
		for (uint32_t e = 0; e < o->nevents; e++) {
			uint64_t v = sum[o->events[e]];

			char buf[32];

			if (p->events[o->events[e]].ratio)
				fprintf(out, "\t%s",
					report_ratio(buf, sizeof(buf), v) > 0 ? buf : "");
			else
				fprintf(out, "\t%" PRIu64, v);
		}
		putc('\n', out);
		i = j;
	}
}

/* Every line's self cost, summed over the functions: callgrind_annotate's numbers. */
static int dump_lines(FILE *out, const struct profile *p, const struct report_opts *o)
{
	struct src_cost *all = NULL;
	uint64_t *pool = NULL;
	size_t n = 0, alloc = 0, pool_alloc = 0;
	uint32_t nev = p->nev;

	for (uint32_t f = 0; f < p->nfuncs; f++) {
		struct srcfn s;

		if (!profile_function_used(p, f))
			continue;
		srcfn_load(&s, p, f, false);
		for (size_t i = 0; i < s.nrows; i++) {
			if (s.rows[i].callee != NCG_NONE)
				continue;
			ALLOC_GROW(all, n + 1, alloc);
			ALLOC_GROW(pool, st_mult(n + 1, nev), pool_alloc);
			all[n] = s.rows[i];
			memcpy(pool + n * nev, s.rows[i].costs, nev * sizeof(uint64_t));
			n++;
		}
		srcfn_release(&s);
	}
	fputs("file\tline", out);
	for (uint32_t i = 0; i < o->nevents; i++) {
		fputs("\tself:", out);
		report_put_name(out, p->events[o->events[i]].name, true, o->terminal);
	}
	putc('\n', out);
	/* row i's costs are pool row i: pointers only now that the pool stays put */
	for (size_t i = 0; i < n; i++)
		all[i].costs = pool + i * nev;
	sum_lines(out, p, o, all, n);
	free(all);
	free(pool);
	return 0;
}

int report_source(FILE *out, const struct profile *p, const struct report_opts *o, char *err,
		  size_t errsize)
{
	struct report_opts own = *o; /* (with shares of its own where none is given) */
	int r;

	if (!own.shares)
		own.shares = call_shares_new();
	r = o->kind == REPORT_LINES ? dump_lines(out, p, &own)
				    : dump_source(out, p, &own, err, errsize);
	if (own.shares != o->shares)
		call_shares_free(own.shares);
	return r < 0 || fflush(out) != 0 || ferror(out) ? -1 : 0;
}
