/*
 * parts: which parts of the profile count (dumps, threads, files), chosen
 * by a list as --parts and :parts take it, and the rows of the parts screen.
 */
#ifndef NCGRIND_PARTS_H
#define NCGRIND_PARTS_H

#include "ncgrind/core/profile.h"

#include <stdbool.h>
#include <stddef.h>

/*
 * Parse a list of parts into sel (p->nparts flags, all cleared first):
 * items separated by commas, each one of
 *   N, N-M     parts by their number on the parts screen (1, 2, ... in the
 *              order of the files and of the parts in each)
 *   tN, tN-M   the parts of thread N (a `thread:` line)
 *   F:N, F:N-M part N (or N to M) of file F, F a file's number (1, 2, ...)
 *              or its name as given or its base name
 *   F:         every part of file F
 *   all        every part
 * Returns 0, or -1 with a message in err (an item that names no part).
 */
int parts_parse(const struct profile *p, const char *list, bool *sel, char *err, size_t errsize);

/* The list (as parts_parse reads it) of the set flags, e.g. "1,3-5": buf of size. */
void parts_format(const bool *sel, size_t n, char *buf, size_t size);

#endif
