/*
 * diff: each side's functions under their rewritten keys, sorted, walked
 * together; functions of one side that share a key after the rules (two
 * builds' addresses made equal) are one row, their costs summed. Then the
 * rows left of one side are walked again by object and name only: a
 * checkout built twice, in a/ and in b/, names every file twice, and a
 * function alone under its name on each side in files of one base name is
 * the same function (cg_diff needs --mod-filename for it; the common case
 * should not).
 */
#include "ncgrind/model/diff.h"
#include "ncgrind/core/graph.h"
#include "ncgrind/core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the rules ---------------------------------------------------------- */

void rewrites_release(struct rewrites *r)
{
	for (size_t i = 0; i < r->n; i++) {
		regfree(&r->v[i].re);
		free(r->v[i].repl);
	}
	free(r->v);
	memset(r, 0, sizeof(*r));
}

/* The text up to the next unescaped delim (a \delim stands for delim), malloc'd. */
static char *field(const char **p, char delim)
{
	const char *s = *p;
	char *out = xmalloc(strlen(s) + 1), *o = out;

	while (*s && *s != delim) {
		if (s[0] == '\\' && s[1] == delim) {
			*o++ = delim;
			s += 2;
			continue;
		}
		if (s[0] == '\\' && s[1]) /* other escapes stay, for the regex or \1 */
			*o++ = *s++;
		*o++ = *s++;
	}
	*o = '\0';
	if (*s != delim) {
		free(out);
		return NULL;
	}
	*p = s + 1;
	return out;
}

int rewrites_add(struct rewrites *r, enum diff_part part, const char *spec, char *err,
		 size_t errsize)
{
	struct rewrite w = {part, {0}, NULL, false};
	const char *p = spec;
	char *re = NULL, delim;
	int flags = REG_EXTENDED, rc;

	if (p[0] != 's' || !p[1]) {
		snprintf(err, errsize, "'%s' is not s/REGEX/REPLACEMENT/", spec);
		return -1;
	}
	delim = p[1];
	p += 2;
	if (!(re = field(&p, delim)) || !(w.repl = field(&p, delim))) {
		snprintf(err, errsize, "'%s' is not s/REGEX/REPLACEMENT/ (a %c is missing)", spec,
			 delim);
		free(re);
		return -1;
	}
	for (; *p; p++) {
		if (*p == 'g') {
			w.global = true;
		} else if (*p == 'i') {
			flags |= REG_ICASE;
		} else {
			snprintf(err, errsize, "'%s': unknown flag '%c' (g, i)", spec, *p);
			free(re);
			free(w.repl);
			return -1;
		}
	}
	if ((rc = regcomp(&w.re, re, flags)) != 0) {
		char why[200];

		regerror(rc, &w.re, why, sizeof(why));
		snprintf(err, errsize, "'%s': %s", spec, why);
		free(re);
		free(w.repl);
		return -1;
	}
	free(re);
	ALLOC_GROW(r->v, r->n + 1, r->alloc);
	r->v[r->n++] = w;
	return 0;
}

struct buf {
	char *s;
	size_t n, alloc;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
	ALLOC_GROW(b->s, b->n + n + 1, b->alloc);
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

/* The replacement for one match m of s: \1..\9 the groups, & the match, \\ a \. */
static void expand(struct buf *b, const char *repl, const char *s, const regmatch_t *m)
{
	for (const char *r = repl; *r; r++) {
		if (*r == '\\' && r[1] >= '0' && r[1] <= '9') {
			const regmatch_t *g = &m[r[1] - '0'];

			if (g->rm_so >= 0)
				buf_add(b, s + g->rm_so, (size_t)(g->rm_eo - g->rm_so));
			r++;
		} else if (*r == '\\' && r[1]) {
			buf_add(b, ++r, 1);
		} else if (*r == '&') {
			buf_add(b, s + m[0].rm_so, (size_t)(m[0].rm_eo - m[0].rm_so));
		} else {
			buf_add(b, r, 1);
		}
	}
}

static char *apply_one(const struct rewrite *w, char *s)
{
	struct buf b = {NULL, 0, 0};
	size_t at = 0, len = strlen(s);
	regmatch_t m[10];

	buf_add(&b, "", 0);
	while (at <= len && regexec(&w->re, s + at, 10, m, at ? REG_NOTBOL : 0) == 0) {
		buf_add(&b, s + at, (size_t)m[0].rm_so);
		expand(&b, w->repl, s + at, m);
		if (m[0].rm_eo == m[0].rm_so) { /* an empty match: step over a byte */
			if (at + (size_t)m[0].rm_eo < len)
				buf_add(&b, s + at + m[0].rm_eo, 1);
			at += (size_t)m[0].rm_eo + 1;
		} else {
			at += (size_t)m[0].rm_eo;
		}
		if (!w->global)
			break;
	}
	if (at < len)
		buf_add(&b, s + at, len - at);
	free(s);
	return b.s;
}

char *rewrites_apply(const struct rewrites *r, enum diff_part part, struct span s)
{
	char *out = xmalloc(s.len + 1);

	memcpy(out, s.ptr, s.len);
	out[s.len] = '\0';
	for (size_t i = 0; r && i < r->n; i++)
		if (r->v[i].part == part)
			out = apply_one(&r->v[i], out);
	return out;
}

/* ---- matching ----------------------------------------------------------- */

struct fnkey {
	char *key;
	uint32_t fn;
};

static int cmp_fnkey(const void *a, const void *b)
{
	const struct fnkey *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->fn > y->fn) - (x->fn < y->fn);
}

