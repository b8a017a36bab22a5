/*
 * cache: the kept index (cache.h). The file is a header and sections, each
 * at an 8-byte aligned offset; the big arrays (functions, cost cells, edges,
 * blocks) are laid out as in memory and used where they lie, the rest
 * (events, parts, names, id tables) is small and rebuilt from records.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, mkstemp */
#define _POSIX_C_SOURCE 200809L
#include "ncgrind/core/cache.h"
#include "ncgrind/core/config.h"
#include "ncgrind/core/settings.h"
#include "ncgrind/core/decompress.h"
#include "ncgrind/core/events.h"
#include "ncgrind/core/graph.h"
#include "ncgrind/core/parse.h"
#include "ncgrind/core/report.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CALLEE_UNKNOWN_ID (NCG_NONE - 1) /* parser.h's CALLEE_UNKNOWN */
#define SAMPLE_BYTES ((size_t)64 << 10)  /* hashed at each end of the profile */
#define SUFFIX ".ncgidx"

static bool enabled = true, forbidden;
static uint64_t size_limit = CACHE_SIZE_DEFAULT;

void cache_set_enabled(bool on)
{
	enabled = on;
}

void cache_forbid(void)
{
	forbidden = true;
}

bool cache_enabled(void)
{
	return enabled && !forbidden;
}

void cache_set_size(uint64_t bytes)
{
	size_limit = bytes;
}

uint64_t cache_size(void)
{
	return size_limit;
}

bool cache_parse_size(const char *s, uint64_t *bytes)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	if (!*s || *s == '-')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return false;
	switch (*end) {
	case 'K':
	case 'k':
		shift = 10;
		end++;
		break;
	case 'M':
	case 'm':
		shift = 20;
		end++;
		break;
	case 'G':
	case 'g':
		shift = 30;
		end++;
		break;
	case 'T':
	case 't':
		shift = 40;
		end++;
		break;
	default:
		break;
	}
	if (*end || (shift && v > (UINT64_MAX >> shift)))
		return false;
	*bytes = (uint64_t)v << shift;
	return true;
}

/* A line of the configuration: set cache and set cache-size, nothing else. */
static bool settings_line(void *ctx, const struct config_line *l, char *why, size_t size)
{
	uint64_t v;
	bool on;

	(void)ctx;
	(void)why;
	(void)size;
	if (l->argc != 3 || strcmp(l->argv[0], "set"))
		return true;
	if (!strcmp(l->argv[1], "cache") && setting_on_off(l->argv[2], &on))
		cache_set_enabled(on);
	else if (!strcmp(l->argv[1], "cache-size") && cache_parse_size(l->argv[2], &v))
		cache_set_size(v);
	return true; /* what is wrong is the browser's to tell, when it reads the file */
}

static void settings_error(void *ctx, const char *message)
{
	(void)ctx;
	(void)message;
}

void cache_read_settings(const char *path)
{
	struct config_reader r = {.line = settings_line, .error = settings_error};
	char *def = path ? NULL : config_default_path(), why[200];

	if (path || def)
		config_read(&r, path ? path : def, why, sizeof(why));
	free(def);
}

const char *cache_use_name(int use)
{
	switch (use) {
	case CACHE_MISS:
		return "miss";
	case CACHE_BAD:
		return "ignored (not usable)";
	case CACHE_HIT:
		return "hit";
	default:
		return "not used";
	}
}

/* ---- the file's layout ------------------------------------------------- */

enum section {
	S_FUNCS,
	S_EDGES,
	S_BLOCKS,
	S_CTX,
	S_SELF,
	S_SELF_BIG,
	S_INCL,
	S_INCL_BIG,
	S_EDGE,
	S_EDGE_BIG,
	S_TOTALS,
	S_CYCLE_INCL,
	S_NAMES,
	S_NAME_SLOTS,
	S_FN_SLOTS,
	S_POOL,
	S_EVENTS,
	S_EVSPECS,
	S_TERMS,
	S_PARTS,
	S_U32,
	S_U64,
	S_IDS,
	S_CHANGES,
	S_RANKS,
	S_SCC,
	S_ORDER,
	S_COUNT
};

struct key {
	uint64_t dev, ino, size, mtime_s, mtime_ns, sample, events;
};

#define MAGIC "NCGIDX\r\n"
#define F_CALLGRIND 1u
#define F_SATURATED 2u

struct head {
	char magic[8];
	uint32_t version, layout;
	uint64_t checksum, file_len;
	struct key key;
	uint64_t lines, src_lines;
	uint32_t nev, nraw, ncycles, flags;
	uint32_t ncell, pad; /* values a row of cost cells: nev, or nraw (events_on_demand) */
	uint64_t nfuncs, nedges, nblocks, nctx, nnames, nevspecs, nparts;
	uint64_t name_mask, name_count, fn_mask, fn_count;
	uint64_t shared_at[3], nshared[3];
	struct {
		uint64_t off, len;
	} sec[S_COUNT];
};

enum where { W_NULL, W_POOL };

struct dspan {
	uint64_t off;
	uint32_t len, where;
};

#define E_DERIVED 1u
#define E_BUILTIN 2u
#define E_RATIO 4u

struct devent {
	struct dspan name, long_name, formula;
	uint32_t flags, nterms, nden, pad;
	uint64_t terms_at, den_at, line;
};

#define P_SUMMARY 1u
#define P_TOTALS 2u
#define P_SHARED 4u

struct dpart {
	uint64_t first_line;
	int64_t number, thread, pid;
	struct dspan cmd, creator, trigger, timerange;
	uint32_t npos, pos[PROFILE_MAX_POS];
	uint32_t nev, nsum, nsummary, ntotals, flags, pad;
	uint64_t evmap_at, sum_at, summary_at, totals_at, summary_line, totals_line;
	uint64_t ids_at[3], nids[3], changes_at, nchanges;
};

struct did {
	uint64_t id;
	uint32_t val, pad;
};

/* The layouts of the structs kept as they are in memory: a build that differs reads none. */
#define LAYOUT                                                                                     \
	((uint32_t)(sizeof(struct function) * 1 + sizeof(struct block) * 3 +                       \
		    sizeof(struct block_ctx) * 7 + sizeof(struct call_edge) * 11 +                 \
		    sizeof(struct cost_big) * 13 + sizeof(struct event_term) * 17 +                \
		    sizeof(struct id_change) * 19 + sizeof(struct htab_slot) * 23 +                \
		    sizeof(struct head) * 29 + sizeof(void *) * 31))

/* ---- the checksum: four lanes of 64-bit words, as xxhash does ---------- */

#define P1 0x9E3779B185EBCA87ull
#define P2 0xC2B2AE3D27D4EB4Full

static inline uint64_t rotl(uint64_t x, int r)
{
	return x << r | x >> (64 - r);
}

/* The same sum over bytes given a piece at a time (a file written as it is made). */
struct hasher {
	uint64_t v[4], total;
	unsigned char buf[32];
	size_t nbuf;
};

static void hasher_init(struct hasher *h, uint64_t seed)
{
	*h = (struct hasher){.v = {seed + P1, seed + P2, seed, seed - P1}};
}

