/*
 * report_diff: --diff BASE NEW --dump=functions, one row per function of
 * either profile: its cost in each, the change (new - base), the change as
 * a share of the base's total (pprof's -diff_base rule: not of the net
 * change, which inflates every share when the totals nearly cancel) and the
 * ratio new/base; matched, or only in one side (gone, new).
 */
#include "ncgrind/report/views.h"
#include "ncgrind/core/escape.h"
#include "ncgrind/model/fmt.h"
#include "ncgrind/core/match.h"
#include "ncgrind/model/source.h"
#include "ncgrind/model/difftree.h"
#include "ncgrind/model/diffsrc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *status_of(const struct diff *d, size_t r)
{
	if (d->rows[r].base == NCG_NONE)
		return "new";
	return d->rows[r].new == NCG_NONE ? "gone" : "matched";
}

/* A row's status in tsv and json: matched-dir where its files differ in the directory only. */
static const char *row_status(const struct diff *d, size_t r)
{
	return diff_row_moved(d, r) ? "matched-dir" : status_of(d, r);
}

static void put_span(FILE *out, struct span s, const struct report_opts *o)
{
	if (o->format == REPORT_JSON)
		report_put_json_string(out, s);
	else
		report_put_name(out, s, o->format == REPORT_TSV, o->terminal);
}

static struct span name_of(const struct profile *p, uint32_t id, const char *none)
{
	return id == NCG_NONE ? span_make(none, strlen(none)) : profile_name(p, id);
}

/* The text head's two files: paths are bytes a terminal must not act on. */
static void text_sides(FILE *out, const struct diff *d)
{
	fputs("Base: ", out);
	escape_write(out, span_make(d->base->path, strlen(d->base->path)));
	fputs("\nNew:  ", out);
	escape_write(out, span_make(d->new->path, strlen(d->new->path)));
	fputc('\n', out);
}

/* The five values of one cost (self or incl) of row r in event e. */
struct five {
	uint64_t base, new;
	char change[FMT_NUM], pct[FMT_NUM], ratio[FMT_NUM];
};

static void five(const struct diff *d, size_t r, bool incl, uint32_t e, struct five *v)
{
	v->base = diff_cost(d, r, false, incl, e);
	v->new = diff_cost(d, r, true, incl, e);
	fmt_delta(v->change, v->base, v->new);
	fmt_share(v->pct, v->base, v->new, d->total_base[e]);
	fmt_ratio(v->ratio, v->base, v->new);
}

/* The five values of a cost, as tsv columns (each after a tab). */
static void tsv_five(FILE *out, uint64_t b, uint64_t n, uint64_t total)
{
	char ch[FMT_NUM], pct[FMT_NUM], ratio[FMT_NUM];

	fprintf(out, "\t%" PRIu64 "\t%" PRIu64 "\t%s\t%s\t%s", b, n, fmt_delta(ch, b, n),
		fmt_share(pct, b, n, total), fmt_ratio(ratio, b, n));
}

/* The five values of a cost as a json object under the event's name: pct, ratio null if none. */
static void json_five(FILE *out, struct span ev, uint64_t b, uint64_t n, uint64_t total)
{
	char ch[FMT_NUM], pct[FMT_NUM], ratio[FMT_NUM];

	fmt_delta(ch, b, n);
	fmt_share(pct, b, n, total);
	fmt_ratio(ratio, b, n);
	report_put_json_string(out, ev);
	fprintf(out,
		":{\"base\":%" PRIu64 ",\"new\":%" PRIu64 ",\"change\":%s,\"pct\":%s,\"ratio\":%s}",
		b, n, ch[0] == '+' ? ch + 1 : ch,
		pct[0] == '-' && !pct[1] ? "null"
		: pct[0] == '+'          ? pct + 1
					 : pct,
		ratio[0] == '-' || ratio[0] == 'i' ? "null" : ratio);
}

/* The tsv heads of the five values of an event: "\tPREFIXev:base" to "...:ratio". */
static void tsv_five_head(FILE *out, const char *prefix, struct span ev)
{
	static const char *const what[] = {"base", "new", "change", "pct", "ratio"};

	for (int k = 0; k < 5; k++)
		fprintf(out, "\t%s%.*s:%s", prefix, (int)ev.len, ev.ptr, what[k]);
}

static void tsv_head(FILE *out, const struct diff *d, const uint32_t *evs, uint32_t nev)
{
	fputs("function\tfile\tobject\tstatus", out);
	for (int incl = 0; incl < 2; incl++)
		for (uint32_t i = 0; i < nev; i++)
			tsv_five_head(out, incl ? "incl:" : "self:", d->ev_name[evs[i]]);
	fputc('\n', out);
}

static void tsv_row(FILE *out, const struct diff *d, size_t r, const uint32_t *evs, uint32_t nev,
		    const struct report_opts *o)
{
	const struct profile *p;
	uint32_t f = diff_function(d, r, &p);

	put_span(out, name_of(p, p->funcs[f].name, "(unknown)"), o);
	fputc('\t', out);
	put_span(out, name_of(p, p->funcs[f].file, ""), o);
	fputc('\t', out);
	put_span(out, name_of(p, p->funcs[f].object, ""), o);
	fprintf(out, "\t%s", row_status(d, r));
	for (int incl = 0; incl < 2; incl++)
		for (uint32_t i = 0; i < nev; i++)
			tsv_five(out, diff_cost(d, r, false, incl, evs[i]),
				 diff_cost(d, r, true, incl, evs[i]), d->total_base[evs[i]]);
	fputc('\n', out);
}

