/*
 * util: the few helpers every module shares. Sizes are checked before they
 * reach the allocator so that a hostile profile cannot make an array wrap.
 */
#define _GNU_SOURCE /* qsort_r: in POSIX only since 2024, not in C11 */
#include "ncgrind/core/util.h"
#include "ncgrind/core/escape.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h> /* malloc_trim */
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void (*die_hook)(void);

void util_set_die_hook(void (*hook)(void))
{
	die_hook = hook;
}

void die(const char *fmt, ...)
{
	va_list ap;

	if (die_hook)
		die_hook();
	fputs("ncgrind: ", stderr);
	va_start(ap, fmt);
	escape_vmessage(stderr, fmt, ap);
	va_end(ap);
	exit(1);
}

int fclose_written(FILE *f)
{
	int failed = ferror(f), before = errno, e;

	errno = 0;
	if (fflush(f) != 0) {
		e = errno ? errno : EIO;
		fclose(f);
		errno = e;
		return -1;
	}
	/* EBADF with nothing written: a closed descriptor that nobody wrote to (>&-) */
	if (fclose(f) != 0 && (failed || errno != EBADF))
		return -1;
	if (failed) { /* the write that failed left its errno, unless a call since set another */
		errno = before ? before : EIO;
		return -1;
	}
	return 0;
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory (allocating %zu bytes)", n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		die("out of memory (allocating %zu x %zu bytes)", nmemb, size);
	return p;
}

void thread_leave_signals(void)
{
	sigset_t set;

	sigfillset(&set);
	sigdelset(&set, SIGBUS); /* a file cut under the mapping: map.c's handler, here */
	sigdelset(&set, SIGSEGV);
	sigdelset(&set, SIGFPE);
	sigdelset(&set, SIGILL);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}

static void *side_main(void *arg)
{
	struct side_work *s = arg;

	thread_leave_signals();
	s->fn(s->arg);
	return NULL;
}

void side_work_start(struct side_work *s, void (*fn)(void *), void *arg, bool wanted)
{
	s->fn = fn;
	s->arg = arg;
	s->threaded = wanted && pthread_create(&s->thread, NULL, side_main, s) == 0;
}

void side_work_join(struct side_work *s)
{
	if (s->threaded)
		pthread_join(s->thread, NULL);
	else
		s->fn(s->arg);
	s->threaded = false;
}

/*
 * Zeroed by writing, for tables read at random before they are written (a
 * hash table): calloc's fresh pages are read in as the shared zero page,
 * and the first write to each then faults again and flushes the TLB on
 * every core the process runs on, an interrupt to each parsing thread (on
 * a 1 GiB profile at two jobs, a fifth of the merging thread's time).
 * Written first, each page faults once, on this core only.
 */
void *xcalloc_written(size_t nmemb, size_t size)
{
	size_t n = st_mult(nmemb ? nmemb : 1, size ? size : 1);

	return memset(xmalloc(n), 0, n);
}

void *xmalloc_array(size_t n, size_t size)
{
	return xmalloc(st_mult(n ? n : 1, size));
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		die("out of memory (allocating %zu bytes)", n);
	return q;
}