static struct span name_or_empty(const struct profile *p, uint32_t id)
{
	return id == NCG_NONE ? span_make("", 0) : profile_name(p, id);
}

/* The object's base name: two builds in two directories are one object. */
static struct span base_name(struct span s)
{
	for (size_t i = s.len; i > 0; i--)
		if (s.ptr[i - 1] == '/')
			return span_make(s.ptr + i, s.len - i);
	return s;
}

/* One side's functions with their keys (object, file, name, rewritten), sorted. */
static struct fnkey *fnkey_functions(const struct profile *p, const struct rewrites *rules,
				     size_t *n)
{
	struct fnkey *k = xmalloc_array(p->nfuncs ? p->nfuncs : 1, sizeof(*k));

	*n = 0;
	for (uint32_t f = 0; f < p->nfuncs; f++) {
		const struct function *fn = &p->funcs[f];
		char *o, *fi, *na;
		size_t len;

		if (!profile_function_used(p, f))
			continue;
		o = rewrites_apply(rules, DIFF_OBJECT, base_name(name_or_empty(p, fn->object)));
		fi = rewrites_apply(rules, DIFF_FILE, name_or_empty(p, fn->file));
		na = rewrites_apply(rules, DIFF_NAME, name_or_empty(p, fn->name));
		len = strlen(o) + strlen(fi) + strlen(na) + 3;
		k[*n].key = xmalloc(len);
		/* \x01 apart: no name holds it, so two keys differ where their parts do */
		snprintf(k[*n].key, len, "%s\x01%s\x01%s", o, fi, na);
		k[*n].fn = f;
		(*n)++;
		free(o);
		free(fi);
		free(na);
	}
	if (*n > 1)
		qsort(k, *n, sizeof(*k), cmp_fnkey);
	return k;
}

static void match_events(struct diff *d)
{
	const struct profile *b = d->base, *n = d->new;
	uint32_t max = b->nev + n->nev;

	d->ev_name = xmalloc_array(max ? max : 1, sizeof(struct span));
	d->ev_base = xmalloc_array(max ? max : 1, sizeof(uint32_t));
	d->ev_new = xmalloc_array(max ? max : 1, sizeof(uint32_t));
	d->nev = 0;
	/*
	 * A ratio's change is not a cost's: a diff leaves ratio events out (they
	 * keep their place, the new profile's events come first in its order, but
	 * count on neither side).
	 */
	for (uint32_t e = 0; e < n->nev; e++) {
		bool ratio = n->events[e].ratio;

		d->ev_name[d->nev] = n->events[e].name;
		d->ev_new[d->nev] = ratio ? NCG_NONE : e;
		d->ev_base[d->nev++] = ratio ? NCG_NONE : profile_find_event(b, n->events[e].name);
	}
	for (uint32_t e = 0; e < b->nev; e++)
		if (!b->events[e].ratio && profile_find_event(n, b->events[e].name) == NCG_NONE) {
			d->ev_name[d->nev] = b->events[e].name;
			d->ev_base[d->nev] = e;
			d->ev_new[d->nev++] = NCG_NONE;
		}
}

