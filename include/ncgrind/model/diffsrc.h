/*
 * diffsrc: source lines as a diff, for --dump=lines and --dump=source with
 * --diff and the browser's annotated source of a diff (v). A line is a place
 * (its file's name after the --mod-filename rules, its number) with the self
 * cost of each side there, summed over the functions of the row (or of the
 * profile). A function's source is shown file by file; where both sides
 * have a file and its text differs between them, the base's lines are not
 * set against the new text (a number may now be another line): the base's
 * cost in the file is given once instead. No curses.
 */
#ifndef NCGRIND_DIFFSRC_H
#define NCGRIND_DIFFSRC_H

#include "ncgrind/model/diff.h"
#include "ncgrind/model/source.h"

/* A source line of one side: its file (id, and name after the rules), number, costs. */
struct side_line {
	uint32_t file_id;
	char *file;
	uint64_t line;
	uint64_t *cost; /* the diff's events */
};

/*
 * Every line's self cost in one side, summed over its functions (of a filtered
 * diff, those of its rows); sorted by file and line.
 */
struct side_line *diffsrc_side_lines(const struct diff *d, bool new_side,
				     const struct rewrites *rules, size_t *n);
void diffsrc_free_lines(struct side_line *l, size_t n);
/* By file (after the rules), then line: the order of both sides' lists. */
int diffsrc_cmp_lines(const struct side_line *a, const struct side_line *b);

enum dsrc_kind {
	DSRC_FILE,      /* a file's heading */
	DSRC_DIFFER,    /* the two builds' texts of the file differ (the base's cost: base) */
	DSRC_NOT_FOUND, /* the text is not found: line numbers only */
	DSRC_TRIED,     /* then each path tried for it (line: its index in text.tried) */
	DSRC_LINE,      /* a line: its costs (0 and 0 for a line of context) */
	DSRC_GAP,       /* lines left out */
};

struct dsrc_row {
	enum dsrc_kind kind;
	uint32_t file; /* index in files */
	uint64_t line; /* DSRC_LINE: 0 when the profile gives no line */
	uint64_t base, new;
	bool costed; /* DSRC_LINE: a line of either side's costs, not of context */
};

struct dsrc_file {
	char *name;              /* after the rules */
	struct source_text text; /* the new side's (the base's where only it has the file) */
	bool differ;
};

struct diffsrc {
	struct dsrc_file *files;
	size_t nfiles, files_alloc;
	struct dsrc_row *rows;
	size_t nrows, rows_alloc;
};

/*
 * The lines of diff row `row` in event e, file by file: with context < 0
 * the lines with cost only, else every line of the text within context
 * lines of one of them, a longer run of others as one DSRC_GAP.
 */
void diffsrc_build(struct diffsrc *s, const struct diff *d, uint32_t row, uint32_t e,
		   const struct rewrites *rules, const struct source_paths *sources, int context);
void diffsrc_release(struct diffsrc *s);

#endif
