/*
 * grid: UTF-8 in, cells out. Decoding uses mbrtowc() in the caller's locale
 * (ncgrind sets it from the environment), and wcwidth() for the columns;
 * every byte that is not printable text becomes a visible escape.
 */
#define _XOPEN_SOURCE 700
#include "ncgrind/model/grid.h"
#include "ncgrind/core/escape.h"
#include "ncgrind/core/util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

void grid_init(struct grid *g, int rows, int cols)
{
	g->rows = g->cols = 0;
	g->cells = NULL;
	grid_resize(g, rows, cols);
}

void grid_resize(struct grid *g, int rows, int cols)
{
	free(g->cells);
	g->rows = rows > 0 ? rows : 1;
	g->cols = cols > 0 ? cols : 1;
	g->cells = xcalloc(st_mult((size_t)g->rows, (size_t)g->cols), sizeof(*g->cells));
	grid_clear(g);
}

void grid_release(struct grid *g)
{
	free(g->cells);
	g->cells = NULL;
	g->rows = g->cols = 0;
}

void grid_fill(struct grid *g, int r, int c, enum grid_attr attr)
{
	if (r < 0 || r >= g->rows)
		return;
	for (; c < g->cols; c++) {
		g->cells[r * g->cols + c].ch = L' ';
		g->cells[r * g->cols + c].attr = (unsigned char)attr;
	}
}

void grid_clear(struct grid *g)
{
	for (int r = 0; r < g->rows; r++)
		grid_fill(g, r, 0, ATTR_NORMAL);
}

/*
 * The next printable unit of s: a wide character with its width, or the
 * visible escape of a control character or invalid byte in esc, spelt as
 * escape_next() spells it for the reports and messages (\x1b, \xff,
 * \u202e): one rule for every byte the program prints.
 */
struct unit {
	wchar_t wc;
	int width;
	size_t len;           /* bytes consumed */
	char esc[ESCAPE_MAX]; /* when not empty: print this instead */
};

static void next_unit(const char *s, size_t n, struct unit *u)
{
	mbstate_t st;
	size_t len;

	memset(&st, 0, sizeof(st));
	u->esc[0] = '\0';
	len = mbrtowc(&u->wc, s, n, &st);
	if (len == (size_t)-1 || len == (size_t)-2 || len == 0) {
		snprintf(u->esc, sizeof(u->esc), "\\x%02x", (unsigned char)s[0]);
		u->len = 1;
	} else if (u->wc < 0x20 || u->wc == 0x7f) {
		snprintf(u->esc, sizeof(u->esc), "\\x%02x", (unsigned)u->wc);
		u->len = len;
	} else {
		int w = wcwidth(u->wc);

		u->len = len;
		/* the bidi controls are printable to wcwidth, but reorder the line */
		if (w < 0 || (w == 0 && !iswprint(u->wc)) || escape_wanted((uint32_t)u->wc))
			snprintf(u->esc, sizeof(u->esc), "\\u%04x", (unsigned)u->wc);
		else
			u->width = w;
	}
	if (u->esc[0])
		u->width = (int)strlen(u->esc);
}

int grid_width(const char *s, size_t n)
{
	int w = 0;

	while (n) {
		struct unit u;

		next_unit(s, n, &u);
		w += u.width;
		s += u.len;
		n -= u.len;
	}
	return w;
}

size_t grid_next(const char *s, size_t n, int *width)
{
	struct unit u;

	next_unit(s, n, &u);
	*width = u.width;
	return u.len;
}

static void set_cell(struct grid *g, int r, int c, wchar_t ch, enum grid_attr attr)
{
	g->cells[r * g->cols + c].ch = ch;
	g->cells[r * g->cols + c].attr = (unsigned char)attr;
}

