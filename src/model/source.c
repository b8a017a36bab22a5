/*
 * source: candidate paths for a source file, and reading the first that
 * exists. Each candidate is tried once, even when two rules make the same
 * path, so that the list of what was tried reads cleanly. Source files are
 * small next to profiles: they are read whole, up to SOURCE_MAX_SIZE (the
 * name comes from the profile, and may be anything).
 */
#define _POSIX_C_SOURCE 200809L
#include "ncgrind/model/source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

void source_paths_set_profile(struct source_paths *sp, const char *profile_path)
{
	const char *slash = strrchr(profile_path, '/');
	struct stat st;

	free(sp->profile_dir);
	sp->profile_dir =
	    slash ? xmemdup0(profile_path, (size_t)(slash - profile_path)) : xstrdup(".");
	/* 0 (nothing is "newer") when unknown, not the time of a profile opened before */
	sp->profile_mtime = stat(profile_path, &st) == 0 ? st.st_mtime : 0;
}

void source_paths_release(struct source_paths *sp)
{
	for (size_t i = 0; i < sp->ndirs; i++)
		free(sp->dirs[i]);
	for (size_t i = 0; i < sp->nrules; i++) {
		free(sp->rules[i].from);
		free(sp->rules[i].to);
	}
	free(sp->dirs);
	free(sp->rules);
	free(sp->profile_dir);
	memset(sp, 0, sizeof(*sp));
}

void source_paths_add_dir(struct source_paths *sp, const char *dir)
{
	ALLOC_GROW(sp->dirs, sp->ndirs + 1, sp->dirs_alloc);
	sp->dirs[sp->ndirs++] = xstrdup(dir);
}

int source_paths_add_rule(struct source_paths *sp, const char *rule)
{
	const char *eq = strchr(rule, '=');

	if (!eq || eq == rule)
		return -1;
	ALLOC_GROW(sp->rules, sp->nrules + 1, sp->rules_alloc);
	sp->rules[sp->nrules].from = xmemdup0(rule, (size_t)(eq - rule));
	sp->rules[sp->nrules].to = xstrdup(eq + 1);
	sp->nrules++;
	return 0;
}

/* Whether path is new to the list (then the list keeps it): each is tried once. */
static bool add_tried(struct source_text *t, const char *path)
{
	for (size_t i = 0; i < t->ntried; i++)
		if (!strcmp(t->tried[i].path, path))
			return false;
	ALLOC_GROW(t->tried, t->ntried + 1, t->tried_alloc);
	t->tried[t->ntried++] = (struct source_tried){xstrdup(path), NULL};
	return true;
}

#define TOO_LARGE "larger than " SOURCE_MAX_SIZE_TEXT

/* Why a file is not read, or NULL. */
static const char *not_read(const struct stat *st)
{
	if (!S_ISREG(st->st_mode))
		return "not a regular file";
	if ((uint64_t)st->st_size > SOURCE_MAX_SIZE)
		return TOO_LARGE;
	return NULL;
}

/*
 * Read the file at path; -1 when it is not there, or with *why when it is
 * but is not read (see source.h).
 */
