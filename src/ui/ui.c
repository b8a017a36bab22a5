/*
 * ui: the browser's loop. Input comes from one of two sources behind the
 * same function: the terminal (term.c) or a script of key names and
 * :commands (script mode, which never opens the terminal: CI has none).
 * A key becomes a request of the screen's keymap (or the generic one); the
 * screen handles it first, then what every screen does alike (moving, the
 * history, settings); after each key the screen is drawn again into the
 * grid, the last search's matches marked, and the terminal paints it or a
 * script saves it.
 */
#define _POSIX_C_SOURCE 200809L
#include "ui_internal.h"
#include "ncgrind/ui/keys.h"
#include "ncgrind/core/escape.h"
#include "ncgrind/core/parse.h"
#include "ncgrind/model/fmt.h"
#include "ncgrind/model/source.h"
#include "ncgrind/ui/term.h"

#include <ctype.h>
#include <errno.h>
#include <curses.h> /* KEY_* constants only: term.c is the curses user */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wchar.h>

#define KEY_END_OF_INPUT (-1)
#define ESC 27

void ui_message(struct ui *u, bool error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(u->vs.message, sizeof(u->vs.message), fmt, ap);
	va_end(ap);
	u->vs.message_is_error = error;
}

/* ---- script input ------------------------------------------------------ */

/* The next character of a "text" token, decoded as the terminal would. */
static int pending_char(struct script *s)
{
	mbstate_t st;
	wchar_t wc;
	size_t n;

	memset(&st, 0, sizeof(st));
	n = mbrtowc(&wc, s->pending, strlen(s->pending), &st);
	if (n == (size_t)-1 || n == (size_t)-2 || n == 0)
		return (unsigned char)*s->pending++;
	s->pending += n;
	return KEYS_CHAR(wc);
}

/*
 * The next token of the script: a key code, or 0 with a :command in *cmd.
 * A line is a :command, or key names separated by blanks; "text" in double
 * quotes types each of its characters; # starts a comment line. A mouse
 * event (Click:8,10) is KEYS_MOUSE, described in s->mouse.
 */
static int script_next(struct script *s, char **cmd)
{
	*cmd = NULL;
	for (;;) {
		char *p = s->cur, *end;
		int key;

		if (s->pending && *s->pending)
			return pending_char(s);
		s->pending = NULL;
		while (p && isspace((unsigned char)*p))
			p++;
		if (!p || !*p || (*p == '#' && p == s->line)) {
			if (getline(&s->line, &s->cap, s->f) < 0)
				return KEY_END_OF_INPUT;
			s->lineno++;
			s->cur = s->line;
			continue;
		}
		/* ":word" at the start of a line is a command; ": " is the ':' key */
		if (*p == ':' && isalpha((unsigned char)p[1]) &&
		    p == s->line + strspn(s->line, " \t")) {
			p[strcspn(p, "\n")] = '\0';
			s->cur = NULL;
			*cmd = p + 1;
			return 0;
		}
		if (*p == '"' && (end = strchr(p + 1, '"'))) {
			*end = '\0';
			s->pending = p + 1;
			s->cur = end + 1;
			continue;
		}
		for (end = p; *end && !isspace((unsigned char)*end); end++)
			;
		if (*end)
			*end++ = '\0';
		s->cur = end;
		if (keys_parse_mouse(p, &s->mouse))
			return KEYS_MOUSE;
		key = keys_parse(p);
		if (key >= 0)
			return key;
		escape_message(stderr, "%s:%llu: unknown key '%s'", s->path,
			       (unsigned long long)s->lineno, p);
	}
}

int ui_parse_size(const char *s, int *cols, int *rows)
{
	return sscanf(s, "%dx%d", cols, rows) == 2 && *cols > 0 && *rows > 0 && *cols < 10000 &&
		       *rows < 10000
		   ? 0
		   : -1;
}

int ui_close_written(struct ui *u, FILE *f, const char *path)
{
	if (f && fclose_written(f) == 0)
		return 0;
	snprintf(u->write_error, sizeof(u->write_error), "%s '%s': %s",
		 f ? "write error on" : "cannot write", path, strerror(errno));
	ui_message(u, true, "%s", u->write_error);
	return -1;
}

void ui_save_screen(struct ui *u, const char *path)
{
	FILE *f = fopen(path, "w");

	if (f)
		grid_save(&u->g, f);
	ui_close_written(u, f, path); /* (silent when written: the next screen saved stays clean) */
}

/* ---- requests ---------------------------------------------------------- */

int ui_list_rows(const struct ui *u)
{
	return view_list_rows(&u->g);
}

/* Enter on the command line or the search line. */
static void prompt_done(struct ui *u, const char *line)
{
	u->vs.prompting = false;
	if (u->vs.prompt_char == ':')
		ui_command(u, line);
	else
		ui_search(u, line);
}

/* The libedit line of ':' or '/'; NULL when it could not start. */
static struct prompt *prompt_of(struct ui *u, char lead)
{
	return lead == ':' ? u->prompt : u->search;
}

/* Open the command line (':') or the search line ('/'), empty. */
static void prompt_open(struct ui *u, char lead)
{
	struct prompt *p = prompt_of(u, lead);

	u->vs.prompting = true;
	u->vs.prompt_char = lead;
	u->vs.prompt_len = u->vs.prompt_cursor = 0;
	u->vs.prompt[0] = '\0';
	if (p)
		prompt_begin(p);
}

