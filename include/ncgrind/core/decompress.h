/*
 * decompress: gzip, xz and zstd profiles, told by their first bytes (never
 * by the name: Xdebug writes .gz, people rename, pipes have no name), read
 * into memory whole with zlib, liblzma and libzstd. Concatenated members
 * and frames are read whole, as gzip -d, xz -d and zstd -d do.
 */
#ifndef NCGRIND_DECOMPRESS_H
#define NCGRIND_DECOMPRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum compression { COMP_NONE, COMP_GZIP, COMP_XZ, COMP_ZSTD };

/* The compression whose magic bytes start p (n bytes), or COMP_NONE. */
enum compression decompress_detect(const void *p, size_t n);
/* "gzip", "xz", "zstd" ("" for COMP_NONE). */
const char *decompress_name(enum compression c);

/*
 * Called every few MB of input with the bytes of src consumed so far; true
 * stops the decoder (the user pressed q): decompress() returns
 * DECOMPRESS_STOPPED.
 */
typedef bool (*decompress_progress_fn)(void *ctx, uint64_t done, uint64_t total);

#define DECOMPRESS_STOPPED (-2)

struct decompressed {
	char *data;     /* malloc'd, with room for one more byte (a final '\n') */
	size_t size;    /* bytes decompressed */
	char warn[256]; /* non-empty: the data ends early, what came before is kept */
};

/*
 * Decompresses the n bytes of src into out. More than max bytes out is an
 * error (a profile is held whole in memory: a small bomb must not take it
 * all). Returns 0, or -1 with a message in err when nothing usable came out,
 * or DECOMPRESS_STOPPED (with a message) when progress said stop.
 * Data that is cut or damaged part way returns 0 with what came before it
 * and a message in out->warn. Output that cannot start a profile (sniff.h)
 * stops the decoder at once: 0 with what came out, for the parser to refuse.
 */
int decompress(enum compression c, const void *src, size_t n, size_t max,
	       decompress_progress_fn progress, void *ctx, struct decompressed *out, char *err,
	       size_t errsize);

#endif
