/*
 * events: resolve `event:` specifications once the raw events are known.
 * A formula may name another inherited event, one defined before it: it is
 * kept as written (terms of raw or inherited events), and a row's inherited
 * values are worked out from left to right, each from the ones before it.
 * Expanding it into one factor per raw event would make each formula as
 * wide as the events: line (30,000 of them over 30,000 events: 7 GB).
 */
#include "ncgrind/core/events.h"
#include "ncgrind/core/lex.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void event_defs_init(struct event_defs *d)
{
	memset(d, 0, sizeof(*d));
}

void event_defs_add(struct event_defs *d, const char *formula)
{
	ALLOC_GROW(d->v, d->n + 1, d->alloc);
	d->v[d->n++] = xstrdup(formula);
}

void event_defs_release(struct event_defs *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i]);
	free(d->v);
	event_defs_init(d);
}

static bool is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '(' || c == ')';
}

static size_t skip_spaces(struct span f, size_t i)
{
	while (i < f.len && (f.ptr[i] == ' ' || f.ptr[i] == '\t'))
		i++;
	return i;
}

/* The terms of a formula as it is read; v is the event's once it is kept. */
struct terms {
	struct event_term *v;
	uint32_t n;
	size_t alloc;
};

/* Add factor * (event `name`) to t. Returns -1 if unknown. */
static int add_term(const struct profile *p, struct terms *t, uint64_t factor, struct span name)
{
	uint32_t ev = profile_find_event(p, name);

	if (ev == NCG_NONE || p->events[ev].ratio) /* (a ratio does not add up) */
		return -1;
	ALLOC_GROW(t->v, (size_t)t->n + 1, t->alloc);
	t->v[t->n].factor = factor;
	t->v[t->n++].ev = ev;
	return 0;
}

/* Append term to taken (NULL: not kept), " + " between terms. */
static void keep_term(char *taken, struct span term)
{
	size_t n;

	if (!taken)
		return;
	n = strlen(taken);
	if (n) {
		memcpy(taken + n, " + ", 3);
		n += 3;
	}
	memcpy(taken + n, term.ptr, term.len);
	taken[n + term.len] = '\0';
}

/*
 * "Ir + 10 I1mr + 10 * D1mr" -> its terms, added to t. With skip, a term
 * of an event the profile lacks is left out (as KCachegrind's well-known
 * formulas are); *matched counts the terms taken (may be NULL), and taken
 * (NULL, or room for 2 f.len + 1 bytes, "" on entry) gets their text.
 */
static int parse_terms(const struct profile *p, struct span f, struct terms *t, bool skip,
		       int *matched, char *taken)
{
	size_t i = skip_spaces(f, 0);

	while (i < f.len) {
		uint64_t factor = 1;
		size_t s, from = i;

		if (f.ptr[i] >= '0' && f.ptr[i] <= '9') {
			for (factor = 0; i < f.len && f.ptr[i] >= '0' && f.ptr[i] <= '9'; i++)
				factor = u64_mul_sat(factor, 10) + (uint64_t)(f.ptr[i] - '0');
			i = skip_spaces(f, i);
			if (i < f.len && f.ptr[i] == '*')
				i = skip_spaces(f, i + 1);
		}
		for (s = i; i < f.len && is_name_char(f.ptr[i]); i++)
			;
		if (s == i)
			return -1;
		if (add_term(p, t, factor, span_make(f.ptr + s, i - s)) < 0) {
			if (!skip)
				return -1;
		} else {
			if (matched)
				(*matched)++;
			keep_term(taken, span_make(f.ptr + from, i - from));
		}
		i = skip_spaces(f, i);
		if (i < f.len && f.ptr[i] != '+')
			return -1;
		i = skip_spaces(f, i + 1);
	}
	return 0;
}

static int parse_formula(const struct profile *p, struct span f, struct terms *t)
{
	return parse_terms(p, f, t, false, NULL, NULL);
}

static uint64_t derive_sum(const uint64_t *row, const struct event_term *t, uint32_t n,
			   bool *saturated);

/*
 * The inherited value from the row's values before it (raw, and inherited
 * ones left of it); *saturated is set when it does not fit in 64 bits. A
 * ratio is worked out from the row's own sums (never summed itself), in
 * millionths; 0 where its denominator is.
 */
