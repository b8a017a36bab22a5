/*
 * ui_internal: what the browser's files share: ui.c (input, the history,
 * the generic requests, loading), ui_commands.c (the command language, the
 * prompt's completion), ui_settings.c (SETTING_LIST), ui_search.c, and the
 * screens (screen_KIND.c: each its state, drawing, ops and keymap). Private
 * to src/ui; the interface is ui.h.
 */
#ifndef NCGRIND_UI_INTERNAL_H
#define NCGRIND_UI_INTERNAL_H

#include "ncgrind/core/commands.h"
#include "ncgrind/core/events.h"
#include "ncgrind/core/settings.h"
#include "ncgrind/model/diff.h"
#include "ncgrind/model/groups.h"
#include "ncgrind/model/filter.h"
#include "ncgrind/model/history.h"
#include "ncgrind/ui/prompt.h"
#include "ncgrind/model/session.h"
#include "ncgrind/model/table.h"
#include "ncgrind/ui/ui.h"
#include "ncgrind/ui/view.h"

#include <regex.h>
#include <sys/types.h>
#include <stdio.h>

struct script {
	FILE *f;
	char *line;
	size_t cap;
	char *cur;     /* the rest of the current line */
	char *pending; /* the rest of a "text" token, typed key by key */
	uint64_t lineno;
	const char *path;
	struct mouse_event mouse; /* the last KEYS_MOUSE's: Click:ROW,COL and the like */
};

/* A function by its names, as text: what R looks for in the reloaded profile. */
struct fn_name {
	uint32_t fn;   /* in the current profile, NCG_NONE: none */
	char *part[3]; /* name, file, object; NULL where unknown */
};

/* The files of the open profile and what the title line calls them: owned. */
struct ui_files {
	char **v;
	size_t n;
	char *title;
};

/*
 * What every load of the browser needs (the first, :open, :add, R, a
 * diff's base): made from the ui by ui_load_opts() alone, so that no load
 * reads a profile another way.
 */
struct load_opts {
	unsigned jobs;                   /* --jobs: threads that index (0: the cores) */
	const struct event_defs *events; /* --event and :event NAME = FORMULA */
	bool siblings;                   /* a diff's base with the other files of its run */
	struct grid *screen;             /* the loading screen's; NULL: none (a script) */
	bool later;                      /* the index kept by the caller, not at once (cache.h) */
};

struct ui {
	struct session ses;   /* the profile, its messages, graph and filters */
	bool narrowed;        /* the filters drop functions: ses.keep says which */
	struct view_ctx view; /* the profile and the display, as the screens draw with them */
	struct view_state vs;
	struct grid g;
	struct history hist; /* the table, then the screens opened from it */
	struct ui_files files;
	struct prompt *prompt; /* the command line (libedit); NULL if it could not start */
	struct prompt *search; /* the search line, with its own history; NULL likewise */
	struct display disp;   /* the event, units, percentages, threshold: every screen's */
	struct source_paths *sources;
	struct script *script; /* NULL: the terminal */
	regex_t search_re;     /* the last `/` pattern, for n and N on every screen */
	bool have_search_re;
	/*
	 * One more at each pass of a search over the rows, in which nothing
	 * changes: what a screen's row_text works out for every row (a parts
	 * screen's column widths) is worked out once a pass. 0: no pass.
	 */
	unsigned long search_pass;
	bool quit;
	struct fn_name seen_table, seen_subject; /* the table's and the screen's function */
	int status;                              /* exit status */
	/*
	 * The last :write or :save-screen that failed, said again on stderr at
	 * the end (status 1): a script's output is not the status line, and a
	 * file that was not written must not pass for one that was.
	 */
	char write_error[300];
	unsigned jobs; /* --jobs, for every profile read */
	/* a diff (--diff, :diff FILE): the base profile, and it matched with ses's */
	struct session *base;
	struct diff *diff;
	const struct rewrites *rules; /* --mod-*: how names are matched */
	bool no_siblings;             /* a diff's base without the other files of its run */
	bool keep_pending;            /* the index read is to be kept once drawn (cache.h) */
	pid_t keep_pid;               /* the child writing it, until reaped; 0: none */
	struct event_defs events;     /* --event, then :event NAME = FORMULA */
	uint32_t
	    diff_event; /* a diff event only the base has, shown on the diff screens; else NONE */
	struct ui_config *config; /* the configuration file's sets and binds (ui_config.c) */
};

