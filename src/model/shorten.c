/*
 * shorten: one way to cut names and values to a width, for every screen.
 *
 * A name is shortened on its own first (shorten_name): its template
 * arguments and parameter lists fold to <…> and (…); then it is cut by
 * keeping ranges of it in order of priority (put_kept): its 'N, its own
 * name (the start, the parameters, the end), then its start, a … for each
 * run left out. A --separate-callers chain (fn'caller'caller) keeps its
 * function, then its first caller's own name; a file (include::/a/b.php)
 * its kind and its end. Rows shown together can still read the same (three
 * instances of one template, f and f'2), so shorten_rows takes the rows that
 * collide further, round by round: the own name's template arguments open,
 * then the groups over the first difference (their other arguments folded
 * to …), then the raw name; each keeps the text at the difference next to
 * the own name and the 'N. Widths are display columns, as the
 * grid draws them (grid_width).
 */
#include "ncgrind/model/shorten.h"
#include "ncgrind/model/grid.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MARK_LEN 3 /* bytes of SHORTEN_MARK, one column */
#define MIN_HEAD 4 /* columns of a name's start worth keeping before a … */
#define CONTEXT 3  /* columns shown before the first difference of two names */
#define ROUNDS 16  /* of shorten_rows: a row may start to collide late */

/* ---- columns ------------------------------------------------------------ */