static uint64_t derive(const uint64_t *row, const struct event *ev, bool *saturated)
{
	uint64_t num, den;

	if (!ev->ratio)
		return derive_sum(row, ev->terms, ev->nterms, saturated);
	num = derive_sum(row, ev->terms, ev->nterms, saturated);
	den = derive_sum(row, ev->den, ev->nden, saturated);
	long double q;

	if (!den)
		return 0;
	q = (long double)num * EVENT_RATIO_ONE / (long double)den + 0.5L;
	if (q >= 18446744073709551615.0L) { /* (a ratio over 1.8e13: out of 64 bits) */
		*saturated = true;
		return UINT64_MAX;
	}
	return (uint64_t)q;
}

static uint64_t derive_sum(const uint64_t *row, const struct event_term *t, uint32_t n,
			   bool *saturated)
{
	uint64_t v = 0, x;

	for (uint32_t i = 0; i < n; i++) {
		if (__builtin_mul_overflow(t[i].factor, row[t[i].ev], &x) || !u64_add_sat(&v, x)) {
			*saturated = true;
			v = UINT64_MAX;
		}
	}
	return v;
}

/*
 * Lay rows out again with room for the inherited columns, and compute them;
 * sat[e] tells which inherited events hit UINT64_MAX somewhere.
 */
static uint64_t *widen(const struct profile *p, uint64_t *rows, size_t nrows, uint32_t from,
		       bool *sat)
{
	uint32_t to = p->nev;
	uint64_t *n = xmalloc(st_mult(st_mult(nrows ? nrows : 1, to), sizeof(uint64_t)));

	for (size_t r = 0; r < nrows; r++) {
		uint64_t *dst = n + r * to;

		memcpy(dst, rows + r * from, from * sizeof(uint64_t));
		for (uint32_t e = from; e < to; e++)
			dst[e] = derive(dst, &p->events[e], &sat[e]);
	}
	free(rows);
	return n;
}

static void define_inherited(struct profile *p, struct diag *d, const struct event *spec)
{
	struct terms t = {0};
	struct event *ev;

	if (parse_formula(p, spec->formula, &t) < 0) {
		char q[200];

		if (spec->line)
			diag_add(d, DIAG_WARNING, spec->line,
				 "cannot compute inherited event from '%s'; event ignored",
				 diag_quote(q, spec->formula.ptr, spec->formula.len, 40));
		else /* --event: not a line of the file */
			diag_add(d, DIAG_WARNING, 0,
				 "--event %.*s: cannot compute it from '%s' (not a sum of events "
				 "the profile has); ignored",
				 (int)spec->name.len, spec->name.ptr,
				 diag_quote(q, spec->formula.ptr, spec->formula.len, 40));
		free(t.v);
		return;
	}
	ALLOC_GROW(p->events, p->nev + 1, p->ev_alloc);
	ev = &p->events[p->nev++];
	*ev = *spec;
	ev->derived = true;
	ev->terms = t.v;
	ev->nterms = t.n;
	profile_index_event(p, (uint32_t)(ev - p->events));
}

/*
 * KCachegrind's well-known derived events (libcore/globalconfig.cpp), in
 * the order they may name each other. As there, a term of an event the
 * profile lacks is left out, and one is added when some term is there; a
 * cycle estimate is added only when it would be more than Ir. Its formula
 * is the terms taken: the one the values are computed from, which is what
 * :events and the json report show (no Ge or L2m a cache simulation has not).
 */
static const struct {
	const char *name, *long_name, *formula;
} known_events[] = {
    {"L1m", "L1 Miss Sum", "I1mr + D1mr + D1mw"},
    {"L2m", "L2 Miss Sum", "I2mr + D2mr + D2mw"},
    {"LLm", "Last-level Miss Sum", "ILmr + DLmr + DLmw"},
    {"Bm", "Mispredicted Branch", "Bim + Bcm"},
    {"CEst", "Cycle Estimation", "Ir + 10 Bm + 10 L1m + 20 Ge + 100 L2m + 100 LLm"},
};

/*
 * Whether a term of t can count something other than Ir: one of a raw event
 * but Ir, or of an inherited one that has such a term (events are defined
 * after the ones they name, so one pass from left to right tells for all).
 */