/* Functions of a side with the same key as the one before: chained to it. */
static uint32_t *chain(const struct fnkey *k, size_t n, size_t nfuncs, uint32_t **head)
{
	uint32_t *next = xmalloc_array(nfuncs ? nfuncs : 1, sizeof(uint32_t));

	memset(next, 0xff, (nfuncs ? nfuncs : 1) * sizeof(uint32_t));
	*head = xmalloc_array(n ? n : 1, sizeof(uint32_t));
	for (size_t i = 0; i < n; i++)
		(*head)[i] = i && !strcmp(k[i].key, k[i - 1].key) ? (*head)[i - 1] : k[i].fn;
	for (size_t i = 1; i < n; i++)
		if ((*head)[i] != k[i].fn)
			next[k[i - 1].fn] = k[i].fn;
	return next;
}

static void match_calls(struct diff *d);

/* A row while the sides are matched, with its functions' keys (NULL: none on that side). */
struct pending {
	struct diff_row row;
	const char *kb, *kn;
	uint32_t elsewhere; /* see diff.h */
	bool moved;         /* matched across directories */
};

struct pending_list {
	struct pending *v;
	size_t n, alloc;
};

static void pending_add(struct pending_list *l, uint32_t b, uint32_t n, const char *kb,
			const char *kn)
{
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n++] = (struct pending){{b, n}, kb, kn, NCG_NONE, false};
}

/* The two sides walked together by key: a row per key of either side. */
static void match_exact(struct pending_list *l, const struct fnkey *kb, size_t nb,
			const uint32_t *hb, const struct fnkey *kn, size_t nn, const uint32_t *hn)
{
	size_t i = 0, j = 0;

	while (i < nb || j < nn) {
		int c = i == nb ? 1 : j == nn ? -1 : strcmp(kb[i].key, kn[j].key);

		pending_add(l, c <= 0 ? hb[i] : NCG_NONE, c >= 0 ? hn[j] : NCG_NONE,
			    c <= 0 ? kb[i].key : NULL, c >= 0 ? kn[j].key : NULL);
		/* past every function of this key on the side(s) it came from */
		if (c <= 0)
			for (const char *key = kb[i].key; i < nb && !strcmp(kb[i].key, key); i++)
				;
		if (c >= 0)
			for (const char *key = kn[j].key; j < nn && !strcmp(kn[j].key, key); j++)
				;
	}
}

/* ---- across directories --------------------------------------------------- */

/* A row of one side under its object and name, the file left out. */
struct loose {
	char *key;        /* object \x01 name */
	struct span file; /* in the row's full key */
	size_t at;        /* the pending row */
};

static int cmp_loose(const void *a, const void *b)
{
	const struct loose *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->at > y->at) - (x->at < y->at);
}

/* The rows of one side by object and name (the parts of a full key: object, file, name). */
static struct loose *loose_side(const struct pending_list *l, bool new_side, size_t *n)
{
	struct loose *v = xmalloc_array(l->n ? l->n : 1, sizeof(*v));

	*n = 0;
	for (size_t r = 0; r < l->n; r++) {
		const char *k = new_side ? l->v[r].kn : l->v[r].kb, *f, *na;
		size_t olen;

		if (!k)
			continue;
		f = strchr(k, '\x01') + 1;
		na = strchr(f, '\x01') + 1;
		olen = (size_t)(f - k);
		v[*n].key = xmalloc(olen + strlen(na) + 1);
		memcpy(v[*n].key, k, olen);
		strcpy(v[*n].key + olen, na);
		v[*n].file = span_make(f, (size_t)(na - 1 - f));
		v[*n].at = r;
		(*n)++;
	}
	if (*n > 1)
		qsort(v, *n, sizeof(*v), cmp_loose);
	return v;
}

static bool same_base_name(struct span a, struct span b)
{
	a = base_name(a);
	b = base_name(b);
	return a.len == b.len && !memcmp(a.ptr, b.ptr, a.len);
}

/*
 * One object and name, rows gb of the base and gn of the new: alone on each
 * side, unmatched, in files of one base name: one row (the new one's left
 * empty). Else each unmatched row of them names a namesake of the other side.
 */
