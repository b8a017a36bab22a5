/*
 * names: linear probing over a power-of-two table kept at most three
 * quarters full: slots are 8 bytes, so that the extra probes of a fuller
 * table mostly stay in the cache line of the first, which is the one that
 * costs (a miss); at half full the call index of a 1 GiB profile was
 * 16.8 MB, a tenth of the whole index at its peak.
 * Slots store the full 64-bit hash so that most mismatches are rejected
 * without touching the names themselves.
 */
#include "ncgrind/core/names.h"

#include <stdlib.h>

void htab_init(struct htab *h)
{
	memset(h, 0, sizeof(*h));
}

void htab_release(struct htab *h)
{
	if (!h->borrowed)
		free(h->slots);
	memset(h, 0, sizeof(*h));
}

/* Slot and tag come from the same 32 bits, so the table can grow without the keys. */
static uint32_t tag_of(uint64_t hash)
{
	return (uint32_t)(hash ^ (hash >> 32));
}

static void htab_grow(struct htab *h)
{
	size_t n = h->slots ? (h->mask + 1) * 2 : 64;
	struct htab_slot *old = h->slots;
	size_t oldn = h->slots ? h->mask + 1 : 0;

	h->slots = xcalloc_written(n, sizeof(*h->slots));
	h->mask = n - 1;
	for (size_t i = 0; i < oldn; i++) {
		size_t j;

		if (!old[i].val)
			continue;
		for (j = old[i].tag & h->mask; h->slots[j].val; j = (j + 1) & h->mask)
			;
		h->slots[j] = old[i];
	}
	if (!h->borrowed)
		free(old);
	h->borrowed = false;
}

uint32_t htab_next(const struct htab *h, uint64_t hash, size_t *it)
{
	uint32_t tag = tag_of(hash);
	size_t i;

	if (!h->slots)
		return NCG_NONE;
	/* *it counts the slots already visited along this hash's probe path. */
	for (i = (tag + *it) & h->mask; h->slots[i].val; i = (i + 1) & h->mask) {
		(*it)++;
		if (h->slots[i].tag == tag)
			return h->slots[i].val - 1;
	}
	return NCG_NONE;
}

void htab_prefetch(const struct htab *h, uint64_t hash)
{
	if (h->slots)
		__builtin_prefetch(&h->slots[tag_of(hash) & h->mask]);
}

void htab_insert(struct htab *h, uint64_t hash, uint32_t val)
{
	uint32_t tag = tag_of(hash);
	size_t i;

	if (!h->slots || (h->count + 1) * 4 > (h->mask + 1) * 3)
		htab_grow(h);
	for (i = tag & h->mask; h->slots[i].val; i = (i + 1) & h->mask)
		;
	h->slots[i].tag = tag;
	h->slots[i].val = val + 1;
	h->count++;
}

void names_init(struct names *n)
{
	memset(n, 0, sizeof(*n));
	htab_init(&n->index);
}

void names_release(struct names *n)
{
	free(n->spans);
	free(n->hash);
	htab_release(&n->index);
	memset(n, 0, sizeof(*n));
}

static uint32_t find_hashed(const struct names *n, struct span s, uint64_t h)
{
	size_t it = 0;
	uint32_t id;

	while ((id = htab_next(&n->index, h, &it)) != NCG_NONE)
		if (span_eq(n->spans[id], s))
			return id;
	return NCG_NONE;
}

uint32_t names_find(const struct names *n, struct span s)
{
	return find_hashed(n, s, hash_bytes(s.ptr, s.len));
}

uint32_t names_intern(struct names *n, struct span s)
{
	return names_intern_hashed(n, s, hash_bytes(s.ptr, s.len));
}

uint32_t names_intern_hashed(struct names *n, struct span s, uint64_t h)
{
	uint32_t id = find_hashed(n, s, h);

	if (id != NCG_NONE)
		return id;
	if (n->nr >= NCG_NONE - 1)
		die("too many distinct names");
	ALLOC_GROW(n->spans, n->nr + 1, n->alloc);
	if (n->keep_hash) {
		ALLOC_GROW(n->hash, n->nr + 1, n->hash_alloc);
		n->hash[n->nr] = h;
	}
	id = (uint32_t)n->nr++;
	n->spans[id] = s;
	htab_insert(&n->index, h, id);
	return id;
}

