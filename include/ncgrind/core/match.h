/*
 * match: regular expressions over names, as every search and filter of
 * ncgrind uses them: POSIX extended, case-insensitive when the pattern has
 * no upper-case letter (as less and vim's smartcase do).
 */
#ifndef NCGRIND_MATCH_H
#define NCGRIND_MATCH_H

#include "ncgrind/core/util.h"

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

/* Compile pattern into re; -1 with "bad regular expression 'x': why" in err. */
int match_compile(regex_t *re, const char *pattern, char *err, size_t errsize);
/* The same, keeping where a match is (regexec's pmatch[0]), for a search that shows it. */
int match_compile_at(regex_t *re, const char *pattern, bool where, char *err, size_t errsize);
/* Whether the name (bytes, not NUL-terminated) matches. */
bool match_name(const regex_t *re, struct span name);

#endif
