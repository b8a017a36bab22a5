/*
 * ui: the browser's loop. Input comes from one of two sources behind the
 * same function: the terminal (term.c) or a script of key names and
 * :commands (script mode, which never opens the terminal: CI has none).
 * Requests change the table view-model; after each key the view is drawn
 * again into the grid, which the terminal paints or a script saves.
 */
#define _POSIX_C_SOURCE 200809L
#include "ncgrind/ui.h"
#include "ncgrind/filter.h"
#include "ncgrind/history.h"
#include "ncgrind/keys.h"
#include "ncgrind/parse.h"
#include "ncgrind/prompt.h"
#include "ncgrind/source.h"
#include "ncgrind/table.h"
#include "ncgrind/term.h"
#include "ncgrind/view.h"

#include <ctype.h>
#include <errno.h>
#include <curses.h> /* KEY_* constants only: term.c is the curses user */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

#define KEY_END_OF_INPUT (-1)
#define ESC 27

struct script {
	FILE *f;
	char *line;
	size_t cap;
	char *cur;     /* the rest of the current line */
	char *pending; /* the rest of a "text" token, typed key by key */
	uint64_t lineno;
	const char *path;
};

struct ui {
	struct profile prof;
	struct diag diag;
	struct table t;
	struct view_state vs;
	struct grid g;
	struct history hist;   /* the table, then the screens opened from it */
	char *path;            /* after `open`: the profile's name, owned */
	struct prompt *prompt; /* the command line (libedit); NULL if it could not start */
	struct filters filters; /* filter, focus, ignore, hide */
	bool *keep;            /* the filters' verdict per function */
	struct callgraph graph;
	double threshold;      /* of new call trees, in percent */
	struct source_paths *sources;
	struct script *script; /* NULL: the terminal */
	bool quit;
	int status;            /* exit status */
};

static void ui_message(struct ui *u, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void ui_message(struct ui *u, bool error, const char *fmt, ...)
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
 * quotes types each of its characters; # starts a comment line.
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
		if (*p == ':' && isalpha((unsigned char)p[1]) && p == s->line + strspn(s->line, " \t")) {
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
		key = keys_parse(p);
		if (key >= 0)
			return key;
		fprintf(stderr, "%s:%llu: unknown key '%s'\n", s->path, (unsigned long long)s->lineno,
			p);
	}
}

static int parse_size(const char *s, int *cols, int *rows)
{
	return sscanf(s, "%dx%d", cols, rows) == 2 && *cols > 0 && *rows > 0 && *cols < 10000 &&
			       *rows < 10000
		       ? 0
		       : -1;
}

static void save_screen(struct ui *u, const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f || grid_save(&u->g, f) < 0 || fclose(f) != 0) {
		ui_message(u, true, "cannot write '%s'", path);
		return;
	}
}

/* ---- requests ---------------------------------------------------------- */

static int page(const struct ui *u)
{
	return view_table_rows(&u->g);
}

static void ui_command(struct ui *u, const char *line);

static void search_done(struct ui *u)
{
	char err[256];

	u->vs.prompting = false;
	u->vs.prompt[u->vs.prompt_len] = '\0';
	if (u->vs.prompt_char == ':')
		ui_command(u, u->vs.prompt);
	else if (u->vs.prompt_len &&
		 table_search(&u->t, u->vs.prompt, err, sizeof(err), page(u)) < 0)
		ui_message(u, true, "%s", err);
}

/* The search line: characters, Backspace, Enter, Esc or C-g. */
static void prompt_key_simple(struct ui *u, int key)
{
	struct view_state *vs = &u->vs;

	if (key == '\n' || key == KEY_ENTER) {
		search_done(u);
	} else if (key == ESC || key == 7) {
		vs->prompting = false;
	} else if (key == KEY_BACKSPACE || key == 127 || key == 8) {
		while (vs->prompt_len && ((unsigned char)vs->prompt[vs->prompt_len - 1] & 0xc0) == 0x80)
			vs->prompt_len--;
		if (vs->prompt_len)
			vs->prompt_len--;
		else
			vs->prompting = false;
	} else if ((key >= 0x20 && key < 0x7f) || key >= 0xa0) {
		char buf[8];
		mbstate_t st;
		size_t n;

		memset(&st, 0, sizeof(st));
		n = wcrtomb(buf, (wchar_t)(key >= KEYS_WIDE_BASE ? key - KEYS_WIDE_BASE : key), &st);
		if (n != (size_t)-1 && vs->prompt_len + n < sizeof(vs->prompt) - 1) {
			memcpy(vs->prompt + vs->prompt_len, buf, n);
			vs->prompt_len += n;
			vs->prompt_cursor = vs->prompt_len;
		}
	}
}