static void hasher_round(struct hasher *h, const unsigned char *p)
{
	uint64_t w;

	for (int k = 0; k < 4; k++) {
		memcpy(&w, p + 8 * k, 8);
		h->v[k] = rotl(h->v[k] + w * P2, 31) * P1;
	}
}

static void hasher_add(struct hasher *h, const void *data, size_t n)
{
	const unsigned char *p = data;

	h->total += n;
	if (h->nbuf) {
		size_t take = 32 - h->nbuf < n ? 32 - h->nbuf : n;

		memcpy(h->buf + h->nbuf, p, take);
		h->nbuf += take;
		p += take;
		n -= take;
		if (h->nbuf < 32)
			return;
		hasher_round(h, h->buf);
		h->nbuf = 0;
	}
	for (; n >= 32; p += 32, n -= 32)
		hasher_round(h, p);
	memcpy(h->buf, p, n);
	h->nbuf = n;
}

static uint64_t hasher_end(const struct hasher *h)
{
	uint64_t x =
	    rotl(h->v[0], 1) + rotl(h->v[1], 7) + rotl(h->v[2], 12) + rotl(h->v[3], 18) + h->total;

	for (size_t i = 0; i < h->nbuf; i++)
		x = (x ^ h->buf[i]) * 0x100000001B3ull;
	x ^= x >> 33;
	x *= P2;
	x ^= x >> 29;
	return x;
}

static uint64_t sum_bytes(uint64_t seed, const void *data, size_t n)
{
	struct hasher h;

	hasher_init(&h, seed);
	hasher_add(&h, data, n);
	return hasher_end(&h);
}

/* The checksum of an image: of the header as if its checksum were 0, and of the rest. */
static uint64_t head_sum(const void *head, uint64_t body_sum)
{
	struct head h;

	memcpy(&h, head, sizeof(h));
	h.checksum = 0;
	return sum_bytes(body_sum, &h, sizeof(h));
}

static uint64_t image_sum(const char *base, size_t len)
{
	return head_sum(base, sum_bytes(0, base + sizeof(struct head), len - sizeof(struct head)));
}

/* ---- the key ------------------------------------------------------------ */

static uint64_t events_hash(const struct profile *p)
{
	uint64_t h = CACHE_VERSION;

	for (size_t i = 0; i < p->nuser_events; i++)
		h = sum_bytes(h, p->user_events[i], strlen(p->user_events[i]) + 1);
	return h;
}

/* The key of the file open at fd (fstat'd into st), or false when it has none. */
static bool key_of_fd(int fd, const struct stat *st, const struct profile *p, struct key *k)
{
	size_t n = (size_t)st->st_size, head = n < SAMPLE_BYTES ? n : SAMPLE_BYTES;
	size_t tail = n - head < SAMPLE_BYTES ? n - head : SAMPLE_BYTES;
	char *buf = xmalloc(SAMPLE_BYTES);
	bool ok = true;

	*k = (struct key){.dev = (uint64_t)st->st_dev,
			  .ino = (uint64_t)st->st_ino,
			  .size = (uint64_t)st->st_size,
			  .mtime_s = (uint64_t)st->st_mtim.tv_sec,
			  .mtime_ns = (uint64_t)st->st_mtim.tv_nsec,
			  .events = events_hash(p)};
	ok = pread(fd, buf, head, 0) == (ssize_t)head;
	if (ok) {
		k->sample = sum_bytes(n, buf, head);
		ok = pread(fd, buf, tail, (off_t)(n - tail)) == (ssize_t)tail;
	}
	if (ok)
		k->sample = sum_bytes(k->sample, buf, tail);
	free(buf);
	return ok;
}

/* The same from the profile's mapping (what was read) and the stat the map made. */
static void key_of_map(const struct map *m, const struct profile *p, struct key *k)
{
	size_t n = m->file_size, head = n < SAMPLE_BYTES ? n : SAMPLE_BYTES;
	size_t tail = n - head < SAMPLE_BYTES ? n - head : SAMPLE_BYTES;

	*k = (struct key){.dev = m->dev,
			  .ino = m->ino,
			  .size = (uint64_t)m->st_size,
			  .mtime_s = (uint64_t)m->mtime_s,
			  .mtime_ns = (uint64_t)m->mtime_ns,
			  .events = events_hash(p)};
	k->sample = sum_bytes(sum_bytes(n, m->data, head), m->data + n - tail, tail);
}

/* ---- where the files go ----------------------------------------------- */

static uint64_t threshold(void)
{
	const char *s = getenv("NCGRIND_CACHE_MIN");
	uint64_t v;

	if (s && !strcmp(s, "off")) /* the benches and comparisons: every read a real one */
		return UINT64_MAX;
	return s && cache_parse_size(s, &v) ? v : CACHE_MIN_DEFAULT;
}

/* A directory of ours, made 0700 when missing; false when it is not ours. */
static bool own_dir(const char *path)
{
	struct stat st;

	if (mkdir(path, 0700) < 0 && errno != EEXIST)
		return false;
	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid();
}

/* The cache directory into buf (made when make), or false. */
static bool cache_dir(char *buf, size_t size, bool make)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;

	if (xdg && xdg[0] == '/') { /* the spec: a relative path is to be ignored */
		n = snprintf(buf, size, "%s", xdg);
	} else if (home && home[0]) {
		n = snprintf(buf, size, "%s/.cache", home);
	} else {
		return false;
	}
	if (n < 0 || (size_t)n + 16 >= size)
		return false;
	if (make && mkdir(buf, 0700) < 0 && errno != EEXIST)
		return false;
	strcat(buf, "/ncgrind");
	return make ? own_dir(buf) : true;
}

static bool cache_path(const struct key *k, char *buf, size_t size, bool make)
{
	char dir[PATH_MAX];
	uint64_t h = sum_bytes(CACHE_VERSION, k, sizeof(*k));

	if (!cache_dir(dir, sizeof(dir), make))
		return false;
	return snprintf(buf, size, "%s/%016llx%s", dir, (unsigned long long)h, SUFFIX) < (int)size;
}

/* ---- reading ------------------------------------------------------------ */

struct image {
	const char *base; /* the mapping */
	size_t len;
	const struct head *h;
	const char *prof; /* the profile's bytes */
	size_t prof_len;
	uint64_t nnames;
};

static bool mul_ok(uint64_t a, uint64_t b, uint64_t *r)
{
	if (b && a > UINT64_MAX / b)
		return false;
	*r = a * b;
	return true;
}

/* Section s holds n elements of sz bytes: its address, or NULL when it does not. */
static const void *sec_at(const struct image *im, enum section s, uint64_t n, size_t sz)
{
	uint64_t off = im->h->sec[s].off, len = im->h->sec[s].len, want;

	if (!mul_ok(n, sz, &want) || len != want || off % 8 || off < sizeof(struct head) ||
	    off > im->len || len > im->len - off)
		return NULL;
	return im->base + off;
}

/* Elements in section s of sz bytes each, or UINT64_MAX when it is not a whole number. */
static uint64_t sec_count(const struct image *im, enum section s, size_t sz)
{
	uint64_t len = im->h->sec[s].len;

	return len % sz ? UINT64_MAX : len / sz;
}

static bool id_ok(const struct image *im, uint32_t id)
{
	return id == NCG_NONE || id < im->nnames;
}

