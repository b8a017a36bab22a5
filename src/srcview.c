/*
 * srcview: one function's cost lines, gathered from its blocks and merged
 * by place. The records are collected as they come, then sorted and summed:
 * a function has few lines next to the profile.
 */
#include "ncgrind/srcview.h"
#include "ncgrind/parse.h"

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
	/* the pool may move: keep an index, turned into a pointer at the end */
	c->costs = (uint64_t *)(uintptr_t)(g->pool_rows - 1);
}

static int cmp_place(const void *a, const void *b)
{
	const struct src_cost *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->callee != y->callee) /* the line's self cost first, then its calls */
		return x->callee == NCG_NONE ? -1 : y->callee == NCG_NONE ? 1
									  : (x->callee < y->callee ? -1 : 1);
	return 0;
}

/* Sum the records of one place (and, for calls, one callee) into one. */
static void merge(struct srcfn *s)
{
	size_t o = 0;

	qsort(s->rows, s->nrows, sizeof(*s->rows), cmp_place);
	for (size_t i = 0; i < s->nrows; i++) {
		if (o && cmp_place(&s->rows[o - 1], &s->rows[i]) == 0) {
			for (uint32_t e = 0; e < s->p->nev; e++)
				u64_add_sat(&s->rows[o - 1].costs[e], s->rows[i].costs[e]);
			u64_add_sat(&s->rows[o - 1].count, s->rows[i].count);
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
	qsort(s->files, s->nfiles, sizeof(*s->files), cmp_share);
}

void srcfn_load(struct srcfn *s, const struct profile *p, uint32_t fn, bool by_addr)
{
	struct gather g = {s, 0, 0, 0};

	memset(s, 0, sizeof(*s));
	s->p = p;
	s->fn = fn;
	s->by_addr = by_addr;
	for (uint32_t b = p->funcs[fn].first_block; b != NCG_NONE; b = p->blocks[b].next)
		parse_block(p, b, on_line, &g);
	for (size_t i = 0; i < s->nrows; i++)
		s->rows[i].costs = s->pool + (uintptr_t)s->rows[i].costs * p->nev;
	merge(s);
	file_shares(s);
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
