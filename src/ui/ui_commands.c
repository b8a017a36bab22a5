/*
 * ui_commands: the command language of the browser, whichever way a command
 * comes (a script's ":..." line, --command, the prompt): filters, sorting,
 * events, thresholds, goto, top, set, open, write; and the prompt's Tab
 * completion of command names, events and function names.
 */
#define _POSIX_C_SOURCE 200809L
#include "ui_internal.h"
#include "ncgrind/core/siblings.h"
#include "ncgrind/core/commands.h"
#include "ncgrind/core/map.h"
#include "ncgrind/model/parts.h"
#include "ncgrind/model/source.h"
#include "ncgrind/ui/term.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The filters again: the first screen, and the one in front if it is another. */
void ui_apply_filters(struct ui *u)
{
	struct screen *s = hist_current(&u->hist), *first = &u->hist.screens[0];

	u->narrowed = filters_apply(&u->ses.filters, &u->ses.prof,
				    u->ses.filters.n ? session_graph(&u->ses) : NULL, u->ses.keep);
	filters_describe(&u->ses.filters, u->vs.filters, sizeof(u->vs.filters));
	screen_ops_of(first)->update(u, first);
	if (s != first)
		screen_ops_of(s)->update(u, s);
}

/*
 * The diff matched again with the filters as they are now: each side's
 * functions judged by that side's own call graph (diff_build keeps a row
 * either side keeps).
 */
static void diff_make(struct ui *u)
{
	bool any = u->ses.filters.n != 0; /* (a graph only for the filters that need one) */
	bool nb = filters_apply(&u->ses.filters, &u->base->prof,
				any ? session_graph(u->base) : NULL, u->base->keep);
	bool nn = filters_apply(&u->ses.filters, &u->ses.prof, any ? session_graph(&u->ses) : NULL,
				u->ses.keep);

	diff_build(u->diff, &u->base->prof, &u->ses.prof, u->rules, nb || nn ? u->base->keep : NULL,
		   nb || nn ? u->ses.keep : NULL);
}

/* The filters changed: the table, and a diff matched again (its screens start again). */
static void filters_changed(struct ui *u)
{
	if (u->diff)
		ui_diff_rematch(u); /* (which applies them to the table too) */
	else
		ui_apply_filters(u);
}

void cmd_filter(struct ui *u, const char *cmd, const char *arg)
{
	enum filter_kind kind = filters_kind(cmd, &arg);
	char err[300];

	if (!*arg && !strcmp(cmd, "filter")) {
		filters_clear_names(&u->ses.filters);
		filters_changed(u);
		return;
	}
	if (!*arg) {
		ui_message(u, true, "usage: %s",
			   command_info(command_find(cmd, strlen(cmd)))->usage);
		return;
	}
	/* as --diff's reports refuse it: a diff's trees go call by call, matched by row */
	if (kind == FILTER_HIDE && u->diff) {
		ui_message(u, true,
			   "hide shapes the call trees of one profile; a diff takes filter, focus "
			   "and ignore");
		return;
	}
	if (filters_add(&u->ses.filters, kind, arg, err, sizeof(err)) < 0) {
		ui_message(u, true, "%s", err);
		return;
	}
	filters_changed(u);
}

void ui_undo_filter(struct ui *u)
{
	if (!filters_undo(&u->ses.filters)) {
		ui_message(u, false, "no filter to undo");
		return;
	}
	filters_changed(u);
	ui_message(u, false, "filter undone");
}

/* sort KEY: the screen in front, if it sorts by that key; else it says so. */
void cmd_sort(struct ui *u, const char *cmd, const char *arg)
{
	struct screen *s = hist_current(&u->hist);
	int sort = report_sort_find(arg, strlen(arg));

	(void)cmd;
	if (sort < 0) {
		ui_message(u, true, "unknown sort key '%s' (self, incl, calls, name)", arg);
		return;
	}
	if (!screen_ops_of(s)->sort || !screen_ops_of(s)->sort(u, s, (enum report_sort)sort))
		ui_message(u, true, "this screen does not sort by %s (? shows its keys)", arg);
}

/*
 * event NAME = FORMULA: an event of yours, as --event gives it (a sum, or a
 * ratio A / B): the profile is read again with it, and it becomes current.
 */