/* A key on a line that libedit edits; Enter runs the command or the search. */
static void prompt_key_edit(struct ui *u, struct prompt *p, int key)
{
	const char *line;
	enum prompt_result r = prompt_key(p, key, &line);

	if (r == PROMPT_CANCEL) {
		u->vs.prompting = false;
	} else if (r == PROMPT_DONE) {
		prompt_done(u, line);
	} else {
		size_t cursor;
		const char *text = prompt_text(p, &cursor);

		snprintf(u->vs.prompt, sizeof(u->vs.prompt), "%s", text);
		u->vs.prompt_len = strlen(u->vs.prompt);
		u->vs.prompt_cursor = cursor < u->vs.prompt_len ? cursor : u->vs.prompt_len;
		snprintf(u->vs.message, sizeof(u->vs.message), "%s", prompt_hint(p));
		u->vs.message_is_error = false;
	}
}

/*
 * Without libedit (no pseudo-terminal to give it): characters, Backspace,
 * Enter, Esc or C-g; the other special keys are ignored, not typed.
 */
static void prompt_key_simple(struct ui *u, int key)
{
	struct view_state *vs = &u->vs;

	if (key == '\n' || key == KEY_ENTER) {
		vs->prompt[vs->prompt_len] = '\0';
		prompt_done(u, vs->prompt);
	} else if (key == ESC || key == 7) {
		vs->prompting = false;
	} else if (key == KEY_BACKSPACE || key == 127 || key == 8) {
		while (vs->prompt_len &&
		       ((unsigned char)vs->prompt[vs->prompt_len - 1] & 0xc0) == 0x80)
			vs->prompt_len--;
		if (vs->prompt_len)
			vs->prompt_len--;
		else
			vs->prompting = false;
		vs->prompt_cursor = vs->prompt_len;
	} else if ((key >= 0x20 && key < 0x7f) || (key >= 0xa0 && key < 0x100) ||
		   key >= KEYS_WIDE_BASE) {
		char buf[8];
		mbstate_t st;
		size_t n;

		memset(&st, 0, sizeof(st));
		n = wcrtomb(buf, (wchar_t)(key >= KEYS_WIDE_BASE ? key - KEYS_WIDE_BASE : key),
			    &st);
		if (n != (size_t)-1 && vs->prompt_len + n < sizeof(vs->prompt) - 1) {
			memcpy(vs->prompt + vs->prompt_len, buf, n);
			vs->prompt_len += n;
			vs->prompt_cursor = vs->prompt_len;
		}
	}
}

static void prompt_key_any(struct ui *u, int key)
{
	struct prompt *p = prompt_of(u, u->vs.prompt_char);

	if (p)
		prompt_key_edit(u, p, key);
	else
		prompt_key_simple(u, key);
}

/* ---- screens ----------------------------------------------------------- */

const struct screen_ops *screen_ops_of(const struct screen *s)
{
	return s->ops;
}

struct screen *ui_push_screen(struct ui *u, const struct screen_ops *ops, void *state,
			      void (*release)(void *state))
{
	return hist_push(&u->hist, ops, state, release);
}

void ui_refresh_all(struct ui *u)
{
	for (size_t i = 0; i < u->hist.n; i++)
		screen_ops_of(&u->hist.screens[i])->update(u, &u->hist.screens[i]);
}

/* The first screen's cursor on fn, if it has such a row. */
void ui_select_first(struct ui *u, uint32_t fn)
{
	struct screen *first = &u->hist.screens[0];

	if (screen_ops_of(first)->select)
		screen_ops_of(first)->select(u, first, fn);
}

void ui_set_event(struct ui *u, uint32_t ev)
{
	if (ev >= u->ses.prof.nev)
		return;
	u->disp.event = ev;
	u->diff_event = NCG_NONE; /* the diff screens follow the event shown again */
	ui_refresh_all(u);
}

void ui_step_event(struct ui *u, int step)
{
	uint32_t n = u->ses.prof.nev;

	if (n)
		ui_set_event(u, (u->disp.event + n + (uint32_t)(step > 0 ? 1 : n - 1)) % n);
}

/* A moving or paging request on a list: the way it went (+1/-1), 0 when req is none. */
static int nav_request(struct nav *nav, enum request req, int page)
{
	switch (req) {
	case REQ_MOVE_DOWN:
		nav_move(nav, 1, page);
		return 1;
	case REQ_MOVE_UP:
		nav_move(nav, -1, page);
		return -1;
	case REQ_PAGE_DOWN:
		nav_page(nav, 1, page);
		return 1;
	case REQ_PAGE_UP:
		nav_page(nav, -1, page);
		return -1;
	case REQ_MOVE_FIRST:
		nav_to(nav, 0, page);
		return 1;
	case REQ_MOVE_LAST:
		nav_to(nav, nav->count ? nav->count - 1 : 0, page);
		return -1;
	default:
		return 0;
	}
}

/* Moving and paging, the same on every list screen. */
static bool move_request(struct ui *u, struct screen *s, enum request req)
{
	const struct screen_ops *ops = screen_ops_of(s);
	int dir = ops->nav ? nav_request(ops->nav(u, s), req, ops->rows(u)) : 0;

	if (!dir)
		return false;
	if (ops->moved)
		ops->moved(u, s, dir);
	return true;
}

