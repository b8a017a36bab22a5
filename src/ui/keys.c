/*
 * keys: the bindings. curses.h is included for the KEY_* constants only;
 * nothing here talks to the terminal.
 */
#define _XOPEN_SOURCE 700
#include "ncgrind/ui/keys.h"

#include <curses.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define CTRL(c) ((c)&0x1f)

#define ALL SCOPE_ALL
#define TBL SCOPE_TABLE
#define DET SCOPE_DETAIL
#define TRE SCOPE_TREE
#define SRC SCOPE_SOURCE
#define PRT SCOPE_PARTS

/* The first binding of a key that holds on the screen wins. */
static const struct binding {
	int key;
	enum request req;
	unsigned scope;
} bindings[] = {
    {'j', REQ_MOVE_DOWN, ALL},
    {KEY_DOWN, REQ_MOVE_DOWN, ALL},
    {'k', REQ_MOVE_UP, ALL},
    {KEY_UP, REQ_MOVE_UP, ALL},
    {KEY_NPAGE, REQ_PAGE_DOWN, ALL},
    {CTRL('f'), REQ_PAGE_DOWN, ALL},
    {' ', REQ_PART_TOGGLE, PRT},
    {' ', REQ_PAGE_DOWN, ALL},
    {KEY_PPAGE, REQ_PAGE_UP, ALL},
    {CTRL('b'), REQ_PAGE_UP, ALL},
    {KEY_HOME, REQ_MOVE_FIRST, ALL},
    {'g', REQ_MOVE_FIRST, ALL},
    {KEY_END, REQ_MOVE_LAST, ALL},
    {'G', REQ_MOVE_LAST, ALL},
    {'i', REQ_SORT_INCL, TBL | DET},
    {'s', REQ_SORT_SELF, TBL | DET},
    {'c', REQ_SORT_CALLS, TBL | DET},
    {'a', REQ_SORT_NAME, TBL | DET},
    {'a', REQ_PARTS_ALL, PRT},
    {'P', REQ_PARTS, ALL},
    {'\t', REQ_NEXT_COSTLY, SRC},
    {KEY_BTAB, REQ_PREV_COSTLY, SRC},
    {'\t', REQ_EVENT_NEXT, ALL},
    {KEY_BTAB, REQ_EVENT_PREV, ALL},
    {'U', REQ_TOGGLE_UNITS, ALL},
    {'R', REQ_RELOAD, ALL},
    {':', REQ_PROMPT, ALL},
    {'u', REQ_UNDO_FILTER, ALL},
    {'%', REQ_TOGGLE_PERCENT, ALL},
    {'/', REQ_SEARCH, ALL},
    {'n', REQ_SEARCH_NEXT, ALL},
    {'N', REQ_SEARCH_PREV, ALL},
    {'>', REQ_NAME_RIGHT, TBL | SRC},
    {'<', REQ_NAME_LEFT, TBL | SRC},
    {'\n', REQ_ENTER, ALL},
    {KEY_ENTER, REQ_ENTER, ALL},
    {KEY_RIGHT, REQ_EXPAND, TRE},
    {'l', REQ_EXPAND, TRE},
    {'+', REQ_EXPAND, TRE},
    {KEY_RIGHT, REQ_ENTER, TBL | DET | SRC | PRT},
    {KEY_LEFT, REQ_COLLAPSE, TRE},
    {'h', REQ_COLLAPSE, TRE},
    {'-', REQ_COLLAPSE, TRE},
    {KEY_BACKSPACE, REQ_BACK, ALL},
    {127, REQ_BACK, ALL},
    {KEY_LEFT, REQ_BACK, TBL | DET | SRC | PRT},
    {'h', REQ_BACK, TBL | DET | SRC | PRT},
    {'[', REQ_HISTORY_BACK, ALL},
    {']', REQ_HISTORY_FORWARD, ALL},
    {'t', REQ_TREE, ALL},
    {'r', REQ_TREE_CALLERS, ALL},
    {'T', REQ_TREE_TOP, ALL},
    {'e', REQ_EXPAND_HOT, TRE},
    {'E', REQ_EXPAND_ALL, TRE},
    {'C', REQ_COLLAPSE_ALL, TRE},
    {'(', REQ_THRESHOLD_DOWN, TRE},
    {')', REQ_THRESHOLD_UP, TRE},
    {'@', REQ_TOGGLE_CYCLES, ALL},
    {'v', REQ_SOURCE, ALL},
    {'V', REQ_INSTR, ALL},
    {'o', REQ_ONLY_COSTLY, SRC},
    {'f', REQ_NEXT_FILE, SRC},
    {'F', REQ_PREV_FILE, SRC},
    {'?', REQ_HELP, ALL},
    {KEY_F(1), REQ_HELP, ALL},
    {CTRL('l'), REQ_REDRAW, ALL},
    {'q', REQ_CLOSE, ALL},
    {'Q', REQ_QUIT, ALL},
    {'M', REQ_TOGGLE_DEMANGLE, ALL},
    {'O', REQ_GROUP, ALL},
    {'F', REQ_FLAME, TBL | DET | TRE},
    {27, REQ_BACK, ALL},
};

