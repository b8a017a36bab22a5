/*
 * ui_commands: the command language of the browser, whichever way a command
 * comes (a script's ":..." line, --command, the prompt): filters, sorting,
 * events, thresholds, goto, top, set, open, write; and the prompt's Tab
 * completion of command names, events and function names.
 */
#define _POSIX_C_SOURCE 200809L
#include "ui_internal.h"
#include "ncgrind/source.h"
#include "ncgrind/term.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The filters again: the table, and the tree on the screen. */
static void apply_filters(struct ui *u)
{
	struct screen *s = hist_current(&u->hist);
	bool narrowed = filters_apply(&u->filters, &u->prof, &u->graph, u->keep);

	u->t.keep = narrowed ? u->keep : NULL;
	table_refresh(&u->t);
	nav_scroll(&u->t.nav, ui_page(u));
	filters_describe(&u->filters, u->vs.filters, sizeof(u->vs.filters));
	if (s->kind == SCREEN_TREE)
		ui_rebuild_tree(u, s);
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

void ui_undo_filter(struct ui *u)
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
		ui_rebuild_tree(u, s);
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
	if (table_search(&u->t, arg, err, sizeof(err), ui_page(u)) < 0)
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
	next.vs.path = next.path; /* the loading screen names it */
	if (ui_load(&next, next.path) < 0) {
		char first[1200];

		diag_format(&next.diag, &next.diag.msgs[0], first, sizeof(first));
		ui_message(u, true, "%s", first);
		diag_release(&next.diag);
		profile_release(&next.prof);
		free(next.path);
		return;
	}
	ui_views_release(u);
	diag_release(&u->diag);
	profile_release(&u->prof);
	free(u->path);
	u->prof = next.prof;
	u->diag = next.diag;
	u->path = next.path;
	u->vs.path = u->path;
	u->status = next.status;
	source_paths_set_profile(u->sources, u->path); /* sources beside the new profile */
	memcpy(u->vs.message, next.vs.message, sizeof(u->vs.message));
	u->vs.message_is_error = next.vs.message_is_error;
	ui_views_init(u);
	apply_filters(u);
	if (!u->vs.message[0])
		ui_message(u, false, "opened %s", path);
}

/* A command line, from a script, --command or the prompt. */
void ui_command(struct ui *u, const char *line)
{
	char *copy = xstrdup(line);

	ui_run_command(u, copy);
	free(copy);
}

void ui_run_command(struct ui *u, char *cmd)
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
				ui_rebuild_tree(u, s);
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
			ui_save_screen(u, arg);
		else
			ui_message(u, true, "usage: :save-screen PATH");
	} else if (!strcmp(cmd, "resize")) {
		if (ui_parse_size(arg, &cols, &rows) == 0) {
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

size_t ui_complete(void *ctx, const char *line, size_t start, char *insert,
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
void ui_command_key(struct ui *u, int key)
{
	const char *line;
	enum prompt_result r = prompt_key(u->prompt, key, &line);

	if (r == PROMPT_CANCEL) {
		u->vs.prompting = false;
	} else if (r == PROMPT_DONE) {
		char *copy = xstrdup(line);

		u->vs.prompting = false;
		ui_run_command(u, copy);
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
