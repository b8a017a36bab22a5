/*
 * fmt: the number and name formats of the browser.
 */
#include "ncgrind/model/fmt.h"
#include "ncgrind/model/grid.h"

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

char *fmt_percent(char *buf, uint64_t v, uint64_t total)
{
	if (!total)
		snprintf(buf, FMT_NUM, "-");
	else if (v >= total || 100.0 * (double)v / (double)total >= 99.995)
		snprintf(buf, FMT_NUM, "100.0%%"); /* not "100.00%": one column too wide */
	else
		snprintf(buf, FMT_NUM, "%.2f%%", 100.0 * (double)v / (double)total);
	return buf;
}

/* Whether the bracket at i belongs to an operator name (operator<, operator()). */
static bool is_operator(const char *s, size_t i)
{
	return i >= 8 && memcmp(s + i - 8, "operator", 8) == 0;
}

/*
 * Copy name into out, replacing what is inside open/close pairs at depth
 * `from` and deeper by an ellipsis. Returns the length written.
 */
static size_t collapse(char *out, size_t size, struct span name, char open, char close)
{
	static const char ell[] = "\xe2\x80\xa6"; /* … */
	size_t o = 0;
	int depth = 0;

	for (size_t i = 0; i < name.len && o + 4 < size; i++) {
		char c = name.ptr[i];

		if (c == open && !is_operator(name.ptr, i)) {
			if (depth++ == 0) {
				out[o++] = c;
				memcpy(out + o, ell, 3);
				o += 3;
			}
			continue;
		}
		if (c == close && depth > 0 && !(close == '>' && i && name.ptr[i - 1] == '-')) {
			if (--depth == 0)
				out[o++] = c;
			continue;
		}
		if (depth == 0)
			out[o++] = c;
	}
	out[o] = '\0';
	return o;
}

static void cut_end(char *out, size_t size, int width)
{
	static const char ell[] = "\xe2\x80\xa6";
	size_t len = strlen(out);

	if (len > size - 4)
		len = size - 4; /* room for the ellipsis and the NUL */
	if (width < 1)
		width = 1;
	while (len && grid_width(out, len) > width - 1)
		len--;
	/* do not split a UTF-8 sequence */
	while (len && ((unsigned char)out[len] & 0xc0) == 0x80)
		len--;
	memcpy(out + len, ell, 4);
}

/* Length of the hex address at the start of name ("0x" and digits), 0 if none. */
static size_t address_len(struct span name)
{
	size_t i = 2;

	if (name.len < 3 || name.ptr[0] != '0' || (name.ptr[1] != 'x' && name.ptr[1] != 'X'))
		return 0;
	while (i < name.len && isxdigit((unsigned char)name.ptr[i]))
		i++;
	return i > 2 ? i : 0;
}

/*
 * Code without a symbol is named by its address, 0x0000000000f4a3b0: cutting
 * the end would make all of them read 0x0000000000f4…. Drop the leading
 * zeros, then keep the end, where addresses differ: …f4a3b0.
 */
static char *short_address(char *out, size_t size, struct span name, size_t alen, int width)
{
	size_t z = 2, n, skip = 0;

	while (z + 1 < alen && name.ptr[z] == '0')
		z++;
	n = (size_t)snprintf(out, size, "0x%.*s", (int)(name.len - z), name.ptr + z);
	if (n >= size)
		n = size - 1;
	if (width < 2 || grid_width(out, n) <= width)
		return out;
	while (skip < n && grid_width(out + skip, n - skip) > width - 1)
		skip++;
	while (skip < n && ((unsigned char)out[skip] & 0xc0) == 0x80)
		skip++;
	memmove(out + 3, out + skip, n - skip + 1);
	memcpy(out, "\xe2\x80\xa6", 3);
	return out;
}

char *fmt_short_name(char *out, size_t size, struct span name, int width)
{
	char *tmp;
	size_t alen;

	if (size < 8) {
		out[0] = '\0';
		return out;
	}
	if (grid_width(name.ptr, name.len) <= width) {
		size_t n = name.len < size - 1 ? name.len : size - 1;

		memcpy(out, name.ptr, n);
		out[n] = '\0';
		return out;
	}
	if ((alen = address_len(name)) != 0)
		return short_address(out, size, name, alen, width);
	tmp = xmalloc(size);
	collapse(tmp, size, name, '<', '>');
	if (grid_width(tmp, strlen(tmp)) > width)
		collapse(out, size, span_make(tmp, strlen(tmp)), '(', ')');
	else
		memcpy(out, tmp, strlen(tmp) + 1);
	free(tmp);
	if (grid_width(out, strlen(out)) > width)
		cut_end(out, size, width);
	return out;
}
