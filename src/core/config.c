/*
 * config: lines and words of a configuration file (config.h says what a
 * line is); `source` is done here, every other line is the caller's.
 */
#define _POSIX_C_SOURCE 200809L
#include "ncgrind/core/config.h"
#include "ncgrind/core/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* A configuration file is small: a larger one is something else, named by mistake. */
#define CONFIG_MAX_SIZE ((size_t)1 << 20)

static void tell(struct config_reader *r, const char *path, unsigned long line, const char *fmt,
		 ...) __attribute__((format(printf, 4, 5)));
static void tell(struct config_reader *r, const char *path, unsigned long line, const char *fmt,
		 ...)
{
	char why[600], msg[1400];
	va_list ap;

	if (r->errors >= CONFIG_MAX_ERRORS) {
		r->silenced++;
		return;
	}
	r->errors++;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (line)
		snprintf(msg, sizeof(msg), "%s:%lu: %s", path, line, why);
	else
		snprintf(msg, sizeof(msg), "%s: %s", path, why);
	if (r->error)
		r->error(r->ctx, msg);
}

/*
 * The words of line s (n bytes, no '\n') into l->argv, written into buf
 * (2 n + 1 bytes at least). false with why when they cannot be read.
 */
static bool split_words(const char *s, size_t n, struct config_line *l, char *buf, const char **why)
{
	size_t i = 0;
	char *o = buf;

	l->argc = 0;
	while (i < n) {
		char quote = 0;

		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i == n || s[i] == '#') /* a comment starts a word, not inside one */
			break;
		if (l->argc == CONFIG_MAX_WORDS) {
			*why = "more than 16 words";
			return false;
		}
		l->argv[l->argc++] = o;
		while (i < n && (quote || (s[i] != ' ' && s[i] != '\t'))) {
			char c = s[i++];

			if (quote && c == quote) {
				quote = 0;
			} else if (!quote && (c == '"' || c == '\'')) {
				quote = c;
			} else if (quote == '"' && c == '\\' && i < n) {
				*o++ = s[i++];
			} else {
				*o++ = c;
			}
		}
		if (quote) {
			*why = "a quote is not closed";
			return false;
		}
		*o++ = '\0';
	}
	return true;
}

/* A path named in file `from`: ~/ is $HOME, a relative one is beside from. */
static char *resolve(const char *from, const char *name)
{
	const char *home = getenv("HOME");
	const char *slash = strrchr(from, '/');
	size_t dlen = slash ? (size_t)(slash - from) + 1 : 0;
	char *out;

	if (name[0] == '~' && name[1] == '/' && home && *home) {
		out = xmalloc(strlen(home) + strlen(name));
		sprintf(out, "%s%s", home, name + 1);
		return out;
	}
	if (name[0] == '/' || !dlen)
		return xstrdup(name);
	out = xmalloc(dlen + strlen(name) + 1);
	memcpy(out, from, dlen);
	strcpy(out + dlen, name);
	return out;
}

static void read_source(struct config_reader *r, const struct config_line *l)
{
	char *path, why[200];

	if (l->argc != 2) {
		tell(r, l->path, l->line, "usage: source FILE");
		return;
	}
	if (r->no_source) {
		tell(r, l->path, l->line, "source is not read here");
		return;
	}
	if (r->depth >= CONFIG_MAX_DEPTH) {
		tell(r, l->path, l->line, "source nests more than %d files deep (a loop?): %s",
		     CONFIG_MAX_DEPTH, l->argv[1]);
		return;
	}
	path = resolve(l->path, l->argv[1]);
	if (config_read(r, path, why, sizeof(why)) < 0)
		tell(r, l->path, l->line, "cannot read %s: %s", path, why);
	free(path);
}

static void read_line(struct config_reader *r, const char *path, unsigned long lineno,
		      const char *s, size_t n, char *buf)
{
	struct config_line l = {.path = path, .line = lineno};
	const char *why = NULL;
	char reason[600];

	if (n && s[n - 1] == '\r') /* a file written on Windows */
		n--;
	if (memchr(s, '\0', n)) {
		tell(r, path, lineno, "a NUL byte: not a text line");
		return;
	}
	if (n > CONFIG_MAX_LINE) {
		tell(r, path, lineno, "longer than %d bytes", CONFIG_MAX_LINE);
		return;
	}
	if (!split_words(s, n, &l, buf, &why)) {
		tell(r, path, lineno, "%s", why);
		return;
	}
	if (!l.argc)
		return;
	if (!strcmp(l.argv[0], "source")) {
		read_source(r, &l);
		return;
	}
	reason[0] = '\0';
	if (r->line && !r->line(r->ctx, &l, reason, sizeof(reason)))
		tell(r, path, lineno, "%s", reason[0] ? reason : "not understood");
}