static void json_side(FILE *out, const char *key, const struct profile *p, const uint64_t *total,
		      const uint64_t *unmatched, const struct diff *d, const uint32_t *evs,
		      uint32_t nev)
{
	fprintf(out, "\"%s\":{\"path\":", key);
	report_put_json_string(out, span_make(p->path, strlen(p->path)));
	fputs(",\"totals\":{", out);
	for (uint32_t i = 0; i < nev; i++) {
		fputs(i ? "," : "", out);
		report_put_json_string(out, d->ev_name[evs[i]]);
		fprintf(out, ":%" PRIu64, total[evs[i]]);
	}
	fputs("},\"unmatched\":{", out);
	for (uint32_t i = 0; i < nev; i++) {
		fputs(i ? "," : "", out);
		report_put_json_string(out, d->ev_name[evs[i]]);
		fprintf(out, ":%" PRIu64, unmatched[evs[i]]);
	}
	fputs("}}", out);
}

/*
 * Where a row's other file is: "base_file", the base's, for a row matched
 * across directories; "elsewhere", the other side's namesake's, for a row
 * of one side whose name the other has in another file.
 */
static void json_other_file(FILE *out, const struct diff *d, size_t r, const struct report_opts *o)
{
	if (diff_row_moved(d, r)) {
		fputs(",\"base_file\":", out);
		put_span(out, name_of(d->base, d->base->funcs[d->rows[r].base].file, ""), o);
	} else if (d->elsewhere[r] != NCG_NONE) {
		const struct profile *other = d->rows[r].new == NCG_NONE ? d->new : d->base;

		fputs(",\"elsewhere\":", out);
		put_span(out, name_of(other, other->funcs[d->elsewhere[r]].file, ""), o);
	}
}

/* Whether --command's filters narrowed the diff: its heads say so. */
static bool filtered(const struct report_opts *o)
{
	return o->filtered_by && *o->filtered_by;
}

/*
 * "Filters:     focus main (12 of 249 functions kept)": what narrowed the
 * report, as a report of one profile says it, and how many of the diff's
 * rows (functions of either side) are left; the counts of the head are
 * those of the rows kept.
 */
static void text_filters(FILE *out, const struct diff *d, const struct report_opts *o)
{
	if (!filtered(o))
		return;
	fputs("Filters:     ", out);
	report_put_text(out, span_make(o->filtered_by, strlen(o->filtered_by)));
	fprintf(out, " (%zu of %zu functions kept)\n", d->nrows, d->nrows_all);
}

/* The counts of the match (of the rows kept), and the filters: json members (after others). */
static void json_counts(FILE *out, const struct diff *d, const struct report_opts *o)
{
	fprintf(out,
		"\"matched\":%zu,\"matched_dir\":%zu,\"only_base\":%zu,\"only_new\":%zu,"
		"\"elsewhere\":{\"gone\":%zu,\"new\":%zu},\"filters\":",
		d->matched, d->matched_dir, d->only_base, d->only_new, d->elsewhere_gone,
		d->elsewhere_new);
	if (filtered(o)) {
		report_put_json_string(out, span_make(o->filtered_by, strlen(o->filtered_by)));
		fprintf(out, ",\"functions_kept\":%zu,\"functions_all\":%zu", d->nrows,
			d->nrows_all);
	} else {
		fputs("null", out);
	}
}

/* "{"base":PATH,"new":PATH, the counts": the head of the json of the lines and the source. */
static void json_head(FILE *out, const struct diff *d, const struct report_opts *o)
{
	fputs("{\"base\":", out);
	report_put_json_string(out, span_make(d->base->path, strlen(d->base->path)));
	fputs(",\"new\":", out);
	report_put_json_string(out, span_make(d->new->path, strlen(d->new->path)));
	fputc(',', out);
	json_counts(out, d, o);
}

static void json_row(FILE *out, const struct diff *d, size_t r, const uint32_t *evs, uint32_t nev,
		     const struct report_opts *o)
{
	const struct profile *p;
	uint32_t f = diff_function(d, r, &p);

	fputs("{\"name\":", out);
	put_span(out, name_of(p, p->funcs[f].name, "(unknown)"), o);
	fputs(",\"file\":", out);
	put_span(out, name_of(p, p->funcs[f].file, ""), o);
	fputs(",\"object\":", out);
	put_span(out, name_of(p, p->funcs[f].object, ""), o);
	fprintf(out, ",\"status\":\"%s\"", row_status(d, r));
	json_other_file(out, d, r, o);
	for (int incl = 0; incl < 2; incl++) {
		fprintf(out, ",\"%s\":{", incl ? "incl" : "self");
		for (uint32_t i = 0; i < nev; i++) {
			fputs(i ? "," : "", out);
			json_five(out, d->ev_name[evs[i]], diff_cost(d, r, false, incl, evs[i]),
				  diff_cost(d, r, true, incl, evs[i]), d->total_base[evs[i]]);
		}
		fputc('}', out);
	}
	fputc('}', out);
}

/* ---- calls ---------------------------------------------------------------- */

static const char *call_status(const struct diff *d, size_t c)
{
	if (d->calls[c].base == NCG_NONE)
		return "new";
	return d->calls[c].new == NCG_NONE ? "gone" : "matched";
}

