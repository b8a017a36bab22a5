/*
 * report_tree: the batch forms of the call views (--dump=tree, callers,
 * callees), built on the same view-model as the browser's tree (calltree.c),
 * so that both print the same numbers. Costs of tree nodes are scaled (see
 * calltree.h) and printed as the whole costs the model shares out, so that
 * a node's children never add up to more than it. A report of trees makes
 * CALLTREE_REPORT_MAX nodes at most, all its trees together (a --function
 * that matches every function, at a threshold of 0, would write gigabytes):
 * where that stops it, its last row says so. Folded stacks repeat each
 * node's whole path, so a deep tree writes far more than its nodes (a
 * chain of 10,000 calls: 289 MB): a stack stops at FOLDED_STACK_MAX frames,
 * and a report at FOLDED_REPORT_MAX frames, each cut said by a frame.
 */
#include "ncgrind/model/calltree.h"
#include "ncgrind/model/fmt.h"
#include "ncgrind/core/match.h"
#include "ncgrind/report/views.h"

#include <inttypes.h>
#include <stdlib.h>

/* Frames of a folded stack unless --depth asks for more; the cost below is one frame. */
#define FOLDED_STACK_MAX 256
/* Frames of a folded report, all its lines together (about 16 per node of a full one). */
#define FOLDED_REPORT_MAX 16000000

static void put_function(FILE *out, const struct profile *p, uint32_t f,
			 const struct report_opts *o)
{
	const struct function *fn = &p->funcs[f];
	bool tsv = o->format == REPORT_TSV;

	if (fn->name == NCG_NONE)
		fputs("(unknown)", out);
	else
		report_put_name(out, profile_name(p, fn->name), tsv, o->terminal);
	if (!tsv && profile_cycle(p, f))
		fprintf(out, " <cycle %" PRIu32 ">", profile_cycle(p, f));
}

/* The filters that narrowed the report, as its text head says them (none: nothing). */
static void text_filters(FILE *out, const struct report_opts *o)
{
	if (o->filtered_by && *o->filtered_by) {
		fputs("Filters:     ", out);
		report_put_text(out, span_make(o->filtered_by, strlen(o->filtered_by)));
		putc('\n', out);
	}
}

/* The same as a json member, "filters":null without. */
static void json_filters(FILE *out, const struct report_opts *o)
{
	fputs(",\"filters\":", out);
	if (o->filtered_by && *o->filtered_by)
		report_put_json_string(out, span_make(o->filtered_by, strlen(o->filtered_by)));
	else
		fputs("null", out);
}

#define TEXT_DEPTH 40 /* levels indented in the text tree */

static double pct(double v, double of)
{
	return of > 0 ? 100.0 * v / of : 0.0;
}

/* The tsv mark column: what kind of row it is. */
static const char *row_mark(const struct tree_node *node)
{
	switch (node->kind) {
	case NODE_MORE:
		return "more";
	case NODE_CUT:
		return "cut";
	case NODE_CYCLE:
		return "cycle";
	case NODE_FUNCTION:
		break;
	}
	return node->member ? "member" : node->recursive ? "recursive" : "";
}

/* The function (or the cycle, or what a fold or cut row stands for) of a row. */
static void row_name(FILE *out, const struct calltree *t, const struct tree_node *node, double root,
		     const struct report_opts *o)
{
	bool tsv = o->format == REPORT_TSV;

	switch (node->kind) {
	case NODE_MORE:
		if (tsv)
			fprintf(out, "(%" PRIu64 " more)", node->count);
		else
			fprintf(out, "(%" PRIu64 " more, %.2f%%)", node->count,
				pct((double)node->whole, root));
		break;
	case NODE_CUT: {
		char num[FMT_NUM];

		fprintf(out, "(tree cut at %s nodes)",
			tsv ? (snprintf(num, sizeof(num), "%" PRIu64, node->count), num)
			    : fmt_commas(num, node->count));
		break;
	}
	case NODE_CYCLE:
		fprintf(out, "<cycle %" PRIu32 ">", node->fn);
		break;
	case NODE_FUNCTION:
		put_function(out, t->p, node->fn, o);
		break;
	}
}

