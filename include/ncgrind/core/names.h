/*
 * names: an open-addressing hash table of uint32_t values keyed by 64-bit
 * hashes (htab), and on top of it the interning of names: each distinct byte
 * string of the profile (object, file or function name) gets one id, and is
 * kept as a span into the mapping, never copied.
 *
 * One table serves all kinds of names: the same bytes used as a file and as
 * an object share an id, which costs nothing and keeps ids dense.
 */
#ifndef NCGRIND_NAMES_H
#define NCGRIND_NAMES_H

#include "ncgrind/core/util.h"

/*
 * 8 bytes a slot: the table is probed at random, so its size is its cost in
 * cache misses. The slot is chosen by the hash's low bits and keeps 32 other
 * bits as a tag; callers always confirm a candidate against the real key.
 */
struct htab_slot {
	uint32_t tag;
	uint32_t val; /* value + 1; 0 marks an empty slot */
};

struct htab {
	struct htab_slot *slots;
	size_t mask, count;
	/* slots in a kept index's mapping (cache.c): never freed, left when they grow */
	bool borrowed;
};

void htab_init(struct htab *h);
void htab_release(struct htab *h);

/*
 * Walk the slots whose hash equals `hash`: start with *it = 0, each call
 * returns the next candidate value or NCG_NONE when there is none.
 */
uint32_t htab_next(const struct htab *h, uint64_t hash, size_t *it);
/* Insert val under hash (duplicates are the caller's business). */
void htab_insert(struct htab *h, uint64_t hash, uint32_t val);
/*
 * A hint that hash's first slot is probed soon: a loop over keys it has in
 * hand (a chunk's merge) asks for the slot some keys ahead, so that the
 * probe finds it in the cache; most probes of a big table miss it.
 */
void htab_prefetch(const struct htab *h, uint64_t hash);

struct names {
	struct span *spans;
	size_t nr, alloc;
	struct htab index;
	/*
	 * With keep_hash, each name's hash_bytes() (0 for an opaque one): a
	 * chunk's names, whose merge then reads none of their bytes again.
	 */
	uint64_t *hash;
	size_t hash_alloc;
	bool keep_hash;
};

void names_init(struct names *n);
void names_release(struct names *n);

/* The id of these bytes, adding them when new (the span must outlive n). */
uint32_t names_intern(struct names *n, struct span s);
/* names_intern() with the bytes' hash_bytes() in hand. */
uint32_t names_intern_hashed(struct names *n, struct span s, uint64_t hash);
/* The id of these bytes, or NCG_NONE. */
uint32_t names_find(const struct names *n, struct span s);
/*
 * A new id for a name whose bytes are not known yet (a chunk's placeholder:
 * its span is {NULL, 0}); it is never found by its bytes.
 */
uint32_t names_add_opaque(struct names *n);

/*
 * idtab: the compressed ids of one kind (fn=(12), fl=(3), ...) in one part,
 * id -> value. Real profiles number ids 1, 2, 3, ...: those go to a dense
 * table. An id far above the number defined (a hostile fl=(2147483647))
 * goes to a hashed list instead, so memory follows the ids defined, never
 * the size of the largest one.
 */
struct idtab_entry {
	uint64_t id;
	uint32_t val;
};

struct idtab {
	uint32_t *dense; /* ids below dense_n; NCG_NONE where undefined */
	size_t dense_n;
	struct idtab_entry *sparse; /* the others, found through index */
	size_t nsparse, sparse_alloc;
	struct htab index;
	size_t nset; /* ids given a value: the dense table grows up to about twice that */
	/*
	 * The ids in the order they were first given a value, until idtab_seal():
	 * a part's ids are walked when it closes, and a part of 4,000 that
	 * defines 75 ids should not cost a walk over every slot up to the largest.
	 */
	struct idtab_entry *order;
	size_t norder, order_alloc;
	bool order_stale; /* an id changed value after: look the values up */
	bool sealed;
	bool log_only; /* idtab_keep_log(): the order log alone holds the ids */
};

void idtab_init(struct idtab *t);
void idtab_release(struct idtab *t);
/* The id's value, or NCG_NONE. */
uint32_t idtab_get(const struct idtab *t, uint64_t id);
/* Give the id a value. */
void idtab_set(struct idtab *t, uint64_t id, uint32_t val);
/* Give the id a value if it has none (then NCG_NONE), else its value: one lookup. */
uint32_t idtab_add(struct idtab *t, uint64_t id, uint32_t val);
/* Bytes held, for the memory report. */
size_t idtab_bytes(const struct idtab *t);
/*
 * The i-th id given a value (in that order until sealed, in id order after):
 * false past the last. Its value may be NCG_NONE only if set so.
 */
bool idtab_each(const struct idtab *t, size_t i, uint64_t *id, uint32_t *val);
/* No more walks in the order of setting: the log of that order is freed. */
void idtab_seal(struct idtab *t);
/*
 * An empty table about to be given n ids up to max_id, read back whole (a
 * kept index): sealed at once (no log of the order), its dense part made in
 * one go where it will be one. Setting the 1.1 million ids of the 5 GiB
 * profile one by one, the log kept and the table grown 35 times, took
 * 0.04 s of its second open.
 */
void idtab_load(struct idtab *t, size_t n, uint64_t max_id);
/*
 * Walks in the order of setting only, from now on (a chunk's part that has
 * ended, until it is merged): the tables go when the log is smaller, and
 * a lookup or a change reads or rebuilds them from the log.
 */
void idtab_keep_log(struct idtab *t);

static inline struct span names_get(const struct names *n, uint32_t id)
{
	return n->spans[id];
}

#endif