uint32_t names_add_opaque(struct names *n)
{
	if (n->nr >= NCG_NONE - 1)
		die("too many distinct names");
	ALLOC_GROW(n->spans, n->nr + 1, n->alloc);
	if (n->keep_hash) {
		ALLOC_GROW(n->hash, n->nr + 1, n->hash_alloc);
		n->hash[n->nr] = 0;
	}
	n->spans[n->nr] = span_make(NULL, 0);
	return (uint32_t)n->nr++;
}

/* ---- compressed ids ----------------------------------------------------- */

static void revive(struct idtab *t);

void idtab_init(struct idtab *t)
{
	memset(t, 0, sizeof(*t));
}

void idtab_release(struct idtab *t)
{
	free(t->dense);
	free(t->sparse);
	free(t->order);
	htab_release(&t->index);
	memset(t, 0, sizeof(*t));
}

static void note_first_set(struct idtab *t, uint64_t id, uint32_t val)
{
	t->nset++;
	if (t->sealed)
		return;
	ALLOC_GROW(t->order, t->norder + 1, t->order_alloc);
	t->order[t->norder++] = (struct idtab_entry){id, val};
}

/*
 * A dense table mostly empty goes to the hashed list: a dump file of a long
 * run defines 75 ids numbered up to 4,500, and 4,000 such files each kept a
 * dense table of 1,700 slots (25% of the files' size; 6% once hashed).
 */
static void sparsen(struct idtab *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->dense_n; i++)
		n += t->dense[i] != NCG_NONE;
	if (n * 4 >= t->dense_n)
		return;
	t->sparse =
	    xrealloc(t->sparse, (t->nsparse + n ? t->nsparse + n : 1) * sizeof(t->sparse[0]));
	t->sparse_alloc = t->nsparse + n;
	for (size_t i = 0; i < t->dense_n; i++)
		if (t->dense[i] != NCG_NONE) {
			t->sparse[t->nsparse] = (struct idtab_entry){i, t->dense[i]};
			htab_insert(&t->index, hash_u64(i), (uint32_t)t->nsparse++);
		}
	free(t->dense);
	t->dense = NULL;
	t->dense_n = 0;
}

void idtab_seal(struct idtab *t)
{
	if (t->log_only)
		revive(t);
	free(t->order);
	t->order = NULL;
	t->norder = t->order_alloc = 0;
	t->sealed = true;
	sparsen(t);
}

/*
 * A part of 4,000 in a dump file defines 75 ids numbered up to 4,500: its
 * dense table is 1,024 slots or more a kind, while a chunk's parts wait to
 * be merged (7.7 MB of a 183 MB profile's 30 at its peak); the log of 75
 * is 1.2 KB. Values are brought up to date in the log first (an id that
 * changed value), so that a walk needs no lookup.
 */
void idtab_keep_log(struct idtab *t)
{
	size_t tables = t->dense_n * sizeof(uint32_t) + t->sparse_alloc * sizeof(t->sparse[0]) +
			(t->index.slots ? (t->index.mask + 1) * sizeof(struct htab_slot) : 0);

	if (t->sealed || t->log_only || t->norder * sizeof(t->order[0]) >= tables)
		return;
	for (size_t i = 0; t->order_stale && i < t->norder; i++)
		t->order[i].val = idtab_get(t, t->order[i].id);
	t->order_stale = false;
	free(t->dense);
	free(t->sparse);
	htab_release(&t->index);
	t->dense = NULL;
	t->sparse = NULL;
	t->dense_n = t->nsparse = t->sparse_alloc = 0;
	t->order = xrealloc(t->order, (t->norder ? t->norder : 1) * sizeof(t->order[0]));
	t->order_alloc = t->norder ? t->norder : 1;
	t->log_only = true;
}

bool idtab_each(const struct idtab *t, size_t i, uint64_t *id, uint32_t *val)
{
	if (!t->sealed) {
		if (i >= t->norder)
			return false;
		*id = t->order[i].id;
		*val = t->order_stale ? idtab_get(t, *id) : t->order[i].val;
		return true;
	}
	if (i < t->dense_n) {
		*id = i;
		*val = t->dense[i];
		return true;
	}
	if (i - t->dense_n >= t->nsparse)
		return false;
	*id = t->sparse[i - t->dense_n].id;
	*val = t->sparse[i - t->dense_n].val;
	return true;
}

static struct idtab_entry *sparse_find(const struct idtab *t, uint64_t id)
{
	size_t it = 0;
	uint32_t i;

