/*
 * parse_header: parts and the header lines of the Callgrind format
 * (events:, event:, positions:, summary:, totals:, version:, creator:,
 * cmd:, pid:, thread:, part:, desc:). A key that belongs to the start of a
 * part, met after body lines or a second time, starts a new part: that is
 * how --combine-dumps files, thread parts and Xdebug's appended profiles
 * are told apart. Events and positions carry over to the next part unless
 * it gives its own.
 */
#include "parser.h"
#include "ncgrind/core/lex.h"

#include <inttypes.h>
#include <stdlib.h>

struct part *parser_part(struct parser *ps)
{
	return &ps->prof->parts[ps->part];
}

void parser_grow_sum(struct parser *ps)
{
	size_t old = ps->part_sum_alloc;

	ALLOC_GROW(ps->part_sum, ps->prof->nev, ps->part_sum_alloc);
	if (ps->part_sum_alloc > old)
		memset(ps->part_sum + old, 0, (ps->part_sum_alloc - old) * sizeof(uint64_t));
}

/* Store what the finished part summed up (profile_finish checks it). */
static int cmp_change(const void *va, const void *vb)
{
	const struct id_change *a = va, *b = vb;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	return (a->line > b->line) - (a->line < b->line);
}

void parser_part_close(struct parser *ps)
{
	struct part *pt;

	if (ps->reread || ps->part == NCG_NONE)
		return;
	pt = parser_part(ps);
	parser_grow_sum(ps); /* events may have been added by a line that failed */
	pt->sum = xcalloc(ps->prof->nev ? ps->prof->nev : 1, sizeof(uint64_t));
	pt->nsum = ps->prof->nev;
	if (ps->prof->nev)
		memcpy(pt->sum, ps->part_sum, ps->prof->nev * sizeof(uint64_t));
	pt->nev = ps->nev;
	pt->evmap = xmalloc_array(ps->nev, sizeof(uint32_t));
	if (ps->nev)
		memcpy(pt->evmap, ps->evmap, ps->nev * sizeof(uint32_t));
	pt->npos = ps->npos;
	memcpy(pt->pos, ps->pos_kind, sizeof(pt->pos));
	if (pt->nchanges) /* for parse_block()'s binary search */
		qsort(pt->changes, pt->nchanges, sizeof(pt->changes[0]), cmp_change);
	if (!ps->ph) { /* a chunk's parts are merged first (parse_chunks.c) */
		if (!profile_share_ids(ps->prof, pt))
			parser_own_stamped(ps, pt);
		ps->nstamped = 0;
		return;
	}
	for (int k = 0; pt->ids && k < 3; k++) /* walked once more, by the merge */
		idtab_keep_log(&pt->ids[k]);
}

void parser_context_reset(struct parser *ps)
{
	ps->pos_set = false;
	memset(ps->pos, 0, sizeof(ps->pos));
	ps->object = ps->fn_file = ps->file = ps->fn = NCG_NONE;
	ps->cobject = ps->cfile = ps->callee = NCG_NONE;
	ps->jfile = ps->jfn = NCG_NONE;
	ps->next = NEXT_COST;
}

/* Events and positions carry over to the next part unless it redefines them. */
void parser_part_open(struct parser *ps, const char *p)
{
	struct profile *prof = ps->prof;
	struct part *pt;

	parser_block_close(ps, p);
	parser_pending_check(ps, p);
	parser_part_close(ps);
	ALLOC_GROW(prof->parts, prof->nparts + 1, prof->parts_alloc);
	pt = &prof->parts[prof->nparts];
	memset(pt, 0, sizeof(*pt));
	pt->src = ps->src;
	pt->first_line = ps->lineno;
	pt->number = pt->thread = pt->pid = -1;
	ps->part = (uint32_t)prof->nparts++;
	ps->part_keys = 0;
	ps->part_body = false;
	if (ps->part_sum)
		memset(ps->part_sum, 0, ps->part_sum_alloc * sizeof(uint64_t));
	parser_context_reset(ps);
}

/* A header key that belongs to the start of a part: maybe start a new one. */
static void part_key(struct parser *ps, unsigned key, const char *p)
{
	if (ps->reread)
		return;
	if (ps->part_body || (ps->part_keys & key))
		parser_part_open(ps, p);
	ps->part_keys |= key;
}

