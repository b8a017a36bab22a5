/*
 * sniff: the parser's rule for a profile's first line (parse.c's
 * unknown_line: a header key, a position line or Xdebug's "===="), read
 * from a prefix that may end anywhere, even inside that line.
 */
#include "ncgrind/core/sniff.h"

#include <stdbool.h>
#include <string.h>

/* What a key is made of (parse.c), and the blanks a line may start with. */
static bool key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || c == ' ' || c == '\t' || c == '\r';
}

/* The line at p (n bytes, not blank, not a comment): its key decides. */
static enum sniff first_line(const char *p, size_t n)
{
	size_t k = 0;

	if (!memcmp(p, "====", n < 4 ? n : 4))
		return n < 4 ? SNIFF_MORE : SNIFF_PROFILE;
	while (k < n && key_char(p[k]))
		k++;
	if (k == n)
		return SNIFF_MORE;
	return k > 0 && (p[k] == ':' || p[k] == '=') ? SNIFF_PROFILE : SNIFF_NOT;
}

enum sniff sniff_profile(const char *p, size_t n)
{
	size_t i = 0;
	enum sniff s = SNIFF_MORE;

	while (i < n && s == SNIFF_MORE) {
		const char *nl = memchr(p + i, '\n', n - i);
		size_t j = i;

		while (j < n && (p[j] == ' ' || p[j] == '\t' || p[j] == '\r'))
			j++;
		if (j < n && p[j] != '\n' && p[j] != '#')
			s = first_line(p + i, n - i);
		else if (!nl)
			break; /* a comment, or blanks, not ended yet */
		i = nl ? (size_t)(nl - p) + 1 : n;
	}
	if (s == SNIFF_MORE && n >= SNIFF_MAX)
		return SNIFF_NO_LINE;
	return s;
}