static int read_file(struct source_text *t, const char *path, time_t profile_mtime,
		     const char **why)
{
	struct stat st;
	int fd;
	char *data = NULL;
	size_t got = 0, alloc = 0, want;

	*why = NULL;
	/* look before opening: opening a FIFO waits for a writer, a device may act */
	if (stat(path, &st) < 0 || S_ISDIR(st.st_mode))
		return -1;
	*why = not_read(&st);
	if (*why)
		return -1;
	/* O_NONBLOCK: the name may be a FIFO by now; fstat says what was opened */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || (*why = not_read(&st)) != NULL) {
		close(fd);
		return -1;
	}
	/* a size of 0 may be a file of /proc, made as it is read: to its end, at most the cap */
	want = st.st_size ? (size_t)st.st_size : SOURCE_MAX_SIZE + 1;
	if (st.st_size)
		ALLOC_GROW(data, want + 1, alloc);
	while (got < want) {
		size_t chunk = want - got < 65536 ? want - got : 65536;
		ssize_t n;

		ALLOC_GROW(data, got + chunk + 1, alloc);
		n = read(fd, data + got, chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (got > SOURCE_MAX_SIZE) {
		free(data);
		*why = TOO_LARGE;
		return -1;
	}
	ALLOC_GROW(data, got + 1, alloc);
	data[got] = '\0';
	t->data = data;
	t->size = got;
	t->newer = profile_mtime && st.st_mtime > profile_mtime;
	t->path = xstrdup(path);
	return 0;
}

static void index_lines(struct source_text *t)
{
	size_t alloc = 0;

	for (size_t i = 0; i < t->size;) {
		const char *nl = memchr(t->data + i, '\n', t->size - i);

		ALLOC_GROW(t->line_start, t->nlines + 1, alloc);
		t->line_start[t->nlines++] = i;
		i = nl ? (size_t)(nl - t->data) + 1 : t->size;
	}
}

static int try_path(struct source_text *t, const char *path, time_t mtime)
{
	const char *why;

	if (!add_tried(t, path))
		return -1;
	if (read_file(t, path, mtime, &why) < 0) {
		t->tried[t->ntried - 1].why = why;
		return -1;
	}
	index_lines(t);
	return 0;
}

static int try_joined(struct source_text *t, const char *dir, const char *name, time_t mtime)
{
	char *path = xmalloc(strlen(dir) + strlen(name) + 2);
	int r;

	sprintf(path, "%s/%s", dir, name);
	r = try_path(t, path, mtime);
	free(path);
	return r;
}

/*
 * "a/./b//../c.c" as "a/b/c.c": the components of name that can stand under
 * a directory, so that no path made of them leaves it.
 */
static char *plain_components(const char *name)
{
	char *out = xmalloc(strlen(name) + 1);
	size_t o = 0;

	for (const char *p = name; *p;) {
		size_t n = strcspn(p, "/");
		bool dots = (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.');

		if (n && !dots) {
			if (o)
				out[o++] = '/';
			memcpy(out + o, p, n);
			o += n;
		}
		p += n + (p[n] == '/');
	}
	out[o] = '\0';
	return out;
}

/*
 * The name's trailing components under dir, longest first: a profile copied
 * with its sources names them where they were built (/home/dev/hidden/x.c),
 * and they now lie beside it (hidden/x.c, or x.c). At most SOURCE_MAX_SUFFIX
 * components, so that a name of a million "a/" costs no more than a real one.
 */
static int try_suffixes(struct source_text *t, const char *dir, const char *name, time_t mtime)
{
	char *plain = plain_components(name);
	const char *start[SOURCE_MAX_SUFFIX];
	size_t n = 0, len = strlen(plain);
	int found = -1;

	/* plain neither starts nor ends with '/': each '/' starts a suffix */
	for (size_t i = len; i > 0 && n < SOURCE_MAX_SUFFIX; i--)
		if (plain[i - 1] == '/')
			start[n++] = plain + i;
	if (len && n < SOURCE_MAX_SUFFIX)
		start[n++] = plain;
	while (n > 0 && found < 0)
		found = try_joined(t, dir, start[--n], mtime);
	free(plain);
	return found;
}

static int try_rules(struct source_text *t, const struct source_paths *sp, const char *name)
{
	int found = -1;

	for (size_t i = 0; i < sp->nrules && found < 0; i++) {
		size_t len = strlen(sp->rules[i].from);

		if (!strncmp(name, sp->rules[i].from, len))
			found = try_joined(t, sp->rules[i].to, name + len + (name[len] == '/'),
					   sp->profile_mtime);
	}
	return found;
}

/* Under each -I directory, the name's path (without its leading '/'), then its base name. */
static int try_dirs(struct source_text *t, const struct source_paths *sp, const char *name)
{
	const char *rel = name, *base = strrchr(name, '/');
	int found = -1;

	while (*rel == '/')
		rel++;
	base = base ? base + 1 : name;
	for (size_t i = 0; i < sp->ndirs && found < 0; i++) {
		found = try_joined(t, sp->dirs[i], rel, sp->profile_mtime);
		if (found < 0 && base != rel)
			found = try_joined(t, sp->dirs[i], base, sp->profile_mtime);
	}
	return found;
}

int source_load(struct source_text *t, const struct source_paths *sp, struct span name)
{
	char *n = xmemdup0(name.ptr, name.len);
	int found;

	memset(t, 0, sizeof(*t));
	if (!strcmp(n, "???")) {
		t->no_debug_info = true;
		free(n);
		return -1;
	}
	found = try_rules(t, sp, n);
	if (found < 0)
		found = try_path(t, n, sp->profile_mtime);
	if (found < 0 && sp->profile_dir && n[0] != '/')
		found = try_joined(t, sp->profile_dir, n, sp->profile_mtime);
	if (found < 0 && sp->profile_dir)
		found = try_suffixes(t, sp->profile_dir, n, sp->profile_mtime);
	if (found < 0)
		found = try_dirs(t, sp, n);
	free(n);
	return found;
}

void source_release(struct source_text *t)
{
	free(t->path);
	free(t->data);
	free(t->line_start);
	for (size_t i = 0; i < t->ntried; i++)
		free(t->tried[i].path);
	free(t->tried);
	memset(t, 0, sizeof(*t));
}

const char *source_refused(const struct source_text *t)
{
	for (size_t i = 0; i < t->ntried; i++)
		if (t->tried[i].why)
			return t->tried[i].why;
	return NULL;
}

struct span source_line(const struct source_text *t, uint64_t n)
{
	size_t s, e;

	if (n == 0 || n > t->nlines)
		return span_make("", 0);
	s = t->line_start[n - 1];
	e = n < t->nlines ? t->line_start[n] : t->size;
	if (e > s && t->data[e - 1] == '\n')
		e--;
	if (e > s && t->data[e - 1] == '\r')
		e--;
	return span_make(t->data + s, e - s);
}
