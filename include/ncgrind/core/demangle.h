/*
 * demangle: names as people read them. A profile made with valgrind
 * --demangle=no (which keeps overloads apart) names functions as the
 * compiler does: Itanium C++ (_Z...), Rust legacy (_ZN...17h<hash>E) and
 * v0 (_R...). libiberty's cplus_demangle, the one Valgrind and c++filt use,
 * turns them into C++ or Rust names, with the same options as Valgrind's
 * (parameters, ANSI qualifiers), so that a profile recorded either way
 * shows the same names. A name is demangled the first time it is shown and
 * kept; a name that is not mangled is not looked at twice.
 */
#ifndef NCGRIND_DEMANGLE_H
#define NCGRIND_DEMANGLE_H

#include "ncgrind/core/util.h"

#include <stdbool.h>
#include <stdint.h>

/*
 * The longest name demangled: real symbols are far shorter, and a name of
 * the profile's making must not cost time or memory out of proportion.
 */
#define DEMANGLE_MAX 4096

/* Whether a name may be mangled: _Z or _R first (a cheap test, before the cache). */
static inline bool demangle_candidate(struct span s)
{
	return s.len > 2 && s.len <= DEMANGLE_MAX && s.ptr[0] == '_' &&
	       (s.ptr[1] == 'Z' || s.ptr[1] == 'R');
}

struct demangle_cache;

/*
 * The demangled form of name id (raw as written), or raw when it is not a
 * mangled name; *cache is made on first use (nnames ids). Callgrind's
 * "'N" suffix of a recursion level (--separate-recs) is kept after it.
 */
struct span demangle_name(struct demangle_cache **cache, uint32_t id, struct span raw,
			  size_t nnames);
void demangle_release(struct demangle_cache *cache);

#endif
