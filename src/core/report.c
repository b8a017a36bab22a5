/*
 * report: functions and calls as text, tsv or json. Names are bytes: tsv
 * keeps them as they are (escaping only its separators) unless it goes to a
 * terminal, json keeps valid UTF-8 and writes each byte that is not as the
 * text \xNN (a lone surrogate such as \udcXX would not be valid JSON), text
 * escapes anything a terminal would interpret (escape.h). The orders are
 * in report_sort.c.
 */
#include "ncgrind/core/report.h"
#include "ncgrind/core/escape.h"

#include <inttypes.h>
#include <stdlib.h>

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

/* ---- tsv --------------------------------------------------------------- */

/* A row is built in memory and written with one fwrite: 200,000 rows of 30 numbers. */
struct row {
	char *buf;
	size_t len, alloc;
};

static void row_reserve(struct row *r, size_t n)
{
	ALLOC_GROW(r->buf, st_add(r->len, n), r->alloc);
}

static void row_char(struct row *r, char c)
{
	row_reserve(r, 1);
	r->buf[r->len++] = c;
}

static void row_str(struct row *r, const char *s)
{
	size_t n = strlen(s);

	row_reserve(r, n);
	memcpy(r->buf + r->len, s, n);
	r->len += n;
}

static void row_u64(struct row *r, uint64_t v)
{
	row_reserve(r, 21);
	r->buf[r->len++] = '\t';
	r->len += fmt_u64(r->buf + r->len, v);
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
static void row_name(struct row *r, struct span s, bool terminal)
{
	size_t i = 0;

	row_reserve(r, st_mult(s.len, terminal ? 4 : 2)); /* \xNN: 4 bytes for 1 */
	/* most names hold no separator: copy them in one go */
	while (!terminal && i < s.len && !tsv_escape(s.ptr[i]))
		i++;
	memcpy(r->buf + r->len, s.ptr, i);
	r->len += i;
	while (i < s.len) {
		char esc[ESCAPE_MAX] = "";
		size_t n = 1;

		if (tsv_escape(s.ptr[i])) {
			esc[0] = '\\';
			esc[1] = tsv_escape(s.ptr[i]);
			esc[2] = '\0';
		} else if (terminal) {
			n = escape_next(s.ptr + i, s.len - i, esc);
		}
		if (esc[0]) {
			memcpy(r->buf + r->len, esc, strlen(esc));
			r->len += strlen(esc);
		} else {
			memcpy(r->buf + r->len, s.ptr + i, n);
			r->len += n;
		}
		i += n;
	}
}

static void row_flush(struct row *r, FILE *out)
{
	fwrite(r->buf, 1, r->len, out);
	r->len = 0;
}

/* The costs a report shows: a function's self or inclusive ones, a call's. */
typedef uint64_t (*cost_fn)(const struct profile *p, uint32_t id, uint32_t ev);

static uint64_t self_cost(const struct profile *p, uint32_t f, uint32_t ev)
{
	return profile_self_at(p, f, ev);
}

static uint64_t incl_cost(const struct profile *p, uint32_t f, uint32_t ev)
{
	return profile_incl_at(p, f, ev);
}

static uint64_t call_cost(const struct profile *p, uint32_t e, uint32_t ev)
{
	return profile_edge_at(p, e, ev);
}

static uint64_t total_cost(const struct profile *p, uint32_t id, uint32_t ev)
{
	(void)id;
	return p->totals[ev];
}

static void tsv_costs(struct row *r, const struct profile *p, cost_fn cost, uint32_t id,
		      const struct report_opts *o)
{
	for (uint32_t i = 0; i < o->nevents; i++)
		row_u64(r, cost(p, id, o->events[i]));
}

static void tsv_event_header(struct row *r, const struct profile *p, const struct report_opts *o,
			     const char *prefix)
{
	for (uint32_t i = 0; i < o->nevents; i++) {
		row_char(r, '\t');
		row_str(r, prefix);
		row_name(r, p->events[o->events[i]].name, o->terminal);
	}
}

static void tsv_fn_names(struct row *r, const struct profile *p, uint32_t f, bool object,
			 bool terminal)
{
	row_name(r, profile_name(p, p->funcs[f].name), terminal);
	row_char(r, '\t');
	row_name(r, profile_name(p, p->funcs[f].file), terminal);
	if (object) {
		row_char(r, '\t');
		row_name(r, profile_name(p, p->funcs[f].object), terminal);
	}
}

static void tsv_functions(FILE *out, const struct profile *p, const struct report_opts *o)
{
	size_t n;
	uint32_t *idx = report_sort_functions(p, o->sort, o->sort_event, o->keep, &n);
	struct row r = {0};

	row_str(&r, "function\tfile\tobject\tcalls");
	tsv_event_header(&r, p, o, "self:");
	tsv_event_header(&r, p, o, "incl:");
	row_char(&r, '\n');
	for (size_t i = 0; i < n; i++) {
		tsv_fn_names(&r, p, idx[i], true, o->terminal);
		row_u64(&r, p->funcs[idx[i]].calls);
		tsv_costs(&r, p, self_cost, idx[i], o);
		tsv_costs(&r, p, incl_cost, idx[i], o);
		row_char(&r, '\n');
		if (r.len > 60000)
			row_flush(&r, out);
	}
	row_flush(&r, out);
	free(r.buf);
	free(idx);
}

static void tsv_calls(FILE *out, const struct profile *p, const struct report_opts *o)
{
	size_t n;
	uint32_t *idx = report_sort_calls(p, o->sort, o->sort_event, o->keep, &n);
	struct row r = {0};

	row_str(&r, "caller\tcaller_file\tcallee\tcallee_file\tcount");
	tsv_event_header(&r, p, o, "incl:");
	row_char(&r, '\n');
	for (size_t i = 0; i < n; i++) {
		const struct call_edge *e = &p->edges[idx[i]];

		tsv_fn_names(&r, p, e->caller, false, o->terminal);
		row_char(&r, '\t');
		tsv_fn_names(&r, p, e->callee, false, o->terminal);
		row_u64(&r, e->count);
		tsv_costs(&r, p, call_cost, idx[i], o);
		row_char(&r, '\n');
		if (r.len > 60000)
			row_flush(&r, out);
	}
	row_flush(&r, out);
	free(r.buf);
	free(idx);
}

/* ---- json -------------------------------------------------------------- */

/*
 * A JSON string. Valid UTF-8 stays, but for what a terminal would act on,
 * written as \uXXXX (the same string); each byte that is not UTF-8 becomes
 * the four characters \xNN, as the text report shows it: a JSON string
 * holds only Unicode, and \udcXX (Python's surrogateescape) is a lone
 * surrogate, which strict parsers reject.
 */
static void json_string(FILE *out, struct span s)
{
	putc('"', out);
	for (size_t i = 0; i < s.len;) {
		uint32_t cp = 0;
		size_t n = escape_utf8(s.ptr + i, s.len - i, &cp);

		if (n == 0)
			fprintf(out, "\\\\x%02x", (unsigned char)s.ptr[i]);
		else if (cp == '"' || cp == '\\')
			fprintf(out, "\\%c", (char)cp);
		else if (escape_wanted(cp))
			fprintf(out, "\\u%04x", (unsigned)cp);
		else
			fwrite(s.ptr + i, 1, n, out);
		i += n ? n : 1;
	}
	putc('"', out);
}

static void json_costs(FILE *out, const struct profile *p, cost_fn cost, uint32_t id,
		       const struct report_opts *o)
{
	putc('{', out);
	for (uint32_t i = 0; i < o->nevents; i++) {
		if (i)
			putc(',', out);
		json_string(out, p->events[o->events[i]].name);
		fprintf(out, ":%" PRIu64, cost(p, id, o->events[i]));
	}
	putc('}', out);
}

static void json_header(FILE *out, const struct profile *p, const struct report_opts *o)
{
	const struct part *pt = p->nparts ? &p->parts[0] : NULL;

	fputs("{\"file\":", out);
	json_string(out, span_make(p->path, strlen(p->path)));
	fputs(",\"creator\":", out);
	json_string(out, pt ? pt->creator : span_make("", 0));
	fputs(",\"command\":", out);
	json_string(out, pt ? pt->cmd : span_make("", 0));
	fprintf(out, ",\"parts\":%zu,\"events\":[", p->nparts);
	for (uint32_t i = 0; i < o->nevents; i++) {
		const struct event *ev = &p->events[o->events[i]];

		fputs(i ? ",{\"name\":" : "{\"name\":", out);
		json_string(out, ev->name);
		fputs(",\"long_name\":", out);
		json_string(out, ev->long_name);
		fputs(",\"formula\":", out);
		if (ev->derived)
			json_string(out, ev->formula);
		else
			fputs("null", out);
		putc('}', out);
	}
	fputs("],\"totals\":", out);
	json_costs(out, p, total_cost, 0, o);
}

static void json_function(FILE *out, const struct profile *p, uint32_t f,
			  const struct report_opts *o)
{
	const struct function *fn = &p->funcs[f];

	fputs("{\"function\":", out);
	json_string(out, profile_name(p, fn->name));
	fputs(",\"file\":", out);
	json_string(out, profile_name(p, fn->file));
	fputs(",\"object\":", out);
	json_string(out, profile_name(p, fn->object));
	fprintf(out, ",\"calls\":%" PRIu64 ",\"cycle\":%" PRIu32 ",\"self\":", fn->calls,
		profile_cycle(p, f));
	json_costs(out, p, self_cost, f, o);
	fputs(",\"incl\":", out);
	json_costs(out, p, incl_cost, f, o);
	putc('}', out);
}

static void json_call(FILE *out, const struct profile *p, uint32_t e, const struct report_opts *o)
{
	const struct call_edge *ce = &p->edges[e];

	fputs("{\"caller\":", out);
	json_string(out, profile_name(p, p->funcs[ce->caller].name));
	fputs(",\"caller_file\":", out);
	json_string(out, profile_name(p, p->funcs[ce->caller].file));
	fputs(",\"callee\":", out);
	json_string(out, profile_name(p, p->funcs[ce->callee].name));
	fputs(",\"callee_file\":", out);
	json_string(out, profile_name(p, p->funcs[ce->callee].file));
	fprintf(out, ",\"count\":%" PRIu64 ",\"incl\":", ce->count);
	json_costs(out, p, call_cost, e, o);
	putc('}', out);
}

static void json_report(FILE *out, const struct profile *p, const struct report_opts *o)
{
	bool funcs = o->kind == REPORT_FUNCTIONS;
	size_t n;
	uint32_t *idx = funcs ? report_sort_functions(p, o->sort, o->sort_event, o->keep, &n)
			      : report_sort_calls(p, o->sort, o->sort_event, o->keep, &n);

	json_header(out, p, o);
	fputs(funcs ? ",\"functions\":[" : ",\"calls\":[", out);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",\n" : "\n", out);
		if (funcs)
			json_function(out, p, idx[i], o);
		else
			json_call(out, p, idx[i], o);
	}
	fputs("\n]}\n", out);
	free(idx);
}