static void help_key(struct ui *u, int key)
{
	int max = view_help_lines() - (u->g.rows - 3);

	if (key == 'j' || key == KEY_DOWN)
		u->vs.help_top += u->vs.help_top < max ? 1 : 0;
	else if (key == 'k' || key == KEY_UP)
		u->vs.help_top -= u->vs.help_top > 0 ? 1 : 0;
	else if (key == 'q' || key == ESC || key == '?' || key == KEY_F(1))
		u->vs.help = false;
}

static void search_key(struct ui *u, int dir)
{
	char err[256];

	if (table_search_next(&u->t, dir, err, sizeof(err), page(u)) < 0)
		ui_message(u, true, "%s", err);
}

/* Scroll the detail line by half a screen, not past the end of the name. */
static void name_right(struct ui *u)
{
	uint32_t f = table_selected(&u->t);
	struct span name;
	int room;

	if (f == NCG_NONE)
		return;
	name = profile_name(&u->prof, u->prof.funcs[f].name);
	room = grid_width(name.ptr, name.len) - (u->g.cols - 2);
	if (u->t.name_scroll < room)
		u->t.name_scroll += u->g.cols / 2 < room - u->t.name_scroll ? u->g.cols / 2
									      : room - u->t.name_scroll;
}

static void undo_filter(struct ui *u);

static void request(struct ui *u, enum request req)
{
	struct table *t = &u->t;

	switch (req) {
	case REQ_MOVE_DOWN: nav_move(&t->nav, 1, page(u)); break;
	case REQ_MOVE_UP: nav_move(&t->nav, -1, page(u)); break;
	case REQ_PAGE_DOWN: nav_page(&t->nav, +1, page(u)); break;
	case REQ_PAGE_UP: nav_page(&t->nav, -1, page(u)); break;
	case REQ_MOVE_FIRST: nav_to(&t->nav, 0, page(u)); break;
	case REQ_MOVE_LAST: nav_to(&t->nav, t->nav.count ? t->nav.count - 1 : 0, page(u)); break;
	case REQ_SORT_INCL: table_sort(t, SORT_INCL); break;
	case REQ_SORT_SELF: table_sort(t, SORT_SELF); break;
	case REQ_SORT_CALLS: table_sort(t, SORT_CALLS); break;
	case REQ_SORT_NAME: table_sort(t, SORT_NAME); break;
	case REQ_EVENT_NEXT: table_step_event(t, 1); break;
	case REQ_EVENT_PREV: table_step_event(t, -1); break;
	case REQ_TOGGLE_UNITS: t->short_units = !t->short_units; break;
	case REQ_PROMPT:
		u->vs.prompting = true;
		u->vs.prompt_char = ':';
		u->vs.prompt_len = u->vs.prompt_cursor = 0;
		u->vs.prompt[0] = '\0';
		if (u->prompt)
			prompt_begin(u->prompt);
		break;
	case REQ_UNDO_FILTER: undo_filter(u); break;
	case REQ_TOGGLE_PERCENT: t->show_percent = !t->show_percent; break;
	case REQ_SEARCH:
		u->vs.prompting = true;
		u->vs.prompt_char = '/';
		u->vs.prompt_len = u->vs.prompt_cursor = 0;
		break;
	case REQ_SEARCH_NEXT: search_key(u, +1); break;
	case REQ_SEARCH_PREV: search_key(u, -1); break;
	case REQ_NAME_RIGHT: name_right(u); break;
	case REQ_NAME_LEFT: t->name_scroll -= t->name_scroll > u->g.cols / 2 ? u->g.cols / 2 : t->name_scroll; break;
	case REQ_HELP: u->vs.help = true; u->vs.help_top = 0; break;
	case REQ_REDRAW: break;
	case REQ_QUIT: u->quit = true; break;
	default: break; /* the other screens' requests: screen_request() */
	}
	nav_scroll(&t->nav, page(u));
}

/* ---- screens: callers and callees, call trees, history --------------- */

static enum keys_scope scope_of(const struct screen *s)
{
	return s->kind == SCREEN_DETAIL   ? SCOPE_DETAIL
	       : s->kind == SCREEN_TREE   ? SCOPE_TREE
	       : s->kind == SCREEN_SOURCE ? SCOPE_SOURCE
					  : SCOPE_TABLE;
}

static int list_page(const struct ui *u)
{
	return view_list_rows(&u->g);
}

/* The function the cursor is on, whatever the screen. */
static uint32_t screen_function(struct ui *u)
{
	struct screen *s = hist_current(&u->hist);
	const struct tree_node *n;

	if (s->kind == SCREEN_DETAIL)
		return detail_target(&s->detail);
	if (s->kind == SCREEN_TREE) {
		if (!s->tree.nvisible)
			return NCG_NONE;
		n = &s->tree.nodes[s->tree.visible[s->nav.cursor]];
		return n->kind == NODE_FUNCTION ? n->fn : NCG_NONE;
	}
	if (s->kind == SCREEN_SOURCE) {
		uint32_t callee = srcview_callee(&s->src);

		return callee != NCG_NONE ? callee : s->src.fn.fn;
	}
	return table_selected(&u->t);
}

