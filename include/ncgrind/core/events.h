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

/* After inclusive costs: apply long names, add inherited event columns. */
void events_resolve(struct profile *p, struct diag *d);

#endif
