/*
 * shorten: one way to cut names and values to a width, for every screen.
 *
 * A name is shortened on its own first (shorten_name): its template
 * arguments and parameter lists fold to <…> and (…), then its middle goes,
 * keeping the start and the end, where C++ puts the function's own name and
 * Callgrind its 'N. Rows shown together can still read the same (three
 * instances of one template, f and f'2 when only the start fits), so
 * shorten_rows looks at the rows that collide: a bracket group that holds
 * the first difference stays open, and failing that the row shows the text
 * around the difference, between two …. Widths are display columns, as the
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
 * Append s to o with every outermost group of the kinds in `opens` ("<",
 * "<(") folded to open … close; a group over [keep_from, keep_to) stays
 * open, and the groups inside it are folded in turn.
 */
static void fold(struct out *o, const char *s, size_t n, const char *opens, size_t keep_from,
		 size_t keep_to)
{
	size_t i = 0, run = 0;

	while (i < n) {
		const char *k = opens;
		size_t end;

		while (*k && !is_open(s, i, *k))
			k++;
		if (!*k) {
			i++;
			continue;
		}
		end = group_end(s, n, i, *k);
		/* (a name that starts with its bracket, "(below main)", is not its parameters) */
		if ((i < keep_to && end > keep_from) || i == 0) {
			i++; /* open: look inside */
			continue;
		}
		out_put(o, s + run, i + 1 - run);
		out_mark(o);
		if (end > i + 1 && is_close(s, end - 1, closer(*k)))
			out_put(o, s + end - 1, 1);
		run = i = end;
	}
	out_put(o, s + run, n - run);
}

