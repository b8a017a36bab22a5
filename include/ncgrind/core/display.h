/*
 * display: the settings every screen reads, held once by the browser: the
 * event shown (and sorted by), the units, the percentages, the threshold of
 * new call trees. A change goes to every screen from one place (the ui's
 * refresh of the history). Cycle detection and demangling are settings
 * here too; the browser gives them to each profile it holds (their
 * inclusive costs and names follow them).
 */
#ifndef NCGRIND_DISPLAY_H
#define NCGRIND_DISPLAY_H

#include <stdbool.h>
#include <stdint.h>

/* Events shown beside the current one, at most. */
#define DISPLAY_MAX_COLUMNS 16

struct display {
	uint32_t event; /* the event shown and sorted by */
	/* :set columns, --events: the events of the columns, the current one among them or not */
	uint32_t columns[DISPLAY_MAX_COLUMNS];
	uint32_t ncolumns;
	bool short_units;  /* 1.2G instead of 1,234,567,890 */
	uint64_t unit_ps;  /* the event's time unit (Time_(10ns)): short units are a time */
	bool show_percent; /* the percentage columns */
	double threshold;  /* new call trees fold what is under this percent of the root */
	bool cycles;       /* cycle detection: a cycle is one node */
	bool demangle;     /* names demangled */
};

/* The settings of a new browser: event 0, exact numbers, percentages, 1%, cycles, demangled. */
static inline struct display display_default(void)
{
	struct display d = {0};

	d.show_percent = true;
	d.cycles = d.demangle = true;
	d.threshold = 1.0;
	return d;
}

#endif
