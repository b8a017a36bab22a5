/*
 * keys: requests, the keys bound to them, and key names. One X-macro list
 * of requests with their help text gives the enum, the help screen and the
 * key table of the manual page (tig's request.h). Key codes are those of
 * curses: characters as themselves, special keys as KEY_* values; script
 * mode turns key names into the same codes, so both inputs share one path.
 */
#ifndef NCGRIND_KEYS_H
#define NCGRIND_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#define REQUEST_LIST(R)                                                                            \
	R(MOVE_DOWN, "move down one line")                                                         \
	R(MOVE_UP, "move up one line")                                                             \
	R(PAGE_DOWN, "move down one page")                                                         \
	R(PAGE_UP, "move up one page")                                                             \
	R(MOVE_FIRST, "go to the first row")                                                       \
	R(MOVE_LAST, "go to the last row")                                                         \
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
	R(EXPAND_ALL, "expand everything below the node above the threshold")                      \
	R(COLLAPSE_ALL, "collapse the whole tree")                                                 \
	R(THRESHOLD_DOWN, "halve the threshold (show smaller branches)")                           \
	R(THRESHOLD_UP, "double the threshold (fold more branches)")                               \
	R(TOGGLE_CYCLES, "cycle detection on or off (<cycle N>, or call by call)")                 \
	R(SOURCE, "annotated source of the function")                                              \
	R(INSTR, "instructions of the function (disassembly)")                                     \
	R(EDIT, "edit the function's source ($VISUAL, else $EDITOR) at its first line with cost")  \
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
	R(PART_TOGGLE, "count the part or not, and go to the next")                                \
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
/*
 * The special keys as curses codes them (keys.c checks each against
 * curses.h), so that a screen's keymap needs no curses.
 */
enum keys_special {
	KEYS_DOWN = 0402,
	KEYS_UP = 0403,
	KEYS_LEFT = 0404,
	KEYS_RIGHT = 0405,
	KEYS_HOME = 0406,
	KEYS_BACKSPACE = 0407,
	KEYS_F1 = 0411,
	KEYS_DC = 0512,
	KEYS_NPAGE = 0522,
	KEYS_PPAGE = 0523,
	KEYS_ENTER = 0527,
	KEYS_BTAB = 0541,
	KEYS_END = 0550,
	KEYS_MOUSE = 0631,
	KEYS_RESIZE = 0632,
};

/*
 * The mouse: the key KEYS_MOUSE stands for an event that the terminal
 * (term_mouse()) or a script (Click:ROW,COL) describes: what, and where on
 * the screen (row and column from 0). A double click is its second press,
 * soon after the first at the same place; the buttons' releases and the
 * other buttons are no events.
 */
enum mouse_kind { MOUSE_CLICK, MOUSE_DOUBLE_CLICK, MOUSE_WHEEL_UP, MOUSE_WHEEL_DOWN };
struct mouse_event {
	enum mouse_kind kind;
	int row, col;
};

/* Control-c: the key code of C-c. */
#define KEYS_CTRL(c) ((c)&0x1f)
#define KEYS_CHAR(wc) ((wc) < 0x100 ? (int)(wc) : KEYS_WIDE_BASE + (int)(wc))

/* A key and its request on a screen; help: what it does there (NULL: the request's help). */
struct key_binding {
	int key;
	enum request req;
	const char *help;
};

/*
 * The bindings of one scope: a kind of screen's own keymap (tig keeps one a
 * view), or the generic one every screen falls back to. name: the scope as
 * --list-keys prints it (and a configuration file will bind in); what: the
 * screen, as help's heading says it.
 */
struct keymap {
	const char *name, *what;
	const struct key_binding *b;
	size_t n;
	struct key_binding *own; /* keys_bind()'s copy of b, where b now points; or NULL */
};

#define KEYMAP(name, what, array)                                                                  \
	{                                                                                          \
		(name), (what), (array), sizeof(array) / sizeof((array)[0]), NULL                  \
	}

/* The generic keymap: what holds on every screen unless its own keymap binds the key. */
extern struct keymap keys_generic;

/* The request of key on a screen with keymap own (NULL: none): its own first, then the generic one.
 */
enum request keys_request(int key, const struct keymap *own);
/* The binding of key in m, or NULL. */
const struct key_binding *keys_find(const struct keymap *m, int key);
/* What a binding does (its own help, else its request's). */
const char *keys_binding_help(const struct key_binding *b);
const char *keys_help(enum request req);
/* "sort-name", "tree-callers": the request's name, lower case with dashes, in buf. */
const char *keys_request_name(enum request req, char *buf, size_t size);
/* The request of that name (as keys_request_name writes it; "none" is REQ_NONE), or -1. */
int keys_request_parse(const char *name);
/*
 * Bind key to req in m (a configuration file's bind): the key's binding
 * there changes, or one is added, with the help the request has there.
 * REQ_NONE unbinds: the key does nothing on m's screens, even where the
 * generic keymap binds it.
 */
void keys_bind(struct keymap *m, int key, enum request req);

/* "Down", "C-f", "q", ... for key code key. */
const char *keys_name(int key, char *buf, size_t size);
/* The key code of a name as written in scripts and help, or -1. */
int keys_parse(const char *name);
/*
 * A script's mouse event: Click, DoubleClick, WheelUp or WheelDown, then
 * :ROW,COL counted from 1 as the terminal counts them (Click:8,10 is the
 * eighth row's tenth column); false when name is none.
 */
bool keys_parse_mouse(const char *name, struct mouse_event *ev);

/*
 * The bindings of m by request, in the order of the keymap: calls fn once per
 * request and help text with its keys ("j, Down"). skip (may be NULL): keys not
 * to list (the generic keys that a screen's own keymap binds otherwise).
 */
typedef void keys_each_fn(void *ctx, enum request req, const char *keys, const char *help);
void keys_each(const struct keymap *m, const struct keymap *skip, keys_each_fn *fn, void *ctx);

#endif