static void define_event(struct ui *u, const char *arg)
{
	char name[128];
	uint32_t ev;

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(arg, " \t="), arg);
	event_defs_add(&u->events, arg);
	cmd_reload(u, "reload", "");
	ev = profile_find_event_str(&u->ses.prof, name);
	if (ev == NCG_NONE) {
		if (!u->vs.message_is_error)
			ui_message(u, true, "cannot make %s: not a sum or a ratio of its events",
				   name);
		return;
	}
	ui_set_event(u, ev);
	ui_message(u, false, "%s: a new event, shown (Tab: the others)", name);
}

void cmd_event(struct ui *u, const char *cmd, const char *arg)
{
	uint32_t ev;

	(void)cmd;
	if (strchr(arg, '=')) {
		define_event(u, arg);
		return;
	}
	ev = profile_find_event_str(&u->ses.prof, arg);
	if (ev == NCG_NONE) {
		ui_message(u, true, "unknown event '%s'", arg);
		return;
	}
	ui_set_event(u, ev);
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

/*
 * goto REGEX: back to the first screen, then the search there (n, N go on
 * with it); in a diff, the diff's functions are the first screen (the table
 * under them is the new profile's alone).
 */
void cmd_goto(struct ui *u, const char *cmd, const char *arg)
{
	(void)cmd;
	if (!*arg) {
		ui_message(u, true, "usage: goto REGEX");
		return;
	}
	if (u->diff)
		ui_diff_home(u);
	else
		u->hist.cur = 0;
	ui_search(u, arg);
}

void cmd_write(struct ui *u, const char *cmd, const char *path)
{
	struct screen *s = hist_current(&u->hist);
	FILE *f;

	(void)cmd;
	if (!*path) {
		ui_message(u, true, "usage: write FILE");
		return;
	}
	f = fopen(path, "w");
	if (f)
		screen_ops_of(s)->write(u, s, f);
	if (ui_close_written(u, f, path) == 0)
		ui_message(u, false, "wrote %s", path);
}

/*
 * The n files into s (f: their copies), as every load of the browser reads
 * them: 0, or -1 with the reason on the status line (s and f released).
 */
static int load_session(struct ui *u, char *const *paths, size_t n, struct session *s,
			struct ui_files *f)
{
	struct load_opts lo;
	char first[1200];

	ui_load_opts(u, &lo);
	ui_files_init(f, paths, n);
	if (ui_load_session(s, f, &lo) == 0)
		return 0;
	diag_format(&s->diag, &s->diag.msgs[0], first, sizeof(first));
	ui_message(u, true, "%s", first);
	session_release(s);
	ui_files_release(f);
	return -1;
}

/*
 * The files f (read into ses) in the place of u's, which are released:
 * the filters and the settings stay, the screens start again from the
 * table (ui_views_init) once the caller has chosen the event.
 */
static void install_session(struct ui *u, struct session *ses, struct ui_files *f)
{
	ui_forget_names(u); /* function ids of the old profile */
	ui_views_release(u);
	ui_profile_settings(u, &ses->prof);
	filters_release(&ses->filters);
	ses->filters = u->ses.filters; /* the user's, on the new profile */
	filters_init(&u->ses.filters);
	session_release(&u->ses);
	u->ses = *ses;
	ui_files_release(&u->files);
	u->files = *f;
	u->vs.path = u->files.title;
	source_paths_set_profile(u->sources, u->files.v[0]); /* sources beside the new profile */
	/* what reading it said, or nothing */
	u->vs.message[0] = '\0';
	u->vs.message_is_error = false;
	ui_tell_problems(u);
	if (u->diff) { /* the same base, against the profile read now */
		diff_release(u->diff);
		diff_make(u);
	}
}

/* open FILE: read another profile; the current one stays if that fails. */
void cmd_open(struct ui *u, const char *cmd, const char *path)
{
	struct session ses;
	struct ui_files f;

	(void)cmd;
	if (!*path) {
		ui_message(u, true, "usage: open FILE");
		return;
	}
	if (load_session(u, (char *const *)&path, 1, &ses, &f) < 0)
		return;
	install_session(u, &ses, &f);
	u->disp.event = 0; /* another profile, other events: its first */
	ui_views_init(u);
	ui_apply_filters(u);
	if (!u->vs.message[0])
		ui_message(u, false, "opened %s", path);
}

int ui_diff_start(struct ui *u, const char *path)
{
	struct session *base = xcalloc(1, sizeof(*base));
	struct file_list files = {0};
	struct load_opts lo;
	struct ui_files f;
	char counts[80];
	int ret;

	/* with the other files of its run, as the open profile has its own */
	ui_load_opts(u, &lo);
	files_add_diff_side(&files, path, u->files.n ? u->files.v[0] : "-", lo.siblings);
	ret = load_session(u, files.v, files.n, base, &f);
	files_release(&files);
	if (ret < 0) {
		free(base);
		return -1;
	}
	ui_files_release(&f); /* the base keeps no file list: R reads the new side again */
	ui_diff_end(u);
	ui_profile_settings(u, &base->prof); /* as the new side */
	u->base = base;
	u->diff = xcalloc(1, sizeof(*u->diff));
	diff_make(u);
	ui_open_diff(u);
	ui_message(u, false, "diff: %s, %zu gone, %zu new",
		   ui_diff_matched(u->diff, counts, sizeof(counts)), u->diff->only_base,
		   u->diff->only_new);
	return 0;
}

void ui_diff_end(struct ui *u)
{
	if (!u->diff)
		return;
	/* the history's diff screens read u->diff: back to the table first */
	ui_views_release(u);
	ui_views_init(u);
	ui_apply_filters(u);
	diff_release(u->diff);
	free(u->diff);
	session_release(u->base);
	free(u->base);
	u->diff = NULL;
	u->base = NULL;
}

/* diff FILE: the diff screen, FILE as the base; diff off: no more diff. */
void cmd_diff(struct ui *u, const char *cmd, const char *arg)
{
	(void)cmd;
	if (!*arg) {
		if (u->diff)
			ui_open_diff(u);
		else
			ui_message(u, true, "usage: diff FILE|off");
		return;
	}
	if (!strcmp(arg, "off")) {
		if (!u->diff) {
			ui_message(u, false, "no diff is open");
			return;
		}
		ui_diff_end(u);
		ui_message(u, false, "the diff is closed");
		return;
	}
	ui_diff_start(u, arg);
}

/* add FILE: the profile read again with FILE too; the current one stays if that fails. */
void cmd_add(struct ui *u, const char *cmd, const char *path)
{
	char **paths;
	struct session ses;
	struct ui_files f;
	size_t nfuncs = u->ses.prof.nfuncs;
	int ret;

	(void)cmd;
	if (!*path) {
		ui_message(u, true, "usage: add FILE");
		return;
	}
	paths = xmalloc_array(u->files.n + 1, sizeof(char *));
	memcpy(paths, u->files.v, u->files.n * sizeof(char *));
	paths[u->files.n] = (char *)path;
	ret = load_session(u, paths, u->files.n + 1, &ses, &f);
	free(paths);
	if (ret < 0)
		return;
	install_session(u, &ses, &f);
	u->disp.event = 0;
	ui_views_init(u);
	ui_apply_filters(u);
	if (!u->vs.message[0])
		ui_message(u, false, "added %s: %zu files, %zu part%s, %zu function%s (were %zu)",
			   path, u->ses.prof.nsrc, u->ses.prof.nparts,
			   u->ses.prof.nparts == 1 ? "" : "s", u->ses.prof.nfuncs,
			   u->ses.prof.nfuncs == 1 ? "" : "s", nfuncs);
}

/*
 * A diff after the parts that count changed on a side, or the filters: matched
 * again (a function of no part that counts is on neither side now); its
 * screens hold rows of the old match, so the history starts again at the
 * diff, its cursor on the function it was on where that is still a row.
 */
void ui_diff_rematch(struct ui *u)
{
	struct diff_row at = ui_diff_cursor(u);

	ui_views_release(u); /* first: the screens are released on the diff they read */
	diff_release(u->diff);
	diff_make(u);
	ui_views_init(u);
	ui_apply_filters(u);
	ui_open_diff(u);
	ui_diff_select(u, at);
}

/*
 * Only the parts of list count in ses (the open profile's, or a diff's
 * base). False when nothing changed: a bad list, or q stopped the count.
 */
static bool select_parts(struct ui *u, struct session *ses, const char *list)
{
	struct profile *p = &ses->prof;
	bool *sel = xcalloc(p->nparts ? p->nparts : 1, sizeof(bool));
	char err[200], now[200];
	const struct profile_progress progress = {ui_progress_status, u};
	size_t n;

	if (parts_parse(p, list, sel, err, sizeof(err)) < 0) {
		ui_message(u, true, "%s", err);
		free(sel);
		return false;
	}
	if (!session_select_parts(ses, sel, u->jobs, &progress)) {
		free(sel);
		ui_message(u, false, "%sstopped: the parts that counted still count",
			   ses == u->base ? "base: " : "");
		return false;
	}
	n = profile_parts_in(sel, p->nparts);
	parts_format(sel, p->nparts, now, sizeof(now));
	free(sel);
	if (u->diff)
		ui_diff_rematch(u);
	else
		ui_refresh_all(u); /* the table sorts again, the trees are built again */
	if (n == p->nparts)
		ui_message(u, false, n == 1 ? "%sthe only part counts" : "%sall %zu parts count",
			   ses == u->base ? "base: " : "", n);
	else
		ui_message(u, false, "%s%zu of %zu parts count%s: %s",
			   ses == u->base ? "base: " : "", n, p->nparts, n == 1 ? "s" : "", now);
	return true;
}

bool ui_select_parts(struct ui *u, const char *list)
{
	return select_parts(u, &u->ses, list);
}

bool ui_select_base_parts(struct ui *u, const char *list)
{
	return u->diff && select_parts(u, u->base, list);
}

/*
 * Remember fn's name, file and object as text (the mapping's bytes may be
 * gone by the time R reloads: a cut file reads as zeros).
 */
static void remember(struct ui *u, struct fn_name *k, uint32_t fn)
{
	const struct profile *p = &u->ses.prof;
	uint32_t id[3];

	if (k->fn == fn && k->fn != NCG_NONE)
		return;
	for (int i = 0; i < 3; i++) {
		free(k->part[i]);
		k->part[i] = NULL;
	}
	k->fn = fn;
	if (fn == NCG_NONE)
		return;
	id[0] = p->funcs[fn].name, id[1] = p->funcs[fn].file, id[2] = p->funcs[fn].object;
	for (int i = 0; i < 3; i++)
		if (id[i] != NCG_NONE) {
			struct span sp = names_get(&p->names, id[i]);

			k->part[i] = xmalloc(sp.len + 1);
			memcpy(k->part[i], sp.ptr, sp.len);
			k->part[i][sp.len] = '\0';
		}
}

void ui_forget_names(struct ui *u)
{
	remember(u, &u->seen_table, NCG_NONE);
	remember(u, &u->seen_subject, NCG_NONE);
}

/* The function of `to` with the name, file and object remembered in k, or NCG_NONE. */
static uint32_t same_function(const struct fn_name *k, const struct profile *to)
{
	uint32_t id[3];

	if (k->fn == NCG_NONE)
		return NCG_NONE;
	for (int i = 0; i < 3; i++) {
		id[i] = k->part[i]
			    ? names_find(&to->names, span_make(k->part[i], strlen(k->part[i])))
			    : NCG_NONE;
		if (k->part[i] && id[i] == NCG_NONE)
			return NCG_NONE;
	}
	return profile_find_function(to, id[2], id[1], id[0]);
}

/* The function under the first screen's cursor. */
static uint32_t first_selected(struct ui *u)
{
	struct screen *first = &u->hist.screens[0];

	return screen_ops_of(first)->selected(u, first);
}

/* The parts that counted count in the profile read again (next), if it has as many. */
static void keep_parts(const struct ui *u, struct session *next)
{
	const struct profile *p = &u->ses.prof;

	if (p->part_sel && next->prof.nparts == p->nparts)
		session_select_parts(next, p->part_sel, u->jobs, NULL);
}

/*
 * reload (R): the same file again, after it changed on disk (a profile
 * still being written, or cut). The event, the table's function and the
 * current screen stay where they still exist in the new version.
 */
void cmd_reload(struct ui *u, const char *cmd, const char *arg)
{
	struct screen *s = hist_current(&u->hist);
	const struct screen_ops *ops = screen_ops_of(s);
	uint32_t table_fn = first_selected(u), subject = NCG_NONE, ev;
	unsigned mode = 0;
	struct session next;
	struct ui_files f;

	(void)cmd, (void)arg;
	for (size_t i = 0; i < u->files.n; i++)
		if (!strcmp(u->files.v[i], "-")) {
			ui_message(u, true, "standard input cannot be read again");
			return;
		}
	if (ops->subject)
		subject = ops->subject(u, s, &mode);
	if (!profile_changed(&u->ses.prof)) { /* else: as they were before the change */
		remember(u, &u->seen_table, table_fn);
		remember(u, &u->seen_subject, subject);
	}
	if (load_session(u, u->files.v, u->files.n, &next, &f) < 0) {
		char why[sizeof(u->vs.message)];

		snprintf(why, sizeof(why), "%s", u->vs.message);
		ui_message(u, true, "not reloaded: %s", why);
		return;
	}
	keep_parts(u, &next);
	table_fn =
	    u->seen_table.fn == table_fn ? same_function(&u->seen_table, &next.prof) : NCG_NONE;
	subject =
	    u->seen_subject.fn == subject ? same_function(&u->seen_subject, &next.prof) : NCG_NONE;
	ev = profile_find_event(&next.prof, u->ses.prof.events[u->disp.event].name);
	install_session(u, &next, &f);
	u->disp.event = ev != NCG_NONE ? ev : 0;
	ui_views_init(u);
	ui_apply_filters(u);
	ui_select_first(u, table_fn);
	if (ops->reopen) /* nothing opens where the function is gone */
		ops->reopen(u, subject, mode);
	if (!u->vs.message[0])
		ui_message(u, false, "reloaded %s: %zu function%s", u->vs.path, u->ses.prof.nfuncs,
			   u->ses.prof.nfuncs == 1 ? "" : "s");
}

/*
 * The profile's file changed on disk or was cut under the mapping: say so
 * whenever no other message is up, until R reads it again (the names stay,
 * profile_keep_names(); what is read lazily may not). While it has not, the
 * functions shown are remembered for R.
 */
void ui_check_changed(struct ui *u)
{
	struct screen *s = hist_current(&u->hist);
	unsigned mode;

	if (!profile_outdated(&u->ses.prof)) {
		remember(u, &u->seen_table, first_selected(u));
		remember(u, &u->seen_subject,
			 screen_ops_of(s)->subject ? screen_ops_of(s)->subject(u, s, &mode)
						   : NCG_NONE);
		return;
	}
	if (!u->vs.message[0])
		ui_message(u, true, "%s %s while open: R reloads it", u->vs.path,
			   profile_changed(&u->ses.prof) ? "was cut" : "changed on disk");
}

/* A command line, from a script, --command or the prompt. */
void ui_command(struct ui *u, const char *line)
{
	char *copy = xstrdup(line);

	ui_run_command(u, copy);
	free(copy);
}

void cmd_top(struct ui *u, const char *cmd, const char *arg)
{
	struct screen *s = hist_current(&u->hist);
	double num;

	if (number_arg(u, cmd, arg, 1e9, &num) < 0)
		return;
	if (!screen_ops_of(s)->top || !screen_ops_of(s)->top(u, s, (size_t)num))
		ui_message(u, true, "top N is for the function table");
}

void cmd_help(struct ui *u, const char *cmd, const char *arg)
{
	(void)cmd, (void)arg;
	ui_open_help(u);
}

void cmd_quit(struct ui *u, const char *cmd, const char *arg)
{
	(void)cmd, (void)arg;
	u->quit = true;
}

void cmd_save_screen(struct ui *u, const char *cmd, const char *arg)
{
	(void)cmd;
	if (*arg)
		ui_save_screen(u, arg);
	else
		ui_message(u, true, "usage: :save-screen PATH");
}

void cmd_resize(struct ui *u, const char *cmd, const char *arg)
{
	int rows, cols;

	(void)cmd;
	if (ui_parse_size(arg, &cols, &rows) == 0) {
		ui_resize(u, rows, cols);
	} else {
		ui_message(u, true, "bad size '%s' for :resize (COLSxROWS, e.g. 80x24)", arg);
	}
}

/* Each command's handler, from the command table. */
static void (*const handlers[])(struct ui *u, const char *cmd, const char *arg) = {
#define C(id, name, handler, ...) [CMD_##id] = handler,
    COMMAND_LIST(C)
#undef C
};

void ui_run_command(struct ui *u, char *cmd)
{
	enum command c;
	char *arg;

	cmd += strspn(cmd, " \t:");
	arg = cmd + strcspn(cmd, " \t");
	if (*arg)
		*arg++ = '\0';
	arg += strspn(arg, " \t");
	arg[strcspn(arg, "\n")] = '\0';
	if (!*cmd)
		return;
	c = command_find(cmd, strlen(cmd));
	if (c == CMD_NONE)
		ui_message(u, true, "unknown command '%s' (help shows the commands)", cmd);
	else
		handlers[c](u, cmd, arg);
}

/*
 * Completion keeps the longest common prefix of the candidates that start
 * with the word, and a list of the first ones for the hint line. A function
 * name is a candidate in its escaped form (regex_escape), so that what Tab
 * inserts is a regular expression that matches the name itself.
 */
struct completion {
	const char *word;
	size_t wlen, n;
	char lcp[1024];
	size_t lcp_len, max_len;
	char *hint;
	size_t hint_size, hint_len;
};

/* s (len bytes) is a candidate if it starts with the word; raw is how the hint shows it. */
static void candidate_as(struct completion *c, const char *s, size_t len, const char *raw,
			 size_t raw_len)
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
	c->max_len = len > c->max_len ? len : c->max_len;
	if (c->hint_len + raw_len + 3 < c->hint_size && c->n <= 20)
		c->hint_len += (size_t)snprintf(c->hint + c->hint_len, c->hint_size - c->hint_len,
						"%s%.*s", c->n > 1 ? "  " : "", (int)raw_len, raw);
}