/* The function of row r: its name and file (in the side that has it). */
static void put_row_function(FILE *out, const struct diff *d, uint32_t r,
			     const struct report_opts *o, bool with_file)
{
	const struct profile *p;
	uint32_t f = diff_function(d, r, &p);

	put_span(out, name_of(p, p->funcs[f].name, "(unknown)"), o);
	if (with_file) {
		fputc('\t', out);
		put_span(out, name_of(p, p->funcs[f].file, ""), o);
	}
}

static void calls_report(FILE *out, const struct diff *d, const uint32_t *evs, uint32_t nev,
			 uint32_t e, const struct report_opts *o)
{
	size_t *order = diff_call_order(d, e);
	char ch[FMT_NUM], pct[FMT_NUM], ratio[FMT_NUM];

	if (o->format == REPORT_TSV) {
		fputs("caller\tcaller_file\tcallee\tcallee_file\tstatus\tcalls:base\tcalls:new\t"
		      "calls:change",
		      out);
		for (uint32_t i = 0; i < nev; i++)
			tsv_five_head(out, "", d->ev_name[evs[i]]);
		fputc('\n', out);
	} else if (o->format == REPORT_JSON) {
		fputc('{', out);
		json_counts(out, d, o);
		fputs(",\"calls\":[", out);
	} else {
		text_sides(out, d);
		fprintf(out, "Calls by the change of their inclusive %.*s\n",
			(int)d->ev_name[e].len, d->ev_name[e].ptr);
		text_filters(out, d, o);
		fputc('\n', out);
		fprintf(out, "%16s %16s %16s %8s %8s  %-7s %s\n", "Base", "New", "Change", "%base",
			"Ratio", "", "Caller -> callee (calls: base -> new)");
	}
	for (size_t k = 0; k < d->ncalls; k++) {
		size_t c = order[k];
		uint64_t nb = diff_call_count(d, c, false), nn = diff_call_count(d, c, true);

		if (o->format == REPORT_TSV) {
			put_row_function(out, d, d->calls[c].caller, o, true);
			fputc('\t', out);
			put_row_function(out, d, d->calls[c].callee, o, true);
			fprintf(out, "\t%s\t%" PRIu64 "\t%" PRIu64 "\t%s", call_status(d, c), nb,
				nn, fmt_delta(ch, nb, nn));
			for (uint32_t i = 0; i < nev; i++)
				tsv_five(out, diff_call_cost(d, c, false, evs[i]),
					 diff_call_cost(d, c, true, evs[i]), d->total_base[evs[i]]);
			fputc('\n', out);
		} else if (o->format == REPORT_JSON) {
			fputs(k ? ",\n{\"caller\":" : "\n{\"caller\":", out);
			put_row_function(out, d, d->calls[c].caller, o, false);
			fputs(",\"callee\":", out);
			put_row_function(out, d, d->calls[c].callee, o, false);
			fmt_delta(ch, nb, nn);
			fprintf(out,
				",\"status\":\"%s\",\"calls\":{\"base\":%" PRIu64
				",\"new\":%" PRIu64 ",\"change\":%s},\"cost\":{",
				call_status(d, c), nb, nn, ch[0] == '+' ? ch + 1 : ch);
			for (uint32_t i = 0; i < nev; i++) {
				fputs(i ? "," : "", out);
				json_five(
				    out, d->ev_name[evs[i]], diff_call_cost(d, c, false, evs[i]),
				    diff_call_cost(d, c, true, evs[i]), d->total_base[evs[i]]);
			}
			fputs("}}", out);
		} else {
			uint64_t b = diff_call_cost(d, c, false, e),
				 n = diff_call_cost(d, c, true, e);
			char a[FMT_NUM], bb[FMT_NUM], cb[FMT_NUM], cn[FMT_NUM], cc[FMT_NUM + 1];

			fprintf(out, "%16s %16s %16s %8s %8s  %-7s ", fmt_commas(a, b),
				fmt_commas(bb, n), fmt_change(cc, b, n, false, 0),
				fmt_share(pct, b, n, d->total_base[e]), fmt_ratio(ratio, b, n),
				strcmp(call_status(d, c), "matched") ? call_status(d, c) : "");
			put_row_function(out, d, d->calls[c].caller, o, false);
			fputs(" -> ", out);
			put_row_function(out, d, d->calls[c].callee, o, false);
			fprintf(out, " (%s -> %s)\n", fmt_commas(cb, nb), fmt_commas(cn, nn));
		}
	}
	if (o->format == REPORT_JSON)
		fputs("]}\n", out);
	free(order);
}

/* ---- call trees ----------------------------------------------------------- */

#define TREE_TEXT_DEPTH 40 /* levels indented in the text tree, as report_tree.c */

/* A node's status: its function's (new, gone), else its call's (new call, gone call). */
static const char *node_status(const struct diff *d, const struct difftree_node *n)
{
	if (n->kind != NODE_FUNCTION)
		return "";
	if (strcmp(status_of(d, n->row), "matched"))
		return status_of(d, n->row);
	if (n->call == NCG_NONE)
		return "";
	return d->calls[n->call].base == NCG_NONE  ? "new call"
	       : d->calls[n->call].new == NCG_NONE ? "gone call"
						   : "";
}

