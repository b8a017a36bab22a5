/*
 * parse: the line machine of the Callgrind format, version 1.
 *
 * One pass over the mapping: each line is dispatched on its first byte; cost
 * lines (the vast majority) are read in place and added to the current
 * function's row, so the pass allocates nothing per line and copies no byte
 * of the file. Position lines (fn=, cfi=, ...) resolve names through the
 * per-part compressed-id tables; a name is hashed only where it is defined.
 *
 * The state follows KCachegrind's loader where the specification is silent:
 * fn= resets the source file to the one of fl=; a callee's object and file
 * default to the current ones and are forgotten after each call cost line;
 * ob= ends the current function. A compressed function id stands for a
 * name, as the specification has it (ids may be defined up front): the
 * function is (object, file, name) in the context where the id is used.
 * Callgrind writes ob=/fl= before every fn= that changes them, so on its
 * files this is the same as KCachegrind's binding of ids to a function.
 *
 * In block mode (parse_block) the same machine re-reads one block and
 * reports its lines instead of adding them up; it only reads the index.
 */
#define _POSIX_C_SOURCE 200809L
#include "parser.h"
#include "ncgrind/core/lex.h"
#include "ncgrind/core/sniff.h"
#include "ncgrind/core/events.h"

#include <inttypes.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <stdio.h>
#include <stdlib.h>

/* ---- messages ---------------------------------------------------------- */

int parser_error(struct parser *ps, const char *fmt, const char *p, size_t n)
{
	char q[200];

	if (!ps->diag)
		return -1;
	diag_quote(q, p, n, 40);
	return diag_add(ps->diag, DIAG_ERROR, ps->lineno, fmt, q);
}

size_t parser_token_len(const char *p)
{
	size_t n = 0;

	while (!lex_is_delim(p[n]))
		n++;
	return n;
}

size_t parser_line_len(const char *p)
{
	size_t n = 0;

	while (p[n] != '\n')
		n++;
	if (n && p[n - 1] == '\r')
		n--;
	return n;
}

static const char *skip_line(const struct parser *ps, const char *p)
{
	const char *nl;

#ifdef __SSE2__
	/*
	 * Most lines this skips are name lines of a dozen bytes ("cfn=(2345)"):
	 * one compare of 16 bytes finds their end without a call to memchr. Only
	 * where 16 bytes are left in the range, so that no read passes its end.
	 */
	if (ps->end - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));

		if (m)
			return p + __builtin_ctz(m) + 1;
	}
#endif
	nl = lex_eol(p, ps->end);

	/* every range ends in '\n'; the guard keeps a bad range from running away */
	return nl ? nl + 1 : ps->end;
}

static uint64_t offset_of(const struct parser *ps, const char *p)
{
	return ps->range_off + (uint64_t)(p - ps->range_start);
}

/* Whether subposition token p is absolute: a number, not +N, -N or *. */
static bool absolute_pos(const char *p)
{
	return *p >= '0' && *p <= '9';
}

/* Whether the npos subpositions at p are all absolute. */
static bool absolute_line(const char *p, int npos)
{
	for (int i = 0; i < npos; i++) {
		p = lex_skip_blanks(p);
		if (!absolute_pos(p))
			return false;
		while (!lex_is_delim(*p))
			p++;
	}
	return true;
}

/*
 * Whether re-reading the block [p, end) needs the position at its start:
 * unless the first line that reads subpositions gives absolute ones (as
 * Callgrind writes the first line after fn=). Lines that read none (cfn=,
 * fi=, comments...) are skipped; anything unusual answers yes.
 */
/*
 * Whether the cost line at q sets the position whatever it was: absolute
 * positions, and a line the parser takes (a rejected line moves nothing,
 * and the relative line after it then needs the position before).
 */
static bool plain_sets_pos(const struct parser *ps, const char *q);

static bool line_sets_pos(const struct parser *ps, const char *q)
{
	uint64_t v;

	if (plain_sets_pos(ps, q))
		return true;
	if (!absolute_line(q, ps->npos))
		return false;
	for (int i = 0; i < ps->npos; i++) {
		if (lex_number(&q, &v) != LEX_OK)
			return false;
		q = lex_skip_blanks(q);
	}
	for (uint32_t n = 0; *q != '\n'; n++) {
		if (n == ps->nev || lex_number(&q, &v) != LEX_OK)
			return false;
		q = lex_skip_blanks(q);
	}
	return true;
}

static bool block_needs_pos(const struct parser *ps, const char *p, const char *end)
{
	while (p < end) {
		const char *q = lex_skip_blanks(p);

		if (lex_class[(unsigned char)*q] & LEX_COST)
			return !line_sets_pos(ps, q);
		if (lex_prefix(q, "calls=")) {
			/*
			 * its target is read against the position (if relative); its
			 * cost line (next) is the one that sets it, like any cost line
			 */
			q = lex_skip_blanks(q + 6);
			while (!lex_is_delim(*q)) /* the count */
				q++;
			if (!absolute_line(lex_skip_blanks(q), ps->npos))
				return true;
		} else if (!(*q == '#' || *q == '\n' || lex_prefix(q, "cfn=") ||
			     lex_prefix(q, "cfi=") || lex_prefix(q, "cfl=") ||
			     lex_prefix(q, "cob=") || lex_prefix(q, "fi=") || lex_prefix(q, "fe=")))
			return true;
		q = memchr(q, '\n', (size_t)(end - q));
		if (!q)
			return true;
		p = q + 1;
	}
	return false; /* no line reads one */
}

void parser_block_close(struct parser *ps, const char *p)
{
	struct block *b;

	if (ps->reread || ps->block == NCG_NONE)
		return;
	b = &ps->prof->blocks[ps->block];
	ps->block_ctx.end = offset_of(ps, p);
	block_set_span(b, ps->block_ctx.end, ps->block_ctx.line);
	if (!block_needs_pos(ps, ps->range_start + (b->start - ps->range_off), p)) {
		ps->block_ctx.pos_set = true;
		memset(ps->block_ctx.pos, 0, sizeof(ps->block_ctx.pos));
	}
	profile_set_block_context(ps->prof, ps->block, &ps->block_ctx);
	ps->block = NCG_NONE;
}

/*
 * A calls= line must be followed by its cost line. p is the line found
 * instead (the error is reported there), or NULL at the end of the file
 * (reported at the calls= line).
 */
void parser_pending_check(struct parser *ps, const char *p)
{
	char q[200];

	if (ps->next == NEXT_CALL && ps->diag) {
		if (p) {
			diag_quote(q, p, parser_line_len(p), 40);
			diag_add(ps->diag, DIAG_ERROR, ps->lineno,
				 "'%s' where the cost line of the calls= at line %" PRIu64
				 " must be; call ignored",
				 q, ps->call_line);
		} else {
			diag_add(ps->diag, DIAG_ERROR, ps->call_line,
				 "calls= line without its cost line at the end of the file; call "
				 "ignored");
		}
	}
	ps->next = NEXT_COST;
}

/* ---- names ------------------------------------------------------------- */

/* The table of the ids of pt's file that its parts share (one pass: a chunk's profile has no
 * files). */
static const struct idtab *shared_ids(const struct parser *ps, const struct part *pt,
				      enum id_kind kind)
{
	return &ps->prof->src[pt->src].shared_ids[kind];
}

/*
 * While indexing, the current part's name for id: its own table's, or
 * shared_ids' where the part defined the id as shared_ids has it
 * (parser.stamp).
 */
static uint32_t own_id(const struct parser *ps, const struct part *pt, enum id_kind kind,
		       uint64_t id)
{
	uint32_t v = profile_part_own_id(pt, kind, id);

	if (v == NCG_NONE && id < ps->nstamp[kind] && ps->stamp[kind][id] == ps->part + 1)
		v = idtab_get(shared_ids(ps, pt, kind), id);
	return v;
}

/*
 * The name an id stands for at the current line, as the index saw it there:
 * the final table, unless the id changed after this line (id_change).
 */
static uint32_t id_lookup(struct parser *ps, enum id_kind kind, uint64_t id)
{
	const struct part *pt = parser_part(ps);
	uint32_t v =
	    ps->reread ? profile_part_id(ps->prof, pt, kind, id) : own_id(ps, pt, kind, id);

	if (ps->reread && pt->nchanges) {
		/* the first change of (kind, id) after this line: what it was before */
		size_t lo = 0, hi = pt->nchanges;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			const struct id_change *c = &pt->changes[mid];

			if (c->kind < kind ||
			    (c->kind == kind &&
			     (c->id < id || (c->id == id && c->line <= ps->lineno))))
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < pt->nchanges && pt->changes[lo].kind == kind && pt->changes[lo].id == id)
			v = pt->changes[lo].before;
	}
	return v == ID_UNDEFINED_USED ? NCG_NONE : v;
}

/* id_lookup() through the parser's id cache. */
static uint32_t id_lookup_cached(struct parser *ps, enum id_kind kind, uint64_t id)
{
	struct id_cache *c = &ps->icache[kind][id & (ID_CACHE - 1)];
	uint32_t part1 = ps->part + 1;

	if (c->part1 == part1 && part1 && c->id == id)
		return c->name;
	*c = (struct id_cache){id, id_lookup(ps, kind, id), part1};
	return c->name;
}

/* Every change of a compressed id while indexing goes through here. */
static void id_set(struct parser *ps, enum id_kind kind, uint64_t id, uint32_t v)
{
	if (ps->icache)
		ps->icache[kind][id & (ID_CACHE - 1)].part1 = 0;
	idtab_set(profile_part_ids(parser_part(ps), kind), id, v);
}

/*
 * Stamps the part's first definition of id (parser.stamp) when it is
 * shared_ids' own (defined_before() found it there); false when it is not,
 * or the id is too large for the stamps (8 times the ids shared_ids has,
 * at most), and the definition goes in the part's table.
 */
