/*
 * train: writes a profile in the shapes Callgrind writes, for the default
 * build's profile-guided optimisation (the Makefile's PGO): the compiler
 * lays out the line machine by how often each branch goes which way on
 * these, so they have the mix of a real profile, not one of each case.
 * The same bytes every time (a fixed seed), so that the counts of a training
 * are too, but where threads take turns (doc/HACKING.md).
 *
 *   train sim SIZE    instr line positions, 13 events (--cache-sim=yes
 *                     --branch-sim=yes), jumps (--collect-jumps=yes),
 *                     relative call targets, one part
 *   train dumps SIZE  instr line positions, Ir only, absolute call targets,
 *                     inlined files (fi=, fe=), a part every SIZE/8 bytes
 *                     (--dump-every-bb), names of --separate-callers
 *   train line SIZE   line positions, two events (as Xdebug and pprof write)
 *
 * SIZE in bytes (about); the profile goes to standard output.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NFUNCS 6000
#define NFILES 300
#define NOBJS 12

enum kind { SIM, DUMPS, LINE };

struct gen {
	enum kind kind;
	uint64_t rng;
	bool fn_named[NFUNCS], fl_named[NFILES], ob_named[NOBJS];
	unsigned part;
	uint64_t written, line; /* the current line: no position goes below 0 */
	unsigned ob, fl;        /* the current object and file */
};

/* xorshift64*: fixed seed, fixed sequence */
static uint64_t rnd(struct gen *g)
{
	g->rng ^= g->rng >> 12;
	g->rng ^= g->rng << 25;
	g->rng ^= g->rng >> 27;
	return g->rng * 2685821657736338717ULL;
}

static unsigned below(struct gen *g, unsigned n)
{
	return (unsigned)(rnd(g) % n);
}

static bool chance(struct gen *g, unsigned percent)
{
	return below(g, 100) < percent;
}

/* Mostly small, sometimes large: counts of executions are so spread. */
static uint64_t spread(struct gen *g, unsigned max_digits)
{
	unsigned d = chance(g, 50) ? 1 + below(g, 2) : 1 + below(g, max_digits);
	uint64_t top = 1;

	for (unsigned i = 0; i < d; i++)
		top *= 10;
	return 1 + rnd(g) % (top - 1);
}

