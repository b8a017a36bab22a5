/*
 * fmt: numbers and names for people, into caller buffers (no curses).
 */
#ifndef NCGRIND_FMT_H
#define NCGRIND_FMT_H

#include "ncgrind/core/profile.h"
#include "ncgrind/core/util.h"

#include <stdbool.h>
#include <stdint.h>

#define FMT_NUM 32 /* room for any formatted number */

/* 13,143,514 (exact) or 13.1M (short: 3 significant digits, K M G T P E). */
char *fmt_cost(char *buf, uint64_t v, bool short_units);
/*
 * The same for an event with a time unit (unit_ps picoseconds a count, as
 * Xdebug's Time_(10ns)): short units are a time, 123ms, 12.3us, 1.05s.
 * unit_ps 0: fmt_cost.
 */
char *fmt_value(char *buf, uint64_t v, bool short_units, uint64_t unit_ps);
/*
 * A diff's values, base to new: the change signed in digits ("+300001", "-45",
 * "0": the reports' tsv and json); the same for people ("+300,001", or in short
 * units as fmt_value; buf of FMT_NUM + 1); the change as a percentage of total
 * ("+52.74", "-" without a total: pprof's -diff_base share); new / base ("3.000",
 * "inf" from nothing, "-" for nothing from nothing).
 */
char *fmt_delta(char *buf, uint64_t base, uint64_t new);
char *fmt_change(char *buf, uint64_t base, uint64_t new, bool short_units, uint64_t unit_ps);
char *fmt_share(char *buf, uint64_t base, uint64_t new, uint64_t total);
char *fmt_ratio(char *buf, uint64_t base, uint64_t new);
/* The unit_ps of a ratio event: fmt_value shows its millionths as a decimal. */
#define FMT_RATIO UINT64_MAX
/* The unit of event e of p: FMT_RATIO, a time (fmt_unit_ps), or 0. */
uint64_t fmt_event_unit(const struct profile *p, uint32_t e);
/* The time unit an event's name states ("Time_(10ns)": 10,000 ps), 0 for none. */
uint64_t fmt_unit_ps(struct span name);
/* "once", "2 times", "1,234 times" */
char *fmt_times(char *buf, uint64_t n);
/*
 * "12.34%", "100.0%", "0.00%" ("-" when total is 0); above the total as it
 * is, "250.0%", "25687%", "2.6e6%": never cut, never over six characters.
 */
char *fmt_percent(char *buf, uint64_t v, uint64_t total);

/* One name alone in width columns: shorten_name (model/shorten.h). */
char *fmt_short_name(char *out, size_t size, struct span name, int width);

#endif