static bool id_stamp(struct parser *ps, const struct part *pt, enum id_kind kind, uint64_t id,
		     bool shared)
{
	size_t old = ps->nstamp[kind];

	/* (shared first: only then is this one pass, with files) */
	if (!shared || id >= st_add(st_mult(shared_ids(ps, pt, kind)->nset, 8), 4096))
		return false;
	ALLOC_GROW(ps->stamp[kind], id + 1, ps->nstamp[kind]);
	memset(ps->stamp[kind] + old, 0, (ps->nstamp[kind] - old) * sizeof(uint32_t));
	ps->stamp[kind][id] = ps->part + 1;
	ALLOC_GROW(ps->stamped, ps->nstamped + 1, ps->stamped_alloc);
	ps->stamped[ps->nstamped++] = (struct stamped){id, kind};
	if (ps->icache)
		ps->icache[kind][id & (ID_CACHE - 1)].part1 = 0;
	return true;
}

/*
 * The index defines id as name v (shared: the name shared_ids gives it, as
 * defined_before() found); a change the index already relied on is logged.
 */
static void id_define(struct parser *ps, enum id_kind kind, uint64_t id, uint32_t v, bool shared)
{
	struct part *pt = parser_part(ps);
	uint32_t old = own_id(ps, pt, kind, id);

	if (old == v)
		return; /* defined again, the same */
	if (old == ID_UNDEFINED_USED || old != NCG_NONE) {
		ALLOC_GROW(pt->changes, pt->nchanges + 1, pt->changes_alloc);
		pt->changes[pt->nchanges++] = (struct id_change){
		    .id = id,
		    .line = ps->lineno,
		    .before = old == ID_UNDEFINED_USED ? NCG_NONE : old,
		    .kind = kind,
		};
	} else if (id_stamp(ps, pt, kind, id, shared)) {
		return;
	}
	id_set(ps, kind, id, v);
}

void parser_own_stamped(struct parser *ps, struct part *pt)
{
	for (size_t i = 0; i < ps->nstamped; i++) {
		const struct stamped *st = &ps->stamped[i];
		struct idtab *own = profile_part_ids(pt, (int)st->kind);

		/* (unless the part defined it again otherwise: that one stays) */
		if (idtab_get(own, st->id) == NCG_NONE)
			idtab_set(own, st->id, idtab_get(shared_ids(ps, pt, st->kind), st->id));
	}
}

static const char *const kind_word[] = {"object", "file", "function"};

/*
 * A chunk's name for what the lines before the chunk defined (an id of the
 * part it starts in, the object or file current at its start).
 */
static uint32_t placeholder(struct parser *ps, enum ph_kind kind, uint64_t id)
{
	struct placeholders *ph = ps->ph;
	uint32_t v = names_add_opaque(&ps->prof->names);

	ALLOC_GROW(ph->v, ph->n + 1, ph->alloc);
	ph->v[ph->n++] = (struct placeholder){.name = v, .kind = kind, .id = id};
	if (kind <= PH_FN) /* the same id again is the same placeholder */
		id_set(ps, (enum id_kind)kind, id, v);
	return v;
}

/*
 * The name a definition "(id) name" gives again, found without hashing it:
 * the one the parts before gave the id (Callgrind defines every name again
 * in each part of a file of combined dumps), if it has these bytes; else
 * NCG_NONE. Names are interned, so the bytes are that name and no other.
 */
static uint32_t defined_before(struct parser *ps, enum id_kind kind, const struct lex_name *ln)
{
	const struct part *pt = parser_part(ps);
	uint32_t v;

	/* a chunk's profile shares no ids; the first part has none before it */
	if (ps->ph || ps->part == 0)
		return NCG_NONE;
	v = idtab_get(shared_ids(ps, pt, kind), ln->id);
	if (v >= ps->prof->names.nr || !span_eq(names_get(&ps->prof->names, v), ln->name))
		return NCG_NONE;
	return v;
}

/*
 * The name id of a name line ("name", "(id) name" or "(id)"), or NCG_NONE
 * with an error. A compressed id stands for a name, as the specification
 * says (3.1.5: ids may all be defined up front, before any fl=): which
 * function a name is depends on the object and file current where it is used.
 */
static uint32_t name_of(struct parser *ps, const char *p, enum id_kind kind)
{
	struct lex_name ln;
	uint32_t v;
	bool shared;

	if (lex_name(p, ps->end, &ln) != LEX_OK) {
		parser_error(ps, "bad compressed name '%s'", p, parser_line_len(p));
		return NCG_NONE;
	}
	if (ln.name.len && memchr(ln.name.ptr, '\0', ln.name.len)) {
		parser_error(ps, "NUL byte in name '%s'", ln.name.ptr, ln.name.len);
		return NCG_NONE;
	}
	if (ln.kind == LEX_NAME_REF) {
		v = ps->icache ? id_lookup_cached(ps, kind, ln.id) : id_lookup(ps, kind, ln.id);
		if (v == NCG_NONE && ps->ph && ps->part == 0)
			return placeholder(ps, (enum ph_kind)kind, ln.id);
		if (v == NCG_NONE) {
			diag_add(ps->diag, DIAG_ERROR, ps->lineno,
				 "undefined compressed %s id (%" PRIu64 ")", kind_word[kind],
				 ln.id);
			/* a definition further down must not change what this line meant */
			if (!ps->reread)
				id_set(ps, kind, ln.id, ID_UNDEFINED_USED);
		}
		return v;
	}
	if (ps->reread) /* the index pass defined every name; look up, never add */
		return names_find(&ps->prof->names, ln.name);
	v = ln.kind == LEX_NAME_DEFINE ? defined_before(ps, kind, &ln) : NCG_NONE;
	shared = v != NCG_NONE;
	if (!shared)
		v = names_intern(&ps->prof->names, ln.name);
	if (ln.kind == LEX_NAME_DEFINE)
		id_define(ps, kind, ln.id, v, shared);
	return v;
}

/* A name line turned into a name id (files, objects) or a function (make). */
static uint32_t resolve(struct parser *ps, const char *p, enum id_kind kind,
			uint32_t (*make)(struct parser *, uint32_t), bool *ok)
{
	uint32_t name = name_of(ps, p, kind);

	*ok = name != NCG_NONE;
	return *ok ? make(ps, name) : NCG_NONE;
}

static uint32_t function_for(struct parser *ps, uint32_t object, uint32_t file, uint32_t name)
{
	struct fn_cache *c;

	if (ps->reread) /* block mode has no cache */
		return profile_find_function(ps->prof, object, file, name);
	c = &ps->fcache[name & (FN_CACHE - 1)];
	if (c->fn != NCG_NONE && c->name == name && c->object == object && c->file == file)
		return c->fn;
	*c = (struct fn_cache){object, file, name, profile_function(ps->prof, object, file, name)};
	return c->fn;
}

static uint32_t make_fn(struct parser *ps, uint32_t name)
{
	return function_for(ps, ps->object, ps->fn_file, name);
}

static uint32_t make_callee(struct parser *ps, uint32_t name)
{
	uint32_t ob = ps->cobject != NCG_NONE ? ps->cobject : ps->object;
	uint32_t fl = ps->cfile != NCG_NONE ? ps->cfile : ps->file;

	return function_for(ps, ob, fl, name);
}

static uint32_t make_jump_target(struct parser *ps, uint32_t name)
{
	uint32_t fl = ps->jfile != NCG_NONE ? ps->jfile : ps->file;

	return function_for(ps, ps->object, fl, name);
}

/* The function that costs go to when its name could not be read. */
static uint32_t unknown_function(struct parser *ps)
{
	return function_for(ps, ps->object, ps->fn_file, NCG_NONE);
}

static void block_open(struct parser *ps, const char *start, uint64_t line)
{
	struct profile *prof = ps->prof;
	struct block *b;

	if (ps->reread)
		return;
	parser_block_close(ps, start);
	ALLOC_GROW(prof->blocks, prof->nblocks + 1, prof->blocks_alloc);
	if (prof->nblocks >= NCG_NONE - 1)
		die("too many function blocks");
	ps->block = (uint32_t)prof->nblocks++;
	b = &prof->blocks[ps->block];
	b->start = offset_of(ps, start);
	block_set_span(b, b->start, line);
	b->fn = ps->fn;
	b->part = ps->part;
	b->callee = ps->callee;
	ps->block_ctx = (struct block_ctx){
	    .object = ps->object,
	    .fn_file = ps->fn_file,
	    .file = ps->file,
	    .cobject = ps->cobject,
	    .cfile = ps->cfile,
	    .jfile = ps->jfile,
	    .jfn = ps->jfn,
	    .pos_set = ps->pos_set,
	    .line = line, /* (the end: parser_block_close()) */
	};
	memcpy(ps->block_ctx.pos, ps->pos, sizeof(ps->pos));
	profile_link_block(prof, ps->block);
}

/* fn is current from `start` (the first line of its block) on. */
static void set_function(struct parser *ps, uint32_t fn, const char *start, uint64_t line)
{
	ps->fn = fn;
	block_open(ps, start, line);
}

static void spec_calls(struct parser *ps, const char *p);
static void spec_jump(struct parser *ps, const char *p, bool cond);
static void ensure_function(struct parser *ps, const char *line, const char *what);

/* ---- position lines ---------------------------------------------------- */

static void spec_fn(struct parser *ps, const char *p, const char *next)
{
	bool ok;
	uint32_t fn;

	ps->file = ps->fn_file;
	fn = resolve(ps, p, ID_FN, make_fn, &ok);
	if (!ok && !ps->reread)
		fn = unknown_function(ps);
	set_function(ps, fn, next, ps->lineno + 1);
}

static void spec_name(struct parser *ps, const char *p, uint32_t *dst, enum id_kind kind)
{
	*dst = name_of(ps, p, kind);
}