static void tree_row(FILE *out, const struct calltree *t, uint32_t n, double root,
		     const struct report_opts *o)
{
	bool tsv = o->format == REPORT_TSV;
	const struct tree_node *node = &t->nodes[n];
	double parent = node->parent == NCG_NONE ? root : (double)t->nodes[node->parent].whole;
	char num[FMT_NUM];
	uint64_t cost = node->whole;
	bool has_count =
	    node->edge != NCG_NONE && (node->kind == NODE_FUNCTION || node->kind == NODE_CYCLE);

	if (tsv) {
		fprintf(out, "%" PRIu32 "\t", node->depth);
		row_name(out, t, node, root, o);
		putc('\t', out);
		if (node->kind == NODE_FUNCTION)
			report_put_name(out, profile_name(t->p, t->p->funcs[node->fn].file), true,
					o->terminal);
		fprintf(out, "\t%" PRIu64 "\t%" PRIu64 "\t%.2f\t%.2f\t%s\n",
			has_count ? node->count : 0, cost, pct((double)node->whole, root),
			pct((double)node->whole, parent), row_mark(node));
		return;
	}
	fprintf(out, "%15s %6.2f%% %6.2f%% ", fmt_commas(num, cost), pct((double)node->whole, root),
		pct((double)node->whole, parent));
	if (!has_count)
		fprintf(out, "%10s  ", "");
	else
		fprintf(out, "%10s  ", fmt_commas(num, node->count));
	/*
	 * Two blanks a level, up to TEXT_DEPTH levels; deeper, the depth as a
	 * number in their place: a chain of 100,000 calls would otherwise write
	 * 10 GB of blanks.
	 */
	if (node->depth <= TEXT_DEPTH)
		for (uint32_t d = 0; d < node->depth; d++)
			fputs("  ", out);
	else {
		char mark[16];

		snprintf(mark, sizeof(mark), "[%" PRIu32 "]", node->depth);
		fprintf(out, "%*s ", 2 * TEXT_DEPTH - 1, mark);
	}
	row_name(out, t, node, root, o);
	fputs(node->member ? "  [self]\n" : node->recursive ? "  [recursive]\n" : "\n", out);
}

/* ---- json ------------------------------------------------------------------- */

/* A node as a json object, its children left open (closed by json_rows()). */
static void json_open(FILE *out, const struct calltree *t, const struct tree_node *node,
		      double root)
{
	const struct profile *p = t->p;
	double parent = node->parent == NCG_NONE ? root : (double)t->nodes[node->parent].whole;
	bool fn = node->kind == NODE_FUNCTION,
	     has_count = node->edge != NCG_NONE && (fn || node->kind == NODE_CYCLE);
	char name[64];

	fputs("{\"function\":", out);
	if (fn) {
		report_put_json_string(out, profile_name(p, p->funcs[node->fn].name));
		fputs(",\"file\":", out);
		report_put_json_string(out, profile_name(p, p->funcs[node->fn].file));
	} else {
		if (node->kind == NODE_CYCLE)
			snprintf(name, sizeof(name), "<cycle %" PRIu32 ">", node->fn);
		else
			snprintf(name, sizeof(name),
				 node->kind == NODE_MORE ? "(%" PRIu64 " more)"
							 : "(tree cut at %" PRIu64 " nodes)",
				 node->count);
		report_put_json_string(out, span_make(name, strlen(name)));
		fputs(",\"file\":null", out);
	}
	fprintf(out,
		",\"cycle\":%" PRIu32 ",\"calls\":%" PRIu64 ",\"incl\":%" PRIu64
		",\"root_pct\":%.2f,\"parent_pct\":%.2f,\"mark\":\"%s\",\"children\":[",
		fn                         ? profile_cycle(p, node->fn)
		: node->kind == NODE_CYCLE ? node->fn
					   : 0,
		has_count ? node->count : 0, node->whole, pct((double)node->whole, root),
		pct((double)node->whole, parent), row_mark(node));
}

/* The rows of one tree nested as the tree, by the depths of the flattened rows. */
static void json_rows(FILE *out, const struct calltree *t, bool *first_tree)
{
	uint32_t open = 0, prev = 0; /* objects open; the depth of the row before */
	double root = (double)calltree_root_whole(t);

	for (size_t i = 0; i < t->nvisible; i++) {
		const struct tree_node *node = &t->nodes[t->visible[i]];

		for (; open > node->depth; open--)
			fputs("]}", out);
		/* a sibling came before: a row as deep or deeper (not the parent) */
		if (node->depth == 0 ? !*first_tree : i && prev >= node->depth)
			fputs(node->depth ? "," : ",\n", out);
		*first_tree = false;
		json_open(out, t, node, root);
		open++;
		prev = node->depth;
	}
	for (; open > 0; open--)
		fputs("]}", out);
}

