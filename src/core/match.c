/*
 * match: names are spans into the mapping, and regexec() wants a C string,
 * so a name is copied into a stack buffer (or, when long, a heap one) first.
 */
#include "ncgrind/core/match.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

int match_compile(regex_t *re, const char *pattern, char *err, size_t errsize)
{
	return match_compile_at(re, pattern, false, err, errsize);
}

int match_compile_at(regex_t *re, const char *pattern, bool where, char *err, size_t errsize)
{
	int flags = REG_EXTENDED | REG_ICASE | (where ? 0 : REG_NOSUB);
	int r;

	for (const char *s = pattern; *s; s++)
		if (isupper((unsigned char)*s))
			flags &= ~REG_ICASE;
	r = regcomp(re, pattern, flags);
	if (r) {
		char why[200];

		regerror(r, re, why, sizeof(why));
		snprintf(err, errsize, "bad regular expression '%s': %s", pattern, why);
		return -1;
	}
	return 0;
}

bool match_name(const regex_t *re, struct span name)
{
	char stack[512], *buf = name.len < sizeof(stack) ? stack : xmalloc(name.len + 1);
	bool m;

	if (name.len)
		memcpy(buf, name.ptr, name.len);
	buf[name.len] = '\0';
	m = regexec(re, buf, 0, NULL, 0) == 0;
	if (buf != stack)
		free(buf);
	return m;
}
