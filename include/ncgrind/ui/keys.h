/*
 * keys: requests, the keys bound to them, and key names. One X-macro list
 * of requests with their help text gives the enum, the help screen and the
 * key table of the manual page (tig's request.h). Key codes are those of
 * curses: characters as themselves, special keys as KEY_* values; script
 * mode turns key names into the same codes, so both inputs share one path.
 */
#ifndef NCGRIND_KEYS_H
#define NCGRIND_KEYS_H

#include <stddef.h>

#define REQUEST_LIST(R)                                                                            \
	R(MOVE_DOWN, "move down one line")                                                         \
	R(MOVE_UP, "move up one line")                                                             \
	R(PAGE_DOWN, "move down one page")                                                         \
	R(PAGE_UP, "move up one page")                                                             \
	R(MOVE_FIRST, "go to the first function")                                                  \
	R(MOVE_LAST, "go to the last function")                                                    \
	R(SORT_INCL, "sort by inclusive cost (again: reverse)")                                    \
	R(SORT_SELF, "sort by self cost (again: reverse)")                                         \
	R(SORT_CALLS, "sort by call count (again: reverse)")                                       \
	R(SORT_NAME, "sort by name (again: reverse)")                                              \
	R(EVENT_NEXT, "show the next event")                                                       \
	R(EVENT_PREV, "show the previous event")                                                   \
	R(TOGGLE_UNITS, "exact numbers or short units (1.2G)")                                     \
	R(TOGGLE_PERCENT, "show or hide the percentages")                                          \
	R(TOGGLE_DEMANGLE, "names demangled, or as the profile writes them (mangled)")             \
	R(GROUP, "group the functions by object (again: file, class, cycle)")                      \
	R(PROMPT, "command prompt (filter, focus, sort, ...; help lists them)")                    \
	R(UNDO_FILTER, "undo the last filter")                                                     \
	R(SEARCH, "search what the rows show (names, lines) with a regex")                         \
	R(SEARCH_NEXT, "go to the next match")                                                     \
	R(SEARCH_PREV, "go to the previous match")                                                 \
	R(NAME_RIGHT, "scroll the full name of the function right")                                \
	R(NAME_LEFT, "scroll the full name of the function left")                                  \
	R(ENTER, "open the function: its callers and callees")                                     \
	R(BACK, "go back to the previous screen")                                                  \
	R(HISTORY_BACK, "back in the history of screens")                                          \
	R(HISTORY_FORWARD, "forward in the history of screens")                                    \
	R(TREE, "call tree of the function (its callees)")                                         \
	R(TREE_CALLERS, "inverted tree: its callers, upward")                                      \
	R(TREE_TOP, "call tree from the entry points")                                             \
	R(FLAME, "flame graph of the function (from the table: of the entry points)")              \
	R(EXPAND, "expand the node one level")                                                     \
	R(COLLAPSE, "collapse the node (or go to its parent)")                                     \
	R(EXPAND_HOT, "expand the hottest path below the node")                                    \
	R(EXPAND_ALL, "expand everything above the threshold")                                     \
	R(COLLAPSE_ALL, "collapse the whole tree")                                                 \
	R(THRESHOLD_DOWN, "halve the threshold (show smaller branches)")                           \
	R(THRESHOLD_UP, "double the threshold (fold more branches)")                               \
	R(TOGGLE_CYCLES, "cycle detection on or off (<cycle N>, or call by call)")                 \
	R(SOURCE, "annotated source of the function")                                              \
	R(INSTR, "instructions of the function (disassembly)")                                     \
	R(NEXT_COSTLY, "go to the next line with cost")                                            \
	R(PREV_COSTLY, "go to the previous line with cost")                                        \
	R(ONLY_COSTLY, "show only the lines with cost (and some around them)")                     \
	R(NEXT_FILE, "next file of the function (inlined code)")                                   \
	R(PREV_FILE, "previous file of the function")                                              \
	R(HELP, "show the keys")                                                                   \
	R(REDRAW, "redraw the screen")                                                             \
	R(CLOSE, "close the screen and go back (on the first screen: quit)")                       \
	R(QUIT, "quit, from any screen")                                                           \
	R(RELOAD, "read the profile again, keeping the screen (after it changed on disk)")         \
	R(PARTS, "the parts (dumps, threads, files): choose which count")                          \
	R(PART_TOGGLE, "count the part or not")                                                    \
	R(PARTS_ALL, "count every part")

enum request {
	REQ_NONE,
#define R(name, help) REQ_##name,
	REQUEST_LIST(R)
#undef R
	    REQ_COUNT
};

/*
 * Characters above U+00FF are moved out of the range of curses' KEY_*
 * codes, so that a key code is either a special key or a character.
 */
#define KEYS_WIDE_BASE 0x1000000
#define KEYS_CHAR(wc) ((wc) < 0x100 ? (int)(wc) : KEYS_WIDE_BASE + (int)(wc))

/* Where a binding holds: the screens of the browser. */
enum keys_scope {
	SCOPE_TABLE = 1,  /* the function table */
	SCOPE_DETAIL = 2, /* a function's callers and callees */
	SCOPE_TREE = 4,   /* a call tree */
	SCOPE_SOURCE = 8, /* annotated source or instructions */
	SCOPE_PARTS = 16, /* the parts screen */
	SCOPE_ALL = 31,
};

/* The request bound to a key code on a screen of this scope, or REQ_NONE. */
enum request keys_request(int key, enum keys_scope scope);
/* The scopes a request has a key in. */
unsigned keys_scopes(enum request req);
const char *keys_help(enum request req);

/* "Down", "C-f", "q", ... for key code key. */
const char *keys_name(int key, char *buf, size_t size);
/* The key code of a name as written in scripts and help, or -1. */
int keys_parse(const char *name);

/* Writes "j, Down, ..." (the keys of req) into buf. */
char *keys_of_request(enum request req, char *buf, size_t size);

#endif