/* Bytes of the character at s (an invalid byte is one, drawn as \xNN). */
static size_t unit_len(const char *s, size_t n)
{
	unsigned char c = (unsigned char)s[0];
	size_t len = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;

	if (len > n)
		return 1;
	for (size_t i = 1; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			return 1;
	return len;
}

static int text_width(const char *s, size_t n)
{
	return grid_width(s, n);
}

/* The most bytes of s, on a character boundary, that take at most w columns. */
static size_t prefix_fit(const char *s, size_t n, int w)
{
	size_t i = 0;
	int used = 0;

	while (i < n) {
		size_t l = unit_len(s + i, n - i);
		int cw = text_width(s + i, l);

		if (used + cw > w)
			break;
		used += cw;
		i += l;
	}
	return i;
}

/* The first character boundary of s from which the rest takes at most w columns. */
static size_t suffix_fit(const char *s, size_t n, int w)
{
	int over = text_width(s, n) - w;
	size_t i = 0;

	while (i < n && over > 0) {
		size_t l = unit_len(s + i, n - i);

		over -= text_width(s + i, l);
		i += l;
	}
	return i;
}

/* ---- the output --------------------------------------------------------- */

struct out {
	char *p;
	size_t size, len;
};

static void out_start(struct out *o, char *p, size_t size)
{
	o->p = p;
	o->size = size;
	o->len = 0;
	p[0] = '\0';
}

/* Append n bytes of s, as many whole characters as the buffer holds. */
static void out_put(struct out *o, const char *s, size_t n)
{
	size_t room = o->size - 1 - o->len;

	if (n > room) {
		n = room;
		while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(o->p + o->len, s, n);
	o->len += n;
	o->p[o->len] = '\0';
}

static void out_mark(struct out *o)
{
	out_put(o, SHORTEN_MARK, MARK_LEN);
}

/* ---- the structure of a name -------------------------------------------- */

/* Whether the bracket at i belongs to an operator's name (operator<, operator(), operator<<). */
static bool is_operator(const char *s, size_t i)
{
	if (i >= 8 && memcmp(s + i - 8, "operator", 8) == 0)
		return true;
	return i >= 9 && (s[i - 1] == '<' || s[i - 1] == '>' || s[i - 1] == '(') &&
	       memcmp(s + i - 9, "operator", 8) == 0;
}

static bool is_open(const char *s, size_t i, char open)
{
	return s[i] == open && !is_operator(s, i);
}

static bool is_close(const char *s, size_t i, char close)
{
	return s[i] == close && !is_operator(s, i) && !(close == '>' && i && s[i - 1] == '-');
}

static char closer(char open)
{
	return open == '<' ? '>' : ')';
}

/* The byte after the bracket that closes the one opened at i (n: never closed). */
static size_t group_end(const char *s, size_t n, size_t i, char open)
{
	int depth = 0;

	for (; i < n; i++) {
		if (is_open(s, i, open))
			depth++;
		else if (is_close(s, i, closer(open)) && --depth == 0)
			return i + 1;
	}
	return n;
}

/*
 * Folding: every outermost group of the kinds in `opens` ("<", "<(")
 * becomes open … close. A group over [from, to), where the name differs
 * from the rows it reads like, stays open, and so do those of its
 * arguments over the difference; its other arguments fold to ….
 */
struct folding {
	const char *s;
	const char *opens;
	size_t from, to;
	size_t at; /* where byte `from` went in the output (SIZE_MAX: not yet) */
};

static void fold_copy(struct out *o, struct folding *f, size_t a, size_t b)
{
	if (f->at == SIZE_MAX && f->from >= a && f->from < b)
		f->at = o->len + (f->from - a);
	out_put(o, f->s + a, b - a);
}

/* Bytes [a, b) shown as …; nothing for an empty group. */
static void fold_mark(struct out *o, struct folding *f, size_t a, size_t b)
{
	if (a >= b)
		return;
	if (f->at == SIZE_MAX && f->from >= a && f->from < b)
		f->at = o->len;
	out_mark(o);
}

static void fold_span(struct out *o, struct folding *f, size_t lo, size_t hi);

/* The arguments [a, b) of an open group: those over the difference folded in turn. */
static void fold_args(struct out *o, struct folding *f, size_t a, size_t b)
{
	const char *s = f->s;
	size_t x = a;
	int depth = 0;

	for (size_t i = a; i <= b; i++) {
		if (i < b && (is_open(s, i, '<') || is_open(s, i, '('))) {
			depth++;
		} else if (i < b && (is_close(s, i, '>') || is_close(s, i, ')'))) {
			depth -= depth > 0;
		} else if (i == b || (!depth && s[i] == ',')) {
			size_t y = x;

			while (y < i && s[y] == ' ')
				y++;
			fold_copy(o, f, x, y);
			if (y < f->to && i > f->from)
				fold_span(o, f, y, i);
			else
				fold_mark(o, f, y, i);
			if (i < b)
				fold_copy(o, f, i, i + 1);
			x = i + 1;
		}
	}
}

static void fold_span(struct out *o, struct folding *f, size_t lo, size_t hi)
{
	const char *s = f->s;
	size_t i = lo, run = lo;

	while (i < hi) {
		const char *k = f->opens;
		size_t end, inner;

		while (*k && !is_open(s, i, *k))
			k++;
		/* (a name that starts with its bracket, "(below main)", is not its parameters) */
		if (!*k || i == 0) {
			i++;
			continue;
		}
		end = group_end(s, hi, i, *k);
		inner = end > i + 1 && is_close(s, end - 1, closer(*k)) ? end - 1 : end;
		fold_copy(o, f, run, i + 1);
		if (i < f->to && end > f->from)
			fold_args(o, f, i + 1, inner);
		else
			fold_mark(o, f, i + 1, inner);
		fold_copy(o, f, inner, end);
		run = i = end;
	}
	fold_copy(o, f, run, hi);
}

/* Where the function's own name starts: after the last '::' outside brackets. */
static size_t own_name(const char *s, size_t n)
{
	size_t start = 0;
	int depth = 0;

	for (size_t i = 0; i + 1 < n; i++) {
		if (is_open(s, i, '<') || is_open(s, i, '('))
			depth++;
		else if ((is_close(s, i, '>') || is_close(s, i, ')')) && depth > 0)
			depth--;
		else if (!depth && s[i] == ':' && s[i + 1] == ':')
			start = i + 2;
	}
	return start;
}

/* Where a trailing 'N ('N'M) starts: n if none. */
static size_t counter_of(const char *s, size_t n)
{
	size_t t = n;

	while (t > 1 && isdigit((unsigned char)s[t - 1])) {
		size_t d = t;

		while (d > 0 && isdigit((unsigned char)s[d - 1]))
			d--;
		if (d == 0 || s[d - 1] != '\'')
			break;
		t = d - 1;
	}
	return t;
}

/* Where the end worth keeping of s starts: its parameters, then any 'N; n if none. */
static size_t tail_of(const char *s, size_t n)
{
	size_t t = counter_of(s, n), open = n;
	int depth = 0;

	for (size_t i = 0; i < t; i++) {
		if (is_open(s, i, '(') && depth++ == 0)
			open = i;
		else if (is_close(s, i, ')') && depth > 0)
			depth--;
	}
	return open < t ? open : t;
}

/* The next ' at or after i that links a --separate-callers name to a caller; n if none. */
static size_t next_link(const char *s, size_t n, size_t i)
{
	int depth = 0;

	for (; i + 1 < n; i++) {
		if (is_open(s, i, '<') || is_open(s, i, '('))
			depth++;
		else if ((is_close(s, i, '>') || is_close(s, i, ')')) && depth > 0)
			depth--;
		else if (!depth && s[i] == '\'' && !isdigit((unsigned char)s[i + 1]))
			return i;
	}
	return n;
}

/* A --separate-callers name: fn'caller (a ' outside brackets, then no digit). */
static bool is_chain(const char *s, size_t n)
{
	return next_link(s, n, 0) < n;
}

/* ---- one name ----------------------------------------------------------- */

/* s's start and …, in w columns. */
static void cut_end(struct out *o, const char *s, size_t n, int w)
{
	if (text_width(s, n) <= w) {
		out_put(o, s, n);
		return;
	}
	out_put(o, s, prefix_fit(s, n, w - 1));
	out_mark(o);
}

/* … and s's end, in w columns. */
static void cut_start(struct out *o, const char *s, size_t n, int w)
{
	if (text_width(s, n) <= w) {
		out_put(o, s, n);
		return;
	}
	out_mark(o);
	out_put(o, s + suffix_fit(s, n, w - 1), n - suffix_fit(s, n, w - 1));
}

/*
 * Kept ranges: a name cut to w columns by keeping, in order of priority,
 * ranges of it (its 'N, its own name's start, its parameters, ...); each
 * run of bytes not kept shows as one …. A range is kept whole or not at
 * all, or grown from its start or its end while the width allows.
 */
enum keep_how { KEEP_WHOLE, KEEP_START, KEEP_END };

struct keep {
	size_t from, to;
	enum keep_how how;
	int limit; /* the most columns it adds; 0: no limit */
};

struct kept {
	const char *s;
	size_t n;
	bool *on;
	int cost; /* the columns of what is kept and of a … a gap */
};

/* What keeping the character at [a, b) adds to the cost. */
static int keep_delta(const struct kept *k, size_t a, size_t b)
{
	int gaps = (a > 0 && !k->on[a - 1]) + (b < k->n && !k->on[b]) - 1;

	return text_width(k->s + a, b - a) + gaps;
}

/* The character of s that ends at b (b > from). */
static size_t char_before(const char *s, size_t from, size_t b)
{
	size_t a = b - 1;

	while (a > from && ((unsigned char)s[a] & 0xc0) == 0x80)
		a--;
	return a;
}

/* One range kept, or as much of it as w allows (a whole one: all or nothing). */
static void keep_range(struct kept *k, const struct keep *r, int w)
{
	bool *saved = r->how == KEEP_WHOLE ? xmalloc(r->to - r->from) : NULL;
	size_t i = r->how == KEEP_END ? r->to : r->from;
	int used = 0, cost = k->cost;

	if (saved)
		memcpy(saved, k->on + r->from, r->to - r->from);
	while (r->how == KEEP_END ? i > r->from : i < r->to) {
		size_t a = r->how == KEEP_END ? char_before(k->s, r->from, i) : i;
		size_t b = r->how == KEEP_END ? i : i + unit_len(k->s + i, k->n - i);
		int delta = keep_delta(k, a, b), cw = text_width(k->s + a, b - a);

		i = r->how == KEEP_END ? a : b;
		if (k->on[a])
			continue;
		if (k->cost + delta > w || (r->limit && used + cw > r->limit)) {
			if (saved) { /* not whole: none of it */
				memcpy(k->on + r->from, saved, r->to - r->from);
				k->cost = cost;
			}
			break;
		}
		used += cw;
		memset(k->on + a, 1, b - a);
		k->cost += delta;
	}
	free(saved);
}

/* s in w columns, keeping what `keeps` asks for in its order. */
static void put_kept(struct out *o, const char *s, size_t n, int w, const struct keep *keeps,
		     size_t nk)
{
	struct kept k = {s, n, xcalloc(n + 1, sizeof(bool)), n > 0};

	for (size_t r = 0; r < nk; r++)
		if (keeps[r].from < keeps[r].to && keeps[r].to <= n)
			keep_range(&k, &keeps[r], w);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && k.on[j] == k.on[i])
			j++;
		if (k.on[i])
			out_put(o, s + i, j - i);
		else
			out_mark(o);
		i = j;
	}
	free(k.on);
}
#define NO_DIFF SIZE_MAX