static void open_detail(struct ui *u, uint32_t fn)
{
	struct screen *s;

	if (fn == NCG_NONE)
		return;
	s = hist_push(&u->hist, SCREEN_DETAIL);
	detail_init(&s->detail, &u->prof, &u->graph, fn, u->t.event);
	detail_move(&s->detail, 0, list_page(u));
}

static void tree_refresh(struct ui *u, struct screen *s, size_t cursor)
{
	calltree_flatten(&s->tree);
	s->nav.count = s->tree.nvisible;
	nav_to(&s->nav, cursor, list_page(u));
}

/* A new tree with the first root's hot path open, as perf report opens one. */
static void build_tree(struct ui *u, struct screen *s, uint32_t fn, bool inverted)
{
	calltree_init(&s->tree, &u->prof, &u->graph, fn, inverted, u->t.event, u->threshold);
	s->tree.filters = &u->filters;
	if (s->tree.nroots)
		calltree_expand_hot(&s->tree, s->tree.roots[0]);
	tree_refresh(u, s, 0);
}

static void open_tree(struct ui *u, uint32_t fn, bool inverted, bool top_down)
{
	struct screen *s;

	if (!top_down && fn == NCG_NONE)
		return;
	s = hist_push(&u->hist, SCREEN_TREE);
	build_tree(u, s, top_down ? NCG_NONE : fn, inverted);
}

/* Build the tree again (other event or threshold), same root, hot path open. */
static void rebuild_tree(struct ui *u, struct screen *s)
{
	uint32_t root = s->tree.nroots == 1 ? s->tree.nodes[s->tree.roots[0]].fn : NCG_NONE;
	bool inverted = s->tree.inverted;

	calltree_release(&s->tree);
	build_tree(u, s, root, inverted);
}

static void tree_request(struct ui *u, struct screen *s, enum request req)
{
	uint32_t id = s->tree.nvisible ? s->tree.visible[s->nav.cursor] : NCG_NONE;
	size_t cursor = s->nav.cursor;

	if (id == NCG_NONE)
		return;
	if (req == REQ_EXPAND) {
		if (!calltree_expand(&s->tree, id))
			ui_message(u, false, "nothing to expand here");
	} else if (req == REQ_COLLAPSE) {
		if (s->tree.nodes[id].expanded) {
			calltree_collapse(&s->tree, id);
		} else if (s->tree.nodes[id].parent != NCG_NONE) {
			/* on a closed node: go to its parent, as file managers do */
			uint32_t parent = s->tree.nodes[id].parent;

			for (size_t i = 0; i < s->tree.nvisible; i++)
				if (s->tree.visible[i] == parent)
					cursor = i;
		}
	} else if (req == REQ_EXPAND_HOT) {
		calltree_expand_hot(&s->tree, id);
	} else if (req == REQ_EXPAND_ALL) {
		calltree_expand_all(&s->tree, id, UINT32_MAX);
	} else if (req == REQ_COLLAPSE_ALL) {
		calltree_collapse_all(&s->tree);
		cursor = 0;
	}
	tree_refresh(u, s, cursor);
}

static void set_threshold(struct ui *u, struct screen *s, double pct)
{
	u->threshold = pct < 0.001 ? 0.001 : pct > 100 ? 100 : pct;
	s->tree.threshold = u->threshold;
	rebuild_tree(u, s);
	ui_message(u, false, "threshold %.3g%%: smaller branches are folded", u->threshold);
}

static void open_source(struct ui *u, uint32_t fn, bool instr)
{
	struct screen *s;

	if (fn == NCG_NONE)
		return;
	s = hist_push(&u->hist, SCREEN_SOURCE);
	srcview_open(&s->src, &u->prof, fn, u->sources, instr, u->t.event, list_page(u));
}

/* Requests of the source screen. Returns false if not one. */
static bool source_request(struct ui *u, struct srcview *v, enum request req)
{
	int page = list_page(u);

	switch (req) {
	case REQ_ENTER:
		/* a call row: the callee's source; elsewhere: the function's screen */
		if (srcview_callee(v) != NCG_NONE)
			open_source(u, srcview_callee(v), v->instr);
		else
			open_detail(u, v->fn.fn);
		return true;
	case REQ_NEXT_COSTLY:
	case REQ_PREV_COSTLY:
		if (!srcview_next_costly(v, req == REQ_NEXT_COSTLY ? 1 : -1, page))
			ui_message(u, false, "no more lines with cost this way");
		return true;
	case REQ_ONLY_COSTLY: srcview_toggle_costly(v, page); return true;
	case REQ_NEXT_FILE:
	case REQ_PREV_FILE:
		if (v->fn.nfiles < 2)
			ui_message(u, false, "the function's cost lies in one file");
		else
			srcview_set_file(v, u->sources,
					 (v->file + (req == REQ_NEXT_FILE ? 1 : v->fn.nfiles - 1)) %
						 v->fn.nfiles,
					 page);
		return true;
	case REQ_NAME_RIGHT: v->hscroll += u->g.cols / 2; return true;
	case REQ_NAME_LEFT: v->hscroll -= v->hscroll > u->g.cols / 2 ? u->g.cols / 2 : v->hscroll; return true;
	case REQ_MOVE_DOWN: nav_move(&v->nav, 1, page); return true;
	case REQ_MOVE_UP: nav_move(&v->nav, -1, page); return true;
	case REQ_PAGE_DOWN: nav_page(&v->nav, 1, page); return true;
	case REQ_PAGE_UP: nav_page(&v->nav, -1, page); return true;
	case REQ_MOVE_FIRST: nav_to(&v->nav, 0, page); return true;
	case REQ_MOVE_LAST: nav_to(&v->nav, v->nav.count, page); return true;
	default: return false;
	}
}