/* t, r, v, Enter... where no function is selected: say so rather than do nothing. */
static bool opens_function(enum request req)
{
	return req == REQ_ENTER || req == REQ_SOURCE || req == REQ_INSTR || req == REQ_TREE ||
	       req == REQ_TREE_CALLERS || req == REQ_EDIT;
}

/* What every screen does alike: the history, opening screens, settings. */
static void common_request(struct ui *u, struct screen *s, enum request req)
{
	uint32_t fn = screen_ops_of(s)->selected(u, s);

	if (fn == NCG_NONE && opens_function(req)) {
		ui_message(u, false, "no function here to open");
		return;
	}
	switch (req) {
	case REQ_ENTER:
		ui_open_detail(u, fn);
		break;
	case REQ_SOURCE:
		ui_open_source(u, fn, false);
		break;
	case REQ_INSTR:
		ui_open_source(u, fn, true);
		break;
	case REQ_EDIT: /* (the source screens: at the cursor's line, by their own request) */
		ui_edit_function(u, fn);
		break;
	case REQ_TREE:
		ui_open_tree(u, fn, false, false);
		break;
	case REQ_TREE_CALLERS:
		ui_open_tree(u, fn, true, false);
		break;
	case REQ_TREE_TOP:
		ui_open_tree(u, NCG_NONE, false, true);
		break;
	case REQ_BACK: /* Backspace, Left, h, Esc: quietly nothing on the first screen */
		hist_back(&u->hist);
		break;
	case REQ_HISTORY_BACK:
		if (!hist_back(&u->hist))
			ui_message(u, false, "this is the first screen");
		break;
	case REQ_CLOSE:
		if (!hist_close(&u->hist))
			u->quit = true;
		break;
	case REQ_RELOAD:
		cmd_reload(u, "reload", "");
		break;
	case REQ_PARTS:
		cmd_parts(u, "parts", "");
		break;
	case REQ_HISTORY_FORWARD:
		if (!hist_forward(&u->hist))
			ui_message(u, false, "this is the last screen");
		break;
	case REQ_EVENT_NEXT:
	case REQ_EVENT_PREV:
		if (u->ses.prof.nev < 2) { /* say so, rather than do nothing */
			ui_message(u, false, "the profile has one event");
			break;
		}
		ui_step_event(u, req == REQ_EVENT_NEXT ? 1 : -1);
		break;
	case REQ_TOGGLE_CYCLES:
		ui_set_cycles(u, !u->disp.cycles);
		break;
	case REQ_GROUP:
		ui_group_next(u);
		break;
	case REQ_FLAME: /* from the table: the whole profile; elsewhere: the function */
		if (fn == NCG_NONE)
			ui_open_flame(u, NCG_NONE, false, true);
		else
			ui_open_flame(u, fn, false, false);
		break;
	case REQ_TOGGLE_DEMANGLE:
		ui_set_demangle(u, !u->disp.demangle);
		break;
	case REQ_TOGGLE_UNITS:
		u->disp.short_units = !u->disp.short_units;
		break;
	case REQ_TOGGLE_PERCENT:
		u->disp.show_percent = !u->disp.show_percent;
		break;
	case REQ_PROMPT:
		prompt_open(u, ':');
		break;
	case REQ_SEARCH:
		prompt_open(u, '/');
		break;
	case REQ_SEARCH_NEXT:
		ui_search_next(u, +1);
		break;
	case REQ_SEARCH_PREV:
		ui_search_next(u, -1);
		break;
	case REQ_UNDO_FILTER:
		ui_undo_filter(u);
		break;
	case REQ_HELP:
		ui_open_help(u);
		break;
	case REQ_QUIT:
		u->quit = true;
		break;
	default:
		break;
	}
}

/* Every keymap: the generic one, then each kind of screen's (SCREEN_LIST). */
static struct keymap *const keymaps[] = {&keys_generic,
#define S(kind) &keymap_##kind,
					 SCREEN_LIST(S)
#undef S
};

struct keymap *ui_keymap_find(const char *name)
{
	for (size_t i = 0; i < sizeof(keymaps) / sizeof(keymaps[0]); i++)
		if (!strcmp(keymaps[i]->name, name))
			return keymaps[i];
	return NULL;
}

char *ui_keymap_names(char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(keymaps) / sizeof(keymaps[0]) && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
					keymaps[i]->name);
	return buf;
}

struct list_keys {
	FILE *f;
	const char *scope;
};

static void list_key(void *ctx, enum request req, const char *keys, const char *help)
{
	struct list_keys *l = ctx;
	char name[32];

	fprintf(l->f, "%s\t%s\t%s\t%s\n", l->scope, keys,
		keys_request_name(req, name, sizeof(name)), help);
}

void ui_list_keys(FILE *f)
{
	for (size_t i = 0; i < sizeof(keymaps) / sizeof(keymaps[0]); i++) {
		struct list_keys l = {f, keymaps[i]->name};

		keys_each(keymaps[i], NULL, list_key, &l);
	}
}

/* The screen's own handler first (tig's view_request), then what every screen does. */
static void run_request(struct ui *u, struct screen *s, enum request req)
{
	if (!screen_ops_of(s)->request(u, s, req) && !move_request(u, s, req))
		common_request(u, s, req);
}

void ui_press(struct ui *u, struct screen *s, int key)
{
	enum request req = keys_request(key, screen_ops_of(s)->keymap);

	if (req != REQ_NONE)
		run_request(u, s, req);
}

