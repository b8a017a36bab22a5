/*
 * map: the bytes of a profile, mapped read-only when the file is regular,
 * read into memory when it is a pipe or standard input ("-"), decompressed
 * into memory when it is gzip, xz or zstd (decompress.h).
 *
 * The parser relies on one invariant: every line it walks ends in '\n'.
 * A file whose last byte is not '\n' gets one after it, in place: the
 * mapping is laid out one byte longer than the file (nothing is copied).
 *
 * A mapped file that shrinks while open does not end the program: the
 * pages past its new end read as zeros (ending in '\n') and map_changed()
 * says so; the caller reports it and may load the file again.
 */
#ifndef NCGRIND_MAP_H
#define NCGRIND_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct map {
	const char *data;   /* complete lines, each ending in '\n' */
	size_t size;        /* bytes in data: the file, and a '\n' it lacked at its end */
	size_t file_size;   /* bytes in the file */
	size_t map_len;     /* the mapped range (a whole number of pages) */
	bool mapped;        /* data is an mmap (else malloc'd) */
	int guard;          /* its slot in the SIGBUS guard, or -1 */
	int compression;    /* enum compression: how the file was compressed */
	size_t packed_size; /* compressed: the file's bytes (file_size is what they gave) */
	char warn[300];     /* compressed data cut or damaged: what came before is in data */
	/* the file as opened (a regular one): map_outdated() compares them */
	bool regular;
	uint64_t dev, ino;
	int64_t mtime_s, mtime_ns, st_size;
};

/* How a slow open is watched; every field may be NULL. */
struct map_watch {
	/*
	 * The bytes of a compressed file decompressed so far, of total packed:
	 * true stops it (MAP_STOPPED), as reading says for a pipe.
	 */
	bool (*unpacking)(void *ctx, uint64_t done, uint64_t total);
	/*
	 * A pipe or standard input, which takes as long as its writer: called
	 * after each read and every tenth of a second while none comes, with
	 * the bytes read so far; true stops the reading (MAP_STOPPED).
	 */
	bool (*reading)(void *ctx, uint64_t done);
	void *ctx;
};

#define MAP_STOPPED (-2) /* map_open_progress(): watch->reading or unpacking said stop */

/*
 * Open path ("-" for standard input), telling w how far it is (w may be
 * NULL). Returns 0, or -1 with a message in err (errno text, "is a
 * directory", "is a device", a pipe over half the memory, ...), or
 * MAP_STOPPED. An empty file maps to size 0.
 */
int map_open_progress(struct map *m, const char *path, const struct map_watch *w, char *err,
		      size_t errsize);
void map_release(struct map *m);

/* The file shrank or was cut under the mapping since it was opened. */
bool map_changed(const struct map *m);
/*
 * The regular file at path is no longer the one opened: changed (above),
 * or its inode, size or modification time differ (one stat).
 */
bool map_outdated(const struct map *m, const char *path);
/*
 * A fault at addr inside a mapping (SIGBUS: the file shrank): its pages
 * from there on become zeros and the map is marked changed. True when addr
 * was in one; async-signal-safe. map_open_progress() installs the SIGBUS handler
 * that calls it, chaining to the one before for other faults.
 */
bool map_fault(const void *addr);
/* Hint that the data will be read once from start to end (madvise). */
void map_advise_sequential(const struct map *m, bool on);

#endif
