/*
 * srcview: one function's cost lines, gathered from its blocks and merged
 * by place. The records are collected as they come, then sorted and summed:
 * a function has few lines next to the profile.
 */
#include "ncgrind/model/srcview.h"
#include "ncgrind/core/events.h"
#include "ncgrind/core/parse.h"

#include <stdio.h>

#include <stdlib.h>

struct gather {
	struct srcfn *s;
	size_t alloc;
	size_t pool_rows, pool_alloc;
};

static uint64_t *pool_row(struct gather *g)
{
	uint32_t nev = g->s->p->nev;

	ALLOC_GROW(g->s->pool, st_mult(g->pool_rows + 1, nev), g->pool_alloc);
	return g->s->pool + g->pool_rows++ * nev;
}

static void on_line(void *ctx, const struct parse_line *l)
{
	struct gather *g = ctx;
	struct srcfn *s = g->s;
	struct src_cost *c;
	uint64_t *costs;

	if (l->kind == PARSE_JUMP)
		return;
	s->has_lines |= l->pos[POS_LINE] != 0;
	s->has_addrs |= l->pos[POS_INSTR] != 0;
	costs = pool_row(g);
	memcpy(costs, l->costs, s->p->nev * sizeof(uint64_t));
	ALLOC_GROW(s->rows, s->nrows + 1, g->alloc);
	c = &s->rows[s->nrows++];
	c->file = l->file;
	c->line = l->pos[POS_LINE];
	c->addr = s->by_addr ? l->pos[POS_INSTR] : 0;
	c->callee = l->kind == PARSE_CALL ? l->callee : NCG_NONE;
	c->count = l->kind == PARSE_CALL ? l->count : 0;
	c->costs = NULL; /* row i's costs are pool row i; the pool may still move */
}

/* Instructions in address order when *by_addr (a bool); lines by file, then number. */
static int cmp_place(const void *a, const void *b, void *by_addr)
{
	const struct src_cost *x = a, *y = b;

	if (*(const bool *)by_addr && x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->callee != y->callee) /* the line's self cost first, then its calls */
		return x->callee == NCG_NONE   ? -1
		       : y->callee == NCG_NONE ? 1
					       : (x->callee < y->callee ? -1 : 1);
	return 0;
}

/* Sum the records of one place (and, for calls, one callee) into one. */
static void merge(struct srcfn *s)
{
	size_t o = 0;

	sort_with(s->rows, s->nrows, sizeof(*s->rows), cmp_place, &s->by_addr);
	for (size_t i = 0; i < s->nrows; i++) {
		if (o && cmp_place(&s->rows[o - 1], &s->rows[i], &s->by_addr) == 0) {
			for (uint32_t e = 0; e < s->p->nev; e++)
				u64_add_sat(&s->rows[o - 1].costs[e], s->rows[i].costs[e]);
			u64_add_sat(&s->rows[o - 1].count, s->rows[i].count);
			/* the inherited events of the sums: a ratio is not summed */
			events_derive_row(s->p, s->rows[o - 1].costs);
			continue;
		}
		s->rows[o++] = s->rows[i];
	}
	s->nrows = o;
}

static int cmp_share(const void *a, const void *b)
{
	const struct src_file_share *x = a, *y = b;

	if (x->self[0] != y->self[0])
		return x->self[0] < y->self[0] ? 1 : -1;
	return (x->file > y->file) - (x->file < y->file);
}

/*
 * The function's own file (the fl= in force where fn= names it) goes first,
 * whatever its share: inlined headers often cost more (main of a C++ program
 * in basic_string.h), yet the reader opened main to read main.
 */
static void own_file_first(struct srcfn *s)
{
	uint32_t own = s->p->funcs[s->fn].file;
	struct src_file_share first;

	for (size_t i = 1; i < s->nfiles; i++)
		if (s->files[i].file == own) {
			first = s->files[i];
			memmove(s->files + 1, s->files, i * sizeof(*s->files));
			s->files[0] = first;
			return;
		}
}

/* The files the function's self cost falls in (rows are sorted by file), each with its sum. */
static void file_shares(struct srcfn *s)
{
	size_t alloc = 0;
	uint32_t nev = s->p->nev;

	for (size_t i = 0; i < s->nrows; i++) {
		struct src_cost *c = &s->rows[i];
		struct src_file_share *f;

		if (!s->nfiles || s->files[s->nfiles - 1].file != c->file) {
			ALLOC_GROW(s->files, s->nfiles + 1, alloc);
			s->files[s->nfiles].file = c->file;
			s->files[s->nfiles].self = xcalloc(nev ? nev : 1, sizeof(uint64_t));
			s->nfiles++;
		}
		f = &s->files[s->nfiles - 1];
		if (c->callee == NCG_NONE)
			for (uint32_t e = 0; e < nev; e++)
				u64_add_sat(&f->self[e], c->costs[e]);
	}
	for (size_t i = 0; i < s->nfiles; i++) /* (a ratio of the file's sums) */
		events_derive_row(s->p, s->files[i].self);
	if (s->nfiles > 1) /* none for a function without cost lines: qsort(NULL, 0) is undefined */
		qsort(s->files, s->nfiles, sizeof(*s->files), cmp_share);
	own_file_first(s);
}