static const char *node_mark(const struct difftree_node *n)
{
	return n->kind == NODE_MORE  ? "more"
	       : n->kind == NODE_CUT ? "cut"
	       : n->recursive        ? "recursive"
				     : "";
}

/* The function of a node, or what a fold or cut row stands for. */
static void node_name(FILE *out, const struct diff *d, const struct difftree_node *n,
		      const struct report_opts *o)
{
	char num[FMT_NUM];

	if (n->kind == NODE_MORE)
		fprintf(out, "(%" PRIu64 " more)", n->count_new);
	else if (n->kind == NODE_CUT)
		fprintf(out, "(tree cut at %s nodes)",
			o->format == REPORT_TEXT
			    ? fmt_commas(num, n->count_new)
			    : (snprintf(num, sizeof(num), "%" PRIu64, n->count_new), num));
	else
		put_row_function(out, d, n->row, o, false);
}

static void tree_text_row(FILE *out, const struct difftree *t, const struct difftree_node *n,
			  const struct report_opts *o)
{
	const struct diff *d = t->d;
	uint64_t b = n->whole_base, nw = n->whole_new;
	char a[FMT_NUM], bb[FMT_NUM], cc[FMT_NUM + 1], pct[FMT_NUM], cb[FMT_NUM], cn[FMT_NUM],
	    calls[2 * FMT_NUM + 8] = "";

	if (n->call != NCG_NONE && n->kind == NODE_FUNCTION)
		snprintf(calls, sizeof(calls), "%s -> %s", fmt_commas(cb, n->count_base),
			 fmt_commas(cn, n->count_new));
	fprintf(out, "%16s %16s %16s %8s %-9s %17s  ", fmt_commas(a, b), fmt_commas(bb, nw),
		fmt_change(cc, b, nw, false, 0), fmt_share(pct, b, nw, d->total_base[t->event]),
		node_status(d, n), calls);
	if (n->depth <= TREE_TEXT_DEPTH) {
		for (uint32_t k = 0; k < n->depth; k++)
			fputs("  ", out);
	} else {
		char mark[16];

		snprintf(mark, sizeof(mark), "[%" PRIu32 "]", n->depth);
		fprintf(out, "%*s ", 2 * TREE_TEXT_DEPTH - 1, mark);
	}
	node_name(out, d, n, o);
	fputs(n->recursive ? "  [recursive]\n" : "\n", out);
}

static void tree_tsv_row(FILE *out, const struct difftree *t, const struct difftree_node *n,
			 const struct report_opts *o)
{
	const struct diff *d = t->d;

	fprintf(out, "%" PRIu32 "\t", n->depth);
	node_name(out, d, n, o);
	fputc('\t', out);
	if (n->kind == NODE_FUNCTION) {
		const struct profile *p;
		uint32_t f = diff_function(d, n->row, &p);

		put_span(out, name_of(p, p->funcs[f].file, ""), o);
	}
	fprintf(out, "\t%s\t%" PRIu64 "\t%" PRIu64, node_status(d, n),
		n->kind == NODE_FUNCTION ? n->count_base : 0,
		n->kind == NODE_FUNCTION ? n->count_new : 0);
	tsv_five(out, n->whole_base, n->whole_new, d->total_base[t->event]);
	fprintf(out, "\t%s\n", node_mark(n));
}

/* A node as a json object, its children left open (closed by the caller). */
static void tree_json_open(FILE *out, const struct difftree *t, const struct difftree_node *n,
			   const struct report_opts *o)
{
	const struct diff *d = t->d;

	fputs("{\"function\":", out);
	if (n->kind == NODE_FUNCTION) {
		put_row_function(out, d, n->row, o, false);
	} else {
		fputc('"', out);
		node_name(out, d, n, o);
		fputc('"', out);
	}
	fprintf(out,
		",\"status\":\"%s\",\"mark\":\"%s\",\"calls\":{\"base\":%" PRIu64
		",\"new\":%" PRIu64 "},",
		node_status(d, n), node_mark(n), n->kind == NODE_FUNCTION ? n->count_base : 0,
		n->kind == NODE_FUNCTION ? n->count_new : 0);
	json_five(out, d->ev_name[t->event], n->whole_base, n->whole_new, d->total_base[t->event]);
	fputs(",\"children\":[", out);
}

/* The rows of one tree; json: nested by the depths of the flattened rows. */
static void tree_rows(FILE *out, const struct difftree *t, const struct report_opts *o,
		      bool *first_tree)
{
	uint32_t open = 0, prev = 0; /* json objects open; the depth of the row before */

	for (size_t i = 0; i < t->nvisible; i++) {
		const struct difftree_node *n = &t->nodes[t->visible[i]];

		if (o->format == REPORT_TSV) {
			tree_tsv_row(out, t, n, o);
			continue;
		}
		if (o->format == REPORT_TEXT) {
			tree_text_row(out, t, n, o);
			continue;
		}
		for (; open > n->depth; open--)
			fputs("]}", out);
		/* a sibling came before: a row as deep or deeper (not the parent) */
		if (n->depth == 0 ? !*first_tree : i && prev >= n->depth)
			fputs(n->depth ? "," : ",\n", out);
		*first_tree = false;
		tree_json_open(out, t, n, o);
		open++;
		prev = n->depth;
	}
	for (; open > 0; open--)
		fputs("]}", out);
}

