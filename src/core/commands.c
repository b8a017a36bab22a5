/*
 * commands: the table of the prompt's commands (see commands.h).
 */
#include "ncgrind/core/commands.h"

#include <string.h>

static const struct command_info table[] = {[CMD_NONE] = {"", "", "", false, CARG_NONE},
#define C(id, name, handler, usage, help, batch, arg) [CMD_##id] = {name, usage, help, batch, arg},
					    COMMAND_LIST(C)
#undef C
};

enum command command_find(const char *name, size_t len)
{
	if (len == 1 && name[0] == 'q')
		return CMD_QUIT;
	for (int c = CMD_NONE + 1; c < CMD_COUNT; c++)
		if (strlen(table[c].name) == len && !memcmp(table[c].name, name, len))
			return (enum command)c;
	return CMD_NONE;
}

const struct command_info *command_info(enum command c)
{
	return &table[c < CMD_COUNT ? c : CMD_NONE];
}
