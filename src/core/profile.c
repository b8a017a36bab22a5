/*
 * profile: the index of functions, call edges and events, and the work done
 * once after the pass: totals, inherited events, summary/totals checks and
 * (through graph.c) cycles and inclusive costs.
 */
#define _POSIX_C_SOURCE 200809L
#include "ncgrind/core/profile.h"
#include "ncgrind/core/events.h"
#include "ncgrind/core/graph.h"
#include "ncgrind/core/parse.h"
#include "ncgrind/core/report.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

void profile_init(struct profile *p, const char *path)
{
	memset(p, 0, sizeof(*p));
	p->path = path;
	p->demangled = xcalloc(1, sizeof(*p->demangled));
	names_init(&p->names);
	htab_init(&p->fn_index);
	htab_init(&p->edge_index);
	htab_init(&p->ev_index);
}

struct all_costs;
static void all_costs_free(const struct profile *p, struct all_costs *a);

void profile_free(const struct profile *p, void *a)
{
	const char *c = a, *base = p->cache_base;

	/*
	 * (<=: an empty section may end the file, and its pointer is the
	 * mapping's end, which no allocation can be)
	 */
	if (base && c >= base && c <= base + p->cache_len)
		return; /* in the kept index's mapping */
	free(a);
}

void profile_part_release(struct part *pt)
{
	free(pt->evmap);
	free(pt->sum);
	free(pt->summary);
	free(pt->totals);
	for (int k = 0; pt->ids && k < 3; k++)
		idtab_release(&pt->ids[k]);
	free(pt->ids);
	pt->ids = NULL;
	free(pt->changes);
}

struct idtab *profile_part_ids(struct part *pt, int kind)
{
	if (!pt->ids) {
		pt->ids = xmalloc_array(3, sizeof(*pt->ids));
		for (int k = 0; k < 3; k++)
			idtab_init(&pt->ids[k]);
	}
	return &pt->ids[kind];
}

void profile_cells_release(const struct profile *p, struct cost_cells *c)
{
	profile_free(p, c->cell);
	profile_free(p, c->big);
	memset(c, 0, sizeof(*c));
}

void profile_release(struct profile *p)
{
	if (p->demangled)
		demangle_release(*p->demangled);
	free(p->demangled);
	for (size_t i = 0; i < p->nparts; i++)
		profile_part_release(&p->parts[i]);
	for (uint32_t i = 0; i < p->nev; i++) {
		free(p->events[i].terms);
		free(p->events[i].den);
		free(p->events[i].formula_text);
	}
	free(p->events);
	free(p->evspecs);
	free(p->parts);
	profile_free(p, p->funcs);
	free(p->self);
	free(p->incl);
	free(p->incl_flat);
	profile_free(p, p->fn_rank);
	profile_free(p, p->fn_scc);
	profile_free(p, p->self_order);
	profile_free(p, p->edges);
	free(p->edge_cost);
	free(p->edge_lo);
	free(p->edge_wide);
	free(p->edge_hi);
	profile_free(p, p->blocks);
	free(p->kept);
	profile_free(p, p->block_ctx);
	profile_free(p, p->totals);
	profile_free(p, p->cycle_incl);
	free(p->stats.thread_cpu);
	free(p->part_sel);
	free(p->edge_sel);
	all_costs_free(p, p->all);
	profile_cells_release(p, &p->self_c);
	profile_cells_release(p, &p->incl_c);
	profile_cells_release(p, &p->edge_c);
	for (size_t i = 0; i < p->nsrc; i++) {
		for (int k = 0; k < 3; k++)
			idtab_release(&p->src[i].shared_ids[k]);
		map_release(&p->src[i].map);
		free(p->src[i].path);
	}
	free(p->src);
	for (size_t i = 0; i < p->ndropped; i++)
		free(p->dropped[i]);
	free(p->dropped);
	htab_release(&p->fn_index);
	htab_release(&p->edge_index);
	htab_release(&p->ev_index);
	names_release(&p->names);
	if (p->cache_base)
		munmap(p->cache_base, p->cache_len);
	memset(p, 0, sizeof(*p));
}

void profile_spare_take(struct profile *p, struct profile_spare *s)
{
#define TAKE(type, a, n)                                                                           \
	p->a = s->a;                                                                               \
	p->n = s->n;
	PROFILE_SPARE_ARRAYS(TAKE)
#undef TAKE
	memset(s, 0, sizeof(*s));
}

void profile_spare_release(struct profile_spare *s)
{
#define FREE(type, a, n) free(s->a);
	PROFILE_SPARE_ARRAYS(FREE)
#undef FREE
	memset(s, 0, sizeof(*s));
}

void profile_release_keeping(struct profile *p, struct profile_spare *s)
{
	profile_spare_release(s);
#define KEEP(type, a, n)                                                                           \
	s->a = p->a;                                                                               \
	s->n = p->n;                                                                               \
	p->a = NULL;
	PROFILE_SPARE_ARRAYS(KEEP)
#undef KEEP
	profile_release(p);
}

uint32_t profile_add_source(struct profile *p, const char *path)
{
	struct source *s;

	p->src = xrealloc(p->src, (p->nsrc + 1) * sizeof(p->src[0]));
	s = &p->src[p->nsrc];
	memset(s, 0, sizeof(*s));
	s->path = xstrdup(path);
	s->map.guard = -1;
	if (!p->path)
		p->path = s->path;
	return (uint32_t)p->nsrc++;
}

void profile_drop_source(struct profile *p, uint32_t s)
{
	struct source *src = &p->src[s];

	map_release(&src->map);
	p->dropped = xrealloc(p->dropped, (p->ndropped + 1) * sizeof(p->dropped[0]));
	p->dropped[p->ndropped++] = src->path;
	memmove(src, src + 1, (p->nsrc - s - 1) * sizeof(*src));
	p->nsrc--;
	if (p->nsrc)
		p->path = p->src[0].path;
}

bool profile_changed(const struct profile *p)
{
	for (size_t i = 0; i < p->nsrc; i++)
		if (map_changed(&p->src[i].map))
			return true;
	return false;
}

bool profile_outdated(const struct profile *p)
{
	for (size_t i = 0; i < p->nsrc; i++)
		if (map_outdated(&p->src[i].map, p->src[i].path))
			return true;
	return false;
}

/* Every span keep_span() is given, in one walk: counted, then copied. */
struct keeper {
	const struct profile *p;
	size_t bytes;
	char *to;    /* NULL while counting */
	size_t last; /* the file the last span was in: the next is most often there too */
};

static bool in_map(const struct map *m, struct span s)
{
	return m->mapped && s.ptr >= m->data && s.ptr < m->data + m->size;
}

/* Whether s points into a mapped file (else it is ours already). */
static bool in_mapping(struct keeper *k, struct span s)
{
	const struct profile *p = k->p;

	if (k->last < p->nsrc && in_map(&p->src[k->last].map, s))
		return true;
	for (size_t i = 0; i < p->nsrc; i++)
		if (in_map(&p->src[i].map, s)) {
			k->last = i;
			return true;
		}
	return false;
}

static void keep_span(struct keeper *k, struct span *s)
{
	if (!s->len || !in_mapping(k, *s))
		return;
	if (k->to) {
		memcpy(k->to, s->ptr, s->len);
		s->ptr = k->to;
		k->to += s->len;
	} else {
		k->bytes += s->len;
	}
}