static void match_group(struct pending_list *l, const struct loose *gb, size_t nb,
			const struct loose *gn, size_t nn, bool strict, size_t *moved)
{
	if (nb == 1 && nn == 1 && l->v[gb->at].row.new == NCG_NONE &&
	    l->v[gn->at].row.base == NCG_NONE && !strict &&same_base_name(gb->file, gn->file)) {
		struct pending *b = &l->v[gb->at], *n = &l->v[gn->at];

		b->row.new = n->row.new;
		b->kn = n->kn;
		b->moved = true;
		n->row.new = NCG_NONE; /* (a row of neither side: dropped) */
		n->kn = NULL;
		(*moved)++;
		return;
	}
	for (size_t i = 0; nn && i < nb; i++)
		if (l->v[gb[i].at].row.new == NCG_NONE)
			l->v[gb[i].at].elsewhere = l->v[gn->at].row.new;
	for (size_t j = 0; nb && j < nn; j++)
		if (l->v[gn[j].at].row.base == NCG_NONE)
			l->v[gn[j].at].elsewhere = l->v[gb->at].row.base;
}

/* The rows of one object and name on both sides, group by group. */
static size_t match_dirs(struct pending_list *l, bool strict)
{
	size_t nb, nn, i = 0, j = 0, moved = 0;
	struct loose *b = loose_side(l, false, &nb), *n = loose_side(l, true, &nn);

	while (i < nb || j < nn) {
		int c = i == nb ? 1 : j == nn ? -1 : strcmp(b[i].key, n[j].key);
		size_t i2 = i, j2 = j;

		if (c <= 0)
			while (i2 < nb && !strcmp(b[i2].key, b[i].key))
				i2++;
		if (c >= 0)
			while (j2 < nn && !strcmp(n[j2].key, n[j].key))
				j2++;
		match_group(l, b + i, i2 - i, n + j, j2 - j, strict, &moved);
		i = i2;
		j = j2;
	}
	for (size_t k = 0; k < nb; k++)
		free(b[k].key);
	for (size_t k = 0; k < nn; k++)
		free(n[k].key);
	free(b);
	free(n);
	return moved;
}

static int cmp_file_pair(const void *a, const void *b)
{
	const struct diff_file_pair *x = a, *y = b;
	int c = strcmp(x->base, y->base);

	return c ? c : strcmp(x->new, y->new);
}

/* The file part of a full key, malloc'd. */
static char *key_file(const char *k)
{
	const char *f = strchr(k, '\x01') + 1, *end = strchr(f, '\x01');
	char *s = xmalloc((size_t)(end - f) + 1);

	memcpy(s, f, (size_t)(end - f));
	s[end - f] = '\0';
	return s;
}

/* The files of the rows matched across directories, each base file paired with one only. */
static void file_pairs(struct diff *d, const struct pending_list *l)
{
	struct diff_file_pair *v;
	size_t n = 0, o = 0, moved = 0;

	/* (of every row, those the filters drop too: a file's lines meet the same way) */
	for (size_t r = 0; r < l->n; r++)
		moved += l->v[r].moved;
	v = xmalloc_array(moved ? moved : 1, sizeof(*v));
	for (size_t r = 0; r < l->n; r++)
		if (l->v[r].moved)
			v[n++] =
			    (struct diff_file_pair){key_file(l->v[r].kb), key_file(l->v[r].kn)};
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_file_pair);
	for (size_t i = 0; i < n;) { /* a base file of two new ones: neither */
		size_t k = i + 1, distinct = 1;

		for (; k < n && !strcmp(v[k].base, v[i].base); k++)
			distinct += strcmp(v[k].new, v[k - 1].new) != 0;
		for (size_t x = i; x < k; x++)
			if (x == i && distinct == 1) {
				v[o++] = v[x];
			} else {
				free(v[x].base);
				free(v[x].new);
			}
		i = k;
	}
	d->file_pairs = v;
	d->nfile_pairs = o;
}

