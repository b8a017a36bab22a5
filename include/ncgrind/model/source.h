/*
 * source: finding and reading a source file named in a profile. The name
 * rewritten by --substitute-path rules (as gdb's), then as written, then
 * relative to the profile's directory, then its trailing components under
 * the profile's directory (a profile copied with its sources), then under
 * each -I directory (as callgrind_annotate's). What was tried is kept, so
 * that a view can say it.
 */
#ifndef NCGRIND_SOURCE_H
#define NCGRIND_SOURCE_H

#include "ncgrind/core/util.h"

#include <stdbool.h>
#include <time.h>

struct source_rule {
	char *from, *to;
};

struct source_paths {
	char **dirs; /* -I DIR, in order */
	size_t ndirs, dirs_alloc;
	struct source_rule *rules; /* --substitute-path=FROM=TO, in order */
	size_t nrules, rules_alloc;
	char *profile_dir; /* the directory of the profile */
	time_t profile_mtime;
};

/* A zeroed struct is empty; this sets the profile the paths are relative to. */
void source_paths_set_profile(struct source_paths *sp, const char *profile_path);
void source_paths_release(struct source_paths *sp);
void source_paths_add_dir(struct source_paths *sp, const char *dir);
/* "FROM=TO"; -1 when there is no '='. */
int source_paths_add_rule(struct source_paths *sp, const char *rule);

/* A path tried, and why it was not read when it is there. */
struct source_tried {
	char *path;
	const char *why; /* "larger than 64 MiB", "not a regular file"; NULL: not there */
};

struct source_text {
	char *path; /* where it was found, or NULL */
	char *data; /* the whole file */
	size_t size;
	size_t *line_start; /* line i (1-based) starts at data[line_start[i - 1]] */
	size_t nlines;
	bool newer;                 /* modified after the profile was written */
	bool no_debug_info;         /* the name was "???": nothing was looked for */
	struct source_tried *tried; /* the paths tried, in order, each once */
	size_t ntried, tried_alloc;
};

/*
 * The most of a source file that is read: the name comes from the profile,
 * and may be a disk image or /dev/zero. A larger file is not read at all.
 */
#define SOURCE_MAX_SIZE ((size_t)64 << 20)
#define SOURCE_MAX_SIZE_TEXT "64 MiB"

/* Trailing components tried under the profile's directory, at most. */
#define SOURCE_MAX_SUFFIX 8

/*
 * Look for the file named name; 0 when found and read, -1 when not
 * (t->tried says where). "???", Valgrind's name for code without debug
 * information, is not looked for: -1 with t->no_debug_info set. Only a
 * regular file of at most SOURCE_MAX_SIZE is read (one that says it is
 * empty, as those of /proc do, is read to its end, up to the same size);
 * a FIFO or a device is not opened for reading (a FIFO would wait for a
 * writer) and is passed over, as a file too large is, with its reason.
 */
int source_load(struct source_text *t, const struct source_paths *sp, struct span name);
void source_release(struct source_text *t);

/* Why a file that was there was not read (the first reason of the paths tried), or NULL. */
const char *source_refused(const struct source_text *t);

/* Line n (1-based) without its '\n'; an empty span past the end. */
struct span source_line(const struct source_text *t, uint64_t n);

#endif
