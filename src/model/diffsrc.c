/*
 * diffsrc: source lines of two profiles set side by side (see diffsrc.h).
 * A side's lines come from its functions' blocks (srcfn_load), keyed by
 * the file's name after the rules, so that two builds' lines meet.
 */
#include "ncgrind/model/diffsrc.h"
#include "ncgrind/model/srcview.h"

#include <stdlib.h>
#include <string.h>

/*
 * A source file's name after the rules (malloc'd): lines of two builds meet
 * under it. A base file whose functions were matched across directories
 * goes by its new side's name: a/prog.c's lines are set against b/prog.c's.
 */
static char *file_key(const struct diff *d, bool new_side, const struct rewrites *rules,
		      uint32_t file)
{
	const struct profile *p = new_side ? d->new : d->base;
	char *k = rewrites_apply(rules, DIFF_FILE,
				 file == NCG_NONE ? span_make("???", 3) : profile_name(p, file));
	const char *pair = new_side ? NULL : diff_file_pair(d, k);

	if (pair) {
		free(k);
		k = xstrdup(pair);
	}
	return k;
}

static int cmp_side_line(const void *a, const void *b)
{
	const struct side_line *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	if (c)
		return c;
	return (x->line > y->line) - (x->line < y->line);
}

struct line_list {
	struct side_line *v;
	size_t n, alloc;
};

/* Function f's self cost per line, in the diff's events, added to l. */
static void add_fn_lines(const struct diff *d, bool new_side, uint32_t f,
			 const struct rewrites *rules, struct line_list *l)
{
	const struct profile *p = new_side ? d->new : d->base;
	const uint32_t *evmap = new_side ? d->ev_new : d->ev_base;
	struct srcfn s;

	srcfn_load(&s, p, f, false);
	for (size_t i = 0; i < s.nrows; i++) {
		const struct src_cost *r = &s.rows[i];
		struct side_line *x;

		if (r->callee != NCG_NONE)
			continue;
		ALLOC_GROW(l->v, l->n + 1, l->alloc);
		x = &l->v[l->n++];
		*x = (struct side_line){r->file, file_key(d, new_side, rules, r->file), r->line,
					xcalloc(d->nev ? d->nev : 1, sizeof(uint64_t))};
		for (uint32_t e = 0; e < d->nev; e++)
			x->cost[e] = evmap[e] == NCG_NONE ? 0 : r->costs[evmap[e]];
	}
	srcfn_release(&s);
}

/* Sorted by file (after the rules) and line, each place once: its costs summed. */
static void settle_lines(const struct diff *d, struct line_list *l)
{
	size_t o = 0;

	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), cmp_side_line);
	for (size_t i = 0; i < l->n; i++) { /* the same place twice (two functions): summed */
		if (o && !cmp_side_line(&l->v[o - 1], &l->v[i])) {
			for (uint32_t e = 0; e < d->nev; e++)
				u64_add_sat(&l->v[o - 1].cost[e], l->v[i].cost[e]);
			free(l->v[i].file);
			free(l->v[i].cost);
			continue;
		}
		l->v[o++] = l->v[i];
	}
	l->n = o;
}

struct side_line *diffsrc_side_lines(const struct diff *d, bool new_side,
				     const struct rewrites *rules, size_t *n)
{
	const struct profile *p = new_side ? d->new : d->base;
	const uint32_t *row_of = new_side ? d->row_of_new : d->row_of_base;
	struct line_list l = {NULL, 0, 0};

	/* a filtered diff: the lines of the functions of its rows (either side kept them) */
	for (uint32_t f = 0; f < p->nfuncs; f++)
		if (profile_function_used(p, f) && (!d->filtered || row_of[f] != NCG_NONE))
			add_fn_lines(d, new_side, f, rules, &l);
	settle_lines(d, &l);
	*n = l.n;
	return l.v;
}

/* A row's lines on one side: of each of its functions there (none without event e). */
static struct side_line *row_lines(const struct diff *d, bool new_side, uint32_t row, uint32_t e,
				   const struct rewrites *rules, size_t *n)
{
	const uint32_t *next = new_side ? d->next_new : d->next_base;
	struct line_list l = {NULL, 0, 0};

	if ((new_side ? d->ev_new : d->ev_base)[e] != NCG_NONE)
		for (uint32_t f = new_side ? d->rows[row].new : d->rows[row].base; f != NCG_NONE;
		     f = next[f])
			add_fn_lines(d, new_side, f, rules, &l);
	settle_lines(d, &l);
	*n = l.n;
	return l.v;
}

int diffsrc_cmp_lines(const struct side_line *a, const struct side_line *b)
{
	return cmp_side_line(a, b);
}

void diffsrc_free_lines(struct side_line *l, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(l[i].file);
		free(l[i].cost);
	}
	free(l);
}

/* ---- a function's source ---------------------------------------------------- */

static void row_push(struct diffsrc *s, enum dsrc_kind kind, uint64_t line, uint64_t base,
		     uint64_t new, bool costed)
{
	ALLOC_GROW(s->rows, s->nrows + 1, s->rows_alloc);
	s->rows[s->nrows++] =
	    (struct dsrc_row){kind, (uint32_t)(s->nfiles - 1), line, base, new, costed};
}