/* Requests of the screens other than the table. Returns false if not one. */
static bool screen_request(struct ui *u, enum request req)
{
	struct screen *s = hist_current(&u->hist);
	int page = list_page(u);

	if (s->kind == SCREEN_SOURCE && source_request(u, &s->src, req))
		return true;
	switch (req) {
	case REQ_ENTER: open_detail(u, screen_function(u)); return true;
	case REQ_SOURCE: open_source(u, screen_function(u), false); return true;
	case REQ_INSTR: open_source(u, screen_function(u), true); return true;
	case REQ_BACK:
	case REQ_HISTORY_BACK:
		if (!hist_back(&u->hist))
			ui_message(u, false, "this is the first screen");
		return true;
	case REQ_HISTORY_FORWARD:
		if (!hist_forward(&u->hist))
			ui_message(u, false, "this is the last screen");
		return true;
	case REQ_TREE: open_tree(u, screen_function(u), false, false); return true;
	case REQ_TREE_CALLERS: open_tree(u, screen_function(u), true, false); return true;
	case REQ_TREE_TOP: open_tree(u, NCG_NONE, false, true); return true;
	case REQ_THRESHOLD_DOWN: set_threshold(u, s, u->threshold / 2); return true;
	case REQ_THRESHOLD_UP: set_threshold(u, s, u->threshold * 2); return true;
	case REQ_EXPAND:
	case REQ_COLLAPSE:
	case REQ_EXPAND_HOT:
	case REQ_EXPAND_ALL:
	case REQ_COLLAPSE_ALL: tree_request(u, s, req); return true;
	default: break;
	}
	if (s->kind == SCREEN_TABLE)
		return false;
	if (req == REQ_EVENT_NEXT || req == REQ_EVENT_PREV) {
		table_step_event(&u->t, req == REQ_EVENT_NEXT ? 1 : -1);
		if (s->kind == SCREEN_TREE)
			rebuild_tree(u, s);
		else if (s->kind == SCREEN_DETAIL)
			s->detail.event = u->t.event;
		else
			s->src.event = u->t.event;
		return true;
	}
	if (s->kind == SCREEN_DETAIL) {
		struct detail *d = &s->detail;

		switch (req) {
		case REQ_MOVE_DOWN: detail_move(d, 1, page); return true;
		case REQ_MOVE_UP: detail_move(d, -1, page); return true;
		case REQ_PAGE_DOWN: nav_page(&d->nav, 1, page), detail_move(d, 0, page); return true;
		case REQ_PAGE_UP: nav_page(&d->nav, -1, page), detail_move(d, 0, page); return true;
		case REQ_MOVE_FIRST: detail_move(d, -(long)d->nav.count, page); return true;
		case REQ_MOVE_LAST: detail_move(d, (long)d->nav.count, page); return true;
		default: return false;
		}
	}
	switch (req) {
	case REQ_MOVE_DOWN: nav_move(&s->nav, 1, page); return true;
	case REQ_MOVE_UP: nav_move(&s->nav, -1, page); return true;
	case REQ_PAGE_DOWN: nav_page(&s->nav, 1, page); return true;
	case REQ_PAGE_UP: nav_page(&s->nav, -1, page); return true;
	case REQ_MOVE_FIRST: nav_to(&s->nav, 0, page); return true;
	case REQ_MOVE_LAST: nav_to(&s->nav, s->nav.count, page); return true;
	default: return false;
	}
}

/* ---- commands: script lines, --command, the prompt --------------------- */

static void run_command(struct ui *u, char *cmd);

/* The filters again: the table, and the tree on the screen. */
static void apply_filters(struct ui *u)
{
	struct screen *s = hist_current(&u->hist);
	bool narrowed = filters_apply(&u->filters, &u->prof, &u->graph, u->keep);

	u->t.keep = narrowed ? u->keep : NULL;
	table_refresh(&u->t);
	nav_scroll(&u->t.nav, page(u));
	filters_describe(&u->filters, u->vs.filters, sizeof(u->vs.filters));
	if (s->kind == SCREEN_TREE)
		rebuild_tree(u, s);
}

