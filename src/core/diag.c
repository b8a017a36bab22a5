/*
 * diag: collects reader messages. Bounded so that a file of garbage cannot
 * turn into gigabytes of messages, while the counts stay exact.
 */
#include "ncgrind/core/diag.h"
#include "ncgrind/core/escape.h"
#include "ncgrind/core/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void diag_init(struct diag *d, const char *path)
{
	memset(d, 0, sizeof(*d));
	d->path = path;
}

void diag_release(struct diag *d)
{
	for (size_t i = 0; i < d->nr; i++)
		free(d->msgs[i].text);
	free(d->msgs);
	memset(d, 0, sizeof(*d));
}

int diag_add(struct diag *d, enum diag_level level, uint64_t line, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (!d)
		return -1; /* block mode re-reads lines already reported */
	if (level == DIAG_WARNING)
		d->warnings++;
	else if (level == DIAG_ERROR)
		d->errors++;
	else
		d->fatals++;
	/* Keep room for a fatal message even when the list is full. */
	if (d->nr >= DIAG_KEEP && level != DIAG_FATAL)
		return -1;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ALLOC_GROW(d->msgs, d->nr + 1, d->alloc);
	d->msgs[d->nr].level = level;
	d->msgs[d->nr].line = line;
	d->msgs[d->nr].path = d->path;
	d->msgs[d->nr].text = xstrdup(buf);
	d->nr++;
	return -1;
}

char *diag_quote(char *buf, const char *p, size_t n, size_t max)
{
	char esc[ESCAPE_MAX];
	size_t o = 0, i = 0;

	/* the one rule of escape.h: a bad token reads as the screens show it */
	while (i < n) {
		size_t len = escape_next(p + i, n - i, esc);

		if (i + len > max)
			break;
		if (esc[0]) {
			memcpy(buf + o, esc, strlen(esc));
			o += strlen(esc);
		} else {
			memcpy(buf + o, p + i, len);
			o += len;
		}
		i += len;
	}
	if (i < n) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
	return buf;
}

void diag_format(const struct diag *d, const struct diag_msg *m, char *buf, size_t size)
{
	const char *kind = m->level == DIAG_WARNING ? "warning: " : "";
	const char *path = m->path ? m->path : d->path;

	if (m->line)
		snprintf(buf, size, "%s:%llu: %s%s", path, (unsigned long long)m->line, kind,
			 m->text);
	else
		snprintf(buf, size, "%s: %s%s", path, kind, m->text);
}

void diag_write(const struct diag *d, FILE *out)
{
	char buf[1200];
	size_t total = d->errors + d->warnings + d->fatals;

	for (size_t i = 0; i < d->nr; i++) {
		diag_format(d, &d->msgs[i], buf, sizeof(buf));
		escape_message(out, "%s", buf); /* the path and the names in the text */
	}
	if (total > d->nr)
		escape_message(out, "%s: %zu more message%s not shown", d->path, total - d->nr,
			       total - d->nr == 1 ? "" : "s");
}