static double seconds_of(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double seconds_monotonic(void)
{
	return seconds_of(CLOCK_MONOTONIC);
}

double seconds_thread_cpu(void)
{
	return seconds_of(CLOCK_THREAD_CPUTIME_ID);
}

double seconds_realtime(void)
{
	return seconds_of(CLOCK_REALTIME);
}

void heap_trim(void)
{
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

char *xmemdup0(const char *p, size_t n)
{
	char *s = xmalloc(st_add(n, 1));

	if (n)
		memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

char *xstrdup(const char *s)
{
	return xmemdup0(s, strlen(s));
}

size_t st_mult(size_t a, size_t b)
{
	size_t r;

	if (__builtin_mul_overflow(a, b, &r))
		die("size overflow: %zu * %zu", a, b);
	return r;
}

size_t st_add(size_t a, size_t b)
{
	size_t r;

	if (__builtin_add_overflow(a, b, &r))
		die("size overflow: %zu + %zu", a, b);
	return r;
}

static inline uint64_t load64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

uint64_t hash_bytes(const void *data, size_t n)
{
	const unsigned char *p = data;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ (n * 0xff51afd7ed558ccdULL);

	while (n >= 8) {
		h = (h ^ load64(p)) * 0x100000001b3ULL * 0x9e3779b1ULL;
		h ^= h >> 29;
		p += 8;
		n -= 8;
	}
	if (n) {
		uint64_t t = 0;

		memcpy(&t, p, n);
		h = (h ^ t) * 0x100000001b3ULL * 0x9e3779b1ULL;
	}
	return hash_u64(h);
}

/* "00".."99": two digits a division (the reports write millions of numbers). */
static const char digit_pairs[] = "00010203040506070809101112131415161718192021222324"
				  "25262728293031323334353637383940414243444546474849"
				  "50515253545556575859606162636465666768697071727374"
				  "75767778798081828384858687888990919293949596979899";

/* The number of decimal digits of n (1 for 0). */
static unsigned decimal_digits(uint64_t n)
{
	/* clang-format off */
	static const uint64_t pow10[20] = {
		1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u,
		1000000000u, 10000000000u, 100000000000u, 1000000000000u, 10000000000000u,
		100000000000000u, 1000000000000000u, 10000000000000000u, 100000000000000000u,
		1000000000000000000u, 10000000000000000000u};
	/* clang-format on */
	/* bits x log10(2) is one less than the digits or equal; n | 1 has n's digits */
	unsigned l = (unsigned)(64 - __builtin_clzll(n | 1)) * 1233 >> 12;

	return l + ((n | 1) >= pow10[l]);
}

/* Exactly 8 digits of v (< 10^8): two halves in 32 bits, two digits a step. */
static void put_8_digits(char *p, uint32_t v)
{
	uint32_t hi = v / 10000, lo = v % 10000;

	memcpy(p, digit_pairs + 2 * (hi / 100), 2);
	memcpy(p + 2, digit_pairs + 2 * (hi % 100), 2);
	memcpy(p + 4, digit_pairs + 2 * (lo / 100), 2);
	memcpy(p + 6, digit_pairs + 2 * (lo % 100), 2);
}

/*
 * Written in place from its last digit, its length known first; 8 digits
 * at a time in 32-bit arithmetic. A long report is mostly numbers of 10 to
 * 15 digits (26 a row on a profile of 13 events): 10.4 ns a number became
 * 6.8 ns.
 */
size_t fmt_u64(char *buf, uint64_t n)
{
	size_t len = decimal_digits(n);
	char *p = buf + len;
	uint32_t m;

	while (n >= 100000000) {
		p -= 8;
		put_8_digits(p, (uint32_t)(n % 100000000));
		n /= 100000000;
	}
	m = (uint32_t)n;
	while (m >= 100) {
		p -= 2;
		memcpy(p, digit_pairs + 2 * (m % 100), 2);
		m /= 100;
	}
	if (m >= 10)
		memcpy(p - 2, digit_pairs + 2 * m, 2);
	else
		p[-1] = (char)('0' + m);
	return len;
}

size_t fmt_u64_commas(char *buf, uint64_t n)
{
	char digits[20];
	size_t len = fmt_u64(digits, n), o = 0;

	for (size_t i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	return o;
}

char *fmt_commas(char *buf, uint64_t n)
{
	buf[fmt_u64_commas(buf, n)] = '\0';
	return buf;
}

/*
 * LSD, a byte a pass; one counting pass finds the bytes that every key
 * shares, which need no pass (costs rarely use their top bytes, ranks of
 * names their top five).
 */
struct keyed *radix_sort(struct keyed *a, struct keyed *tmp, size_t n)
{
	size_t count[8][256] = {{0}};

	for (size_t i = 0; i < n; i++)
		for (unsigned d = 0; d < 8; d++)
			count[d][(a[i].key >> (8 * d)) & 0xff]++;
	for (unsigned d = 0; d < 8 && n; d++) {
		size_t *c = count[d], sum = 0;
		struct keyed *t;

		if (c[(a[0].key >> (8 * d)) & 0xff] == n)
			continue;
		for (unsigned b = 0; b < 256; b++) {
			size_t k = c[b];

			c[b] = sum;
			sum += k;
		}
		for (size_t i = 0; i < n; i++)
			tmp[c[(a[i].key >> (8 * d)) & 0xff]++] = a[i];
		t = a;
		a = tmp;
		tmp = t;
	}
	return a;
}

/*
 * glibc's qsort is its qsort_r with no argument: the same algorithm, so a
 * comparator that moved from a file-scope context to ctx orders ties as it
 * did.
 */
void sort_with(void *base, size_t n, size_t size, sort_cmp_fn *cmp, void *ctx)
{
	if (n > 1)
		qsort_r(base, n, size, cmp, ctx);
}