const char *diff_file_pair(const struct diff *d, const char *base_file)
{
	size_t lo = 0, hi = d->nfile_pairs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(base_file, d->file_pairs[mid].base);

		if (!c)
			return d->file_pairs[mid].new;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

bool diff_row_moved(const struct diff *d, size_t r)
{
	return r < d->matched && r >= d->matched - d->matched_dir;
}

/* Whether the filters keep one of a side's functions of a row (NULL keep: all). */
static bool side_kept(const bool *keep, const uint32_t *next, uint32_t f)
{
	for (; f != NCG_NONE; f = next[f])
		if (keep[f])
			return true;
	return false;
}

/*
 * A row is kept where a side that has it keeps it: either side, not both,
 * so that a function that comes into what the filters keep (focus main: now
 * called from main) or leaves it shows its change, and a row of one side
 * is judged by that side alone as a row of both is by each.
 */
static bool row_kept(const struct diff *d, const struct pending *p, const bool *keep_base,
		     const bool *keep_new)
{
	if (!keep_base && !keep_new)
		return true;
	return (p->row.base != NCG_NONE &&
		(!keep_base || side_kept(keep_base, d->next_base, p->row.base))) ||
	       (p->row.new != NCG_NONE &&
		(!keep_new || side_kept(keep_new, d->next_new, p->row.new)));
}

/* The rows in the diff's order: matched (across directories last), gone, new. */
static void settle_rows(struct diff *d, const struct pending_list *l, const bool *keep_base,
			const bool *keep_new)
{
	size_t k = 0;

	d->rows = xmalloc_array(l->n ? l->n : 1, sizeof(*d->rows));
	d->elsewhere = xmalloc_array(l->n ? l->n : 1, sizeof(uint32_t));
	for (int pass = 0; pass < 4; pass++)
		for (size_t r = 0; r < l->n; r++) {
			const struct pending *p = &l->v[r];
			bool b = p->row.base != NCG_NONE, n = p->row.new != NCG_NONE;
			int kind = b && n ? (p->moved ? 1 : 0) : b ? 2 : n ? 3 : -1;

			if (kind != pass)
				continue;
			if (!row_kept(d, p, keep_base, keep_new)) {
				d->nrows_all++;
				continue;
			}
			d->rows[k] = p->row;
			d->elsewhere[k++] = p->elsewhere;
			d->matched += kind <= 1;
			d->only_base += kind == 2;
			d->only_new += kind == 3;
			d->matched_dir += kind == 1;
			d->elsewhere_gone += kind == 2 && p->elsewhere != NCG_NONE;
			d->elsewhere_new += kind == 3 && p->elsewhere != NCG_NONE;
		}
	d->nrows = k;
	d->nrows_all += k;
	d->filtered = keep_base || keep_new;
}

static void diff_totals(struct diff *d)
{
	size_t na = d->matched, nbo = d->only_base;

	d->total_base = xcalloc(d->nev ? d->nev : 1, sizeof(uint64_t));
	d->total_new = xcalloc(d->nev ? d->nev : 1, sizeof(uint64_t));
	d->unmatched_base = xcalloc(d->nev ? d->nev : 1, sizeof(uint64_t));
	d->unmatched_new = xcalloc(d->nev ? d->nev : 1, sizeof(uint64_t));
	for (uint32_t e = 0; e < d->nev; e++) {
		d->total_base[e] = d->ev_base[e] != NCG_NONE ? d->base->totals[d->ev_base[e]] : 0;
		d->total_new[e] = d->ev_new[e] != NCG_NONE ? d->new->totals[d->ev_new[e]] : 0;
		for (size_t r = na; r < na + nbo; r++)
			u64_add_sat(&d->unmatched_base[e], diff_cost(d, r, false, false, e));
		for (size_t r = na + nbo; r < d->nrows; r++)
			u64_add_sat(&d->unmatched_new[e], diff_cost(d, r, true, false, e));
	}
}

static void free_keys(struct fnkey *k, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(k[i].key);
	free(k);
}

void diff_build(struct diff *d, const struct profile *base, const struct profile *new,
		const struct rewrites *rules, const bool *keep_base, const bool *keep_new)
{
	size_t nb, nn;
	struct fnkey *kb = fnkey_functions(base, rules, &nb),
		     *kn = fnkey_functions(new, rules, &nn);
	uint32_t *hb, *hn;
	struct pending_list l = {NULL, 0, 0};

	memset(d, 0, sizeof(*d));
	d->base = base;
	d->new = new;
	d->shares_base = call_shares_new();
	d->shares_new = call_shares_new();
	match_events(d);
	d->next_base = chain(kb, nb, base->nfuncs, &hb);
	d->next_new = chain(kn, nn, new->nfuncs, &hn);
	match_exact(&l, kb, nb, hb, kn, nn, hn);
	match_dirs(&l, rules && rules->strict_files);
	settle_rows(d, &l, keep_base, keep_new);
	file_pairs(d, &l);
	free(l.v);
	free(hb);
	free(hn);
	free_keys(kb, nb);
	free_keys(kn, nn);
	match_calls(d);
	diff_totals(d);
}

void diff_release(struct diff *d)
{
	free(d->rows);
	free(d->elsewhere);
	for (size_t i = 0; i < d->nfile_pairs; i++) {
		free(d->file_pairs[i].base);
		free(d->file_pairs[i].new);
	}
	free(d->file_pairs);
	free(d->ev_name);
	free(d->ev_base);
	free(d->ev_new);
	free(d->total_base);
	free(d->total_new);
	free(d->unmatched_base);
	free(d->unmatched_new);
	free(d->next_base);
	free(d->next_new);
	free(d->row_of_base);
	free(d->row_of_new);
	free(d->calls);
	free(d->out_start);
	free(d->in_start);
	free(d->in_call);
	free(d->next_edge_base);
	free(d->next_edge_new);
	call_shares_free(d->shares_base);
	call_shares_free(d->shares_new);
	memset(d, 0, sizeof(*d));
}

uint64_t diff_cost(const struct diff *d, size_t row, bool new_side, bool incl, uint32_t e)
{
	const struct profile *p = new_side ? d->new : d->base;
	const uint32_t *next = new_side ? d->next_new : d->next_base;
	uint32_t ev = new_side ? d->ev_new[e] : d->ev_base[e];
	uint64_t v = 0;

	if (ev == NCG_NONE)
		return 0;
	for (uint32_t f = new_side ? d->rows[row].new : d->rows[row].base; f != NCG_NONE;
	     f = next[f])
		u64_add_sat(&v, incl ? profile_incl_at(p, f, ev) : profile_self_at(p, f, ev));
	return v;
}

uint32_t diff_function(const struct diff *d, size_t row, const struct profile **p)
{
	if (d->rows[row].new != NCG_NONE) {
		*p = d->new;
		return d->rows[row].new;
	}
	*p = d->base;
	return d->rows[row].base;
}

/* ---- calls -------------------------------------------------------------- */

/* A call edge of one side as the rows it joins: sorted by them, to pair the sides. */
struct side_call {
	uint32_t caller, callee, edge;
};

static int cmp_side_call(const void *a, const void *b)
{
	const struct side_call *x = a, *y = b;

	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	if (x->callee != y->callee)
		return x->callee < y->callee ? -1 : 1;
	return (x->edge > y->edge) - (x->edge < y->edge);
}

static uint32_t *rows_of(const struct diff *d, size_t nfuncs, bool new_side)
{
	uint32_t *r = xmalloc_array(nfuncs ? nfuncs : 1, sizeof(uint32_t));
	const uint32_t *next = new_side ? d->next_new : d->next_base;

	memset(r, 0xff, (nfuncs ? nfuncs : 1) * sizeof(uint32_t));
	for (size_t i = 0; i < d->nrows; i++)
		for (uint32_t f = new_side ? d->rows[i].new : d->rows[i].base; f != NCG_NONE;
		     f = next[f])
			r[f] = (uint32_t)i;
	return r;
}

static struct side_call *side_calls(const struct profile *p, const uint32_t *row_of, size_t *n)
{
	struct side_call *c = xmalloc_array(p->nedges ? p->nedges : 1, sizeof(*c));

	*n = 0;
	for (uint32_t e = 0; e < p->nedges; e++) {
		uint32_t a = row_of[p->edges[e].caller], b = row_of[p->edges[e].callee];

		if (a != NCG_NONE && b != NCG_NONE && profile_edge_counts(p, e))
			c[(*n)++] = (struct side_call){a, b, e};
	}
	if (*n > 1)
		qsort(c, *n, sizeof(*c), cmp_side_call);
	return c;
}

/* Edges of one side joining the same two rows (after the rules) are one call. */
static uint32_t *edge_chain(const struct side_call *c, size_t n, size_t nedges)
{
	uint32_t *next = xmalloc_array(nedges ? nedges : 1, sizeof(uint32_t));

	memset(next, 0xff, (nedges ? nedges : 1) * sizeof(uint32_t));
	for (size_t i = 1; i < n; i++)
		if (c[i].caller == c[i - 1].caller && c[i].callee == c[i - 1].callee)
			next[c[i - 1].edge] = c[i].edge;
	return next;
}

/* The calls out of and into each row, for the trees (calls are sorted by caller). */
static void call_index(struct diff *d)
{
	uint32_t *fill;

	d->out_start = xcalloc(d->nrows + 1, sizeof(uint32_t));
	d->in_start = xcalloc(d->nrows + 1, sizeof(uint32_t));
	d->in_call = xmalloc_array(d->ncalls ? d->ncalls : 1, sizeof(uint32_t));
	for (size_t c = 0; c < d->ncalls; c++) {
		d->out_start[d->calls[c].caller + 1]++;
		d->in_start[d->calls[c].callee + 1]++;
	}
	for (size_t r = 0; r < d->nrows; r++) {
		d->out_start[r + 1] += d->out_start[r];
		d->in_start[r + 1] += d->in_start[r];
	}
	fill = xmalloc_array(d->nrows ? d->nrows : 1, sizeof(uint32_t));
	if (d->nrows)
		memcpy(fill, d->in_start, d->nrows * sizeof(uint32_t));
	for (size_t c = 0; c < d->ncalls; c++)
		d->in_call[fill[d->calls[c].callee]++] = (uint32_t)c;
	free(fill);
}

static void match_calls(struct diff *d)
{
	size_t nb, nn, i = 0, j = 0, alloc = 0;
	struct side_call *cb, *cn;

	d->row_of_base = rows_of(d, d->base->nfuncs, false);
	d->row_of_new = rows_of(d, d->new->nfuncs, true);
	cb = side_calls(d->base, d->row_of_base, &nb);
	cn = side_calls(d->new, d->row_of_new, &nn);
	d->next_edge_base = edge_chain(cb, nb, d->base->nedges);
	d->next_edge_new = edge_chain(cn, nn, d->new->nedges);
	while (i < nb || j < nn) {
		int c = i == nb ? 1 : j == nn ? -1 : cmp_side_call(&cb[i], &cn[j]);
		struct diff_call call;

		/* (the edge ids do not count here: compare the rows only) */
		if (i < nb && j < nn && cb[i].caller == cn[j].caller &&
		    cb[i].callee == cn[j].callee)
			c = 0;
		call.caller = c <= 0 ? cb[i].caller : cn[j].caller;
		call.callee = c <= 0 ? cb[i].callee : cn[j].callee;
		call.base = c <= 0 ? cb[i].edge : NCG_NONE;
		call.new = c >= 0 ? cn[j].edge : NCG_NONE;
		ALLOC_GROW(d->calls, d->ncalls + 1, alloc);
		d->calls[d->ncalls++] = call;
		if (c <= 0)
			for (uint32_t a = cb[i].caller, b = cb[i].callee;
			     i < nb && cb[i].caller == a && cb[i].callee == b; i++)
				;
		if (c >= 0)
			for (uint32_t a = cn[j].caller, b = cn[j].callee;
			     j < nn && cn[j].caller == a && cn[j].callee == b; j++)
				;
	}
	free(cb);
	free(cn);
	call_index(d);
}

uint64_t diff_call_count(const struct diff *d, size_t call, bool new_side)
{
	const struct profile *p = new_side ? d->new : d->base;
	const uint32_t *next = new_side ? d->next_edge_new : d->next_edge_base;
	uint64_t v = 0;

	for (uint32_t e = new_side ? d->calls[call].new : d->calls[call].base; e != NCG_NONE;
	     e = next[e])
		u64_add_sat(&v, p->edges[e].count);
	return v;
}

/* A call's cost on one side, each edge's as recorded (shares: NULL) or its share. */
static uint64_t call_sum(const struct diff *d, size_t call, bool new_side, uint32_t ev,
			 struct call_shares *shares)
{
	const struct profile *p = new_side ? d->new : d->base;
	const uint32_t *next = new_side ? d->next_edge_new : d->next_edge_base;
	uint32_t pe = new_side ? d->ev_new[ev] : d->ev_base[ev];
	uint64_t v = 0;

	if (pe == NCG_NONE)
		return 0;
	for (uint32_t e = new_side ? d->calls[call].new : d->calls[call].base; e != NCG_NONE;
	     e = next[e])
		u64_add_sat(&v, shares ? call_shares_cost(shares, p, e, pe)
				       : profile_edge_at(p, e, pe));
	return v;
}

uint64_t diff_call_cost(const struct diff *d, size_t call, bool new_side, uint32_t ev)
{
	return call_sum(d, call, new_side, ev, new_side ? d->shares_new : d->shares_base);
}

uint64_t diff_call_recorded(const struct diff *d, size_t call, bool new_side, uint32_t ev)
{
	return call_sum(d, call, new_side, ev, NULL);
}

/* ---- order -------------------------------------------------------------- */

struct change {
	uint64_t mag; /* |new - base| */
	bool down;    /* new < base */
};

/* The context of the sorts of rows and calls. */
struct change_order {
	const struct diff *d;
	const struct change *ch; /* a row's, or NULL */
	const uint64_t *mag;     /* a call's change, or NULL */
	int dir;
};

static struct span row_name(const struct diff *d, size_t r)
{
	const struct profile *p;
	uint32_t f = diff_function(d, r, &p);

	return p->funcs[f].name == NCG_NONE ? span_make("", 0) : profile_name(p, p->funcs[f].name);
}

/* -1, 0, 1 as a is more grown (dir 1), more shrunk (-1) or bigger (0) than b */
static int cmp_change(const struct change *a, const struct change *b, int dir)
{
	if (dir == 0)
		return a->mag != b->mag ? (a->mag > b->mag ? -1 : 1) : 0;
	if (dir < 0) {
		const struct change x = {a->mag, !a->down}, y = {b->mag, !b->down};

		return cmp_change(&x, &y, 1);
	}
	if (a->down != b->down)
		return a->down ? 1 : -1;
	if (a->mag == b->mag)
		return 0;
	return (a->mag > b->mag) == !a->down ? -1 : 1;
}

static int cmp_rows(const void *pa, const void *pb, void *ctx)
{
	const struct change_order *o = ctx;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = cmp_change(&o->ch[a], &o->ch[b], o->dir);
	struct span x, y;
	size_t n;

	if (c)
		return c;
	x = row_name(o->d, a);
	y = row_name(o->d, b);
	n = x.len < y.len ? x.len : y.len;
	if ((c = memcmp(x.ptr, y.ptr, n)) != 0)
		return c;
	if (x.len != y.len)
		return x.len < y.len ? -1 : 1;
	return (a > b) - (a < b);
}

size_t *diff_order(const struct diff *d, uint32_t e, bool incl, int dir)
{
	size_t *idx = xmalloc_array(d->nrows ? d->nrows : 1, sizeof(size_t));
	struct change *ch = xmalloc_array(d->nrows ? d->nrows : 1, sizeof(*ch));

	for (size_t r = 0; r < d->nrows; r++) {
		uint64_t b = diff_cost(d, r, false, incl, e), n = diff_cost(d, r, true, incl, e);

		ch[r] = (struct change){n >= b ? n - b : b - n, n < b};
		idx[r] = r;
	}
	sort_with(idx, d->nrows, sizeof(size_t), cmp_rows,
		  &(struct change_order){d, ch, NULL, dir});
	free(ch);
	return idx;
}

static int cmp_calls(const void *pa, const void *pb, void *ctx)
{
	const struct change_order *o = ctx;
	const uint64_t *call_mag = o->mag;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const struct diff_call *x = &o->d->calls[a], *y = &o->d->calls[b];
	struct span nx, ny;
	size_t n;
	int c;

	if (call_mag[a] != call_mag[b])
		return call_mag[a] > call_mag[b] ? -1 : 1;
	for (int k = 0; k < 2; k++) {
		nx = row_name(o->d, k ? x->callee : x->caller);
		ny = row_name(o->d, k ? y->callee : y->caller);
		n = nx.len < ny.len ? nx.len : ny.len;
		if ((c = memcmp(nx.ptr, ny.ptr, n)) != 0)
			return c;
		if (nx.len != ny.len)
			return nx.len < ny.len ? -1 : 1;
	}
	return (a > b) - (a < b);
}

size_t *diff_call_order(const struct diff *d, uint32_t e)
{
	size_t *idx = xmalloc_array(d->ncalls ? d->ncalls : 1, sizeof(size_t));
	uint64_t *mag = xmalloc_array(d->ncalls ? d->ncalls : 1, sizeof(uint64_t));

	for (size_t c = 0; c < d->ncalls; c++) {
		uint64_t b = diff_call_cost(d, c, false, e), n = diff_call_cost(d, c, true, e);

		mag[c] = n >= b ? n - b : b - n;
		idx[c] = c;
	}
	sort_with(idx, d->ncalls, sizeof(size_t), cmp_calls,
		  &(struct change_order){d, NULL, mag, 0});
	free(mag);
	return idx;
}
