/*
 * siblings: a Callgrind output name taken apart (PID, dump, thread), and
 * the directory read once for the names of the same PID.
 */
#define _DEFAULT_SOURCE /* struct stat's st_mtim */
#include "ncgrind/core/siblings.h"
#include "ncgrind/core/util.h"

#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PREFIX "callgrind.out."

/* One file of a run: its name in the directory and where it goes in order. */
struct member {
	char *name;
	uint64_t dump, thread; /* UINT64_MAX: none (the final dump; no thread) */
};

/* A file on disk (stat once per name: a run of 4,000 dumps is 4,000 names). */
struct file_key {
	dev_t dev;
	ino_t ino;
	bool known; /* stat worked ("-" and missing files: by name only) */
};

void files_release(struct file_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	free(l->keys);
	memset(l, 0, sizeof(*l));
}

void files_add(struct file_list *l, const char *path)
{
	struct file_key k = {0, 0, false};
	struct stat st;

	if (strcmp(path, "-") && stat(path, &st) == 0)
		k = (struct file_key){st.st_dev, st.st_ino, true};
	for (size_t i = 0; i < l->n; i++)
		if ((k.known && l->keys[i].known && k.dev == l->keys[i].dev &&
		     k.ino == l->keys[i].ino) ||
		    !strcmp(l->v[i], path))
			return;
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	ALLOC_GROW(l->keys, l->n + 1, l->keys_alloc);
	l->keys[l->n] = k;
	l->v[l->n++] = xstrdup(path);
}

/* Decimal digits at *p, at most 18 of them (a PID, a dump or thread number). */
static bool number(const char **p, uint64_t *out)
{
	uint64_t v = 0;
	int n = 0;

	while (**p >= '0' && **p <= '9') {
		if (++n > 18)
			return false;
		v = v * 10 + (uint64_t)(**p - '0');
		(*p)++;
	}
	*out = v;
	return n > 0;
}

/* "callgrind.out.PID[.N][-TT]": false for any other name. */
static bool run_name(const char *base, uint64_t *pid, uint64_t *dump, uint64_t *thread)
{
	const char *p = base + strlen(PREFIX);

	if (strncmp(base, PREFIX, strlen(PREFIX)) || !number(&p, pid))
		return false;
	*dump = *thread = UINT64_MAX;
	if (*p == '.' && (++p, !number(&p, dump)))
		return false;
	if (*p == '-' && (++p, !number(&p, thread)))
		return false;
	return *p == '\0';
}

static int cmp_member(const void *a, const void *b)
{
	const struct member *x = a, *y = b;

	if (x->dump != y->dump)
		return x->dump < y->dump ? -1 : 1;
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	return strcmp(x->name, y->name);
}

static bool nonempty_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

/* The first n bytes of a, then b. */
static char *concat(const char *a, size_t n, const char *b)
{
	size_t nb = strlen(b);
	char *s = xmalloc(n + nb + 1);

	memcpy(s, a, n);
	memcpy(s + n, b, nb + 1);
	return s;
}

void files_add_with_siblings(struct file_list *l, const char *path)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	size_t prefix = (size_t)(base - path); /* "dir/", "/" or "": names keep it */
	uint64_t pid, dump, thread, p2;
	struct member *m = NULL;
	size_t n = 0, alloc = 0;
	struct dirent *de;
	char *dir;
	DIR *d;

	if (!run_name(base, &pid, &dump, &thread)) {
		files_add(l, path);
		return;
	}
	dir = prefix > 1 ? concat(path, prefix - 1, "") : xstrdup(prefix ? "/" : ".");
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		char *full;

		if (!run_name(de->d_name, &p2, &dump, &thread) || p2 != pid)
			continue;
		full = concat(path, prefix, de->d_name);
		if (!nonempty_file(full)) {
			free(full);
			continue;
		}
		ALLOC_GROW(m, n + 1, alloc);
		m[n++] = (struct member){full, dump, thread};
	}
	if (d)
		closedir(d);
	free(dir);
	if (!n) /* not there, or empty: the reader says what is wrong with it */
		files_add(l, path);
	if (n > 1)
		qsort(m, n, sizeof(m[0]), cmp_member);
	for (size_t i = 0; i < n; i++) {
		files_add(l, m[i].name);
		free(m[i].name);
	}
	free(m);
}

bool files_add_newest(struct file_list *l, const char *dir, bool siblings)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct timespec best = {0, 0};
	char *found = NULL;

	if (!d)
		return false;
	while ((de = readdir(d))) {
		struct stat st;
		char *full;

		if (strncmp(de->d_name, PREFIX, strlen(PREFIX)))
			continue;
		full = strcmp(dir, ".") ? concat(dir, strlen(dir), "/") : xstrdup("");
		full = xrealloc(full, strlen(full) + strlen(de->d_name) + 1);
		strcat(full, de->d_name);
		if (stat(full, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
			free(full);
			continue;
		}
		if (!found || st.st_mtim.tv_sec > best.tv_sec ||
		    (st.st_mtim.tv_sec == best.tv_sec && st.st_mtim.tv_nsec > best.tv_nsec)) {
			free(found);
			found = full;
			best = st.st_mtim;
		} else {
			free(full);
		}
	}
	closedir(d);
	if (!found)
		return false;
	if (siblings)
		files_add_with_siblings(l, found);
	else
		files_add(l, found);
	free(found);
	return true;
}

/*
 * The files of one side of a diff: the file named, with the other files of
 * its run, unless that run is the other side's too (two threads of one run).
 */
void files_add_diff_side(struct file_list *files, const char *path, const char *other,
			 bool siblings)
{
	struct file_list mine = {0}, theirs = {0};
	bool shared = false;

	if (siblings && strcmp(path, "-") && strcmp(other, "-")) {
		files_add_with_siblings(&mine, path);
		files_add_with_siblings(&theirs, other);
		for (size_t i = 0; i < theirs.n && !shared; i++) {
			size_t n = mine.n;

			files_add(&mine, theirs.v[i]); /* (not added: the same file) */
			shared = mine.n == n;
		}
		files_release(&theirs);
		files_release(&mine);
		if (!shared) {
			files_add_with_siblings(files, path);
			return;
		}
	}
	files_add(files, path);
}
