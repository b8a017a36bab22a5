/*
 * demangle: a cache of names demangled by libiberty (see demangle.h).
 */
#include "ncgrind/core/demangle.h"

#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>

enum { DM_UNKNOWN, DM_RAW, DM_DEMANGLED };

struct demangle_cache {
	uint8_t *state;    /* per name id */
	struct span *name; /* DM_DEMANGLED: the malloc'd demangled name */
	size_t n;
};

static void cache_grow(struct demangle_cache *c, size_t n)
{
	if (n <= c->n)
		return;
	c->state = xrealloc(c->state, n);
	c->name = xrealloc(c->name, st_mult(n, sizeof(*c->name)));
	memset(c->state + c->n, DM_UNKNOWN, n - c->n);
	c->n = n;
}

/* The length of a trailing "'N" (Callgrind's recursion level), or 0. */
static size_t level_suffix(struct span s)
{
	size_t i = s.len;

	while (i > 0 && s.ptr[i - 1] >= '0' && s.ptr[i - 1] <= '9')
		i--;
	return i > 0 && i < s.len && s.ptr[i - 1] == '\'' ? s.len - i + 1 : 0;
}

/* libiberty's demangling of raw (without its level suffix), or NULL. */
static char *demangle_raw(struct span raw)
{
	size_t suffix = level_suffix(raw), len = raw.len - suffix;
	char *in = xmalloc(len + 1), *out, *full;

	memcpy(in, raw.ptr, len);
	in[len] = '\0';
	out = cplus_demangle(in, DMGL_PARAMS | DMGL_ANSI);
	free(in);
	if (!out || !suffix)
		return out;
	full = xmalloc(strlen(out) + suffix + 1);
	memcpy(full, out, strlen(out));
	memcpy(full + strlen(out), raw.ptr + len, suffix);
	full[strlen(out) + suffix] = '\0';
	free(out);
	return full;
}

struct span demangle_name(struct demangle_cache **cache, uint32_t id, struct span raw,
			  size_t nnames)
{
	struct demangle_cache *c = *cache;
	char *d;

	if (!demangle_candidate(raw))
		return raw;
	if (!c)
		c = *cache = xcalloc(1, sizeof(*c));
	cache_grow(c, (size_t)id + 1 > nnames ? (size_t)id + 1 : nnames);
	if (c->state[id] == DM_DEMANGLED)
		return c->name[id];
	if (c->state[id] == DM_RAW)
		return raw;
	d = demangle_raw(raw);
	if (!d) {
		c->state[id] = DM_RAW;
		return raw;
	}
	c->state[id] = DM_DEMANGLED;
	c->name[id] = span_make(d, strlen(d));
	return c->name[id];
}

void demangle_release(struct demangle_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		if (c->state[i] == DM_DEMANGLED)
			free((char *)c->name[i].ptr);
	free(c->state);
	free(c->name);
	free(c);
}
