/*
 * commands: the prompt's commands, listed once (an X-macro, as keys.h lists
 * the requests): the name, the usage line, what it does, whether the batch
 * reports take it from --command, what Tab completes its argument to, and
 * the browser's function that runs it.
 * The prompt, its completion, the batch filters of main.c, :help and the
 * manual's test all read this list; nothing in the core runs a command.
 */
#ifndef NCGRIND_COMMANDS_H
#define NCGRIND_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>

/* What Tab completes an argument to. */
enum command_arg {
	CARG_NONE,
	CARG_REGEX, /* a function name, as a regular expression (file:, object: too) */
	CARG_EVENT, /* an event name */
	CARG_SORT,  /* a sort key */
	CARG_SET,   /* a setting, then its value */
	CARG_TEXT,  /* anything: a number, a path */
};

/*
 * ID, name, handler, usage, what it does, batch (--command in the reports),
 * argument. The handler is the browser's function that runs it (see
 * ui_internal.h: void handler(struct ui *, const char *cmd, const char *arg));
 * outside the browser it is only a name, never referred to.
 */
#define COMMAND_LIST(C)                                                                            \
	C(FILTER, "filter", cmd_filter, "filter [file:|object:]REGEX",                             \
	  "keep the functions (files, objects) that match; alone: all", true, CARG_REGEX)          \
	C(FOCUS, "focus", cmd_filter, "focus REGEX",                                               \
	  "keep the matches, what they call and what calls them", true, CARG_REGEX)                \
	C(IGNORE, "ignore", cmd_filter, "ignore REGEX",                                            \
	  "drop the matches and what only they lead to", true, CARG_REGEX)                         \
	C(HIDE, "hide", cmd_filter, "hide REGEX",                                                  \
	  "trees skip the matching frames, joining their calls", true, CARG_REGEX)                 \
	C(SORT, "sort", cmd_sort, "sort incl|self|calls|name", "sort the screen", false,           \
	  CARG_SORT)                                                                               \
	C(EVENT, "event", cmd_event, "event NAME [= FORMULA]",                                     \
	  "show the event NAME; with = FORMULA make it (a sum, or a ratio A / B)", false,          \
	  CARG_EVENT)                                                                              \
	C(EVENTS, "events", cmd_events, "events", "the events: totals, formulas; Enter shows one", \
	  false, CARG_NONE)                                                                        \
	C(THRESHOLD, "threshold", cmd_setting, "threshold PCT",                                    \
	  "trees fold the branches under PCT% of the root", false, CARG_TEXT)                      \
	C(GOTO, "goto", cmd_goto, "goto REGEX",                                                    \
	  "back to the table, on the next function that matches", false, CARG_REGEX)               \
	C(TOP, "top", cmd_top, "top N", "show only the first N functions of the table (0: all)",   \
	  false, CARG_TEXT)                                                                        \
	C(SET, "set", cmd_set, "set NAME VALUE",                                                   \
	  "change a setting (help lists them; the reports take set cycles on|off)", true,          \
	  CARG_SET)                                                                                \
	C(INCLUDE, "include", cmd_setting, "include DIR", "look for source files under DIR too",   \
	  false, CARG_TEXT)                                                                        \
	C(SUBSTITUTE_PATH, "substitute-path", cmd_setting, "substitute-path FROM=TO",              \
	  "look for a source file that starts with FROM under TO", false, CARG_TEXT)               \
	C(OPEN, "open", cmd_open, "open FILE", "read another profile", false, CARG_TEXT)           \
	C(ADD, "add", cmd_add, "add FILE", "read another file into the profile: its costs add up", \
	  false, CARG_TEXT)                                                                        \
	C(DIFF, "diff", cmd_diff, "diff FILE|off",                                                 \
	  "what changed from FILE (the base) to this profile; off: the diff closes", false,        \
	  CARG_TEXT)                                                                               \
	C(GROUP, "group", cmd_group, "group object|file|class|cycle|none",                         \
	  "the functions grouped by ELF object, source file, class or cycle; none: back", false,   \
	  CARG_TEXT)                                                                               \
	C(PARTS, "parts", cmd_parts, "parts [[base|new] LIST]",                                    \
	  "the parts (dumps, threads, files); LIST (1,3-5, t2, FILE:N, all): only those count "    \
	  "(in a diff: of the new profile, or of the base)",                                       \
	  false, CARG_TEXT)                                                                        \
	C(RELOAD, "reload", cmd_reload, "reload, R",                                               \
	  "read the profile again (it changed on disk)", false, CARG_NONE)                         \
	C(WRITE, "write", cmd_write, "write FILE", "write the screen as text, all of it", false,   \
	  CARG_TEXT)                                                                               \
	C(WRITE_CONFIG, "write-config", cmd_write_config, "write-config FILE",                     \
	  "write the settings, key bindings and colours as a configuration file", false,           \
	  CARG_TEXT)                                                                               \
	C(HELP, "help", cmd_help, "help", "the keys and these commands", false, CARG_NONE)         \
	C(QUIT, "quit", cmd_quit, "quit, q", "quit", false, CARG_NONE)                             \
	C(SAVE_SCREEN, "save-screen", cmd_save_screen, "save-screen FILE",                         \
	  "write the screen as it is (scripts)", false, CARG_TEXT)                                 \
	C(RESIZE, "resize", cmd_resize, "resize COLSxROWS", "the size of the screen (scripts)",    \
	  false, CARG_TEXT)

enum command {
	CMD_NONE,
#define C(id, name, handler, usage, help, batch, arg) CMD_##id,
	COMMAND_LIST(C)
#undef C
	    CMD_COUNT
};

struct command_info {
	const char *name, *usage, *help;
	bool batch;
	enum command_arg arg;
};

/* The command named by the len bytes at name ("q" is quit), or CMD_NONE. */
enum command command_find(const char *name, size_t len);
const struct command_info *command_info(enum command c);

#endif
