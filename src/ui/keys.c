/*
 * keys: the bindings. curses.h is included for the KEY_* constants only;
 * nothing here talks to the terminal.
 */
#define _XOPEN_SOURCE 700
#include "ncgrind/ui/keys.h"

#include <ctype.h>
#include <curses.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define CTRL KEYS_CTRL

#define SAME(ours, theirs) _Static_assert((int)(ours) == (theirs), #ours " is curses' " #theirs)
SAME(KEYS_DOWN, KEY_DOWN);
SAME(KEYS_UP, KEY_UP);
SAME(KEYS_LEFT, KEY_LEFT);
SAME(KEYS_RIGHT, KEY_RIGHT);
SAME(KEYS_HOME, KEY_HOME);
SAME(KEYS_BACKSPACE, KEY_BACKSPACE);
SAME(KEYS_F1, KEY_F(1));
SAME(KEYS_DC, KEY_DC);
SAME(KEYS_NPAGE, KEY_NPAGE);
SAME(KEYS_PPAGE, KEY_PPAGE);
SAME(KEYS_ENTER, KEY_ENTER);
SAME(KEYS_BTAB, KEY_BTAB);
SAME(KEYS_END, KEY_END);
SAME(KEYS_MOUSE, KEY_MOUSE);
SAME(KEYS_RESIZE, KEY_RESIZE);

/*
 * The generic keymap: moving, the history, the prompts, the settings every
 * screen shows, and opening a screen on the selected function. A screen's
 * own keymap (at the end of its file) comes first.
 */
static const struct key_binding generic[] = {
    {'j', REQ_MOVE_DOWN, NULL},
    {KEY_DOWN, REQ_MOVE_DOWN, NULL},
    {'k', REQ_MOVE_UP, NULL},
    {KEY_UP, REQ_MOVE_UP, NULL},
    {KEY_NPAGE, REQ_PAGE_DOWN, NULL},
    {CTRL('f'), REQ_PAGE_DOWN, NULL},
    {' ', REQ_PAGE_DOWN, NULL},
    {KEY_PPAGE, REQ_PAGE_UP, NULL},
    {CTRL('b'), REQ_PAGE_UP, NULL},
    {KEY_HOME, REQ_MOVE_FIRST, NULL},
    {'g', REQ_MOVE_FIRST, NULL},
    {KEY_END, REQ_MOVE_LAST, NULL},
    {'G', REQ_MOVE_LAST, NULL},
    {'\n', REQ_ENTER, NULL},
    {KEY_ENTER, REQ_ENTER, NULL},
    {KEY_BACKSPACE, REQ_BACK, NULL},
    {127, REQ_BACK, NULL},
    {27, REQ_BACK, NULL},
    {'[', REQ_HISTORY_BACK, NULL},
    {']', REQ_HISTORY_FORWARD, NULL},
    {'t', REQ_TREE, NULL},
    {'r', REQ_TREE_CALLERS, NULL},
    {'T', REQ_TREE_TOP, NULL},
    {'F', REQ_FLAME, NULL},
    {'v', REQ_SOURCE, NULL},
    {'V', REQ_INSTR, NULL},
    {'e', REQ_EDIT, NULL},
    {'\t', REQ_EVENT_NEXT, NULL},
    {KEY_BTAB, REQ_EVENT_PREV, NULL},
    {'U', REQ_TOGGLE_UNITS, NULL},
    {'%', REQ_TOGGLE_PERCENT, NULL},
    {'M', REQ_TOGGLE_DEMANGLE, NULL},
    {'@', REQ_TOGGLE_CYCLES, NULL},
    {'O', REQ_GROUP, NULL},
    {'P', REQ_PARTS, NULL},
    {'R', REQ_RELOAD, NULL},
    {':', REQ_PROMPT, NULL},
    {'u', REQ_UNDO_FILTER, NULL},
    {'/', REQ_SEARCH, NULL},
    {'n', REQ_SEARCH_NEXT, NULL},
    {'N', REQ_SEARCH_PREV, NULL},
    {'?', REQ_HELP, NULL},
    {KEY_F(1), REQ_HELP, NULL},
    {CTRL('l'), REQ_REDRAW, NULL},
    {'q', REQ_CLOSE, NULL},
    {'Q', REQ_QUIT, NULL},
};

struct keymap keys_generic = KEYMAP("generic", "every screen", generic);

static const char *const help_text[] = {[REQ_NONE] = "",
#define R(name, help) [REQ_##name] = help,
					REQUEST_LIST(R)
#undef R
};

