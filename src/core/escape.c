/*
 * escape: one decoder of UTF-8 for every writer of text (the text reports,
 * tsv on a terminal, json, the annotated source, the browser's grid for
 * the bidi controls) and for every message on standard error, so that they
 * agree on what is shown as it is.
 */
#include "ncgrind/core/escape.h"

#include <stdlib.h>

size_t escape_utf8(const char *s, size_t n, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len;
	uint32_t c;

	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	if ((u[0] & 0xe0) == 0xc0)
		len = 2, c = u[0] & 0x1f;
	else if ((u[0] & 0xf0) == 0xe0)
		len = 3, c = u[0] & 0x0f;
	else if ((u[0] & 0xf8) == 0xf0)
		len = 4, c = u[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (u[i] & 0x3f);
	}
	if ((len == 2 && c < 0x80) || (len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

bool escape_wanted(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x061c || cp == 0x200e ||
	       cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

size_t escape_next(const char *s, size_t n, char esc[ESCAPE_MAX])
{
	uint32_t cp = 0;
	size_t len = escape_utf8(s, n, &cp);

	esc[0] = '\0';
	if (len == 0 || (len == 1 && escape_wanted(cp)))
		snprintf(esc, ESCAPE_MAX, "\\x%02x", (unsigned char)s[0]);
	else if (escape_wanted(cp))
		snprintf(esc, ESCAPE_MAX, "\\u%04x", (unsigned)cp);
	return len ? len : 1;
}

void escape_write(FILE *out, struct span s)
{
	char esc[ESCAPE_MAX];

	for (size_t i = 0; i < s.len;) {
		size_t n = escape_next(s.ptr + i, s.len - i, esc);

		if (esc[0])
			fputs(esc, out);
		else
			fwrite(s.ptr + i, 1, n, out);
		i += n;
	}
}

size_t escape_copy(char *buf, size_t size, struct span s)
{
	char esc[ESCAPE_MAX];
	size_t o = 0;

	for (size_t i = 0; i < s.len;) {
		size_t n = escape_next(s.ptr + i, s.len - i, esc);
		const char *from = esc[0] ? esc : s.ptr + i;
		size_t len = esc[0] ? strlen(esc) : n;

		if (o + len >= size)
			break;
		memcpy(buf + o, from, len);
		o += len;
		i += n;
	}
	buf[o] = '\0';
	return o;
}

void escape_vmessage(FILE *out, const char *fmt, va_list ap)
{
	char small[1024], *buf = small;
	va_list again;
	int len;

	va_copy(again, ap);
	len = vsnprintf(small, sizeof(small), fmt, ap);
	/* plain malloc: die() writes through here, and xmalloc() dies */
	if (len >= (int)sizeof(small) && (buf = malloc((size_t)len + 1)) != NULL)
		vsnprintf(buf, (size_t)len + 1, fmt, again);
	else
		buf = small; /* (cut where malloc failed) */
	va_end(again);
	if (len > 0)
		escape_write(out, span_make(buf, strlen(buf)));
	fputc('\n', out);
	if (buf != small)
		free(buf);
}

void escape_message(FILE *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	escape_vmessage(out, fmt, ap);
	va_end(ap);
}