/* The text from CONTEXT columns before byte `at` on, as much as limit allows. */
static struct keep window_at(const char *s, size_t n, size_t at, int limit)
{
	return (struct keep){suffix_fit(s, at, CONTEXT), n, KEEP_START, limit};
}

static void cut_name(struct out *o, const char *s, size_t n, int w, size_t at);

/*
 * A --separate-callers name, fn'caller'caller: the function first (its own
 * name whole), then each caller's own name, then the function's qualifiers;
 * where the rows differ (at), the text there before the callers.
 */
static void cut_chain(struct out *o, const char *s, size_t n, int w, size_t at)
{
	size_t h = next_link(s, n, 0), own = own_name(s, h), nk = 0;
	struct keep k[8];

	if ((at == NO_DIFF && text_width(s + own, h - own) + 2 > w) ||
	    (at < h && text_width(s, h) + 2 > w)) {
		cut_name(o, s, h, w - 1, at < h ? at : NO_DIFF); /* the function alone, … */
		out_mark(o);
		return;
	}
	if (at != NO_DIFF && at >= h && text_width(s + own, h - own) + 2 + 2 * MIN_HEAD > w)
		/* the callers differ, and the function takes nearly all: its start */
		k[nk++] = (struct keep){own, h, KEEP_START, w / 2};
	else
		k[nk++] = (struct keep){own, h, KEEP_WHOLE, 0};
	if (at < h)
		k[nk++] = (struct keep){0, own, KEEP_WHOLE, 0};
	k[nk++] = (struct keep){h, h + 1, KEEP_WHOLE, 0};
	if (at != NO_DIFF && at >= h) { /* where it differs, then what is before */
		k[nk++] = (struct keep){at, n, KEEP_START, w / 3};
		k[nk++] = (struct keep){suffix_fit(s, at, CONTEXT), at, KEEP_END, 0};
	}
	{ /* the first caller's own name */
		size_t e = next_link(s, n, h + 1), cown = h + 1 + own_name(s + h + 1, e - h - 1);
		size_t ct = cown + tail_of(s + cown, e - cown);

		k[nk++] = (struct keep){cown, ct > cown ? ct : e, KEEP_WHOLE, 0};
	}
	k[nk++] = (struct keep){h, n, KEEP_START, 0};
	k[nk++] = (struct keep){0, own, KEEP_START, 0};
	put_kept(o, s, n, w, k, nk);
}