static const char *const request_ids[] = {[REQ_NONE] = "NONE",
#define R(name, help) [REQ_##name] = #name,
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

const struct key_binding *keys_find(const struct keymap *m, int key)
{
	for (size_t i = 0; m && i < m->n; i++)
		if (m->b[i].key == key)
			return &m->b[i];
	return NULL;
}

enum request keys_request(int key, const struct keymap *own)
{
	const struct key_binding *b = keys_find(own, key);

	if (!b)
		b = keys_find(&keys_generic, key);
	return b ? b->req : REQ_NONE;
}

const char *keys_help(enum request req)
{
	return req < REQ_COUNT ? help_text[req] : "";
}

const char *keys_binding_help(const struct key_binding *b)
{
	return b->help ? b->help : keys_help(b->req);
}

const char *keys_request_name(enum request req, char *buf, size_t size)
{
	const char *id = req < REQ_COUNT ? request_ids[req] : "";
	size_t i;

	for (i = 0; id[i] && i + 1 < size; i++) /* MOVE_DOWN: move-down */
		buf[i] = id[i] == '_' ? '-' : (char)tolower((unsigned char)id[i]);
	if (size)
		buf[i] = '\0';
	return buf;
}

int keys_request_parse(const char *name)
{
	char buf[48];

	if (!strcmp(name, "none"))
		return REQ_NONE;
	for (int r = REQ_NONE + 1; r < REQ_COUNT; r++)
		if (!strcmp(keys_request_name((enum request)r, buf, sizeof(buf)), name))
			return r;
	return -1;
}

void keys_bind(struct keymap *m, int key, enum request req)
{
	const char *help = NULL;
	size_t i;

	if (!m->own) { /* the first change: a copy to change, with room for one more */
		m->own = malloc((m->n + 1) * sizeof(*m->own));
		if (!m->own)
			abort();
		if (m->n)
			memcpy(m->own, m->b, m->n * sizeof(*m->own));
		m->b = m->own;
	}
	for (i = 0; i < m->n && !help; i++) /* as its other keys on these screens say */
		if (m->b[i].req == req && m->b[i].key != key)
			help = m->b[i].help;
	for (i = 0; i < m->n; i++)
		if (m->b[i].key == key) {
			m->own[i] = (struct key_binding){key, req, help};
			return;
		}
	m->own = realloc(m->own, (m->n + 1) * sizeof(*m->own));
	if (!m->own)
		abort();
	m->own[m->n++] = (struct key_binding){key, req, help};
	m->b = m->own;
}

const char *keys_name(int key, char *buf, size_t size)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].key == key)
			return names[i].name;
	if (key > KEY_F(1) && key <= KEY_F(12))
		snprintf(buf, size, "F%d", key - KEY_F0);
	else if (key > 0 && key < 0x20)
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
	if ((name[0] == 'F' || name[0] == 'f') && name[1] >= '1' && name[1] <= '9') {
		int n = name[1] - '0';

		if (name[2] >= '0' && name[2] <= '2' && n == 1 && !name[3])
			n = 10 + name[2] - '0';
		else if (name[2])
			return -1;
		return KEY_F(n);
	}
	if (name[0] && !name[1])
		return (unsigned char)name[0];
	return -1;
}

bool keys_parse_mouse(const char *name, struct mouse_event *ev)
{
	static const struct {
		const char *name;
		enum mouse_kind kind;
	} kinds[] = {{"Click", MOUSE_CLICK},
		     {"DoubleClick", MOUSE_DOUBLE_CLICK},
		     {"WheelUp", MOUSE_WHEEL_UP},
		     {"WheelDown", MOUSE_WHEEL_DOWN}};
	const char *at = strchr(name, ':');
	long row, col;
	char *end;

	for (size_t i = 0; at && i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strlen(kinds[i].name) != (size_t)(at - name) ||
		    strncasecmp(kinds[i].name, name, (size_t)(at - name)))
			continue;
		row = strtol(at + 1, &end, 10);
		if (end == at + 1 || *end != ',')
			return false;
		at = end + 1;
		col = strtol(at, &end, 10);
		if (end == at || *end || row < 1 || col < 1 || row > 100000 || col > 100000)
			return false;
		*ev = (struct mouse_event){kinds[i].kind, (int)row - 1, (int)col - 1};
		return true;
	}
	return false;
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

/* The keys of m bound to req with help text help, not bound in skip, into buf. */
static void keys_of(const struct keymap *m, const struct keymap *skip, enum request req,
		    const char *help, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < m->n; i++) {
		char nb[16];
		const char *n;
		size_t len;

		if (m->b[i].req != req || strcmp(keys_binding_help(&m->b[i]), help) ||
		    keys_find(skip, m->b[i].key))
			continue;
		n = keys_name(m->b[i].key, nb, sizeof(nb));
		len = strlen(n);
		/* two codes can have one name (Enter, Backspace): list it once */
		if (listed(buf, n, len))
			continue;
		o += (size_t)snprintf(buf + o, o < size ? size - o : 0, "%s%s", o ? ", " : "", n);
		if (o >= size)
			break;
	}
}

void keys_each(const struct keymap *m, const struct keymap *skip, keys_each_fn *fn, void *ctx)
{
	for (size_t i = 0; i < m->n; i++) {
		const char *help = keys_binding_help(&m->b[i]);
		char keys[128];
		bool seen = m->b[i].req == REQ_NONE; /* unbound by the configuration */

		/* once per request and help, at its first binding */
		for (size_t j = 0; j < i && !seen; j++)
			seen = m->b[j].req == m->b[i].req &&
			       !strcmp(keys_binding_help(&m->b[j]), help);
		if (seen)
			continue;
		keys_of(m, skip, m->b[i].req, help, keys, sizeof(keys));
		if (keys[0])
			fn(ctx, m->b[i].req, keys, help);
	}
}
