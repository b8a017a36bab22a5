/*
 * prompt: the command line, edited with libedit (histedit.h); the only
 * module that uses libedit.
 *
 * libedit edits only on a terminal, and its readline emulation does not call
 * a redisplay hook, so neither stdin nor readline mode will do: the prompt
 * gives libedit a pseudo-terminal of its own (openpty) as input and output,
 * feeds it keys through EL_GETCFN from whatever the browser reads (the
 * terminal or a script), runs it EL_UNBUFFERED so that el_wgets() returns
 * after every key, throws away what libedit writes to the pty, and lets the
 * browser draw the line from el_line(). curses' key codes for arrows, Home,
 * End and Delete are handed to libedit as the escape sequences it binds.
 * Emacs keys, ~/.editrc, a bounded history kept in a file, and completion.
 */
#ifndef NCGRIND_PROMPT_H
#define NCGRIND_PROMPT_H

#include <stddef.h>

struct prompt;

/*
 * Complete the word that ends at the end of line (the text before the
 * cursor); the callback decides where the word starts (a function name may
 * hold blanks). Writes what to insert at the cursor into insert (the rest of
 * the common prefix) and a list of the candidates into hint; returns how
 * many there are.
 */
typedef size_t (*prompt_complete_fn)(void *ctx, const char *line, char *insert, size_t insert_size,
				     char *hint, size_t hint_size);

/* history: the file to load and save (NULL: none). Returns NULL with err filled. */
struct prompt *prompt_new(const char *history, prompt_complete_fn complete, void *ctx, char *err,
			  size_t errsize);
/* Saves the history. */
void prompt_free(struct prompt *p);

/* Start a new, empty line. */
void prompt_begin(struct prompt *p);

enum prompt_result { PROMPT_EDITING, PROMPT_DONE, PROMPT_CANCEL };

/*
 * One key (a curses key code, or a character). On PROMPT_DONE *line is the
 * line entered (valid until the next call), added to the history. Esc, C-g,
 * and Backspace on an empty line give PROMPT_CANCEL.
 */
enum prompt_result prompt_key(struct prompt *p, int key, const char **line);

/* The line being edited (UTF-8) and the cursor, in bytes; for drawing. */
const char *prompt_text(struct prompt *p, size_t *cursor);
/* Candidates the last Tab found when it could not decide, "" otherwise. */
const char *prompt_hint(const struct prompt *p);

/*
 * $XDG_STATE_HOME/ncgrind/NAME, else ~/.local/state/ncgrind/NAME (caller
 * frees): "history" for commands, "search-history" for searches.
 */
char *prompt_history_path(const char *name);

#endif
