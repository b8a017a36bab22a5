/*
 * settings: what `:set NAME VALUE` changes, listed once (an X-macro, as
 * commands.h lists the commands and keys.h the requests): the name, the
 * values it takes, what it does, and whether the batch reports take it from
 * --command. The prompt's :set and its completion, the batch, the help and
 * the manual's test all read this list; the browser applies a setting by
 * the function named here (ui/ui_settings.c), nothing in the core does.
 */
#ifndef NCGRIND_SETTINGS_H
#define NCGRIND_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * ID, name, values (words separated by '|', or a placeholder in capitals),
 * what it does, batch (--command in the reports), the browser's functions
 * that apply it and that say its value (ui/ui_settings.c):
 * void set(struct ui *, const char *value) and
 * void get(const struct ui *, char *buf, size_t size): its values into buf,
 * one a line, as :write-config writes them (include and substitute-path can
 * have several, or none).
 */
#define SETTING_LIST(S)                                                                            \
	S(UNITS, "units", "exact|short", "exact numbers or short units (1.2G)", false, set_units,  \
	  get_units)                                                                               \
	S(PERCENT, "percent", "on|off", "the percentage columns", false, set_percent, get_percent) \
	S(COLOUR, "colour", "on|off", "colour on the terminal (also: color)", false, set_colour,   \
	  get_colour)                                                                              \
	S(MOUSE, "mouse", "on|off", "clicks and the mouse wheel (off: a drag selects text)",       \
	  false, set_mouse, get_mouse)                                                             \
	S(CYCLES, "cycles", "on|off",                                                              \
	  "cycle detection: a cycle is one node, or calls are followed one by one", true,          \
	  set_cycles, get_cycles)                                                                  \
	S(DEMANGLE, "demangle", "on|off", "names demangled, or as the profile writes them", false, \
	  set_demangle, get_demangle)                                                              \
	S(COLUMNS, "columns", "EVENTS|none", "several events side by side (a list of names)",      \
	  false, set_columns, get_columns)                                                         \
	S(THRESHOLD, "threshold", "PCT", "call trees fold the branches under PCT% of the root",    \
	  false, set_threshold, get_threshold)                                                     \
	S(INCLUDE, "include", "DIR", "look for source files under DIR too", false, set_include,    \
	  get_include)                                                                             \
	S(SUBSTITUTE_PATH, "substitute-path", "FROM=TO",                                           \
	  "look for a source file that starts with FROM under TO", false, set_substitute_path,     \
	  get_substitute_path)                                                                     \
	S(CACHE, "cache", "on|off",                                                                \
	  "keep the index of a big profile in ~/.cache/ncgrind: it opens again at once", false,    \
	  set_cache, get_cache)                                                                    \
	S(CACHE_SIZE, "cache-size", "SIZE",                                                        \
	  "the most the kept indexes take together (1G, 500M; the oldest go first)", false,        \
	  set_cache_size, get_cache_size)

enum setting {
	SET_NONE,
#define S(id, ...) SET_##id,
	SETTING_LIST(S)
#undef S
	    SET_COUNT
};

struct setting_info {
	const char *name, *values, *help;
	bool batch;
};

/* The setting called name (len bytes; "color" is colour), or SET_NONE. */
enum setting setting_find(const char *name, size_t len);
const struct setting_info *setting_info(enum setting s);
/*
 * The i-th word of a setting's values ("on", "off"), into buf; NULL past
 * the last, or when the values are a placeholder (DIR, PCT).
 */
const char *setting_value_word(enum setting s, size_t i, char *buf, size_t size);
/* on, yes, true (*on true) or off, no, false (*on false); false: none of them. */
bool setting_on_off(const char *value, bool *on);
/*
 * Whether value is one setting s takes, as far as can be told without a
 * profile (a word of its list, on/off/yes/no/true/false, a percentage from
 * 0 to 100); false with the usage in why.
 */
bool setting_check(enum setting s, const char *value, char *why, size_t size);
/* "units, percent, colour, ...": every setting's name, into buf. */
char *setting_names(char *buf, size_t size);
/* "set units exact|short, set percent on|off, ...": every setting's usage, into buf. */
char *setting_usage(char *buf, size_t size, bool batch_only);

#endif
