/*
 * shorten: the name shortening of the browser, without the browser, for
 * test/names.bats. `shorten WIDTH` reads the rows shown together from
 * standard input, one a line: NAME, or NAME TAB FILE, or NAME TAB FILE TAB
 * SUFFIX, and prints each row as shorten_rows cuts it to WIDTH columns.
 */
#include "ncgrind/model/shorten.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OUT_SIZE 1024

static char *field(char **p)
{
	char *s = *p, *tab = s ? strchr(s, '\t') : NULL;

	if (tab) {
		*tab = '\0';
		*p = tab + 1;
	} else {
		*p = NULL;
	}
	return s;
}

int main(int argc, char **argv)
{
	struct shorten_row *rows = NULL;
	size_t n = 0, cap = 0;
	char line[8192];
	int width;

	setlocale(LC_ALL, "");
	if (argc != 2 || (width = atoi(argv[1])) < 1) {
		fprintf(stderr, "usage: shorten WIDTH <rows\n");
		return 2;
	}
	while (fgets(line, sizeof(line), stdin)) {
		char *rest = xstrdup(line), *name, *file, *suffix;

		rest[strcspn(rest, "\n")] = '\0';
		name = field(&rest);
		file = field(&rest);
		suffix = field(&rest);
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			rows = xrealloc(rows, cap * sizeof(*rows));
		}
		rows[n].name = span_make(name, strlen(name));
		rows[n].file = file ? span_make(file, strlen(file)) : span_make("", 0);
		rows[n].suffix = suffix;
		rows[n].width = width;
		rows[n].size = OUT_SIZE;
		rows[n].out = xmalloc(OUT_SIZE);
		n++;
	}
	shorten_rows(rows, n);
	for (size_t i = 0; i < n; i++) {
		printf("%s\n", rows[i].out);
		free(rows[i].out);
		free((char *)rows[i].name.ptr); /* the line's copy: the name is its start */
	}
	free(rows);
	return 0;
}