/* ---- the mouse --------------------------------------------------------- */

bool ui_row_at(struct ui *u, struct screen *s, int y, size_t *row)
{
	const struct screen_ops *ops = screen_ops_of(s);
	const struct nav *nav;
	int i = y - ops->first_row;

	if (!ops->nav || i < 0 || i >= ops->rows(u))
		return false;
	nav = ops->nav(u, s);
	if (nav->top + (size_t)i >= nav->count)
		return false;
	*row = nav->top + (size_t)i;
	return true;
}

void ui_click_row(struct ui *u, struct screen *s, size_t row)
{
	const struct screen_ops *ops = screen_ops_of(s);
	struct nav *nav = ops->nav(u, s);
	size_t was = nav->cursor;

	nav_to(nav, row, ops->rows(u));
	if (ops->moved && nav->cursor != was)
		ops->moved(u, s, row < was ? -1 : 1);
}

/*
 * The wheel scrolls the view UI_WHEEL_ROWS rows a notch, the cursor kept
 * on its row while it is in view, as tig does (htop moves the cursor).
 */
static void mouse_wheel(struct ui *u, struct screen *s, int dir)
{
	const struct screen_ops *ops = screen_ops_of(s);
	struct nav *nav;
	size_t was;

	if (!ops->nav)
		return;
	nav = ops->nav(u, s);
	was = nav->cursor;
	nav_scroll_view(nav, dir * UI_WHEEL_ROWS, ops->rows(u));
	if (ops->moved && nav->cursor != was)
		ops->moved(u, s, dir);
}

/*
 * A click puts the cursor on the row under it, a double click is Enter
 * there (the second press: the first put the cursor on it); a click
 * elsewhere (the title, the heads, the status line) does nothing. Nothing
 * while the mouse is off (the terminal sends nothing then) or while a
 * prompt takes the keys.
 */
static void mouse_key(struct ui *u, const struct mouse_event *m)
{
	struct screen *s = hist_current(&u->hist);
	const struct screen_ops *ops = screen_ops_of(s);
	size_t row;

	if (!term_mouse_wanted() || u->vs.prompting)
		return;
	u->vs.message[0] = '\0';
	if (ops->click && ops->click(u, s, m))
		return;
	if (m->kind == MOUSE_WHEEL_UP || m->kind == MOUSE_WHEEL_DOWN) {
		mouse_wheel(u, s, m->kind == MOUSE_WHEEL_DOWN ? 1 : -1);
		return;
	}
	if (!ui_row_at(u, s, m->row, &row))
		return;
	ui_click_row(u, s, row);
	if (m->kind == MOUSE_DOUBLE_CLICK && ops->nav(u, s)->cursor == row)
		ui_press(u, s, '\n');
}

static void handle_key(struct ui *u, int key)
{
	enum request req;
	struct screen *s;

	if (key == KEY_RESIZE && !u->script) {
		int rows, cols;

		term_size(&rows, &cols);
		ui_resize(u, rows, cols);
		return;
	}
	if (key == KEYS_MOUSE) {
		struct mouse_event m = u->script ? u->script->mouse : term_mouse();

		mouse_key(u, &m);
		return;
	}
	if (u->vs.prompting) {
		prompt_key_any(u, key);
		return;
	}
	u->vs.message[0] = '\0';
	s = hist_current(&u->hist);
	req = keys_request(key, screen_ops_of(s)->keymap);
	if (req == REQ_NONE) {
		char nb[16];

		ui_message(u, true, "no action for key %s (? shows the keys)",
			   keys_name(key, nb, sizeof(nb)));
		return;
	}
	run_request(u, s, req);
}

static void draw(struct ui *u)
{
	struct screen *s = hist_current(&u->hist);

	u->disp.unit_ps =
	    u->disp.event < u->ses.prof.nev ? fmt_event_unit(&u->ses.prof, u->disp.event) : 0;
	screen_ops_of(s)->draw(u, s);
	/* the last search's matches, wherever they are on the screen (but its title and
	 * status lines), as less marks them; the flame marks its frames itself */
	if (u->have_search_re && !screen_ops_of(s)->search)
		grid_mark(&u->g, 1, u->g.rows - 1, &u->search_re, ATTR_MATCH);
	if (!u->script)
		term_paint(&u->g);
}

/* The screen at a new size: the cursor kept in view. */
void ui_resize(struct ui *u, int rows, int cols)
{
	struct screen *s = hist_current(&u->hist);
	const struct screen_ops *ops = screen_ops_of(s);

	grid_resize(&u->g, rows, cols);
	if (ops->nav)
		nav_scroll(ops->nav(u, s), ops->rows(u));
}

/* ---- loading ----------------------------------------------------------- */

/* Where a load's progress is drawn (g NULL: nowhere), and what it calls the files. */
struct load_screen {
	struct grid *g;
	const char *title;
	double drawn; /* when a pipe's progress was last drawn (0: not yet) */
	bool stopped; /* q while a pipe was read */
};

static void show_progress(struct load_screen *ls, const char *what, uint64_t done, uint64_t total,
			  const char *keys)
{
	if (!ls->g)
		return;
	view_draw_progress(ls->g, ls->title, what, done, total, keys);
	term_paint(ls->g);
}

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
	show_progress(ctx, "Reading the profile", done, total, "Ctrl-C cancels");
}

