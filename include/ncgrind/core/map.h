/*
 * map: the bytes of a profile, mapped read-only when the file is regular,
 * read into memory when it is a pipe or standard input ("-").
 *
 * The parser relies on one invariant: every line it walks ends in '\n'.
 * A regular file whose last byte is not '\n' keeps its mapping for all
 * complete lines, and its unterminated last line is copied into `tail`
 * with a '\n' appended (one line, never the file).
 */
#ifndef NCGRIND_MAP_H
#define NCGRIND_MAP_H

#include <stdbool.h>
#include <stddef.h>

struct map {
	const char *data; /* complete lines, each ending in '\n' */
	size_t size;      /* bytes in data */
	char *tail;       /* the unterminated last line + '\n', or NULL */
	size_t tail_size;
	size_t file_size; /* data + the last line without its added '\n' */
	bool mapped;      /* data is an mmap (else malloc'd) */
};

/*
 * Open path ("-" for standard input). Returns 0, or -1 with a message in
 * err (errno text, "is a directory", ...). An empty file maps to size 0.
 */
int map_open(struct map *m, const char *path, char *err, size_t errsize);
void map_release(struct map *m);

/* Hint that the data will be read once from start to end (madvise). */
void map_advise_sequential(const struct map *m, bool on);

#endif