static void one_diff_tree(FILE *out, const struct diff *d, const struct report_opts *o, uint32_t e,
			  uint32_t row, bool *first_tree, struct tree_budget *b)
{
	struct difftree t;

	difftree_init(&t, d, row, o->inverted, e, o->threshold);
	/* bounded by the threshold; the budget is for --threshold=0 on a large profile */
	for (size_t i = 0; i < t.nroots && !b->cut; i++)
		if (!difftree_expand_all(&t, t.roots[i], o->depth, tree_budget_room(b, t.nnodes)))
			b->cut = true; /* the cut row says where */
	tree_budget_spend(b, t.nnodes);
	difftree_flatten(&t);
	tree_rows(out, &t, o, first_tree);
	difftree_release(&t);
}

/* Where the budget stopped the report, a last row that says so (json: cut_at). */
static void diff_tree_tail(FILE *out, const struct report_opts *o, const struct tree_budget *b)
{
	char num[FMT_NUM];

	if (o->format == REPORT_JSON)
		b->cut ? fprintf(out, "\n],\"cut_at\":%zu}\n", b->max)
		       : fputs("\n],\"cut_at\":null}\n", out);
	else if (b->cut && o->format == REPORT_TSV)
		fprintf(out, "0\t(report cut at %zu nodes)\t\t\t0\t0\t0\t0\t0\t0\t0\tcut\n",
			b->max);
	else if (b->cut)
		fprintf(out, "%16s %16s %16s %8s %-9s %17s  (report cut at %s nodes)\n", "", "", "",
			"", "", "", fmt_commas(num, b->max));
}

/* --dump=tree: from the entry points, or from each function --function matches. */
static int tree_report(FILE *out, const struct diff *d, const struct report_opts *o, uint32_t e,
		       char *err, size_t errsize)
{
	bool first = true;
	size_t *order = NULL, shown = 0;
	struct tree_budget b;
	regex_t re;

	tree_budget_init(&b);
	if (o->function && match_compile(&re, o->function, err, errsize) < 0)
		return -1;
	if (o->format == REPORT_TSV) {
		fputs("depth\tfunction\tfile\tstatus\tcalls:base\tcalls:new", out);
		tsv_five_head(out, "", d->ev_name[e]);
		fputs("\tmark\n", out);
	} else if (o->format == REPORT_JSON) {
		fputs("{\"event\":", out);
		report_put_json_string(out, d->ev_name[e]);
		fputs(",\"base\":", out);
		report_put_json_string(out, span_make(d->base->path, strlen(d->base->path)));
		fputs(",\"new\":", out);
		report_put_json_string(out, span_make(d->new->path, strlen(d->new->path)));
		fprintf(out, ",\"inverted\":%s,", o->inverted ? "true" : "false");
		json_counts(out, d, o);
		fputs(",\"trees\":[\n", out);
	} else {
		text_sides(out, d);
		fprintf(out,
			"Event %.*s: inclusive cost of each call on each side, folded under %.2f%% "
			"of the root\n",
			(int)d->ev_name[e].len, d->ev_name[e].ptr, o->threshold);
		text_filters(out, d, o);
		fprintf(out, "%16s %16s %16s %8s %-9s %17s  %s\n", "Base", "New", "Change", "%base",
			"", "Calls",
			o->inverted ? "Function, then its callers" : "Function, then its callees");
	}
	if (!o->function) {
		one_diff_tree(out, d, o, e, NCG_NONE, &first, &b);
		shown = 1;
	} else {
		order = diff_order(d, e, true, 0);
		for (size_t k = 0; k < d->nrows; k++) {
			const struct profile *p;
			uint32_t f = diff_function(d, order[k], &p);

			if (p->funcs[f].name == NCG_NONE ||
			    !match_name(&re, profile_name(p, p->funcs[f].name)))
				continue;
			shown++;
			if (!tree_budget_more(&b))
				continue; /* (counted: the report is not "no function matches") */
			one_diff_tree(out, d, o, e, (uint32_t)order[k], &first, &b);
		}
		free(order);
		regfree(&re);
	}
	diff_tree_tail(out, o, &b);
	if (!shown) {
		snprintf(err, errsize, "no function matches '%s'", o->function);
		return -1;
	}
	return 0;
}

/* ---- source lines ------------------------------------------------------- */