/* A key that stops a wait (q, Esc, or what closes a screen). */
static bool stop_key(int key)
{
	enum request req = keys_request(key, &keys_generic);

	return req == REQ_QUIT || req == REQ_CLOSE || key == 27;
}

/*
 * The keys typed during a wait, read without waiting: true at a stop key
 * (the rest are dropped); *resized set when the terminal's size changed.
 */
static bool wait_keys(bool *resized)
{
	int key;

	while ((key = term_read_key_within(0)) >= 0) {
		if (key == KEY_RESIZE)
			*resized = true;
		else if (stop_key(key))
			return true;
	}
	return false;
}

/*
 * Counting the chosen parts again: how far, on the status line; a stop key
 * (q, Esc) stops it, the parts that counted still counting; the other keys
 * are dropped, as while a file is read.
 */
bool ui_progress_status(void *ctx, uint64_t done, uint64_t total)
{
	struct ui *u = ctx;
	char line[160];
	int rows, cols;
	bool resized = false;

	if (u->script || u->g.rows < 1)
		return false; /* (a script's screens are saved, not watched) */
	if (wait_keys(&resized))
		return true;
	if (resized) { /* (what the screen shows is not what the count writes) */
		term_size(&rows, &cols);
		ui_resize(u, rows, cols);
		draw(u);
	}
	snprintf(line, sizeof(line),
		 "counting the chosen parts again: %.0f%% (every core; q stops)",
		 total ? 100.0 * (double)done / (double)total : 100.0);
	grid_fill(&u->g, u->g.rows - 1, 0, ATTR_STATUS);
	grid_puts_cut(&u->g, u->g.rows - 1, 0, line, ATTR_STATUS);
	term_paint(&u->g);
	return false;
}

#define PIPE_REDRAW_S 0.1 /* a pipe's progress: redrawn no more often */

/*
 * A pipe (zcat x.gz | ncgrind -) is read before anything can be shown, for
 * as long as its writer takes: say how much has come, and let q stop it,
 * as less does (the keys come from the terminal, not the pipe).
 */
/* The keys typed while a file is read or decompressed: true once one stops it. */
static bool stop_asked(struct load_screen *ls)
{
	int rows, cols;
	bool resized = false;

	if (wait_keys(&resized))
		ls->stopped = true;
	if (resized) {
		term_size(&rows, &cols);
		grid_resize(ls->g, rows, cols);
		ls->drawn = 0; /* at the new size, next time */
	}
	return ls->stopped;
}

static bool on_reading(void *ctx, uint64_t done)
{
	struct load_screen *ls = ctx;

	if (ls->stopped)
		return true; /* the other files of the run are not read either */
	if (!ls->drawn || seconds_monotonic() - ls->drawn >= PIPE_REDRAW_S) {
		view_draw_loading(ls->g, ls->title, done, 0);
		term_paint(ls->g);
		ls->drawn = seconds_monotonic();
	}
	return stop_asked(ls);
}

/*
 * A compressed file is decompressed before it is read: say how far, every
 * few MB, and let q stop it as it stops a pipe.
 */
static bool on_unpacking(void *ctx, uint64_t done, uint64_t total)
{
	struct load_screen *ls = ctx;

	if (ls->stopped)
		return true;
	show_progress(ctx, "Decompressing the profile", done, total, "q stops");
	return ls->g && stop_asked(ls);
}

/* What reading the profile said, on the status line. */
void ui_tell_problems(struct ui *u)
{
	if (u->ses.diag.errors || u->ses.diag.warnings) {
		char first[1200];

		diag_format(&u->ses.diag, &u->ses.diag.msgs[0], first, sizeof(first));
		ui_message(u, u->ses.diag.errors > 0, "%zu problem%s reading the profile: %s",
			   u->ses.diag.errors + u->ses.diag.warnings,
			   u->ses.diag.errors + u->ses.diag.warnings == 1 ? "" : "s", first);
	}
	u->status = u->ses.diag.errors ? 1 : 0;
}

#define WAIT_QUIET_S 0.3 /* a step shorter than this shows no waiting screen */

bool ui_wait_stop(struct ui *u, struct ui_wait *w, const char *progress)
{
	struct grid *g = &u->g;
	bool resized = false;

	if (u->script)
		return false;
	if (!w->since)
		w->since = seconds_monotonic();
	if (seconds_monotonic() - w->since < WAIT_QUIET_S)
		return false;
	grid_clear(g);
	grid_fill(g, 0, 0, ATTR_TITLE);
	grid_puts_cut(g, 0, 0, w->title, ATTR_TITLE);
	grid_put_cut(g, g->rows / 2 - 1, 2, w->subject.ptr, w->subject.len, g->cols - 2,
		     ATTR_NORMAL);
	grid_puts_cut(g, g->rows / 2, 2, progress, ATTR_NORMAL);
	grid_fill(g, g->rows - 1, 0, ATTR_STATUS);
	grid_puts_cut(g, g->rows - 1, 0, "q stops", ATTR_STATUS);
	term_paint(g);
	return wait_keys(&resized); /* (drawn at the new size once the step ends) */
}

void ui_files_init(struct ui_files *f, char *const *paths, size_t n)
{
	char buf[4200];

	f->v = xcalloc(n ? n : 1, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		f->v[i] = xstrdup(paths[i]);
	f->n = n;
	if (n > 1)
		snprintf(buf, sizeof(buf), "%s (+%zu more file%s)", paths[0], n - 1,
			 n > 2 ? "s" : "");
	else
		snprintf(buf, sizeof(buf), "%s", n ? paths[0] : "");
	f->title = xstrdup(buf);
}

void ui_files_release(struct ui_files *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->v[i]);
	free(f->v);
	free(f->title);
	memset(f, 0, sizeof(*f));
}