static void keep_all(struct profile *p, struct keeper *k)
{
	for (size_t i = 0; i < p->names.nr; i++)
		keep_span(k, &p->names.spans[i]);
	for (uint32_t e = 0; e < p->nev; e++) {
		keep_span(k, &p->events[e].name);
		keep_span(k, &p->events[e].long_name);
		keep_span(k, &p->events[e].formula);
	}
	for (size_t i = 0; i < p->nparts; i++) {
		struct part *pt = &p->parts[i];

		keep_span(k, &pt->cmd);
		keep_span(k, &pt->creator);
		keep_span(k, &pt->trigger);
		keep_span(k, &pt->timerange);
	}
}

void profile_keep_names(struct profile *p)
{
	struct keeper k = {.p = p};

	if (p->kept)
		return;
	keep_all(p, &k);
	if (!k.bytes)
		return;
	p->kept = xmalloc(k.bytes);
	k.to = p->kept;
	keep_all(p, &k);
}

uint64_t profile_bytes(const struct profile *p)
{
	uint64_t n = 0;

	for (size_t i = 0; i < p->nsrc; i++)
		n += p->src[i].map.file_size;
	return n;
}

static uint64_t fn_hash(uint32_t object, uint32_t file, uint32_t name)
{
	return hash_u64(((uint64_t)object << 32 | file) ^ hash_u64(name));
}

void profile_function_prefetch(const struct profile *p, uint32_t object, uint32_t file,
			       uint32_t name)
{
	htab_prefetch(&p->fn_index, fn_hash(object, file, name));
}

uint32_t profile_find_function(const struct profile *p, uint32_t object, uint32_t file,
			       uint32_t name)
{
	uint64_t h = fn_hash(object, file, name);
	size_t it = 0;
	uint32_t f;

	while ((f = htab_next(&p->fn_index, h, &it)) != NCG_NONE) {
		const struct function *fn = &p->funcs[f];

		if (fn->name == name && fn->file == file && fn->object == object)
			return f;
	}
	return NCG_NONE;
}

/* Grow a nev-strided array by one zeroed row; alloc counts values. */
static uint64_t *add_row(uint64_t *rows, size_t nrows, uint32_t nev, size_t *alloc)
{
	size_t need = st_mult(nrows + 1, nev);

	if (!nev)
		return rows; /* no values yet: the rows are made when a line gives some */
	ALLOC_GROW(rows, need, *alloc);
	memset(rows + nrows * nev, 0, nev * sizeof(uint64_t));
	return rows;
}

uint32_t profile_function(struct profile *p, uint32_t object, uint32_t file, uint32_t name)
{
	uint32_t f = profile_find_function(p, object, file, name);
	struct function *fn;

	if (f != NCG_NONE)
		return f;
	if (p->nfuncs >= NCG_NONE - 1)
		die("too many functions");
	ALLOC_GROW(p->funcs, p->nfuncs + 1, p->funcs_alloc);
	p->self = add_row(p->self, p->nfuncs, p->stride, &p->self_alloc);
	f = (uint32_t)p->nfuncs++;
	fn = &p->funcs[f];
	memset(fn, 0, sizeof(*fn));
	fn->name = name;
	fn->file = file;
	fn->object = object;
	fn->first_block = fn->last_block = NCG_NONE;
	htab_insert(&p->fn_index, fn_hash(object, file, name), f);
	return f;
}

static uint64_t edge_hash(uint32_t caller, uint32_t callee)
{
	return hash_u64((uint64_t)caller << 32 | callee);
}

void profile_edge_prefetch(const struct profile *p, uint32_t caller, uint32_t callee)
{
	htab_prefetch(&p->edge_index, edge_hash(caller, callee));
	__builtin_prefetch(&p->funcs[callee]);
}

/* The edge caller -> callee through the call index, or NCG_NONE. */
static uint32_t edge_find(const struct profile *p, uint32_t caller, uint32_t callee)
{
	size_t it = 0;
	uint32_t e;

	while ((e = htab_next(&p->edge_index, edge_hash(caller, callee), &it)) != NCG_NONE)
		if (p->edges[e].caller == caller && p->edges[e].callee == callee)
			return e;
	return NCG_NONE;
}

uint32_t profile_edge(struct profile *p, uint32_t caller, uint32_t callee)
{
	uint32_t e = edge_find(p, caller, callee);

	if (e != NCG_NONE)
		return e;
	e = profile_edge_new(p, caller, callee);
	htab_insert(&p->edge_index, edge_hash(caller, callee), e);
	return e;
}

uint32_t profile_edge_new(struct profile *p, uint32_t caller, uint32_t callee)
{
	uint32_t e;

	if (p->nedges >= NCG_NONE - 1)
		die("too many call edges");
	ALLOC_GROW(p->edges, p->nedges + 1, p->edges_alloc);
	ALLOC_GROW(p->edge_wide, p->nedges + 1, p->edge_wide_alloc);
	p->edge_wide[p->nedges] = 0;
	if (p->stride) {
		ALLOC_GROW(p->edge_lo, st_mult(p->nedges + 1, p->stride), p->edge_lo_alloc);
		memset(p->edge_lo + p->nedges * p->stride, 0, p->stride * sizeof(uint32_t));
	}
	e = (uint32_t)p->nedges++;
	p->edges[e].caller = caller;
	p->edges[e].callee = callee;
	p->edges[e].count = 0;
	return e;
}

uint32_t profile_find_event(const struct profile *p, struct span name)
{
	size_t it = 0;
	uint32_t e;

	while ((e = htab_next(&p->ev_index, hash_bytes(name.ptr, name.len), &it)) != NCG_NONE)
		if (span_eq(p->events[e].name, name))
			return e;
	return NCG_NONE;
}

void profile_index_event(struct profile *p, uint32_t ev)
{
	htab_insert(&p->ev_index, hash_bytes(p->events[ev].name.ptr, p->events[ev].name.len), ev);
}

uint32_t profile_find_event_str(const struct profile *p, const char *name)
{
	return profile_find_event(p, span_make(name, strlen(name)));
}

/*
 * Copy nrows rows of stride `from` into a new array of stride `to` (zero-
 * filled), of values of width bytes: the 64-bit rows, or the 32-bit call cells.
 */
static void *restride(void *rows, size_t nrows, uint32_t from, uint32_t to, size_t width,
		      size_t *alloc)
{
	char *n;

	if (rows && from <= to && *alloc >= st_mult(nrows ? nrows : 1, to)) {
		/* in its own room (a spare's: profile_spare_take()), the last row first */
		n = rows;
		for (size_t r = nrows; r-- > 0;) {
			memmove(n + r * to * width, n + r * from * width, from * width);
			memset(n + (r * to + from) * width, 0, (to - from) * width);
		}
		return rows;
	}
	n = xcalloc(st_mult(nrows ? nrows : 1, to), width);

	for (size_t r = 0; from && r < nrows; r++)
		memcpy(n + r * to * width, (char *)rows + r * from * width,
		       (from < to ? from : to) * width);
	free(rows);
	*alloc = st_mult(nrows ? nrows : 1, to);
	return n;
}

