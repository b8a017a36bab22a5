/*
 * decompress: the three decoders behind one loop each, writing into one
 * growing buffer. What a damaged or cut stream gave before the damage is
 * kept, with a warning: a profile cut short still shows what it has.
 */
#include "ncgrind/core/decompress.h"
#include "ncgrind/core/sniff.h"
#include "ncgrind/core/util.h"

#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#define PROGRESS_STEP ((uint64_t)4 << 20)
#define OUT_STEP ((size_t)32 << 20)
/* zlib counts in 32 bits: input and output go to it in pieces of this much */
#define ZLIB_PIECE ((size_t)1 << 30)

enum compression decompress_detect(const void *p, size_t n)
{
	const unsigned char *b = p;

	if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b)
		return COMP_GZIP;
	if (n >= 6 && !memcmp(b,
			      "\xfd"
			      "7zXZ\0",
			      6))
		return COMP_XZ;
	if (n >= 4 && !memcmp(b, "\x28\xb5\x2f\xfd", 4))
		return COMP_ZSTD;
	return COMP_NONE;
}

const char *decompress_name(enum compression c)
{
	static const char *const name[] = {"", "gzip", "xz", "zstd"};

	return name[c];
}

/* The output buffer and the bookkeeping every decoder shares. */
struct out {
	struct decompressed *d;
	size_t alloc, max;
	uint64_t total, next_report;
	size_t next_out; /* progress is told again at this much output */
	decompress_progress_fn progress;
	void *ctx;
	bool over;          /* more than max */
	bool stopped;       /* progress said stop (q) */
	enum sniff sniffed; /* what the output so far says (sniff.h): NOT, NO_LINE stop */
};

/*
 * Room for at least want more bytes (and the final '\n'); false past max,
 * or once the output shows it is no profile (the decoder stops there).
 * The decoder may write one byte more than max: only a byte out past max
 * says the stream is too big. A buffer of max bytes, full, said nothing of
 * what came next, and a decoder that found damage after filling it (liblzma
 * holds decoded bytes back) had its output taken as all there was before
 * the damage.
 */
static bool out_room(struct out *o, size_t want)
{
	size_t need = o->d->size + want + 1, alloc = o->alloc;

	if (o->stopped)
		return false;
	if (o->sniffed == SNIFF_MORE)
		o->sniffed = sniff_profile(o->d->data, o->d->size);
	if (o->sniffed == SNIFF_NOT || o->sniffed == SNIFF_NO_LINE)
		return false;
	if (o->d->size > o->max) {
		o->over = true;
		return false;
	}
	if (need <= o->alloc)
		return true;
	while (alloc < need) /* (from 1 MiB: a buffer cut to a tiny max must grow too) */
		alloc = alloc < ((size_t)1 << 20) ? ((size_t)1 << 20) : alloc / 2 * 3;
	if (alloc > o->max + 2)
		alloc = o->max + 2; /* max + 1 bytes and the '\n': over it, it is too big */
	o->d->data = xrealloc(o->d->data, alloc);
	o->alloc = alloc;
	return true;
}

/* Bytes free for the decoder (one kept for the '\n'). */
static size_t out_free(const struct out *o)
{
	return o->alloc - o->d->size - 1;
}

static void out_progress(struct out *o, uint64_t done)
{
	/* every few MB in, or out: a bomb's few KB in are hundreds of MB out */
	if (!o->progress || (done < o->next_report && o->d->size < o->next_out))
		return;
	if (o->progress(o->ctx, done, o->total))
		o->stopped = true; /* (out_room() says no more room: the decoder ends) */
	o->next_report = done + PROGRESS_STEP;
	o->next_out = o->d->size + OUT_STEP;
}

/*
 * A stream that went wrong after some output: keep it, say where. Before
 * any output: an error.
 */
static int out_damaged(struct out *o, const char *what, uint64_t at, char *err, size_t errsize)
{
	if (!o->d->size) {
		snprintf(err, errsize, "%s at byte %llu of the compressed file", what,
			 (unsigned long long)at);
		return -1;
	}
	snprintf(o->d->warn, sizeof(o->d->warn),
		 "%.100s at byte %llu of the compressed file; the %zu byte%s before it %s read",
		 what, (unsigned long long)at, o->d->size, o->d->size == 1 ? "" : "s",
		 o->d->size == 1 ? "is" : "are");
	return 0;
}

/*
 * The decoder stopped before its end: past max (an error), or on output
 * that is no profile (what came out is kept, for the parser to refuse).
 */
