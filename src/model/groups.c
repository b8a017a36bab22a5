/*
 * groups: functions by object, file, class or cycle (see groups.h). Each
 * function gets a key (a name id, a cycle, or its class as text); equal
 * keys are one group. Time: one pass over the functions and one over the
 * call edges, and a sort of the class keys.
 */
#include "ncgrind/model/groups.h"
#include "ncgrind/core/graph.h"
#include "ncgrind/core/events.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = {"none", "object", "file", "class", "cycle"};
_Static_assert(sizeof(kind_names) / sizeof(*kind_names) == GROUP_KINDS, "a name for each kind");

int groups_kind_parse(const char *word, enum group_kind *kind)
{
	for (int k = 0; k < GROUP_KINDS; k++)
		if (!strcmp(word, kind_names[k])) {
			*kind = (enum group_kind)k;
			return 0;
		}
	return -1;
}

const char *groups_kind_name(enum group_kind kind)
{
	return kind_names[kind];
}

/*
 * The name without its parameters and return type, then all before its
 * last "::", each at the top level (not inside <>, () or {}):
 * "long ns::A<int>::f(std::pair<int, int>) const" -> "ns::A<int>".
 */
struct span groups_class_of(struct span n)
{
	size_t end = n.len, start = 0, scope = 0;
	int depth = 0;

	for (size_t i = 0; i < n.len; i++) { /* the parameters: the first top-level '(' */
		char c = n.ptr[i];

		if (c == '<' || c == '{')
			depth++;
		else if ((c == '>' || c == '}') && depth > 0)
			depth--;
		else if (c == '(' && depth == 0 && i > 0) {
			end = i;
			break;
		}
	}
	depth = 0;
	for (size_t i = 0; i < end; i++) {
		char c = n.ptr[i];

		if (c == '<' || c == '(' || c == '{')
			depth++;
		else if ((c == '>' || c == ')' || c == '}') && depth > 0)
			depth--;
		else if (c == ' ' && depth == 0) /* a return type before the name */
			start = i + 1, scope = 0;
		else if (c == ':' && depth == 0 && i + 1 < end && n.ptr[i + 1] == ':')
			scope = i++;
	}
	if (!scope || scope <= start)
		return span_make(n.ptr, 0);
	return span_make(n.ptr + start, scope - start);
}

/* A function's key: a name id or a cycle (as a number), or its class (text). */
struct fkey {
	uint32_t fn;
	uint32_t id;
	struct span text;
};

static int cmp_fkey(const void *a, const void *b)
{
	const struct fkey *x = a, *y = b;
	size_t n = x->text.len < y->text.len ? x->text.len : y->text.len;
	int c;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	if ((c = memcmp(x->text.ptr, y->text.ptr, n)) != 0)
		return c;
	if (x->text.len != y->text.len)
		return x->text.len < y->text.len ? -1 : 1;
	return (x->fn > y->fn) - (x->fn < y->fn);
}

static struct fkey key_of(const struct profile *p, enum group_kind kind, uint32_t f)
{
	const struct function *fn = &p->funcs[f];
	struct fkey k = {f, 0, span_make("", 0)};

	switch (kind) {
	case GROUP_OBJECT:
		k.id = fn->object;
		break;
	case GROUP_FILE:
		k.id = fn->file;
		break;
	case GROUP_CYCLE:
		k.id = profile_cycle(p, f);
		break;
	case GROUP_CLASS:
		k.text = fn->name == NCG_NONE ? span_make("", 0)
					      : groups_class_of(profile_name(p, fn->name));
		break;
	case GROUP_NONE:
		break;
	}
	return k;
}

static char *span_dup(struct span s)
{
	char *c = xmalloc(s.len + 1);

	memcpy(c, s.ptr, s.len);
	c[s.len] = '\0';
	return c;
}

static char *group_name(const struct profile *p, enum group_kind kind, const struct fkey *k)
{
	char buf[64];
	struct span s;

	if (kind == GROUP_CYCLE) {
		if (!k->id)
			return xstrdup("(in no cycle)");
		snprintf(buf, sizeof(buf), "<cycle %u>", k->id);
		return xstrdup(buf);
	}
	if (kind == GROUP_CLASS)
		s = k->text;
	else
		s = k->id == NCG_NONE ? span_make("", 0) : profile_name(p, k->id);
	if (!s.len)
		return xstrdup(kind == GROUP_CLASS ? "(no class)" : "???");
	return span_dup(s);
}

static void add_costs(uint64_t *to, const struct profile *p, uint32_t f)
{
	for (uint32_t e = 0; e < p->nev; e++)
		u64_add_sat(&to[e], profile_self_at(p, f, e));
}

/*
 * Calls from a group to outside it: its inclusive cost, at most the total.
 * A call is its share of its caller (graph.h), as every list shows it: the
 * recorded cost of a call within recursion counts each level again.
 */