static const char *const help_text[] = {[REQ_NONE] = "",
#define R(name, help) [REQ_##name] = help,
					REQUEST_LIST(R)
#undef R
};

static const struct {
	int key;
	const char *name;
} names[] = {
    {KEY_DOWN, "Down"},
    {KEY_UP, "Up"},
    {KEY_LEFT, "Left"},
    {KEY_RIGHT, "Right"},
    {KEY_NPAGE, "PgDn"},
    {KEY_PPAGE, "PgUp"},
    {KEY_HOME, "Home"},
    {KEY_END, "End"},
    {KEY_BTAB, "S-Tab"},
    {KEY_F(1), "F1"},
    {KEY_BACKSPACE, "Backspace"},
    {KEY_DC, "Delete"},
    {KEY_RESIZE, "Resize"},
    {'\n', "Enter"},
    {'\t', "Tab"},
    {27, "Esc"},
    {' ', "Space"},
    {127, "Backspace"},
    {KEY_ENTER, "Enter"},
};

enum request keys_request(int key, enum keys_scope scope)
{
	for (size_t i = 0; i < sizeof(bindings) / sizeof(bindings[0]); i++)
		if (bindings[i].key == key && (bindings[i].scope & scope))
			return bindings[i].req;
	return REQ_NONE;
}

unsigned keys_scopes(enum request req)
{
	unsigned scopes = 0;

	for (size_t i = 0; i < sizeof(bindings) / sizeof(bindings[0]); i++)
		if (bindings[i].req == req)
			scopes |= bindings[i].scope;
	return scopes;
}

const char *keys_help(enum request req)
{
	return req < REQ_COUNT ? help_text[req] : "";
}

const char *keys_name(int key, char *buf, size_t size)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].key == key)
			return names[i].name;
	if (key > 0 && key < 0x20)
		snprintf(buf, size, "C-%c", key + 'a' - 1);
	else if (key >= 0x20 && key < 0x7f)
		snprintf(buf, size, "%c", key);
	else
		snprintf(buf, size, "<%d>", key);
	return buf;
}

int keys_parse(const char *name)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcasecmp(names[i].name, name))
			return names[i].key;
	if (!strcasecmp(name, "PageDown") || !strcasecmp(name, "NPage"))
		return KEY_NPAGE;
	if (!strcasecmp(name, "PageUp") || !strcasecmp(name, "PPage"))
		return KEY_PPAGE;
	if (!strcasecmp(name, "BTab") || !strcasecmp(name, "BackTab"))
		return KEY_BTAB;
	if ((name[0] == 'C' || name[0] == 'c') && name[1] == '-' && name[2] && !name[3])
		return CTRL(name[2]);
	if (name[0] && !name[1])
		return (unsigned char)name[0];
	return -1;
}

/* Whether name n is one of the ", "-separated names in list. */
static bool listed(const char *list, const char *n, size_t len)
{
	for (const char *p = list; *p;) {
		size_t l = strcspn(p, ",");

		if (l == len && !memcmp(p, n, len))
			return true;
		p += l;
		p += strspn(p, ", ");
	}
	return false;
}

char *keys_of_request(enum request req, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(bindings) / sizeof(bindings[0]); i++) {
		char nb[16];
		const char *n;
		size_t len;

		if (bindings[i].req != req)
			continue;
		n = keys_name(bindings[i].key, nb, sizeof(nb));
		len = strlen(n);
		/* two codes can have one name (Enter, Backspace): list it once */
		if (listed(buf, n, len))
			continue;
		o += (size_t)snprintf(buf + o, o < size ? size - o : 0, "%s%s", o ? ", " : "", n);
		if (o >= size)
			break;
	}
	return buf;
}