static int filter_command(struct ui *u, const char *cmd, const char *arg)
{
	enum filter_kind kind = FILTER_NAME;
	char err[300];

	if (!strcmp(cmd, "filter")) {
		if (!*arg) {
			filters_clear_names(&u->filters);
			apply_filters(u);
			return 0;
		}
		if (!strncmp(arg, "file:", 5))
			kind = FILTER_FILE, arg += 5;
		else if (!strncmp(arg, "object:", 7))
			kind = FILTER_OBJECT, arg += 7;
	} else {
		kind = !strcmp(cmd, "focus") ? FILTER_FOCUS : !strcmp(cmd, "ignore") ? FILTER_IGNORE
										     : FILTER_HIDE;
		if (!*arg) {
			ui_message(u, true, "usage: %s REGEX", cmd);
			return -1;
		}
	}
	if (filters_add(&u->filters, kind, arg, err, sizeof(err)) < 0) {
		ui_message(u, true, "%s", err);
		return -1;
	}
	apply_filters(u);
	return 0;
}

static void undo_filter(struct ui *u)
{
	if (!filters_undo(&u->filters)) {
		ui_message(u, false, "no filter to undo");
		return;
	}
	apply_filters(u);
	ui_message(u, false, "filter undone");
}

static const char *const sort_names[] = {"self", "incl", "calls", "name"};

static void sort_command(struct ui *u, const char *arg)
{
	for (int i = 0; i < 4; i++)
		if (!strcmp(arg, sort_names[i])) {
			u->t.reverse = false;
			u->t.sort = (enum report_sort)i;
			table_refresh(&u->t);
			return;
		}
	ui_message(u, true, "unknown sort key '%s' (self, incl, calls, name)", arg);
}

static void event_command(struct ui *u, const char *arg)
{
	uint32_t ev = profile_find_event_str(&u->prof, arg);
	struct screen *s = hist_current(&u->hist);

	if (ev == NCG_NONE) {
		ui_message(u, true, "unknown event '%s'", arg);
		return;
	}
	table_set_event(&u->t, ev);
	if (s->kind == SCREEN_TREE)
		rebuild_tree(u, s);
	else if (s->kind == SCREEN_SOURCE)
		s->src.event = ev;
	else if (s->kind == SCREEN_DETAIL)
		s->detail.event = ev;
}

static int number_arg(struct ui *u, const char *cmd, const char *arg, double max, double *out)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end || v < 0 || v > max) {
		ui_message(u, true, "%s needs a number from 0 to %g, not '%s'", cmd, max, arg);
		return -1;
	}
	*out = v;
	return 0;
}

static void goto_command(struct ui *u, const char *arg)
{
	char err[300];

	/* a function of the table: back to it first */
	u->hist.cur = 0;
	if (table_search(&u->t, arg, err, sizeof(err), page(u)) < 0)
		ui_message(u, true, "%s", err);
}

static void write_command(struct ui *u, const char *path)
{
	struct screen *s = hist_current(&u->hist);
	FILE *f;

	if (!*path) {
		ui_message(u, true, "usage: write FILE");
		return;
	}
	f = fopen(path, "w");
	if (!f) {
		ui_message(u, true, "cannot write '%s': %s", path, strerror(errno));
		return;
	}
	if (s->kind == SCREEN_TABLE) {
		/* the whole table, not just the screen: the report of what it shows */
		struct report_opts o = {0};
		uint32_t ev = u->t.event;

		o.kind = REPORT_FUNCTIONS;
		o.format = REPORT_TEXT;
		o.sort = u->t.sort;
		o.sort_event = ev;
		o.events = &ev;
		o.nevents = 1;
		o.keep = u->t.keep;
		report_write(f, &u->prof, &o);
	} else {
		grid_save(&u->g, f);
	}
	if (fclose(f) != 0)
		ui_message(u, true, "cannot write '%s': %s", path, strerror(errno));
	else
		ui_message(u, false, "wrote %s", path);
}

/*
 * :substitute-path FROM=TO and :include DIR add a way to find sources at run
 * time; an open source screen looks again.
 */
static void source_command(struct ui *u, const char *cmd, const char *arg)
{
	struct screen *s = hist_current(&u->hist);

	if (!*arg || (!strcmp(cmd, "include") ? (source_paths_add_dir(u->sources, arg), 0)
					       : source_paths_add_rule(u->sources, arg)) < 0) {
		ui_message(u, true, "usage: :substitute-path FROM=TO, :include DIR");
		return;
	}
	if (s->kind == SCREEN_SOURCE && !s->src.instr)
		srcview_set_file(&s->src, u->sources, s->src.file, view_list_rows(&u->g));
	ui_message(u, false, "source paths: %s %s", cmd, arg);
}

