/*
 * fuzz_inputs: a libFuzzer target (`make fuzz-inputs`) for what the reader
 * takes besides the cost lines, each with few bytes around it, so that the
 * fuzzer spends its mutations there rather than on a whole profile:
 *
 *   - an input that starts with the magic bytes of gzip, xz or zstd is a
 *     compressed stream, given to decompress() as the reader gives a file;
 *   - an input whose first line is "#ncgrind-config" is a configuration
 *     file (core/config.c), its `set` values checked as the browser checks
 *     them and its colour and attribute words read;
 *   - an input whose first line is "#ncgrind-cache" is a kept index
 *     (core/cache.c) of a small fixed profile: it is loaded with every check
 *     but the key's and the checksum's (so that mutations reach the checks
 *     behind them), and when it is taken, reported on, every block read
 *     again, a part chosen and cycle detection turned off. With
 *     NCG_FUZZ_CACHE_SEED=FILE the target writes such an input, the true
 *     index of that profile, to FILE (test/fuzz/inputs/kept.cache);
 *   - any other input is events: the first line is an `events:` line, each
 *     line "--event=NAME=FORMULA" is one of the user's formulas (--event,
 *     :event), every other line an `event:` line; they head a small fixed
 *     profile (two parts, a call, costs up to 2^64 - 1) that is read and
 *     reported on with every event.
 *
 * What must hold, besides no crash, leak or undefined behaviour (abort()
 * when not):
 *   - a stream decompresses to at most the limit given, with the room for
 *     the final '\n' it promises; read again under a limit below what it
 *     gave, it is refused (a bomb must not get past the limit); an error
 *     says something;
 *   - a configuration line comes in 1 to CONFIG_MAX_WORDS words, each a
 *     string of at most the line's bytes, with no '\n'; the lines come in
 *     order, each number once, and no more errors are told than the bound;
 *   - each derived event that is a sum is, in every function's self and
 *     inclusive cost, every call and the totals, the sum of its factors
 *     times the raw events, saturated at 2^64 - 1 as the reader saturates.
 */
#define _POSIX_C_SOURCE 200809L
#include "ncgrind/core/cache.h"
#include "ncgrind/core/config.h"
#include "ncgrind/core/decompress.h"
#include "ncgrind/core/events.h"
#include "ncgrind/core/parse.h"
#include "ncgrind/core/profile.h"
#include "ncgrind/core/sniff.h"
#include "ncgrind/core/report.h"
#include "ncgrind/core/settings.h"
#include "ncgrind/model/session.h"
#include "ncgrind/report/views.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_OUT ((size_t)4 << 20) /* what a stream may decompress to */
#define MAX_USER 16               /* --event formulas taken from one input */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
static void cache_seed(const char *out);

static char path[96];
static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = "/dev/shm/ncgrind-fuzz";

	(void)argc;
	(void)argv;
	setlocale(LC_ALL, "C.UTF-8");
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		dir = "/tmp";
	snprintf(path, sizeof(path), "%s/%ld-inputs.callgrind", dir, (long)getpid());
	devnull = fopen("/dev/null", "w");
	if (!devnull) {
		perror("fuzz_inputs: /dev/null");
		exit(2);
	}
	cache_set_enabled(false); /* never the user's cache: the images come as inputs */
	if (getenv("NCG_FUZZ_CACHE_SEED"))
		cache_seed(getenv("NCG_FUZZ_CACHE_SEED"));
	return 0;
}

/* ---- compressed streams ------------------------------------------------- */

static bool on_progress(void *ctx, uint64_t done, uint64_t total)
{
	if (done > total) {
		fprintf(stderr, "fuzz_inputs: progress %" PRIu64 " of %" PRIu64 "\n", done, total);
		abort();
	}
	(void)ctx;
	return false;
}

/* One decompression under max; checks what decompress() promises. */
static int unpack(enum compression c, const uint8_t *data, size_t size, size_t max,
		  struct decompressed *out)
{
	char err[300] = "";
	int ret;

	memset(out, 0, sizeof(*out));
	ret = decompress(c, data, size, max, on_progress, NULL, out, err, sizeof(err));
	if (ret < 0 && !*err) {
		fprintf(stderr, "fuzz_inputs: %s: an error without a message\n",
			decompress_name(c));
		abort();
	}
	if (ret == 0 && out->size > max) {
		fprintf(stderr, "fuzz_inputs: %s: %zu bytes out, over the limit of %zu\n",
			decompress_name(c), out->size, max);
		abort();
	}
	if (ret == 0 && out->data)
		out->data[out->size] = '\n'; /* the room promised: ASan says if not there */
	return ret;
}

/* Whether decompress() stopped where the output showed it is no profile. */
static bool stopped_by_sniff(const struct decompressed *d)
{
	enum sniff s = sniff_profile(d->data, d->size);

	return s == SNIFF_NOT || s == SNIFF_NO_LINE;
}