/* The one place that says how the browser reads a profile. */
void ui_load_opts(struct ui *u, struct load_opts *o)
{
	o->jobs = u->jobs;
	o->events = &u->events;
	o->siblings = !u->no_siblings;
	o->screen = u->script ? NULL : &u->g; /* a script has no screen to draw on */
	o->later = false;
}

/* What o asks of the parser; its progress drawn on ls. */
static struct parse_opts parse_opts_of(const struct load_opts *o, struct load_screen *ls)
{
	struct parse_opts po = {
	    .jobs = o->jobs, .events = (const char *const *)o->events->v, .nevents = o->events->n};

	if (o->screen) {
		po.progress = on_progress;
		po.unpacking = on_unpacking;
		po.reading = on_reading;
		po.ctx = ls;
	}
	return po;
}

int ui_load_session(struct session *s, const struct ui_files *f, const struct load_opts *o)
{
	struct load_screen ls = {.g = o->screen, .title = f->title};
	struct parse_opts po = parse_opts_of(o, &ls);

	int ret = session_load(s, f->v, f->n, &po);

	if (ret == 0 && !o->later) {
		session_keep(s); /* before the names are copied: the cache has them as offsets */
		profile_keep_names(&s->prof); /* the screens outlive a file cut under them */
	}
	return ret;
}

/*
 * Reading the profile while the table shows what is read so far: the
 * functions of the file's beginning by self cost (the inclusive costs and
 * calls come with the graph pass at the end), a few times a second, the
 * cursor kept on its function; the moving keys work, q stops at once.
 */
#define LOAD_QUIT 1  /* load_progressively(): the user stopped it, or the bench */
#define REDRAW_S 0.2 /* between two refreshes of the partial table, at least */
/*
 * ... and at least this many times what the last one took: a refresh costs
 * in proportion to the functions read (0.07 s at a million), and the
 * thread that does it merges what the others read.
 */
#define REFRESH_SHARE 10

struct loading {
	struct parse_job *job;
	uint64_t *totals; /* the self cost read so far, per event */
	struct table t;   /* the partial table, when table is true */
	bool table;
	bool moved; /* the user moved the cursor: it follows its function, else the top */
	uint32_t selected;
};

/*
 * The partial table again, from what is merged now: the cursor stays on its
 * function, or with keep_place on its row.
 */
static void loading_refresh(struct ui *u, struct loading *l, bool keep_place)
{
	const struct profile *p = &u->ses.prof;
	struct nav place = l->t.nav;

	if (!parse_partial(l->job) || !p->stride || !p->nfuncs)
		return; /* nothing readable yet (or the file is read again in one pass) */
	l->totals = xrealloc(l->totals, st_mult(p->nev ? p->nev : 1, sizeof(uint64_t)));
	parse_read_sums(l->job, l->totals, p->nev);
	if (!l->table) {
		table_init(&l->t, p, &u->disp);
		l->table = true;
	}
	l->t.p = p;
	l->t.totals = l->totals;
	l->t.loading = true;
	table_refresh(&l->t);
	if (!l->moved) {
		l->t.nav.cursor = l->t.nav.top = 0;
	} else if (keep_place && l->t.nav.count) {
		/*
		 * The cursor went where the rows were not sorted yet (End, a page
		 * down): it stays on its row, not on the function that was there.
		 */
		l->t.nav.cursor = place.cursor < l->t.nav.count ? place.cursor : l->t.nav.count - 1;
		l->t.nav.top = place.top;
	}
	nav_scroll(&l->t.nav, ui_table_rows(&u->g));
}

static void loading_draw(struct ui *u, struct loading *l)
{
	uint64_t done, total;

	parse_done_bytes(l->job, &done, &total);
	if (!l->table) {
		view_draw_loading(&u->g, u->vs.path, done, total);
	} else {
		snprintf(u->vs.message, sizeof(u->vs.message),
			 "reading: %.0f%% of %.1f MB (self costs so far; q stops)",
			 total ? 100.0 * (double)done / (double)total : 0.0, (double)total / 1e6);
		u->vs.message_is_error = false;
		ui_draw_table(&u->g, &l->t, &u->vs);
	}
	term_paint(&u->g);
}

/* A key while the file is read: true when it stops the reading. */
static bool loading_key(struct ui *u, struct loading *l, int key)
{
	enum request req = keys_request(key, &keymap_table);
	int page = ui_table_rows(&u->g), rows, cols;

	if (key == KEY_RESIZE) {
		term_size(&rows, &cols);
		grid_resize(&u->g, rows, cols);
		return false;
	}
	if (req == REQ_QUIT || req == REQ_CLOSE) /* q: the table is the only screen */
		return true;
	if (l->table && nav_request(&l->t.nav, req, page))
		l->moved = true; /* the rest waits for the whole profile */
	return false;
}

static void loading_release(struct loading *l)
{
	l->selected = l->table && l->moved ? table_selected(&l->t) : NCG_NONE;
	if (l->table)
		table_release(&l->t);
	free(l->totals);
}