/* A value of a compressed id's table: a name, or the parser's marks of an undefined one. */
static bool idval_ok(const struct image *im, uint32_t id)
{
	return id < im->nnames || id >= NCG_NONE - 2;
}

static bool byte_bool(const void *base, size_t off)
{
	unsigned char c = ((const unsigned char *)base)[off];

	return c <= 1;
}

static bool span_in(const struct image *im, const struct dspan *d, struct span *out)
{
	const char *pool = im->base + im->h->sec[S_POOL].off;
	uint64_t pool_len = im->h->sec[S_POOL].len;

	switch (d->where) {
	case W_NULL:
		*out = span_make(NULL, 0);
		return d->len == 0 && d->off == 0;
	case W_POOL:
		if (d->off > pool_len || d->len > pool_len - d->off)
			return false;
		*out = span_make(pool + d->off, d->len);
		return true;
	default:
		return false;
	}
}

/*
 * The slots of a hash table over n values, used where they lie (borrowed:
 * htab_release() leaves them, an insert writes the private mapping's page,
 * a table that grows leaves them): copied, the 48 MB of the 5 GiB
 * profile's two tables were 0.04 s of each second open.
 */
static bool slots_in(const struct image *im, enum section s, uint64_t mask, uint64_t count,
		     uint64_t n, struct htab *t)
{
	const struct htab_slot *sl;
	uint64_t empty = 0, size = mask + 1;

	if (!im->h->sec[s].len) {
		t->slots = NULL;
		t->mask = t->count = 0;
		return mask == 0 && count == 0;
	}
	if (!mask || mask & size || mask > ((uint64_t)1 << 40))
		return false;
	sl = sec_at(im, s, size, sizeof(*sl));
	if (!sl)
		return false;
	for (uint64_t i = 0; i < size; i++) {
		if (!sl[i].val)
			empty++;
		else if (sl[i].val - 1 >= n)
			return false;
	}
	/* a probe would never end; a count that says less would let one insert fill the last */
	if (!empty || count != size - empty)
		return false;
	t->slots = (struct htab_slot *)sl;
	t->borrowed = true;
	t->mask = mask;
	t->count = count;
	return true;
}

/*
 * The functions' ranks by name (p->fn_rank), where the image has them: a
 * report or table then sorts with no name read (ranking the 1.07 million
 * names of the generated 5 GiB profile took 0.5 s of each second open). A
 * rank is an order, not a pointer, but each is still bounded by the count.
 */
static bool ranks_in(const struct image *im, struct profile *p)
{
	const uint32_t *r;

	if (!im->h->sec[S_RANKS].len)
		return true; /* (none kept: ranked as they are sorted) */
	r = sec_at(im, S_RANKS, im->h->nfuncs, sizeof(uint32_t));
	if (!r)
		return false;
	for (uint64_t f = 0; f < im->h->nfuncs; f++)
		if (r[f] >= im->h->nfuncs)
			return false;
	p->fn_rank = (uint32_t *)r;
	return true;
}

/*
 * The first table's order (p->self_order), where the image has one: as many
 * functions as are used, none twice. That they are the used ones, sorted,
 * is not checked (reading each function's flag and cost in that order, at
 * random, took 0.18 s of the 5 GiB profile's second open): an order, like
 * the inclusive costs, is only ever shown, and the checksum says it is the
 * one written.
 */
static bool order_in(const struct image *im, struct profile *p)
{
	uint64_t n = sec_count(im, S_ORDER, sizeof(uint32_t)), used = 0;
	const uint32_t *o;
	unsigned char *seen;
	bool ok;

	if (!im->h->sec[S_ORDER].len)
		return true;
	if (n > p->nfuncs)
		return false;
	o = sec_at(im, S_ORDER, n, sizeof(uint32_t));
	if (!o)
		return false;
	for (size_t f = 0; f < p->nfuncs; f++)
		used += p->funcs[f].used;
	seen = xcalloc(p->nfuncs ? p->nfuncs : 1, 1);
	ok = used == n;
	for (size_t i = 0; ok && i < n; i++) {
		ok = o[i] < p->nfuncs && !seen[o[i]];
		if (ok)
			seen[o[i]] = 1;
	}
	free(seen);
	if (ok) {
		p->self_order = (uint32_t *)o;
		p->nself_order = n;
	}
	return ok;
}

static bool check_funcs(const struct image *im, const struct function *fn, const struct block *bl)
{
	const struct head *h = im->h;

	for (uint64_t f = 0; f < h->nfuncs; f++) {
		const struct function *x = &fn[f];
		uint32_t nb = 0;

		if (!id_ok(im, x->name) || !id_ok(im, x->file) || !id_ok(im, x->object) ||
		    x->cycle > h->ncycles ||
		    (x->first_block != NCG_NONE && x->first_block >= h->nblocks) ||
		    (x->last_block != NCG_NONE && x->last_block >= h->nblocks) ||
		    !byte_bool(x, offsetof(struct function, recursive)) ||
		    !byte_bool(x, offsetof(struct function, used)))
			return false;
		/* each block is on its function's list only, in file order: no loop */
		for (uint32_t b = x->first_block; b != NCG_NONE; b = bl[b].next, nb++)
			if (bl[b].fn != f)
				return false;
		if (nb != x->nblocks)
			return false;
	}
	return true;
}

/* A block_ctx's whole end and line: within the profile, and what its block says where it can. */
static bool ctx_span_ok(const struct image *im, const struct block *b, const struct block_ctx *c)
{
	return c->end >= b->start && c->end <= im->prof_len &&
	       (b->len == BLOCK_LONG ? c->end - b->start >= BLOCK_LONG
				     : c->end == b->start + b->len) &&
	       (b->line == BLOCK_LONG ? c->line >= BLOCK_LONG : c->line == b->line);
}

static bool check_blocks(const struct image *im, const struct block *bl, const struct block_ctx *cx)
{
	const struct head *h = im->h;
	uint64_t with_ctx = 0;

	for (uint64_t b = 0; b < h->nblocks; b++) {
		const struct block *x = &bl[b];

		if (x->start > im->prof_len ||
		    (x->len != BLOCK_LONG && x->len > im->prof_len - x->start) ||
		    ((x->len == BLOCK_LONG || x->line == BLOCK_LONG) &&
		     !(x->part & BLOCK_HAS_CTX)) ||
		    x->fn >= h->nfuncs ||
		    (x->next != NCG_NONE && (x->next <= b || x->next >= h->nblocks)) ||
		    (x->callee != NCG_NONE && x->callee != CALLEE_UNKNOWN_ID &&
		     x->callee >= h->nfuncs) ||
		    block_part(x) >= h->nparts)
			return false;
		with_ctx += (x->part & BLOCK_HAS_CTX) != 0;
	}
	if (with_ctx != h->nctx)
		return false;
	for (uint64_t i = 0; i < h->nctx; i++) {
		const struct block_ctx *c = &cx[i];

		/* sorted, one a block, each on a block that says it has one */
		if (c->block >= h->nblocks || (i && c->block <= cx[i - 1].block) ||
		    !(bl[c->block].part & BLOCK_HAS_CTX) || !id_ok(im, c->object) ||
		    !id_ok(im, c->fn_file) || !id_ok(im, c->file) || !id_ok(im, c->cobject) ||
		    !id_ok(im, c->cfile) || !id_ok(im, c->jfile) || !id_ok(im, c->jfn) ||
		    !byte_bool(c, offsetof(struct block_ctx, pos_set)) ||
		    !ctx_span_ok(im, &bl[c->block], c))
			return false;
	}
	return true;
}