/*
 * The operations of a kind of screen (tig's view_ops): each kind is one file,
 * screen_KIND.c, that ends in its table; screen_ops_of() lists them. ui.c
 * does what every screen shares (moving and paging, the history, the
 * prompt, opening screens from the selected function) the same way for all.
 */
struct screen_ops {
	const struct keymap *keymap; /* its own keys (the generic ones come after them) */
	/* the list's position, and how many of its rows the screen shows */
	struct nav *(*nav)(struct ui *u, struct screen *s);
	int (*rows)(const struct ui *u);
	/* after the cursor moved (dir: the way it went): keep it on a row it may be on */
	void (*moved)(struct ui *u, struct screen *s, int dir);
	void (*draw)(struct ui *u, struct screen *s);
	/* its own requests; false when req is not one of them */
	bool (*request)(struct ui *u, struct screen *s, enum request req);
	/* the function under the cursor (t, r, v, Enter open from it), or NCG_NONE */
	uint32_t (*selected)(struct ui *u, struct screen *s);
	/* the text `/` looks for on a row: what the row shows (false: nothing to find) */
	bool (*row_text)(struct ui *u, struct screen *s, size_t row, char *buf, size_t size);
	/* a search matched bytes [start, end) of row's text: scroll it into view (may be NULL) */
	void (*show_match)(struct ui *u, struct screen *s, size_t row, size_t start, size_t end);
	/* :write: the whole of it, not only the rows in view */
	int (*write)(struct ui *u, struct screen *s, FILE *f);
	/* a setting every screen reads (the event, the cycle mode) changed */
	void (*update)(struct ui *u, struct screen *s);
	/*
	 * R (reload): the function the screen is about and how it shows it
	 * (mode: the kind's own bits), then the same screen on the new profile's
	 * function of the same name (NCG_NONE when it is gone). Both may be NULL.
	 */
	uint32_t (*subject)(struct ui *u, struct screen *s, unsigned *mode);
	void (*reopen)(struct ui *u, uint32_t fn, unsigned mode);
	/* `/`, n, N on a screen that is no list of rows (the flame): u->search_re; may be NULL */
	void (*search)(struct ui *u, struct screen *s, int dir, bool from_here);
	/* :sort KEY: false (or NULL) when the screen cannot sort by key */
	bool (*sort)(struct ui *u, struct screen *s, enum report_sort key);
	/* the cursor on function fn (R, the loading's cursor): false when it is not a row */
	bool (*select)(struct ui *u, struct screen *s, uint32_t fn);
	/* :top N: only the first N rows (0: all); NULL where there is no such limit */
	bool (*top)(struct ui *u, struct screen *s, size_t n);
	/* how many of the other events of :set columns it has room for (the first ones) */
	int (*columns_shown)(struct ui *u, struct screen *s);
	/*
	 * The mouse (ui.c: a click puts the cursor on the row under it, a
	 * double click there is Enter, the wheel scrolls the list): first_row
	 * is the grid row where the list's top row in view (nav->top) is
	 * drawn; click, where the screen has clicks of its own (a tree's + and
	 * -, the flame's frames), takes an event first: true when it took it.
	 */
	int first_row;
	bool (*click)(struct ui *u, struct screen *s, const struct mouse_event *m);
};

/* Rows a notch of the mouse wheel scrolls, as tig's mouse-scroll and less's wheel-lines. */
#define UI_WHEEL_ROWS 3
/* The row of s's list drawn on grid row y (a click there): false where none is. */
bool ui_row_at(struct ui *u, struct screen *s, int y, size_t *row);
/* The cursor on that row, as a click puts it there (the screen's moved after it). */
void ui_click_row(struct ui *u, struct screen *s, size_t row);
/* What key does on s, as if pressed (a double click is Enter). */
void ui_press(struct ui *u, struct screen *s, int key);

/*
 * The kinds of screen, one line each: screen_KIND.c defines keymap_KIND
 * (and its ops); --list-keys and the manual's test list every keymap.
 */
/* clang-format off */
#define SCREEN_LIST(S) \
	S(table) \
	S(callers) \
	S(tree) \
	S(flame) \
	S(source) \
	S(groups) \
	S(group) \
	S(parts) \
	S(events) \
	S(diff) \
	S(diff_callers) \
	S(diff_tree) \
	S(diff_source) \
	S(help)