/*
 * Read the profile (as lo says) with the table on screen. 0 when read (u->ses is ready;
 * *selected: the function the cursor was on), -1 when it cannot be, or
 * LOAD_QUIT when q stopped it (or --bench-first-screen had its screen).
 */
static int load_progressively(struct ui *u, const struct load_opts *lo, const struct ui_opts *o,
			      uint32_t *selected)
{
	struct load_screen ls = {.g = lo->screen, .title = u->files.title};
	struct parse_opts po = parse_opts_of(lo, &ls);
	struct loading l = {0};
	double next = 0; /* the partial table's next refresh */
	int key, ret;

	po.progress = NULL; /* the partial table says how far */
	session_begin(&u->ses, u->files.v, u->files.n);
	u->ses.prof.user_events = po.events;
	u->ses.prof.nuser_events = po.nevents;
	if (session_load_kept(&u->ses)) { /* the whole index at once: nothing to show meanwhile */
		session_ready(&u->ses);
		profile_keep_names(&u->ses.prof);
		return 0;
	}
	u->keep_pending = true; /* kept once the first screen is drawn (ui_main) */
	l.job = parse_start(&u->ses.prof, &u->ses.diag, &po);
	if (!l.job && ls.stopped) { /* q while a pipe was read: the user knows why */
		diag_release(&u->ses.diag);
		diag_init(&u->ses.diag, u->ses.prof.path);
		return LOAD_QUIT;
	}
	if (!l.job)
		return -1;
	loading_draw(u, &l); /* at once: the name and 0% */
	while (!parse_poll(l.job, 30)) {
		bool stop = false, moved = false, unsorted;

		while ((key = term_read_key_within(0)) >= 0 && !stop) {
			stop = loading_key(u, &l, key);
			moved = true;
		}
		/* rows on the screen past those sorted: sorted now, where they are */
		unsorted = moved && l.table && l.t.sorted < l.t.nav.count &&
			   l.t.nav.top + (size_t)ui_table_rows(&u->g) > l.t.sorted;
		/* the first table as soon as there is one, then a few times a second */
		if (!stop && (!l.table || unsorted || seconds_monotonic() >= next)) {
			double t0 = seconds_monotonic(), took;

			loading_refresh(u, &l, unsorted);
			took = seconds_monotonic() - t0;
			next = seconds_monotonic() +
			       (took * REFRESH_SHARE > REDRAW_S ? took * REFRESH_SHARE : REDRAW_S);
			loading_draw(u, &l);
			stop = o->first_screen && l.table;
		} else if (!stop && moved && l.table) {
			/* the cursor at once, on the rows as they were sorted */
			nav_scroll(&l.t.nav, ui_table_rows(&u->g));
			loading_draw(u, &l);
		}
		if (stop) {
			loading_release(&l);
			parse_end(l.job, true);
			return LOAD_QUIT;
		}
	}
	if (l.table) { /* the graph pass can take a moment: say so */
		snprintf(u->vs.message, sizeof(u->vs.message),
			 "read; inclusive costs and calls...");
		ui_draw_table(&u->g, &l.t, &u->vs);
		term_paint(&u->g);
	}
	loading_release(&l);
	*selected = l.selected;
	u->vs.message[0] = '\0';
	ret = parse_end(l.job, false);
	if (ret == 0)
		session_ready(&u->ses); /* (its names copied once the index is kept: ui_main) */
	return ret;
}

static int next_key(struct ui *u)
{
	char *cmd;
	int key;

	if (!u->script)
		return term_read_key();
	while ((key = script_next(u->script, &cmd)) == 0 && cmd) {
		ui_run_command(u, cmd);
		draw(u);
	}
	return key;
}

static int setup(struct ui *u, const struct ui_opts *o)
{
	char err[256];
	int rows = o->rows ? o->rows : 24, cols = o->cols ? o->cols : 80;

	if (o->script) {
		u->script = xcalloc(1, sizeof(*u->script));
		u->script->path = o->script;
		u->script->f = fopen(o->script, "r");
		if (!u->script->f) {
			escape_message(stderr, "ncgrind: cannot read the script '%s'", o->script);
			return -2; /* not UI_NO_BROWSER: no report in place of the script's screens
				    */
		}
	} else {
		int rc = term_open(err, sizeof(err));

		if (rc == TERM_NO_TTY) /* no keyboard to read: the report, without a word */
			return UI_NO_BROWSER;
		if (rc == TERM_UNFIT) {
			/* the report is what such a terminal can show */
			escape_message(
			    stderr, "ncgrind: %s: printing the report instead (see --dump)", err);
			return UI_NO_BROWSER;
		}
		if (rc < 0) {
			escape_message(stderr, "ncgrind: %s", err);
			return -1;
		}
		term_size(&rows, &cols);
	}
	grid_init(&u->g, rows, cols);
	return 0;
}

void ui_views_init(struct ui *u)
{
	u->view.p = &u->ses.prof;
	u->view.disp = &u->disp;
	ui_open_table(u); /* the first screen */
}

void ui_views_release(struct ui *u)
{
	hist_release(&u->hist);
}

/*
 * The command line and the search line, each with its history; without
 * them (no pseudo-terminal), both fall back to the plain line.
 */
static struct prompt *start_prompt(struct ui *u, const char *history_name,
				   prompt_complete_fn complete)
{
	char err[200], *history = prompt_history_path(history_name);
	struct prompt *p = prompt_new(history, complete, u, err, sizeof(err));

	if (!p)
		ui_message(u, true, "%s", err);
	free(history);
	return p;
}