/*
 * Mark ev as listed on this events: line; false if it was already. The
 * marks are indexed by global event (the line may add events as it goes),
 * so a line of n events is checked in n steps, not n * n / 2.
 */
static bool event_mark(bool **seen, size_t *nseen, uint32_t ev)
{
	if (ev >= *nseen) {
		size_t n = st_mult((size_t)ev + 1, 2);

		*seen = xrealloc(*seen, n);
		memset(*seen + *nseen, 0, n - *nseen);
		*nseen = n;
	}
	if ((*seen)[ev])
		return false;
	(*seen)[ev] = true;
	return true;
}

static int parse_events(struct parser *ps, const char *p)
{
	uint32_t n = 0;
	bool *seen = NULL;
	size_t nseen = 0;

	for (p = lex_skip_blanks(p); *p != '\n'; p = lex_skip_blanks(p)) {
		struct span name = span_make(p, parser_token_len(p));
		uint32_t ev = profile_find_event(ps->prof, name);

		if (ev == NCG_NONE)
			ev = profile_add_event(ps->prof, name);
		if (!event_mark(&seen, &nseen, ev)) {
			/* which column is which? nothing after this line can be trusted */
			char q[200];

			diag_quote(q, name.ptr, name.len, 40);
			diag_add(ps->diag, DIAG_FATAL, ps->lineno,
				 "event '%s' listed twice in events:", q);
			ps->stop = true;
			free(seen);
			return -1;
		}
		ALLOC_GROW(ps->evmap, n + 1, ps->evmap_alloc);
		ps->evmap[n++] = ev;
		p += name.len;
	}
	free(seen);
	if (!n)
		return parser_error(ps, "events: line names no event%s", "", 0);
	ps->nev = n;
	ps->ev_identity = true;
	for (uint32_t i = 0; i < n; i++)
		if (ps->evmap[i] != i)
			ps->ev_identity = false;
	ALLOC_GROW(ps->vals, n, ps->vals_alloc);
	parser_grow_sum(ps);
	ps->have_events = true;
	return 0;
}

static int parse_positions(struct parser *ps, const char *p)
{
	int n = 0;
	enum pos_kind kinds[PROFILE_MAX_POS];

	for (p = lex_skip_blanks(p); *p != '\n'; p = lex_skip_blanks(p)) {
		size_t len = parser_token_len(p);
		enum pos_kind k;

		if (len == 5 && lex_prefix(p, "instr"))
			k = POS_INSTR;
		else if (len == 2 && lex_prefix(p, "bb"))
			k = POS_BB;
		else if (len == 4 && lex_prefix(p, "line"))
			k = POS_LINE;
		else
			return parser_error(ps, "unknown position kind '%s' (instr, bb, line)", p,
					    len);
		if (n == PROFILE_MAX_POS || (n && kinds[n - 1] >= k))
			return parser_error(
			    ps, "positions must be instr, bb, line in this order: '%s'", p, len);
		kinds[n++] = k;
		p += len;
	}
	if (!n)
		return parser_error(ps, "positions: line names no position%s", "", 0);
	ps->npos = n;
	memcpy(ps->pos_kind, kinds, sizeof(kinds[0]) * (size_t)n);
	return 0;
}

/* summary: and totals: values, kept in the part's event order. */
static void parse_cost_list(struct parser *ps, const char *p, uint64_t **out, uint32_t *nout,
			    uint64_t *line)
{
	uint32_t n = 0;
	uint64_t *v;

	if (!ps->have_events) {
		diag_add(ps->diag, DIAG_WARNING, ps->lineno,
			 "summary/totals before events:; ignored");
		return;
	}
	v = xcalloc(ps->nev, sizeof(uint64_t));
	for (p = lex_skip_blanks(p); *p != '\n' && n < ps->nev; p = lex_skip_blanks(p)) {
		int r = lex_number(&p, &v[n]);

		if (r != LEX_OK) {
			parser_error(ps, "bad number '%s'; line ignored", p, parser_token_len(p));
			free(v);
			return;
		}
		n++;
	}
	if (*p != '\n')
		diag_add(ps->diag, DIAG_WARNING, ps->lineno,
			 "more values than events; extra ignored");
	free(*out);
	*out = v;
	*nout = n;
	*line = ps->lineno;
}

static struct span header_value(const char *p)
{
	const char *s = lex_skip_blanks(p);