/* ---- text ------------------------------------------------------------- */

static const char rule[] =
    "--------------------------------------------------------------------------------\n";

/* A name for people: valid UTF-8 as is, anything a terminal would act on escaped. */
static void text_name(FILE *out, struct span s, const char *unknown)
{
	if (s.len)
		escape_write(out, s);
	else
		fputs(unknown, out);
}

void report_put_name(FILE *out, struct span s, bool tsv, bool terminal)
{
	struct row r = {0};

	if (!tsv) {
		text_name(out, s, "");
		return;
	}
	if (!s.len) /* nothing to write: no row is allocated */
		return;
	row_name(&r, s, terminal);
	row_flush(&r, out);
	free(r.buf);
}

static void text_function(FILE *out, const struct profile *p, uint32_t f)
{
	const struct function *fn = &p->funcs[f];

	text_name(out, profile_name(p, fn->file), "???");
	putc(':', out);
	text_name(out, profile_name(p, fn->name), "(unknown)");
	if (profile_cycle(p, f))
		fprintf(out, " <cycle %" PRIu32 ">", profile_cycle(p, f));
}

static int digits_with_commas(uint64_t v)
{
	char buf[32];

	return (int)strlen(fmt_commas(buf, v));
}

/* Width of the calls/count column: its largest value, at least the heading. */
static int count_width(uint64_t most)
{
	int w = digits_with_commas(most);

	return w > 5 ? w : 5;
}