/* A --separate-callers name: fn'caller (a ' outside brackets, then no digit). */
static bool is_chain(const char *s, size_t n)
{
	int depth = 0;

	for (size_t i = 0; i + 1 < n; i++) {
		if (is_open(s, i, '<') || is_open(s, i, '('))
			depth++;
		else if ((is_close(s, i, '>') || is_close(s, i, ')')) && depth > 0)
			depth--;
		else if (!depth && s[i] == '\'' && !isdigit((unsigned char)s[i + 1]))
			return true;
	}
	return false;
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

/* Where the end worth keeping of s starts: its parameters, then any 'N; n if none. */
static size_t tail_of(const char *s, size_t n)
{
	size_t t = n, open = n;
	int depth = 0;

	while (t > 1 && isdigit((unsigned char)s[t - 1])) {
		size_t d = t;

		while (d > 0 && isdigit((unsigned char)s[d - 1]))
			d--;
		if (d == 0 || s[d - 1] != '\'')
			break;
		t = d - 1;
	}
	for (size_t i = 0; i < t; i++) {
		if (is_open(s, i, '(') && depth++ == 0)
			open = i;
		else if (is_close(s, i, ')') && depth > 0)
			depth--;
	}
	return open < t ? open : t;
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

/* s in w columns, its start and its end from `end` on, … between (end fits in w - 1). */
static void cut_middle_at(struct out *o, const char *s, size_t n, size_t end, int w)
{
	int ew = text_width(s + end, n - end);

	out_put(o, s, prefix_fit(s, end, w - 1 - ew));
	out_mark(o);
	out_put(o, s + end, n - end);
}

/* A name that does not fit, its brackets folded: keep its start and its own name. */
static void cut_name(struct out *o, const char *s, size_t n, int w)
{
	size_t own, tail;
	int ow;

	if (text_width(s, n) <= w || w < 2 || is_chain(s, n)) {
		cut_end(o, s, n, w); /* a chain's start is its function */
		return;
	}
	own = own_name(s, n);
	ow = text_width(s + own, n - own);
	if (own && ow + 1 + MIN_HEAD <= w) {
		cut_middle_at(o, s, n, own, w);
		return;
	}
	if (own && ow + 1 <= w) {
		cut_start(o, s, n, w);
		return;
	}
	/* the own name alone is too long: its start, then its parameters or 'N */
	if (own) {
		out_mark(o);
		w--;
	}
	s += own;
	n -= own;
	tail = tail_of(s, n);
	if (tail > 0 && tail < n && text_width(s + tail, n - tail) <= w / 2)
		cut_middle_at(o, s, n, tail, w);
	else
		cut_end(o, s, n, w);
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

/* s with its groups of `opens` folded (but over [from, to)), in a new string of *len bytes. */
static char *folded(const char *s, size_t n, const char *opens, size_t from, size_t to, size_t *len)
{
	char *buf = xmalloc_array(2, n + 4);
	struct out o;

	out_start(&o, buf, 2 * (n + 4)); /* "<a>" (3 bytes) becomes "<…>" (5) */
	fold(&o, s, n, opens, from, to);
	*len = o.len;
	return buf;
}

/*
 * The name in w columns: templates folded (but over [from, to)), then
 * parameters too, then the middle cut.
 */
static void put_name(struct out *o, struct span name, int w, size_t from, size_t to)
{
	size_t alen, len;
	char *s;

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
	s = folded(name.ptr, name.len, "<", from, to, &len);
	if (text_width(s, len) > w) {
		free(s);
		s = folded(name.ptr, name.len, "<(", from, to, &len);
	}
	cut_name(o, s, len, w);
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
	put_name(&o, name, width, 0, 0);
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

/* The end of a --separate-callers name's first part, the function (and its 'N). */
static size_t chain_head(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] != '\'')
		i++;
	while (i + 1 < n && s[i] == '\'' && isdigit((unsigned char)s[i + 1]))
		for (i++; i < n && isdigit((unsigned char)s[i]); i++)
			;
	return i;
}

/*
 * The text around byte `at` of s: a little of its start (a --separate-callers
 * name: its function), …, CONTEXT columns before `at` and as much after as
 * fits, ….
 */
static void put_window(struct out *o, const char *s, size_t n, size_t at, int w)
{
	size_t from = suffix_fit(s, at, CONTEXT), head, end;
	bool chain = is_chain(s, n);

	if (chain && at < chain_head(s, n) && w >= 2) {
		/* the functions differ: the window on the function, … for its callers */
		put_window(o, s, chain_head(s, n), at, w - 1);
		out_mark(o);
		return;
	}
	if (text_width(s + at, n - at) < w && !chain) {
		cut_start(o, s, n, w); /* the difference is near the end: all of the end */
		return;
	}
	if (w < 8 || from == 0) {
		cut_end(o, s, n, w);
		return;
	}
	head = prefix_fit(s, chain ? chain_head(s, n) : from, chain ? w / 2 : w / 3);
	if (head > from)
		head = from;
	out_put(o, s, head);
	w -= text_width(s, head);
	if (head == from) { /* the start runs into the difference */
		cut_end(o, s + from, n - from, w);
		return;
	}
	out_mark(o);
	w--;
	end = from + suffix_fit(s + from, n - from, w);
	if (end == from) { /* the rest fits: as much of the end as there is room for */
		end = head + suffix_fit(s + head, n - head, w);
		out_put(o, s + end, n - end);
		return;
	}
	out_put(o, s + from, prefix_fit(s + from, n - from, w - 1));
	out_mark(o);
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
			put_name(o, r->name, w, 0, 0);
		}
		return;
	}
	if (window)
		put_window(o, r->name.ptr, r->name.len, d.from, w - fw);
	else
		put_name(o, r->name, w - fw, 0, 0);
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
	else if (how == HOW_WINDOW)
		put_window(&o, r->name.ptr, r->name.len, d.from, w - sw);
	else if (how == HOW_OWN)
		put_name(&o, r->name, w - sw, own_name(r->name.ptr, r->name.len),
			 tail_of(r->name.ptr, r->name.len));
	else
		put_name(&o, r->name, w - sw, d.from, d.to);
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
	for (int round = 0; round <= HOW_FILE && again; round++) {
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
