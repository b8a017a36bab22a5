/*
 * report_source: annotated source in batch, from the same model as the
 * browser's source view (srcview.c): --dump=source, one function at a time,
 * in the manner of callgrind_annotate --auto=yes; and --dump=lines, the self
 * cost of every source line summed over all functions, as tsv, which is
 * what callgrind_annotate's per-line numbers are. Both also as json, with
 * the head of the functions report's json; both over the functions the
 * filters keep (o->keep).
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

/* ---- json ------------------------------------------------------------- */

static void json_span(FILE *out, struct span s)
{
	report_put_json_string(out, s);
}

static void json_cstr(FILE *out, const char *s)
{
	if (s)
		json_span(out, span_make(s, strlen(s)));
	else
		fputs("null", out);
}

/* "filters": what narrowed the report, as the text head says it; null for nothing. */
static void json_filters(FILE *out, const struct report_opts *o)
{
	fputs(",\"filters\":", out);
	json_cstr(out, o->filtered_by && *o->filtered_by ? o->filtered_by : NULL);
}

/* Where the file was looked for, and why it is not there: the text's "-- not found". */
static void json_file_head(FILE *out, struct span name, const struct source_text *t)
{
	fputs("{\"path\":", out);
	json_span(out, name);
	fprintf(out, ",\"found\":%s,\"read_from\":", t->data ? "true" : "false");
	json_cstr(out, t->data ? t->path : NULL);
	fprintf(out, ",\"newer\":%s,\"no_debug_info\":%s,\"tried\":[",
		t->data && t->newer ? "true" : "false", t->no_debug_info ? "true" : "false");
	for (size_t i = 0; !t->data && i < t->ntried; i++) {
		fputs(i ? ",{\"path\":" : "{\"path\":", out);
		json_cstr(out, t->tried[i].path);
		fputs(",\"why\":", out);
		json_cstr(out, t->tried[i].why);
		putc('}', out);
	}
	putc(']', out);
}

static void json_call(FILE *out, const struct profile *p, const struct report_opts *o,
		      const struct src_cost *c, bool first)
{
	fputs(first ? "{\"callee\":" : ",{\"callee\":", out);
	json_span(out, profile_name(p, p->funcs[c->callee].name));
	fprintf(out, ",\"count\":%" PRIu64 ",\"incl\":", c->count);
	report_put_json_costs(out, p, o, c->costs);
	putc('}', out);
}

/* The lines of one file as the text shows them (context included), each with its calls. */
static void json_lines(FILE *out, const struct profile *p, const struct report_opts *o,
		       const struct srcfn *s, size_t lo, size_t hi, const struct source_text *t)
{
	struct srcfn_walk walk;
	size_t r = lo;
	uint64_t n;
	bool first = true;

	srcfn_walk_init(&walk, s->rows + lo, hi - lo, t->data ? t->nlines : 0, false,
			t->data ? o->context : 0);
	fputs(",\"lines\":[", out);
	while (srcfn_walk_next(&walk, &n)) {
		fprintf(out, "%s\n{\"line\":%" PRIu64 ",\"text\":", first ? "" : ",", n);
		first = false;
		if (t->data && n)
			json_span(out, source_line(t, n));
		else
			fputs("null", out);
		while (r < hi && s->rows[r].line < n)
			r++;
		fputs(",\"self\":", out);
		report_put_json_costs(out, p, o,
				      r < hi && s->rows[r].line == n &&
					      s->rows[r].callee == NCG_NONE
					  ? s->rows[r].costs
					  : NULL);
		fputs(",\"calls\":[", out);
		for (bool none = true; r < hi && s->rows[r].line == n; r++)
			if (s->rows[r].callee != NCG_NONE) {
				json_call(out, p, o, &s->rows[r], none);
				none = false;
			}
		fputs("]}", out);
	}
	putc(']', out);
}

static void json_function(FILE *out, const struct profile *p, const struct report_opts *o,
			  uint32_t fn)
{
	const struct function *f = &p->funcs[fn];
	struct srcfn s;

	srcfn_load(&s, p, fn, false);
	fputs("{\"function\":", out);
	json_span(out, profile_name(p, f->name));
	fputs(",\"file\":", out);
	json_span(out, profile_name(p, f->file));
	fputs(",\"object\":", out);
	json_span(out, profile_name(p, f->object));
	fputs(",\"files\":[", out);
	for (size_t lo = 0, hi; lo < s.nrows; lo = hi) {
		struct source_text t;
		struct span file = profile_name(p, s.rows[lo].file);

		for (hi = lo; hi < s.nrows && s.rows[hi].file == s.rows[lo].file; hi++)
			;
		source_load(&t, o->sources, file);
		fputs(lo ? ",\n" : "\n", out);
		json_file_head(out, file, &t);
		json_lines(out, p, o, &s, lo, hi, &t);
		putc('}', out);
		source_release(&t);
	}
	fputs("]}", out);
	srcfn_release(&s);
}

/* ---- --dump=source ------------------------------------------------------ */

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

/* The text: the filters that made it, the events' heads, then each function. */
static void text_source(FILE *out, const struct profile *p, const struct report_opts *o,
			const uint32_t *fns, size_t n)
{
	int *w = xcalloc(o->nevents ? o->nevents : 1, sizeof(int));

	if (o->filtered_by && *o->filtered_by) {
		fputs("Filters:     ", out);
		report_put_text(out, span_make(o->filtered_by, strlen(o->filtered_by)));
		putc('\n', out);
	}
	widths(p, o, w);
	for (uint32_t i = 0; i < o->nevents; i++) {
		char name[81];

		escape_copy(name, sizeof(name), p->events[o->events[i]].name);
		fprintf(out, "%*s%9s ", w[i], name, "");
	}
	fputs(" source\n", out);
	for (size_t i = 0; i < n; i++)
		function_source(out, p, o, fns[i], w);
	free(w);
}