/* clang-format on */
#define S(kind) extern struct keymap keymap_##kind;
SCREEN_LIST(S)
#undef S
const struct screen_ops *screen_ops_of(const struct screen *s);

/*
 * A screen after the current one, with its kind's operations and its own
 * state: the history releases state with release when it drops the screen.
 */
struct screen *ui_push_screen(struct ui *u, const struct screen_ops *ops, void *state,
			      void (*release)(void *state));

/* The function table (screen_table.c): the first screen of a new history. */
void ui_open_table(struct ui *u);
/* The table t drawn on g (the table screen's, and the loading's partial one); its rows on g. */
void ui_draw_table(struct grid *g, const struct table *t, const struct view_state *vs);
int ui_table_rows(const struct grid *g);
/* Opening screens (each in its screen file); fn NCG_NONE opens nothing. */
void ui_open_detail(struct ui *u, uint32_t fn);
void ui_open_tree(struct ui *u, uint32_t fn, bool inverted, bool top_down);
void ui_open_source(struct ui *u, uint32_t fn, bool instr);
/*
 * ui_edit.c: e, the user's editor ($VISUAL, else $EDITOR, else vi) at a
 * line of a source file, the terminal lent to it meanwhile; what went
 * wrong (the file not found, no line, the editor failing) on the status
 * line. ui_edit_path: the file at path; ui_edit_text: the file a
 * source_load() found (name: the profile's, for the message);
 * ui_edit_source: file (a name id of p) found as the source screen finds
 * it; ui_edit_function: fn's own file at its first line with cost.
 */
void ui_edit_path(struct ui *u, const char *path, uint64_t line);
void ui_edit_text(struct ui *u, const char *name, const struct source_text *t, uint64_t line);
void ui_edit_source(struct ui *u, const struct profile *p, uint32_t file, uint64_t line);
void ui_edit_function(struct ui *u, uint32_t fn);
/* The help (screen_help.c) on the keys of the current screen. */
void ui_open_help(struct ui *u);
/* :include, :substitute-path: the source screens of the history look again. */
void ui_sources_changed(struct ui *u);
/* Every screen of the history: refresh (the event or the cycle mode changed). */
void ui_refresh_all(struct ui *u);
/* Event ev on every screen (the diff's too); step: the next (+1) or previous (-1) one. */
void ui_set_event(struct ui *u, uint32_t ev);
void ui_step_event(struct ui *u, int step);
/* The first screen's cursor on fn, where it has such a row (R, the loading's cursor). */
void ui_select_first(struct ui *u, uint32_t fn);
/* The screen at a new size (a resize of the terminal, :resize). */
void ui_resize(struct ui *u, int rows, int cols);

/* ui_search.c: `/`, n and N on every screen, over what its rows show */
void ui_search(struct ui *u, const char *pattern);
void ui_search_next(struct ui *u, int dir);

