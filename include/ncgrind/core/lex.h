/*
 * lex: the tokens of a profile line, read in place. Every function takes a
 * cursor into a line that is known to end in '\n' (see map.h), so no token
 * reader needs an end pointer: '\n' is the sentinel.
 *
 * These are inline because the cost-line loop calls them tens of millions of
 * times per gigabyte; everything rare (overflow, hex) leaves the fast path.
 */
#ifndef NCGRIND_LEX_H
#define NCGRIND_LEX_H

#include "ncgrind/core/util.h"

#include <stdbool.h>
#include <stdint.h>

enum lex_status {
	LEX_OK = 0,
	LEX_NONE,     /* no token of this kind here */
	LEX_BAD,      /* a token, but followed by garbage ("20abc") */
	LEX_OVERFLOW, /* does not fit in 64 bits */
	LEX_NOBASE,   /* relative subposition without a previous position */
	LEX_NEGATIVE, /* relative subposition below zero */
};

enum { LEX_DIGIT = 1, LEX_BLANK = 2, LEX_EOL = 4, LEX_COST = 8 /* starts a cost line */ };
extern const unsigned char lex_class[256];
/* A hex digit's value plus one, 0 for any other byte. */
extern const unsigned char lex_hex_plus1[256];

static inline bool lex_is_blank(char c)
{
	return lex_class[(unsigned char)c] & LEX_BLANK;
}

/* A number, a position or a name ends at a blank or at the end of the line. */
static inline bool lex_is_delim(char c)
{
	return lex_class[(unsigned char)c] & (LEX_BLANK | LEX_EOL);
}

/* Blanks are ' ', '\t' and '\r' (so CRLF files read like LF files). */
static inline const char *lex_skip_blanks(const char *p)
{
	while (lex_is_blank(*p))
		p++;
	return p;
}

int lex_number_slow(const char **pp, uint64_t *out);
/* Like lex_number, but `stop` also ends the number (jcnd=TAKEN/EXECUTED). */
int lex_number_to(const char **pp, uint64_t *out, char stop);

/* Unsigned decimal or 0x-hex number followed by a delimiter. */
static inline int lex_number(const char **pp, uint64_t *out)
{
	const char *p = *pp;
	const char *s = p;
	unsigned d = (unsigned char)*p - '0';
	uint64_t v = 0;

	if (d > 9)
		return LEX_NONE;
	/* Most numbers in real profiles are a single digit, most of them "0". */
	if ((unsigned char)p[1] - '0' > 9) {
		if (!lex_is_delim(p[1]))
			return lex_number_slow(pp, out); /* 0x..., or garbage */
		*pp = p + 1;
		*out = d;
		return LEX_OK;
	}
	do {
		v = v * 10 + d;
		d = (unsigned char)*++p - '0';
	} while (d <= 9);
	if (p - s > 19)
		return lex_number_slow(pp, out);
	if (!lex_is_delim(*p))
		return LEX_BAD;
	*pp = p;
	*out = v;
	return LEX_OK;
}

/*
 * A subposition: absolute number, "+N", "-N" or "*", relative to base.
 * On LEX_OK *out holds the value; the caller decides whether base moves.
 */
static inline int lex_subpos(const char **pp, uint64_t base, bool have_base, uint64_t *out)
{
	const char *p = *pp;
	uint64_t v;
	int r;

	switch (*p) {
	case '*':
		if (!lex_is_delim(p[1]))
			return LEX_BAD;
		if (!have_base)
			return LEX_NOBASE;
		*pp = p + 1;
		*out = base;
		return LEX_OK;
	case '+':
	case '-':
		p++;
		r = lex_number(&p, &v);
		if (r != LEX_OK)
			return r == LEX_NONE ? LEX_BAD : r;
		if (!have_base)
			return LEX_NOBASE;
		if ((*pp)[0] == '+') {
			if (__builtin_add_overflow(base, v, out))
				return LEX_OVERFLOW;
		} else {
			if (v > base)
				return LEX_NEGATIVE;
			*out = base - v;
		}
		*pp = p;
		return LEX_OK;
	default:
		return lex_number(pp, out);
	}
}

/* What follows `fn=`, `cfi=`, ...: a plain name or a compressed one. */
enum lex_name_kind {
	LEX_NAME_PLAIN,  /* "name" */
	LEX_NAME_DEFINE, /* "(id) name" */
	LEX_NAME_REF,    /* "(id)" */
};

struct lex_name {
	enum lex_name_kind kind;
	uint64_t id;
	struct span name; /* without leading blanks and without a trailing '\r' */
};

/*
 * Parse a position name starting at p (just after '='), in a range that
 * ends at end (one past its last '\n'). Returns LEX_OK or LEX_BAD ("(12
 * name": '(' and a digit start a compressed id, which needs ')').
 */
int lex_name(const char *p, const char *end, struct lex_name *out);

/* The '\n' that ends the line containing p (end: one past the last '\n'). */
static inline const char *lex_eol(const char *p, const char *end)
{
	return memchr(p, '\n', (size_t)(end - p));
}

/*
 * True when the line at p starts with key. Compares byte by byte so that it
 * never reads past the '\n' that ends the line (keys hold no '\n').
 */
static inline bool lex_prefix(const char *p, const char *key)
{
	while (*key)
		if (*p++ != *key++)
			return false;
	return true;
}

#endif