/* Position lines "xx=...". Returns the key length, 0 when p is none. */
static size_t spec_key(const char *p)
{
	switch (p[0]) {
	case 'f':
		return (p[1] == 'n' || p[1] == 'l' || p[1] == 'i' || p[1] == 'e') && p[2] == '='
			   ? 3
			   : 0;
	case 'o':
		return p[1] == 'b' && p[2] == '=' ? 3 : 0;
	/*
	 * By the second byte, not one lex_prefix() after another: a cfn= line
	 * (a line in four of a real profile) tried four keys byte by byte.
	 */
	case 'j':
		switch (p[1]) {
		case 'c':
			return lex_prefix(p + 2, "nd=") ? 5 : 0;
		case 'u':
			return lex_prefix(p + 2, "mp=") ? 5 : 0;
		case 'f':
			return (p[2] == 'i' || p[2] == 'n') && p[3] == '=' ? 4 : 0;
		default:
			return 0;
		}
	case 'c':
		switch (p[1]) {
		case 'a':
			return lex_prefix(p + 2, "lls=") ? 6 : 0;
		case 'o':
			return p[2] == 'b' && p[3] == '=' ? 4 : 0;
		case 'f':
			return (p[2] == 'i' || p[2] == 'l' || p[2] == 'n') && p[3] == '=' ? 4 : 0;
		default:
			return 0;
		}
	default:
		return 0;
	}
}

/* p starts with a key spec_key() accepted. */
static void spec_line(struct parser *ps, const char *p, const char *next)
{
	bool ok;

	switch (p[0]) {
	case 'f':
		if (p[1] == 'n') {
			spec_fn(ps, p + 3, next);
		} else if (p[1] == 'l') {
			spec_name(ps, p + 3, &ps->fn_file, ID_FL);
			ps->file = ps->fn_file;
		} else {
			spec_name(ps, p + 3, &ps->file, ID_FL); /* fi=, fe= */
		}
		break;
	case 'o':
		spec_name(ps, p + 3, &ps->object, ID_OB);
		parser_block_close(ps, p);
		ps->fn = NCG_NONE;
		break;
	case 'j':
		if (p[1] == 'c')
			spec_jump(ps, p + 5, true);
		else if (p[1] == 'u')
			spec_jump(ps, p + 5, false);
		else if (p[2] == 'i')
			spec_name(ps, p + 4, &ps->jfile, ID_FL);
		else /* a name only: the index keeps no jumps, so no function is made */
			ps->jfn = name_of(ps, p + 4, ID_FN);
		break;
	case 'c':
		if (p[1] == 'a') {
			spec_calls(ps, p + 6);
		} else if (p[1] == 'o') {
			spec_name(ps, p + 4, &ps->cobject, ID_OB);
		} else if (p[2] == 'n') {
			ps->callee = resolve(ps, p + 4, ID_FN, make_callee, &ok);
			if (!ok)
				ps->callee = CALLEE_UNKNOWN; /* made only if a call uses it */
		} else {
			spec_name(ps, p + 4, &ps->cfile, ID_FL); /* cfi=, cfl= */
		}
		break;
	}
}

/* ---- calls and jumps --------------------------------------------------- */

/* "bad cost '20abc'; line ignored" and the like; p is where the token starts. */
static int bad_token(struct parser *ps, const char *what, const char *p, int r)
{
	static const char *const fmt[] = {
	    [LEX_NONE] = "bad %s '%s'; line ignored",
	    [LEX_BAD] = "bad %s '%s'; line ignored",
	    [LEX_OVERFLOW] = "%s '%s' does not fit in 64 bits; line ignored",
	    [LEX_NOBASE] = "relative %s '%s' without a previous absolute one; line ignored",
	    [LEX_NEGATIVE] = "%s '%s' goes below zero; line ignored",
	};
	char q[200];
	size_t n = 0;

	if (!ps->diag)
		return -1;
	if (r == LEX_NONE && *lex_skip_blanks(p) == '\n')
		return diag_add(ps->diag, DIAG_ERROR, ps->lineno, "missing %s; line ignored", what);
	while (p[n] != ' ' && p[n] != '\t' && p[n] != '\n')
		n++;
	diag_quote(q, p, n ? n : 1, 40);
	return diag_add(ps->diag, DIAG_ERROR, ps->lineno, fmt[r], what, q);
}

static int read_targets(struct parser *ps, const char **pp, uint64_t *target)
{
	const char *p = lex_skip_blanks(*pp);

	for (int i = 0; i < ps->npos; i++) {
		int r = lex_subpos(&p, ps->pos[i], ps->pos_set, &target[i]);

		if (r != LEX_OK)
			return bad_token(ps, "target position", p, r);
		p = lex_skip_blanks(p);
	}
	*pp = p;
	return 0;
}

static const char *plain_calls(struct parser *ps, const char *p, uint64_t *count);

/* The fields of a calls= line, any way they are written: whether they read well (said if not). */
static bool read_calls(struct parser *ps, const char *p, uint64_t *count)
{
	uint64_t extra;
	int r;

	p = lex_skip_blanks(p);
	r = lex_number(&p, count);
	if (r != LEX_OK) {
		bad_token(ps, "call count", p, r);
		return false;
	}
	if (read_targets(ps, &p, ps->target) < 0)
		return false;
	/* Xdebug writes "calls=1 0 0": tolerate further numbers. */
	while (*p != '\n' && lex_subpos(&p, 0, true, &extra) == LEX_OK)
		p = lex_skip_blanks(p);
	if (*p != '\n') {
		bad_token(ps, "calls= field", p, LEX_BAD);
		return false;
	}
	return true;
}

/* The edge cache's slot: by caller too, so that a callee called from many places spreads. */
static size_t edge_slot(uint32_t caller, uint32_t callee)
{
	return (callee ^ caller * 0x9e3779b1u) & (EDGE_CACHE - 1);
}

static void spec_calls(struct parser *ps, const char *p)
{
	const char *line = p - 6; /* "calls=" */
	uint64_t count;

	if (!plain_calls(ps, p, &count) && !read_calls(ps, p, &count)) {
		ps->next = NEXT_SKIP;
		return;
	}
	if (ps->callee == NCG_NONE) {
		if (ps->diag)
			diag_add(ps->diag, DIAG_ERROR, ps->lineno,
				 "calls= without a cfn= line; call ignored");
		ps->next = NEXT_SKIP;
		return;
	}
	ps->next = NEXT_CALL;
	ps->call_count = count;
	ps->call_line = ps->lineno;
	/* the next line's edge lookup: this miss was half of that line's time */
	if (ps->ecache && ps->fn != NCG_NONE) {
		__builtin_prefetch(&ps->ecache[edge_slot(ps->fn, ps->callee)]);
		if (ps->callee < ps->prof->nfuncs) /* (not CALLEE_UNKNOWN) */
			profile_edge_prefetch(ps->prof, ps->fn, ps->callee);
	}
	/*
	 * A call with no function current (before any fn=, after ob=, in a new
	 * part): the unnamed function's block starts here, so that its re-read
	 * reads the cost line as this call's, as the index does.
	 */
	if (ps->fn == NCG_NONE && !ps->reread)
		ensure_function(ps, line, "calls= line");
}

/* "jump=COUNT TARGET" and "jcnd=TAKEN/EXECUTED TARGET" or "jcnd=EXEC TAKEN TARGET". */
static void spec_jump(struct parser *ps, const char *p, bool cond)
{
	const char *line = p;
	uint64_t a = 0, b = 0;
	int r;

	p = lex_skip_blanks(p);
	r = cond ? lex_number_to(&p, &a, '/') : lex_number(&p, &a);
	if (r == LEX_OK && cond) {
		if (*p == '/') {
			p++;
			r = lex_number(&p, &b);
			ps->jump_taken = a; /* Valgrind: taken/executed */
			ps->jump_count = b;
		} else {
			p = lex_skip_blanks(p);
			r = lex_number(&p, &b);
			ps->jump_count = a; /* the spec: executed taken */
			ps->jump_taken = b;
		}
	} else {
		ps->jump_count = ps->jump_taken = a;
	}
	if (r != LEX_OK) {
		parser_error(ps,
			     cond ? "bad jcnd= line 'jcnd=%s'; ignored"
				  : "bad jump= line 'jump=%s'; ignored",
			     line, parser_line_len(line));
		return;
	}
	if (read_targets(ps, &p, ps->target) < 0)
		return;
	ps->jump_cond = cond;
	ps->next = NEXT_JUMP;
}

/* ---- cost lines -------------------------------------------------------- */

/* The rows are wide enough for the n values of a line (profile_widen). */
static void widen_for(struct parser *ps, size_t n)
{
	uint32_t need = ps->ev_identity ? (uint32_t)n : 0;

	for (size_t i = 0; !ps->ev_identity && i < n; i++)
		need = ps->evmap[i] + 1 > need ? ps->evmap[i] + 1 : need;
	if (need > ps->prof->stride)
		profile_widen(ps->prof, need);
}

static void add_costs(struct parser *ps, uint32_t fn, const uint64_t *vals, size_t n)
{
	uint64_t *row;
	bool ok = true;

	widen_for(ps, n);
	row = profile_self(ps->prof, fn);

	if (ps->ev_identity) {
		for (size_t i = 0; i < n; i++) {
			ok &= u64_add_sat(&row[i], vals[i]);
			ps->part_sum[i] += vals[i];
		}
	} else {
		for (size_t i = 0; i < n; i++) {
			ok &= u64_add_sat(&row[ps->evmap[i]], vals[i]);
			ps->part_sum[ps->evmap[i]] += vals[i];
		}
	}
	if (!ok) {
		ps->prof->saturated = true;
		diag_add(ps->diag, DIAG_ERROR, ps->lineno,
			 "a cost sum exceeds 64 bits; it is shown as %" PRIu64, UINT64_MAX);
	}
}

/* Costs with no function to go to: keep them, under an unnamed function. */
static void ensure_function(struct parser *ps, const char *line, const char *what)
{
	diag_add(ps->diag, DIAG_ERROR, ps->lineno,
		 "%s before any fn= line; its costs go to an unnamed function", what);
	set_function(ps, unknown_function(ps), line, ps->lineno);
}