static void text_cell(FILE *out, uint64_t v, uint64_t total, int width)
{
	char buf[32];

	fprintf(out, "%*s ", width, fmt_commas(buf, v));
	if (total && v >= total)
		fputs("(100.0%)", out);
	else
		fprintf(out, "(%5.2f%%)", total ? 100.0 * (double)v / (double)total : 0.0);
	fputs("  ", out);
}

static void text_header(FILE *out, const struct profile *p, const struct report_opts *o)
{
	static const char *const sort_word[] = {
#define S(id, name, word) [SORT_##id] = word,
	    SORT_LIST(S)
#undef S
	};
	const struct part *pt = p->nparts ? &p->parts[0] : NULL;

	fputs(rule, out);
	fputs("Profile data file '", out);
	text_name(out, span_make(p->path, strlen(p->path)), "");
	fputs("'", out);
	if (pt && pt->creator.len) {
		fputs(" (creator: ", out);
		text_name(out, pt->creator, "");
		fputs(")", out);
	}
	fputs("\n", out);
	fputs(rule, out);
	fputs("Command:     ", out);
	text_name(out, pt ? pt->cmd : span_make("", 0), "(unknown)");
	fprintf(out, "\nParts:       %zu\nEvents:      ", p->nparts);
	for (uint32_t i = 0; i < o->nevents; i++) {
		fputs(i ? " " : "", out);
		text_name(out, p->events[o->events[i]].name, "");
	}
	fprintf(out, "\nSorted by:   %s", sort_word[o->sort]);
	if (o->sort != SORT_NAME && o->sort != SORT_CALLS) {
		putc(' ', out);
		text_name(out, p->events[o->sort_event].name, "");
	}
	fputs("\n", out);
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

		w[i] = digits_with_commas(p->totals[o->events[i]]);
		if (w[i] < name - 9)
			w[i] = name - 9;
	}
}