/* A new raw event; the rows get its column when a cost line gives it a value. */
uint32_t profile_add_event(struct profile *p, struct span name)
{
	ALLOC_GROW(p->events, p->nev + 1, p->ev_alloc);
	memset(&p->events[p->nev], 0, sizeof(p->events[0]));
	p->events[p->nev].name = name;
	profile_index_event(p, p->nev);
	p->nev++;
	p->nraw = p->nev;
	return p->nev - 1;
}

static void set_stride(struct profile *p, uint32_t to)
{
	p->self = restride(p->self, p->nfuncs, p->stride, to, sizeof(uint64_t), &p->self_alloc);
	p->edge_lo =
	    restride(p->edge_lo, p->nedges, p->stride, to, sizeof(uint32_t), &p->edge_lo_alloc);
	p->edge_hi =
	    restride(p->edge_hi, p->nedge_hi, p->stride, to, sizeof(uint64_t), &p->edge_hi_alloc);
	p->stride = to;
}

bool profile_edge_add_wide(struct profile *p, uint32_t e, uint32_t ev, uint64_t v)
{
	size_t row = p->nedge_hi++;
	uint64_t *hi;

	ALLOC_GROW(p->edge_hi, st_mult(p->nedge_hi, p->stride), p->edge_hi_alloc);
	hi = p->edge_hi + row * p->stride;
	for (uint32_t i = 0; i < p->stride; i++)
		hi[i] = p->edge_lo[(size_t)e * p->stride + i];
	p->edge_wide[e] = (uint32_t)row + 1;
	return u64_add_sat(&hi[ev], v);
}

#define ADD_ROW_MAX 64 /* events: a wider row is added value by value */

bool profile_edge_add_row(struct profile *p, uint32_t g, const struct profile *l, uint32_t e)
{
	uint32_t *dst, sum[ADD_ROW_MAX];
	const uint32_t *src;
	uint64_t top = 0;

	if (!l->stride) /* (no rows at all: a profile with no events yet) */
		return true;
	if (l->stride > ADD_ROW_MAX || l->edge_cost || l->edge_wide[e] || p->edge_wide[g])
		return false;
	dst = p->edge_lo + (size_t)g * p->stride;
	src = l->edge_lo + (size_t)e * l->stride;
	for (uint32_t i = 0; i < l->stride; i++) {
		uint64_t s = (uint64_t)dst[i] + src[i];

		top |= s + 1; /* (a sum of COST_BIG or more carries into bit 32) */
		sum[i] = (uint32_t)s;
	}
	if (top >> 32)
		return false;
	memcpy(dst, sum, l->stride * sizeof(uint32_t));
	return true;
}

void profile_widen(struct profile *p, uint32_t cols)
{
	uint32_t to = p->stride * 2 > cols ? p->stride * 2 : cols; /* amortized */

	if (cols > p->stride)
		set_stride(p, to < p->nev ? to : p->nev);
}

/*
 * The rows get a column for every event, unless that would take far more
 * memory than the file: then the events no cost line gives a value to (all
 * zero) are dropped, with a warning, rather than 10,000 columns of zeros.
 */
/* 1 + the last column of the self and call rows with a value (at least 1). */
static uint32_t last_column(const struct profile *p)
{
	uint32_t last = 1;

	for (size_t f = 0; f < p->nfuncs; f++)
		for (uint32_t e = p->stride; e > last; e--)
			if (profile_self_at(p, (uint32_t)f, e - 1)) {
				last = e;
				break;
			}
	for (size_t c = 0; c < p->nedges; c++)
		for (uint32_t e = p->stride; e > last; e--)
			if (profile_edge_at(p, (uint32_t)c, e - 1)) {
				last = e;
				break;
			}
	return last < p->stride ? last : p->stride;
}

static void finish_stride(struct profile *p, struct diag *d)
{
	size_t rows = p->nfuncs * 3 + p->nedges; /* self, incl, incl_flat; call rows */
	size_t budget = 4 * (size_t)profile_bytes(p) + ((size_t)256 << 20);
	uint32_t keep;

	if (p->stride == p->nev)
		return;
	if (rows <= budget / sizeof(uint64_t) / p->nev) {
		set_stride(p, p->nev);
		return;
	}
	/* the columns past the last one with a value are zeros (however wide the rows grew) */
	keep = last_column(p);
	set_stride(p, keep);
	diag_add(d, DIAG_WARNING, 0,
		 "%u of the %u event%s %s no cost in any line: not shown (their columns of "
		 "zeros would take %zu MiB for a file of %zu KiB)",
		 p->nev - keep, p->nev, p->nev == 1 ? "" : "s", p->nev - keep == 1 ? "has" : "have",
		 rows * (p->nev - keep) * sizeof(uint64_t) >> 20, (size_t)(profile_bytes(p) >> 10));
	p->nev = p->nraw = keep;
	htab_release(&p->ev_index);
	for (uint32_t e = 0; e < keep; e++)
		profile_index_event(p, e);
	for (size_t i = 0; i < p->nparts; i++) {
		struct part *pt = &p->parts[i];

		pt->nsum = pt->nsum < keep ? pt->nsum : keep;
		for (uint32_t k = 0; k < pt->nev; k++)
			if (pt->evmap[k] >= keep)
				pt->evmap[k] =
				    NCG_NONE; /* never given a value: no line reaches it */
	}
}

static void sum_totals(struct profile *p, struct diag *d)
{
	bool ok = true;

	p->totals = xcalloc(p->nev ? p->nev : 1, sizeof(uint64_t));
	for (size_t f = 0; f < p->nfuncs; f++)
		for (uint32_t e = 0; e < p->nev; e++)
			ok &= u64_add_sat(&p->totals[e], profile_self_at(p, (uint32_t)f, e));
	if (!ok)
		diag_add(d, DIAG_ERROR, 0,
			 "the total cost exceeds 64 bits; it is shown as %" PRIu64, UINT64_MAX);
	ok = true;
	for (size_t e = 0; e < p->nedges; e++)
		ok &= u64_add_sat(&p->funcs[p->edges[e].callee].calls, p->edges[e].count);
	if (!ok)
		diag_add(
		    d, DIAG_ERROR, 0,
		    "the number of calls of a function exceeds 64 bits; it is shown as %" PRIu64,
		    UINT64_MAX);
}

static void check_given(struct profile *p, struct diag *d, const struct part *pt,
			const uint64_t *given, uint32_t n, uint64_t line, bool exact)
{
	for (uint32_t i = 0; i < n; i++) {
		uint32_t ev = pt->evmap[i];
		uint64_t sum;
		struct span name;

		if (ev == NCG_NONE)
			continue; /* dropped: no cost anywhere */
		sum = ev < pt->nsum ? pt->sum[ev] : 0;
		name = p->events[ev].name;
		if (exact ? given[i] != sum : given[i] < sum)
			diag_add(d, DIAG_WARNING, line,
				 "%s says %.*s = %" PRIu64 " but the cost lines add up to %" PRIu64
				 "; using the sum",
				 exact ? "totals:" : "summary:",
				 (int)(name.len > 64 ? 64 : name.len), name.ptr, given[i], sum);
	}
}

/*
 * totals: must equal the sum of the cost lines; summary: may be larger (the
 * spec allows cost the lines do not show), but never smaller.
 */
