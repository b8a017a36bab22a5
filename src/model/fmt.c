/*
 * fmt: the number and name formats of the browser.
 */
#include "ncgrind/model/fmt.h"
#include "ncgrind/model/grid.h"
#include "ncgrind/model/shorten.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <inttypes.h>
#include <string.h>

char *fmt_cost(char *buf, uint64_t v, bool short_units)
{
	static const char units[] = "KMGTPE";
	double d = (double)v;
	int u = -1;

	if (!short_units || v < 10000)
		return fmt_commas(buf, v);
	while (d >= 999.5 && u < 5) {
		d /= 1000.0;
		u++;
	}
	snprintf(buf, FMT_NUM, d < 99.95 ? "%.1f%c" : "%.0f%c", d, units[u]);
	return buf;
}

char *fmt_value(char *buf, uint64_t v, bool short_units, uint64_t unit_ps)
{
	static const char *const units[] = {"ps", "ns", "us", "ms", "s"};
	double d = (double)v * (double)unit_ps;
	int u = 0;

	if (unit_ps == FMT_RATIO) { /* millionths, as a decimal */
		snprintf(buf, FMT_NUM, "%.4f", (double)v / EVENT_RATIO_ONE);
		return buf;
	}
	if (!short_units || !unit_ps)
		return fmt_cost(buf, v, short_units);
	if (v == 0)
		return strcpy(buf, "0");
	while (d >= 999.5 && u < 4) {
		d /= 1000.0;
		u++;
	}
	snprintf(buf, FMT_NUM, d < 99.95 ? "%.1f%s" : "%.0f%s", d, units[u]);
	return buf;
}

char *fmt_delta(char *buf, uint64_t base, uint64_t new)
{
	if (new == base)
		snprintf(buf, FMT_NUM, "0");
	else if (new > base)
		snprintf(buf, FMT_NUM, "+%" PRIu64, new - base);
	else
		snprintf(buf, FMT_NUM, "-%" PRIu64, base - new);
	return buf;
}

char *fmt_change(char *buf, uint64_t base, uint64_t new, bool short_units, uint64_t unit_ps)
{
	buf[0] = new > base ? '+' : new < base ? '-' : '\0';
	fmt_value(buf + (buf[0] != '\0'), new >= base ? new - base : base - new, short_units,
		  unit_ps);
	return buf;
}

char *fmt_share(char *buf, uint64_t base, uint64_t new, uint64_t total)
{
	double ch = new >= base ? (double)(new - base) : -(double)(base - new);

	if (!total)
		snprintf(buf, FMT_NUM, "-");
	else
		snprintf(buf, FMT_NUM, "%+.2f", 100.0 * ch / (double)total);
	return buf;
}

char *fmt_ratio(char *buf, uint64_t base, uint64_t new)
{
	if (!base)
		snprintf(buf, FMT_NUM, new ? "inf" : "-");
	else
		snprintf(buf, FMT_NUM, "%.3f", (double)new / (double)base);
	return buf;
}

uint64_t fmt_event_unit(const struct profile *p, uint32_t e)
{
	if (e >= p->nev)
		return 0;
	return p->events[e].ratio ? FMT_RATIO : fmt_unit_ps(p->events[e].name);
}

uint64_t fmt_unit_ps(struct span name)
{
	static const struct {
		const char *unit;
		uint64_t ps;
	} units[] = {{"ps", 1},          {"ns", 1000},
		     {"us", 1000000},    {"\xc2\xb5s", 1000000},
		     {"ms", 1000000000}, {"s", 1000000000000}};
	const char *open = NULL, *p;
	uint64_t n = 0;

	/* NAME_(Nunit) or NAME_(unit): the part in parentheses at the end */
	for (size_t i = 0; i + 1 < name.len; i++)
		if (name.ptr[i] == '_' && name.ptr[i + 1] == '(')
			open = name.ptr + i + 2;
	if (!open || name.ptr[name.len - 1] != ')')
		return 0;
	for (p = open; *p >= '0' && *p <= '9' && n < 1000000; p++)
		n = n * 10 + (uint64_t)(*p - '0');
	if (p == open)
		n = 1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t len = strlen(units[i].unit);

		if ((size_t)(name.ptr + name.len - 1 - p) == len && !memcmp(p, units[i].unit, len))
			return n * units[i].ps;
	}
	return 0;
}

char *fmt_times(char *buf, uint64_t n)
{
	char num[FMT_NUM];

	if (n == 1)
		snprintf(buf, FMT_NUM + 8, "once");
	else
		snprintf(buf, FMT_NUM + 8, "%s times", fmt_commas(num, n));
	return buf;
}

/*
 * Never cut to 100%: a share above its base is a fact to see (a recorded
 * recursive call was 25687% of the total). At most six characters, as wide
 * as "48.78%", so the columns sized for it hold any: fewer decimals as the
 * value grows, and past 99999% a power of ten, "2.6e6%".
 */
char *fmt_percent(char *buf, uint64_t v, uint64_t total)
{
	double pc = total ? 100.0 * (double)v / (double)total : 0.0;
	int exp = 0;

	if (!total)
		snprintf(buf, FMT_NUM, "-");
	else if (pc < 99.995)
		snprintf(buf, FMT_NUM, "%.2f%%", pc);
	else if (pc < 999.95) /* "100.0%": "100.00%" is one column too wide */
		snprintf(buf, FMT_NUM, "%.1f%%", pc);
	else if (pc < 99999.5)
		snprintf(buf, FMT_NUM, "%.0f%%", pc);
	else {
		while (pc >= 9.95) {
			pc /= 10.0;
			exp++;
		}
		snprintf(buf, FMT_NUM, exp < 10 ? "%.1fe%d%%" : "%.0fe%d%%", pc, exp);
	}
	return buf;
}

char *fmt_short_name(char *out, size_t size, struct span name, int width)
{
	return shorten_name(out, size, name, width);
}