/*
 * A name that does not fit, its brackets folded: its 'N, its own name (the
 * start, the parameters, the end, the rest), then its start. A file
 * (include::/a/b/c.php) keeps its kind and its end. Where the rows differ
 * (at, not NO_DIFF), the text there comes before the own name's end, or
 * after it when the difference is in the qualifiers.
 */
static void cut_name(struct out *o, const char *s, size_t n, int w, size_t at)
{
	size_t own, t, q, nk = 0;
	struct keep k[8];

	if (text_width(s, n) <= w || w < 2) {
		cut_end(o, s, n, w);
		return;
	}
	if (is_chain(s, n)) {
		cut_chain(o, s, n, w, at);
		return;
	}
	own = own_name(s, n);
	q = counter_of(s, n);
	t = own + tail_of(s + own, q - own);
	if (memchr(s + own, '/', t - own)) {
		k[nk++] = (struct keep){0, own, KEEP_WHOLE, 0};
		if (at != NO_DIFF && at >= own) {
			k[nk++] = (struct keep){at, n, KEEP_START, w / 2};
			k[nk++] = (struct keep){suffix_fit(s, at, CONTEXT), at, KEEP_END, 0};
		}
		k[nk++] = (struct keep){own, n, KEEP_END, 0};
		put_kept(o, s, n, w, k, nk);
		return;
	}
	if (t == own)
		t = q; /* "(below main)": no parameters */
	k[nk++] = (struct keep){q, n, KEEP_WHOLE, 0};
	if (at != NO_DIFF && at >= t && at < q) /* the parameters differ: all of them */
		k[nk++] = (struct keep){t, q, KEEP_WHOLE, 0};
	if (at != NO_DIFF && at >= own) { /* where it differs, then what is before */
		k[nk++] = (struct keep){at, n, KEEP_START, w / 2};
		k[nk++] = (struct keep){suffix_fit(s, at, CONTEXT), at, KEEP_END, 0};
	}
	k[nk++] = (struct keep){own, t, KEEP_START, MIN_HEAD};
	k[nk++] = (struct keep){t, q, KEEP_WHOLE, 0};
	k[nk++] = (struct keep){own, t, KEEP_END, 0};
	if (at != NO_DIFF && at < own)
		k[nk++] = window_at(s, n, at, 0);
	k[nk++] = (struct keep){0, own, KEEP_START, 0};
	put_kept(o, s, n, w, k, nk);
}