static bool beyond_ir(const struct profile *p, const struct terms *t)
{
	uint32_t ir = profile_find_event_str(p, "Ir");
	bool *beyond = xcalloc(p->nev ? p->nev : 1, sizeof(bool)), any = false;

	for (uint32_t e = 0; e < p->nev; e++) {
		const struct event *ev = &p->events[e];

		beyond[e] = e < p->nraw && e != ir;
		for (uint32_t i = 0; e >= p->nraw && i < ev->nterms; i++)
			beyond[e] |= ev->terms[i].factor && beyond[ev->terms[i].ev];
	}
	for (uint32_t i = 0; i < t->n; i++)
		any |= t->v[i].factor && beyond[t->v[i].ev];
	free(beyond);
	return any;
}

static void add_known(struct profile *p, size_t k)
{
	struct terms t = {0};
	struct span f = span_make(known_events[k].formula, strlen(known_events[k].formula));
	int matched = 0;
	char *taken = xcalloc(2 * f.len + 1, 1); /* (a "+" may become " + ") */
	struct event *ev;

	parse_terms(p, f, &t, true, &matched, taken);
	if (!matched || !beyond_ir(p, &t)) {
		free(t.v);
		free(taken);
		return;
	}
	ALLOC_GROW(p->events, p->nev + 1, p->ev_alloc);
	ev = &p->events[p->nev++];
	memset(ev, 0, sizeof(*ev));
	ev->name = span_make(known_events[k].name, strlen(known_events[k].name));
	ev->long_name = span_make(known_events[k].long_name, strlen(known_events[k].long_name));
	ev->formula = span_make(taken, strlen(taken));
	ev->formula_text = taken;
	ev->derived = ev->builtin = true;
	ev->terms = t.v;
	ev->nterms = t.n;
	profile_index_event(p, (uint32_t)(ev - p->events));
}

/*
 * NAME=A / B: the ratio of two sums of events, of each row's own values
 * (D1mr / Dr: a function's miss rate, not a sum of its lines' rates).
 */
static void define_ratio(struct profile *p, struct diag *d, const struct event *spec,
			 const char *text)
{
	const char *slash = memchr(spec->formula.ptr, '/', spec->formula.len);
	struct span num = span_make(spec->formula.ptr, (size_t)(slash - spec->formula.ptr)),
		    den = span_make(slash + 1, spec->formula.len - num.len - 1);
	struct terms a = {0}, b = {0};
	struct event *ev;

	if (parse_formula(p, num, &a) < 0 || parse_formula(p, den, &b) < 0 ||
	    memchr(den.ptr, '/', den.len)) {
		diag_add(d, DIAG_WARNING, 0,
			 "--event '%s': not a ratio of two sums of events the profile has; ignored",
			 text);
		free(a.v);
		free(b.v);
		return;
	}
	ALLOC_GROW(p->events, p->nev + 1, p->ev_alloc);
	ev = &p->events[p->nev++];
	*ev = *spec;
	ev->derived = ev->ratio = true;
	ev->terms = a.v;
	ev->nterms = a.n;
	ev->den = b.v;
	ev->nden = b.n;
	profile_index_event(p, (uint32_t)(ev - p->events));
}

/* --event=NAME=FORMULA: an inherited event of the user's, as an `event:` line's. */
static void define_user(struct profile *p, struct diag *d, const char *spec)
{
	const char *eq = strchr(spec, '=');
	struct event e;
	size_t n;

	memset(&e, 0, sizeof(e));
	n = eq ? (size_t)(eq - spec) : 0;
	while (n && (spec[n - 1] == ' ' || spec[n - 1] == '\t'))
		n--;
	e.name = span_make(spec, n);
	e.formula = eq ? span_make(eq + 1, strlen(eq + 1)) : span_make("", 0);
	for (size_t i = 0; i < n; i++)
		if (!is_name_char(spec[i]))
			n = 0;
	if (!n || !e.formula.len) {
		diag_add(d, DIAG_WARNING, 0, "--event '%s': not NAME=FORMULA; ignored", spec);
		return;
	}
	if (profile_find_event(p, e.name) != NCG_NONE) {
		diag_add(d, DIAG_WARNING, 0, "--event '%s': the profile has %.*s already; ignored",
			 spec, (int)n, spec);
		return;
	}
	if (memchr(e.formula.ptr, '/', e.formula.len))
		define_ratio(p, d, &e, spec);
	else
		define_inherited(p, d, &e);
}