static void text_totals(FILE *out, const struct profile *p, const struct report_opts *o,
			const int *w)
{
	fputs(rule, out);
	for (uint32_t i = 0; i < o->nevents; i++) {
		struct span n = p->events[o->events[i]].name;
		size_t len = text_len(n);

		text_name(out, n, "");
		fprintf(out, "%*s", len < (size_t)w[i] + 11 ? w[i] + 11 - (int)len : 0, "");
	}
	fputs("\n", out);
	fputs(rule, out);
	for (uint32_t i = 0; i < o->nevents; i++)
		text_cell(out, p->totals[o->events[i]], p->totals[o->events[i]], w[i]);
	fputs("PROGRAM TOTALS\n", out);
	fputs(rule, out);
}

static void text_column_heads(FILE *out, const struct profile *p, const struct report_opts *o,
			      const int *w, bool self)
{
	for (uint32_t i = 0; i < o->nevents; i++) {
		char name[81], head[96];

		escape_copy(name, sizeof(name), p->events[o->events[i]].name);
		snprintf(head, sizeof(head), "%s incl", name);
		fprintf(out, "%-*s", w[i] + 11, head);
		if (self) {
			snprintf(head, sizeof(head), "%s self", name);
			fprintf(out, "%-*s", w[i] + 11, head);
		}
	}
}

