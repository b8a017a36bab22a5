/*
 * cache: the kept index. After a full read of a big profile its finished
 * index (struct profile: functions, cost cells, edges, blocks, parts,
 * events, cycles, the functions' ranks by name, and the names' bytes; the
 * profile stays mapped for the views that read blocks again) is written to
 * $XDG_CACHE_HOME/ncgrind/ (else ~/.cache/ncgrind/), keyed by the file's
 * device, inode, size, modification time in nanoseconds, a hash of its first
 * and last 64 KiB, the --event formulas and the format's version. The next
 * open maps it (MAP_PRIVATE: a later change copies only the pages it
 * writes) and has the whole table at once, without a parse.
 *
 * A cache file is checked before use: its magic, version, key, a checksum of
 * the whole file, and every offset, count and id against the file's and the
 * profile's sizes; anything wrong and it is not used (the fresh read writes
 * it again). One owned by another user, or a symbolic link, is not used.
 *
 * Only a profile of one regular, uncompressed file is kept (not a pipe,
 * not a compressed file, not several files read as one), and only when
 * reading it said nothing (no warning to say again).
 */
#ifndef NCGRIND_CACHE_H
#define NCGRIND_CACHE_H

#include "ncgrind/core/diag.h"
#include "ncgrind/core/profile.h"

#include <stdbool.h>
#include <stdint.h>

/* profile.stats.cache: whether the profile came from a kept index, or why not. */
enum cache_use {
	CACHE_UNTRIED, /* not looked for (off, several files, a pipe) */
	CACHE_MISS,    /* none for this file: read afresh */
	CACHE_BAD,     /* one there, not usable (damaged, other owner, ...): read afresh */
	CACHE_HIT,     /* read from the kept index */
};

#define CACHE_MIN_DEFAULT ((uint64_t)4 << 20)  /* smaller profiles are read again */
#define CACHE_SIZE_DEFAULT ((uint64_t)1 << 30) /* all cache files together */
#define CACHE_VERSION 4

/* On or off (--no-cache, set cache), and the bytes all cache files may take. */
void cache_set_enabled(bool on);
/* --no-cache: off, whatever set cache says after. */
void cache_forbid(void);
bool cache_enabled(void);
void cache_set_size(uint64_t bytes);
uint64_t cache_size(void);
/* "on", "off" / a size ("1G", "500M", "0"), for the settings; false when not one. */
bool cache_parse_size(const char *s, uint64_t *bytes);
/*
 * set cache and set cache-size from the configuration at path (NULL: the
 * default one), before any profile is read: the reports take them too, and
 * the browser's first load. Nothing is said of other lines.
 */
void cache_read_settings(const char *path);
/* What enum cache_use says, in words (--stats). */
const char *cache_use_name(int use);

/*
 * Read the profile p (one file added, not yet opened) from its kept index:
 * true when p is ready as profile_finish() leaves it (p->stats.cache is
 * CACHE_HIT); false, p untouched but for stats.cache, when there is none
 * usable.
 */
bool cache_load(struct profile *p);
/*
 * Keep p's index, when it is one worth keeping: a profile just read, of one
 * regular file of at least the threshold, with nothing in d. Errors are
 * silent: the cache is only a way to be quicker.
 */
void cache_save(const struct profile *p, const struct diag *d);

/*
 * For the fuzzer: load a cache image (len bytes at data) as the index of the
 * profile prof_data (prof_len bytes, ending in '\n'), checks and all, but
 * without the key's file checks. True when it was accepted; p is then
 * loaded and must be released.
 */
bool cache_load_image(struct profile *p, const void *data, size_t len, const char *prof_data,
		      size_t prof_len);
/* The image cache_save() would write for p (malloc'd, *len bytes); NULL when p has none. */
void *cache_image(const struct profile *p, size_t *len);

#endif