/* ui.c */
void ui_message(struct ui *u, bool error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The rows a list screen other than the table shows (its ops' rows). */
int ui_list_rows(const struct ui *u);
/* The flame graph (screen_flame.c) of fn or of the entry points (top_down), or fn's callers. */
void ui_open_flame(struct ui *u, uint32_t fn, bool inverted, bool top_down);
/* The diff screen (screen_diff.c) on u->diff. */
void ui_open_diff(struct ui *u);
/*
 * The columns of the diff screens (list.h, screen_diff.c): base, new, the
 * change, the change as a share of the base's total (%base: with share)
 * and the ratio (with ratio); a screen adds its own after them, then fits
 * them (list_fit). On a narrow screen, while the name has fewer than room
 * columns: the costs narrow from 14 columns to their values' width (step
 * 1), the ratio gives way (2), %base (3), exact numbers (4: short units),
 * the screen's own (DIFF_STEP_OWN: the tree's calls), base and new (6);
 * the change stays.
 */
#define DIFF_MIN_NAME 16
#define DIFF_STEP_OWN 5
enum { DCOL_BASE, DCOL_NEW, DCOL_CHANGE, DCOL_SHARE, DCOL_RATIO, DCOL_OWN };
void ui_diff_columns(const struct ui *u, struct list *l, bool share, bool ratio, int room);
/* The cells of a diff's row with its change in grown or shrunk (not on the cursor). */
int ui_diff_put_cells(struct grid *g, int y, const struct list *l, char (*cells)[LIST_CELL],
		      uint64_t b, uint64_t n, enum grid_attr a);
/* The cells of costs b (base) and n (new) in l's units; the share of the base's total. */
void ui_diff_cells(const struct ui *u, const struct list *l, char (*cells)[LIST_CELL], uint64_t b,
		   uint64_t n, uint64_t total);
/* The callers and callees of a diff row, as a diff (screen_diff.c). */
void ui_open_diff_calls(struct ui *u, uint32_t row);
/*
 * What every diff screen does alike (for diff row `row`): t, r, T, v open a
 * diff tree (screen_difftree.c) or the source as a diff, Tab and S-Tab step
 * through the events of both profiles; false: not one of them.
 */
bool ui_diff_request(struct ui *u, uint32_t row, enum request req);
/* The diff event the diff screens show. */
uint32_t ui_diff_event(const struct ui *u);
/* "245 matched (3 across directories)", into buf. */
const char *ui_diff_matched(const struct diff *d, char *buf, size_t size);
/*
 * "; 6 in other files (--mod-filename)": the rows gone and new whose
 * namesake the other side has in another file, or "", into buf.
 */
const char *ui_diff_elsewhere(const struct diff *d, char *buf, size_t size);
/* :goto on a diff: back to the diff's functions in the history, or opened. */
void ui_diff_home(struct ui *u);
/*
 * The function lists of a diff (its functions, calls, trees): on a wide
 * screen the file at the right, in a trail of ui_diff_trail(cols) columns
 * (0: none) headed by ui_diff_file_head, each row's by ui_diff_put_file
 * (diff row r, the new side's file where it has one); under the list two
 * detail lines (ui_diff_detail: the whole name, the file and object on
 * both sides, or for a function of one side whose name the other has in
 * another file, that file), which ui_diff_list_rows leaves room for.
 */
struct shorten_set;
int ui_diff_trail(int cols);
void ui_diff_file_head(struct grid *g, int y, const struct list *l);
void ui_diff_put_file(struct grid *g, int y, const struct list *l, const struct diff *d, uint32_t r,
		      enum grid_attr a);
void ui_diff_detail(const struct diff *d, struct grid *g, uint32_t r);
int ui_diff_list_rows(const struct grid *g);
int ui_diff_rows(const struct ui *u);
/*
 * What tells rows of one name apart, set before they are shortened: with
 * the file column, nothing more; else the file, or where two rows shown
 * have one name and one file (two objects' "(below main)" in ???), the
 * object. rows[i]: the diff row of names' row i (NCG_NONE: no function).
 */
void ui_diff_tell_apart(const struct diff *d, struct shorten_set *names, const uint32_t *rows,
			bool file_column);
/* Tab, S-Tab on a diff screen (dir 1, -1): through the events of both profiles. */
void ui_diff_step_event(struct ui *u, int dir);
/* A diff row's annotated source, both builds (screen_diffsrc.c). */
void ui_open_diff_source(struct ui *u, uint32_t row);
/* A diff with path as the base and the open profile as the new one: 0, or -1 with a message. */
int ui_diff_start(struct ui *u, const char *path);
/* No diff any more (the base is released). */
void ui_diff_end(struct ui *u);
/*
 * The diff matched again (the parts or the filters changed): the history
 * starts again at its functions, the cursor on the function it was on
 * (ui_diff_cursor: the rows of the diff screen's cursor, NCG_NONE for
 * none; ui_diff_select: there, where the new match has a row of them).
 */
void ui_diff_rematch(struct ui *u);
struct diff_row ui_diff_cursor(struct ui *u);
void ui_diff_select(struct ui *u, struct diff_row at);
/* "ncgrind: WHAT  [FILTERS: N of M functions]": a diff screen's title line. */
void ui_diff_title(const struct ui *u, struct grid *g, const char *what);
/*
 * Only the parts of LIST count (as --parts): every screen's costs again; a
 * message. False when nothing changed (a bad list, or q stopped the count).
 */
bool ui_select_parts(struct ui *u, const char *list);
/* The same for a diff's base. */
bool ui_select_base_parts(struct ui *u, const char *list);
/* The grouped table (screen_groups.c) by kind, or the next kind (O); none closes it. */
void ui_group(struct ui *u, enum group_kind kind);
void ui_group_next(struct ui *u);
/* ui_settings.c: the settings of SETTING_LIST (settings.h) */
/* Names demangled or as written (both sides of a diff): filters and every screen again. */
void ui_set_demangle(struct ui *u, bool on);
/* Cycle detection on or off: the table's costs and marks, every tree of the history. */
void ui_set_cycles(struct ui *u, bool on);
/* The cycle mode and the names of the settings (u->disp), given to profile p. */
void ui_profile_settings(const struct ui *u, struct profile *p);
/* Setting s to value (a message says what changed, or what is wrong). */
void ui_setting_apply(struct ui *u, enum setting s, const char *value);
/*
 * ui_config.c: the configuration file. Read it (path, or the default one
 * when NULL) before the terminal starts: wrong lines are told on stderr;
 * -1 when a path given cannot be read. Apply its settings once the profile
 * is read, but those the command line gave (given[s]).
 */
int ui_config_read(struct ui *u, const char *path);
/*
 * A long computation's progress on the status line, over the screen as it
 * was last drawn (only the last row changes); true when a key (q, Esc)
 * asks it to stop.
 */
bool ui_progress_status(void *ctx, uint64_t done, uint64_t total);
void ui_config_apply(struct ui *u, const bool given[SET_COUNT]);
void ui_config_release(struct ui *u);
/* The keymap --list-keys calls name ("generic", "table", ...), or NULL; all their names. */
struct keymap *ui_keymap_find(const char *name);
char *ui_keymap_names(char *buf, size_t size);
/* What setting s is now: one value a line into buf (:write-config). */
void ui_setting_value(const struct ui *u, enum setting s, char *buf, size_t size);
void ui_save_screen(struct ui *u, const char *path);
/*
 * Close f, the file at path that a screen was written to: 0, or -1 with
 * why not on the status line and in write_error (f NULL: fopen() failed,
 * errno says why).
 */
int ui_close_written(struct ui *u, FILE *f, const char *path);
int ui_parse_size(const char *s, int *cols, int *rows);
/* The n files (copies), and the title that names them. */
void ui_files_init(struct ui_files *f, char *const *paths, size_t n);
void ui_files_release(struct ui_files *f);
/* How u loads a profile: its jobs, the user's events, its loading screen. */
void ui_load_opts(struct ui *u, struct load_opts *o);
/*
 * The files f into s (session_load, the loading screen naming them): 0,
 * or -1 when nothing could be read (s->diag says why). Release s either way.
 */
int ui_load_session(struct session *s, const struct ui_files *f, const struct load_opts *o);
void ui_tell_problems(struct ui *u);
/*
 * A slow step that a key may stop (objdump): it asks ui_wait_stop often.
 * Past a moment the screen says what it waits for (title, subject and the
 * progress so far); true once q or Esc is pressed. Never true in a script.
 */
struct ui_wait {
	double since; /* the first question's time; 0 before it */
	const char *title;
	struct span subject;
};
bool ui_wait_stop(struct ui *u, struct ui_wait *w, const char *progress);
void ui_views_init(struct ui *u);
void ui_views_release(struct ui *u);

/*
 * The handlers of the command table (commands.h), one per command: most in
 * ui_commands.c, a screen's opener in its file (cmd_events).
 */
#define C(id, name, handler, ...) void handler(struct ui *u, const char *cmd, const char *arg);
COMMAND_LIST(C)
#undef C

/* ui_commands.c */
/* Run one command line (a script's ":...", --command, the prompt). */
void ui_run_command(struct ui *u, char *cmd);
void ui_command(struct ui *u, const char *line);
void ui_undo_filter(struct ui *u);
/* The filters again: the first screen, and the one in front. */
void ui_apply_filters(struct ui *u);
/* After each key: the profile's file changed under it? Say so once. */
void ui_check_changed(struct ui *u);
void ui_forget_names(struct ui *u);
/* Tab on the command line and on the search line (see prompt_complete_fn). */
size_t ui_complete(void *ctx, const char *line, char *insert, size_t insert_size, char *hint,
		   size_t hint_size);
size_t ui_complete_search(void *ctx, const char *line, char *insert, size_t insert_size, char *hint,
			  size_t hint_size);

#endif