int grid_put(struct grid *g, int r, int c, const char *s, size_t n, int width, enum grid_attr attr)
{
	int start = c, end;

	if (r < 0 || r >= g->rows || c >= g->cols || width <= 0)
		return 0;
	end = c + width < g->cols ? c + width : g->cols;
	while (n && c < end) {
		struct unit u;

		next_unit(s, n, &u);
		if (c + u.width > end)
			break;
		if (u.esc[0]) {
			for (int i = 0; u.esc[i]; i++)
				set_cell(g, r, c++, (wchar_t)u.esc[i], attr);
		} else if (u.width > 0) {
			set_cell(g, r, c++, u.wc, attr);
			for (int i = 1; i < u.width; i++)
				set_cell(g, r, c++, 0, attr);
		}
		s += u.len;
		n -= u.len;
	}
	return c - start;
}

int grid_puts(struct grid *g, int r, int c, const char *s, enum grid_attr attr)
{
	return grid_put(g, r, c, s, strlen(s), g->cols, attr);
}

int grid_put_cut(struct grid *g, int r, int c, const char *s, size_t n, int width,
		 enum grid_attr attr)
{
	int room = c + width < g->cols ? width : g->cols - c, w;

	if (r < 0 || r >= g->rows || room <= 0)
		return 0;
	if (grid_width(s, n) <= room)
		return grid_put(g, r, c, s, n, room, attr);
	w = grid_put(g, r, c, s, n, room - 1, attr); /* a wide character may leave a cell */
	return w + grid_put(g, r, c + w, "\xe2\x80\xa6", 3, 1, attr);
}

int grid_puts_cut(struct grid *g, int r, int c, const char *s, enum grid_attr attr)
{
	return grid_put_cut(g, r, c, s, strlen(s), g->cols, attr);
}

int grid_save(const struct grid *g, FILE *out)
{
	return grid_save_rows(g, 0, g->rows, out);
}

int grid_save_rows(const struct grid *g, int from, int to, FILE *out)
{
	for (int r = from < 0 ? 0 : from; r < to && r < g->rows; r++) {
		int last = g->cols;
		char buf[MB_LEN_MAX];

		while (last > 0 && (g->cells[r * g->cols + last - 1].ch == L' '))
			last--;
		for (int c = 0; c < last; c++) {
			mbstate_t st;
			wchar_t ch = g->cells[r * g->cols + c].ch;
			size_t len;

			if (!ch)
				continue;
			memset(&st, 0, sizeof(st));
			len = wcrtomb(buf, ch, &st);
			if (len == (size_t)-1)
				putc('?', out);
			else
				fwrite(buf, 1, len, out);
		}
		putc('\n', out);
	}
	return ferror(out) ? -1 : 0;
}

/* Row r as UTF-8 into text (its cell at each byte into at); the bytes. */
static size_t row_text(const struct grid *g, int r, char *text, int *at, size_t size)
{
	size_t o = 0;

	for (int c = 0; c < g->cols; c++) {
		char buf[MB_LEN_MAX];
		mbstate_t st;
		wchar_t ch = g->cells[r * g->cols + c].ch;
		size_t len;

		if (!ch) /* the second cell of a wide character */
			continue;
		memset(&st, 0, sizeof(st));
		len = wcrtomb(buf, ch, &st);
		if (len == (size_t)-1 || o + len >= size)
			break;
		for (size_t i = 0; i < len; i++)
			at[o + i] = c;
		memcpy(text + o, buf, len);
		o += len;
	}
	text[o] = '\0';
	at[o] = g->cols;
	return o;
}

void grid_mark(struct grid *g, int from, int to, const regex_t *re, enum grid_attr attr)
{
	size_t size = (size_t)g->cols * MB_LEN_MAX + 1;
	char *text = xmalloc(size);
	int *at = xmalloc_array(size, sizeof(int));

	for (int r = from < 0 ? 0 : from; r < to && r < g->rows; r++) {
		size_t n = row_text(g, r, text, at, size), o = 0;
		regmatch_t m;

		while (o < n && regexec(re, text + o, 1, &m, o ? REG_NOTBOL : 0) == 0) {
			size_t end = o + (size_t)m.rm_eo;

			for (int c = at[o + (size_t)m.rm_so]; c < at[end]; c++)
				g->cells[r * g->cols + c].attr = (unsigned char)attr;
			o = end > o + (size_t)m.rm_so
				? end
				: o + (size_t)m.rm_so + 1; /* past an empty match */
		}
	}
	free(at);
	free(text);
}
