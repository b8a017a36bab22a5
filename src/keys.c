/*
 * keys: the bindings. curses.h is included for the KEY_* constants only;
 * nothing here talks to the terminal.
 */
#define _XOPEN_SOURCE 700
#include "ncgrind/keys.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define CTRL(c) ((c) & 0x1f)

static const struct binding {
	int key;
	enum request req;
} bindings[] = {
	{'j', REQ_MOVE_DOWN},     {KEY_DOWN, REQ_MOVE_DOWN},      {'k', REQ_MOVE_UP},
	{KEY_UP, REQ_MOVE_UP},    {KEY_NPAGE, REQ_PAGE_DOWN},     {CTRL('f'), REQ_PAGE_DOWN},
	{' ', REQ_PAGE_DOWN},     {KEY_PPAGE, REQ_PAGE_UP},       {CTRL('b'), REQ_PAGE_UP},
	{KEY_HOME, REQ_MOVE_FIRST}, {'g', REQ_MOVE_FIRST},        {KEY_END, REQ_MOVE_LAST},
	{'G', REQ_MOVE_LAST},     {'i', REQ_SORT_INCL},           {'s', REQ_SORT_SELF},
	{'c', REQ_SORT_CALLS},    {'a', REQ_SORT_NAME},           {'\t', REQ_EVENT_NEXT},
	{KEY_BTAB, REQ_EVENT_PREV}, {'u', REQ_TOGGLE_UNITS},      {'%', REQ_TOGGLE_PERCENT},
	{'/', REQ_SEARCH},        {'n', REQ_SEARCH_NEXT},         {'N', REQ_SEARCH_PREV},
	{'>', REQ_NAME_RIGHT},    {'<', REQ_NAME_LEFT},           {'?', REQ_HELP},
	{KEY_F(1), REQ_HELP},     {CTRL('l'), REQ_REDRAW},        {'q', REQ_QUIT},
};

static const char *const help_text[] = {
	[REQ_NONE] = "",
#define R(name, help) [REQ_##name] = help,
	REQUEST_LIST(R)
#undef R
};

static const struct {
	int key;
	const char *name;
} names[] = {
	{KEY_DOWN, "Down"},   {KEY_UP, "Up"},         {KEY_LEFT, "Left"},     {KEY_RIGHT, "Right"},
	{KEY_NPAGE, "PgDn"},  {KEY_PPAGE, "PgUp"},    {KEY_HOME, "Home"},     {KEY_END, "End"},
	{KEY_BTAB, "S-Tab"},  {KEY_F(1), "F1"},       {KEY_BACKSPACE, "Backspace"},
	{KEY_DC, "Delete"},   {KEY_RESIZE, "Resize"}, {'\n', "Enter"},        {'\t', "Tab"},
	{27, "Esc"},          {' ', "Space"},         {127, "Backspace"},
};

enum request keys_request(int key)
{
	for (size_t i = 0; i < sizeof(bindings) / sizeof(bindings[0]); i++)
		if (bindings[i].key == key)
			return bindings[i].req;
	return REQ_NONE;
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

char *keys_of_request(enum request req, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(bindings) / sizeof(bindings[0]); i++) {
		char nb[16];
		const char *n;

		if (bindings[i].req != req)
			continue;
		n = keys_name(bindings[i].key, nb, sizeof(nb));
		o += (size_t)snprintf(buf + o, o < size ? size - o : 0, "%s%s", o ? ", " : "", n);
		if (o >= size)
			break;
	}
	return buf;
}