/* ---- the budget of a report ---------------------------------------------------- */

/*
 * Tree t at root (NCG_NONE: the entry points), expanded as far as the
 * threshold and the depth take it and the budget lets it: where the budget
 * runs out, a "(tree cut at N nodes)" row says where, and the report stops.
 */
static void tree_build(struct calltree *t, const struct profile *p, const struct callgraph *g,
		       const struct report_opts *o, uint32_t root, struct tree_budget *b)
{
	calltree_init(t, p, g, root, o->inverted, o->sort_event, o->threshold);
	t->filters = o->filters;
	calltree_set_keep(t, o->keep);
	for (size_t i = 0; i < t->nroots && !b->cut; i++)
		if (!calltree_expand_all(t, t->roots[i], o->depth, tree_budget_room(b, t->nnodes)))
			b->cut = true;
	tree_budget_spend(b, t->nnodes);
	calltree_flatten(t);
}

/* ---- trees ------------------------------------------------------------------- */

static void tree_head(FILE *out, const struct profile *p, const struct report_opts *o)
{
	struct span ev = p->events[o->sort_event].name;

	if (o->format == REPORT_JSON) {
		fputs("{\"file\":", out);
		report_put_json_string(out, span_make(p->path, strlen(p->path)));
		fputs(",\"event\":", out);
		report_put_json_string(out, ev);
		json_filters(out, o);
		fprintf(out,
			",\"threshold\":%.2f,\"total\":%" PRIu64 ",\"inverted\":%s,\"trees\":[\n",
			o->threshold, p->totals[o->sort_event], o->inverted ? "true" : "false");
		return;
	}
	if (o->format == REPORT_TSV) {
		fputs("depth\tfunction\tfile\tcalls\tincl:", out);
		report_put_name(out, ev, true, o->terminal);
		fputs("\troot_pct\tparent_pct\tmark\n", out);
		return;
	}
	report_put_name(out, ev, false, o->terminal);
	fprintf(out, ": inclusive cost of each call, folded under %.2f%% of the root\n",
		o->threshold);
	text_filters(out, o);
	fprintf(out, "%15s %7s %8s %10s  %s\n", "incl", "%root", "%parent", "calls",
		o->inverted ? "function, then its callers" : "function, then its callees");
}

/* The end of the report: where the budget stopped it, a row (json: a field) that says so. */
static void tree_tail(FILE *out, const struct report_opts *o, const struct tree_budget *b)
{
	char num[FMT_NUM];

	if (o->format == REPORT_JSON) {
		if (b->cut)
			fprintf(out, "\n],\"cut_at\":%zu}\n", b->max);
		else
			fputs("\n],\"cut_at\":null}\n", out);
	} else if (!b->cut) {
		return;
	} else if (o->format == REPORT_TSV) {
		fprintf(out, "0\t(report cut at %zu nodes)\t\t0\t0\t0.00\t0.00\tcut\n", b->max);
	} else {
		fprintf(out, "%15s %7s %8s %10s  (report cut at %s nodes)\n", "", "", "", "",
			fmt_commas(num, b->max));
	}
}

static void one_tree(FILE *out, const struct profile *p, const struct callgraph *g,
		     const struct report_opts *o, uint32_t root, struct tree_budget *b, bool *first)
{
	struct calltree t;

	tree_build(&t, p, g, o, root, b);
	if (o->format == REPORT_JSON)
		json_rows(out, &t, first);
	else
		for (size_t i = 0; i < t.nvisible; i++)
			tree_row(out, &t, t.visible[i], (double)calltree_root_whole(&t), o);
	calltree_release(&t);
}

/* --dump=tree: from the entry points, or from each function --function matches. */
static void tree_report(FILE *out, const struct profile *p, const struct callgraph *g,
			const struct report_opts *o, const uint32_t *fns, size_t n)
{
	struct tree_budget b;
	bool first = true;

	tree_budget_init(&b);
	tree_head(out, p, o);
	if (!o->function)
		one_tree(out, p, g, o, NCG_NONE, &b, &first);
	for (size_t i = 0; i < n && tree_budget_more(&b); i++)
		one_tree(out, p, g, o, fns[i], &b, &first);
	tree_tail(out, o, &b);
}