	return span_make(s, parser_line_len(s));
}

static int parse_version(struct parser *ps, const char *p)
{
	uint64_t v = 0;
	const char *s = lex_skip_blanks(p);

	for (; *s >= '0' && *s <= '9'; s++)
		v = v < 1000000 ? v * 10 + (uint64_t)(*s - '0') : v;
	if (v > 1) {
		diag_add(ps->diag, DIAG_FATAL, ps->lineno,
			 "unsupported format version %" PRIu64 " (ncgrind reads version 1)", v);
		ps->stop = true;
		return -1;
	}
	return 0;
}

static int64_t header_int(const char *p)
{
	int64_t v = 0;

	for (p = lex_skip_blanks(p); *p >= '0' && *p <= '9'; p++)
		v = v < INT64_MAX / 10 - 10 ? v * 10 + (*p - '0') : v;
	return v;
}

static void parse_event_spec(struct parser *ps, const char *p)
{
	struct profile *prof = ps->prof;
	struct event *ev;
	const char *s = lex_skip_blanks(p), *e;
	size_t n = 0;

	while (!lex_is_delim(s[n]) && s[n] != '=' && s[n] != ':')
		n++;
	if (!n) {
		parser_error(ps, "event: line without a name%s", "", 0);
		return;
	}
	ALLOC_GROW(prof->evspecs, prof->nevspecs + 1, prof->evspecs_alloc);
	ev = &prof->evspecs[prof->nevspecs++];
	memset(ev, 0, sizeof(*ev));
	ev->name = span_make(s, n);
	s = lex_skip_blanks(s + n);
	if (*s == '=') {
		s = lex_skip_blanks(s + 1);
		for (e = s; *e != ':' && *e != '\n'; e++)
			;
		ev->formula = span_make(s, (size_t)(e - s));
		while (ev->formula.len && lex_is_blank(ev->formula.ptr[ev->formula.len - 1]))
			ev->formula.len--;
		s = e;
	}
	if (*s == ':')
		ev->long_name = header_value(s + 1);
	ev->line = ps->lineno;
}

/* Lines "key: value". Returns 1 when the key is known, 0 when not. */
int parser_header_line(struct parser *ps, const char *line)
{
	const char *p = line; /* the value, once a key matched */
	struct part *pt;

#define KEY(k) (lex_prefix(p, k) ? (p += sizeof(k) - 1, 1) : 0)
	if (KEY("events:")) {
		part_key(ps, KEY_EVENTS, line);
		parse_events(ps, p);
	} else if (KEY("event:")) {
		parse_event_spec(ps, p);
	} else if (KEY("positions:")) {
		part_key(ps, KEY_POSITIONS, line);
		parse_positions(ps, p);
	} else if (KEY("summary:")) {
		pt = parser_part(ps);
		parse_cost_list(ps, p, &pt->summary, &pt->nsummary, &pt->summary_line);
	} else if (KEY("totals:")) {
		pt = parser_part(ps);
		parse_cost_list(ps, p, &pt->totals, &pt->ntotals, &pt->totals_line);
	} else if (KEY("version:")) {
		ps->prof->declared_callgrind = true;
		part_key(ps, KEY_VERSION, line);
		parse_version(ps, p);
	} else if (KEY("creator:")) {
		part_key(ps, KEY_CREATOR, line);
		parser_part(ps)->creator = header_value(p);
	} else if (KEY("cmd:")) {
		parser_part(ps)->cmd = header_value(p);
	} else if (KEY("pid:")) {
		part_key(ps, KEY_PID, line);
		parser_part(ps)->pid = header_int(p);
	} else if (KEY("thread:")) {
		part_key(ps, KEY_THREAD, line);
		parser_part(ps)->thread = header_int(p);
	} else if (KEY("part:")) {
		part_key(ps, KEY_PART, line);
		parser_part(ps)->number = header_int(p);
	} else if (KEY("desc:")) {
		struct span v = header_value(p);

		if (v.len >= 8 && memcmp(v.ptr, "Trigger:", 8) == 0)
			parser_part(ps)->trigger = header_value(v.ptr + 8);
		else if (v.len >= 10 && memcmp(v.ptr, "Timerange:", 10) == 0)
			parser_part(ps)->timerange = header_value(v.ptr + 10);
	} else {
		return 0;
	}
#undef KEY
	return 1;
}
