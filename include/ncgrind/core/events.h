/*
 * events: long names and inherited events from `event:` lines.
 *
 * `event: Ir : Instruction Fetches` gives a long name; `event: Sum = Ir + Dr`
 * or `event: CEst = Ir + 10 I1mr + 10 * D1mr` defines an inherited event,
 * computed from the raw ones. Inherited events become extra cost columns
 * after the raw events (self, inclusive, call costs and totals), with values
 * computed from each row's raw values (saturating at UINT64_MAX).
 */
#ifndef NCGRIND_EVENTS_H
#define NCGRIND_EVENTS_H

#include "ncgrind/core/diag.h"
#include "ncgrind/core/profile.h"

/*
 * The user's events, NAME=FORMULA (--event, :event NAME = FORMULA), one
 * list read into every profile loaded after they are given. The strings
 * are owned copies that stay until event_defs_release(): the events of a
 * profile read with them are named by spans into them. v moves as it grows.
 */
struct event_defs {
	char **v;
	size_t n, alloc;
};

void event_defs_init(struct event_defs *d);
void event_defs_add(struct event_defs *d, const char *formula);
void event_defs_release(struct event_defs *d);

/* After inclusive costs: apply long names, add inherited event columns. */
void events_resolve(struct profile *p, struct diag *d);
/*
 * The inherited events (nraw.. nev): worked out into the totals and the
 * cycle rows, and into the self, inclusive and call rows unless
 * events_on_demand() (then those stay nraw wide and the cost cells give
 * each inherited value when asked: events_derived_at()). Sets ncell and
 * stride. d may be NULL (the values were checked once).
 */
void events_derive(struct profile *p, uint32_t nraw, struct diag *d);
/* At most this many events, and terms in all the formulas, for events_on_demand(). */
#define EVENTS_DEMAND_MAX 64
#define EVENTS_DEMAND_TERMS 256
/* Whether p's inherited events are worked out on demand (small formulas, in order). */
bool events_on_demand(const struct profile *p);
/* A row of nev values whose raw ones are set: its inherited ones worked out. */
void events_derive_row(const struct profile *p, uint64_t *row);
/* The same for a row whose first `from` values are set (raw, or kept inherited ones). */
void events_derive_from(const struct profile *p, uint64_t *row, uint32_t from);
/* The self cost of a part (its lines' sum) in event ev, raw or inherited. */
uint64_t events_part_cost(const struct profile *p, uint32_t part, uint32_t ev);

#endif