/* ---- folded stacks ---------------------------------------------------------- */

/*
 * A frame of a folded stack: the function's name, a cycle's, or a fold row's,
 * with ';' (the frame separator) as ':' and control bytes as '?': nothing
 * of the profile's can break a line of the format.
 */
static void folded_frame(FILE *out, const struct calltree *t, const struct tree_node *x,
			 bool terminal)
{
	char buf[48], *copy;
	struct span s;

	if (x->kind == NODE_CYCLE) {
		snprintf(buf, sizeof(buf), "<cycle %" PRIu32 ">", x->fn);
		s = span_make(buf, strlen(buf));
	} else if (x->kind == NODE_MORE) {
		snprintf(buf, sizeof(buf), "(%" PRIu64 " more)", x->count);
		s = span_make(buf, strlen(buf));
	} else {
		s = t->p->funcs[x->fn].name == NCG_NONE
			? span_make("(unknown)", 9)
			: profile_name(t->p, t->p->funcs[x->fn].name);
	}
	copy = xmalloc(s.len + 1);
	for (size_t i = 0; i < s.len; i++) {
		unsigned char c = (unsigned char)s.ptr[i];

		copy[i] = (char)(c == ';' ? ':' : c < 0x20 || c == 0x7f ? '?' : c);
	}
	/* on a terminal, what else it would act on (bad UTF-8, C1 controls) escaped too */
	report_put_name(out, span_make(copy, s.len), false, terminal);
	free(copy);
}

/* What a folded report may still write: frames per stack, and in all. */
struct folded_budget {
	size_t stack, max, left;
	bool cut;
};

/* (an environment variable, not an option: it is for the tests, and may only lower the cap) */
static size_t env_cap(const char *name, size_t cap)
{
	const char *s = getenv(name);
	char *end;
	unsigned long long v;

	if (!s || !*s)
		return cap;
	v = strtoull(s, &end, 10);
	return *end || v >= cap ? cap : (size_t)v;
}

/* An explicit --depth is a stack as deep as the user asks: the report's budget still holds. */
static void folded_budget_init(struct folded_budget *f, const struct report_opts *o)
{
	f->stack = o->depth != UINT32_MAX ? (size_t)o->depth + 1
					  : env_cap("NCGRIND_FOLDED_STACK", FOLDED_STACK_MAX);
	if (f->stack < 1)
		f->stack = 1;
	f->max = f->left = env_cap("NCGRIND_FOLDED_FRAMES", FOLDED_REPORT_MAX);
	f->cut = false;
}

/*
 * One line: the frames of path[0..n), then the cut frame where `below`
 * (what the stack spends past its last frame allowed), and the value. False,
 * and nothing written, when the report's frames are spent.
 */
static bool folded_line(FILE *out, const struct calltree *t, const uint32_t *path, size_t n,
			bool below, uint64_t v, const struct report_opts *o,
			struct folded_budget *f)
{
	size_t frames = n + below;

	if (frames > f->left) {
		f->cut = true;
		return false;
	}
	f->left -= frames;
	for (size_t d = 0; d < n; d++) {
		if (d)
			putc(';', out);
		folded_frame(out, t, &t->nodes[path[d]], o->terminal);
	}
	if (below)
		fprintf(out, ";(stack cut at %zu frames)", f->stack);
	fprintf(out, " %" PRIu64 "\n", v);
	return true;
}

/*
 * Brendan Gregg's folded stacks of one tree: a line per node, its path from
 * the root and what the path spends in the node itself (its whole cost
 * less its children's, all of it where it is not expanded); paths of 0 are
 * left out. A line's frames are the tree's, so flamegraph.pl draws the
 * tree, and the lines of a tree add up to its root's whole cost. A node at
 * the last frame a stack may have gets a second line, of one frame more,
 * "(stack cut at N frames)", with what its children spend: the nodes below
 * are not written, and the sums stay whole.
 */
static void folded_tree(FILE *out, const struct profile *p, const struct callgraph *g,
			const struct report_opts *o, uint32_t root, struct tree_budget *b,
			struct folded_budget *f)
{
	struct calltree t;
	uint32_t *path = NULL;
	size_t alloc = 0;