static bool check_edges(const struct image *im, const struct call_edge *e)
{
	for (uint64_t i = 0; i < im->h->nedges; i++)
		if (e[i].caller >= im->h->nfuncs || e[i].callee >= im->h->nfuncs)
			return false;
	return true;
}

/* Cost cells of n values and their big list, borrowed from the mapping. */
static bool cells_in(const struct image *im, enum section cs, enum section bs, uint64_t n,
		     struct cost_cells *c)
{
	uint64_t nbig = sec_count(im, bs, sizeof(struct cost_big));

	c->cell = (uint32_t *)sec_at(im, cs, n, sizeof(uint32_t));
	c->big = nbig == UINT64_MAX
		     ? NULL
		     : (struct cost_big *)sec_at(im, bs, nbig, sizeof(struct cost_big));
	c->nbig = c->big ? nbig : 0;
	return c->cell && c->big;
}

static bool terms_in(const struct image *im, uint64_t at, uint32_t n, uint32_t nev,
		     struct event_term **out)
{
	uint64_t total = sec_count(im, S_TERMS, sizeof(struct event_term));
	const struct event_term *t;

	*out = NULL;
	if (!n)
		return at == 0;
	if (total == UINT64_MAX || at > total || n > total - at)
		return false;
	t = (const struct event_term *)(im->base + im->h->sec[S_TERMS].off) + at;
	for (uint32_t i = 0; i < n; i++)
		if (t[i].ev >= nev)
			return false;
	*out = xmalloc_array(n, sizeof(**out));
	memcpy(*out, t, n * sizeof(**out));
	return true;
}

/* Events (or the event: lines) from their records; on failure what was made stays for release. */
static bool events_in(const struct image *im, enum section s, uint64_t n, struct event *ev,
		      uint32_t nev)
{
	const struct devent *d = sec_at(im, s, n, sizeof(*d));

	if (!d)
		return false;
	for (uint64_t i = 0; i < n; i++) {
		struct event *e = &ev[i];

		if (!span_in(im, &d[i].name, &e->name) ||
		    !span_in(im, &d[i].long_name, &e->long_name) ||
		    !span_in(im, &d[i].formula, &e->formula) || d[i].flags > 7 ||
		    !terms_in(im, d[i].terms_at, d[i].nterms, nev, &e->terms))
			return false;
		e->nterms = d[i].nterms;
		if (!terms_in(im, d[i].den_at, d[i].nden, nev, &e->den))
			return false;
		e->nden = d[i].nden;
		e->derived = d[i].flags & E_DERIVED;
		e->builtin = (d[i].flags & E_BUILTIN) != 0;
		e->ratio = (d[i].flags & E_RATIO) != 0;
		e->line = d[i].line;
	}
	return true;
}

/* n values at `at` of a u32 or u64 section, copied (at least one, zeroed). */
static void *values_in(const struct image *im, enum section s, size_t sz, uint64_t at, uint64_t n)
{
	uint64_t total = sec_count(im, s, sz);
	void *v;

	if (total == UINT64_MAX || at > total || n > total - at)
		return NULL;
	v = xcalloc(n ? n : 1, sz);
	memcpy(v, im->base + im->h->sec[s].off + at * sz, n * sz);
	return v;
}

/* An id table from its entries. */
static bool ids_in(const struct image *im, uint64_t at, uint64_t n, struct idtab *t)
{
	uint64_t total = sec_count(im, S_IDS, sizeof(struct did)), max = 0;
	const struct did *d;

	idtab_init(t);
	if (total == UINT64_MAX || at > total || n > total - at)
		return false;
	d = (const struct did *)(im->base + im->h->sec[S_IDS].off) + at;
	for (uint64_t i = 0; i < n; i++)
		max = d[i].id > max ? d[i].id : max;
	idtab_load(t, (size_t)n, max);
	for (uint64_t i = 0; i < n; i++) {
		if (!idval_ok(im, d[i].val))
			return false;
		idtab_set(t, d[i].id, d[i].val);
	}
	idtab_seal(t);
	return true;
}

static bool part_in(const struct image *im, const struct dpart *d, struct profile *p,
		    struct part *pt)
{
	uint32_t *evmap;
	uint64_t nch = sec_count(im, S_CHANGES, sizeof(struct id_change));

	pt->number = d->number;
	pt->thread = d->thread;
	pt->pid = d->pid;
	pt->first_line = d->first_line;
	pt->summary_line = d->summary_line;
	pt->totals_line = d->totals_line;
	if (!span_in(im, &d->cmd, &pt->cmd) || !span_in(im, &d->creator, &pt->creator) ||
	    !span_in(im, &d->trigger, &pt->trigger) ||
	    !span_in(im, &d->timerange, &pt->timerange) || d->npos > PROFILE_MAX_POS ||
	    d->nsum > p->nev || d->flags > 7)
		return false;
	pt->npos = (int)d->npos;
	for (uint32_t i = 0; i < d->npos; i++) {
		if (d->pos[i] > POS_LINE)
			return false;
		pt->pos[i] = (enum pos_kind)d->pos[i];
	}
	pt->nev = d->nev;
	if (!(pt->evmap = evmap = values_in(im, S_U32, sizeof(uint32_t), d->evmap_at, d->nev)))
		return false;
	for (uint32_t i = 0; i < d->nev; i++)
		if (evmap[i] != NCG_NONE && evmap[i] >= p->nev)
			return false;
	pt->nsum = d->nsum;
	if (!(pt->sum = values_in(im, S_U64, sizeof(uint64_t), d->sum_at, d->nsum)))
		return false;
	if (d->flags & P_SUMMARY) {
		pt->nsummary = d->nsummary;
		if (!(pt->summary =
			  values_in(im, S_U64, sizeof(uint64_t), d->summary_at, d->nsummary)))
			return false;
	}
	if (d->flags & P_TOTALS) {
		pt->ntotals = d->ntotals;
		if (!(pt->totals =
			  values_in(im, S_U64, sizeof(uint64_t), d->totals_at, d->ntotals)))
			return false;
	}
	pt->ids_shared = (d->flags & P_SHARED) != 0;
	for (int k = 0; k < 3; k++)
		if (d->nids[k] && !ids_in(im, d->ids_at[k], d->nids[k], profile_part_ids(pt, k)))
			return false;
	if (nch == UINT64_MAX || d->changes_at > nch || d->nchanges > nch - d->changes_at)
		return false;
	if (d->nchanges) {
		pt->changes =
		    values_in(im, S_CHANGES, sizeof(struct id_change), d->changes_at, d->nchanges);
		pt->nchanges = pt->changes_alloc = d->nchanges;
		for (size_t i = 0; i < pt->nchanges; i++)
			if (pt->changes[i].kind > 2 || !idval_ok(im, pt->changes[i].before))
				return false;
	}
	return true;
}

/*
 * The profile from the image im (checked: header and checksum), its
 * source's map already open. p takes the mapping on success.
 */