	while ((i = htab_next(&t->index, hash_u64(id), &it)) != NCG_NONE)
		if (t->sparse[i].id == id)
			return &t->sparse[i];
	return NULL;
}

/* The value of id in the log that idtab_keep_log() kept alone, or NCG_NONE. */
static uint32_t log_find(const struct idtab *t, uint64_t id)
{
	for (size_t i = 0; i < t->norder; i++)
		if (t->order[i].id == id)
			return t->order[i].val;
	return NCG_NONE;
}

uint32_t idtab_get(const struct idtab *t, uint64_t id)
{
	const struct idtab_entry *e;

	if (t->log_only) /* (never in the parse) */
		return log_find(t, id);
	if (id < t->dense_n)
		return t->dense[id];
	e = sparse_find(t, id);
	return e ? e->val : NCG_NONE;
}

/* The dense table grows to cover `need` ids; hashed ones it now covers move into it. */
static void dense_grow(struct idtab *t, size_t need)
{
	size_t old = t->dense_n, n = 0;

	t->dense = xrealloc(t->dense, st_mult(need, sizeof(uint32_t)));
	for (size_t i = old; i < need; i++)
		t->dense[i] = NCG_NONE;
	t->dense_n = need;
	if (!t->nsparse)
		return;
	htab_release(&t->index);
	for (size_t i = 0; i < t->nsparse; i++) {
		if (t->sparse[i].id < need) {
			t->dense[t->sparse[i].id] = t->sparse[i].val;
			continue;
		}
		t->sparse[n] = t->sparse[i];
		htab_insert(&t->index, hash_u64(t->sparse[n].id), (uint32_t)n);
		n++;
	}
	t->nsparse = n;
}

void idtab_load(struct idtab *t, size_t n, uint64_t max_id)
{
	t->sealed = true; /* (no order to log: the ids come back in the order they are kept) */
	if (n && max_id < st_add(st_mult(n, 2), 1024) && max_id + 1 > t->dense_n)
		dense_grow(t, (size_t)max_id + 1);
}

static uint32_t *idtab_slot(struct idtab *t, uint64_t id);

/* The tables again from the log that idtab_keep_log() kept alone. */
static void revive(struct idtab *t)
{
	t->log_only = false;
	for (size_t i = 0; i < t->norder; i++)
		*idtab_slot(t, t->order[i].id) = t->order[i].val;
}

/* The slot of id, made (holding NCG_NONE) if there is none. */
static uint32_t *idtab_slot(struct idtab *t, uint64_t id)
{
	struct idtab_entry *e;

	if (t->log_only)
		revive(t);
	if (id >= t->dense_n && id < st_add(st_mult(t->nset, 2), 1024))
		dense_grow(t, (size_t)id + 1 > t->dense_n / 2 * 3 ? (size_t)id + 1
								  : t->dense_n / 2 * 3);
	if (id < t->dense_n)
		return &t->dense[id];
	e = sparse_find(t, id);
	if (e)
		return &e->val;
	if (t->nsparse >= NCG_NONE - 1)
		die("too many compressed ids");
	ALLOC_GROW(t->sparse, t->nsparse + 1, t->sparse_alloc);
	t->sparse[t->nsparse].id = id;
	t->sparse[t->nsparse].val = NCG_NONE;
	htab_insert(&t->index, hash_u64(id), (uint32_t)t->nsparse);
	return &t->sparse[t->nsparse++].val;
}

void idtab_set(struct idtab *t, uint64_t id, uint32_t val)
{
	uint32_t *v = idtab_slot(t, id);

	if (*v == NCG_NONE)
		note_first_set(t, id, val);
	else if (*v != val)
		t->order_stale = true; /* the log's value is the first one */
	*v = val;
}

uint32_t idtab_add(struct idtab *t, uint64_t id, uint32_t val)
{
	uint32_t *v = idtab_slot(t, id);

	if (*v != NCG_NONE)
		return *v;
	note_first_set(t, id, val);
	*v = val;
	return NCG_NONE;
}

size_t idtab_bytes(const struct idtab *t)
{
	return t->dense_n * sizeof(uint32_t) + t->sparse_alloc * sizeof(struct idtab_entry) +
	       t->order_alloc * sizeof(struct idtab_entry) +
	       (t->index.slots ? (t->index.mask + 1) * sizeof(struct htab_slot) : 0);
}