/* Length of the hex address at the start of name ("0x" and digits), 0 if none. */
static size_t address_len(struct span name)
{
	size_t i = 2;

	if (name.len < 3 || name.ptr[0] != '0' || (name.ptr[1] != 'x' && name.ptr[1] != 'X'))
		return 0;
	while (i < name.len && isxdigit((unsigned char)name.ptr[i]))
		i++;
	return i > 2 ? i : 0;
}

/*
 * Code without a symbol is named by its address, 0x0000000000f4a3b0: its
 * start would make all of them read 0x0000000000f4…. The leading zeros
 * give way to the mark, then the start: 0x…f4a3b0, …f4a3b0.
 */
static void short_address(struct out *o, struct span name, size_t alen, int w)
{
	size_t z = 2;

	while (z + 1 < alen && name.ptr[z] == '0')
		z++;
	if (text_width(name.ptr + z, name.len - z) + 3 <= w) {
		out_put(o, "0x", 2);
		out_mark(o);
		out_put(o, name.ptr + z, name.len - z);
		return;
	}
	cut_start(o, name.ptr, name.len, w); /* (the zeros go first: they are its start) */
}

/*
 * The name in w columns: templates folded, then parameters too (raw:
 * neither), but for the groups over [from, to), then cut (cut_name); a
 * diff: [from, to) is where the name differs from rows that read alike.
 */
static void put_name(struct out *o, struct span name, int w, size_t from, size_t to, bool raw,
		     bool diff)
{
	struct folding f = {name.ptr, raw ? "" : "<", from, to, SIZE_MAX};
	size_t alen, size = 3 * (name.len + 4); /* "a" becomes "…" (3 bytes) */
	char *s;
	struct out so;

	if (w < 1)
		w = 1;
	if (text_width(name.ptr, name.len) <= w) {
		out_put(o, name.ptr, name.len);
		return;
	}
	if ((alen = address_len(name)) != 0) {
		short_address(o, name, alen, w);
		return;
	}
	s = xmalloc(size);
	out_start(&so, s, size);
	fold_span(&so, &f, 0, name.len);
	if (!raw && text_width(s, so.len) > w) {
		f.opens = "<(";
		f.at = SIZE_MAX;
		out_start(&so, s, size);
		fold_span(&so, &f, 0, name.len);
	}
	if (f.at == SIZE_MAX && from >= name.len)
		f.at = so.len; /* the other rows go on where this one ends */
	cut_name(o, s, so.len, w, diff && f.at != SIZE_MAX ? f.at : NO_DIFF);
	free(s);
}

char *shorten_name(char *out, size_t size, struct span name, int width)
{
	struct out o;

	if (size < 8) {
		out[0] = '\0';
		return out;
	}
	out_start(&o, out, size);
	put_name(&o, name, width, 0, 0, false, false);
	return out;
}

char *shorten_value(char *out, size_t size, struct span value, int width)
{
	struct out o;

	out_start(&o, out, size);
	cut_end(&o, value.ptr, value.len, width < 1 ? 1 : width);
	return out;
}

char *shorten_path(char *out, size_t size, struct span path, int width)
{
	struct out o;

	out_start(&o, out, size);
	cut_start(&o, path.ptr, path.len, width < 1 ? 1 : width);
	return out;
}

/* ---- rows shown together ------------------------------------------------ */

enum how {
	HOW_ALONE,  /* shorten_name */
	HOW_OWN,    /* the template arguments of the function's own name stay open */
	HOW_OPEN,   /* the groups over the differences stay open */
	HOW_WINDOW, /* the text around the first difference */
	HOW_FILE,   /* the same name: the file's base name after it */
};