static void commit_call(struct parser *ps, size_t n)
{
	struct profile *prof = ps->prof;
	struct edge_cache *c;
	bool ok = true;
	uint32_t e;

	if (ps->callee == CALLEE_UNKNOWN)
		ps->callee = make_callee(ps, NCG_NONE);
	c = &ps->ecache[edge_slot(ps->fn, ps->callee)];
	if (c->edge1 && c->caller == ps->fn && c->callee == ps->callee) {
		e = c->edge1 - 1;
	} else {
		e = profile_edge(prof, ps->fn, ps->callee);
		*c = (struct edge_cache){ps->fn, ps->callee, e + 1};
	}
	prof->funcs[ps->fn].used = prof->funcs[ps->callee].used = true;
	if (!u64_add_sat(&prof->edges[e].count, ps->call_count)) {
		prof->saturated = true;
		diag_add(ps->diag, DIAG_ERROR, ps->call_line,
			 "a call count sum exceeds 64 bits; it is shown as %" PRIu64, UINT64_MAX);
	}
	/* call costs are inclusive: they never add to a self sum */
	widen_for(ps, n);
	for (size_t i = 0; i < n; i++)
		ok &= profile_edge_add(prof, e, ps->evmap[i], ps->vals[i]);
	if (!ok) {
		prof->saturated = true;
		diag_add(ps->diag, DIAG_ERROR, ps->lineno,
			 "a call cost sum exceeds 64 bits; it is shown as %" PRIu64, UINT64_MAX);
	}
}

static void emit_line(struct parser *ps, size_t n, enum parse_line_kind kind)
{
	struct parse_line l;
	struct profile *prof = ps->prof;

	memset(&l, 0, sizeof(l));
	memset(ps->row, 0, prof->nev * sizeof(uint64_t));
	for (size_t i = 0; i < n; i++)
		ps->row[ps->evmap[i]] = ps->vals[i];
	events_derive_row(prof, ps->row); /* the inherited events of the line too */
	l.kind = kind;
	l.line = ps->lineno;
	l.file = ps->file;
	for (int i = 0; i < ps->npos; i++)
		l.pos[ps->pos_kind[i]] = ps->pos[i];
	l.costs = ps->row;
	if (kind == PARSE_CALL) {
		if (ps->callee == CALLEE_UNKNOWN)
			ps->callee = make_callee(ps, NCG_NONE);
		if (ps->callee == NCG_NONE)
			return; /* no such function in the index: nothing to point at */
		l.callee = ps->callee;
		l.count = ps->call_count;
	} else if (kind == PARSE_JUMP) {
		l.count = ps->jump_count;
		l.taken = ps->jump_taken;
		l.conditional = ps->jump_cond;
		l.target_fn = ps->jfn != NCG_NONE ? make_jump_target(ps, ps->jfn) : ps->fn;
		l.target_file = ps->jfile != NCG_NONE ? ps->jfile : ps->file;
		for (int i = 0; i < ps->npos; i++)
			l.target[ps->pos_kind[i]] = ps->target[i];
	}
	ps->sink(ps->sink_ctx, &l);
}

static void commit_line(struct parser *ps, size_t n)
{
	enum next_line next = ps->next;

	ps->next = NEXT_COST;
	if (next == NEXT_SKIP)
		return; /* the cost line of a rejected calls= line */
	if (next == NEXT_JUMP) {
		if (ps->reread)
			emit_line(ps, 0, PARSE_JUMP);
		ps->jfile = ps->jfn = NCG_NONE;
	}
	if (next == NEXT_CALL) {
		if (ps->reread)
			emit_line(ps, n, PARSE_CALL);
		else
			commit_call(ps, n);
		ps->cobject = ps->cfile = NCG_NONE;
		return;
	}
	if (!n)
		return; /* a position-only line (after jump=/jcnd=) */
	if (ps->reread) {
		emit_line(ps, n, PARSE_SELF);
		return;
	}
	ps->prof->funcs[ps->fn].used = true;
	add_costs(ps, ps->fn, ps->vals, n);
}

/* Report why a cost line was rejected, and skip it. */
static const char *reject_line(struct parser *ps, const char *p, int r, bool position)
{
	if (position)
		bad_token(ps, "position", p, r);
	else if (*p == '-')
		parser_error(ps, "negative cost '%s' (costs are unsigned); line ignored", p,
			     parser_token_len(p));
	else if (*p == '+' || *p == '*')
		bad_token(ps, "cost", p, LEX_BAD);
	else
		bad_token(ps, "cost", p, r);
	if (ps->next == NEXT_CALL)
		ps->next = NEXT_COST;
	return skip_line(ps, p);
}

static const char *plain_cost_line(const struct parser *ps, const char *p, uint64_t *pos,
				   uint32_t *n);

/*
 * "SUBPOSITIONS COSTS": the hot path of the whole program, about 80 million
 * times per gigabyte. Values go to ps->vals first so that a bad line changes
 * nothing.
 */
static const char *cost_line(struct parser *ps, const char *p)
{
	const char *line = p, *q;
	uint64_t pos[PROFILE_MAX_POS], *vals = ps->vals;
	uint32_t n = 0, nev = ps->nev;
	int r;

	/* whole, so that both copies have a fixed size: no call to memcpy a line */
	memcpy(pos, ps->pos, sizeof(pos));
	q = ps->pos_set ? plain_cost_line(ps, p, pos, &n) : NULL;
	if (q) {
		p = q;
		goto read;
	}
	n = 0;
	for (int i = 0; i < ps->npos; i++) {
		r = lex_subpos(&p, ps->pos[i], ps->pos_set, &pos[i]);
		if (r != LEX_OK)
			return reject_line(ps, p, r, true);
		p = lex_skip_blanks(p);
	}
	while (*p != '\n') {
		if (n == nev) {
			diag_add(ps->diag, DIAG_ERROR, ps->lineno,
				 "more costs than the %u event%s; line ignored", nev,
				 nev == 1 ? "" : "s");
			if (ps->next == NEXT_CALL)
				ps->next = NEXT_COST;
			return skip_line(ps, p);
		}
		r = lex_number(&p, &vals[n]);
		if (r != LEX_OK)
			return reject_line(ps, p, r, false);
		n++;
		if (*p == ' ' && !lex_is_blank(p[1]))
			p++; /* the usual single blank (not before a \r: "5 \r\n" ends there) */
		else
			p = lex_skip_blanks(p);
	}
read:
	/*
	 * before the positions move: a block opened here re-reads this line. Not
	 * for the cost line of a rejected calls=, which counts nowhere: the
	 * re-read would start at it and count it.
	 */
	if (ps->fn == NCG_NONE && !ps->reread && ps->next != NEXT_SKIP &&
	    (n || ps->next == NEXT_CALL))
		ensure_function(ps, line, "cost line");
	memcpy(ps->pos, pos, sizeof(pos));
	ps->pos_set = true;
	if (ps->next == NEXT_COST && n && !ps->reread) {
		ps->prof->funcs[ps->fn].used = true;
		add_costs(ps, ps->fn, vals, n);
	} else {
		commit_line(ps, n);
	}
	return p + 1;
}

/* ---- dispatch ---------------------------------------------------------- */

static bool is_cost_start(char c)
{
	return lex_class[(unsigned char)c] & LEX_COST;
}

/* Body lines need the events: line; without it nothing can be read. */
static bool needs_events(struct parser *ps, const char *p)
{
	char q[200];

	if (ps->have_events || ps->reread)
		return true;
	diag_quote(q, p, parser_line_len(p), 40);
	diag_add(ps->diag, DIAG_FATAL, ps->lineno,
		 "'%s' before the events: line (events: is required)", q);
	ps->stop = true;
	return false;
}

static bool is_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || c == ' ';
}

static const char *unknown_line(struct parser *ps, const char *p, const char *next)
{
	const char *k = p;

	if (lex_prefix(p, "====")) {
		/* Xdebug's profiler_append separator: a new profile follows */
		if (ps->part_body)
			parser_part_open(ps, p);
		return next;
	}
	while (is_key_char(*k))
		k++;
	if (k > p && *k == ':')
		return next; /* an unknown header key: the spec says ignore it */
	if (!ps->seen_any) {
		diag_add(ps->diag, DIAG_FATAL, ps->lineno, "not a callgrind or cachegrind profile");
		ps->stop = true;
	} else if (k > p && *k == '=') {
		parser_error(ps, "unknown position line '%s'; ignored", p, parser_line_len(p));
	} else {
		parser_error(ps, "unrecognized line '%s'; ignored", p, parser_line_len(p));
	}
	return next;
}

/* Anything that is not a cost line. Returns the start of the next line. */
static const char *other_line(struct parser *ps, const char *p)
{
	const char *next = skip_line(ps, p);

	if (*p == '#' || *p == '\n')
		return next;
	if (ps->next != NEXT_COST)
		parser_pending_check(
		    ps, p); /* a calls= without its cost line, or a jump= without its line */
	if (spec_key(p)) {
		if (needs_events(ps, p)) {
			ps->part_body = ps->seen_any = true;
			spec_line(ps, p, next);
		}
		return next;
	}
	if (ps->reread)
		return next; /* header lines inside a block: nothing to report */
	if (parser_header_line(ps, p)) {
		ps->seen_any = true;
		return next;
	}
	return unknown_line(ps, p, next);
}

static const char *body_line(struct parser *ps, const char *p)
{
	if (!ps->have_events && !needs_events(ps, p))
		return skip_line(ps, p);
	ps->part_body = ps->seen_any = true;
	return cost_line(ps, p);
}

/*
 * The fast path's tokens. Each returns the end of what it read, or NULL for
 * whatever it does not take (cost_line() then reads the line again and says
 * what is wrong). The pointer stays in a register: with lex_number()'s
 * (const char **) the compiler stored it back at every byte.
 */
/* "0x..." at p: the address an instr position starts a block with. */
static inline const char *fast_hex(const char *p, uint64_t *out)
{
	const char *s = p += 2;
	uint64_t v = 0;
	unsigned d;

	while ((d = lex_hex_plus1[(unsigned char)*p] - 1u) <= 15) {
		v = v << 4 | d;
		p++;
	}
	if (p == s || p - s > 16 || !lex_is_delim(*p))
		return NULL; /* none, too long to fit, or garbage: cost_line() says which */
	*out = v;
	return p;
}

/*
 * A decimal (or 0x hex) number then a delimiter. The digit loop is
 * plain_decimal()'s written again on purpose: through a call to it (and a
 * delimiter test after) the same bytes gave the same results for 7.6% more
 * instructions on a 25 MB profile, this being the hot path.
 */