static void json_source(FILE *out, const struct profile *p, const struct report_opts *o,
			const uint32_t *fns, size_t n)
{
	report_put_json_head(out, p, o);
	json_filters(out, o);
	fputs(",\"functions\":[", out);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",\n" : "\n", out);
		json_function(out, p, o, fns[i]);
	}
	fputs("\n]}\n", out);
}

/* The functions o->function matches (of those kept), by inclusive cost; *n of them. */
static uint32_t *matching(const struct profile *p, const struct report_opts *o, size_t *n,
			  char *err, size_t errsize)
{
	regex_t re;
	size_t all, m = 0;
	uint32_t *fns;

	if (!o->function) {
		snprintf(err, errsize, "--dump=source needs --function=REGEX");
		return NULL;
	}
	if (match_compile(&re, o->function, err, errsize) < 0)
		return NULL;
	fns = report_sort_functions(p, SORT_INCL, o->sort_event, o->keep, &all);
	for (size_t i = 0; i < all; i++)
		if (match_name(&re, profile_name(p, p->funcs[fns[i]].name)))
			fns[m++] = fns[i];
	regfree(&re);
	if (!m) {
		snprintf(err, errsize, "no function %smatches '%s'",
			 o->keep ? "the filters keep " : "", o->function);
		free(fns);
		return NULL;
	}
	*n = m;
	return fns;
}

static int dump_source(FILE *out, const struct profile *p, const struct report_opts *o, char *err,
		       size_t errsize)
{
	size_t n;
	uint32_t *fns = matching(p, o, &n, err, errsize);

	if (!fns)
		return -1;
	if (o->format == REPORT_JSON)
		json_source(out, p, o, fns, n);
	else
		text_source(out, p, o, fns, n);
	free(fns);
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

static void tsv_line(FILE *out, const struct profile *p, const struct report_opts *o,
		     const struct src_cost *c)
{
	report_put_name(out, profile_name(p, c->file), true, o->terminal);
	fprintf(out, "\t%" PRIu64, c->line);
	for (uint32_t e = 0; e < o->nevents; e++) {
		uint64_t v = c->costs[o->events[e]];
		char buf[32];

		if (p->events[o->events[e]].ratio)
			fprintf(out, "\t%s", report_ratio(buf, sizeof(buf), v) > 0 ? buf : "");
		else
			fprintf(out, "\t%" PRIu64, v);
	}
	putc('\n', out);
}

/* json: {"file":...,"lines":[{"line":N,"self":{...}},...]} a file, its lines in order. */
static void json_line(FILE *out, const struct profile *p, const struct report_opts *o,
		      const struct src_cost *c, const struct src_cost *prev)
{
	if (!prev || prev->file != c->file) {
		fputs(prev ? "]},\n{\"file\":" : "\n{\"file\":", out);
		json_span(out, profile_name(p, c->file));
		fputs(",\"lines\":[", out);
	} else {
		putc(',', out);
	}
	fprintf(out, "\n{\"line\":%" PRIu64 ",\"self\":", c->line);
	report_put_json_costs(out, p, o, c->costs);
	putc('}', out);
}

/* Sort the lines by file name and number, and write each place once, summed. */
static void sum_lines(FILE *out, const struct profile *p, const struct report_opts *o,
		      struct src_cost *all, size_t n)
{
	uint32_t nev = p->nev;
	const struct src_cost *prev = NULL;

	sort_with(all, n, sizeof(*all), cmp_line,
		  (void *)p); /* all is NULL when no line has cost */
	for (size_t i = 0; i < n;) {
		uint64_t *sum = all[i].costs;
		size_t j = i + 1;

		for (; j < n && cmp_line(&all[i], &all[j], (void *)p) == 0; j++)
			for (uint32_t e = 0; e < nev; e++)
				u64_add_sat(&sum[e], all[j].costs[e]);
		events_derive_row(p, sum); /* a ratio of the line's sums, not summed */
		if (o->format == REPORT_JSON)
			json_line(out, p, o, &all[i], prev);
		else
			tsv_line(out, p, o, &all[i]);
		prev = &all[i];
		i = j;
	}
	if (prev && o->format == REPORT_JSON)
		fputs("]}", out);
}

/* The head: tsv's column names, or json's head up to its list of files. */
static void lines_head(FILE *out, const struct profile *p, const struct report_opts *o)
{
	if (o->format == REPORT_JSON) {
		report_put_json_head(out, p, o);
		json_filters(out, o);
		fputs(",\"files\":[", out);
		return;
	}
	fputs("file\tline", out);
	for (uint32_t i = 0; i < o->nevents; i++) {
		fputs("\tself:", out);
		report_put_name(out, p->events[o->events[i]].name, true, o->terminal);
	}
	putc('\n', out);
}

/*
 * Every line's self cost, summed over the functions the filters keep:
 * callgrind_annotate's numbers.
 */
static int dump_lines(FILE *out, const struct profile *p, const struct report_opts *o)
{
	struct src_cost *all = NULL;
	uint64_t *pool = NULL;
	size_t n = 0, alloc = 0, pool_alloc = 0;
	uint32_t nev = p->nev;

	for (uint32_t f = 0; f < p->nfuncs; f++) {
		struct srcfn s;

		if (!profile_function_used(p, f) || (o->keep && !o->keep[f]))
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
	lines_head(out, p, o);
	/* row i's costs are pool row i: pointers only now that the pool stays put */
	for (size_t i = 0; i < n; i++)
		all[i].costs = pool + i * nev;
	sum_lines(out, p, o, all, n);
	if (o->format == REPORT_JSON)
		fputs("\n]}\n", out);
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
