/*
 * config: the reader of a configuration file, tig's tigrc in spirit. A line
 * is words separated by blanks ("double" or 'single' quotes keep blanks in
 * one; a backslash in double quotes takes the next character as it is);
 * '#' outside quotes starts a comment; `source FILE` reads another file in
 * place (relative to the one that names it, ~/ is $HOME), nested at most
 * CONFIG_MAX_DEPTH deep. What the other lines mean is the caller's: each
 * comes to a function that says why it is wrong, or nothing. A line that is
 * wrong is reported as PATH:LINE: WHY and skipped; the rest still applies.
 *
 * The file comes from the user, or from anywhere the user pointed at: it
 * may be binary, huge or a device. A line is at most CONFIG_MAX_LINE bytes,
 * a file at most CONFIG_MAX_ERRORS errors are told (then one line says how
 * many more), and nothing is kept of a line after its call.
 *
 * Colour and attribute words are read here too (no curses: numbers and
 * bits that ui/term.c turns into curses' own).
 */
#ifndef NCGRIND_CONFIG_H
#define NCGRIND_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#define CONFIG_MAX_WORDS 16
#define CONFIG_MAX_LINE 4096
#define CONFIG_MAX_DEPTH 8
#define CONFIG_MAX_ERRORS 20

/* One line of a configuration file, in words. */
struct config_line {
	const char *path;   /* the file it is in (a sourced file's own path) */
	unsigned long line; /* 1-based */
	int argc;           /* at least 1 */
	char *argv[CONFIG_MAX_WORDS];
};

/*
 * What a line means: false with the reason in why (size bytes) when it is
 * wrong; the reader tells it and goes on.
 */
typedef bool config_line_fn(void *ctx, const struct config_line *l, char *why, size_t size);
/* A message for the user: "PATH:LINE: WHY" (not escaped: the caller's output escapes). */
typedef void config_error_fn(void *ctx, const char *message);

struct config_reader {
	config_line_fn *line;
	config_error_fn *error;
	void *ctx;
	unsigned errors; /* told so far */
	unsigned silenced;
	int depth;
	bool no_source; /* `source` is refused (the fuzzer's: no file is read) */
};

/*
 * Read the file at path through r. -1 when it cannot be opened or read (the
 * reason in why: "No such file or directory", "is a directory"), else 0,
 * however many lines were wrong (r->errors says how many).
 */
int config_read(struct config_reader *r, const char *path, char *why, size_t size);
/*
 * The configuration read by default: $XDG_CONFIG_HOME/ncgrind/config, else
 * ~/.config/ncgrind/config (malloc'd); NULL when neither is set.
 */
char *config_default_path(void);
/* The same on bytes in memory (the fuzzer's, and tests'); path names them. */
void config_read_buffer(struct config_reader *r, const char *path, const char *data, size_t n);

/* Attributes of `color AREA FG BG [ATTR...]`: bits. */
enum config_attr {
	CONFIG_ATTR_NORMAL = 0,
	CONFIG_ATTR_BOLD = 1,
	CONFIG_ATTR_DIM = 2,
	CONFIG_ATTR_UNDERLINE = 4,
	CONFIG_ATTR_REVERSE = 8,
	CONFIG_ATTR_BLINK = 16,
	CONFIG_ATTR_STANDOUT = 32,
	CONFIG_ATTR_ITALIC = 64,
};

#define CONFIG_COLOUR_DEFAULT (-1)

/*
 * A colour word: default, black, red, green, yellow, blue, magenta, cyan,
 * white, bright-NAME (8 to 15), colorN or N (0 to 255). false: not one.
 */
bool config_colour(const char *word, int *colour);
/* An attribute word (bold, dim, underline, reverse, blink, standout, italic, normal). */
bool config_attr(const char *word, unsigned *bits);
/* The colour and attribute words, for messages and the manual: "default, black, ...". */
const char *config_colour_words(void);
const char *config_attr_words(void);
/* The words of a colour and of attributes, as config_colour() and config_attr() read them. */
void config_colour_name(int colour, char *buf, size_t size);
void config_attr_names(unsigned bits, char *buf, size_t size);

#endif