	tree_build(&t, p, g, o, root, b);
	for (size_t i = 0; i < t.nvisible && !f->cut; i++) {
		const struct tree_node *x = &t.nodes[t.visible[i]];
		uint64_t v = x->whole, kids = 0;

		if (x->depth >= f->stack || x->kind == NODE_CUT)
			continue;
		ALLOC_GROW(path, (size_t)x->depth + 1, alloc);
		path[x->depth] = t.visible[i];
		if (x->expanded) /* (the children's whole costs never add up to more) */
			for (uint32_t c = x->first_child; c != NCG_NONE; c = t.nodes[c].next)
				kids += t.nodes[c].whole;
		v -= kids;
		if (v)
			folded_line(out, &t, path, (size_t)x->depth + 1, false, v, o, f);
		if (kids && x->depth + 1 == f->stack)
			folded_line(out, &t, path, (size_t)x->depth + 1, true, kids, o, f);
	}
	free(path);
	calltree_release(&t);
}

/*
 * --dump=folded. The format has no comments: where a budget stops the
 * report, its last line is a stack of one frame, "(report cut at N
 * frames)" or "(report cut at N nodes)", of 0; flamegraph.pl and its ports
 * take it as a stack of no width (drawn nowhere, no warning), and a sum of
 * the values is not changed.
 */
static void folded_report(FILE *out, const struct profile *p, const struct callgraph *g,
			  const struct report_opts *o, const uint32_t *fns, size_t n)
{
	struct tree_budget b;
	struct folded_budget f;

	tree_budget_init(&b);
	folded_budget_init(&f, o);
	if (!o->function)
		folded_tree(out, p, g, o, NCG_NONE, &b, &f);
	for (size_t i = 0; i < n && !f.cut && tree_budget_more(&b); i++)
		folded_tree(out, p, g, o, fns[i], &b, &f);
	if (f.cut)
		fprintf(out, "(report cut at %zu frames) 0\n", f.max);
	else if (b.cut)
		fprintf(out, "(report cut at %zu nodes) 0\n", b.max);
}

/* Used functions whose name matches, by inclusive cost, largest first. */
static size_t matching(const struct profile *p, const regex_t *re, uint32_t ev, uint32_t **out)
{
	size_t n;
	uint32_t *idx = report_sort_functions(p, SORT_INCL, ev, NULL, &n), k = 0;

	for (size_t i = 0; i < n; i++)
		if (match_name(re, profile_name(p, p->funcs[idx[i]].name)))
			idx[k++] = idx[i];
	*out = idx;
	return k;
}

/* The places of the calls caller -> callee, from those read for the report. */
static void put_sites(FILE *out, const struct profile *p, const struct call_sites_many *cs,
		      uint32_t caller, uint32_t callee, const struct report_opts *o)
{
	bool tsv = o->format == REPORT_TSV;
	const struct call_site *s;
	size_t n = call_sites_many_of(cs, caller, callee, &s);

	for (size_t i = 0; i < n; i++) {
		fputs(i ? (tsv ? "," : ", ") : (tsv ? "" : "  at "), out);
		report_put_name(out, profile_name(p, s[i].file), tsv, o->terminal);
		if (s[i].line)
			fprintf(out, ":%" PRIu64, s[i].line);
		else if (s[i].addr)
			fprintf(out, ":0x%" PRIx64, s[i].addr);
	}
}

/* What the callers and callees reports share: the profile, the options, the calls' shares. */
struct calls_ctx {
	FILE *out;
	const struct profile *p;
	const struct report_opts *o;
	struct call_shares *shares; /* graph.h */
	struct call_sites_many cs;  /* the places of every call listed, read first */
	bool callers;
};

/*
 * One caller or callee line: the count, the cost of the calls as shown (their
 * share of the caller, graph.h), and where; tsv adds what the file records.
 */