/* The differences of a row from the rows it reads like: where they start and end. */
struct diff_at {
	size_t from, to;
};

static size_t common_prefix(struct span a, struct span b)
{
	size_t i = 0;

	while (i < a.len && i < b.len && a.ptr[i] == b.ptr[i])
		i++;
	while (i > 0 && i < a.len && ((unsigned char)a.ptr[i] & 0xc0) == 0x80)
		i--; /* (a character boundary) */
	return i;
}

static size_t common_suffix(struct span a, struct span b)
{
	size_t i = 0;

	while (i < a.len && i < b.len && a.ptr[a.len - 1 - i] == b.ptr[b.len - 1 - i])
		i++;
	return i;
}

/*
 * The file's base name, in parentheses; the name before it as shorten_name
 * has it, or (window) the text around d.from, where it differs from the
 * names of other rows that read the same.
 */
static void put_file(struct out *o, struct shorten_row *r, int w, bool window, struct diff_at d)
{
	struct span f = r->file;
	char paren[256];
	size_t pl;
	int fw;

	for (size_t i = 0; i < r->file.len; i++)
		if (r->file.ptr[i] == '/')
			f = span_make(r->file.ptr + i + 1, r->file.len - i - 1);
	if (f.len > sizeof(paren) - 4)
		f.len = sizeof(paren) - 4;
	pl = (size_t)snprintf(paren, sizeof(paren), " (%.*s)", (int)f.len, f.ptr);
	fw = text_width(paren, pl);
	if (fw + MIN_HEAD > w) {
		int nw = text_width(r->name.ptr, r->name.len);

		/* the name whole and as much of the file's end as fits, else … for it */
		if (nw + 4 <= w) {
			out_put(o, r->name.ptr, r->name.len);
			out_put(o, " (", 2);
			cut_start(o, f.ptr, f.len, w - nw - 3);
			out_put(o, ")", 1);
		} else if (nw < w) {
			out_put(o, r->name.ptr, r->name.len);
			out_mark(o);
		} else {
			put_name(o, r->name, w, 0, 0, false, false);
		}
		return;
	}
	put_name(o, r->name, w - fw, d.from, d.to, window, window);
	out_put(o, paren, pl);
}

static void render(struct shorten_row *r, enum how how, bool window, struct diff_at d)
{
	int sw = r->suffix ? text_width(r->suffix, strlen(r->suffix)) : 0;
	int w = r->width < 1 ? 1 : r->width;
	bool tiny = false;
	struct out o;

	if (sw && w - sw < MIN_HEAD + 1 && text_width(r->name.ptr, r->name.len) + sw > w) {
		tiny = true; /* no room for both: the name, and … for the rest */
		sw = 1;
	}
	out_start(&o, r->out, r->size);
	if (how == HOW_FILE)
		put_file(&o, r, w - sw, window, d);
	else if (how == HOW_OWN)
		put_name(&o, r->name, w - sw, own_name(r->name.ptr, r->name.len),
			 tail_of(r->name.ptr, r->name.len), false, false);
	else
		put_name(&o, r->name, w - sw, d.from, d.to, how == HOW_WINDOW, how != HOW_ALONE);
	if (tiny)
		out_mark(&o);
	else if (sw)
		out_put(&o, r->suffix, strlen(r->suffix));
}

static bool same_row(const struct shorten_row *a, const struct shorten_row *b)
{
	return span_eq(a->name, b->name) && span_eq(a->file, b->file) &&
	       (a->suffix == b->suffix ||
		(a->suffix && b->suffix && !strcmp(a->suffix, b->suffix)));
}

/*
 * Whether row i reads like another row that differs: then into *d where its
 * name differs from theirs, *same_name whether one of them has its name,
 * *other whether one has another name.
 */