static void candidate(struct completion *c, const char *s, size_t len)
{
	candidate_as(c, s, len, s, len);
}

/*
 * name with a backslash before each character that POSIX extended regular
 * expressions treat as special: "f(int*)" becomes "f\(int\*\)". Stops short
 * rather than cut an escape in two; returns the length written.
 */
static size_t regex_escape(char *out, size_t size, const char *name, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		bool special = strchr("\\.[](){}*+?|^$", name[i]) != NULL && name[i];

		if (o + (special ? 2 : 1) >= size)
			break;
		if (special)
			out[o++] = '\\';
		out[o++] = name[i];
	}
	out[o] = '\0';
	return o;
}

static void candidate_regex(struct completion *c, struct span name)
{
	char esc[2048];
	size_t n = regex_escape(esc, sizeof(esc), name.ptr, name.len);

	candidate_as(c, esc, n, name.ptr, name.len);
}

enum name_kind { NAMES_FUNCTIONS, NAMES_FILES, NAMES_OBJECTS };

/* The names of the functions of the profile, or of their files or objects. */
static void complete_names(struct ui *u, struct completion *c, enum name_kind kind)
{
	const struct profile *p = &u->ses.prof;

	for (uint32_t f = 0; f < p->nfuncs; f++) {
		const struct function *fn = &p->funcs[f];
		uint32_t id = kind == NAMES_FILES     ? fn->file
			      : kind == NAMES_OBJECTS ? fn->object
						      : fn->name;

		if (!profile_function_used(p, f) || id == NCG_NONE)
			continue;
		/* files and objects repeat from function to function: once each */
		if (kind != NAMES_FUNCTIONS && f > 0 &&
		    (kind == NAMES_FILES ? p->funcs[f - 1].file : p->funcs[f - 1].object) == id)
			continue;
		candidate_regex(c, profile_name(p, id));
	}
}