static void call_row(struct calls_ctx *c, uint32_t fn, uint32_t e)
{
	const struct profile *p = c->p;
	const struct report_opts *o = c->o;
	const struct call_edge *ce = &p->edges[e];
	uint32_t other = c->callers ? ce->caller : ce->callee, ev = o->sort_event;
	uint64_t cost = call_shares_cost(c->shares, p, e, ev);
	double total = (double)p->totals[ev], of_fn = (double)profile_incl_at(p, fn, ev);
	bool recursive = graph_call_recursive(p, ce->caller, ce->callee);
	char num[FMT_NUM], cnt[FMT_NUM];
	FILE *out = c->out;

	if (o->format == REPORT_TSV) {
		put_function(out, p, fn, o);
		putc('\t', out);
		put_function(out, p, other, o);
		putc('\t', out);
		report_put_name(out, profile_name(p, p->funcs[other].file), true, o->terminal);
		fprintf(out, "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%.2f\t%.2f\t", ce->count,
			cost, profile_edge_at(p, e, ev), pct((double)cost, total),
			pct((double)cost, of_fn));
		put_sites(out, p, &c->cs, ce->caller, ce->callee, o);
		fprintf(out, "\t%s\n", recursive ? GRAPH_RECURSIVE : "");
		return;
	}
	fprintf(out, "  %15s %6.2f%% %6.2f%% %10s  ", fmt_commas(num, cost),
		pct((double)cost, total), pct((double)cost, of_fn), fmt_commas(cnt, ce->count));
	put_function(out, p, other, o);
	if (recursive)
		fputs("  [" GRAPH_RECURSIVE "]", out);
	put_sites(out, p, &c->cs, ce->caller, ce->callee, o);
	putc('\n', out);
}

/* The cost of a call as shown, by one event: what calls_of() sorts by. */
struct edge_order {
	const struct profile *p;
	struct call_shares *shares;
	uint32_t ev;
};

static int cmp_edge_cost(const void *a, const void *b, void *ctx)
{
	const struct edge_order *o = ctx;
	uint64_t x = call_shares_cost(o->shares, o->p, *(const uint32_t *)a, o->ev);
	uint64_t y = call_shares_cost(o->shares, o->p, *(const uint32_t *)b, o->ev);

	return x != y ? (x < y) - (x > y)
		      : (*(const uint32_t *)a > *(const uint32_t *)b) -
			    (*(const uint32_t *)a < *(const uint32_t *)b);
}

/* The calls of fn one way, by cost (a function may have 100,000 callers: a real sort); *n. */
static uint32_t *sorted_calls(const struct calls_ctx *c, const struct callgraph *g, uint32_t fn,
			      size_t *n)
{
	const uint32_t *start = c->callers ? g->in_start : g->out_start;
	const uint32_t *edge = c->callers ? g->in_edge : g->out_edge;
	uint32_t *e;

	*n = start[fn + 1] - start[fn];
	e = xmalloc_array(*n ? *n : 1, sizeof(uint32_t));
	memcpy(e, edge + start[fn], *n * sizeof(uint32_t));
	sort_with(e, *n, sizeof(uint32_t), cmp_edge_cost,
		  &(struct edge_order){c->p, c->shares, c->o->sort_event});
	return e;
}

static void calls_of(struct calls_ctx *c, const struct callgraph *g, uint32_t fn)
{
	const struct profile *p = c->p;
	size_t n;
	uint32_t *e = sorted_calls(c, g, fn, &n);
	char num[FMT_NUM];

	if (c->o->format != REPORT_TSV) {
		uint64_t incl = profile_incl_at(p, fn, c->o->sort_event);
		char cnt[FMT_NUM + 8];

		fprintf(c->out, "%s of ", c->callers ? "callers" : "callees");
		put_function(c->out, p, fn, c->o);
		fprintf(c->out, "  (incl %s = %.2f%%, called %s)\n", fmt_commas(num, incl),
			pct((double)incl, (double)p->totals[c->o->sort_event]),
			fmt_times(cnt, p->funcs[fn].calls));
		fprintf(c->out, "  %15s %7s %8s %10s  %s\n", "cost of calls", "%total", "%func",
			"calls", c->callers ? "caller" : "callee");
	}
	for (size_t i = 0; i < n; i++)
		call_row(c, fn, e[i]);
	free(e);
}

/* ---- callers and callees as json ---------------------------------------- */

static void json_name(FILE *out, const struct profile *p, uint32_t id)
{
	report_put_json_string(out, profile_name(p, id));
}

/* "Ir":1, the i-th event shown at value v (a ratio's as a decimal). */
static void json_entry(const struct calls_ctx *c, uint32_t i, uint64_t v)
{
	const struct event *ev = &c->p->events[c->o->events[i]];
	char buf[32];

	if (ev->ratio)
		report_ratio(buf, sizeof(buf), v);
	else
		snprintf(buf, sizeof(buf), "%" PRIu64, v);
	fputs(i ? "," : "", c->out);
	report_put_json_string(c->out, ev->name);
	fprintf(c->out, ":%s", buf);
}

