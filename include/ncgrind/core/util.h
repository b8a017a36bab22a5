/*
 * util: allocation with overflow-checked sizes, one growth macro for every
 * dynamic array, byte spans into the mapped profile, saturating 64-bit sums
 * and conversions, a fast hash for spans, a radix sort of 64-bit keys and a
 * sort whose comparison takes a context.
 *
 * Allocation failure is not recoverable for an index builder: x*alloc() print
 * a message and exit before any terminal state exists (the UI installs its
 * own restore hook through util_set_die_hook()).
 */
#ifndef NCGRIND_UTIL_H
#define NCGRIND_UTIL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#define NCG_NONE UINT32_MAX /* "no index" for uint32_t references */

/* A run of bytes inside the profile: never NUL-terminated, never copied. */
struct span {
	const char *ptr;
	size_t len;
};

static inline struct span span_make(const char *p, size_t n)
{
	struct span s = {p, n};
	return s;
}

static inline bool span_eq(struct span a, struct span b)
{
	return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

static inline bool span_eq_str(struct span a, const char *s)
{
	size_t n = strlen(s);
	return a.len == n && memcmp(a.ptr, s, n) == 0;
}

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xcalloc_written(size_t nmemb, size_t size);
/*
 * For a thread of our own, at its start: the signals are the main thread's
 * (the terminal, SIGWINCH, Ctrl-Z), but for the faults it raises itself.
 * A fault's signal that the faulting thread blocks kills the process
 * outright, so SIGBUS of a file cut under the mapping (map.c reads it as
 * zeros) and the crashes (whose handlers give the terminal back) stay.
 */
void thread_leave_signals(void);
/*
 * Work that a second thread may do while this one does its own: side_work_start()
 * gives it a thread (the signals left to this one, as above) when `wanted`
 * and one can be had; side_work_join() waits for it, or does it here, now, if no
 * thread took it.
 */
struct side_work {
	void (*fn)(void *);
	void *arg;
	pthread_t thread;
	bool threaded;
};
void side_work_start(struct side_work *s, void (*fn)(void *), void *arg, bool wanted);
void side_work_join(struct side_work *s);
/*
 * An array of n elements of size bytes (at least one element), the product
 * checked with st_mult() as xcalloc checks its own: every array of a count
 * read from a profile is allocated through it or through xcalloc.
 */
void *xmalloc_array(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xmemdup0(const char *p, size_t n);
/*
 * Give the pages of what was freed back to the system: malloc keeps them,
 * in pieces around what is still in use (glibc's malloc_trim; elsewhere,
 * nothing).
 */
void heap_trim(void);

/* Seconds: since some fixed time, of this thread's CPU, since the epoch. */
double seconds_monotonic(void);
double seconds_thread_cpu(void);
double seconds_realtime(void);

/* a * b, or exit with a message when it does not fit in size_t (git's st_mult). */
size_t st_mult(size_t a, size_t b);
size_t st_add(size_t a, size_t b);

/*
 * Close f, written to: 0, or -1 with errno saying why when any write to it
 * failed. A buffered stream may drop what a write could not take and close
 * without an error (a full disk), so ferror() is asked first; where the
 * failed write's errno is lost, EIO.
 */
int fclose_written(FILE *f);

/* Called before exit() on allocation failure, e.g. to restore the terminal. */
void util_set_die_hook(void (*hook)(void));
_Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Grow array x (element count nr, capacity alloc) so that it holds at least
 * `need` elements. Capacity grows by 1.5x: large arrays come from mmap and
 * realloc moves them with mremap, so the untouched tail costs no memory.
 */
#define ALLOC_GROW(x, need, alloc)                                                                 \
	do {                                                                                       \
		if ((size_t)(need) > (size_t)(alloc)) {                                            \
			size_t ag_n_ = st_add((size_t)(alloc) / 2 * 3, 16);                        \
			if (ag_n_ < (size_t)(need))                                                \
				ag_n_ = (size_t)(need);                                            \
			(x) = xrealloc((x), st_mult(ag_n_, sizeof(*(x))));                         \
			(alloc) = ag_n_;                                                           \
		}                                                                                  \
	} while (0)

/* a += b, saturating at UINT64_MAX; returns false when it saturated. */
static inline bool u64_add_sat(uint64_t *a, uint64_t b)
{
	if (__builtin_add_overflow(*a, b, a)) {
		*a = UINT64_MAX;
		return false;
	}
	return true;
}

static inline uint64_t u64_mul_sat(uint64_t a, uint64_t b)
{
	uint64_t r;
	return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

/*
 * d rounded to the nearest integer, clamped to 0 .. UINT64_MAX (NaN: 0). The
 * trees scale costs as doubles, and a saturated cost (UINT64_MAX) is 2^64 as
 * a double: a plain cast of it is undefined, and gives 0 on x86-64.
 */
static inline uint64_t u64_from_double(double d)
{
	if (!(d > 0.0))
		return 0;
	if (d >= 18446744073709551616.0) /* 2^64 */
		return UINT64_MAX;
	return (uint64_t)(d + 0.5); /* below 2^64, d + 0.5 rounds to at most 2^64 - 2048 */
}

/* 64-bit hash of a byte run; good spread for names that share long prefixes. */
uint64_t hash_bytes(const void *p, size_t n);

static inline uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/* Write n in decimal at buf (room for 20 bytes, no NUL); returns the length. */
size_t fmt_u64(char *buf, uint64_t n);

/* n with thousands separators at buf (room for 26 bytes, no NUL); returns the length. */
size_t fmt_u64_commas(char *buf, uint64_t n);

/* Format n with thousands separators into buf (at least 27 bytes). */
char *fmt_commas(char *buf, uint64_t n);

/* A sort key and what it belongs to (an index into the caller's list). */
struct keyed {
	uint64_t key;
	uint32_t idx;
};

/*
 * Sort a (n elements) by key, ascending and stable, through tmp (room for
 * n); returns whichever of a and tmp holds the result.
 */
struct keyed *radix_sort(struct keyed *a, struct keyed *tmp, size_t n);

/* A comparison for sort_with(): a and b, and the caller's ctx. */
typedef int sort_cmp_fn(const void *a, const void *b, void *ctx);

/*
 * qsort, with ctx passed to every cmp: the context of an order (a profile,
 * an event, a direction) lives on the caller's stack, never in a file-scope
 * variable, so threads may sort at once (the index is built by several).
 * Fewer than two elements: nothing is read, base may be NULL.
 */
void sort_with(void *base, size_t n, size_t size, sort_cmp_fn *cmp, void *ctx);

#endif
