/*
 * diag: the problems found while reading a profile, each with file and line.
 *
 * The core never prints: it records messages here and the caller decides
 * (batch mode writes them to stderr, the browser shows them). Only the first
 * DIAG_KEEP messages are kept; the counts stay exact.
 */
#ifndef NCGRIND_DIAG_H
#define NCGRIND_DIAG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define DIAG_KEEP 50

enum diag_level {
	DIAG_WARNING, /* the reader went on; numbers are right */
	DIAG_ERROR,   /* a line was rejected; the rest was read */
	DIAG_FATAL,   /* nothing (more) could be read */
};

struct diag_msg {
	enum diag_level level;
	uint64_t line;    /* 0: the message is about the whole file */
	const char *path; /* the file it is about: d->path when it was added */
	char *text;
};

struct diag {
	/*
	 * As the user named the file being read; not owned. A profile of
	 * several files sets it to each in turn: every message keeps its own.
	 */
	const char *path;
	struct diag_msg *msgs;
	size_t nr, alloc;
	size_t errors, warnings, fatals;
};

void diag_init(struct diag *d, const char *path);
void diag_release(struct diag *d);

/* Record a message; always returns -1 so callers can `return diag_error(...)`. */
int diag_add(struct diag *d, enum diag_level level, uint64_t line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/*
 * Up to max bytes of p into buf (size >= 4*max+8), escaped as escape.h says,
 * "..." after a cut.
 */
char *diag_quote(char *buf, const char *p, size_t n, size_t max);

/* "FILE:LINE: text" (warnings say "warning: "), one message per line. */
void diag_format(const struct diag *d, const struct diag_msg *m, char *buf, size_t size);

/* Write every kept message, then how many more there were, to out (stderr). */
void diag_write(const struct diag *d, FILE *out);

#endif