static bool collides(const struct shorten_row *rows, size_t n, size_t i, struct diff_at *d,
		     bool *same_name, bool *other)
{
	const struct shorten_row *r = &rows[i];
	size_t pre = 0, suf = 0;
	bool any = false;

	*same_name = *other = false;
	for (size_t j = 0; j < n; j++) {
		if (j == i || strcmp(r->out, rows[j].out) || same_row(r, &rows[j]))
			continue;
		any = true;
		if (span_eq(r->name, rows[j].name)) {
			*same_name = true;
			continue;
		}
		*other = true;
		if (common_prefix(r->name, rows[j].name) >= pre)
			pre = common_prefix(r->name, rows[j].name);
		if (common_suffix(r->name, rows[j].name) >= suf)
			suf = common_suffix(r->name, rows[j].name);
	}
	if (suf > r->name.len - pre)
		suf = r->name.len - pre;
	d->from = pre;
	d->to = r->name.len - suf > pre ? r->name.len - suf : pre + 1;
	return any;
}

void shorten_rows(struct shorten_row *rows, size_t n)
{
	static const struct diff_at none = {0, 0};
	struct diff_at *d = xmalloc_array(n ? n : 1, sizeof(*d));
	enum how *how = xmalloc_array(n ? n : 1, sizeof(*how));
	bool *window = xcalloc(n ? n : 1, sizeof(*window));
	bool again = true;

	for (size_t i = 0; i < n; i++) {
		how[i] = HOW_ALONE;
		render(&rows[i], HOW_ALONE, false, none);
	}
	/*
	 * each round takes the rows that still collide one way further; a row
	 * that shows its file and still reads like a row of another name in
	 * that file shows the text around their difference (one round more)
	 */
	for (int round = 0; round < ROUNDS && again; round++) {
		again = false;
		for (size_t i = 0; i < n; i++) {
			bool same_name, other;

			if ((how[i] == HOW_FILE && window[i]) ||
			    !collides(rows, n, i, &d[i], &same_name, &other))
				continue;
			if (how[i] == HOW_FILE && !other)
				continue;
			window[i] = (how[i] == HOW_FILE || same_name) && other;
			how[i] = same_name || how[i] == HOW_FILE ? HOW_FILE
				 : how[i] < HOW_WINDOW           ? how[i] + 1
								 : HOW_WINDOW;
			again = true;
		}
		for (size_t i = 0; i < n && again; i++)
			if (how[i] != HOW_ALONE)
				render(&rows[i], how[i], window[i], d[i]);
	}
	free(window);
	free(d);
	free(how);
}

/* ---- a screen's rows ---------------------------------------------------- */

void shorten_set_init(struct shorten_set *s, size_t n)
{
	s->n = n;
	s->rows = xcalloc(n ? n : 1, sizeof(*s->rows));
	s->text = xmalloc_array(n ? n : 1, SHORTEN_SIZE);
	s->suffix = xcalloc(n ? n : 1, sizeof(*s->suffix));
	for (size_t i = 0; i < n; i++) {
		s->rows[i].out = s->text + i * SHORTEN_SIZE;
		s->rows[i].size = SHORTEN_SIZE;
		s->rows[i].out[0] = '\0';
	}
}

void shorten_set_text(struct shorten_set *s, size_t i, struct span name, struct span file,
		      int width)
{
	s->rows[i].name = name;
	s->rows[i].file = file;
	s->rows[i].suffix = NULL;
	s->rows[i].width = width;
}

void shorten_set_function(struct shorten_set *s, size_t i, const struct profile *p, uint32_t f,
			  int width, const char *extra)
{
	const struct function *fn = &p->funcs[f];
	uint32_t cycle = profile_cycle(p, f);

	shorten_set_text(
	    s, i, fn->name == NCG_NONE ? span_make("(unknown)", 9) : profile_name(p, fn->name),
	    fn->file == NCG_NONE ? span_make("", 0) : profile_name(p, fn->file), width);
	s->suffix[i][0] = '\0';
	if (cycle)
		snprintf(s->suffix[i], sizeof(s->suffix[i]), " <cycle %" PRIu32 ">", cycle);
	if (extra)
		snprintf(s->suffix[i] + strlen(s->suffix[i]),
			 sizeof(s->suffix[i]) - strlen(s->suffix[i]), "%s", extra);
	if (s->suffix[i][0])
		s->rows[i].suffix = s->suffix[i];
}

void shorten_set_apply(struct shorten_set *s)
{
	shorten_rows(s->rows, s->n);
}

const char *shorten_set_out(const struct shorten_set *s, size_t i)
{
	return s->rows[i].out;
}

void shorten_set_release(struct shorten_set *s)
{
	free(s->rows);
	free(s->text);
	free(s->suffix);
	s->rows = NULL;
	s->n = 0;
}
