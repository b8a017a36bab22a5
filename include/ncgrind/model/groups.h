/*
 * groups: the functions grouped by their ELF object, source file, C++ or
 * Rust class (or namespace: the scope of the demangled name) or cycle, as
 * KCachegrind groups them and perf sorts by dso. A group has the summed self
 * cost of its functions, and an inclusive cost as if it were one function:
 * its self cost and the calls from its functions to functions outside it
 * (calls inside the group are in its self cost already), at most the total.
 * Only the functions a filter keeps count. No curses.
 */
#ifndef NCGRIND_GROUPS_H
#define NCGRIND_GROUPS_H

#include "ncgrind/core/profile.h"

#include <stdbool.h>

enum group_kind { GROUP_NONE, GROUP_OBJECT, GROUP_FILE, GROUP_CLASS, GROUP_CYCLE };
/* How many kinds there are (the last one above + 1): for the lists of names. */
#define GROUP_KINDS (GROUP_CYCLE + 1)

struct group {
	char *name;     /* as shown: "(no class)", "<cycle 3>", a path */
	uint64_t *self; /* nev values */
	uint64_t *incl; /* nev values */
	uint32_t nfuncs;
	uint32_t first; /* the first function; the others by groups.next */
};

struct groups {
	enum group_kind kind;
	struct group *v;
	size_t n;
	uint32_t *next;     /* per function: the next function of its group */
	uint32_t *group_of; /* per function: its group, NCG_NONE if it counts in none */
	uint32_t nev;
};

/* "object", "file", "class", "cycle", "none" -> the kind; -1 if none of them. */
int groups_kind_parse(const char *word, enum group_kind *kind);
const char *groups_kind_name(enum group_kind kind);

/*
 * Group the used functions that keep says count (keep NULL: all of them).
 * With kind GROUP_NONE there is no group.
 */
void groups_build(struct groups *g, const struct profile *p, enum group_kind kind,
		  const bool *keep);
void groups_release(struct groups *g);

/* The class of a demangled C++ or Rust name: its scope, or an empty span. */
struct span groups_class_of(struct span name);

/* Group indexes by self (incl) cost of event ev, largest first, or by name (by_name). */
size_t *groups_order(const struct groups *g, uint32_t ev, bool incl, bool by_name);

#endif