static bool on_off(const char *arg, bool *out)
{
	if (!strcmp(arg, "on") || !strcmp(arg, "yes") || !strcmp(arg, "true"))
		return *out = true, true;
	if (!strcmp(arg, "off") || !strcmp(arg, "no") || !strcmp(arg, "false"))
		return *out = false, true;
	return false;
}

/* set units exact|short, set percent on|off, set colour on|off, set include DIR, ... */
static void set_command(struct ui *u, const char *arg)
{
	char name[64];
	const char *value;
	bool b;

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(arg, " \t"), arg);
	value = arg + strlen(name);
	value += strspn(value, " \t");
	if (!strcmp(name, "units") && (!strcmp(value, "exact") || !strcmp(value, "short")))
		u->t.short_units = !strcmp(value, "short");
	else if (!strcmp(name, "percent") && on_off(value, &b))
		u->t.show_percent = b;
	else if ((!strcmp(name, "colour") || !strcmp(name, "color")) && on_off(value, &b))
		term_set_colour(b);
	else if (!strcmp(name, "include") || !strcmp(name, "substitute-path"))
		source_command(u, name, value);
	else
		ui_message(u, true, "usage: set units exact|short, set percent on|off, "
				    "set colour on|off, set include DIR, set substitute-path FROM=TO");
}

static int load(struct ui *u, const char *path);
static void views_init(struct ui *u);
static void views_release(struct ui *u);

/* open FILE: read another profile; the current one stays if that fails. */
static void open_command(struct ui *u, const char *path)
{
	struct ui next;

	if (!*path) {
		ui_message(u, true, "usage: open FILE");
		return;
	}
	memset(&next, 0, sizeof(next));
	next.script = u->script;
	next.g = u->g;
	next.sources = u->sources;
	next.path = xstrdup(path);
	if (load(&next, next.path) < 0) {
		char first[1200];

		diag_format(&next.diag, &next.diag.msgs[0], first, sizeof(first));
		ui_message(u, true, "%s", first);
		diag_release(&next.diag);
		profile_release(&next.prof);
		free(next.path);
		return;
	}
	views_release(u);
	diag_release(&u->diag);
	profile_release(&u->prof);
	free(u->path);
	u->prof = next.prof;
	u->diag = next.diag;
	u->path = next.path;
	u->vs.path = u->path;
	u->status = next.status;
	memcpy(u->vs.message, next.vs.message, sizeof(u->vs.message));
	u->vs.message_is_error = next.vs.message_is_error;
	views_init(u);
	apply_filters(u);
	if (!u->vs.message[0])
		ui_message(u, false, "opened %s", path);
}

/* A command line, from a script, --command or the prompt. */
static void ui_command(struct ui *u, const char *line)
{
	char *copy = xstrdup(line);

	run_command(u, copy);
	free(copy);
}

static void run_command(struct ui *u, char *cmd)
{
	char *arg;
	double num;
	int rows, cols;

	cmd += strspn(cmd, " \t:");
	arg = cmd + strcspn(cmd, " \t");
	if (*arg)
		*arg++ = '\0';
	arg += strspn(arg, " \t");
	arg[strcspn(arg, "\n")] = '\0';
	if (!*cmd)
		return;
	if (!strcmp(cmd, "filter") || !strcmp(cmd, "focus") || !strcmp(cmd, "ignore") ||
	    !strcmp(cmd, "hide")) {
		filter_command(u, cmd, arg);
	} else if (!strcmp(cmd, "sort")) {
		sort_command(u, arg);
	} else if (!strcmp(cmd, "event")) {
		event_command(u, arg);
	} else if (!strcmp(cmd, "threshold")) {
		if (number_arg(u, cmd, arg, 100, &num) == 0) {
			struct screen *s = hist_current(&u->hist);

			u->threshold = num;
			if (s->kind == SCREEN_TREE) {
				s->tree.threshold = num;
				rebuild_tree(u, s);
			}
		}
	} else if (!strcmp(cmd, "goto")) {
		goto_command(u, arg);
	} else if (!strcmp(cmd, "top")) {
		if (number_arg(u, cmd, arg, 1e9, &num) == 0) {
			u->t.limit = (size_t)num;
			table_refresh(&u->t);
		}
	} else if (!strcmp(cmd, "set")) {
		set_command(u, arg);
	} else if (!strcmp(cmd, "write")) {
		write_command(u, arg);
	} else if (!strcmp(cmd, "open")) {
		open_command(u, arg);
	} else if (!strcmp(cmd, "help")) {
		u->vs.help = true;
		u->vs.help_top = 0;
	} else if (!strcmp(cmd, "quit") || !strcmp(cmd, "q")) {
		u->quit = true;
	} else if (!strcmp(cmd, "save-screen")) {
		if (*arg)
			save_screen(u, arg);
		else
			ui_message(u, true, "usage: :save-screen PATH");
	} else if (!strcmp(cmd, "resize")) {
		if (parse_size(arg, &cols, &rows) == 0) {
			grid_resize(&u->g, rows, cols);
			nav_scroll(&u->t.nav, view_table_rows(&u->g));
		} else {
			ui_message(u, true, "bad size '%s' for :resize (COLSxROWS, e.g. 80x24)", arg);
		}
	} else if (!strcmp(cmd, "substitute-path") || !strcmp(cmd, "include")) {
		source_command(u, cmd, arg);
	} else {
		ui_message(u, true, "unknown command '%s' (help shows the commands)", cmd);
	}
}