static void teardown(struct ui *u)
{
	term_close();
	diag_write(&u->ses.diag, stderr);
	if (u->script) {
		if (u->script->f)
			fclose(u->script->f);
		free(u->script->line);
		free(u->script);
	}
	ui_views_release(u);
	prompt_free(u->prompt);
	prompt_free(u->search);
	if (u->have_search_re)
		regfree(&u->search_re);
	grid_release(&u->g);
	if (u->diff) {
		diff_release(u->diff);
		free(u->diff);
		session_release(u->base);
		free(u->base);
	}
	session_release(&u->ses);
	ui_files_release(&u->files);
	event_defs_release(&u->events);
	ui_config_release(u);
}

/* The kept index written by a child (see ui_main); here when there can be none. */
static void keep_in_background(struct ui *u)
{
	pid_t pid;

	fflush(NULL); /* (the child ends with _exit: nothing of ours is written twice) */
	pid = fork();
	if (pid == 0) {
		term_child();
		session_keep(&u->ses);
		_exit(0);
	}
	if (pid < 0)
		session_keep(&u->ses);
	else
		u->keep_pid = pid;
}

/* The child that keeps the index, once it has ended (wait: until it has). */
static void keep_reap(struct ui *u, bool wait)
{
	if (u->keep_pid > 0 && waitpid(u->keep_pid, NULL, wait ? 0 : WNOHANG) != 0)
		u->keep_pid = 0;
}

int ui_main(char *const *paths, size_t n, const struct ui_opts *o)
{
	struct ui u;
	struct load_opts lo;
	uint32_t selected = NCG_NONE;
	bool given[SET_COUNT] = {false};
	int key, rc;

	memset(&u, 0, sizeof(u));
	ui_files_init(&u.files, paths, n);
	u.vs.path = u.files.title;
	u.sources = o->sources;
	u.jobs = o->jobs;
	event_defs_init(&u.events);
	for (size_t i = 0; i < o->nevents; i++)
		event_defs_add(&u.events, o->events[i]);
	u.rules = o->rules;
	u.diff_event = NCG_NONE;
	u.no_siblings = o->no_siblings;
	diag_init(&u.ses.diag, u.files.title);
	if (ui_config_read(&u, o->config) < 0) {
		teardown(&u);
		return 2;
	}
	/* the command line's --color wins over the file's set colour, which took effect */
	if (o->colour == UI_COLOUR_ALWAYS) {
		term_override_no_color();
		term_set_colour(true);
	} else if (o->colour == UI_COLOUR_NEVER) {
		term_set_colour(false);
	}
	if ((key = setup(&u, o)) < 0) {
		teardown(&u);
		return key == UI_NO_BROWSER ? UI_NO_BROWSER : 2;
	}
	u.disp = display_default();
	ui_load_opts(&u, &lo);
	if (u.script) {
		lo.later = u.keep_pending = true; /* once the configuration's cache-size holds */
		rc = ui_load_session(&u.ses, &u.files, &lo);
		lo.later = false;
	} else
		rc = load_progressively(&u, &lo, o, &selected);
	if (rc != 0) {
		teardown(&u);
		return rc == LOAD_QUIT ? 0 : 1;
	}
	ui_tell_problems(&u);
	u.disp.cycles = !o->no_cycles;
	u.disp.demangle = !o->no_demangle;
	ui_profile_settings(&u, &u.ses.prof);
	ui_views_init(&u);
	given[SET_CYCLES] = o->no_cycles; /* the command line's flags win over the file */
	given[SET_DEMANGLE] = o->no_demangle;
	ui_config_apply(&u, given);
	if (selected != NCG_NONE)
		ui_select_first(&u, selected);
	u.prompt = start_prompt(&u, "history", ui_complete);
	u.search = start_prompt(&u, "search-history", ui_complete_search);
	if (o->diff_base)
		ui_diff_start(&u, o->diff_base);
	for (size_t i = 0; i < o->ncommands; i++)
		ui_command(&u, o->commands[i]);
	u.seen_table.fn = u.seen_subject.fn = NCG_NONE;
	ui_check_changed(&u);
	draw(&u);
	/* the bench's whole table is on the screen: what comes after is not the read's */
	if (u.keep_pending && !o->whole_table) {
		/*
		 * The index is kept once the table is on the screen, by a child
		 * process: a copy-on-write snapshot of this one, so the keys do
		 * not wait for the write (0.1 to 0.3 s for 1 GiB), and nothing it
		 * reads changes under it. Then the names are copied out of the
		 * file here (the kept index has them as offsets into it).
		 */
		keep_in_background(&u);
		profile_keep_names(&u.ses.prof);
		u.keep_pending = false;
	}
	if (o->first_screen || o->whole_table) /* the bench's: the table is on the screen */
		u.quit = true;
	while (!u.quit && (key = next_key(&u)) != KEY_END_OF_INPUT) {
		keep_reap(&u, false);
		handle_key(&u, key);
		ui_check_changed(&u);
		draw(&u);
	}
	key = u.status;
	keep_reap(&u, true); /* the index whole before the next open looks for it */
	ui_forget_names(&u);
	teardown(&u);
	if (u.write_error[0]) {
		escape_message(stderr, "ncgrind: %s", u.write_error);
		key = key ? key : 1;
	}
	return key;
}
