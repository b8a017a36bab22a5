/*
 * shorten: names and values cut to a width in display columns, keeping
 * what tells the rows shown together apart. Plain text, no curses.
 */
#ifndef NCGRIND_SHORTEN_H
#define NCGRIND_SHORTEN_H

#include "ncgrind/core/profile.h"
#include "ncgrind/core/util.h"

#include <stddef.h>

/* The mark of a cut: U+2026, one column. */
#define SHORTEN_MARK "\xe2\x80\xa6"

/*
 * One row of a set shown together. The caller fills name, file, suffix,
 * width and out (size bytes, at least 8); shorten_rows writes out.
 */
struct shorten_row {
	struct span name;   /* the full name */
	struct span file;   /* its file: rows of one name in two files must read apart */
	const char *suffix; /* kept after the name when there is room (" <cycle 2>"); NULL: none */
	int width;          /* the columns it may take, suffix included */
	char *out;
	size_t size;
};

/*
 * Shorten each row's name to its width so that no two rows whose names or
 * files differ read the same, when the width allows: first each name on its
 * own (shorten_name); then, for rows that still read alike, the template
 * arguments where their names differ stay open (the others folded), and
 * failing that the text at the first difference is kept beside the own
 * name, or the file's base name is shown. Its cost: a few rounds over the
 * n rows, each comparing a row with the others (n is a screen's rows).
 */
void shorten_rows(struct shorten_row *rows, size_t n);

/*
 * The rows of one screen draw, with their buffers: a screen fills row i of
 * its visible rows (shorten_set_function, or shorten_set_text for a row that
 * is no function, a group, a heading), then shortens them all in one call
 * and reads shorten_set_out. _init/_release.
 */
#define SHORTEN_SIZE 1024 /* bytes of a row's text */
struct shorten_set {
	struct shorten_row *rows;
	char *text;         /* n rows of SHORTEN_SIZE */
	char (*suffix)[64]; /* " <cycle N>" and the screen's own mark */
	size_t n;
};
void shorten_set_init(struct shorten_set *s, size_t n);
/* Row i: function f of p with its file, " <cycle N>", then extra (NULL: none). */
void shorten_set_function(struct shorten_set *s, size_t i, const struct profile *p, uint32_t f,
			  int width, const char *extra);
void shorten_set_text(struct shorten_set *s, size_t i, struct span name, struct span file,
		      int width);
void shorten_set_apply(struct shorten_set *s);
const char *shorten_set_out(const struct shorten_set *s, size_t i);
void shorten_set_release(struct shorten_set *s);

/*
 * One name to at most width columns, keeping what identifies it: template
 * arguments become <…>, then parameter lists (…); then the qualifiers go,
 * then the middle of the function's own name (its start and its end stay,
 * and a trailing 'N, which goes last). A --separate-callers name
 * (fn'N'caller'caller) keeps its function, then its first caller's own name;
 * a file (include::/a/b.php) its kind and its end. An address
 * (0x0000000000f4a3b0) loses its leading zeros, then its start. Every cut
 * shows …. Returns out.
 */
char *shorten_name(char *out, size_t size, struct span name, int width);

/*
 * A value to at most width columns: whole when it fits, else its start and
 * … (shorten_path: … and its end, where a path's file name is).
 */
char *shorten_value(char *out, size_t size, struct span value, int width);
char *shorten_path(char *out, size_t size, struct span path, int width);

#endif
