/*
 * memwatch: the peak of the anonymous memory over a run, for --stats and
 * the bench. The kernel keeps the peak of the whole resident set (VmHWM),
 * which counts the mapped profile too; the index's own memory is the
 * anonymous part, which has no peak of its own: a thread samples it.
 */
#ifndef NCGRIND_MEMWATCH_H
#define NCGRIND_MEMWATCH_H

#include <stdbool.h>

/* Start sampling (every millisecond, from /proc/self/statm); false if it cannot. */
bool memwatch_start(void);
/* Stop; the highest anonymous memory seen, in kB (-1: not started). */
long memwatch_stop(void);
/* The anonymous memory now, in kB (-1: unknown); without the sampling thread. */
long memwatch_anon_kb(void);

#endif