static inline const char *fast_number(const char *p, uint64_t *out)
{
	const char *s = p;
	unsigned d = (unsigned char)*p - '0';
	uint64_t v;

	if (d > 9)
		return NULL;
	v = d;
	while ((d = (unsigned char)*++p - '0') <= 9)
		v = v * 10 + d;
	if (!lex_is_delim(*p)) {
		if (p - s != 1 || *s != '0' || (*p | 0x20) != 'x')
			return NULL;
		return fast_hex(s, out);
	}
	if (p - s > 19) /* may not fit: lex_number_slow() knows */
		return NULL;
	*out = v;
	return p;
}

/*
 * The digits at p, at most 19 of them, as a number: the end of the digits,
 * or NULL. The caller tests the byte there, the one the loop ended on, for
 * the space or '\n' that nearly always follows: no class table, no blank
 * skipping, for most of the values of a profile.
 */
static inline const char *plain_decimal(const char *p, uint64_t *out)
{
	const char *s = p;
	unsigned d = (unsigned char)*p - '0';
	uint64_t v;

	if (d > 9)
		return NULL;
	v = d;
	while ((d = (unsigned char)*++p - '0') <= 9)
		v = v * 10 + d;
	if (p - s > 19)
		return NULL;
	*out = v;
	return p;
}

/* Blanks between tokens: nearly always one space, so that is one add, no loop. */
static inline const char *fast_blanks(const char *p)
{
	p += *p == ' ';
	return lex_is_blank(*p) ? lex_skip_blanks(p) : p;
}

/* A subposition; the caller has a previous position (cost_line() reads the first). */
static inline const char *fast_subpos(const char *p, uint64_t base, uint64_t *out)
{
	uint64_t v;

	switch (*p) {
	case '*':
		if (!lex_is_delim(p[1]))
			return NULL;
		*out = base;
		return p + 1;
	case '+':
		p = fast_number(p + 1, &v);
		if (!p || __builtin_add_overflow(base, v, out))
			return NULL;
		return p;
	case '-':
		p = fast_number(p + 1, &v);
		if (!p || v > base)
			return NULL;
		*out = base - v;
		return p;
	default:
		return fast_number(p, out);
	}
}

/*
 * A value's add, checked: whether it wraps, or (read by words) whether it
 * takes the cell to 2^63 or more, where the unchecked adds of the word
 * readers could wrap it (self_begin()).
 */
