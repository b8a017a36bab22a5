/*
 * grid: the screen as plain data, a rows x cols array of cells (one wide
 * character and one attribute each). Views draw into a grid; the terminal
 * backend (term.c) paints it with curses, and script mode saves it as text,
 * so a test compares exactly what a person would see.
 *
 * Text enters the grid through grid_put(), which decodes UTF-8 and never lets
 * a control character, an escape sequence, a bidi control or an invalid byte
 * through: those are shown as \xNN (a control character or invalid byte)
 * or \uXXXX (a C1 or bidi control), spelt as escape_next() spells them for
 * the reports and messages. Wide characters take two cells.
 */
#ifndef NCGRIND_GRID_H
#define NCGRIND_GRID_H

#include <regex.h>
#include <stddef.h>
#include <stdio.h>
#include <wchar.h>

/*
 * The kinds of text a screen draws (an X-macro: the enum, and the areas a
 * configuration file's `color AREA FG BG [ATTR...]` names, with what each
 * is, for the manual): ID, name, what.
 */
#define ATTR_LIST(A)                                                                               \
	A(NORMAL, "normal", "the text of the rows")                                                \
	A(TITLE, "title", "the header lines at the top")                                           \
	A(HEAD, "header", "the column headings")                                                   \
	A(CURSOR, "cursor", "the selected row")                                                    \
	A(STATUS, "status", "the status line")                                                     \
	A(DIM, "dim", "secondary text: files, objects, lines without cost")                        \
	A(HOT, "mark", "marks: large costs, filters in the title, the help's headings")            \
	A(ERROR, "error", "messages about mistakes")                                               \
	A(FRAME1, "frame1", "flame graph frames, the first of three colours")                      \
	A(FRAME2, "frame2", "flame graph frames, the second colour")                               \
	A(FRAME3, "frame3", "flame graph frames, the third colour")                                \
	A(MATCH, "match", "search matches (and the flame's frames they match)")                    \
	A(GROWN, "grown", "a diff's change where the cost grew")                                   \
	A(SHRUNK, "shrunk", "a diff's change where the cost shrank")

enum grid_attr {
#define A(id, name, what) ATTR_##id,
	ATTR_LIST(A)
#undef A
	    ATTR_AREAS, /* the named ones above; those below follow them */
	/*
	 * Where a flame frame ends inside a cell, a block of eighths in the
	 * frame's background colour on the screen's: term.c makes each from
	 * the area it edges (the cursor, a match, a frame colour).
	 */
	ATTR_EDGE_CURSOR = ATTR_AREAS,
	ATTR_EDGE_MATCH,
	ATTR_EDGE_FRAME1,
	ATTR_EDGE_FRAME2,
	ATTR_EDGE_FRAME3,
	ATTR_COUNT
};

struct grid_cell {
	wchar_t ch;         /* 0 in the second cell of a wide character */
	unsigned char attr; /* enum grid_attr */
};

struct grid {
	int rows, cols;
	struct grid_cell *cells;
};

void grid_init(struct grid *g, int rows, int cols);
void grid_resize(struct grid *g, int rows, int cols);
void grid_release(struct grid *g);
void grid_clear(struct grid *g);

/* Fill row r from column c to the end with blanks of attribute attr. */
void grid_fill(struct grid *g, int r, int c, enum grid_attr attr);

/*
 * Write n bytes of UTF-8 at (r, c), at most `width` columns (clipped to the
 * grid); returns the number of columns written.
 */
int grid_put(struct grid *g, int r, int c, const char *s, size_t n, int width, enum grid_attr attr);
int grid_puts(struct grid *g, int r, int c, const char *s, enum grid_attr attr);
/*
 * The same, but text that has no room ends in … (U+2026) at the last column
 * it may take, so that what is cut never reads as whole (headers, titles,
 * messages).
 */
int grid_put_cut(struct grid *g, int r, int c, const char *s, size_t n, int width,
		 enum grid_attr attr);
int grid_puts_cut(struct grid *g, int r, int c, const char *s, enum grid_attr attr);

/* Columns that grid_put would need for these bytes. */
int grid_width(const char *s, size_t n);
/*
 * The bytes of the first unit of s (n > 0 bytes) that grid_put draws as one
 * (a character, or the escape of a control or a byte that is not UTF-8), and
 * in *width the columns it takes: what scrolls a line by columns steps by.
 */
size_t grid_next(const char *s, size_t n, int *width);

/*
 * Every match of re in rows from .. to - 1, as the rows read (less marks
 * each match on the screen): those cells take attribute attr.
 */
void grid_mark(struct grid *g, int from, int to, const regex_t *re, enum grid_attr attr);

/* Write the grid as UTF-8 text, one line per row, trailing blanks removed. */
int grid_save(const struct grid *g, FILE *out);
/* The same for rows from .. to - 1. */
int grid_save_rows(const struct grid *g, int from, int to, FILE *out);

#endif