/* --dump=lines: every source line of either side, by file and number (tsv). */
static void lines_report(FILE *out, const struct diff *d, const uint32_t *evs, uint32_t nev,
			 const struct rewrites *rules, const struct report_opts *o)
{
	size_t nb, nn, i = 0, j = 0;
	struct side_line *lb = diffsrc_side_lines(d, false, rules, &nb),
			 *ln = diffsrc_side_lines(d, true, rules, &nn);

	if (o->format == REPORT_JSON) {
		json_head(out, d, o);
		fputs(",\"lines\":[", out);
	} else {
		fputs("file\tline", out);
		for (uint32_t k = 0; k < nev; k++)
			tsv_five_head(out, "self:", d->ev_name[evs[k]]);
		fputc('\n', out);
	}
	for (bool first = true; i < nb || j < nn; first = false) {
		int c = i == nb ? 1 : j == nn ? -1 : diffsrc_cmp_lines(&lb[i], &ln[j]);
		const struct side_line *at = c <= 0 ? &lb[i] : &ln[j];

		if (o->format == REPORT_JSON) {
			fputs(first ? "\n{\"file\":" : ",\n{\"file\":", out);
			report_put_json_string(out, span_make(at->file, strlen(at->file)));
			fprintf(out, ",\"line\":%" PRIu64 ",\"self\":{", at->line);
		} else {
			report_put_name(out, span_make(at->file, strlen(at->file)), true,
					o->terminal);
			fprintf(out, "\t%" PRIu64, at->line);
		}
		for (uint32_t k = 0; k < nev; k++) {
			uint64_t b = c <= 0 ? lb[i].cost[evs[k]] : 0,
				 n = c >= 0 ? ln[j].cost[evs[k]] : 0;

			if (o->format == REPORT_JSON) {
				fputs(k ? "," : "", out);
				json_five(out, d->ev_name[evs[k]], b, n, d->total_base[evs[k]]);
			} else {
				tsv_five(out, b, n, d->total_base[evs[k]]);
			}
		}
		fputs(o->format == REPORT_JSON ? "}}" : "\n", out);
		i += c <= 0;
		j += c >= 0;
	}
	if (o->format == REPORT_JSON)
		fputs("]}\n", out);
	diffsrc_free_lines(lb, nb);
	diffsrc_free_lines(ln, nn);
}

/* ---- annotated source ---------------------------------------------------- */

/* One row of a function's source as a diff: base, new, change, text. */
static void source_row(FILE *out, const struct diffsrc *s, const struct dsrc_row *r,
		       const struct report_opts *o)
{
	const struct dsrc_file *f = &s->files[r->file];
	char x[FMT_NUM], y[FMT_NUM], cc[FMT_NUM + 1];

	switch (r->kind) {
	case DSRC_FILE:
		fputs("-- file ", out);
		report_put_name(out, span_make(f->name, strlen(f->name)), false, o->terminal);
		fputc('\n', out);
		return;
	case DSRC_DIFFER:
		fprintf(out,
			"-- the two builds' sources of this file differ: the base's lines "
			"(%s in all) are not set against these\n",
			fmt_commas(x, r->base));
		return;
	case DSRC_NOT_FOUND:
		fputs("-- the source is not found: line numbers only\n", out);
		return;
	case DSRC_TRIED: /* the paths come from the profile: escaped like every name in it */
		fputs("--   tried ", out);
		escape_write(out, span_make(f->text.tried[r->line].path,
					    strlen(f->text.tried[r->line].path)));
		if (f->text.tried[r->line].why)
			fprintf(out, " (not read: %s)", f->text.tried[r->line].why);
		fputc('\n', out);
		return;
	case DSRC_GAP:
		return;
	case DSRC_LINE:
		break;
	}
	fprintf(out, "%16s %16s %16s  ", f->differ ? "-" : fmt_commas(x, r->base),
		fmt_commas(y, r->new), f->differ ? "-" : fmt_change(cc, r->base, r->new, false, 0));
	if (f->text.data && r->line)
		report_put_text(out, source_line(&f->text, r->line));
	else
		fprintf(out, r->line ? "(line %" PRIu64 ")" : "(no line information)", r->line);
	fputc('\n', out);
}

/* A change as a json number: "+5" is 5. */
static const char *json_delta(char *buf, uint64_t b, uint64_t n)
{
	fmt_delta(buf, b, n);
	return buf[0] == '+' ? buf + 1 : buf;
}

/* A file of a function's source as json: found or where it was looked for, its lines. */
static void json_source_file(FILE *out, const struct diffsrc *s, size_t *i)
{
	const struct dsrc_row *r = &s->rows[*i];
	const struct dsrc_file *f = &s->files[r->file];
	bool first = true;
	char ch[FMT_NUM];

	fputs("{\"file\":", out);
	report_put_json_string(out, span_make(f->name, strlen(f->name)));
	fprintf(out, ",\"found\":%s,\"differ\":%s", f->text.data ? "true" : "false",
		f->differ ? "true" : "false");
	fputs(",\"tried\":[", out);
	for (size_t t = 0; !f->text.data && t < f->text.ntried; t++) {
		fputs(t ? "," : "", out);
		report_put_json_string(
		    out, span_make(f->text.tried[t].path, strlen(f->text.tried[t].path)));
	}
	fputs("],\"lines\":[", out);
	for ((*i)++; *i < s->nrows && s->rows[*i].kind != DSRC_FILE; (*i)++) {
		r = &s->rows[*i];
		if (r->kind != DSRC_LINE)
			continue;
		fprintf(out, "%s{\"line\":%" PRIu64 ",", first ? "" : ",", r->line);
		if (f->differ)
			fprintf(out, "\"base\":null,\"new\":%" PRIu64 ",\"change\":null", r->new);
		else
			fprintf(out, "\"base\":%" PRIu64 ",\"new\":%" PRIu64 ",\"change\":%s",
				r->base, r->new, json_delta(ch, r->base, r->new));
		fputs(",\"text\":", out);
		if (f->text.data && r->line && r->line <= f->text.nlines)
			report_put_json_string(out, source_line(&f->text, r->line));
		else
			fputs("null", out);
		fputc('}', out);
		first = false;
	}
	fputs("]}", out);
}