/*
 * A call line's costs, as recorded, count each nested level of a recursion
 * again; they become their share of the function (graph.h), so that its
 * calls read as they do on the callers screen. Each event by its own scale.
 */
void srcfn_share_calls(struct srcfn *s, struct call_shares *shares)
{
	for (size_t i = 0; i < s->nrows; i++) {
		struct src_cost *c = &s->rows[i];

		if (c->callee == NCG_NONE)
			continue;
		for (uint32_t e = 0; e < s->p->nev; e++)
			c->costs[e] = call_share_of(
			    c->costs[e], call_shares_scale(shares, s->p, s->fn, c->callee, e));
	}
}

void srcfn_load(struct srcfn *s, const struct profile *p, uint32_t fn, bool by_addr)
{
	struct gather g = {s, 0, 0, 0};

	memset(s, 0, sizeof(*s));
	s->p = p;
	s->fn = fn;
	s->by_addr = by_addr;
	for (uint32_t b = p->funcs[fn].first_block; b != NCG_NONE; b = p->blocks[b].next)
		if (profile_block_counts(p, b))
			parse_block(p, b, on_line, &g);
	for (size_t i = 0; i < s->nrows; i++)
		s->rows[i].costs = s->pool + i * p->nev;
	merge(s);
	file_shares(s);
}

uint64_t srcfn_first_line(const struct srcfn *s, size_t i)
{
	uint64_t first = 0;

	if (i >= s->nfiles)
		return 0;
	/* the least over them all: by address (V), the rows are not in line order */
	for (size_t k = 0; k < s->nrows; k++)
		if (s->rows[k].file == s->files[i].file && s->rows[k].line &&
		    (!first || s->rows[k].line < first))
			first = s->rows[k].line;
	return first;
}

void srcfn_release(struct srcfn *s)
{
	for (size_t i = 0; i < s->nfiles; i++)
		free(s->files[i].self);
	free(s->rows);
	free(s->files);
	free(s->pool);
	memset(s, 0, sizeof(*s));
}

void srcfn_walk_init(struct srcfn_walk *w, const struct src_cost *rows, size_t n, uint64_t nlines,
		     bool all, uint64_t ctx)
{
	*w = (struct srcfn_walk){rows, 0, n, all ? nlines : 0, ctx, nlines, 1, false};
	if (n && rows[n - 1].line > w->end)
		w->end = rows[n - 1].line;
	if (n && rows[0].line == 0)
		w->next = 0;
}

bool srcfn_walk_next(struct srcfn_walk *w, uint64_t *line)
{
	uint64_t c = w->next;

	if (w->done || c > w->end)
		return false;
	if (c == 0 || c > w->whole) {
		/* past the whole lines: jump to the next line near a row */
		while (w->i < w->n && w->rows[w->i].line < c && c - w->rows[w->i].line > w->ctx)
			w->i++;
		if (w->i == w->n)
			return false;
		if (w->rows[w->i].line > c && w->rows[w->i].line - c > w->ctx)
			c = w->rows[w->i].line - w->ctx;
		if (c > w->end)
			return false;
	}
	*line = c;
	/* the end may be UINT64_MAX: no c + 1 past it */
	if (c == w->end)
		w->done = true;
	else
		w->next = c + 1;
	return true;
}

/* ---- the source screen ------------------------------------------------- */

static void push_row(struct srcview *v, enum src_row_kind kind, uint64_t where,
		     const struct src_cost *cost)
{
	ALLOC_GROW(v->rows, v->nav.count + 1, v->rows_alloc);
	v->rows[v->nav.count++] = (struct src_row){kind, where, cost};
}

static bool row_has_cost(const struct srcview *v, const struct src_row *r)
{
	return r->cost && r->cost->costs[v->event];
}

/* The cost rows of the current file (or all, for instructions): [*lo, *hi). */
static void file_rows(const struct srcview *v, size_t *lo, size_t *hi)
{
	uint32_t file = v->fn.nfiles ? v->fn.files[v->file].file : NCG_NONE;

	*lo = 0;
	*hi = v->fn.nrows;
	if (v->instr)
		return;
	while (*lo < v->fn.nrows && v->fn.rows[*lo].file != file)
		(*lo)++;
	*hi = *lo;
	while (*hi < v->fn.nrows && v->fn.rows[*hi].file == file)
		(*hi)++;
}

