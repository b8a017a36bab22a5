/*
 * parts: the --parts / :parts list, read item by item against the profile's
 * parts (numbered in load order) and files.
 */
#include "ncgrind/model/parts.h"
#include "ncgrind/core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A number or a range "N-M" at *s (N <= M), ending at ',' or the end. */
static bool range(const char **s, uint64_t *lo, uint64_t *hi)
{
	char *end;

	if (**s < '0' || **s > '9')
		return false;
	*lo = *hi = strtoull(*s, &end, 10);
	if (*end == '-') {
		const char *m = end + 1;

		if (*m < '0' || *m > '9')
			return false;
		*hi = strtoull(m, &end, 10);
	}
	*s = end;
	return *lo <= *hi && (**s == ',' || **s == '\0');
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The file an item's "F:" names (its number or its name), or -1. */
static long file_named(const struct profile *p, const char *f, size_t n)
{
	char *end;
	unsigned long k = strtoul(f, &end, 10);

	if (end == f + n && n && k >= 1 && k <= p->nsrc)
		return (long)k - 1;
	for (size_t i = 0; i < p->nsrc; i++) {
		const char *path = p->src[i].path, *b = base_name(path);

		if ((strlen(path) == n && !memcmp(path, f, n)) ||
		    (strlen(b) == n && !memcmp(b, f, n)))
			return (long)i;
	}
	return -1;
}

/* One item; true when it could be read (it may still name no part). */
static bool item(const struct profile *p, const char **s, bool *sel, size_t *hits)
{
	const char *colon = strchr(*s, ':'), *comma = strchr(*s, ',');
	uint64_t lo, hi;

	if (!strncmp(*s, "all", 3) && ((*s)[3] == ',' || (*s)[3] == '\0')) {
		for (size_t i = 0; i < p->nparts; i++)
			sel[i] = true;
		*hits += p->nparts;
		*s += 3;
		return true;
	}
	if (colon && (!comma || colon < comma)) { /* F:N */
		long f = file_named(p, *s, (size_t)(colon - *s));
		uint64_t k = 0;

		if (f < 0)
			return false;
		*s = colon + 1;
		if (**s == ',' || **s == '\0') {
			lo = 1;
			hi = UINT64_MAX;
		} else if (!range(s, &lo, &hi)) {
			return false;
		}
		for (size_t i = 0; i < p->nparts; i++)
			if (p->parts[i].src == (uint32_t)f && ++k >= lo && k <= hi) {
				sel[i] = true;
				++*hits;
			}
		return true;
	}
	if (**s == 't') { /* tN: a thread */
		++*s;
		if (!range(s, &lo, &hi))
			return false;
		for (size_t i = 0; i < p->nparts; i++)
			if (p->parts[i].thread >= 0 && (uint64_t)p->parts[i].thread >= lo &&
			    (uint64_t)p->parts[i].thread <= hi) {
				sel[i] = true;
				++*hits;
			}
		return true;
	}
	if (!range(s, &lo, &hi))
		return false;
	for (uint64_t k = lo; k <= hi && k <= p->nparts; k++) {
		if (k >= 1) {
			sel[k - 1] = true;
			++*hits;
		}
	}
	return true;
}

int parts_parse(const struct profile *p, const char *list, bool *sel, char *err, size_t errsize)
{
	const char *s = list;

	memset(sel, 0, p->nparts * sizeof(bool));
	for (;;) {
		const char *start = s;
		size_t hits = 0;
		bool ok = item(p, &s, sel, &hits);
		int len = (int)strcspn(start, ",");

		if (!ok) {
			snprintf(err, errsize,
				 "bad part list item '%.*s' (N, N-M, tN, FILE:N, all)", len, start);
			return -1;
		}
		if (!hits) {
			snprintf(err, errsize, "no part is '%.*s' (there %s %zu part%s; see P)",
				 len, start, p->nparts == 1 ? "is" : "are", p->nparts,
				 p->nparts == 1 ? "" : "s");
			return -1;
		}
		if (*s == '\0')
			return 0;
		s++; /* the ',' */
	}
}

void parts_format(const bool *sel, size_t n, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		size_t j = i;
		int w;

		if (!sel[i])
			continue;
		while (j + 1 < n && sel[j + 1])
			j++;
		w = j > i ? snprintf(buf + o, size - o, "%s%zu-%zu", o ? "," : "", i + 1, j + 1)
			  : snprintf(buf + o, size - o, "%s%zu", o ? "," : "", i + 1);
		if (w < 0 || (size_t)w >= size - o) {
			buf[o] = '\0';
			return;
		}
		o += (size_t)w;
		i = j;
	}
}