static void add_calls(struct groups *g, const struct profile *p)
{
	struct call_shares *shares = call_shares_new();

	for (uint32_t e = 0; e < p->nedges; e++) {
		uint32_t a = g->group_of[p->edges[e].caller], b = g->group_of[p->edges[e].callee];

		if (a == NCG_NONE || a == b || !profile_edge_counts(p, e))
			continue;
		for (uint32_t ev = 0; ev < p->nev; ev++)
			u64_add_sat(&g->v[a].incl[ev], call_shares_cost(shares, p, e, ev));
	}
	call_shares_free(shares);
	for (size_t i = 0; i < g->n; i++) {
		for (uint32_t ev = 0; ev < p->nev; ev++) {
			u64_add_sat(&g->v[i].incl[ev], g->v[i].self[ev]);
			if (g->v[i].incl[ev] > p->totals[ev])
				g->v[i].incl[ev] = p->totals[ev];
		}
		/* the inherited events of the group's own sums: a ratio is not summed */
		events_derive_row(p, g->v[i].self);
		events_derive_row(p, g->v[i].incl);
	}
}

void groups_build(struct groups *g, const struct profile *p, enum group_kind kind, const bool *keep)
{
	struct fkey *k = xmalloc_array(p->nfuncs ? p->nfuncs : 1, sizeof(*k));
	size_t n = 0, alloc = 0;

	memset(g, 0, sizeof(*g));
	g->kind = kind;
	g->nev = p->nev;
	if (kind == GROUP_NONE) {
		free(k);
		return;
	}
	g->next = xmalloc_array(p->nfuncs ? p->nfuncs : 1, sizeof(uint32_t));
	g->group_of = xmalloc_array(p->nfuncs ? p->nfuncs : 1, sizeof(uint32_t));
	memset(g->group_of, 0xff, (p->nfuncs ? p->nfuncs : 1) * sizeof(uint32_t));
	for (uint32_t f = 0; f < p->nfuncs; f++)
		if (profile_function_used(p, f) && (!keep || keep[f]))
			k[n++] = key_of(p, kind, f);
	if (n > 1)
		qsort(k, n, sizeof(*k), cmp_fkey);
	for (size_t i = 0; i < n; i++) {
		struct group *gr;

		if (!i || cmp_fkey(&(struct fkey){0, k[i - 1].id, k[i - 1].text},
				   &(struct fkey){0, k[i].id, k[i].text})) {
			ALLOC_GROW(g->v, g->n + 1, alloc);
			gr = &g->v[g->n++];
			gr->name = group_name(p, kind, &k[i]);
			gr->self = xcalloc(p->nev ? p->nev : 1, sizeof(uint64_t));
			gr->incl = xcalloc(p->nev ? p->nev : 1, sizeof(uint64_t));
			gr->nfuncs = 0;
			gr->first = NCG_NONE;
		}
		gr = &g->v[g->n - 1];
		/* chained in reverse key order: the group's functions by id, first last */
		g->next[k[i].fn] = gr->first;
		gr->first = k[i].fn;
		gr->nfuncs++;
		g->group_of[k[i].fn] = (uint32_t)(g->n - 1);
		add_costs(gr->self, p, k[i].fn);
	}
	free(k);
	add_calls(g, p);
}

void groups_release(struct groups *g)
{
	for (size_t i = 0; i < g->n; i++) {
		free(g->v[i].name);
		free(g->v[i].self);
		free(g->v[i].incl);
	}
	free(g->v);
	free(g->next);
	free(g->group_of);
	memset(g, 0, sizeof(*g));
}

/* How groups_order() sorts. */
struct group_order {
	const struct groups *g;
	uint32_t ev;
	bool incl, by_name;
};

static int cmp_group(const void *a, const void *b, void *ctx)
{
	const struct group_order *o = ctx;
	const struct group *x = &o->g->v[*(const size_t *)a], *y = &o->g->v[*(const size_t *)b];
	uint64_t cx = o->incl ? x->incl[o->ev] : x->self[o->ev],
		 cy = o->incl ? y->incl[o->ev] : y->self[o->ev];
	int c = strcmp(x->name, y->name);

	if (!o->by_name && cx != cy)
		return cx > cy ? -1 : 1;
	return c ? c
		 : (*(const size_t *)a > *(const size_t *)b) -
		       (*(const size_t *)a < *(const size_t *)b);
}

size_t *groups_order(const struct groups *g, uint32_t ev, bool incl, bool by_name)
{
	size_t *idx = xmalloc_array(g->n ? g->n : 1, sizeof(size_t));

	for (size_t i = 0; i < g->n; i++)
		idx[i] = i;
	sort_with(idx, g->n, sizeof(size_t), cmp_group,
		  &(struct group_order){g, ev < g->nev ? ev : 0, incl, by_name});
	return idx;
}