/* Whether the two sides' texts of a file are the same bytes. */
static bool same_text(const struct source_text *a, const struct source_text *b)
{
	return a->data && b->data && a->size == b->size && !memcmp(a->data, b->data, a->size);
}

static struct span file_name(const struct profile *p, uint32_t id)
{
	return id == NCG_NONE ? span_make("???", 3) : profile_name(p, id);
}

/* A merged line: both sides' costs at one number. */
struct merged {
	uint64_t line, base, new;
};

/* The costed lines of one file, with the lines of context around them. */
static void push_lines(struct diffsrc *s, const struct merged *m, size_t n, int context)
{
	const struct source_text *t = &s->files[s->nfiles - 1].text;
	uint64_t ctx = context > 0 ? (uint64_t)context : 0, shown = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t l = m[i].line, start, end;

		if (context < 0 || !t->data || l == 0 || l > t->nlines) {
			row_push(s, DSRC_LINE, l, m[i].base, m[i].new, true);
			shown = l;
			continue;
		}
		start = l > ctx ? l - ctx : 1;
		if (start <= shown)
			start = shown + 1;
		else if (shown && start > shown + 1)
			row_push(s, DSRC_GAP, 0, 0, 0, false);
		for (uint64_t k = start; k < l; k++)
			row_push(s, DSRC_LINE, k, 0, 0, false);
		row_push(s, DSRC_LINE, l, m[i].base, m[i].new, true);
		end = l + ctx < t->nlines ? l + ctx : t->nlines;
		for (shown = l; shown < end && (i + 1 == n || shown + 1 < m[i + 1].line); shown++)
			row_push(s, DSRC_LINE, shown + 1, 0, 0, false);
	}
}

/* One file of the row: its heading, notes, and both sides' lines of it. */
static void add_file(struct diffsrc *s, const struct diff *d, uint32_t e,
		     const struct source_paths *sources, const struct side_line *b, size_t nb,
		     const struct side_line *n, size_t nn, int context)
{
	const struct side_line *first = nn ? n : b;
	struct dsrc_file *f;
	struct merged *m = xmalloc_array(nb + nn + 1, sizeof(*m));
	size_t i = 0, j = 0, k = 0;
	uint64_t base_sum = 0;

	ALLOC_GROW(s->files, s->nfiles + 1, s->files_alloc);
	f = &s->files[s->nfiles++];
	memset(f, 0, sizeof(*f));
	f->name = xstrdup(first->file);
	source_load(&f->text, sources, file_name(nn ? d->new : d->base, first->file_id));
	if (nb && nn) {
		struct source_text tb;

		source_load(&tb, sources, file_name(d->base, b->file_id));
		f->differ = tb.data && f->text.data && !same_text(&tb, &f->text);
		source_release(&tb);
	}
	row_push(s, DSRC_FILE, 0, 0, 0, false);
	if (f->differ) {
		for (size_t x = 0; x < nb; x++)
			u64_add_sat(&base_sum, b[x].cost[e]);
		row_push(s, DSRC_DIFFER, 0, base_sum, 0, false);
	}
	if (!f->text.data) {
		row_push(s, DSRC_NOT_FOUND, 0, 0, 0, false);
		for (size_t t = 0; t < f->text.ntried;
		     t++) /* where to put it, as the source view */
			row_push(s, DSRC_TRIED, t, 0, 0, false);
	}
	while (i < nb || j < nn) {
		int c = i == nb   ? 1
			: j == nn ? -1
				  : (b[i].line > n[j].line) - (b[i].line < n[j].line);
		struct merged x = {c <= 0 ? b[i].line : n[j].line,
				   c <= 0 && !f->differ ? b[i].cost[e] : 0,
				   c >= 0 ? n[j].cost[e] : 0};

		i += c <= 0;
		j += c >= 0;
		if (f->differ && c < 0)
			continue; /* a base line alone: not set against the new text */
		m[k++] = x;
	}
	push_lines(s, m, k, context);
	free(m);
}

void diffsrc_build(struct diffsrc *s, const struct diff *d, uint32_t row, uint32_t e,
		   const struct rewrites *rules, const struct source_paths *sources, int context)
{
	size_t nb, nn, i = 0, j = 0;
	struct side_line *b, *n;

	memset(s, 0, sizeof(*s));
	if (e >= d->nev)
		return;
	b = row_lines(d, false, row, e, rules, &nb);
	n = row_lines(d, true, row, e, rules, &nn);
	while (i < nb || j < nn) { /* file by file, both sides' lines of each */
		const char *key = i < nb && (j == nn || strcmp(b[i].file, n[j].file) <= 0)
				      ? b[i].file
				      : n[j].file;
		size_t i2 = i, j2 = j;

		while (i2 < nb && !strcmp(b[i2].file, key))
			i2++;
		while (j2 < nn && !strcmp(n[j2].file, key))
			j2++;
		add_file(s, d, e, sources, b + i, i2 - i, n + j, j2 - j, context);
		i = i2;
		j = j2;
	}
	diffsrc_free_lines(b, nb);
	diffsrc_free_lines(n, nn);
}

void diffsrc_release(struct diffsrc *s)
{
	for (size_t i = 0; i < s->nfiles; i++) {
		free(s->files[i].name);
		source_release(&s->files[i].text);
	}
	free(s->files);
	free(s->rows);
	memset(s, 0, sizeof(*s));
}