static int out_stopped(struct out *o, char *err, size_t errsize)
{
	if (o->stopped) {
		snprintf(err, errsize, "stopped after %zu MB decompressed", o->d->size / 1000000);
		return DECOMPRESS_STOPPED;
	}
	if (o->sniffed == SNIFF_NO_LINE)
		snprintf(o->d->warn, sizeof(o->d->warn),
			 "no profile line in the first %zu MiB: decompressed no further",
			 SNIFF_MAX >> 20);
	if (!o->over)
		return 0;
	snprintf(err, errsize,
		 "decompresses to more than %zu MiB (half the memory); decompress it to a file "
		 "and open that",
		 o->max >> 20);
	return -1;
}

/* Zero bytes after the last member are padding (tape blocks), as gzip -d says. */
static bool all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/*
 * Where the data that can be trusted ends: the output and input at the end
 * of the last deflate block decoded whole, and at the end of the last member
 * whose check (CRC and length) passed.
 */
struct gz_good {
	size_t block_out, block_in;
	size_t member_out, member_in;
};

/* zlib's word for a member whose data decoded but fails its check. */
static bool gz_check_failed(const z_stream *z)
{
	return z->msg && (!strcmp(z->msg, "incorrect data check") ||
			  !strcmp(z->msg, "incorrect length check"));
}

/*
 * Damaged data: what a bad block decoded into is garbage (it reads as
 * nonsense lines), so the output goes back to the end of the last block
 * decoded whole; when a member's check fails, no block of it can be
 * trusted, and the output goes back to the end of the member before.
 */
static int gz_damaged(struct out *o, bool check, const struct gz_good *g, char *err, size_t errsize)
{
	size_t keep = check ? g->member_out : g->block_out;
	uint64_t at = check ? g->member_in : g->block_in;

	if (keep < o->d->size)
		o->d->size = keep;
	return out_damaged(o,
			   check ? "gzip data that fails its check (CRC) in the member that starts"
				 : "damaged gzip data in the deflate block that starts",
			   at, err, errsize);
}

static int gunzip(const unsigned char *src, size_t n, struct out *o, char *err, size_t errsize)
{
	z_stream z;
	struct gz_good good = {0, 0, 0, 0};
	size_t done = 0;
	int r = Z_OK;
	bool check;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 15 + 16) != Z_OK) {
		snprintf(err, errsize, "zlib: cannot start");
		return -1;
	}
	for (;;) {
		size_t in_piece = n - done < ZLIB_PIECE ? n - done : ZLIB_PIECE, out_piece;

		if (!out_room(o, (size_t)1 << 20))
			break;
		out_piece = out_free(o) < ZLIB_PIECE ? out_free(o) : ZLIB_PIECE;
		z.next_in = (unsigned char *)(uintptr_t)(src + done);
		z.avail_in = (unsigned)in_piece;
		z.next_out = (unsigned char *)o->d->data + o->d->size;
		z.avail_out = (unsigned)out_piece;
		r = inflate(&z, Z_BLOCK); /* returns at each block's end: see gz_good */
		done += in_piece - z.avail_in;
		o->d->size += out_piece - z.avail_out;
		out_progress(o, done);
		if (r == Z_OK && (z.data_type & 128)) /* a block (or the header) ended */
			good.block_out = o->d->size, good.block_in = done;
		if (r == Z_STREAM_END) {
			good = (struct gz_good){o->d->size, done, o->d->size, done};
			if (done == n || all_zero(src + done, n - done))
				break;
			if (decompress_detect(src + done, n - done) != COMP_GZIP) {
				r = Z_DATA_ERROR;
				break;
			}
			inflateReset(&z); /* the next member (cat a.gz b.gz) */
			continue;
		}
		if (r == Z_BUF_ERROR && done == n) /* wants more input: there is none */
			break;
		if (r != Z_OK && r != Z_BUF_ERROR)
			break;
	}
	check = gz_check_failed(&z); /* (before z is released) */
	inflateEnd(&z);
	if (o->d->size > o->max)
		o->over = true; /* (a byte past max: too big, whatever came after) */
	if (o->over || o->stopped || o->sniffed == SNIFF_NOT || o->sniffed == SNIFF_NO_LINE)
		return out_stopped(o, err, errsize);
	if (r == Z_STREAM_END)
		return 0;
	if (r == Z_BUF_ERROR)
		return out_damaged(o, "the gzip data ends early (a cut file?)", done, err, errsize);
	return gz_damaged(o, check, &good, err, errsize);
}