void events_resolve(struct profile *p, struct diag *d)
{
	uint32_t nraw = p->nev;

	for (size_t i = 0; i < p->nevspecs; i++) {
		const struct event *spec = &p->evspecs[i];
		uint32_t ev = profile_find_event(p, spec->name);

		if (ev != NCG_NONE) {
			if (spec->long_name.len)
				p->events[ev].long_name = spec->long_name;
			if (spec->formula.len && ev < nraw)
				diag_add(d, DIAG_WARNING, spec->line,
					 "event has raw costs; its formula is ignored");
		} else if (spec->formula.len) {
			define_inherited(p, d, spec);
		}
	}
	for (size_t i = 0; i < p->nuser_events; i++)
		define_user(p, d, p->user_events[i]);
	for (size_t k = 0; k < sizeof(known_events) / sizeof(known_events[0]); k++)
		if (profile_find_event_str(p, known_events[k].name) == NCG_NONE)
			add_known(p, k);
	events_derive(p, nraw, d);
}

/*
 * Whether the inherited events are worked out when asked for, not kept in
 * the cost cells: few events and short formulas (KCachegrind's five known
 * ones are 17 terms), each naming only events left of it, so that a value
 * costs a row's raw cells and its terms, never a walk that grows with a
 * hostile file's 30,000 formulas. Kept, the four inherited columns of a
 * 17-event profile are 16 MB of a 1 GiB profile's 117 MB index.
 */
bool events_on_demand(const struct profile *p)
{
	size_t terms = 0;

	if (p->nev <= p->nraw || p->nev > EVENTS_DEMAND_MAX)
		return false;
	for (uint32_t e = p->nraw; e < p->nev; e++) {
		const struct event *ev = &p->events[e];

		if (!ev->derived)
			return false;
		terms += (size_t)ev->nterms + ev->nden;
		for (uint32_t i = 0; i < ev->nterms; i++)
			if (ev->terms[i].ev >= e)
				return false;
		for (uint32_t i = 0; i < ev->nden; i++)
			if (ev->den[i].ev >= e)
				return false;
	}
	return terms <= EVENTS_DEMAND_TERMS;
}

/*
 * Row r of nraw raw values: of the 64-bit rows, or of the cells that
 * profile_finish() made of them before the inclusive costs (then rows is
 * NULL), copied into buf.
 */
static const uint64_t *raw_row(const uint64_t *rows, const struct cost_cells *c, size_t r,
			       uint32_t nraw, uint64_t *buf)
{
	if (rows)
		return rows + r * nraw;
	cost_cells_row(c, r, nraw, buf);
	return buf;
}

/*
 * The rows' inherited values worked out once, kept nowhere: whether one
 * does not fit in 64 bits (sat[e]), as widen() would have found.
 */
static void check_rows(const struct profile *p, const uint64_t *rows, const struct cost_cells *c,
		       size_t nrows, uint32_t nraw, bool *sat)
{
	uint64_t row[EVENTS_DEMAND_MAX];

	for (size_t r = 0; (rows || c->cell) && r < nrows; r++) {
		const uint64_t *raw = raw_row(rows, c, r, nraw, row);

		if (raw != row)
			memcpy(row, raw, nraw * sizeof(uint64_t));
		for (uint32_t e = nraw; e < p->nev; e++)
			row[e] = derive(row, &p->events[e], &sat[e]);
	}
}

/* Each column's largest value over the rows (cells, or 64-bit rows) into top, if larger. */
static void columns_top(const uint64_t *rows, const struct cost_cells *c, size_t nrows,
			uint32_t nraw, uint64_t *top)
{
	if (!rows) {
		cost_cells_top(c, nrows, nraw, top);
		return;
	}
	for (size_t r = 0; r < nrows; r++)
		for (uint32_t e = 0; e < nraw; e++)
			top[e] = rows[r * nraw + e] > top[e] ? rows[r * nraw + e] : top[e];
}

/*
 * Whether every row's inherited values surely fit in 64 bits, known
 * without working them out row by row (a third of profile_finish() after
 * the graph, on a 1 GiB profile): an inherited sum only grows with the
 * values it sums, a self or inclusive value is at most its total (the
 * inclusive ones are capped at it), and a call's at most its column's
 * largest; if the sums of those bounds fit, every row's do. A ratio
 * grows with no such bound: then every row is worked out.
 */