static bool build(struct profile *p, const struct image *im)
{
	const struct head *h = im->h;
	const struct function *fn;
	const struct block *bl;
	const struct block_ctx *cx;
	const struct call_edge *ed;
	const struct dspan *names;
	const struct dpart *parts;
	const uint32_t *scc;
	uint64_t nv;

	if (h->nfuncs >= NCG_NONE - 1 || h->nedges >= NCG_NONE - 1 || h->nblocks >= NCG_NONE - 1 ||
	    h->nnames >= NCG_NONE - 2 || h->nparts >= NCG_NONE || h->nraw > h->nev ||
	    h->ncycles > h->nfuncs)
		return false;
	fn = sec_at(im, S_FUNCS, h->nfuncs, sizeof(*fn));
	bl = sec_at(im, S_BLOCKS, h->nblocks, sizeof(*bl));
	cx = sec_at(im, S_CTX, h->nctx, sizeof(*cx));
	ed = sec_at(im, S_EDGES, h->nedges, sizeof(*ed));
	names = sec_at(im, S_NAMES, h->nnames, sizeof(*names));
	parts = sec_at(im, S_PARTS, h->nparts, sizeof(*parts));
	if (!fn || !bl || !cx || !ed || !names || !parts ||
	    !sec_at(im, S_POOL, h->sec[S_POOL].len, 1))
		return false;
	if (!check_blocks(im, bl, cx) || !check_funcs(im, fn, bl) || !check_edges(im, ed))
		return false;
	p->nfuncs = p->funcs_alloc = h->nfuncs;
	p->funcs = (struct function *)fn;
	p->nedges = p->edges_alloc = h->nedges;
	p->edges = (struct call_edge *)ed;
	p->nblocks = p->blocks_alloc = h->nblocks;
	p->blocks = (struct block *)bl;
	p->nblock_ctx = p->block_ctx_alloc = h->nctx;
	p->block_ctx = (struct block_ctx *)cx;
	if (h->ncell != h->nev && h->ncell != h->nraw)
		return false;
	p->nev = h->nev;
	p->nraw = h->nraw;
	p->ncell = p->stride = h->ncell;
	p->ncycles = h->ncycles;
	/* the call trees stop at recursion by the cycles: proven, not trusted */
	scc = sec_at(im, S_SCC, h->nfuncs, sizeof(uint32_t));
	if (!scc || !graph_cycles_certified(p, scc))
		return false;
	if (!mul_ok(h->nfuncs, h->ncell, &nv) ||
	    !cells_in(im, S_SELF, S_SELF_BIG, nv, &p->self_c) ||
	    !cells_in(im, S_INCL, S_INCL_BIG, nv, &p->incl_c) ||
	    !mul_ok(h->nedges, h->ncell, &nv) ||
	    !cells_in(im, S_EDGE, S_EDGE_BIG, nv, &p->edge_c) ||
	    !(p->totals = (uint64_t *)sec_at(im, S_TOTALS, h->nev, sizeof(uint64_t))) ||
	    !mul_ok(h->ncycles, h->nev, &nv) ||
	    !(p->cycle_incl = (uint64_t *)sec_at(im, S_CYCLE_INCL, nv, sizeof(uint64_t))))
		return false;
	p->compact = true;
	if (!ranks_in(im, p) || !order_in(im, p))
		return false;
	/* names */
	p->names.spans = xmalloc_array(h->nnames ? h->nnames : 1, sizeof(struct span));
	p->names.alloc = h->nnames ? h->nnames : 1;
	for (uint64_t i = 0; i < h->nnames; i++, p->names.nr++)
		if (!span_in(im, &names[i], &p->names.spans[i]))
			return false;
	htab_release(&p->names.index);
	if (!slots_in(im, S_NAME_SLOTS, h->name_mask, h->name_count, h->nnames, &p->names.index))
		return false;
	htab_release(&p->fn_index);
	if (!slots_in(im, S_FN_SLOTS, h->fn_mask, h->fn_count, h->nfuncs, &p->fn_index))
		return false;
	/* events: nev is set above, so that a failure frees what was made */
	if (!sec_at(im, S_EVENTS, h->nev, sizeof(struct devent)) ||
	    !sec_at(im, S_EVSPECS, h->nevspecs, sizeof(struct devent)))
		return false; /* (the counts bounded by the file before anything is made of them) */
	p->events = xcalloc(h->nev ? h->nev : 1, sizeof(struct event));
	p->ev_alloc = h->nev ? h->nev : 1;
	if (!events_in(im, S_EVENTS, h->nev, p->events, h->nev))
		return false;
	p->evspecs = xcalloc(h->nevspecs ? h->nevspecs : 1, sizeof(struct event));
	p->evspecs_alloc = h->nevspecs ? h->nevspecs : 1;
	p->nevspecs = h->nevspecs;
	if (!events_in(im, S_EVSPECS, h->nevspecs, p->evspecs, h->nev)) {
		for (size_t i = 0; i < p->nevspecs; i++) {
			free(p->evspecs[i].terms);
			free(p->evspecs[i].den);
		}
		return false;
	}
	/* inherited values worked out from the cells: only as the index that wrote them would */
	if (p->ncell < p->nev && !events_on_demand(p))
		return false;
	for (size_t i = 0; i < p->nevspecs; i++) { /* (profile_release frees no terms of these) */
		free(p->evspecs[i].terms);
		free(p->evspecs[i].den);
		p->evspecs[i].terms = p->evspecs[i].den = NULL;
		p->evspecs[i].nterms = p->evspecs[i].nden = 0;
	}
	for (uint32_t e = 0; e < p->nev; e++)
		profile_index_event(p, e);
	/* parts and their ids */
	p->parts = xcalloc(h->nparts ? h->nparts : 1, sizeof(struct part));
	p->parts_alloc = h->nparts ? h->nparts : 1;
	for (uint64_t i = 0; i < h->nparts; i++) {
		p->nparts++;
		if (!part_in(im, &parts[i], p, &p->parts[i]))
			return false;
	}
	for (int k = 0; k < 3; k++) {
		idtab_release(&p->src[0].shared_ids[k]);
		if (!ids_in(im, h->shared_at[k], h->nshared[k], &p->src[0].shared_ids[k]))
			return false;
	}
	p->lines = h->lines;
	p->src[0].lines = h->src_lines;
	p->declared_callgrind = h->flags & F_CALLGRIND;
	p->saturated = (h->flags & F_SATURATED) != 0;
	return true;
}

static bool head_ok(const struct image *im)
{
	const struct head *h = im->h;

	if (im->len < sizeof(*h) || memcmp(h->magic, MAGIC, 8) || h->version != CACHE_VERSION ||
	    h->layout != LAYOUT || h->file_len != im->len || h->flags > (F_CALLGRIND | F_SATURATED))
		return false;
	/* every section inside the file, aligned: each use below counts on it */
	for (int s = 0; s < S_COUNT; s++)
		if (h->sec[s].off % 8 || h->sec[s].off < sizeof(*h) || h->sec[s].off > im->len ||
		    h->sec[s].len > im->len - h->sec[s].off)
			return false;
	return true;
}