static void check_parts(struct profile *p, struct diag *d)
{
	for (size_t i = 0; i < p->nparts; i++) {
		const struct part *pt = &p->parts[i];

		if (pt->totals)
			check_given(p, d, pt, pt->totals, pt->ntotals, pt->totals_line, true);
		if (pt->summary)
			check_given(p, d, pt, pt->summary, pt->nsummary, pt->summary_line, false);
	}
}

uint32_t profile_part_id(const struct profile *p, const struct part *pt, int kind, uint64_t id)
{
	if (pt->ids_shared)
		return idtab_get(&p->src[pt->src].shared_ids[kind], id);
	return profile_part_own_id(pt, kind, id);
}

/* Whether every id the part defined has the same name in shared_ids, or none there. */
static bool ids_agree(const struct profile *p, const struct part *pt)
{
	uint64_t id;
	uint32_t v, old;

	if (pt->nchanges)
		return false;
	for (int k = 0; pt->ids && k < 3; k++)
		for (size_t i = 0; idtab_each(&pt->ids[k], i, &id, &v); i++) {
			if (v == NCG_NONE)
				continue;
			if (v >= NCG_NONE - 2) /* used before any definition: the part's own */
				return false;
			old = idtab_get(&p->src[pt->src].shared_ids[k], id);
			if (old != NCG_NONE && old != v)
				return false;
		}
	return true;
}

bool profile_share_ids(struct profile *p, struct part *pt)
{
	uint64_t id;
	uint32_t v;

	if (!ids_agree(p, pt)) {
		for (int k = 0; pt->ids && k < 3; k++)
			idtab_seal(&pt->ids[k]); /* its own for good: never walked again */
		return false;
	}
	for (int k = 0; pt->ids && k < 3; k++) {
		for (size_t i = 0; idtab_each(&pt->ids[k], i, &id, &v); i++)
			if (v != NCG_NONE)
				idtab_add(&p->src[pt->src].shared_ids[k], id,
					  v); /* (agrees if there) */
		idtab_release(&pt->ids[k]);
	}
	free(pt->ids);
	pt->ids = NULL;
	pt->ids_shared = true;
	return true;
}

static void default_context(const struct profile *p, uint32_t b, struct block_ctx *c)
{
	const struct block *blk = &p->blocks[b];
	const struct function *f = &p->funcs[blk->fn];

	*c = (struct block_ctx){
	    .block = b,
	    .object = f->object,
	    .fn_file = f->file,
	    .file = f->file,
	    .cobject = NCG_NONE,
	    .cfile = NCG_NONE,
	    .jfile = NCG_NONE,
	    .jfn = NCG_NONE,
	    .pos_set = true,
	    /* a long one always has a block_ctx: never the default */
	    .end = blk->len == BLOCK_LONG ? UINT64_MAX : blk->start + blk->len,
	    .line = blk->line == BLOCK_LONG ? UINT64_MAX : blk->line,
	};
}

void profile_link_block(struct profile *p, uint32_t b)
{
	struct function *f = &p->funcs[p->blocks[b].fn];

	/*
	 * At the tail, not the head: the tail is the function's latest block,
	 * still in cache, while reversing the lists afterwards walked every
	 * block at random (8% of a one-job index of 4,000 parts).
	 */
	p->blocks[b].next = NCG_NONE;
	if (f->last_block == NCG_NONE)
		f->first_block = b;
	else
		p->blocks[f->last_block].next = b;
	f->last_block = b;
	f->nblocks++;
}

