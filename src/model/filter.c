/*
 * filter: the function set the views show. focus and ignore walk the call
 * graph (breadth first, with an explicit queue: no recursion however deep).
 */
#include "ncgrind/model/filter.h"
#include "ncgrind/core/match.h"

#include <stdio.h>
#include <stdlib.h>

void filters_init(struct filters *f)
{
	memset(f, 0, sizeof(*f));
}

static void filter_free(struct filter *x)
{
	regfree(&x->re);
	free(x->pattern);
}

void filters_release(struct filters *f)
{
	for (size_t i = 0; i < f->n; i++)
		filter_free(&f->list[i]);
	free(f->list);
	memset(f, 0, sizeof(*f));
}

int filters_add(struct filters *f, enum filter_kind kind, const char *pattern, char *err,
		size_t errsize)
{
	regex_t re;

	if (match_compile(&re, pattern, err, errsize) < 0)
		return -1;
	ALLOC_GROW(f->list, f->n + 1, f->alloc);
	f->list[f->n].kind = kind;
	f->list[f->n].pattern = xstrdup(pattern);
	f->list[f->n].re = re;
	f->n++;
	f->version++;
	return 0;
}

bool filters_undo(struct filters *f)
{
	if (!f->n)
		return false;
	filter_free(&f->list[--f->n]);
	f->version++;
	return true;
}

void filters_clear_names(struct filters *f)
{
	size_t o = 0;

	for (size_t i = 0; i < f->n; i++) {
		if (f->list[i].kind <= FILTER_OBJECT)
			filter_free(&f->list[i]);
		else
			f->list[o++] = f->list[i];
	}
	f->n = o;
	f->version++;
}

static bool matches(const struct filter *x, const struct profile *p, uint32_t fn)
{
	const struct function *f = &p->funcs[fn];
	uint32_t id = x->kind == FILTER_FILE     ? f->file
		      : x->kind == FILTER_OBJECT ? f->object
						 : f->name;

	return match_name(&x->re, profile_name(p, id));
}

/* Mark everything reachable from the marked functions, along calls or against them. */
static void spread(const struct profile *p, const struct callgraph *g, bool *mark, bool down,
		   const bool *blocked)
{
	uint32_t *queue = xmalloc_array(p->nfuncs, sizeof(uint32_t));
	size_t head = 0, tail = 0;
	const uint32_t *start = down ? g->out_start : g->in_start;
	const uint32_t *edge = down ? g->out_edge : g->in_edge;

	for (uint32_t f = 0; f < p->nfuncs; f++)
		if (mark[f])
			queue[tail++] = f;
	while (head < tail) {
		uint32_t f = queue[head++];

		for (uint32_t i = start[f]; i < start[f + 1]; i++) {
			const struct call_edge *e = &p->edges[edge[i]];
			uint32_t next = down ? e->callee : e->caller;

			if (!mark[next] && !(blocked && blocked[next])) {
				mark[next] = true;
				queue[tail++] = next;
			}
		}
	}
	free(queue);
}

/* Functions on a call path through a function that matches x. */
static void focus(const struct filter *x, const struct profile *p, const struct callgraph *g,
		  bool *keep)
{
	size_t n = p->nfuncs ? p->nfuncs : 1;
	bool *up = xcalloc(n, sizeof(bool)), *down = xcalloc(n, sizeof(bool));

	for (uint32_t f = 0; f < p->nfuncs; f++)
		up[f] = down[f] = matches(x, p, f);
	spread(p, g, up, false, NULL);
	spread(p, g, down, true, NULL);
	for (uint32_t f = 0; f < p->nfuncs; f++)
		keep[f] = keep[f] && (up[f] || down[f]);
	free(up);
	free(down);
}

/*
 * Drop the matching functions and those that only they lead to: what the
 * entry points still reach without them stays (and what no entry point
 * reached in the first place).
 */
static void ignore(const struct filter *x, const struct profile *p, const struct callgraph *g,
		   bool *keep)
{
	size_t n = p->nfuncs ? p->nfuncs : 1;
	bool *hit = xcalloc(n, sizeof(bool)), *before = xcalloc(n, sizeof(bool));
	bool *after = xcalloc(n, sizeof(bool));
	uint32_t *entry;
	size_t ne = graph_entry_points(p, g, &entry);

	for (uint32_t f = 0; f < p->nfuncs; f++)
		hit[f] = matches(x, p, f);
	for (size_t i = 0; i < ne; i++) {
		before[entry[i]] = true;
		after[entry[i]] = !hit[entry[i]];
	}
	spread(p, g, before, true, NULL);
	spread(p, g, after, true, hit);
	for (uint32_t f = 0; f < p->nfuncs; f++)
		keep[f] = keep[f] && !hit[f] && (after[f] || !before[f]);
	free(entry);
	free(hit);
	free(before);
	free(after);
}

bool filters_apply(const struct filters *f, const struct profile *p, const struct callgraph *g,
		   bool *keep)
{
	bool narrowed = false;

	for (uint32_t fn = 0; fn < p->nfuncs; fn++)
		keep[fn] = true;
	for (size_t i = 0; i < f->n; i++) {
		const struct filter *x = &f->list[i];

		if (x->kind == FILTER_HIDE)
			continue;
		narrowed = true;
		if (x->kind == FILTER_FOCUS)
			focus(x, p, g, keep);
		else if (x->kind == FILTER_IGNORE)
			ignore(x, p, g, keep);
		else
			for (uint32_t fn = 0; fn < p->nfuncs; fn++)
				keep[fn] = keep[fn] && matches(x, p, fn);
	}
	return narrowed;
}

enum filter_kind filters_kind(const char *cmd, const char **arg)
{
	if (!strcmp(cmd, "focus"))
		return FILTER_FOCUS;
	if (!strcmp(cmd, "ignore"))
		return FILTER_IGNORE;
	if (!strcmp(cmd, "hide"))
		return FILTER_HIDE;
	if (!strncmp(*arg, "file:", 5))
		return *arg += 5, FILTER_FILE;
	if (!strncmp(*arg, "object:", 7))
		return *arg += 7, FILTER_OBJECT;
	return FILTER_NAME;
}

bool filters_hidden(const struct filters *f, const struct profile *p, bool *hidden)
{
	bool any = false;

	for (size_t i = 0; i < f->n; i++)
		any |= f->list[i].kind == FILTER_HIDE;
	if (any)
		for (uint32_t fn = 0; fn < p->nfuncs; fn++)
			hidden[fn] = filters_hides(f, p, fn);
	return any;
}

bool filters_hides(const struct filters *f, const struct profile *p, uint32_t fn)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->list[i].kind == FILTER_HIDE && matches(&f->list[i], p, fn))
			return true;
	return false;
}

void filters_describe(const struct filters *f, char *buf, size_t size)
{
	static const char *const word[] = {
	    "filter", "filter file:", "filter object:", "focus", "ignore", "hide"};
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < f->n && o < size; i++)
		o += (size_t)snprintf(
		    buf + o, size - o, "%s%s%s%s", i ? " + " : "", word[f->list[i].kind],
		    f->list[i].kind == FILTER_FILE || f->list[i].kind == FILTER_OBJECT ? "" : " ",
		    f->list[i].pattern);
}