/*
 * With the source: every line, or (only_costly) those with cost and
 * SRCVIEW_CONTEXT lines around them, past its end only the lines near a
 * cost; without it, only the lines with cost.
 */
static void build_line_rows(struct srcview *v)
{
	size_t lo, hi, r;
	uint64_t last = 0, n;
	struct srcfn_walk w;

	file_rows(v, &lo, &hi);
	for (size_t i = 0; !v->found && i < v->text.ntried; i++)
		push_row(v, SROW_TRIED, i, NULL);
	/* a function of no line yet has no rows (NULL: no offset on it) */
	srcfn_walk_init(&w, v->fn.rows ? v->fn.rows + lo : NULL, hi - lo,
			v->found ? v->text.nlines : 0, !v->only_costly,
			v->found ? SRCVIEW_CONTEXT : 0);
	r = lo;
	while (srcfn_walk_next(&w, &n)) {
		const struct src_cost *self = NULL;

		while (r < hi && v->fn.rows[r].line < n)
			r++;
		if (r < hi && v->fn.rows[r].line == n && v->fn.rows[r].callee == NCG_NONE)
			self = &v->fn.rows[r];
		if (last && n != last + 1)
			push_row(v, SROW_GAP, n, NULL);
		last = n;
		push_row(v, SROW_LINE, n, self);
		for (; r < hi && v->fn.rows[r].line == n; r++)
			if (v->fn.rows[r].callee != NCG_NONE)
				push_row(v, SROW_CALL, n, &v->fn.rows[r]);
	}
}

static void build_insn_rows(struct srcview *v)
{
	for (size_t i = 0; i < v->fn.nrows; i++) {
		const struct src_cost *c = &v->fn.rows[i];

		if (c->callee == NCG_NONE)
			push_row(v, SROW_INSN, c->addr, c);
		else
			push_row(v, SROW_CALL, c->addr, c);
	}
}

/* The rows again (another file, the toggle), the cursor on the hottest. */
static void rebuild(struct srcview *v, int page)
{
	size_t best = 0;
	uint64_t most = 0;

	v->nav.count = 0;
	if (v->instr)
		build_insn_rows(v);
	else
		build_line_rows(v);
	for (size_t i = 0; i < v->nav.count; i++)
		if (v->rows[i].kind != SROW_CALL && row_has_cost(v, &v->rows[i]) &&
		    v->rows[i].cost->costs[v->event] > most) {
			most = v->rows[i].cost->costs[v->event];
			best = i;
		}
	v->nav.top = 0;
	nav_to(&v->nav, best, page);
	/*
	 * show the hot line in the middle of the screen, with what leads to it;
	 * without the source, the paths tried first, while the hot line fits below
	 */
	v->nav.top = best > (size_t)page / 2 ? best - (size_t)page / 2 : 0;
	if (!v->found && best < (size_t)page)
		v->nav.top = 0;
	nav_scroll(&v->nav, page);
}

static void load_text(struct srcview *v, const struct source_paths *paths)
{
	struct span name;

	source_release(&v->text);
	v->found = false;
	v->note[0] = '\0';
	if (!v->fn.nfiles || v->fn.files[v->file].file == NCG_NONE) {
		snprintf(v->note, sizeof(v->note), "the profile names no source file here");
		return;
	}
	name = profile_name(v->fn.p, v->fn.files[v->file].file);
	v->found = source_load(&v->text, paths, name) == 0;
	if (v->text.no_debug_info)
		snprintf(
		    v->note, sizeof(v->note),
		    "no source file: the code has no debug information (compiled without -g?)");
	else if (!v->found && source_refused(&v->text))
		snprintf(v->note, sizeof(v->note), "source not read: %s", source_refused(&v->text));
	else if (!v->found)
		snprintf(v->note, sizeof(v->note),
			 "source not found; add a directory with -I DIR or a rule with "
			 "--substitute-path=FROM=TO");
	else if (v->text.newer)
		snprintf(v->note, sizeof(v->note), "warning: the source is newer than the profile");
}

/*
 * The ranges objdump reads: the cost addresses (in order) with the bytes of
 * the last instruction after each; addresses closer than DISASM_GAP share a
 * range, and past DISASM_RANGES the others are shown without instructions.
 * Never the span from the first address to the last: a profile may hold 0
 * and 2^64 - 1, and objdump would read the whole object.
 */
#define DISASM_GAP 4096
#define DISASM_RANGES 16
#define DISASM_TAIL 16 /* x86's longest instruction is 15 bytes */