/* Undo a build that failed: what points into the image is forgotten, what was made freed. */
static void unbuild(struct profile *p)
{
	p->funcs = NULL;
	p->edges = NULL;
	p->blocks = NULL;
	p->block_ctx = NULL;
	p->totals = p->cycle_incl = NULL;
	p->fn_rank = p->self_order = NULL;
	p->nself_order = 0;
	memset(&p->self_c, 0, sizeof(p->self_c));
	memset(&p->incl_c, 0, sizeof(p->incl_c));
	memset(&p->edge_c, 0, sizeof(p->edge_c));
	p->nfuncs = p->nedges = p->nblocks = p->nblock_ctx = 0;
	p->funcs_alloc = p->edges_alloc = p->blocks_alloc = p->block_ctx_alloc = 0;
	p->compact = false;
	names_release(&p->names);
	names_init(&p->names);
	htab_release(&p->fn_index);
	htab_release(&p->ev_index);
	for (size_t i = 0; p->events && i < p->ev_alloc; i++) {
		free(p->events[i].terms);
		free(p->events[i].den);
	}
	free(p->events);
	free(p->evspecs);
	p->events = p->evspecs = NULL;
	p->ev_alloc = p->nevspecs = p->evspecs_alloc = 0;
	p->nev = p->nraw = p->stride = p->ncell = p->ncycles = 0;
	for (size_t i = 0; i < p->nparts; i++)
		profile_part_release(&p->parts[i]);
	free(p->parts);
	p->parts = NULL;
	p->nparts = p->parts_alloc = 0;
	for (int k = 0; k < 3; k++) {
		idtab_release(&p->src[0].shared_ids[k]);
		idtab_init(&p->src[0].shared_ids[k]);
	}
	p->cache_base = NULL; /* the caller unmaps it */
	p->cache_len = 0;
}

struct summing {
	const char *base;
	size_t len;
	uint64_t sum;
};

static void summing_main(void *arg)
{
	struct summing *s = arg;

	s->sum = image_sum(s->base, s->len);
}

/*
 * Load the image mapped at base into p (its map open): true when p took it.
 * The checksum is worked out on a second thread while the image is built:
 * build() checks every offset, count and id itself (the fuzzer gives it
 * images with no checksum), so it reads nothing out of bounds before the
 * sum is known, and a wrong sum undoes it. Summed first, the 590 MB of the
 * generated 5 GiB profile's kept index were 0.08 s of each second open.
 */
static bool load_image(struct profile *p, void *base, size_t len, const struct key *k,
		       bool check_sum)
{
	struct image im = {.base = base, .len = len, .h = base};
	struct summing sum = {.base = base, .len = len};
	struct side_work side;
	bool ok;

	if (len < sizeof(struct head) || !head_ok(&im))
		return false;
	if (k && memcmp(&im.h->key, k, sizeof(*k)))
		return false;
	if (check_sum)
		side_work_start(&side, summing_main, &sum, true);
	im.prof = p->src[0].map.data;
	im.prof_len = p->src[0].map.size;
	im.nnames = im.h->nnames;
	p->cache_base = base; /* (for profile_free while a failed build is undone) */
	p->cache_len = len;
	ok = build(p, &im);
	if (check_sum) {
		side_work_join(&side);
		ok = ok && sum.sum == im.h->checksum;
	}
	if (!ok)
		unbuild(p);
	return ok;
}