static int unxz(const unsigned char *src, size_t n, struct out *o, char *err, size_t errsize)
{
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_ret r = LZMA_OK;

	if (lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
		snprintf(err, errsize, "liblzma: cannot start");
		return -1;
	}
	s.next_in = src;
	s.avail_in = n;
	while (r == LZMA_OK) {
		if (!out_room(o, (size_t)1 << 20))
			break;
		s.next_out = (uint8_t *)o->d->data + o->d->size;
		s.avail_out = out_free(o);
		r = lzma_code(&s, LZMA_FINISH);
		o->d->size = (size_t)((char *)s.next_out - o->d->data);
		out_progress(o, n - s.avail_in);
	}
	lzma_end(&s);
	if (o->d->size > o->max)
		o->over = true; /* (a byte past max: too big, whatever came after) */
	if (o->over || o->stopped || o->sniffed == SNIFF_NOT || o->sniffed == SNIFF_NO_LINE)
		return out_stopped(o, err, errsize);
	if (r == LZMA_STREAM_END)
		return 0;
	if (r == LZMA_BUF_ERROR)
		return out_damaged(o, "the xz data ends early (a cut file?)", n - s.avail_in, err,
				   errsize);
	return out_damaged(o, "damaged xz data", n - s.avail_in, err, errsize);
}

static int unzstd(const unsigned char *src, size_t n, struct out *o, char *err, size_t errsize)
{
	ZSTD_DCtx *dc = ZSTD_createDCtx();
	ZSTD_inBuffer in = {src, n, 0};
	size_t r = 0;

	if (!dc) {
		snprintf(err, errsize, "libzstd: cannot start");
		return -1;
	}
	for (;;) {
		ZSTD_outBuffer ob;

		if (!out_room(o, (size_t)1 << 20))
			break;
		ob = (ZSTD_outBuffer){o->d->data + o->d->size, out_free(o), 0};
		r = ZSTD_decompressStream(dc, &ob, &in);
		o->d->size += ob.pos;
		out_progress(o, in.pos);
		if (ZSTD_isError(r))
			break;
		if (in.pos == in.size && ob.pos < ob.size)
			break; /* all read, nothing held back */
	}
	ZSTD_freeDCtx(dc);
	if (o->d->size > o->max)
		o->over = true; /* (a byte past max: too big, whatever came after) */
	if (o->over || o->stopped || o->sniffed == SNIFF_NOT || o->sniffed == SNIFF_NO_LINE)
		return out_stopped(o, err, errsize);
	if (ZSTD_isError(r)) {
		char what[120];

		snprintf(what, sizeof(what), "damaged zstd data (%s)", ZSTD_getErrorName(r));
		return out_damaged(o, what, in.pos, err, errsize);
	}
	if (r != 0 && !o->d->size) /* zstd gives no part of a block: nothing at all here */
		return out_damaged(o,
				   "the zstd data ends early (a cut file?) inside its first block, "
				   "which zstd reads whole or not at all (up to 128 KB); cut",
				   in.pos, err, errsize);
	if (r != 0) /* a frame not finished */
		return out_damaged(o, "the zstd data ends early (a cut file?)", in.pos, err,
				   errsize);
	return 0;
}

int decompress(enum compression c, const void *src, size_t n, size_t max,
	       decompress_progress_fn progress, void *ctx, struct decompressed *out, char *err,
	       size_t errsize)
{
	struct out o = {.d = out, .max = max, .total = n, .progress = progress, .ctx = ctx};
	int r = -1;

	memset(out, 0, sizeof(*out));
	switch (c) {
	case COMP_GZIP:
		r = gunzip(src, n, &o, err, errsize);
		break;
	case COMP_XZ:
		r = unxz(src, n, &o, err, errsize);
		break;
	case COMP_ZSTD:
		r = unzstd(src, n, &o, err, errsize);
		break;
	case COMP_NONE:
		snprintf(err, errsize, "not compressed");
		break;
	}
	if (r < 0) {
		free(out->data);
		memset(out, 0, sizeof(*out));
		return r == DECOMPRESS_STOPPED ? r : -1;
	}
	if (!out->data) /* an empty stream */
		out->data = xmalloc(1);
	else if (o.alloc > out->size + 1 + ((size_t)1 << 20))
		out->data = xrealloc(out->data, out->size + 1); /* give back the slack */
	return 0;
}