static void run_command(struct ui *u, char *cmd);

static const char *const command_names[] = {
	"event", "filter", "focus", "goto", "help", "hide", "ignore", "open", "quit",
	"set", "sort", "threshold", "top", "write",
};

/* Keep the longest common prefix of the candidates, and a list of the first ones. */
struct completion {
	const char *word;
	size_t wlen, n;
	char lcp[256];
	size_t lcp_len;
	char *hint;
	size_t hint_size, hint_len;
};

static void candidate(struct completion *c, const char *s, size_t len)
{
	if (len < c->wlen || memcmp(s, c->word, c->wlen))
		return;
	if (!c->n++) {
		c->lcp_len = len < sizeof(c->lcp) - 1 ? len : sizeof(c->lcp) - 1;
		memcpy(c->lcp, s, c->lcp_len);
	} else {
		size_t i = 0;

		while (i < c->lcp_len && i < len && c->lcp[i] == s[i])
			i++;
		c->lcp_len = i;
	}
	if (c->hint_len + len + 3 < c->hint_size && c->n <= 20)
		c->hint_len += (size_t)snprintf(c->hint + c->hint_len, c->hint_size - c->hint_len,
						"%s%.*s", c->n > 1 ? "  " : "", (int)len, s);
}

static size_t ui_complete(void *ctx, const char *line, size_t start, char *insert,
			  size_t insert_size, char *hint, size_t hint_size)
{
	struct ui *u = ctx;
	struct completion c = {line + start, strlen(line + start), 0, "", 0, hint, hint_size, 0};
	size_t cmd_len = strcspn(line, " ");

	hint[0] = insert[0] = '\0';
	if (start == 0) {
		for (size_t i = 0; i < sizeof(command_names) / sizeof(command_names[0]); i++)
			candidate(&c, command_names[i], strlen(command_names[i]));
	} else if (cmd_len == 5 && !strncmp(line, "event", 5)) {
		for (uint32_t e = 0; e < u->prof.nev; e++)
			candidate(&c, u->prof.events[e].name.ptr, u->prof.events[e].name.len);
	} else if (cmd_len == 4 && !strncmp(line, "sort", 4)) {
		for (int i = 0; i < 4; i++)
			candidate(&c, sort_names[i], strlen(sort_names[i]));
	} else {
		/* a function name: filter, focus, ignore, hide, goto */
		for (uint32_t f = 0; f < u->prof.nfuncs; f++)
			if (profile_function_used(&u->prof, f)) {
				struct span n = profile_name(&u->prof, u->prof.funcs[f].name);

				candidate(&c, n.ptr, n.len);
			}
	}
	if (c.n > 20)
		snprintf(hint + c.hint_len, hint_size - c.hint_len, "  ... (%zu in all)", c.n);
	if (c.n && c.lcp_len >= c.wlen)
		snprintf(insert, insert_size, "%.*s%s", (int)(c.lcp_len - c.wlen), c.lcp + c.wlen,
			 c.n == 1 ? " " : "");
	if (c.n == 1)
		hint[0] = '\0';
	return c.n;
}

/* A key on the command line: libedit edits, Enter runs the command. */
static void command_key(struct ui *u, int key)
{
	const char *line;
	enum prompt_result r = prompt_key(u->prompt, key, &line);

	if (r == PROMPT_CANCEL) {
		u->vs.prompting = false;
	} else if (r == PROMPT_DONE) {
		char *copy = xstrdup(line);

		u->vs.prompting = false;
		run_command(u, copy);
		free(copy);
	} else {
		size_t cursor;
		const char *text = prompt_text(u->prompt, &cursor);

		snprintf(u->vs.prompt, sizeof(u->vs.prompt), "%s", text);
		u->vs.prompt_len = strlen(u->vs.prompt);
		u->vs.prompt_cursor = cursor < u->vs.prompt_len ? cursor : u->vs.prompt_len;
		snprintf(u->vs.message, sizeof(u->vs.message), "%s", prompt_hint(u->prompt));
		u->vs.message_is_error = false;
	}
}