static void out(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void out(struct gen *g, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintf(fmt, ap);
	va_end(ap);
	if (n > 0)
		g->written += (uint64_t)n;
}

static const char *const words[] = {"parse", "read",  "write", "hash",  "find",   "insert",
				    "sort",  "merge", "emit",  "visit", "update", "lookup",
				    "init",  "free",  "alloc", "scan",  "step",   "flush"};
static const char *const spaces[] = {"db", "net", "gfx", "io", "util", "core", "http", "json"};

/* A function's name: C, C++ with templates, an address, or a chain of callers. */
static void fn_name(struct gen *g, unsigned f, char *buf, size_t n)
{
	const char *w = words[f % 18], *s = spaces[f / 18 % 8];

	switch (f % 5) {
	case 0:
		snprintf(buf, n, "%s_%s_%u", s, w, f);
		break;
	case 1:
		snprintf(buf, n, "%s::Table<std::pair<int, char const*>, %uul>::%s(unsigned long)",
			 s, f * 7919 % 100000, w);
		break;
	case 2:
		snprintf(buf, n, "0x%016x", 0x400000u + f * 64);
		break;
	case 3:
		if (g->kind == DUMPS) {
			snprintf(buf, n, "%s_%u'%s_%u'main", w, f, s, f / 3);
			break;
		}
		/* fall through */
	default:
		snprintf(buf, n, "%s::%s::%s_%u(int, double) const", s, spaces[f % 8], w, f);
	}
}

static void name_line(struct gen *g, const char *key, unsigned id, bool *named)
{
	char buf[160];

	if (*named) {
		out(g, "%s=(%u)\n", key, id + 1);
		return;
	}
	*named = true;
	if (!strcmp(key, "fn") || !strcmp(key, "cfn"))
		fn_name(g, id, buf, sizeof(buf));
	else if (!strcmp(key, "ob") || !strcmp(key, "cob"))
		snprintf(buf, sizeof(buf), "/usr/lib/x86_64-linux-gnu/lib%s.so.%u", spaces[id % 8],
			 id);
	else
		snprintf(buf, sizeof(buf), "/home/build/app/src/%s/%s_%u.c", spaces[id % 8],
			 words[id % 18], id);
	out(g, "%s=(%u) %s\n", key, id + 1, buf);
}

/* The costs of one line, executed e times: trailing zeros left out, as Callgrind does. */
static void costs(struct gen *g, uint64_t e, bool branch_end)
{
	uint64_t v[13] = {e};
	unsigned n = 1;

	if (g->kind == LINE) {
		out(g, " %" PRIu64 " %" PRIu64 "\n", e, chance(g, 30) ? spread(g, 6) : 0);
		return;
	}
	if (g->kind == SIM) {
		v[1] = chance(g, 40) ? e : 0;
		v[2] = chance(g, 20) ? e : 0;
		v[3] = chance(g, 3) ? 1 + e / 50 : 0;
		v[4] = v[1] && chance(g, 10) ? 1 + below(g, (unsigned)(e % 1000 + 1)) : 0;
		v[5] = v[2] && chance(g, 8) ? 1 + below(g, (unsigned)(e % 500 + 1)) : 0;
		v[6] = v[3] && chance(g, 50) ? 1 : 0;
		v[7] = v[4] && chance(g, 30) ? 1 + v[4] / 4 : 0;
		v[8] = v[5] && chance(g, 30) ? 1 + v[5] / 4 : 0;
		v[9] = branch_end ? e : 0;
		v[10] = branch_end && chance(g, 60) ? 1 + e / 9 : 0;
		v[11] = branch_end && chance(g, 5) ? e : 0;
		v[12] = v[11] && chance(g, 30) ? 1 + e / 20 : 0;
		for (n = 13; n > 1 && !v[n - 1]; n--)
			;
	}
	for (unsigned i = 0; i < n; i++)
		out(g, " %" PRIu64, v[i]);
	out(g, "\n");
}

/* A subposition after the first: the line stays, moves a little, or jumps. */
static void line_step(struct gen *g)
{
	unsigned r = below(g, 100), d = 1 + below(g, 20);

	if (r < 60) {
		out(g, "*");
	} else if (r < 85) {
		out(g, "+1");
		g->line++;
	} else if (r < 93 || g->line <= d) {
		out(g, "+%u", d = 2 + below(g, 8));
		g->line += d;
	} else {
		out(g, "-%u", d);
		g->line -= d;
	}
}

/* A target line against the current one: +D or -D, never below 1. */
static void line_target(struct gen *g, unsigned max)
{
	unsigned d = below(g, max);

	if (chance(g, 50) || g->line <= d)
		out(g, "+%u", d);
	else
		out(g, "-%u", d);
}

static void position(struct gen *g)
{
	if (g->kind != LINE) {
		out(g, "+%u ", 1 + below(g, 8));
		line_step(g);
	} else {
		line_step(g);
	}
}

static void call(struct gen *g, unsigned caller, uint64_t e)
{
	unsigned callee = (caller * 31 + 1 + below(g, 40)) % NFUNCS;

	if (callee % NOBJS != g->ob)
		name_line(g, "cob", callee % NOBJS, &g->ob_named[callee % NOBJS]);
	if (callee % NFILES != g->fl)
		name_line(g, "cfi", callee % NFILES, &g->fl_named[callee % NFILES]);
	name_line(g, "cfn", callee, &g->fn_named[callee]);
	if (g->kind == DUMPS)
		out(g, "calls=%" PRIu64 " 0x%x %u\n", e, 0x400000u + callee * 64, below(g, 3000));
	else if (g->kind == SIM) {
		out(g, "calls=%" PRIu64 " %s%u ", e, chance(g, 50) ? "+" : "-", 1 + below(g, 9000));
		line_target(g, 2000);
		out(g, "\n");
	} else
		out(g, "calls=%" PRIu64 " %u\n", e, 1 + below(g, 3000));
	out(g, g->kind == LINE ? "*" : "* *");
	costs(g, e * (1 + below(g, 4)), false);
}

static void jump(struct gen *g, uint64_t e)
{
	if (chance(g, 80))
		out(g, "jcnd=%" PRIu64 "/%" PRIu64 " +%u ", e * below(g, 100) / 100, e,
		    1 + below(g, 60));
	else
		out(g, "jump=%" PRIu64 " -%u ", e, 1 + below(g, 30));
	line_target(g, 6);
	out(g, "\n* *\n");
}

static void function(struct gen *g, unsigned f)
{
	unsigned lines = 3 + below(g, 70), left = 0;
	bool inlined = false;
	uint64_t e = 1;

	if (f % NOBJS != g->ob)
		name_line(g, "ob", g->ob = f % NOBJS, &g->ob_named[f % NOBJS]);
	if (f % NFILES != g->fl)
		name_line(g, "fl", g->fl = f % NFILES, &g->fl_named[f % NFILES]);
	name_line(g, "fn", f, &g->fn_named[f]);
	g->line = 1 + below(g, 5000);
	if (g->kind == LINE)
		out(g, "%" PRIu64, g->line);
	else
		out(g, "0x%x %" PRIu64, 0x400000u + f * 64, g->line);
	costs(g, e = spread(g, 6), false);
	for (unsigned i = 0; i < lines; i++) {
		if (!left) { /* a basic block: its lines run as often */
			left = 2 + below(g, 7);
			e = spread(g, 6);
		}
		left--;
		if (g->kind == DUMPS && chance(g, 3)) { /* into an inlined file, and back */
			unsigned fi = inlined ? g->fl : (f + 1 + below(g, 5)) % NFILES;

			name_line(g, inlined ? "fe" : "fi", fi, &g->fl_named[fi]);
			inlined = !inlined;
		}
		position(g);
		costs(g, e, !left);
		if (!left && g->kind == SIM && chance(g, 35))
			jump(g, e);
		if (!left && chance(g, 12))
			call(g, f, 1 + e / (1 + below(g, 4)));
	}
	out(g, "\n");
}

static void header(struct gen *g)
{
	static const char *const events[] = {
	    [SIM] = "Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim",
	    [DUMPS] = "Ir",
	    [LINE] = "Time_(10ns) Memory_(bytes)",
	};

	g->part++;
	if (g->part == 1)
		out(g, "# callgrind format\nversion: 1\ncreator: ncgrind's training profile\n"
		       "pid: 4242\ncmd: ./app --work\n");
	out(g, "part: %u\n\ndesc: Trigger: %s\n\n", g->part,
	    g->kind == DUMPS ? "--dump-every-bb=100000" : "Program termination");
	out(g, "positions: %s\nevents: %s\n\n", g->kind == LINE ? "line" : "instr line",
	    events[g->kind]);
}

int main(int argc, char **argv)
{
	struct gen g = {.rng = 0x9e3779b97f4a7c15ULL, .ob = NOBJS + NFILES, .fl = NOBJS + NFILES};
	uint64_t size, part_size;
	unsigned f = 0;

	if (argc != 3 ||
	    (strcmp(argv[1], "sim") && strcmp(argv[1], "dumps") && strcmp(argv[1], "line"))) {
		fprintf(stderr, "usage: train sim|dumps|line SIZE\n");
		return 2;
	}
	g.kind = !strcmp(argv[1], "sim") ? SIM : !strcmp(argv[1], "dumps") ? DUMPS : LINE;
	size = strtoull(argv[2], NULL, 10);
	part_size = g.kind == DUMPS ? size / 8 + 1 : size + 1;
	header(&g);
	while (g.written < size) {
		if (g.written / part_size + 1 > g.part) {
			/* a new dump: Callgrind names each again at its first use there */
			memset(g.fn_named, 0, sizeof(g.fn_named));
			memset(g.fl_named, 0, sizeof(g.fl_named));
			memset(g.ob_named, 0, sizeof(g.ob_named));
			g.ob = g.fl = NOBJS + NFILES; /* none */
			out(&g, "\n");
			header(&g);
		}
		/* hot functions come again and again, the rest now and then */
		function(&g, chance(&g, 50) ? below(&g, 200) : f++ % NFUNCS);
	}
	return 0;
}
