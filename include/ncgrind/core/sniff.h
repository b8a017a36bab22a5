/*
 * sniff: whether the first bytes of a stream can start a profile, asked
 * while a pipe or a decompressed stream is read, so that what is not a
 * profile (3 GB of zeros) is refused after its first line, not held whole.
 */
#ifndef NCGRIND_SNIFF_H
#define NCGRIND_SNIFF_H

#include <stddef.h>

/* The first bytes that must show a profile's first line. */
#define SNIFF_MAX ((size_t)1 << 20)

enum sniff {
	SNIFF_MORE,    /* no answer yet: read on */
	SNIFF_PROFILE, /* the first line that is not blank or a comment is a key line */
	SNIFF_NOT,     /* it is not: the parser refuses it (read no further) */
	SNIFF_NO_LINE, /* SNIFF_MAX bytes of blank lines and comments (read no further) */
};

/*
 * What the n first bytes p of a stream say. Only what the parser would
 * refuse as a first line is SNIFF_NOT (a line that does not start with a
 * key and ':' or '=', or "===="): the parser, given the same bytes, says
 * why in its own words.
 */
enum sniff sniff_profile(const char *p, size_t n);

#endif