/* A function's source as json: its name, status, and files. */
static void json_source(FILE *out, const struct diff *d, const struct diffsrc *s, size_t r,
			const struct report_opts *o, bool first)
{
	const struct profile *p;
	uint32_t f = diff_function(d, r, &p);
	uint64_t base_differ = 0;

	fputs(first ? "\n{\"name\":" : ",\n{\"name\":", out);
	put_span(out, name_of(p, p->funcs[f].name, "(unknown)"), o);
	fprintf(out, ",\"status\":\"%s\",\"files\":[", row_status(d, r));
	for (size_t i = 0; i < s->nrows;) {
		if (s->rows[i].kind == DSRC_DIFFER)
			u64_add_sat(&base_differ, s->rows[i].base);
		if (s->rows[i].kind != DSRC_FILE) {
			i++;
			continue;
		}
		fputs(i ? "," : "", out);
		json_source_file(out, s, &i);
	}
	/* the base's cost in files whose text differs: not set against the new lines */
	fprintf(out, "],\"base_not_set\":%" PRIu64 "}", base_differ);
}

/* --dump=source --function=RE: each matching function's lines, base and new. */
static int source_report(FILE *out, const struct diff *d, const struct rewrites *rules,
			 const struct report_opts *o, uint32_t e, char *err, size_t errsize)
{
	size_t *order, shown = 0;
	regex_t re;

	if (!o->function) {
		snprintf(err, errsize, "--dump=source needs --function=REGEX");
		return -1;
	}
	if (o->format == REPORT_TSV) {
		snprintf(
		    err, errsize,
		    "--dump=source of a diff is text or json (--dump=lines: tsv of the lines)");
		return -2;
	}
	if (match_compile(&re, o->function, err, errsize) < 0)
		return -1;
	if (o->format == REPORT_JSON) {
		json_head(out, d, o);
		fputs(",\"event\":", out);
		report_put_json_string(out, d->ev_name[e]);
		fputs(",\"functions\":[", out);
	} else {
		text_filters(out, d, o);
		fprintf(out, "%16s %16s %16s  source (self %.*s)\n", "Base", "New", "Change",
			(int)d->ev_name[e].len, d->ev_name[e].ptr);
	}
	order = diff_order(d, e, true, 0);
	for (size_t k = 0; k < d->nrows; k++) {
		size_t r = order[k];
		const struct profile *p;
		uint32_t f = diff_function(d, r, &p);
		struct diffsrc s;

		if (p->funcs[f].name == NCG_NONE ||
		    !match_name(&re, profile_name(p, p->funcs[f].name)))
			continue;
		shown++;
		if (o->format == REPORT_JSON) {
			diffsrc_build(&s, d, (uint32_t)r, e, rules, o->sources, -1);
			json_source(out, d, &s, r, o, shown == 1);
			diffsrc_release(&s);
			continue;
		}
		fputs("----------------------------------------------------------------------------"
		      "----\n"
		      "-- function ",
		      out);
		report_put_name(out, profile_name(p, p->funcs[f].name), false, o->terminal);
		fprintf(out, "%s\n",
			d->rows[r].base == NCG_NONE  ? " (new)"
			: d->rows[r].new == NCG_NONE ? " (gone)"
						     : "");
		diffsrc_build(&s, d, (uint32_t)r, e, rules, o->sources, -1);
		for (size_t i = 0; i < s.nrows; i++)
			source_row(out, &s, &s.rows[i], o);
		diffsrc_release(&s);
	}
	free(order);
	regfree(&re);
	if (o->format == REPORT_JSON)
		fputs("\n]}\n", out);
	if (!shown) {
		snprintf(err, errsize, "no function matches '%s'", o->function);
		return -1;
	}
	return 0;
}

/* Text: the first event's self cost, one row per function, for people. */
static void text_report(FILE *out, const struct diff *d, const size_t *order, uint32_t e,
			const struct report_opts *o)
{
	const struct span ev = d->ev_name[e];
	char a[FMT_NUM], b[FMT_NUM], cc[FMT_NUM + 1];

	text_sides(out, d);
	fprintf(out, "Event %.*s: base total %s, new total %s, change %s (%s%% of the base)\n",
		(int)ev.len, ev.ptr, fmt_commas(a, d->total_base[e]),
		fmt_commas(b, d->total_new[e]),
		fmt_change(cc, d->total_base[e], d->total_new[e], false, 0),
		fmt_share((char[FMT_NUM]){0}, d->total_base[e], d->total_new[e], d->total_base[e]));
	fprintf(out, "Functions: %zu matched", d->matched);
	if (d->matched_dir)
		fprintf(out, " (%zu across directories)", d->matched_dir);
	fprintf(out, ", %zu only in the base (gone, self %s), %zu only in the new (new, self %s)\n",
		d->only_base, fmt_commas(a, d->unmatched_base[e]), d->only_new,
		fmt_commas(b, d->unmatched_new[e]));
	if (d->elsewhere_gone || d->elsewhere_new)
		fprintf(out,
			"Of them %zu gone and %zu new are named in another file of the other side: "
			"--mod-filename=s/FROM/TO/ matches them\n",
			d->elsewhere_gone, d->elsewhere_new);
	text_filters(out, d, o);
	fputc('\n', out);
	fprintf(out, "%16s %16s %16s %8s %8s  %-7s %s\n", "Base", "New", "Change", "%base", "Ratio",
		"", "Function (self cost)");
	for (size_t i = 0; i < d->nrows; i++) {
		size_t r = order[i];
		const struct profile *p;
		uint32_t f = diff_function(d, r, &p);
		struct five v;

		five(d, r, false, e, &v);
		fprintf(out, "%16s %16s %16s %8s %8s  %-7s ", fmt_commas(a, v.base),
			fmt_commas(b, v.new), fmt_change(cc, v.base, v.new, false, 0), v.pct,
			v.ratio, strcmp(status_of(d, r), "matched") ? status_of(d, r) : "");
		put_span(out, name_of(p, p->funcs[f].file, "???"), o);
		fputc(':', out);
		put_span(out, name_of(p, p->funcs[f].name, "(unknown)"), o);
		fputc('\n', out);
	}
}