static void streams(enum compression c, const uint8_t *data, size_t size)
{
	struct decompressed a, b = {0};

	/*
	 * (Output that cannot start a profile stops the decoder where it shows
	 * it, under any limit: only a stream read to its end must be refused.)
	 */
	if (unpack(c, data, size, MAX_OUT, &a) == 0 && a.size > 0 && !stopped_by_sniff(&a) &&
	    unpack(c, data, size, a.size - 1, &b) == 0) {
		fprintf(stderr,
			"fuzz_inputs: %s: %zu bytes under no limit, %zu under a limit of %zu "
			"(%s)\n",
			decompress_name(c), a.size, b.size, a.size - 1, b.warn);
		abort();
	}
	free(a.data);
	free(b.data);
}

/* ---- events ------------------------------------------------------------- */

/*
 * After the header: two parts, main calling work, a cost line with more
 * values than most `events:` lines name (the rest are dropped with a
 * warning), and the largest values a cost can have.
 */
static const char body[] = "fl=a.c\n"
			   "fn=main\n"
			   "1 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"
			   "2 18446744073709551615 4294967296 0 7 4294967295\n"
			   "cfn=work\n"
			   "calls=3 1\n"
			   "3 100 50 25 12 6 3 1 0 0 9\n"
			   "fn=work\n"
			   "4 100 50 25 12 6 3 1 0 0 9 18446744073709551615\n"
			   "part: 2\n"
			   "fn=main\n"
			   "5 9223372036854775808 9223372036854775808 1\n"
			   "fn=other\n"
			   "6 3\n";

/* Write the profile of the event lines in data; the user's formulas go to user. */
static size_t write_events(const uint8_t *data, size_t size, char **user)
{
	FILE *f = fopen(path, "w");
	const uint8_t *p = data, *end = data + size;
	size_t nuser = 0;
	bool first = true;

	if (!f) {
		perror("fuzz_inputs: fopen");
		abort();
	}
	fputs("# callgrind format\nversion: 1\npositions: line\n", f);
	while (p < end) {
		const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		if (first)
			fprintf(f, "events: %.*s\n", (int)n, (const char *)p);
		else if (n >= 8 && !memcmp(p, "--event=", 8) && nuser < MAX_USER)
			user[nuser++] = strndup((const char *)p + 8, n - 8);
		else if (n >= 8 && !memcmp(p, "--event=", 8))
			; /* enough of them */
		else
			fprintf(f, "event: %.*s\n", (int)n, (const char *)p);
		first = false;
		p += n + 1;
	}
	if (first)
		fputs("events: Ir\n", f);
	fputs(body, f);
	if (fclose(f) != 0) {
		perror("fuzz_inputs: write");
		abort();
	}
	return nuser;
}

/* The sum a derived event's row holds, from the raw values of the same row. */
/* What ev's formula gives on row i, from the row's values of the events it names. */
static uint64_t expect_sum(const struct profile *p, const struct event *ev, size_t i,
			   uint64_t (*at)(const struct profile *, size_t, uint32_t))
{
	uint64_t v = 0, t;

	for (uint32_t k = 0; k < ev->nterms; k++)
		if (__builtin_mul_overflow(ev->terms[k].factor, at(p, i, ev->terms[k].ev), &t) ||
		    !u64_add_sat(&v, t))
			v = UINT64_MAX;
	return v;
}

/*
 * Every inherited sum of row i is its formula over the row's values (the
 * events it names come before it, so each is checked before it is used).
 */
static void check_row(const struct profile *p, const char *what, size_t i,
		      uint64_t (*at)(const struct profile *, size_t, uint32_t))
{
	for (uint32_t e = p->nraw; e < p->nev; e++) {
		const struct event *ev = &p->events[e];
		uint64_t want, got;

		if (!ev->nterms || ev->ratio)
			continue;
		want = expect_sum(p, ev, i, at);
		got = at(p, i, e);
		if (want != got) {
			fprintf(stderr,
				"fuzz_inputs: %s %zu, event %.*s = %.*s: %" PRIu64
				" where its formula gives %" PRIu64 "\n",
				what, i, (int)ev->name.len, ev->name.ptr, (int)ev->formula.len,
				ev->formula.ptr, got, want);
			abort();
		}
	}
}

static uint64_t self_at(const struct profile *p, size_t i, uint32_t e)
{
	return profile_self_at(p, (uint32_t)i, e);
}

static uint64_t incl_at(const struct profile *p, size_t i, uint32_t e)
{
	return profile_incl_at(p, (uint32_t)i, e);
}

static uint64_t edge_at(const struct profile *p, size_t i, uint32_t e)
{
	return profile_edge_at(p, (uint32_t)i, e);
}