static bool rows_fit(const struct profile *p, uint32_t nraw)
{
	uint64_t top[EVENTS_DEMAND_MAX];
	bool sat = false;

	for (uint32_t e = nraw; e < p->nev; e++)
		if (p->events[e].ratio)
			return false;
	memcpy(top, p->totals, nraw * sizeof(uint64_t));
	columns_top(p->edge_cost, &p->edge_c, p->nedges, nraw, top);
	for (uint32_t e = nraw; e < p->nev; e++)
		top[e] = derive(top, &p->events[e], &sat);
	return !sat;
}

/* widen() of rows that are cells already: 64-bit rows again, every event kept. */
static uint64_t *widen_cells(const struct profile *p, struct cost_cells *c, size_t nrows,
			     uint32_t nraw, bool *sat)
{
	uint64_t *rows =
	    xmalloc_array(st_mult(nrows ? nrows : 1, nraw ? nraw : 1), sizeof(uint64_t));

	for (size_t r = 0; r < nrows; r++)
		cost_cells_row(c, r, nraw, rows + r * nraw);
	profile_cells_release(p, c);
	return widen(p, rows, nrows, nraw, sat);
}

void events_derive(struct profile *p, uint32_t nraw, struct diag *d)
{
	bool *sat;

	if (p->nev == nraw) {
		p->ncell = p->nev;
		return;
	}
	sat = xcalloc(p->nev, sizeof(bool));
	if (events_on_demand(p)) {
		if (d && !rows_fit(p, nraw)) { /* (without d: checked once already) */
			check_rows(p, p->self, &p->self_c, p->nfuncs, nraw, sat);
			check_rows(p, p->incl, &p->incl_c, p->nfuncs, nraw, sat);
			check_rows(p, p->edge_cost, &p->edge_c, p->nedges, nraw, sat);
		}
		p->ncell = nraw;
	} else {
		p->self = p->self_c.cell ? widen_cells(p, &p->self_c, p->nfuncs, nraw, sat)
					 : widen(p, p->self, p->nfuncs, nraw, sat);
		p->incl = widen(p, p->incl, p->nfuncs, nraw, sat);
		p->edge_cost = p->edge_c.cell ? widen_cells(p, &p->edge_c, p->nedges, nraw, sat)
					      : widen(p, p->edge_cost, p->nedges, nraw, sat);
		p->ncell = p->nev;
	}
	p->totals = widen(p, p->totals, 1, nraw, sat);
	p->cycle_incl = widen(p, p->cycle_incl, p->ncycles, nraw, sat);
	p->stride = p->ncell; /* the rows are ncell wide */
	for (uint32_t e = nraw; e < p->nev; e++)
		if (sat[e])
			diag_add(d, DIAG_ERROR, p->events[e].line,
				 "inherited event '%.*s' exceeds 64 bits; it is shown as %" PRIu64,
				 (int)(p->events[e].name.len > 64 ? 64 : p->events[e].name.len),
				 p->events[e].name.ptr, UINT64_MAX);
	free(sat);
}

void events_derive_row(const struct profile *p, uint64_t *row)
{
	events_derive_from(p, row, p->nraw);
}

void events_derive_from(const struct profile *p, uint64_t *row, uint32_t from)
{
	bool sat = false;

	for (uint32_t e = from; e < p->nev; e++)
		if (p->events[e].derived)
			row[e] = derive(row, &p->events[e], &sat);
}

uint64_t events_derived_at(const struct profile *p, const struct cost_cells *c, size_t row,
			   uint32_t ev)
{
	uint64_t v[EVENTS_DEMAND_MAX];
	bool sat = false;

	cost_cells_row(c, row, p->ncell, v);
	for (uint32_t e = p->ncell; e <= ev; e++)
		v[e] = derive(v, &p->events[e], &sat);
	return v[ev];
}

uint64_t events_part_cost(const struct profile *p, uint32_t part, uint32_t ev)
{
	const struct part *pt = &p->parts[part];
	uint64_t *row;
	uint64_t v;
	bool sat = false;

	if (ev < p->nraw)
		return ev < pt->nsum ? pt->sum[ev] : 0;
	if (ev >= p->nev || !p->events[ev].derived)
		return 0;
	/* (its terms may name inherited events left of it: work those out too) */
	row = xcalloc(ev + 1, sizeof(uint64_t));
	memcpy(row, pt->sum, (pt->nsum < p->nraw ? pt->nsum : p->nraw) * sizeof(uint64_t));
	for (uint32_t e = p->nraw; e <= ev; e++)
		if (p->events[e].derived)
			row[e] = derive(row, &p->events[e], &sat);
	v = row[ev];
	free(row);
	return v;
}