void config_read_buffer(struct config_reader *r, const char *path, const char *data, size_t n)
{
	char *buf = xmalloc(2 * CONFIG_MAX_LINE + 2);
	unsigned long lineno = 0;
	size_t i = 0;

	r->depth++;
	while (i < n) {
		const char *nl = memchr(data + i, '\n', n - i);
		size_t len = nl ? (size_t)(nl - (data + i)) : n - i;

		read_line(r, path, ++lineno, data + i, len, buf);
		i += len + 1;
	}
	r->depth--;
	free(buf);
	if (!r->depth && r->silenced) {
		unsigned more = r->silenced;

		r->silenced = 0;
		r->errors = 0; /* this one is told whatever the count */
		tell(r, path, 0, "%u more wrong lines not shown", more);
		r->errors = CONFIG_MAX_ERRORS;
	}
}

/* At most CONFIG_MAX_SIZE bytes of f into *data; -1 with why. */
static int slurp(FILE *f, char **data, size_t *n, char *why, size_t size)
{
	size_t alloc = 4096, len = 0;
	char *buf = xmalloc(alloc);

	for (;;) {
		size_t got;

		if (len == alloc) {
			if (alloc > CONFIG_MAX_SIZE) {
				snprintf(why, size, "larger than 1 MiB: not a configuration file");
				free(buf);
				return -1;
			}
			alloc *= 2;
			buf = xrealloc(buf, alloc);
		}
		got = fread(buf + len, 1, alloc - len, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(why, size, "%s", strerror(errno));
		free(buf);
		return -1;
	}
	*data = buf;
	*n = len;
	return 0;
}

char *config_default_path(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char *path;

	if (xdg && *xdg) {
		path = xmalloc(strlen(xdg) + 32);
		sprintf(path, "%s/ncgrind/config", xdg);
	} else if (home && *home) {
		path = xmalloc(strlen(home) + 40);
		sprintf(path, "%s/.config/ncgrind/config", home);
	} else {
		return NULL;
	}
	return path;
}

int config_read(struct config_reader *r, const char *path, char *why, size_t size)
{
	struct stat st;
	FILE *f = fopen(path, "r");
	char *data;
	size_t n;
	int ret;

	if (!f) {
		snprintf(why, size, "%s", strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(why, size, "is a directory");
		fclose(f);
		return -1;
	}
	ret = slurp(f, &data, &n, why, size);
	fclose(f);
	if (ret < 0)
		return -1;
	config_read_buffer(r, path, data, n);
	free(data);
	return 0;
}

/* ---- colours and attributes -------------------------------------------- */

static const char *const colour_names[] = {"black", "red",     "green", "yellow",
					   "blue",  "magenta", "cyan",  "white"};

static const struct {
	const char *name;
	unsigned bit;
} attr_names[] = {
    {"normal", CONFIG_ATTR_NORMAL},     {"bold", CONFIG_ATTR_BOLD},
    {"dim", CONFIG_ATTR_DIM},           {"underline", CONFIG_ATTR_UNDERLINE},
    {"reverse", CONFIG_ATTR_REVERSE},   {"blink", CONFIG_ATTR_BLINK},
    {"standout", CONFIG_ATTR_STANDOUT}, {"italic", CONFIG_ATTR_ITALIC},
};

/* 0 to 255 in digits, nothing else. */
static bool colour_number(const char *s, int *out)
{
	int v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 255)
			return false;
		v = v * 10 + (*s - '0');
	}
	if (v > 255)
		return false;
	*out = v;
	return true;
}

bool config_colour(const char *w, int *colour)
{
	if (!strcasecmp(w, "default") || !strcasecmp(w, "-1")) {
		*colour = CONFIG_COLOUR_DEFAULT;
		return true;
	}
	for (int i = 0; i < 8; i++) {
		if (!strcasecmp(w, colour_names[i])) {
			*colour = i;
			return true;
		}
		if (!strncasecmp(w, "bright-", 7) && !strcasecmp(w + 7, colour_names[i])) {
			*colour = 8 + i;
			return true;
		}
	}
	if (!strncasecmp(w, "color", 5))
		w += 5;
	else if (!strncasecmp(w, "colour", 6))
		w += 6;
	return colour_number(w, colour);
}

bool config_attr(const char *w, unsigned *bits)
{
	for (size_t i = 0; i < sizeof(attr_names) / sizeof(attr_names[0]); i++)
		if (!strcasecmp(w, attr_names[i].name)) {
			*bits |= attr_names[i].bit;
			return true;
		}
	return false;
}

const char *config_colour_words(void)
{
	return "default, black, red, green, yellow, blue, magenta, cyan, white, bright-NAME, "
	       "color0 to color255";
}

const char *config_attr_words(void)
{
	return "normal, bold, dim, underline, reverse, blink, standout, italic";
}

void config_colour_name(int colour, char *buf, size_t size)
{
	if (colour < 0)
		snprintf(buf, size, "default");
	else if (colour < 8)
		snprintf(buf, size, "%s", colour_names[colour]);
	else if (colour < 16)
		snprintf(buf, size, "bright-%s", colour_names[colour - 8]);
	else
		snprintf(buf, size, "color%d", colour);
}

void config_attr_names(unsigned bits, char *buf, size_t size)
{
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (size_t i = 1; i < sizeof(attr_names) / sizeof(attr_names[0]); i++)
		if ((bits & attr_names[i].bit) && len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? " " : "",
						attr_names[i].name);
}