void profile_block_context(const struct profile *p, uint32_t b, struct block_ctx *out)
{
	size_t lo = 0, hi = p->nblock_ctx;

	if (!(p->blocks[b].part & BLOCK_HAS_CTX)) {
		default_context(p, b, out);
		return;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->block_ctx[mid].block < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	*out = p->block_ctx[lo];
}

/* A long block's whole end and line are in its context only. */
static struct block_ctx context_of(const struct profile *p, uint32_t b)
{
	struct block_ctx c;

	profile_block_context(p, b, &c);
	return c;
}

uint64_t profile_block_end(const struct profile *p, uint32_t b)
{
	const struct block *blk = &p->blocks[b];

	return blk->len != BLOCK_LONG ? blk->start + blk->len : context_of(p, b).end;
}

uint64_t profile_block_line(const struct profile *p, uint32_t b)
{
	const struct block *blk = &p->blocks[b];

	return blk->line != BLOCK_LONG ? blk->line : context_of(p, b).line;
}

void profile_set_block_context(struct profile *p, uint32_t b, const struct block_ctx *c)
{
	struct block_ctx d;

	default_context(p, b, &d);
	if (c->object == d.object && c->fn_file == d.fn_file && c->file == d.file &&
	    c->cobject == d.cobject && c->cfile == d.cfile && c->jfile == d.jfile &&
	    c->jfn == d.jfn && c->pos_set == d.pos_set && !memcmp(c->pos, d.pos, sizeof(d.pos)) &&
	    c->end == d.end && c->line == d.line)
		return;
	ALLOC_GROW(p->block_ctx, p->nblock_ctx + 1, p->block_ctx_alloc);
	p->block_ctx[p->nblock_ctx] = *c;
	p->block_ctx[p->nblock_ctx++].block = b;
	p->blocks[b].part |= BLOCK_HAS_CTX;
}

size_t profile_memory(const struct profile *p)
{
	size_t n = 0, u64 = sizeof(uint64_t), ev = p->nev;

	n += p->names.alloc * sizeof(struct span) +
	     (p->names.index.mask + 1) * sizeof(struct htab_slot);
	n += p->funcs_alloc * sizeof(struct function) + (p->incl_flat ? p->nfuncs * ev * u64 : 0);
	n += (p->fn_rank ? p->nfuncs * sizeof(uint32_t) : 0) +
	     (p->fn_scc ? p->nfuncs * sizeof(uint32_t) : 0);
	n += p->edges_alloc * sizeof(struct call_edge);
	if (p->compact) /* 32-bit cells, and the values that needed more */
		n += (p->nfuncs * p->ncell * 2 + p->nedges * p->ncell) * sizeof(uint32_t) +
		     (p->self_c.nbig + p->incl_c.nbig + p->edge_c.nbig) * sizeof(struct cost_big);
	else
		n += (p->nfuncs * ev * 2 + p->nedges * ev) * u64;
	n += (p->fn_index.mask + 1 + p->edge_index.mask + 1) * sizeof(struct htab_slot);
	n += p->blocks_alloc * sizeof(struct block) + p->block_ctx_alloc * sizeof(struct block_ctx);
	for (size_t i = 0; i < p->nparts; i++)
		for (int k = 0; k < 3; k++)
			n += p->parts[i].ids ? idtab_bytes(&p->parts[i].ids[k]) : 0;
	for (size_t i = 0; i < p->nsrc; i++)
		for (int k = 0; k < 3; k++)
			n += idtab_bytes(&p->src[i].shared_ids[k]);
	return n;
}

/*
 * Valgrind's outermost call can cost a few instructions more than the cost
 * lines hold; its summary: line counts them too. An inclusive cost above the
 * total is an inconsistency only when summary: does not cover it either.
 */
static void check_excess(const struct profile *p, struct diag *d, const uint64_t *excess)
{
	for (uint32_t ev = 0; ev < p->nev; ev++) {
		uint64_t summary = 0;
		bool all = p->nparts > 0;

		if (!excess[ev])
			continue;
		for (size_t i = 0; i < p->nparts; i++) {
			const struct part *pt = &p->parts[i];
			uint32_t k;

			for (k = 0; k < pt->nsummary && pt->evmap[k] != ev; k++)
				;
			if (k < pt->nsummary)
				u64_add_sat(&summary, pt->summary[k]);
			else
				all = false;
		}
		if (all && summary >= p->totals[ev] && excess[ev] <= summary - p->totals[ev])
			continue;
		diag_add(d, DIAG_WARNING, 0,
			 "calls cost more %.*s than the whole profile (by up to %" PRIu64
			 "); inclusive costs are capped at the total",
			 (int)(p->events[ev].name.len > 64 ? 64 : p->events[ev].name.len),
			 p->events[ev].name.ptr, excess[ev]);
	}
}

void profile_set_cycles(struct profile *p, bool on)
{
	if (!on && !p->incl_flat)
		graph_inclusive_flat(p);
	p->no_cycles = !on;
}

/* realloc to n elements of size sz (at least one), and say so in *alloc */
static void *fit(void *a, size_t n, size_t sz, size_t *alloc)
{
	if (alloc)
		*alloc = n ? n : 1;
	return xrealloc(a, st_mult(n ? n : 1, sz));
}

/*
 * The arrays grew by half again when full (ALLOC_GROW): once the profile is
 * complete they shrink to what they hold, and the pages past it go back.
 */
static void fit_arrays(struct profile *p)
{
	for (int k = 0; k < 3; k++) {
		for (size_t i = 0; i < p->nsrc; i++)
			idtab_seal(&p->src[i].shared_ids[k]);
		for (size_t i = 0; i < p->nparts; i++)
			if (p->parts[i].ids)
				idtab_seal(&p->parts[i].ids[k]);
	}
	p->funcs = fit(p->funcs, p->nfuncs, sizeof(p->funcs[0]), &p->funcs_alloc);
	p->edges = fit(p->edges, p->nedges, sizeof(p->edges[0]), &p->edges_alloc);
	p->blocks = fit(p->blocks, p->nblocks, sizeof(p->blocks[0]), &p->blocks_alloc);
	p->block_ctx =
	    fit(p->block_ctx, p->nblock_ctx, sizeof(p->block_ctx[0]), &p->block_ctx_alloc);
	p->parts = fit(p->parts, p->nparts, sizeof(p->parts[0]), &p->parts_alloc);
	p->names.spans =
	    fit(p->names.spans, p->names.nr, sizeof(p->names.spans[0]), &p->names.alloc);
	if (p->self)
		p->self =
		    fit(p->self, st_mult(p->nfuncs, p->stride), sizeof(uint64_t), &p->self_alloc);
	if (p->edge_cost)
		p->edge_cost = fit(p->edge_cost, st_mult(p->nedges, p->stride), sizeof(uint64_t),
				   &p->edge_cost_alloc);
	if (p->edge_lo)
		p->edge_lo = fit(p->edge_lo, st_mult(p->nedges, p->stride), sizeof(uint32_t),
				 &p->edge_lo_alloc);
}

/* The first entry of the big list at or after cell `at` (the list is in cell order). */
static size_t big_from(const struct cost_cells *c, size_t at)
{
	size_t lo = 0, hi = c->nbig;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->big[mid].at < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * A row's big values follow each other in the big list: one search finds
 * the first, the others are the next entries (an inclusive row of a long
 * run is mostly big values: a search for each was a fifth of a report's
 * rows on a 5 GiB profile).
 */
void cost_cells_row(const struct cost_cells *c, size_t row, uint32_t width, uint64_t *out)
{
	const uint32_t *cell = c->cell + row * width;
	size_t b = SIZE_MAX;
	uint32_t any_big = 0;

	/* most rows have no big value: one pass without a branch a cell */
	for (uint32_t e = 0; e < width; e++) {
		out[e] = cell[e];
		any_big |= cell[e] == COST_BIG;
	}
	if (!any_big)
		return;
	for (uint32_t e = 0; e < width; e++) {
		size_t at = row * width + e;

		if (cell[e] != COST_BIG)
			continue;
		if (b == SIZE_MAX)
			b = big_from(c, at);
		while (b < c->nbig && c->big[b].at < at)
			b++;
		if (b < c->nbig && c->big[b].at == at)
			out[e] = c->big[b].value;
	}
}

void cost_cells_top(const struct cost_cells *c, size_t nrows, uint32_t width, uint64_t *top)
{
	for (size_t r = 0; c->cell && r < nrows; r++)
		for (uint32_t e = 0; e < width; e++) {
			uint32_t v = c->cell[r * width + e];

			top[e] = v != COST_BIG && v > top[e] ? v : top[e];
		}
	for (size_t b = 0; width && b < c->nbig; b++) /* (the big values: in no cell) */
		if (c->big[b].value > top[c->big[b].at % width])
			top[c->big[b].at % width] = c->big[b].value;
}

/* The cell of value v at `at`: v, or COST_BIG with v in the big list (kept in cell order). */
static uint32_t cells_put(struct cost_cells *c, size_t at, uint64_t v, size_t *alloc)
{
	if (v < COST_BIG)
		return (uint32_t)v;
	ALLOC_GROW(c->big, c->nbig + 1, *alloc);
	c->big[c->nbig++] = (struct cost_big){at, v};
	return COST_BIG;
}

/* The big list down to its size, once every cell is put. */
static void cells_fit_big(struct cost_cells *c)
{
	if (c->nbig)
		c->big = xrealloc(c->big, c->nbig * sizeof(c->big[0]));
}

uint64_t cost_cells_big(const struct cost_cells *c, size_t at)
{
	size_t b = big_from(c, at);

	return b < c->nbig && c->big[b].at == at ? c->big[b].value : COST_BIG;
}

/*
 * n 64-bit values into cells, in place: cell i is written over bytes 4i..
 * of the array, which value i/2 held and was read from before, so that no
 * second array is ever held beside the first (a 1 GiB profile's call rows
 * are 62 MB); the array then shrinks to its cells (for an array of pages
 * of its own, mremap gives the rest back without a copy). memcpy: the two
 * widths of one array, with no aliasing rule broken.
 */
static void compact_rows(struct cost_cells *c, uint64_t **rows, size_t n)
{
	char *a = (char *)*rows;
	size_t alloc = 0;

	*rows = NULL;
	if (!a || !n) {
		free(a);
		c->cell = xcalloc(n ? n : 1, sizeof(uint32_t));
		return;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t v;
		uint32_t cell;

		memcpy(&v, a + i * sizeof(v), sizeof(v));
		cell = cells_put(c, i, v, &alloc);
		memcpy(a + i * sizeof(cell), &cell, sizeof(cell));
	}
	cells_fit_big(c);
	c->cell = xrealloc(a, n * sizeof(uint32_t));
}

/*
 * The call rows of the parse (profile_edge_add) into cells: the 32-bit
 * ones are cells already, where they lie; each 64-bit row puts its values
 * in, those that do not fit going to the big list (in cell order, as the
 * rows come in edge order).
 */
static void compact_edges(struct profile *p)
{
	struct cost_cells *c = &p->edge_c;
	size_t n = st_mult(p->nedges, p->ncell), alloc = 0;

	if (p->edge_cost || !p->edge_lo || !n) {
		free(p->edge_lo);
		p->edge_lo = NULL;
		compact_rows(c, &p->edge_cost, n);
	} else {
		for (size_t e = 0; e < p->nedges; e++) {
			const uint64_t *hi;

			if (!p->edge_wide[e])
				continue;
			hi = p->edge_hi + (size_t)(p->edge_wide[e] - 1) * p->ncell;
			for (uint32_t i = 0; i < p->ncell; i++)
				p->edge_lo[e * p->ncell + i] =
				    cells_put(c, e * p->ncell + i, hi[i], &alloc);
		}
		cells_fit_big(c);
		c->cell = xrealloc(p->edge_lo, n * sizeof(uint32_t));
		p->edge_lo = NULL;
	}
	free(p->edge_wide);
	free(p->edge_hi);
	p->edge_wide = NULL;
	p->edge_hi = NULL;
	p->nedge_hi = p->edge_lo_alloc = p->edge_wide_alloc = p->edge_hi_alloc = 0;
	p->edge_cost_alloc = 0;
}

/* The rows not yet in cells into cells (profile_finish() does the self and call rows first). */
static void compact(struct profile *p)
{
	if (!p->self_c.cell)
		compact_rows(&p->self_c, &p->self, st_mult(p->nfuncs, p->ncell));
	if (!p->incl_c.cell)
		compact_rows(&p->incl_c, &p->incl, st_mult(p->nfuncs, p->ncell));
	if (!p->edge_c.cell)
		compact_edges(p);
	p->self_alloc = 0;
	p->compact = true;
}

static const uint64_t *row_of(const struct profile *p, const struct cost_cells *c,
			      const uint64_t *rows, size_t row, uint64_t *buf)
{
	if (rows) /* not yet in cells */
		return rows + row * p->stride;
	cost_cells_row(c, row, p->ncell, buf);
	if (p->ncell < p->nev) /* the inherited events, worked out on demand */
		events_derive_from(p, buf, p->ncell);
	return buf;
}

const uint64_t *profile_self_row(const struct profile *p, uint32_t fn, uint64_t *buf)
{
	return row_of(p, &p->self_c, p->self, fn, buf);
}

const uint64_t *profile_edge_row(const struct profile *p, uint32_t e, uint64_t *buf)
{
	if (!p->compact && !p->edge_cost && !p->edge_c.cell) { /* the parse's rows */
		for (uint32_t i = 0; i < p->nev; i++)
			buf[i] = i < p->stride ? profile_edge_sum(p, e, i) : 0;
		return buf;
	}
	return row_of(p, &p->edge_c, p->edge_cost, e, buf);
}

const uint64_t *profile_incl_row(const struct profile *p, uint32_t fn, uint64_t *buf)
{
	if (p->no_cycles)
		return p->incl_flat + (size_t)fn * p->nev;
	if (!p->compact)
		return p->incl + (size_t)fn * p->nev;
	return row_of(p, &p->incl_c, NULL, fn, buf);
}

/*
 * The functions ranked by name (most of a report's sort: 0.09 s of 1.4 s on
 * a 1 GiB profile at two jobs), in a thread of its own while the graph is
 * worked out: the names and functions are final, and the graph writes no
 * field the ranking reads.
 */
struct ranking {
	struct profile *p;
	struct side_work side;
	double seconds;
};

#define RANK_THREAD_MIN 10000 /* functions: fewer are ranked at once */

static void rank_main(void *arg)
{
	struct ranking *r = arg;
	double t0 = seconds_monotonic();

	r->p->fn_rank = report_rank_functions(r->p);
	r->seconds = seconds_monotonic() - t0;
}

static void ranking_start(struct ranking *r, struct profile *p, unsigned jobs)
{
	r->p = p;
	r->seconds = 0;
	side_work_start(&r->side, rank_main, r, jobs > 1 && p->nfuncs >= RANK_THREAD_MIN);
}

static void ranking_end(struct ranking *r)
{
	side_work_join(&r->side);
}

void profile_finish(struct profile *p, struct diag *d, unsigned jobs)
{
	struct ranking rk;
	uint64_t *excess;
	double t0 = seconds_monotonic(), t;

	finish_stride(p, d);
	sum_totals(p, d);
	check_parts(p, d);
	ranking_start(&rk, p, jobs);
	/* edges are only looked up while parsing; free the table before the graph work */
	htab_release(&p->edge_index);
	/*
	 * The self and call rows into cells before the inclusive rows are made:
	 * the 64-bit ones of a 1 GiB profile are 84 MB, and with the inclusive
	 * rows beside them they were the peak of the whole run. The graph reads
	 * them through profile_self_row() and profile_edge_row().
	 */
	p->ncell = p->stride;
	compact_rows(&p->self_c, &p->self, st_mult(p->nfuncs, p->ncell));
	compact_edges(p);
	p->self_alloc = 0;
	/*
	 * What those rows and the call index took is free: given back before
	 * the inclusive rows are made, it is not beside them at the peak
	 * (100 MiB generated: 14.7% -> 14.0% of the file).
	 */
	heap_trim();
	excess = xcalloc(p->nev ? p->nev : 1, sizeof(uint64_t));
	t = seconds_monotonic();
	graph_inclusive(p, excess);
	p->stats.inclusive = seconds_monotonic() - t;
	check_excess(p, d, excess);
	free(excess);
	events_resolve(p, d);
	ranking_end(&rk); /* (before fit_arrays() moves the functions) */
	p->stats.ranked = rk.seconds;
	fit_arrays(p);
	if (p->stride == p->ncell) /* (else no value at all: nothing to keep) */
		compact(p);
	p->stats.finish = seconds_monotonic() - t0;
}

/* ---- counting some of the parts ------------------------------------------ */

/* The costs of the chosen parts' blocks, read again. */
struct recost {
	struct profile *p;
	uint64_t *self, *edge; /* nraw values a row */
	uint64_t *count;       /* per edge: its calls (the profile's, once all is read) */
	bool *seen;            /* per edge: made in a chosen part */
	bool *used;            /* per function: a chosen part costs or calls in it */
	uint32_t nraw, fn;
};

static void on_recost_line(void *ctx, const struct parse_line *l)
{
	struct recost *r = ctx;
	uint64_t *row;
	uint32_t e;

	if (l->kind == PARSE_SELF) {
		row = r->self + (size_t)r->fn * r->nraw;
		r->used[r->fn] = true;
	} else if (l->kind == PARSE_CALL) {
		e = edge_find(r->p, r->fn, l->callee);
		if (e == NCG_NONE) /* (the index made every edge: cannot happen) */
			return;
		row = r->edge + (size_t)e * r->nraw;
		u64_add_sat(&r->count[e], l->count);
		r->seen[e] = true; /* (its callee is marked used after: another thread's row) */
		r->used[r->fn] = true;
	} else {
		return; /* jumps carry no cost */
	}
	for (uint32_t i = 0; i < r->nraw; i++)
		u64_add_sat(&row[i], l->costs[i]);
}

/* The finished costs go; the profile holds 64-bit raw rows to sum into. */
static void drop_costs(struct profile *p)
{
	profile_cells_release(p, &p->self_c);
	profile_cells_release(p, &p->incl_c);
	profile_cells_release(p, &p->edge_c);
	free(p->self);
	free(p->incl);
	free(p->incl_flat);
	free(p->edge_cost);
	free(p->edge_lo);
	free(p->edge_wide);
	free(p->edge_hi);
	profile_free(p, p->totals);
	profile_free(p, p->cycle_incl);
	p->self = p->incl = p->incl_flat = p->edge_cost = p->totals = p->cycle_incl = NULL;
	p->edge_lo = p->edge_wide = NULL;
	p->edge_hi = NULL;
	p->nedge_hi = 0;
	p->compact = false;
}

size_t profile_parts_in(const bool *sel, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += sel[i];
	return k;
}

/*
 * The costs of the whole profile, put aside while some parts only count:
 * counting all of them again is then a move back, not a read of every line.
 */
struct all_costs {
	struct cost_cells self_c, incl_c, edge_c;
	uint64_t *totals, *cycle_incl, *counts, *calls;
	uint32_t *cycle, ncycles, *scc;
	uint8_t *flags; /* per function: 1 used, 2 recursive */
};

static void all_costs_free(const struct profile *p, struct all_costs *a)
{
	if (!a)
		return;
	profile_cells_release(p, &a->self_c);
	profile_cells_release(p, &a->incl_c);
	profile_cells_release(p, &a->edge_c);
	profile_free(p, a->totals);
	profile_free(p, a->cycle_incl);
	free(a->counts);
	free(a->calls);
	free(a->cycle);
	free(a->scc);
	free(a->flags);
	free(a);
}

/* The whole's costs aside (they leave p: drop_costs() will not free them). */
static void put_all_aside(struct profile *p)
{
	struct all_costs *a = xcalloc(1, sizeof(*a));

	a->self_c = p->self_c;
	a->incl_c = p->incl_c;
	a->edge_c = p->edge_c;
	memset(&p->self_c, 0, sizeof(p->self_c));
	memset(&p->incl_c, 0, sizeof(p->incl_c));
	memset(&p->edge_c, 0, sizeof(p->edge_c));
	a->totals = p->totals;
	a->cycle_incl = p->cycle_incl;
	p->totals = p->cycle_incl = NULL;
	a->ncycles = p->ncycles;
	a->scc = p->fn_scc; /* (the proof of the whole's cycles: graph_inclusive() makes another) */
	p->fn_scc = NULL;
	a->counts = xmalloc_array(p->nedges ? p->nedges : 1, sizeof(uint64_t));
	for (size_t e = 0; e < p->nedges; e++)
		a->counts[e] = p->edges[e].count;
	a->calls = xmalloc_array(p->nfuncs ? p->nfuncs : 1, sizeof(uint64_t));
	a->cycle = xmalloc_array(p->nfuncs ? p->nfuncs : 1, sizeof(uint32_t));
	a->flags = xmalloc_array(p->nfuncs ? p->nfuncs : 1, 1);
	for (size_t f = 0; f < p->nfuncs; f++) {
		a->calls[f] = p->funcs[f].calls;
		a->cycle[f] = p->funcs[f].cycle;
		a->flags[f] = (uint8_t)(p->funcs[f].used | p->funcs[f].recursive << 1);
	}
	p->all = a;
}

/* All the parts count again: the whole's costs back in place. */
static void take_all_back(struct profile *p)
{
	struct all_costs *a = p->all;
	bool flat = p->incl_flat != NULL;

	drop_costs(p);
	p->self_c = a->self_c;
	p->incl_c = a->incl_c;
	p->edge_c = a->edge_c;
	memset(&a->self_c, 0, sizeof(a->self_c));
	memset(&a->incl_c, 0, sizeof(a->incl_c));
	memset(&a->edge_c, 0, sizeof(a->edge_c));
	p->totals = a->totals;
	p->cycle_incl = a->cycle_incl;
	a->totals = a->cycle_incl = NULL;
	p->ncycles = a->ncycles;
	free(p->fn_scc);
	p->fn_scc = a->scc;
	a->scc = NULL;
	for (size_t e = 0; e < p->nedges; e++)
		p->edges[e].count = a->counts[e];
	for (size_t f = 0; f < p->nfuncs; f++) {
		p->funcs[f].calls = a->calls[f];
		p->funcs[f].cycle = a->cycle[f];
		p->funcs[f].used = a->flags[f] & 1;
		p->funcs[f].recursive = (a->flags[f] & 2) != 0;
	}
	all_costs_free(p, a);
	p->all = NULL;
	free(p->part_sel);
	free(p->edge_sel);
	p->part_sel = NULL;
	p->edge_sel = NULL;
	p->compact = true;
	if (flat)
		graph_inclusive_flat(p);
}

/*
 * One thread's share of the re-read: the functions [from, to), the blocks of
 * the chosen parts. Every row a block adds into is its function's (self)
 * or an edge of which it is the caller: shares of functions never write the
 * same cell, and need no lock.
 */
struct resum_share {
	struct recost r;
	const bool *sel;
	size_t from, to;
	atomic_uint_fast64_t *done;  /* bytes of blocks read, every share */
	atomic_uint_fast32_t *ended; /* shares finished */
	atomic_bool *stop;           /* progress said stop: every share ends */
	long delay_ms;               /* (tests: NCGRIND_TEST_RESUM_DELAY_MS) */
	pthread_t thread;
	bool threaded;
	/* a share read here, for want of a thread: it tells progress itself */
	const struct profile_progress *progress;
	uint64_t total;
	double told; /* when it last did */
};

#define RESUM_TICK_NS 50000000L /* progress: told every 50 ms while the threads read */

/* Tells progress (may be NULL) how far every share is; its saying stop stops them all. */
static void resum_ask(const struct profile_progress *progress, atomic_uint_fast64_t *done,
		      uint64_t total, atomic_bool *stop)
{
	if (progress && progress->fn && !atomic_load(stop) &&
	    progress->fn(progress->ctx, atomic_load(done), total))
		atomic_store(stop, true);
}

/*
 * A share read on the calling thread asks progress itself, every tick, as
 * the loop of resum_all() does while threads read, so that q still stops it.
 */
static void resum_tell(struct resum_share *s)
{
	double now;

	if (!s->progress)
		return; /* (a thread's share: resum_all() asks) */
	now = seconds_monotonic();
	if (now - s->told < RESUM_TICK_NS / 1e9)
		return;
	s->told = now;
	resum_ask(s->progress, s->done, s->total, s->stop);
}

/* A test's slow start (to press q in time), in steps that heed stop. */
static void resum_delay(struct resum_share *s)
{
	struct timespec step = {0, 10000000L};

	for (long ms = 0; ms < s->delay_ms && !atomic_load(s->stop); ms += 10) {
		nanosleep(&step, NULL);
		resum_tell(s);
	}
}

static void *resum_run(void *arg)
{
	struct resum_share *s = arg;
	const struct profile *p = s->r.p;

	resum_delay(s);
	for (size_t f = s->from; f < s->to; f++) {
		uint64_t bytes = 0;

		s->r.fn = (uint32_t)f;
		for (uint32_t b = p->funcs[f].first_block; b != NCG_NONE; b = p->blocks[b].next) {
			/* (a block at a time: one function may be most of the file) */
			if (atomic_load_explicit(s->stop, memory_order_relaxed))
				goto out;
			if (!s->sel || s->sel[block_part(&p->blocks[b])]) {
				parse_block(p, b, on_recost_line, &s->r);
				bytes += profile_block_end(p, b) - p->blocks[b].start;
			}
			resum_tell(s);
		}
		atomic_fetch_add(s->done, bytes);
	}
out:
	atomic_fetch_add(s->ended, 1);
	return NULL;
}

static void *resum_thread(void *arg)
{
	thread_leave_signals();
	return resum_run(arg);
}

/* The bytes of the chosen parts' blocks of function f. */
static uint64_t resum_bytes(const struct profile *p, const bool *sel, size_t f)
{
	uint64_t n = 0;

	for (uint32_t b = p->funcs[f].first_block; b != NCG_NONE; b = p->blocks[b].next)
		if (!sel || sel[block_part(&p->blocks[b])])
			n += profile_block_end(p, b) - p->blocks[b].start;
	return n;
}

#define RESUM_SHARE_MIN ((uint64_t)1 << 20) /* less for a thread costs more than it saves */
#define RESUM_MAX_JOBS 64

/* How many threads for total bytes: jobs (0: the cores), none for a small read. */
static size_t resum_jobs(unsigned jobs, uint64_t total)
{
	if (!jobs) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);

		jobs = c > 0 ? (unsigned)c : 1;
	}
	if (jobs > RESUM_MAX_JOBS)
		jobs = RESUM_MAX_JOBS;
	if (total / RESUM_SHARE_MIN + 1 < jobs)
		jobs = (unsigned)(total / RESUM_SHARE_MIN) + 1;
	return jobs;
}