static inline bool add_checked(uint64_t *cell, uint64_t v, const bool swar)
{
	bool wrap = __builtin_add_overflow(*cell, v, cell);

	return swar ? wrap | (*cell >> 63) : wrap;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/*
 * The word readers: the fast tokens again, 8 bytes at a time, not one.
 * A word read at a token may pass the end of its line by 7 bytes, so they
 * read only lines before swar_limit(). Little-endian: the first byte of a
 * word is its lowest.
 */
#define SWAR 1

static inline uint64_t load8(const char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

static inline uint32_t load4(const char *p)
{
	uint32_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

/*
 * The number of up to 8 digits less '0' each (t), moved to the top bytes
 * of t with zeros before: three multiplies, each joining the pairs of
 * groups of digits that the one before made.
 */
static inline __attribute__((always_inline)) uint64_t swar_value(uint64_t t)
{
	t = (t * 2561 >> 8) & 0x00FF00FF00FF00FFULL;     /* pairs: 10a + b */
	t = (t * 6553601 >> 16) & 0x0000FFFF0000FFFFULL; /* fours: 100a + b */
	return t * 42949672960001ULL >> 32;              /* eight: 10000a + b */
}

/*
 * The bytes of w minus '0' into *t, and the high bit of the bytes that are
 * no digit: exact from the first byte up to the first that is none. The
 * bytes of t are digits where they are 0 to 9; the first byte that is no
 * digit has its high bit set in t or in t + 0x76 (the borrows and carries
 * of the word's arithmetic only go up, past the digits before it).
 */
static inline __attribute__((always_inline)) uint64_t swar_nondigits(uint64_t w, uint64_t *t)
{
	*t = w - 0x3030303030303030ULL;
	return (*t | (*t + 0x7676767676767676ULL)) & 0x8080808080808080ULL;
}

/*
 * The digits at the low bytes of w, a word as read: how many (0 to 8) and,
 * from 1 on, their number. One or two digits, most numbers, take no
 * multiply.
 */
static inline __attribute__((always_inline)) unsigned swar_digits(uint64_t w, uint64_t *v)
{
	uint64_t t, m = swar_nondigits(w, &t);
	unsigned b;

	if (!m) {
		*v = swar_value(t);
		return 8;
	}
	b = (unsigned)__builtin_ctzll(m); /* 8 * digits + 7 */
	if (b == 15) {
		*v = t & 0xff;
		return 1;
	}
	if (b == 7)
		return 0;
	if (b == 23) {
		*v = (t & 0xff) * 10 + (t >> 8 & 0xff);
		return 2;
	}
	*v = swar_value(t << (71 - b));
	return b >> 3;
}

/*
 * swar_digits() without a branch on the count, where the caller has read
 * the values of one to three digits its own way: the count (0 to 7; 7 for
 * 8 or more, with a digit in *c), the number when 1 to 7, and in *c the
 * byte after the digits.
 */
static inline __attribute__((always_inline)) unsigned swar_token(uint64_t w, uint64_t *v,
								 unsigned *c)
{
	uint64_t t, m = swar_nondigits(w, &t);
	unsigned b = (unsigned)__builtin_ctzll(m | 1ULL << 63); /* 8 * digits + 7 */

	*c = (unsigned)(w >> (b - 7)) & 0xff;
	*v = swar_value(t << ((71 - b) & 63));
	return b >> 3;
}

/*
 * plain_decimal() by words: a number of 8 digits or more reads the word
 * after them too (from within the line, so no further past its end), up to
 * 15 digits; from 16 on, the byte loop reads on. The inclusive costs of
 * calls are long: 13 of 8 to 14 digits on a call's line of a generated
 * profile took a tenth of the reader's instructions outside the line
 * machine, a byte at a time.
 */
static inline __attribute__((always_inline)) const char *swar_decimal(const char *p, uint64_t *out)
{
	static const uint64_t pow10[8] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};
	uint64_t high;
	unsigned n = swar_digits(load8(p), out);

	if (n < 8)
		return n ? p + n : NULL;
	high = *out;
	n = swar_digits(load8(p + 8), out);
	if (n == 8)
		return plain_decimal(p, out);
	*out = n ? high * pow10[n] + *out : high;
	return p + 8 + n;
}

#define BYTES(x) (0x0101010101010101ULL * (x))

/*
 * The hex digits after "0x" at p, read from one word as fast_hex() reads
 * them, where there are 1 to 7 and a space or the line's end after them:
 * the end of the digits, or NULL for anything else (fast_hex() then reads
 * it). The address of an instruction starts each function of a profile of
 * instructions and is the target of each of its calls; a byte at a time,
 * fast_hex() took 5% of such a profile's instructions. A byte is classed
 * with its high bit set (no borrow passes from one byte to the next), and
 * the digits' values are joined as swar_value() joins decimal ones.
 */
static inline __attribute__((always_inline)) const char *swar_hex(const char *p, uint64_t *out)
{
	uint64_t w = load8(p), l = w | BYTES(0x80), lc = l | BYTES(0x20), t;
	uint64_t digit = (l - BYTES(0x30)) & ~(l - BYTES(0x3a));
	uint64_t letter = (lc - BYTES(0x61)) & ~(lc - BYTES(0x67)) & BYTES(0x80);
	uint64_t other = ~((digit | letter) & ~w) & BYTES(0x80); /* (w's high bit: no ASCII) */
	unsigned b = (unsigned)__builtin_ctzll(other | 1ULL << 63), k = b >> 3;
	unsigned c = (unsigned)(w >> (b - 7)) & 0xff;

	if (k - 1 >= 7 || (c != ' ' && c != '\n'))
		return NULL;
	t = ((w & BYTES(0x0f)) + (letter >> 7) * 9) << (64 - 8 * k); /* 'a' is 1 + 9 */
	t = (t * 4097 >> 8) & 0x00FF00FF00FF00FFULL;                 /* pairs: 16a + b */
	t = (t * 16777217 >> 16) & 0x0000FFFF0000FFFFULL;            /* fours: 256a + b */
	*out = t * 0x0001000000000001ULL >> 32;                      /* eight: 65536a + b */
	return p + k;
}

/* fast_number() by words: hex and garbage after the digits go its way. */
static inline __attribute__((always_inline)) const char *swar_number(const char *p, uint64_t *out)
{
	const char *q = swar_decimal(p, out);

	return q && !lex_is_delim(*q) ? fast_number(p, out) : q;
}

/*
 * A subposition followed by one space, as fast_subpos() reads it against
 * base (into *out), from one word: the next token, or NULL for any other
 * (then fast_subpos() reads it, and says what it says of it).
 */
static inline __attribute__((always_inline)) const char *swar_pos(const char *p, uint64_t base,
								  uint64_t *out)
{
	uint64_t w = load8(p), v;
	unsigned c = w & 0xff, sign = c == '+' || c == '-', n;

	if (c == '*') {
		if ((w >> 8 & 0xff) != ' ')
			return NULL;
		*out = base;
		return p + 2;
	}
	n = swar_digits(sign ? w >> 8 : w, &v);
	if (n - 1 >= 7 || p[sign + n] != ' ')
		return NULL;
	if (c == '+') {
		if (__builtin_add_overflow(base, v, out))
			return NULL;
	} else if (c == '-') {
		if (v > base)
			return NULL;
		*out = base - v;
	} else {
		*out = v;
	}
	return p + sign + n + 1;
}

/*
 * The digit of a "D" followed by c at the low bytes of w, or more than 9:
 * the two bytes minus '0' and c are the digit and 0, or more.
 */
static inline uint32_t swar_digit_then(uint32_t w, char c)
{
	return (w & 0xffff) - ('0' | (uint32_t)c << 8);
}

/*
 * The number of a "DD" followed by c at the low bytes of w, or more than
 * 99: the three bytes minus "00" and c are two digits and 0 exactly when
 * they are at most 0x0909 with a low byte of 9 at most (a byte under '0'
 * takes one from the byte after it, and is over 9 itself).
 */
static inline uint32_t swar_digits_then(uint32_t w, char c)
{
	uint32_t x = (w & 0xffffff) - ('0' | '0' << 8 | (uint32_t)c << 16);

	return x <= 0x909 && (x & 0xff) <= 9 ? (x & 0xff) * 10 + (x >> 8) : 100;
}

/*
 * The number of a "DDD" followed by c in w, or more than 999: as
 * swar_digits_then(), the four bytes minus "000" and c are three digits
 * and 0 exactly when they are at most 0x090909 with low bytes of 9 at most.
 */
static inline uint32_t swar_3digits_then(uint32_t w, char c)
{
	uint32_t x = w - ('0' | '0' << 8 | '0' << 16 | (uint32_t)c << 24);

	return x <= 0x90909 && (x & 0xff) <= 9 && (x >> 8 & 0xff) <= 9
		   ? (x & 0xff) * 100 + (x >> 8 & 0xff) * 10 + (x >> 16)
		   : 1000;
}

/* The digit of a "+D " at the low bytes of w, or more than 9. */
static inline uint32_t swar_plus_digit(uint32_t w)
{
	/* "+D " minus "+0 " is the digit in the second byte, and nothing else */
	uint32_t d = (w & 0xffffff) - ('+' | '0' << 8 | ' ' << 16);

	return d >> 8 | d << 24;
}

/*
 * "+D ", "* " or "D " at *p, most subpositions of a profile of
 * instructions, by one compare: as fast_subpos() reads them. Moves *p to
 * the next token. The first subposition is mostly "+D " (the instruction
 * moves on), the others "* " or "D " (the line stays, or is 0).
 */
static inline __attribute__((always_inline)) bool swar_pos_shape(const char **p, uint64_t base,
								 uint64_t *out, const bool first)
{
	uint32_t w = load4(*p), plus = swar_plus_digit(w), d;

	if (first && plus <= 9 && !__builtin_add_overflow(base, plus, out)) {
		*p += 3;
		return true;
	}
	if ((w & 0xffff) == ('*' | ' ' << 8)) {
		*out = base;
		*p += 2;
		return true;
	}
	if ((d = swar_digit_then(w, ' ')) <= 9) {
		*out = d;
		*p += 2;
		return true;
	}
	if (!first && plus <= 9 && !__builtin_add_overflow(base, plus, out)) {
		*p += 3;
		return true;
	}
	return false;
}

/*
 * The first line of [start, end) that a word read at one of its tokens
 * could read past end from: the lines before it end 8 bytes before end,
 * or more.
 */
static const char *swar_limit(const char *start, const char *end)
{
	size_t n;

	if (end - start < 9)
		return start;
	n = (size_t)(end - start) - 9;
	while (n && start[n] != '\n')
		n--;
	return start[n] == '\n' ? start + n + 1 : start;
}
#else
static inline const char *swar_limit(const char *start, const char *end)
{
	(void)end;
	return start; /* no line is read by words */
}
#endif

/* fast_subpos(), with an instruction's address read by a word where words may be read. */
static inline __attribute__((always_inline)) const char *
words_subpos(const char *p, uint64_t base, uint64_t *out, const bool words)
{
#ifdef SWAR
	const char *q;

	if (words && p[0] == '0' && (p[1] | 0x20) == 'x' && (q = swar_hex(p + 2, out)))
		return q;
#else
	(void)words;
#endif
	return fast_subpos(p, base, out);
}

/* plain_decimal(), by words where words may be read. */
static inline __attribute__((always_inline)) const char *words_decimal(const char *p, uint64_t *out,
								       const bool words)
{
#ifdef SWAR
	if (words)
		return swar_decimal(p, out);
#else
	(void)words;
#endif
	return plain_decimal(p, out);
}

/*
 * A cost line as Callgrind writes it, read with the fast tokens: the
 * subpositions (against ps->pos, which is set) into pos, the values into
 * ps->vals and their number into *n, each token followed by one space or the
 * line's end. Returns the line's '\n', or NULL for anything else (more
 * blanks, a '\r', hex values, too many values, garbage): cost_line() then
 * reads the whole line again its general way, which gives what it gave.
 * The cost line of each call and each line after a position line come here.
 */
static const char *plain_cost_line(const struct parser *ps, const char *p, uint64_t *pos,
				   uint32_t *n)
{
	uint64_t *vals = ps->vals;
	const char *q;
	uint32_t k = 0;
	const bool words = p < ps->words_end;

	for (int i = 0; i < ps->npos; i++) {
		q = words_subpos(p, ps->pos[i], &pos[i], words);
		if (!q)
			return NULL;
		p = q + (*q == ' ');
	}
	while (*p != '\n') {
		if (k == ps->nev || !(q = words_decimal(p, &vals[k], words)))
			return NULL;
		k++;
		if (*q == ' ')
			p = q + 1;
		else if (*q == '\n')
			p = q;
		else
			return NULL;
	}
	*n = k;
	return p;
}

/*
 * The fields of a calls= line as Callgrind writes them ("calls=COUNT TARGET",
 * one space after each, a position set), read with the fast tokens: the
 * count into *count, the target into ps->target. Returns the line's '\n',
 * or NULL for anything else: read_calls() then reads the line its general
 * way, which writes the same target and says what is wrong, if anything.
 */
static const char *plain_calls(struct parser *ps, const char *p, uint64_t *count)
{
	const char *q = plain_decimal(p, count);

	if (!q || *q != ' ' || !ps->pos_set)
		return NULL;
	p = q + 1;
	for (int i = 0; i < ps->npos; i++) {
		q = words_subpos(p, ps->pos[i], &ps->target[i], p < ps->words_end);
		if (!q)
			return NULL;
		p = q + (*q == ' ');
	}
	return *p == '\n' ? p : NULL;
}

/*
 * Whether the cost line at q is one Callgrind writes after fn=: absolute
 * positions (decimal, or the hex address of an instruction), decimal
 * values, one space or the line's end after each, no more values than
 * events. Such a line sets the position (line_sets_pos() says yes to it
 * too: fast_number() takes no hex that lex_number() does not); false for
 * anything else, which line_sets_pos() then reads its general way. Spares
 * each block's close the cursor stored back at every token.
 */
static bool plain_sets_pos(const struct parser *ps, const char *q)
{
	uint64_t v;

	for (int i = 0; i < ps->npos; i++) {
		if (!(q = fast_number(q, &v)) || (*q != ' ' && *q != '\n'))
			return false;
		q += *q == ' ';
	}
	for (uint32_t n = 0; *q != '\n'; n++) {
		if (n == ps->nev || !(q = plain_decimal(q, &v)) || (*q != ' ' && *q != '\n'))
			return false;
		q += *q == ' ';
	}
	return true;
}

/*
 * A well-formed "jump=N TARGET" or "jcnd=N/N TARGET" line, read only to be
 * skipped: the index keeps nothing of jumps, and the line after one is an
 * ordinary cost line here. Read with the fast path's tokens, which keep
 * the pointer in a register (lex_number() and lex_subpos() store it back).
 * Returns the next line, or NULL for anything else (the general path then
 * reads it and reports what is wrong); pos: the current position.
 */
static inline __attribute__((always_inline)) const char *
skip_jump(const char *p, const int npos, const uint64_t *pos, const bool swar)
{
	uint64_t v;
	bool cond = p[1] == 'c';

#ifdef SWAR
	if (swar) {
		/* "jcnd=" and "jump=" as the first five bytes of a word */
		uint64_t key = load8(p) & 0xffffffffffULL;

		if (key != 0x3d646e636aULL && key != 0x3d706d756aULL)
			return NULL;
		p += 5;
		/* TAKEN/: plain_decimal() takes the same 1 to 19 digits */
		if (cond && (!(p = swar_decimal(p, &v)) || *p++ != '/'))
			return NULL;
		p = swar_number(p, &v);
		for (int i = 0; p && i < npos; i++) {
			const char *q = swar_pos(p = lex_skip_blanks(p), pos[i], &v);

			p = q ? q : fast_subpos(p, pos[i], &v);
		}
		if (!p)
			return NULL;
		p = lex_skip_blanks(p);
		return *p == '\n' ? p + 1 : NULL;
	}
#else
	(void)swar;
#endif
	if (!lex_prefix(p + 1, cond ? "cnd=" : "ump="))
		return NULL;
	p += 5;
	if (cond) { /* TAKEN/: digits and the slash */
		const char *s = p;

		while ((unsigned)(*p - '0') <= 9)
			p++;
		if (p == s || p - s > 19 || *p++ != '/')
			return NULL;
	}
	p = fast_number(p, &v);
	for (int i = 0; p && i < npos; i++)
		p = fast_subpos(lex_skip_blanks(p), pos[i], &v);
	if (!p)
		return NULL;
	p = lex_skip_blanks(p);
	return *p == '\n' ? p + 1 : NULL;
}

/* sum += row - before: wrapping, as adding each value into sum would */
static void run_sum(uint64_t *sum, const uint64_t *row, const uint64_t *before, uint32_t nev)
{
	for (uint32_t e = 0; e < nev; e++)
		sum[e] += row[e] - before[e];
}

/*
 * Takes back the first n values of a line the fast path had added to row:
 * the line is read again (its first n values read well once) rather than
 * each value kept on the way, since a line is taken back so rarely.
 */
static void self_undo(const char *p, int npos, uint64_t *row, uint32_t n)
{
	uint64_t v = 0;

	for (int i = 0; i < npos; i++) {
		while (!lex_is_delim(*p))
			p++;
		p = lex_skip_blanks(p);
	}
	for (uint32_t j = 0; j < n; j++) {
		p = fast_number(p, &v);
		row[j] -= v;
		p = lex_skip_blanks(p);
	}
}

/*
 * The fast path: a run of plain self-cost lines of the current function,
 * with the parser state in locals. Values are added as they are read; a line
 * that turns out bad (or overflows) is taken back exactly (wrapping adds are
 * undone by wrapping subtractions) and handed to cost_line(), which reports
 * it. Stops before the first line that is not a cost line. The part's sum
 * grows by what the row grew over the whole run, not value by value.
 * Always inlined into self_run(), once for each usual number of positions,
 * so that the loop over them unrolls.
 */
static inline __attribute__((always_inline)) const char *
self_lines(struct parser *ps, const char *p, const int npos, const bool swar, const char *limit)
{
	/* mark <= end: the next progress report is never past the range */
	const char *mark = swar && limit < ps->mark ? limit : ps->mark, *line, *q;
	/* no row before the first values (stride 0): the first value goes the slow way */
	uint64_t *row = ps->prof->stride ? profile_self(ps->prof, ps->fn) : NULL;
	uint64_t *sum = ps->part_sum, *before = ps->vals;
	uint64_t lineno = ps->lineno;
	/* the last line's positions and this one's, two arrays that change roles */
	uint64_t pa[PROFILE_MAX_POS], pb[PROFILE_MAX_POS], *pos = pa, *np = pb, *t;
	/* a value past the rows' width goes the slow way, which widens them */
	uint32_t nev = ps->nev < ps->prof->stride ? ps->nev : ps->prof->stride, n;

	ps->part_body = ps->seen_any = true;
	ps->prof->funcs[ps->fn].used = true;
	if (!ps->pos_set) /* the first line: relative positions have no base, say so */
		return cost_line(ps, p);
	memcpy(pa, ps->pos, sizeof(pa));
	memcpy(pb, ps->pos, sizeof(pb));
	if (ps->next == NEXT_JUMP) {
		/* the index keeps no jumps: their line is an ordinary cost line */
		ps->next = NEXT_COST;
		ps->jfile = ps->jfn = NCG_NONE;
	}
	for (;;) {
		line = p;
#pragma GCC unroll 3
		for (int i = 0; i < npos; i++) {
#ifdef SWAR
			if (swar && swar_pos_shape(&p, pos[i], &np[i], i == 0))
				continue;
#endif
			/*
			 * Not "+D ", "* " or "D ": the first may start no cost line,
			 * asked here and not after each line (+D starts most of them).
			 */
			if (i == 0 && !is_cost_start(*p))
				goto other;
#ifdef SWAR
			if (swar && (q = swar_pos(p, pos[i], &np[i]))) {
				p = q;
				continue;
			}
#endif
			q = words_subpos(p, pos[i], &np[i], swar);
			if (!q)
				goto slow;
			/* one space; another blank fails the next token, read slowly */
			p = q + (*q == ' ');
		}
		for (n = 0;; n++) {
			uint64_t v;

			/* the usual value: decimal, then one space or the line's end */
#ifdef SWAR
			if (swar && n < nev) {
				uint32_t w = load4(p), d;
				uint64_t t8;
				unsigned k, c;

				/* a digit, then a space or the line's end: unchecked adds
				 * (self_begin()) */
				if ((d = swar_digit_then(w, ' ')) <= 9) {
					row[n] += d;
					p += 2;
					continue;
				}
				if ((d = swar_digit_then(w, '\n')) <= 9) {
					row[n++] += d;
					p++;
					break;
				}
				/* two digits, then a space or the line's end, likewise */
				if ((d = swar_digits_then(w, ' ')) <= 99) {
					row[n] += d;
					p += 3;
					continue;
				}
				if ((d = swar_digits_then(w, '\n')) <= 99) {
					row[n++] += d;
					p += 2;
					break;
				}
				/* three digits, likewise */
				if ((d = swar_3digits_then(w, ' ')) <= 999) {
					row[n] += d;
					p += 4;
					continue;
				}
				if ((d = swar_3digits_then(w, '\n')) <= 999) {
					row[n++] += d;
					p += 3;
					break;
				}
				/* 4 to 7 digits: under 2^24, unchecked too (in a register:
				 * v's address goes to the byte readers, so v is on the stack) */
				k = swar_token(load8(p), &t8, &c);
				if (k - 1 < 7 && c == ' ') {
					row[n] += t8;
					p += k + 1;
					continue;
				}
				if (k - 1 < 7 && c == '\n') {
					row[n++] += t8;
					p += k;
					break;
				}
			}
#endif
			/* a value that wraps its cell is added, then the line taken back */
			q = n < nev ? plain_decimal(p, &v) : NULL;
			if (q && *q == ' ') {
				if (add_checked(&row[n], v, swar))
					goto undo_with;
				p = q + 1;
				continue;
			}
			if (q && *q == '\n') {
				if (add_checked(&row[n], v, swar))
					goto undo_with;
				n++;
				p = q;
				break;
			}
			/* anything else: a trailing blank, more blanks, hex, garbage */
			p = lex_skip_blanks(p);
			if (*p == '\n')
				break;
			if (n == nev || !(q = fast_number(p, &v)))
				goto undo;
			if (add_checked(&row[n], v, swar))
				goto undo_with;
			p = fast_blanks(q);
		}
		/*
		 * This line's positions are the next one's base: no copy. Copied,
		 * np[0] and np[1] were read back as one 16-byte load from two
		 * 8-byte stores just made, which the store buffer cannot forward:
		 * a stall on every line (9% of the line machine's samples).
		 */
		t = pos;
		pos = np;
		np = t;
		p++;
		if (p >= mark)
			break;
		lineno++; /* (the next line's, if it is one of the run's) */
		continue;
	other:
		/*
		 * A jump line (the index keeps no jumps: the line after it is an
		 * ordinary cost line), or the run's end: then this line is not
		 * the run's, and lineno goes back to the last line read.
		 */
		if (*p != 'j' || !(q = skip_jump(p, npos, pos, swar))) {
			lineno--;
			break;
		}
		p = q;
		if (p >= mark)
			break;
		lineno++;
	}
	run_sum(sum, row, before, nev);
	memcpy(ps->pos, pos, sizeof(pa));
	ps->lineno = lineno;
	return p;
undo_with: /* value n was added too */
	n++;
undo:
	self_undo(line, npos, row, n);
slow:
	run_sum(sum, row, before, nev);
	memcpy(ps->pos, pos, sizeof(pa));
	ps->lineno = lineno;
	return cost_line(ps, line);
}

/*
 * Whether the word readers may read the run from p: the lines before limit
 * may be read by words (swar_limit()), and the self row is below 2^63, so
 * that the values under 8 digits that they add unchecked cannot wrap it.
 * A run stops at the next mark, 32 MiB on at most, so they add less than
 * 2^48 to a cell (2^24 lines, each under 2^24); the longer values are
 * checked, and a line that takes a cell to 2^63 goes the slow way, which
 * adds it as it does any line.
 */
static bool self_begin(struct parser *ps, const char *p, const char *limit)
{
	uint32_t nev = ps->nev < ps->prof->stride ? ps->nev : ps->prof->stride;
	const uint64_t *row = profile_self(ps->prof, ps->fn);
	uint64_t top = 0;

	/* the row as it was, for the part's sum (self_lines()) */
	for (uint32_t e = 0; e < nev; e++)
		top |= ps->vals[e] = row[e];
	return p < limit && !(top >> 63);
}

/* limit: the lines before it may be read by words (swar_limit()) */
static const char *self_run(struct parser *ps, const char *p, const char *limit)
{
	bool swar = self_begin(ps, p, limit);

	switch (ps->npos) {
	case 1: /* line */
		return swar ? self_lines(ps, p, 1, true, limit) : self_lines(ps, p, 1, false, NULL);
	case 2: /* instr line, --dump-instr=yes */
		return swar ? self_lines(ps, p, 2, true, limit) : self_lines(ps, p, 2, false, NULL);
	default:
		return swar ? self_lines(ps, p, ps->npos, true, limit)
			    : self_lines(ps, p, ps->npos, false, NULL);
	}
}

/* Whether the next cost lines can take the fast path. */
static bool fast_ok(const struct parser *ps)
{
	return (ps->next == NEXT_COST || ps->next == NEXT_JUMP) && ps->fn != NCG_NONE &&
	       ps->ev_identity && !ps->reread && ps->have_events;
}

static const char *next_mark(const char *p, const char *end, const struct parse_progress *pr)
{
	size_t step = pr && pr->cancel ? CANCEL_STEP : PROGRESS_STEP;

	return (size_t)(end - p) > step ? p + step : end;
}

static void run(struct parser *ps, const char *p, const char *end, uint64_t off,
		const struct parse_progress *progress, uint64_t total)
{
	const char *limit = swar_limit(p, end);

	ps->end = end;
	ps->words_end = limit;
	ps->range_start = p;
	ps->range_off = off;
	ps->mark = next_mark(p, end, progress);
	while (p < end && !ps->stop) {
		ps->lineno++;
		if (is_cost_start(*p)) {
			p = fast_ok(ps) ? self_run(ps, p, limit) : body_line(ps, p);
		} else if (lex_is_blank(*p)) {
			p = lex_skip_blanks(p);
			if (*p == '\n') {
				p++;
				continue;
			}
			p = is_cost_start(*p) ? body_line(ps, p) : other_line(ps, p);
		} else {
			p = other_line(ps, p);
		}
		if (p >= ps->mark) {
			if (progress && progress->fn)
				progress->fn(progress->ctx,
					     ps->progress_base + off +
						 (uint64_t)(p - ps->range_start),
					     total);
			if (progress && progress->cancel && atomic_load(progress->cancel))
				ps->stop = true; /* the caller throws the result away */
			ps->mark = next_mark(p, end, progress);
		}
	}
}

static void parser_init(struct parser *ps, struct profile *prof, struct diag *d)
{
	memset(ps, 0, sizeof(*ps));
	ps->prof = prof;
	ps->diag = d;
	ps->part = NCG_NONE;
	ps->block = NCG_NONE;
	ps->npos = 1;
	ps->pos_kind[0] = POS_LINE;
	parser_context_reset(ps);
}

/* The caches of a parser that indexes (not in block mode). */
static void parser_caches(struct parser *ps)
{
	ps->icache = xcalloc(3, sizeof(*ps->icache));
	ps->fcache = xmalloc_array(FN_CACHE, sizeof(*ps->fcache));
	ps->ecache = xcalloc(EDGE_CACHE, sizeof(*ps->ecache)); /* zero: empty */
	for (size_t i = 0; i < FN_CACHE; i++)
		ps->fcache[i].fn = NCG_NONE;
}

static void parser_release(struct parser *ps)
{
	for (int k = 0; k < 3; k++)
		free(ps->stamp[k]);
	free(ps->stamped);
	free(ps->icache);
	free(ps->fcache);
	free(ps->ecache);
	free(ps->evmap);
	free(ps->part_sum);
	free(ps->vals);
	free(ps->row);
}

static void parse_map(struct parser *ps, const struct parse_opts *o, const atomic_bool *cancel,
		      uint64_t total)
{
	const struct map *m = &ps->prof->src[ps->src].map;
	struct parse_progress progress = {o ? o->progress : NULL, o ? o->ctx : NULL, cancel};

	parser_part_open(ps, m->data);
	map_advise_sequential(m, true);
	run(ps, m->data, m->data + m->size, 0, &progress, total);
	map_advise_sequential(m, false);
	parser_block_close(ps, ps->end);
	parser_pending_check(ps, NULL);
	parser_part_close(ps);
}

int parser_open(struct profile *prof, uint32_t s, struct diag *d, const struct parse_opts *o)
{
	struct source *src = &prof->src[s];
	struct map_watch w = {0};
	char err[256];
	int r;

	if (o)
		w = (struct map_watch){o->unpacking, o->reading, o->ctx};
	d->path = src->path;
	r = map_open_progress(&src->map, src->path, &w, err, sizeof(err));
	if (r == MAP_STOPPED)
		return diag_add(d, DIAG_FATAL, 0, "reading %s", err);
	if (r < 0)
		return diag_add(d, DIAG_FATAL, 0, "cannot read: %s", err);
	if (src->map.warn[0])
		diag_add(d, DIAG_ERROR, 0, "%s", src->map.warn);
	if (src->map.file_size == 0)
		return diag_add(
		    d, DIAG_FATAL, 0,
		    "empty file, no profile data (valgrind --separate-threads=yes "
		    "leaves an empty file beside the per-thread files NAME-01, NAME-02, ...)");
	prof->declared_callgrind |=
	    src->map.size >= 18 && !memcmp(src->map.data, "# callgrind format", 18);
	return 0;
}

/* A mapped file whose first line cannot start a profile (sniff.h). */
static bool no_profile(const struct map *m)
{
	enum sniff s = sniff_profile(m->data, m->size < SNIFF_MAX ? m->size : SNIFF_MAX);

	return s == SNIFF_NOT || s == SNIFF_NO_LINE;
}

void parser_skip_strangers(struct profile *prof, struct diag *d)
{
	size_t good = 0;

	for (uint32_t s = 0; s < prof->nsrc; s++)
		good += !no_profile(&prof->src[s].map);
	if (!good)
		return; /* nothing to read instead: the first one's reading says why */
	for (uint32_t s = 0; s < prof->nsrc;) {
		if (!no_profile(&prof->src[s].map)) {
			s++;
			continue;
		}
		d->path = prof->src[s].path;
		diag_add(d, DIAG_WARNING, 0,
			 "not a callgrind or cachegrind profile: skipped, the other file%s read "
			 "(--no-siblings reads only the files named, not the others of their run)",
			 good == 1 ? "" : "s");
		profile_drop_source(prof, s);
	}
	d->path = prof->src[0].path;
}

void parser_one_pass(struct profile *prof, struct diag *d, const struct parse_opts *o,
		     const atomic_bool *cancel)
{
	struct parser *ps = xmalloc(sizeof(*ps));
	uint64_t base = 0, total = profile_bytes(prof);

	prof->lines = 0;
	for (uint32_t s = 0; s < prof->nsrc && !(cancel && atomic_load(cancel)); s++) {
		/* each file reads as if alone: its own header, ids and context */
		parser_init(ps, prof, d);
		parser_caches(ps);
		ps->src = s;
		ps->progress_base = base;
		if (d)
			d->path = prof->src[s].path;
		parse_map(ps, o, cancel, total);
		prof->src[s].lines = ps->lineno;
		prof->lines += ps->lineno;
		base += prof->src[s].map.file_size;
		parser_release(ps);
	}
	free(ps);
}

int parser_close(struct profile *prof, struct diag *d, unsigned jobs)
{
	for (size_t s = 0; s < prof->nsrc; s++)
		if (map_changed(&prof->src[s].map)) { /* the pages past its new end read as zeros */
			d->path = prof->src[s].path;
			diag_add(d, DIAG_FATAL, prof->src[s].lines,
				 "the file shrank while it was being read (is another program "
				 "writing it?)");
		}
	if (prof->nsrc)
		d->path = prof->src[0].path;
	if (!d->fatals && prof->nev == 0)
		diag_add(d, DIAG_FATAL, 0,
			 "no events: line; not a callgrind or cachegrind profile");
	if (d->fatals)
		return -1;
	profile_finish(prof, d, jobs);
	return 0;
}

/* The chunk's part 0 goes on with the part the chunk starts in (cs). */
static void chunk_continue(struct parser *ps, const struct chunk_start *cs)
{
	struct profile *prof = ps->prof;
	struct part *pt;

	ALLOC_GROW(prof->parts, 1, prof->parts_alloc);
	pt = &prof->parts[0];
	memset(pt, 0, sizeof(*pt));
	pt->number = pt->thread = pt->pid = -1;
	prof->nparts = 1;
	ps->part = 0;
	parser_context_reset(ps);
	for (uint32_t i = 0; i < cs->nev; i++) {
		ALLOC_GROW(ps->evmap, i + 1, ps->evmap_alloc);
		ps->evmap[i] = profile_add_event(prof, cs->events[i]);
	}
	ps->nev = cs->nev;
	ps->ev_identity = true;
	ps->have_events = true;
	ALLOC_GROW(ps->vals, cs->nev, ps->vals_alloc);
	parser_grow_sum(ps);
	ps->npos = cs->npos;
	memcpy(ps->pos_kind, cs->pos_kind, sizeof(ps->pos_kind));
	ps->object = placeholder(ps, PH_OBJECT, 0);
	ps->fn_file = ps->file = placeholder(ps, PH_FN_FILE, 0);
	/* it starts at a fn= line: the part has body lines */
	ps->part_body = ps->seen_any = true;
}

void parser_chunk(struct profile *local, const struct map *m, struct diag *d, uint64_t start,
		  uint64_t end, const struct chunk_start *cs, struct placeholders *ph,
		  struct chunk_end *ce, const atomic_bool *cancel)
{
	struct parser *ps = xmalloc(sizeof(*ps));
	struct parse_progress pr = {.cancel = cancel};

	parser_init(ps, local, d);
	parser_caches(ps);
	ps->ph = ph;
	if (cs)
		chunk_continue(ps, cs);
	else
		parser_part_open(ps, m->data);
	run(ps, m->data + start, m->data + end, start, &pr, 0);
	parser_block_close(ps, ps->end);
	parser_pending_check(ps, NULL);
	parser_part_close(ps);
	*ce = (struct chunk_end){
	    .object = ps->object,
	    .fn_file = ps->fn_file,
	    .cobject = ps->cobject,
	    .cfile = ps->cfile,
	    .jfile = ps->jfile,
	    .jfn = ps->jfn,
	    .next = ps->next,
	    .have_events = ps->have_events,
	    .npos = ps->npos,
	    .nev = ps->nev,
	    .evmap = xmalloc_array(ps->nev ? ps->nev : 1, sizeof(uint32_t)),
	    .lines = ps->lineno,
	};
	memcpy(ce->pos_kind, ps->pos_kind, sizeof(ce->pos_kind));
	if (ps->nev)
		memcpy(ce->evmap, ps->evmap, ps->nev * sizeof(uint32_t));
	parser_release(ps);
	free(ps);
}

int parse_profile(struct profile *prof, struct diag *d, const struct parse_opts *o)
{
	struct parse_opts opts = {0};
	struct parse_job *j;
	uint64_t done, total;

	if (o)
		opts = *o;
	opts.help = true; /* this thread waits for nothing else */
	j = parse_start(prof, d, &opts);

	if (!j)
		return -1;
	while (!parse_poll(j, 100))
		if (o && o->progress) {
			parse_done_bytes(j, &done, &total);
			o->progress(o->ctx, done, total);
		}
	return parse_end(j, false);
}

void parse_block(const struct profile *prof, uint32_t b, parse_line_fn fn, void *ctx)
{
	const struct block *blk = &prof->blocks[b];
	const struct part *pt = &prof->parts[block_part(blk)];
	struct block_ctx c;
	struct parser ps;

	profile_block_context(prof, b, &c);
	/* Block mode only reads the index; the cast is for the shared state. */
	parser_init(&ps, (struct profile *)prof, NULL);
	ps.reread = true;
	ps.sink = fn;
	ps.sink_ctx = ctx;
	ps.part = block_part(blk);
	ps.npos = pt->npos;
	memcpy(ps.pos_kind, pt->pos, sizeof(ps.pos_kind));
	ps.nev = pt->nev;
	ps.evmap = xmalloc_array(pt->nev, sizeof(uint32_t));
	memcpy(ps.evmap, pt->evmap, pt->nev * sizeof(uint32_t));
	ps.have_events = true;
	ps.vals = xcalloc(pt->nev ? pt->nev : 1, sizeof(uint64_t));
	ps.row = xcalloc(prof->nev ? prof->nev : 1, sizeof(uint64_t));
	ps.object = c.object;
	ps.fn_file = c.fn_file;
	ps.file = c.file;
	ps.fn = blk->fn;
	ps.callee = blk->callee;
	ps.cobject = c.cobject;
	ps.cfile = c.cfile;
	ps.jfile = c.jfile;
	ps.jfn = c.jfn;
	memcpy(ps.pos, c.pos, sizeof(ps.pos));
	ps.pos_set = c.pos_set;
	ps.lineno = c.line - 1;
	run(&ps, profile_part_map(prof, pt)->data + blk->start,
	    profile_part_map(prof, pt)->data + c.end, blk->start, NULL, 0);
	parser_release(&ps);
}