/* set NAME VALUE: the names of the settings, then the words a setting's value takes. */
static void complete_set(struct completion *c, const char *arg)
{
	size_t name_len = strcspn(arg, " ");
	char word[64];

	if (!arg[name_len]) {
		for (int s = SET_NONE + 1; s < SET_COUNT; s++)
			candidate(c, setting_info((enum setting)s)->name,
				  strlen(setting_info((enum setting)s)->name));
		return;
	}
	for (size_t i = 0; setting_value_word(setting_find(arg, name_len), i, word, sizeof(word));
	     i++)
		candidate(c, word, strlen(word));
}

/* A word is the text after the last blank, or (a regular expression) the whole argument. */
static void completion_start(struct completion *c, const char *word)
{
	c->word = word;
	c->wlen = strlen(word);
}

/* What Tab inserts: the rest of the common prefix; a blank after a unique keyword. */
static size_t completion_finish(struct completion *c, char *insert, size_t insert_size,
				bool blank_after)
{
	bool unique = c->n == 1 || (c->n > 1 && c->max_len == c->lcp_len);

	if (c->n > 20 && c->hint_len < c->hint_size)
		snprintf(c->hint + c->hint_len, c->hint_size - c->hint_len, "  ... (%zu in all)",
			 c->n);
	if (c->n && c->lcp_len >= c->wlen)
		snprintf(insert, insert_size, "%.*s%s", (int)(c->lcp_len - c->wlen),
			 c->lcp + c->wlen, unique && blank_after ? " " : "");
	if (unique)
		c->hint[0] = '\0';
	return c->n;
}