static uint64_t total_at(const struct profile *p, size_t i, uint32_t e)
{
	(void)i;
	return p->totals[e];
}

static void check_sums(const struct profile *p)
{
	for (size_t f = 0; f < p->nfuncs; f++) {
		check_row(p, "self of function", f, self_at);
		check_row(p, "inclusive cost of function", f, incl_at);
	}
	for (size_t e = 0; e < p->nedges; e++)
		check_row(p, "call", e, edge_at);
	check_row(p, "totals", 0, total_at);
}

/* Every report, sorted by events in turn, every event shown. */
static void reports(const struct profile *p)
{
	uint32_t *evs = xcalloc(p->nev + 1, sizeof(uint32_t));
	struct report_opts o = {0};
	char err[300];

	for (uint32_t i = 0; i < p->nev; i++)
		evs[i] = p->nev - 1 - i;
	o.events = evs;
	o.nevents = p->nev;
	o.depth = UINT32_MAX;
	o.threshold = 1.0;
	/* sorted by 8 events at most, the last (derived) one among them: no n^2 in events */
	for (uint32_t k = 0; k < 8 && (k < p->nev || k == 0); k++) {
		uint32_t ev = p->nev > 8 ? (uint32_t)((uint64_t)k * (p->nev - 1) / 7) : k;

		o.sort_event = ev;
		o.sort = SORT_INCL;
		for (int fmt = REPORT_TEXT; fmt <= REPORT_JSON; fmt++) {
			o.format = (enum report_format)fmt;
			o.kind = REPORT_FUNCTIONS;
			report_write(devnull, p, &o);
			o.kind = REPORT_CALLS;
			report_write(devnull, p, &o);
		}
		o.format = REPORT_TEXT;
		o.kind = REPORT_TREE;
		report_tree(devnull, p, &o, err, sizeof(err));
	}
	/* the first table's order: a kept index's own (p->self_order) */
	o.sort_event = 0;
	o.sort = SORT_SELF;
	o.kind = REPORT_FUNCTIONS;
	report_write(devnull, p, &o);
	for (uint32_t part = 0; part < p->nparts; part++)
		for (uint32_t ev = 0; ev < p->nev; ev++)
			(void)events_part_cost(p, part, ev);
	fflush(devnull);
	clearerr(devnull);
	free(evs);
}

static void events(const uint8_t *data, size_t size)
{
	char *user[MAX_USER];
	size_t nuser = write_events(data, size, user);
	struct parse_opts o = {0};
	struct session s;

	o.jobs = 1;
	o.events = (const char *const *)user;
	o.nevents = nuser;
	if (session_load(&s, (char *[]){path}, 1, &o) == 0) {
		diag_write(&s.diag, devnull);
		check_sums(&s.prof);
		reports(&s.prof);
		/* the first part alone: its costs summed again, derived ones too */
		if (s.prof.nparts > 1) {
			bool *sel = xcalloc(s.prof.nparts, sizeof(bool));

			sel[0] = true;
			session_select_parts(&s, sel, 1, NULL);
			check_sums(&s.prof);
			free(sel);
		}
		profile_set_cycles(&s.prof, false);
		reports(&s.prof);
	}
	session_release(&s);
	unlink(path);
	for (size_t i = 0; i < nuser; i++)
		free(user[i]);
}

/* ---- kept indexes --------------------------------------------------------- */

#define CACHE_MAGIC "#ncgrind-cache\n"

/* Two parts, calls both ways (a cycle), an inlined file, cob=/cfi=, a jump, a big cost. */
static const char cache_profile[] =
    "# callgrind format\nversion: 1\ncmd: ./a\npositions: line\nevents: Ir Dr\n"
    "event: S = Ir + 2 Dr\n" /* an inherited event: worked out from the cells */
    "part: 1\nob=(1) /bin/a\nfl=(1) a.c\nfn=(1) main\n1 10 1\ncfn=(2) f\ncalls=2 5\n"
    "2 30 3\nfi=(2) inl.h\n3 5000000000 2\nfe=(1)\njump=3 4\n4 1 1\n"
    "fn=(2)\n5 20 2\ncob=(2) /lib/b.so\ncfi=(3) b.c\ncfn=(3) g\ncalls=1 7\n6 4 0\n"
    "fn=(3)\n7 4 1\ncfn=(2)\ncalls=1 5\n8 2 0\n"
    "part: 2\nob=(1) /bin/a\nfl=(1) a.c\nfn=(2) f\n5 7 7\n";

static void on_block_line(void *ctx, const struct parse_line *l)
{
	(void)ctx;
	(void)l;
}