static long resum_delay_ms(void)
{
	const char *s = getenv("NCGRIND_TEST_RESUM_DELAY_MS");

	return s ? atol(s) : 0;
}

/* A share's thread, or false where none is to be had (tests: NCGRIND_TEST_RESUM_NO_THREADS). */
static bool resum_start(struct resum_share *s)
{
	const char *none = getenv("NCGRIND_TEST_RESUM_NO_THREADS");

	if (none && *none)
		return false;
	return pthread_create(&s->thread, NULL, resum_thread, s) == 0;
}

/*
 * Read the chosen parts' blocks again on up to jobs threads (0: the cores),
 * the functions cut into contiguous shares of about equal bytes; while they
 * read, this thread tells progress (may be NULL) how far they are. False
 * when progress said stop (the threads end at their next block).
 */
static bool resum_all(const struct recost *r, const bool *sel, unsigned jobs,
		      const struct profile_progress *progress)
{
	const struct profile *p = r->p;
	struct resum_share shares[RESUM_MAX_JOBS];
	atomic_uint_fast64_t done = 0;
	atomic_uint_fast32_t ended = 0;
	atomic_bool stop = false;
	uint64_t total = 0, per;
	size_t n = 0, f = 0, want;
	long delay = resum_delay_ms();

	for (size_t i = 0; i < p->nfuncs; i++)
		total += resum_bytes(p, sel, i);
	want = resum_jobs(jobs, total);
	per = total / want + 1;
	while (f < p->nfuncs && n < want) {
		struct resum_share *s = &shares[n++];
		uint64_t acc = 0;

		*s = (struct resum_share){.r = *r,
					  .sel = sel,
					  .from = f,
					  .to = f,
					  .done = &done,
					  .ended = &ended,
					  .stop = &stop,
					  .delay_ms = delay};
		while (s->to < p->nfuncs && (acc < per || n == want))
			acc += resum_bytes(p, sel, s->to++);
		f = s->to;
	}
	((struct profile *)p)->stats.part_jobs = (unsigned)(n ? n : 1);
	if (n == 1 && total < RESUM_SHARE_MIN) { /* a small read: here, at once */
		resum_run(&shares[0]);
		return true;
	}
	/* (one job and more to read: a thread all the same, so that q can stop it) */
	for (size_t i = 0; i < n; i++)
		shares[i].threaded = resum_start(&shares[i]);
	/* no thread to be had: here, in turn, beside the threads that started */
	for (size_t i = 0; i < n; i++) {
		if (shares[i].threaded)
			continue;
		shares[i].progress = progress;
		shares[i].total = total;
		resum_run(&shares[i]);
	}
	while (atomic_load(&ended) < n) {
		struct timespec tick = {0, RESUM_TICK_NS};

		resum_ask(progress, &done, total, &stop);
		nanosleep(&tick, NULL);
	}
	for (size_t i = 0; i < n; i++)
		if (shares[i].threaded)
			pthread_join(shares[i].thread, NULL);
	return !atomic_load(&stop);
}