/* The argument of filter, focus, ignore, hide, goto: a name as a regular expression. */
static void complete_regex_arg(struct ui *u, struct completion *c, const char *cmd, size_t cmd_len,
			       const char *arg)
{
	enum name_kind kind = NAMES_FUNCTIONS;

	if (cmd_len == 6 && !strncmp(cmd, "filter", 6)) {
		if (!strncmp(arg, "file:", 5))
			kind = NAMES_FILES, arg += 5;
		else if (!strncmp(arg, "object:", 7))
			kind = NAMES_OBJECTS, arg += 7;
	}
	/* "^name": complete the name, keep the anchor */
	completion_start(c, arg + (*arg == '^'));
	complete_names(u, c, kind);
}

size_t ui_complete(void *ctx, const char *line, char *insert, size_t insert_size, char *hint,
		   size_t hint_size)
{
	struct ui *u = ctx;
	struct completion c = {.hint = hint, .hint_size = hint_size};
	size_t cmd_len = strcspn(line, " ");
	const char *arg = line + cmd_len + strspn(line + cmd_len, " ");
	const char *last = strrchr(line, ' ') ? strrchr(line, ' ') + 1 : line;
	bool keyword = true;

	hint[0] = insert[0] = '\0';
	completion_start(&c, last);
	if (!line[cmd_len]) {
		/* the commands a person types (not the scripts' save-screen and resize) */
		for (int i = CMD_NONE + 1; i < CMD_COUNT; i++)
			if (i != CMD_SAVE_SCREEN && i != CMD_RESIZE)
				candidate(&c, command_info((enum command)i)->name,
					  strlen(command_info((enum command)i)->name));
		return completion_finish(&c, insert, insert_size, keyword);
	}
	switch (command_info(command_find(line, cmd_len))->arg) {
	case CARG_EVENT:
		for (uint32_t e = 0; e < u->ses.prof.nev; e++)
			candidate(&c, u->ses.prof.events[e].name.ptr,
				  u->ses.prof.events[e].name.len);
		break;
	case CARG_SORT:
		for (int i = 0; i < SORT_COUNT; i++)
			candidate(&c, report_sort_name((enum report_sort)i),
				  strlen(report_sort_name((enum report_sort)i)));
		break;
	case CARG_SET:
		complete_set(&c, arg);
		break;
	case CARG_REGEX:
		complete_regex_arg(u, &c, line, cmd_len, arg);
		keyword = false; /* a blank would become part of the expression */
		break;
	default:
		break;
	}
	return completion_finish(&c, insert, insert_size, keyword);
}

/* The search line is one regular expression: complete function names. */
size_t ui_complete_search(void *ctx, const char *line, char *insert, size_t insert_size, char *hint,
			  size_t hint_size)
{
	struct ui *u = ctx;
	struct completion c = {.hint = hint, .hint_size = hint_size};

	hint[0] = insert[0] = '\0';
	completion_start(&c, line + (*line == '^'));
	complete_names(u, &c, NAMES_FUNCTIONS);
	return completion_finish(&c, insert, insert_size, false);
}