bool cache_load(struct profile *p)
{
	char path[PATH_MAX + 64], err[300];
	struct stat st, cst;
	struct key k;
	int fd, cfd;
	void *base;
	size_t len;
	bool ok;

	p->stats.cache = CACHE_UNTRIED;
	if (!cache_enabled() || p->nsrc != 1 || !strcmp(p->src[0].path, "-"))
		return false;
	/* (not blocking: a FIFO without a writer is no profile of ours, and must not hang) */
	if (stat(p->src[0].path, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	fd = open(p->src[0].path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size >= threshold() &&
	     st.st_size > 0 && key_of_fd(fd, &st, p, &k);
	close(fd);
	if (!ok || !cache_path(&k, path, sizeof(path), false))
		return false;
	p->stats.cache = CACHE_MISS;
	cfd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (cfd < 0)
		return false;
	p->stats.cache = CACHE_BAD;
	if (fstat(cfd, &cst) < 0 || !S_ISREG(cst.st_mode) || cst.st_uid != geteuid() ||
	    cst.st_size < (off_t)sizeof(struct head)) {
		close(cfd);
		return false;
	}
	len = (size_t)cst.st_size;
	base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, cfd, 0);
	close(cfd);
	if (base == MAP_FAILED)
		return false;
	if (map_open_progress(&p->src[0].map, p->src[0].path, NULL, err, sizeof(err)) < 0) {
		munmap(base, len);
		p->src[0].map = (struct map){.guard = -1};
		return false;
	}
	{
		const struct map *m = &p->src[0].map;

		ok = m->mapped && m->regular && m->compression == COMP_NONE && m->dev == k.dev &&
		     m->ino == k.ino && (uint64_t)m->st_size == k.size &&
		     (uint64_t)m->mtime_s == k.mtime_s && (uint64_t)m->mtime_ns == k.mtime_ns;
	}
	if (!ok || !load_image(p, base, len, &k, true)) {
		munmap(base, len);
		map_release(&p->src[0].map);
		return false;
	}
	p->stats.cache = CACHE_HIT;
	p->stats.one_pass = true;
	return true;
}

bool cache_load_image(struct profile *p, const void *data, size_t len, const char *prof_data,
		      size_t prof_len)
{
	void *base;
	char *copy;

	if (len < sizeof(struct head) || !prof_len || prof_data[prof_len - 1] != '\n')
		return false;
	base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		return false;
	memcpy(base, data, len);
	copy = xmalloc(prof_len);
	memcpy(copy, prof_data, prof_len);
	p->src[0].map =
	    (struct map){.data = copy, .size = prof_len, .file_size = prof_len, .guard = -1};
	if (!load_image(p, base, len, NULL, false)) {
		munmap(base, len);
		map_release(&p->src[0].map);
		return false;
	}
	return true;
}

/* ---- writing ------------------------------------------------------------ */

struct buf {
	char *p;
	size_t n, alloc;
};

static uint64_t buf_add(struct buf *b, const void *data, size_t n)
{
	uint64_t at = b->n;

	ALLOC_GROW(b->p, b->n + n + 1, b->alloc);
	if (n)
		memcpy(b->p + b->n, data, n);
	b->n += n;
	return at;
}

struct writer {
	const struct profile *p;
	struct head h;
	int fd;            /* where the image goes, or -1: into mem */
	struct buf mem;    /* the image, header first */
	uint64_t at;       /* bytes of the image so far */
	struct hasher sum; /* of everything after the header */
	bool failed;       /* a write failed */
	struct buf pool, names, events, evspecs, terms, parts, u32, u64, ids, changes;
};

static void put(struct writer *w, const void *data, size_t n)
{
	const char *p = data;

	if (!n)
		return;
	hasher_add(&w->sum, data, n);
	w->at += n;
	if (w->fd < 0) {
		buf_add(&w->mem, data, n);
		return;
	}
	while (n && !w->failed) {
		ssize_t k = write(w->fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		w->failed = k <= 0;
		p += k > 0 ? k : 0;
		n -= k > 0 ? (size_t)k : 0;
	}
}

static void sec_put(struct writer *w, enum section s, const void *data, size_t n)
{
	static const char zeros[8];

	w->h.sec[s].off = w->at;
	w->h.sec[s].len = n;
	put(w, data, n);
	if (w->at % 8)
		put(w, zeros, 8 - w->at % 8);
}

/*
 * A name's bytes go in the pool, not as an offset into the profile: the
 * browser copies every name it shows out of the profile's mapping, so that
 * a file cut or written again under it does not change them; from the pool
 * (our own file, replaced only by a rename) no copy is needed. Copied out of
 * the profile, the 1.07 million names of the generated 5 GiB profile took
 * 0.45 s of each second open, a page fault each.
 */
static struct dspan span_out(struct writer *w, struct span s)
{
	if (!s.ptr)
		return (struct dspan){0, 0, W_NULL};
	return (struct dspan){buf_add(&w->pool, s.ptr, s.len), (uint32_t)s.len, W_POOL};
}

static void events_out(struct writer *w, struct buf *to, const struct event *ev, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct event *e = &ev[i];
		struct devent d = {
		    .name = span_out(w, e->name),
		    .long_name = span_out(w, e->long_name),
		    .formula = span_out(w, e->formula),
		    .flags = (e->derived ? E_DERIVED : 0) | (e->builtin ? E_BUILTIN : 0) |
			     (e->ratio ? E_RATIO : 0),
		    .nterms = e->terms ? e->nterms : 0,
		    .nden = e->den ? e->nden : 0,
		    .line = e->line,
		};

		d.terms_at = d.nterms ? buf_add(&w->terms, e->terms, d.nterms * sizeof(*e->terms)) /
					    sizeof(*e->terms)
				      : 0;
		d.den_at =
		    d.nden ? buf_add(&w->terms, e->den, d.nden * sizeof(*e->den)) / sizeof(*e->den)
			   : 0;
		buf_add(to, &d, sizeof(d));
	}
}

/* An id table's entries into ids; where they start. */
static uint64_t ids_out(struct writer *w, const struct idtab *t, uint64_t *n)
{
	uint64_t at = w->ids.n / sizeof(struct did), id;
	uint32_t v;

	*n = 0;
	for (size_t i = 0; idtab_each(t, i, &id, &v); i++, (*n)++) {
		struct did d = {id, v, 0};

		buf_add(&w->ids, &d, sizeof(d));
	}
	return at;
}

static void parts_out(struct writer *w)
{
	const struct profile *p = w->p;

	for (size_t i = 0; i < p->nparts; i++) {
		const struct part *pt = &p->parts[i];
		struct dpart d = {
		    .first_line = pt->first_line,
		    .number = pt->number,
		    .thread = pt->thread,
		    .pid = pt->pid,
		    .cmd = span_out(w, pt->cmd),
		    .creator = span_out(w, pt->creator),
		    .trigger = span_out(w, pt->trigger),
		    .timerange = span_out(w, pt->timerange),
		    .npos = (uint32_t)pt->npos,
		    .nev = pt->nev,
		    .nsum = pt->sum ? pt->nsum : 0,
		    .flags = (pt->summary ? P_SUMMARY : 0) | (pt->totals ? P_TOTALS : 0) |
			     (pt->ids_shared ? P_SHARED : 0),
		    .summary_line = pt->summary_line,
		    .totals_line = pt->totals_line,
		};

		for (int k = 0; k < pt->npos && k < PROFILE_MAX_POS; k++)
			d.pos[k] = pt->pos[k];
		d.evmap_at = buf_add(&w->u32, pt->evmap, pt->nev * sizeof(uint32_t)) / 4;
		d.sum_at = buf_add(&w->u64, pt->sum, d.nsum * sizeof(uint64_t)) / 8;
		if (pt->summary) {
			d.nsummary = pt->nsummary;
			d.summary_at =
			    buf_add(&w->u64, pt->summary, pt->nsummary * sizeof(uint64_t)) / 8;
		}
		if (pt->totals) {
			d.ntotals = pt->ntotals;
			d.totals_at =
			    buf_add(&w->u64, pt->totals, pt->ntotals * sizeof(uint64_t)) / 8;
		}
		for (int k = 0; k < 3; k++) {
			static const struct idtab none;

			d.ids_at[k] = ids_out(w, pt->ids ? &pt->ids[k] : &none, &d.nids[k]);
		}
		d.nchanges = pt->nchanges;
		d.changes_at =
		    buf_add(&w->changes, pt->changes, pt->nchanges * sizeof(struct id_change)) /
		    sizeof(struct id_change);
		buf_add(&w->parts, &d, sizeof(d));
	}
}

static void slots_out(struct writer *w, enum section s, const struct htab *t, uint64_t *mask,
		      uint64_t *count)
{
	*mask = t->slots ? t->mask : 0;
	*count = t->slots ? t->count : 0;
	sec_put(w, s, t->slots, t->slots ? (t->mask + 1) * sizeof(struct htab_slot) : 0);
}

static void cells_out(struct writer *w, enum section cs, const struct cost_cells *c, size_t n)
{
	sec_put(w, cs, c->cell, n * sizeof(uint32_t));
	sec_put(w, cs + 1, c->big, c->nbig * sizeof(struct cost_big));
}

/* The first table's order, sorted here: the next open shows it without a sort. */
static void order_out(struct writer *w)
{
	const struct profile *p = w->p;
	uint32_t *o;
	size_t n;

	if (!p->fn_rank || !p->nev || !p->ncell) {
		sec_put(w, S_ORDER, NULL, 0);
		return;
	}
	o = report_sort_functions(p, SORT_SELF, 0, NULL, &n);
	sec_put(w, S_ORDER, o, n * sizeof(uint32_t));
	free(o);
}

/* Whether p is a profile worth keeping, as read (see cache_save). */
static bool keepable(const struct profile *p, const struct diag *d)
{
	const struct map *m = p->nsrc == 1 ? &p->src[0].map : NULL;

	return cache_enabled() && m && !p->cache_base && p->ndropped == 0 && m->mapped &&
	       m->regular && m->compression == COMP_NONE && m->file_size >= threshold() &&
	       m->file_size > 0 && (!d || d->nr == 0) && p->compact && p->stride == p->ncell &&
	       !p->part_sel && !p->all && !p->incl && !p->self && !profile_changed(p);
}

/*
 * Write p's image to fd (or into *mem when fd is -1): the header's room,
 * the sections as they are made, then the header. False when p has none,
 * or a write failed; *len is its size.
 */
static bool image_write(const struct profile *p, int fd, struct buf *mem, size_t *len)
{
	struct writer w = {.p = p, .fd = fd};
	static const struct head zero;
	size_t nv = (size_t)p->nfuncs * p->ncell;
	struct buf *bufs[] = {&w.pool,  &w.names, &w.events, &w.evspecs, &w.terms,
			      &w.parts, &w.u32,   &w.u64,    &w.ids,     &w.changes};

	if (p->nsrc != 1 || !p->compact || p->stride != p->ncell || (p->nfuncs && !p->fn_scc))
		return false;
	hasher_init(&w.sum, 0);
	if (fd < 0)
		buf_add(&w.mem, &zero, sizeof(zero));
	else if (lseek(fd, sizeof(zero), SEEK_SET) < 0)
		return false;
	w.at = sizeof(zero);
	memcpy(w.h.magic, MAGIC, 8);
	w.h.version = CACHE_VERSION;
	w.h.layout = LAYOUT;
	key_of_map(&p->src[0].map, p, &w.h.key);
	w.h.lines = p->lines;
	w.h.src_lines = p->src[0].lines;
	w.h.nev = p->nev;
	w.h.nraw = p->nraw;
	w.h.ncell = p->ncell;
	w.h.ncycles = p->ncycles;
	w.h.flags = (p->declared_callgrind ? F_CALLGRIND : 0) | (p->saturated ? F_SATURATED : 0);
	w.h.nfuncs = p->nfuncs;
	w.h.nedges = p->nedges;
	w.h.nblocks = p->nblocks;
	w.h.nctx = p->nblock_ctx;
	w.h.nnames = p->names.nr;
	w.h.nevspecs = p->nevspecs;
	w.h.nparts = p->nparts;
	/* (the header is hashed last: the sum of the rest is its seed) */
	sec_put(&w, S_FUNCS, p->funcs, p->nfuncs * sizeof(*p->funcs));
	sec_put(&w, S_EDGES, p->edges, p->nedges * sizeof(*p->edges));
	sec_put(&w, S_BLOCKS, p->blocks, p->nblocks * sizeof(*p->blocks));
	sec_put(&w, S_CTX, p->block_ctx, p->nblock_ctx * sizeof(*p->block_ctx));
	cells_out(&w, S_SELF, &p->self_c, nv);
	cells_out(&w, S_INCL, &p->incl_c, nv);
	cells_out(&w, S_EDGE, &p->edge_c, (size_t)p->nedges * p->ncell);
	sec_put(&w, S_TOTALS, p->totals, p->nev * sizeof(uint64_t));
	sec_put(&w, S_CYCLE_INCL, p->cycle_incl, (size_t)p->ncycles * p->nev * sizeof(uint64_t));
	sec_put(&w, S_RANKS, p->fn_rank, p->fn_rank ? p->nfuncs * sizeof(uint32_t) : 0);
	sec_put(&w, S_SCC, p->fn_scc, p->nfuncs * sizeof(uint32_t));
	order_out(&w);
	for (size_t i = 0; i < p->names.nr; i++) {
		struct dspan d = span_out(&w, p->names.spans[i]);

		buf_add(&w.names, &d, sizeof(d));
	}
	sec_put(&w, S_NAMES, w.names.p, w.names.n);
	slots_out(&w, S_NAME_SLOTS, &p->names.index, &w.h.name_mask, &w.h.name_count);
	slots_out(&w, S_FN_SLOTS, &p->fn_index, &w.h.fn_mask, &w.h.fn_count);
	events_out(&w, &w.events, p->events, p->nev);
	events_out(&w, &w.evspecs, p->evspecs, p->nevspecs);
	parts_out(&w);
	for (int k = 0; k < 3; k++)
		w.h.shared_at[k] = ids_out(&w, &p->src[0].shared_ids[k], &w.h.nshared[k]);
	sec_put(&w, S_EVENTS, w.events.p, w.events.n);
	sec_put(&w, S_EVSPECS, w.evspecs.p, w.evspecs.n);
	sec_put(&w, S_TERMS, w.terms.p, w.terms.n);
	sec_put(&w, S_PARTS, w.parts.p, w.parts.n);
	sec_put(&w, S_U32, w.u32.p, w.u32.n);
	sec_put(&w, S_U64, w.u64.p, w.u64.n);
	sec_put(&w, S_IDS, w.ids.p, w.ids.n);
	sec_put(&w, S_CHANGES, w.changes.p, w.changes.n);
	sec_put(&w, S_POOL, w.pool.p, w.pool.n); /* last: the spans above add to it */
	for (size_t i = 0; i < sizeof(bufs) / sizeof(bufs[0]); i++)
		free(bufs[i]->p);
	*len = w.at;
	w.h.file_len = w.at;
	w.h.checksum = head_sum(&w.h, hasher_end(&w.sum));
	if (fd < 0) {
		memcpy(w.mem.p, &w.h, sizeof(w.h));
		*mem = w.mem;
		return true;
	}
	return !w.failed && pwrite(fd, &w.h, sizeof(w.h), 0) == (ssize_t)sizeof(w.h);
}

void *cache_image(const struct profile *p, size_t *len)
{
	struct buf mem = {0};

	return image_write(p, -1, &mem, len) ? mem.p : NULL;
}

struct entry {
	char *name;
	uint64_t size;
	struct timespec mtime;
};

static bool older(const struct entry *x, const struct entry *y)
{
	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec < y->mtime.tv_sec;
	if (x->mtime.tv_nsec != y->mtime.tv_nsec)
		return x->mtime.tv_nsec < y->mtime.tv_nsec;
	return strcmp(x->name, y->name) < 0;
}

/* Drop the oldest cache files until they take at most the limit with `room` more. */
static void make_room(const char *dir, uint64_t room)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct entry *v = NULL;
	size_t n = 0, alloc = 0;
	uint64_t total = room;
	int dfd;

	if (!d)
		return;
	dfd = dirfd(d);
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		struct stat st;

		/* a write that never finished (killed): gone after a day */
		if (!strncmp(de->d_name, ".tmp-", 5) &&
		    fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    st.st_mtime < time(NULL) - 86400) {
			unlinkat(dfd, de->d_name, 0);
			continue;
		}

		if (len <= strlen(SUFFIX) || strcmp(de->d_name + len - strlen(SUFFIX), SUFFIX) ||
		    fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
			continue;
		ALLOC_GROW(v, n + 1, alloc);
		v[n++] = (struct entry){xstrdup(de->d_name), (uint64_t)st.st_size, st.st_mtim};
		total += (uint64_t)st.st_size;
	}
	/* the oldest first; a few files, each a whole index: no sort needed */
	while (total > size_limit) {
		size_t o = n;

		for (size_t i = 0; i < n; i++)
			if (v[i].name && (o == n || older(&v[i], &v[o])))
				o = i;
		if (o == n)
			break;
		if (unlinkat(dfd, v[o].name, 0) == 0)
			total -= v[o].size;
		free(v[o].name);
		v[o].name = NULL;
	}
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	closedir(d);
}

void cache_save(const struct profile *p, const struct diag *d)
{
	char path[PATH_MAX + 64], dir[PATH_MAX], tmp[PATH_MAX + 80];
	struct stat st;
	struct key k;
	size_t len = 0;
	int fd;
	bool ok;

	if (!keepable(p, d) || profile_outdated(p))
		return;
	key_of_map(&p->src[0].map, p, &k);
	if (!cache_path(&k, path, sizeof(path), true) || !cache_dir(dir, sizeof(dir), false))
		return;
	/* kept already, and found good: the same key is the same index */
	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
	    p->stats.cache != CACHE_BAD)
		return;
	snprintf(tmp, sizeof(tmp), "%s/.tmp-XXXXXX", dir);
	fd = mkstemp(tmp); /* (0600) */
	if (fd < 0)
		return;
	ok = image_write(p, fd, NULL, &len);
	ok = close(fd) == 0 && ok && len <= size_limit;
	if (ok)
		make_room(dir, len);
	if (!ok || rename(tmp, path) < 0)
		unlink(tmp);
}