/* The re-read's memory, the profile left as it was (a re-read stopped, or done with). */
static void recost_release(struct recost *r)
{
	free(r->self);
	free(r->edge);
	free(r->count);
	free(r->seen);
	free(r->used);
}

bool profile_select_parts(struct profile *p, const bool *sel, unsigned jobs,
			  const struct profile_progress *progress)
{
	uint32_t nev = p->nev, nraw = p->nraw < p->nev ? p->nraw : p->nev;
	size_t nf = p->nfuncs ? p->nfuncs : 1, ne = p->nedges ? p->nedges : 1;
	struct recost r = {.p = p, .nraw = nraw};
	bool flat = p->incl_flat != NULL;

	if (!sel || profile_parts_in(sel, p->nparts) == p->nparts) {
		if (p->all)
			take_all_back(p);
		return true; /* (all of them count already) */
	}
	/*
	 * The re-read writes only arrays of its own (and the call index, which
	 * only it reads): stopped, it leaves the profile as it was.
	 */
	r.self = xcalloc(st_mult(nf, nraw ? nraw : 1), sizeof(uint64_t));
	r.edge = xcalloc(st_mult(ne, nraw ? nraw : 1), sizeof(uint64_t));
	r.count = xcalloc(ne, sizeof(uint64_t));
	r.seen = xcalloc(ne, sizeof(bool));
	r.used = xcalloc(nf, sizeof(bool));
	for (size_t e = 0; e < p->nedges; e++)
		htab_insert(&p->edge_index, edge_hash(p->edges[e].caller, p->edges[e].callee),
			    (uint32_t)e);
	if (!resum_all(&r, sel, jobs, progress)) {
		htab_release(&p->edge_index);
		recost_release(&r);
		return false;
	}
	htab_release(&p->edge_index);
	if (!p->all && p->compact)
		put_all_aside(p);
	for (size_t f = 0; f < p->nfuncs; f++) {
		p->funcs[f].used = r.used[f]; /* a function of none of the parts is not listed */
		p->funcs[f].calls = 0;
	}
	for (size_t e = 0; e < p->nedges; e++) {
		p->edges[e].count = r.count[e];
		if (r.seen[e]) /* a callee is used where a chosen part calls it */
			p->funcs[p->edges[e].callee].used = true;
	}
	free(r.count);
	free(r.used);
	free(p->part_sel);
	free(p->edge_sel);
	p->part_sel = xmalloc_array(p->nparts, sizeof(bool));
	memcpy(p->part_sel, sel, p->nparts * sizeof(bool));
	p->edge_sel = r.seen;
	drop_costs(p);
	/* the raw events first, as the first pass had them; the inherited ones after */
	p->self = r.self;
	p->edge_cost = r.edge;
	p->nev = p->stride = nraw;
	sum_totals(p, NULL);
	graph_inclusive(p, NULL);
	p->nev = nev;
	events_derive(p, nraw, NULL);
	compact(p);
	if (flat)
		graph_inclusive_flat(p);
	return true;
}