static void text_functions(FILE *out, const struct profile *p, const struct report_opts *o,
			   const int *w)
{
	size_t n;
	uint32_t *idx = report_sort_functions(p, o->sort, o->sort_event, o->keep, &n);
	char buf[32];
	uint64_t most = 0;
	int cw;

	for (size_t i = 0; i < n; i++)
		most = p->funcs[idx[i]].calls > most ? p->funcs[idx[i]].calls : most;
	cw = count_width(most);
	text_column_heads(out, p, o, w, true);
	fprintf(out, "%*s  file:function\n", cw, "calls");
	fputs(rule, out);
	for (size_t i = 0; i < n; i++) {
		uint32_t f = idx[i];

		for (uint32_t e = 0; e < o->nevents; e++) {
			uint32_t ev = o->events[e];

			text_cell(out, profile_incl_at(p, f, ev), p->totals[ev], w[e]);
			text_cell(out, profile_self_at(p, f, ev), p->totals[ev], w[e]);
		}
		fprintf(out, "%*s  ", cw, fmt_commas(buf, p->funcs[f].calls));
		text_function(out, p, f);
		putc('\n', out);
	}
	free(idx);
}

static void text_calls(FILE *out, const struct profile *p, const struct report_opts *o,
		       const int *w)
{
	size_t n;
	uint32_t *idx = report_sort_calls(p, o->sort, o->sort_event, o->keep, &n);
	char buf[32];
	uint64_t most = 0;
	int cw;

	for (size_t i = 0; i < n; i++)
		most = p->edges[idx[i]].count > most ? p->edges[idx[i]].count : most;
	cw = count_width(most);
	text_column_heads(out, p, o, w, false);
	fprintf(out, "%*s  caller -> callee\n", cw, "count");
	fputs(rule, out);
	for (size_t i = 0; i < n; i++) {
		const struct call_edge *ce = &p->edges[idx[i]];

		for (uint32_t e = 0; e < o->nevents; e++)
			text_cell(out, profile_edge_at(p, idx[i], o->events[e]),
				  p->totals[o->events[e]], w[e]);
		fprintf(out, "%*s  ", cw, fmt_commas(buf, ce->count));
		text_function(out, p, ce->caller);
		fputs(" -> ", out);
		text_function(out, p, ce->callee);
		putc('\n', out);
	}
	free(idx);
}

static void report_text(FILE *out, const struct profile *p, const struct report_opts *o)
{
	int *w = xcalloc(o->nevents ? o->nevents : 1, sizeof(int));

	text_header(out, p, o);
	text_widths(p, o, w);
	text_totals(out, p, o, w);
	if (o->kind == REPORT_FUNCTIONS)
		text_functions(out, p, o, w);
	else
		text_calls(out, p, o, w);
	free(w);
}

int report_write(FILE *out, const struct profile *p, const struct report_opts *o)
{
	if (o->format == REPORT_TSV && o->kind == REPORT_FUNCTIONS)
		tsv_functions(out, p, o);
	else if (o->format == REPORT_TSV)
		tsv_calls(out, p, o);
	else if (o->format == REPORT_JSON)
		json_report(out, p, o);
	else
		report_text(out, p, o);
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

int report_sort_find(const char *name, size_t len)
{
	for (int i = 0; i < SORT_COUNT; i++)
		if (strlen(sort_names[i]) == len && !memcmp(sort_names[i], name, len))
			return i;
	return -1;
}

const char *report_kind_name(enum report_kind k)
{
	return k < REPORT_COUNT ? report_names[k] : "";
}

int report_kind_find(const char *name)
{
	for (int i = 0; i < REPORT_COUNT; i++)
		if (!strcmp(report_names[i], name))
			return i;
	return -1;
}