/* Whether the list ("Ir,Dr" or "Ir Dr") names the event. */
static bool list_has(const char *list, struct span name)
{
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ", ");

		if (n == name.len && !memcmp(p, name.ptr, n))
			return true;
		p += n;
		p += strspn(p, ", ");
	}
	return false;
}

static int diff_report(FILE *out, const struct diff *d, const struct rewrites *rules,
		       const struct report_opts *o, const char *events, const char *sort_event,
		       char *err, size_t errsize);

/*
 * The reports print the events' names as the profile has them in many
 * places: a copy of the diff whose names are escaped (control characters
 * as \xNN), so that none reaches the output raw.
 */
int report_diff(FILE *out, const struct diff *d, const struct rewrites *rules,
		const struct report_opts *o, const char *events, const char *sort_event, char *err,
		size_t errsize)
{
	struct diff shown = *d;
	struct span *names = xmalloc_array(d->nev ? d->nev : 1, sizeof(*names));
	int ret;

	for (uint32_t e = 0; e < d->nev; e++) {
		size_t size = 4 * d->ev_name[e].len + 1;
		char *buf = xmalloc(size);

		names[e] = span_make(buf, escape_copy(buf, size, d->ev_name[e]));
	}
	shown.ev_name = names;
	ret = diff_report(out, &shown, rules, o, events, sort_event, err, errsize);
	for (uint32_t e = 0; e < d->nev; e++)
		free((char *)names[e].ptr);
	free(names);
	return ret;
}

static int diff_report(FILE *out, const struct diff *d, const struct rewrites *rules,
		       const struct report_opts *o, const char *events, const char *sort_event,
		       char *err, size_t errsize)
{
	uint32_t *evs = xmalloc_array(d->nev ? d->nev : 1, sizeof(uint32_t)), nev = 0, e = 0;
	size_t *order;

	if (o->kind != REPORT_FUNCTIONS && o->kind != REPORT_CALLS && o->kind != REPORT_LINES &&
	    o->kind != REPORT_SOURCE && o->kind != REPORT_TREE) {
		snprintf(err, errsize,
			 "--diff reports the functions, the calls, the call trees, the source "
			 "lines and the annotated source (--dump=functions, calls, tree, lines, "
			 "source)");
		free(evs);
		return -2; /* (a usage error: no such report) */
	}
	for (uint32_t i = 0; i < d->nev; i++) /* --events: by name; all by default (no ratio) */
		if ((!events || list_has(events, d->ev_name[i])) &&
		    (d->ev_base[i] != NCG_NONE || d->ev_new[i] != NCG_NONE))
			evs[nev++] = i;
	if (!nev) {
		snprintf(err, errsize, "--events names no event of the two profiles");
		free(evs);
		return -2;
	}
	e = evs[0];
	for (uint32_t i = 0; sort_event && i < d->nev; i++)
		if (strlen(sort_event) == d->ev_name[i].len &&
		    !memcmp(sort_event, d->ev_name[i].ptr, d->ev_name[i].len))
			e = i;
	if (o->kind == REPORT_CALLS) {
		calls_report(out, d, evs, nev, e, o);
		free(evs);
		return ferror(out) ? -1 : 0;
	}
	if (o->kind == REPORT_LINES) {
		lines_report(out, d, evs, nev, rules, o);
		free(evs);
		return ferror(out) ? -1 : 0;
	}
	if (o->kind == REPORT_TREE) {
		int r = tree_report(out, d, o, e, err, errsize);

		free(evs);
		return r < 0 || ferror(out) ? -1 : 0;
	}
	if (o->kind == REPORT_SOURCE) {
		int r = source_report(out, d, rules, o, e, err, errsize);

		free(evs);
		return r == -2 ? -2 : r < 0 || ferror(out) ? -1 : 0;
	}
	order = diff_order(d, e, o->sort == SORT_INCL, 0);
	if (o->format == REPORT_TSV) {
		tsv_head(out, d, evs, nev);
		for (size_t i = 0; i < d->nrows; i++)
			tsv_row(out, d, order[i], evs, nev, o);
	} else if (o->format == REPORT_JSON) {
		fputc('{', out);
		json_side(out, "base", d->base, d->total_base, d->unmatched_base, d, evs, nev);
		fputc(',', out);
		json_side(out, "new", d->new, d->total_new, d->unmatched_new, d, evs, nev);
		fputc(',', out);
		json_counts(out, d, o);
		fputs(",\"functions\":[", out);
		for (size_t i = 0; i < d->nrows; i++) {
			fputs(i ? ",\n" : "\n", out);
			json_row(out, d, order[i], evs, nev, o);
		}
		fputs("]}\n", out);
	} else {
		text_report(out, d, order, e, o);
	}
	free(order);
	free(evs);
	return ferror(out) ? -1 : 0;
}