static void handle_key(struct ui *u, int key)
{
	enum request req;
	uint32_t selected;

	if (key == KEY_RESIZE && !u->script) {
		int rows, cols;

		term_size(&rows, &cols);
		grid_resize(&u->g, rows, cols);
		nav_scroll(&u->t.nav, page(u));
		return;
	}
	if (u->vs.help) {
		help_key(u, key);
		return;
	}
	if (u->vs.prompting && u->vs.prompt_char == ':' && u->prompt) {
		command_key(u, key);
		return;
	}
	if (u->vs.prompting) {
		prompt_key_simple(u, key);
		return;
	}
	u->vs.message[0] = '\0';
	req = keys_request(key, scope_of(hist_current(&u->hist)));
	if (req == REQ_NONE) {
		char nb[16];

		ui_message(u, true, "no action for key %s (? shows the keys)",
			   keys_name(key, nb, sizeof(nb)));
		return;
	}
	if (screen_request(u, req))
		return;
	selected = table_selected(&u->t);
	request(u, req);
	if (table_selected(&u->t) != selected)
		u->t.name_scroll = 0; /* the detail line starts at the new name's start */
}

static void draw(struct ui *u)
{
	struct screen *s = hist_current(&u->hist);

	if (u->vs.help)
		view_draw_help(&u->g, &u->vs);
	else if (s->kind == SCREEN_DETAIL)
		view_draw_detail(&u->g, &s->detail, &u->t, &u->vs);
	else if (s->kind == SCREEN_TREE)
		view_draw_tree(&u->g, &s->tree, &s->nav, &u->t, &u->vs);
	else if (s->kind == SCREEN_SOURCE)
		view_draw_source(&u->g, &s->src, &u->t, &u->vs);
	else
		view_draw_table(&u->g, &u->t, &u->vs);
	if (!u->script)
		term_paint(&u->g);
}

/* ---- loading ----------------------------------------------------------- */

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct ui *u = ctx;

	if (u->script)
		return;
	view_draw_loading(&u->g, u->vs.path, done, total);
	term_paint(&u->g);
}

static int load(struct ui *u, const char *path)
{
	struct parse_progress prog = {on_progress, u};

	profile_init(&u->prof, path);
	diag_init(&u->diag, path);
	if (parse_profile(&u->prof, path, &u->diag, &prog) < 0)
		return -1;
	if (u->diag.errors || u->diag.warnings) {
		char first[1200];

		diag_format(&u->diag, &u->diag.msgs[0], first, sizeof(first));
		ui_message(u, u->diag.errors > 0, "%zu problem(s) reading the profile: %s",
			   u->diag.errors + u->diag.warnings, first);
	}
	u->status = u->diag.errors ? 1 : 0;
	return 0;
}

static int next_key(struct ui *u)
{
	char *cmd;
	int key;

	if (!u->script)
		return term_read_key();
	while ((key = script_next(u->script, &cmd)) == 0 && cmd) {
		run_command(u, cmd);
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
			fprintf(stderr, "ncgrind: cannot read the script '%s'\n", o->script);
			return -1;
		}
	} else {
		if (term_open(err, sizeof(err)) < 0) {
			fprintf(stderr, "ncgrind: %s\n", err);
			return -1;
		}
		term_size(&rows, &cols);
	}
	grid_init(&u->g, rows, cols);
	return 0;
}

static void views_init(struct ui *u)
{
	table_init(&u->t, &u->prof);
	callgraph_init(&u->graph, &u->prof);
	hist_init(&u->hist);
	u->keep = xcalloc(u->prof.nfuncs + 1, sizeof(bool));
}

static void views_release(struct ui *u)
{
	hist_release(&u->hist);
	callgraph_release(&u->graph);
	table_release(&u->t);
	free(u->keep);
	u->keep = NULL;
}

/* The command line; without it, ':' falls back to the plain line of the search. */
static void start_prompt(struct ui *u)
{
	char err[200], *history = prompt_history_path();

	u->prompt = prompt_new(history, ui_complete, u, err, sizeof(err));
	if (!u->prompt)
		ui_message(u, true, "%s", err);
	free(history);
}

static void teardown(struct ui *u)
{
	term_close();
	diag_write(&u->diag, stderr);
	if (u->script) {
		if (u->script->f)
			fclose(u->script->f);
		free(u->script->line);
		free(u->script);
	}
	views_release(u);
	prompt_free(u->prompt);
	filters_release(&u->filters);
	free(u->path);
	grid_release(&u->g);
	diag_release(&u->diag);
	profile_release(&u->prof);
}

int ui_main(const char *path, const struct ui_opts *o)
{
	struct ui u;
	int key;

	memset(&u, 0, sizeof(u));
	u.vs.path = path;
	u.sources = o->sources;
	diag_init(&u.diag, path);
	if (setup(&u, o) < 0) {
		teardown(&u);
		return 2;
	}
	if (load(&u, path) < 0) {
		teardown(&u);
		return 1;
	}
	u.threshold = 1.0;
	filters_init(&u.filters);
	views_init(&u);
	start_prompt(&u);
	for (size_t i = 0; i < o->ncommands; i++)
		ui_command(&u, o->commands[i]);
	draw(&u);
	while (!u.quit && (key = next_key(&u)) != KEY_END_OF_INPUT) {
		handle_key(&u, key);
		draw(&u);
	}
	key = u.status;
	teardown(&u);
	return key;
}