/* {"Ir":1,"Dr":2}: a call's cost of each event shown, as shown or as recorded. */
static void json_costs(const struct calls_ctx *c, uint32_t e, bool recorded)
{
	putc('{', c->out);
	for (uint32_t i = 0; i < c->o->nevents; i++) {
		uint32_t ev = c->o->events[i];

		json_entry(c, i,
			   recorded ? profile_edge_at(c->p, e, ev)
				    : call_shares_cost(c->shares, c->p, e, ev));
	}
	putc('}', c->out);
}

/* The same from a row of the profile (nev values). */
static void json_row(const struct calls_ctx *c, const uint64_t *row)
{
	putc('{', c->out);
	for (uint32_t i = 0; i < c->o->nevents; i++)
		json_entry(c, i, row[c->o->events[i]]);
	putc('}', c->out);
}

static void json_sites(struct calls_ctx *c, uint32_t caller, uint32_t callee)
{
	const struct call_site *s;
	size_t n = call_sites_many_of(&c->cs, caller, callee, &s);

	fputs(",\"sites\":[", c->out);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",{\"file\":" : "{\"file\":", c->out);
		json_name(c->out, c->p, s[i].file);
		fprintf(c->out, ",\"line\":%" PRIu64 ",\"address\":%" PRIu64 "}", s[i].line,
			s[i].addr);
	}
	putc(']', c->out);
}

/* One call: the other end, the count, the cost shown and recorded, recursive, where. */
static void json_call(struct calls_ctx *c, uint32_t e)
{
	const struct profile *p = c->p;
	const struct call_edge *ce = &p->edges[e];
	uint32_t other = c->callers ? ce->caller : ce->callee;

	fputs("{\"function\":", c->out);
	json_name(c->out, p, p->funcs[other].name);
	fputs(",\"file\":", c->out);
	json_name(c->out, p, p->funcs[other].file);
	fprintf(c->out, ",\"count\":%" PRIu64 ",\"incl\":", ce->count);
	json_costs(c, e, false);
	fputs(",\"recorded\":", c->out);
	json_costs(c, e, true);
	fprintf(c->out, ",\"recursive\":%s",
		graph_call_recursive(p, ce->caller, ce->callee) ? "true" : "false");
	json_sites(c, ce->caller, ce->callee);
	putc('}', c->out);
}

/* A function reported: its own costs, then its callers (callees), by cost. */
static void json_function(struct calls_ctx *c, const struct callgraph *g, uint32_t fn)
{
	const struct profile *p = c->p;
	const struct function *f = &p->funcs[fn];
	uint64_t *row = xcalloc(p->nev ? p->nev : 1, sizeof(uint64_t));
	size_t n;
	uint32_t *e = sorted_calls(c, g, fn, &n);

	fputs("{\"function\":", c->out);
	json_name(c->out, p, f->name);
	fputs(",\"file\":", c->out);
	json_name(c->out, p, f->file);
	fputs(",\"object\":", c->out);
	json_name(c->out, p, f->object);
	fprintf(c->out, ",\"calls\":%" PRIu64 ",\"cycle\":%" PRIu32 ",\"self\":", f->calls,
		profile_cycle(p, fn));
	json_row(c, profile_self_row(p, fn, row));
	fputs(",\"incl\":", c->out);
	json_row(c, profile_incl_row(p, fn, row));
	fprintf(c->out, ",\"%s\":[", c->callers ? "callers" : "callees");
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",\n" : "\n", c->out);
		json_call(c, e[i]);
	}
	fputs("\n]}", c->out);
	free(e);
	free(row);
}

/* The events shown, the totals, then each function reported. */
static void json_calls(struct calls_ctx *c, const struct callgraph *g, const uint32_t *fns,
		       size_t n)
{
	const struct profile *p = c->p;

	fputs("{\"file\":", c->out);
	report_put_json_string(c->out, span_make(p->path, strlen(p->path)));
	fputs(",\"events\":[", c->out);
	for (uint32_t i = 0; i < c->o->nevents; i++) {
		fputs(i ? "," : "", c->out);
		report_put_json_string(c->out, p->events[c->o->events[i]].name);
	}
	fputs("],\"sort_event\":", c->out);
	report_put_json_string(c->out, p->events[c->o->sort_event].name);
	fputs(",\"totals\":", c->out);
	json_row(c, p->totals);
	json_filters(c->out, c->o);
	fputs(",\"functions\":[", c->out);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",\n" : "\n", c->out);
		json_function(c, g, fns[i]);
	}
	fputs("\n]}\n", c->out);
}

