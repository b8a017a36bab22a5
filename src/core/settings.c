/*
 * settings: the table of SETTING_LIST, and what the prompt, the batch and
 * the help ask of it (a name's setting, its value words, the usage).
 */
#include "ncgrind/core/settings.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct setting_info infos[] = {[SET_NONE] = {"", "", "", false},
#define S(id, name, values, help, batch, set, get) [SET_##id] = {name, values, help, batch},
					    SETTING_LIST(S)
#undef S
};

enum setting setting_find(const char *name, size_t len)
{
	if (len == 5 && !memcmp(name, "color", 5)) /* as people spell it too */
		return SET_COLOUR;
	for (int s = SET_NONE + 1; s < SET_COUNT; s++)
		if (strlen(infos[s].name) == len && !memcmp(infos[s].name, name, len))
			return (enum setting)s;
	return SET_NONE;
}

const struct setting_info *setting_info(enum setting s)
{
	return &infos[s < SET_COUNT ? s : SET_NONE];
}

const char *setting_value_word(enum setting s, size_t i, char *buf, size_t size)
{
	const char *p = setting_info(s)->values;

	for (;;) {
		size_t len = strcspn(p, "|");

		if (!len || isupper((unsigned char)*p)) /* a placeholder: no words to offer */
			return NULL;
		if (!i--) {
			snprintf(buf, size, "%.*s", (int)len, p);
			return buf;
		}
		if (!p[len])
			return NULL;
		p += len + 1;
	}
}

bool setting_on_off(const char *value, bool *on)
{
	if (!strcmp(value, "on") || !strcmp(value, "yes") || !strcmp(value, "true"))
		return *on = true, true;
	if (!strcmp(value, "off") || !strcmp(value, "no") || !strcmp(value, "false"))
		return *on = false, true;
	return false;
}

bool setting_check(enum setting s, const char *value, char *why, size_t size)
{
	const struct setting_info *in = setting_info(s);
	char w[64];
	bool words = setting_value_word(s, 0, w, sizeof(w)) != NULL;

	if (*value && !strcmp(in->values, "PCT")) {
		char *end;
		double v = strtod(value, &end);

		if (end != value && !*end && v >= 0 && v <= 100)
			return true;
	} else if (*value && !strcmp(in->values, "on|off")) {
		bool on;

		if (setting_on_off(value, &on))
			return true;
	} else if (*value && words) {
		for (size_t i = 0; setting_value_word(s, i, w, sizeof(w)); i++)
			if (!strcmp(w, value))
				return true;
	} else if (*value) {
		return true; /* a placeholder: DIR, FROM=TO, EVENTS */
	}
	snprintf(why, size, "usage: set %s %s", in->name, in->values);
	return false;
}

char *setting_names(char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int s = SET_NONE + 1; s < SET_COUNT && o < size; s++)
		o += (size_t)snprintf(buf + o, size - o, "%s%s", o ? ", " : "", infos[s].name);
	return buf;
}

char *setting_usage(char *buf, size_t size, bool batch_only)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int s = SET_NONE + 1; s < SET_COUNT && o < size; s++)
		if (!batch_only || infos[s].batch)
			o += (size_t)snprintf(buf + o, size - o, "%sset %s %s", o ? ", " : "",
					      infos[s].name, infos[s].values);
	return buf;
}