/* The fixed profile read the usual way (into s), from path. */
static int cache_profile_load(struct session *s)
{
	FILE *f = fopen(path, "w");
	struct parse_opts o = {.jobs = 1};

	if (!f || fputs(cache_profile, f) < 0 || fclose(f) != 0) {
		perror("fuzz_inputs: the kept index's profile");
		abort();
	}
	return session_load(s, (char *[]){path}, 1, &o);
}

/* NCG_FUZZ_CACHE_SEED=FILE: the true index of the fixed profile, as an input, into FILE. */
static void cache_seed(const char *out)
{
	struct session s;
	size_t len = 0;
	void *img = NULL;
	FILE *f;

	if (cache_profile_load(&s) == 0)
		img = cache_image(&s.prof, &len);
	f = fopen(out, "w");
	if (!img || !f || fputs(CACHE_MAGIC, f) < 0 || fwrite(img, 1, len, f) != len ||
	    fclose(f) != 0) {
		perror("fuzz_inputs: NCG_FUZZ_CACHE_SEED");
		exit(2);
	}
	free(img);
	session_release(&s);
	unlink(path);
}

static void kept_index(const uint8_t *data, size_t size)
{
	struct session s;
	size_t n = strlen(CACHE_MAGIC);
	char name[] = "fuzz.callgrind";

	session_begin(&s, (char *[]){name}, 1);
	if (cache_load_image(&s.prof, data + n, size - n, cache_profile,
			     sizeof(cache_profile) - 1)) {
		session_ready(&s);
		session_graph(&s); /* (made when a screen asks for it: here, at once) */
		reports(&s.prof);
		for (uint32_t b = 0; b < s.prof.nblocks; b++)
			parse_block(&s.prof, b, on_block_line, NULL);
		if (s.prof.nparts > 1) {
			bool *sel = xcalloc(s.prof.nparts, sizeof(bool));

			sel[0] = true;
			session_select_parts(&s, sel, 1, NULL);
			free(sel);
			reports(&s.prof);
		}
		profile_set_cycles(&s.prof, false);
		reports(&s.prof);
	}
	session_release(&s);
}

/* ---- configuration files ---------------------------------------------- */

#define CONFIG_MAGIC "#ncgrind-config\n"

struct config_seen {
	unsigned long last_line;
	unsigned told;
};

static void config_fail(const char *what)
{
	fprintf(stderr, "fuzz_inputs: configuration: %s\n", what);
	abort();
}

static bool config_line_seen(void *ctx, const struct config_line *l, char *why, size_t size)
{
	struct config_seen *seen = ctx;
	enum setting s;
	unsigned attrs = 0;
	int colour;

	if (l->line <= seen->last_line)
		config_fail("a line number again, or going back");
	seen->last_line = l->line;
	if (l->argc < 1 || l->argc > CONFIG_MAX_WORDS)
		config_fail("a number of words out of bounds");
	for (int i = 0; i < l->argc; i++)
		if (strlen(l->argv[i]) > CONFIG_MAX_LINE || strchr(l->argv[i], '\n'))
			config_fail("a word longer than a line, or with a newline");
	for (int i = 0; i < l->argc; i++) { /* the words the browser reads as colours */
		config_colour(l->argv[i], &colour);
		config_attr(l->argv[i], &attrs);
		if (config_colour(l->argv[i], &colour) && (colour < -1 || colour > 255))
			config_fail("a colour out of 0..255");
	}
	if (!strcmp(l->argv[0], "set") && l->argc >= 3) {
		s = setting_find(l->argv[1], strlen(l->argv[1]));
		if (s != SET_NONE)
			return setting_check(s, l->argv[2], why, size);
	}
	snprintf(why, size, "%s", l->argv[0]);
	return l->argc % 2 == 0;
}

static void config_told(void *ctx, const char *message)
{
	struct config_seen *seen = ctx;

	if (!*message)
		config_fail("an empty message");
	seen->told++;
}

static void config_file(const uint8_t *data, size_t size)
{
	struct config_seen seen = {0};
	struct config_reader r = {
	    .line = config_line_seen, .error = config_told, .ctx = &seen, .no_source = true};

	config_read_buffer(&r, "fuzz.config", (const char *)data + strlen(CONFIG_MAGIC),
			   size - strlen(CONFIG_MAGIC));
	if (seen.told > CONFIG_MAX_ERRORS + 1)
		config_fail("more errors told than the bound");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum compression c = decompress_detect(data, size);

	if (size >= strlen(CONFIG_MAGIC) && !memcmp(data, CONFIG_MAGIC, strlen(CONFIG_MAGIC)))
		config_file(data, size);
	else if (size >= strlen(CACHE_MAGIC) && !memcmp(data, CACHE_MAGIC, strlen(CACHE_MAGIC)))
		kept_index(data, size);
	else if (c != COMP_NONE)
		streams(c, data, size);
	else
		events(data, size);
	return 0;
}