/*
 * The filters of --command pick the functions reported, as they narrow the
 * browser's table, from which Enter opens a function's callers and callees:
 * each then with all of its calls, as that screen lists them. (hide is for
 * trees, there and here.) Returns how many are left.
 */
static size_t kept_only(const struct report_opts *o, uint32_t *fns, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!o->keep || o->keep[fns[i]])
			fns[k++] = fns[i];
	return k;
}

/*
 * Read the places of every call the report lists, each caller's blocks once:
 * the callers of many functions come back to the same caller in no order
 * that one cached caller would serve.
 */
static void calls_sites_load(struct calls_ctx *c, const struct callgraph *g, const uint32_t *fns,
			     size_t n)
{
	const uint32_t *start = c->callers ? g->in_start : g->out_start;
	const uint32_t *edge = c->callers ? g->in_edge : g->out_edge;
	uint32_t *e = NULL;
	size_t ne = 0, alloc = 0;

	for (size_t i = 0; i < n; i++) {
		size_t k = start[fns[i] + 1] - start[fns[i]];

		ALLOC_GROW(e, ne + k, alloc);
		if (k)
			memcpy(e + ne, edge + start[fns[i]], k * sizeof(uint32_t));
		ne += k;
	}
	call_sites_many_load(&c->cs, c->p, e, ne);
	free(e);
}

static int callers_report(FILE *out, const struct profile *p, const struct callgraph *g,
			  const struct report_opts *o, uint32_t *fns, size_t n, char *err,
			  size_t errsize)
{
	struct calls_ctx c = {
	    out, p, o, o->shares ? o->shares : g->shares, {0}, o->kind == REPORT_CALLERS};

	if ((n = kept_only(o, fns, n)) == 0) {
		snprintf(err, errsize, "no function matches '%s' among those the filters keep",
			 o->function);
		return -1;
	}
	calls_sites_load(&c, g, fns, n);
	if (o->format == REPORT_JSON) {
		json_calls(&c, g, fns, n);
	} else {
		if (o->format == REPORT_TEXT)
			text_filters(out, o);
		if (o->format == REPORT_TSV) {
			const char *end = c.callers ? "caller" : "callee";

			fprintf(out, "function\t%s\t%s_file\tcount\tincl:", end, end);
			report_put_name(out, p->events[o->sort_event].name, true, o->terminal);
			fputs("\trecorded:", out);
			report_put_name(out, p->events[o->sort_event].name, true, o->terminal);
			fputs("\ttotal_pct\tfunction_pct\tsites\tmark\n", out);
		}
		for (size_t i = 0; i < n; i++)
			calls_of(&c, g, fns[i]);
	}
	call_sites_many_release(&c.cs);
	return 0;
}

int report_tree(FILE *out, const struct profile *p, const struct report_opts *o, char *err,
		size_t errsize)
{
	struct callgraph g;
	regex_t re;
	uint32_t *fns = NULL;
	size_t n = 0;

	if (o->function) {
		if (match_compile(&re, o->function, err, errsize) < 0)
			return -1;
		n = matching(p, &re, o->sort_event, &fns);
		regfree(&re);
		if (!n) {
			snprintf(err, errsize, "no function matches '%s'", o->function);
			free(fns);
			return -1;
		}
	} else if (o->kind != REPORT_TREE && o->kind != REPORT_FOLDED) {
		snprintf(err, errsize, "--dump=%s needs --function=REGEX",
			 o->kind == REPORT_CALLERS ? "callers" : "callees");
		return -1;
	}
	if ((o->kind == REPORT_TREE || o->kind == REPORT_FOLDED) &&
	    p->events[o->sort_event].ratio) {
		snprintf(err, errsize,
			 "a call tree needs an event that adds up; %.*s is a ratio (--events)",
			 (int)p->events[o->sort_event].name.len, p->events[o->sort_event].name.ptr);
		free(fns);
		return -1;
	}
	callgraph_init(&g, p);
	if (o->kind == REPORT_FOLDED) {
		folded_report(out, p, &g, o, fns, n);
	} else if (o->kind == REPORT_TREE) {
		tree_report(out, p, &g, o, fns, n);
	} else if (callers_report(out, p, &g, o, fns, n, err, errsize) < 0) {
		callgraph_release(&g);
		free(fns);
		return -1;
	}
	callgraph_release(&g);
	free(fns);
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