static size_t insn_ranges(const struct srcfn *fn, struct disasm_range *r, size_t *all)
{
	size_t n = 0;
	uint64_t prev = 0;

	*all = 0;
	for (size_t i = 0; i < fn->nrows; prev = fn->rows[i++].addr) { /* (rows by address) */
		uint64_t a = fn->rows[i].addr,
			 end = a < UINT64_MAX - DISASM_TAIL ? a + DISASM_TAIL : UINT64_MAX;

		if (i && a - prev < DISASM_GAP) {
			if (n == *all && end > r[n - 1].hi)
				r[n - 1].hi = end;
		} else if (++*all <= DISASM_RANGES) {
			r[n].lo = a;
			r[n++].hi = end;
		}
	}
	return n;
}

/* What the note says when objdump was cut short, or no more than a part was asked. */
static void disasm_note(struct srcview *v, size_t asked, size_t all)
{
	if (v->dis.stopped)
		snprintf(v->note, sizeof(v->note),
			 "disassembly stopped: %zu instructions read, the other addresses alone",
			 v->dis.n);
	else if (v->dis.cut)
		snprintf(v->note, sizeof(v->note),
			 "disassembly cut at %d instructions: the later addresses alone",
			 DISASM_MAX_INSNS);
	else if (asked < all)
		snprintf(v->note, sizeof(v->note),
			 "the costs lie in %zu address ranges far apart: instructions of the first "
			 "%zu only",
			 all, asked);
}

static void load_disasm(struct srcview *v, const struct disasm_watch *watch)
{
	const struct function *f = &v->fn.p->funcs[v->fn.fn];
	struct disasm_range r[DISASM_RANGES];
	size_t n, all;
	char *object, err[200];

	if (!v->fn.has_addrs) {
		snprintf(v->note, sizeof(v->note),
			 "no instruction addresses in this profile (valgrind --dump-instr=yes)");
		return;
	}
	n = insn_ranges(&v->fn, r, &all);
	object =
	    xmemdup0(profile_name(v->fn.p, f->object).ptr, profile_name(v->fn.p, f->object).len);
	if (disasm_load(&v->dis, object, r, n, watch, err, sizeof(err)) < 0)
		snprintf(v->note, sizeof(v->note), "addresses only: %s", err);
	else
		disasm_note(v, n, all);
	free(object);
}

void srcview_open(struct srcview *v, const struct profile *p, struct call_shares *shares,
		  uint32_t fn, const struct source_paths *paths, bool instr, uint32_t event,
		  int page, const struct disasm_watch *watch)
{
	memset(v, 0, sizeof(*v));
	v->instr = instr;
	v->event = event;
	srcfn_load(&v->fn, p, fn, instr);
	srcfn_share_calls(&v->fn, shares);
	if (instr)
		load_disasm(v, watch);
	else
		load_text(v, paths);
	rebuild(v, page);
}

void srcview_close(struct srcview *v)
{
	srcfn_release(&v->fn);
	source_release(&v->text);
	disasm_release(&v->dis);
	free(v->rows);
	memset(v, 0, sizeof(*v));
}

void srcview_set_file(struct srcview *v, const struct source_paths *paths, size_t i, int page)
{
	if (v->instr || i >= v->fn.nfiles)
		return;
	v->file = i;
	load_text(v, paths);
	rebuild(v, page);
}

void srcview_toggle_costly(struct srcview *v, int page)
{
	const struct src_row *cur = v->nav.count ? &v->rows[v->nav.cursor] : NULL;
	uint64_t where = cur ? cur->where : 0;
	bool tried = cur && cur->kind == SROW_TRIED; /* rebuild overwrites *cur */

	v->only_costly = !v->only_costly;
	rebuild(v, page);
	/* stay on the same line when it is still there */
	for (size_t i = 0; i < v->nav.count; i++)
		if (v->rows[i].where == where && v->rows[i].kind != SROW_GAP &&
		    (v->rows[i].kind == SROW_TRIED) == tried) {
			nav_to(&v->nav, i, page);
			break;
		}
}

bool srcview_next_costly(struct srcview *v, int dir, int page)
{
	for (long i = (long)v->nav.cursor + dir; i >= 0 && i < (long)v->nav.count; i += dir)
		if (v->rows[i].kind != SROW_CALL && row_has_cost(v, &v->rows[i]))
			return nav_to(&v->nav, (size_t)i, page);
	return false;
}

uint32_t srcview_callee(const struct srcview *v)
{
	const struct src_row *r = v->nav.count ? &v->rows[v->nav.cursor] : NULL;

	return r && r->kind == SROW_CALL ? r->cost->callee : NCG_NONE;
}
