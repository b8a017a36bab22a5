/*
 * ui_settings: what each setting of SETTING_LIST (core/settings.h) does in
 * the browser: `:set NAME VALUE`, the keys that toggle one (U, %, @, M), and
 * the commands that are a setting by another name (:threshold, :include,
 * :substitute-path) all come here. Cycle detection and demangling are read
 * from the display alone, and given to every profile the browser holds by
 * ui_profile_settings().
 */
#define _POSIX_C_SOURCE 200809L
#include "ui_internal.h"
#include "ncgrind/core/settings.h"
#include "ncgrind/core/cache.h"
#include "ncgrind/model/source.h"
#include "ncgrind/ui/term.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ui_profile_settings(const struct ui *u, struct profile *p)
{
	profile_set_cycles(p, u->disp.cycles);
	p->raw_names = !u->disp.demangle;
}

void ui_set_cycles(struct ui *u, bool on)
{
	u->disp.cycles = on;
	ui_profile_settings(u, &u->ses.prof);
	if (u->base) /* both sides of a diff alike */
		ui_profile_settings(u, &u->base->prof);
	/* the table sorts again (inclusive costs changed), the trees are built again */
	ui_refresh_all(u);
	ui_message(u, false,
		   on ? "cycle detection on: a cycle is one node, <cycle N>"
		      : "cycle detection off: calls are followed one by one, recursion "
			"marked @");
}

void ui_set_demangle(struct ui *u, bool on)
{
	u->disp.demangle = on;
	ui_profile_settings(u, &u->ses.prof);
	if (u->base)
		ui_profile_settings(u, &u->base->prof);
	ui_apply_filters(u);             /* a regex may match one form and not the other */
	if (u->diff && u->ses.filters.n) /* a diff's rows too */
		ui_diff_rematch(u);
	ui_refresh_all(u);
	ui_message(u, false,
		   on ? "names demangled (C++, Rust)"
		      : "names as the profile writes them (mangled)");
}

/* A setting's value is not one it takes: its usage. */
static void bad_value(struct ui *u, enum setting s)
{
	ui_message(u, true, "usage: set %s %s", setting_info(s)->name, setting_info(s)->values);
}

static void set_units(struct ui *u, const char *value)
{
	if (strcmp(value, "exact") && strcmp(value, "short"))
		bad_value(u, SET_UNITS);
	else
		u->disp.short_units = !strcmp(value, "short");
}

static void set_percent(struct ui *u, const char *value)
{
	if (!setting_on_off(value, &u->disp.show_percent))
		bad_value(u, SET_PERCENT);
}

static void set_colour(struct ui *u, const char *value)
{
	bool b;

	if (!setting_on_off(value, &b)) {
		bad_value(u, SET_COLOUR);
		return;
	}
	/* asked for by name: it wins over NO_COLOR, as no-color.org asks of a user's setting */
	if (b)
		term_override_no_color();
	term_set_colour(b);
}

/*
 * The terminal reports clicks and the wheel (term.c); off, as tig and less
 * start, a drag selects text. With it on, xterm, tmux and most terminals
 * still select with Shift held.
 */
static void set_mouse(struct ui *u, const char *value)
{
	bool b;

	if (!setting_on_off(value, &b)) {
		bad_value(u, SET_MOUSE);
	} else if (!term_set_mouse(b)) {
		ui_message(u, true, "the terminal '%s' reports no mouse",
			   getenv("TERM") ? getenv("TERM") : "");
	} else {
		ui_message(
		    u, false,
		    b ? "mouse on: click, double click (Enter), wheel; Shift+drag selects text"
		      : "mouse off: a drag selects text");
	}
}

static void set_cycles(struct ui *u, const char *value)
{
	bool b;

	if (!setting_on_off(value, &b))
		bad_value(u, SET_CYCLES);
	else
		ui_set_cycles(u, b);
}

static void set_demangle(struct ui *u, const char *value)
{
	bool b;

	if (!setting_on_off(value, &b))
		bad_value(u, SET_DEMANGLE);
	else
		ui_set_demangle(u, b);
}

/*
 * The events of :set columns that the screen in front (or else the table)
 * has no room for at its width (the last ones give way first), as a list
 * into buf; how many.
 */
static uint32_t columns_dropped(struct ui *u, char *buf, size_t size)
{
	struct screen *s = hist_current(&u->hist);
	int shown, k = 0;
	uint32_t n = 0;
	size_t len = 0;

	if (!screen_ops_of(s)->columns_shown)
		s = &u->hist.screens[0];
	shown = screen_ops_of(s)->columns_shown ? screen_ops_of(s)->columns_shown(u, s) : -1;
	buf[0] = '\0';
	for (uint32_t i = 0; shown >= 0 && i < u->disp.ncolumns; i++) {
		uint32_t e = u->disp.columns[i];
		struct span name;

		/* the event shown has its columns first; the others in their order */
		if (e == u->disp.event || e >= u->ses.prof.nev || k++ < shown)
			continue;
		name = u->ses.prof.events[e].name;
		if (len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%.*s", n ? ", " : "",
						(int)name.len, name.ptr);
		n++;
	}
	return n;
}

/*
 * set columns LIST: those events side by side (the current one with its
 * inclusive cost, the others their self costs); the current one becomes
 * the first of the list unless it is in it. none: the current one alone.
 */
static void set_columns(struct ui *u, const char *list)
{
	const struct profile *p = &u->ses.prof;
	uint32_t *evs = xmalloc_array(p->nev ? p->nev : 1, sizeof(uint32_t)), n = 0, out;
	char err[80], dropped[200];
	int k =
	    strcmp(list, "none") && *list ? report_parse_events(p, list, evs, err, sizeof(err)) : 0;
	bool has = false;

	if (k < 0) {
		ui_message(u, true, "unknown event '%s' (Tab shows them in the title)", err);
		free(evs);
		return;
	}
	u->disp.ncolumns = 0;
	for (int i = 0; i < k && u->disp.ncolumns < DISPLAY_MAX_COLUMNS; i++) {
		u->disp.columns[u->disp.ncolumns++] = evs[i];
		has |= evs[i] == u->disp.event;
	}
	n = u->disp.ncolumns;
	if (n && !has)
		u->disp.event = evs[0];
	free(evs);
	ui_refresh_all(u);
	/* a column with no room is not drawn: say which, or it seems to be ignored */
	if ((out = columns_dropped(u, dropped, sizeof(dropped))))
		ui_message(
		    u, false,
		    "no room at %d columns for %s (%% or U make room): %u of %u events shown",
		    u->g.cols, dropped, n - out, n);
	else
		ui_message(u, false,
			   n ? "%u event%s side by side (narrow screens drop the last first)"
			     : "one event: the current one",
			   n, n == 1 ? "" : "s");
}

static void set_threshold(struct ui *u, const char *value)
{
	char *end;
	double v = strtod(value, &end);

	if (end == value || *end || !(v >= 0 && v <= 100)) {
		ui_message(u, true, "threshold needs a number from 0 to 100, not '%s'", value);
		return;
	}
	u->disp.threshold = v;
	ui_refresh_all(u); /* the trees of the history are built again with it */
	ui_message(u, false, "threshold %.3g%%: the call trees fold smaller branches", v);
}

/*
 * :substitute-path FROM=TO and :include DIR add a way to find sources at run
 * time; an open source screen looks again.
 */
static void source_path(struct ui *u, enum setting s, const char *value)
{
	if (!*value || (s == SET_INCLUDE ? (source_paths_add_dir(u->sources, value), 0)
					 : source_paths_add_rule(u->sources, value)) < 0) {
		bad_value(u, s);
		return;
	}
	ui_sources_changed(u);
	ui_message(u, false, "source paths: %s %s", setting_info(s)->name, value);
}

static void set_include(struct ui *u, const char *value)
{
	source_path(u, SET_INCLUDE, value);
}

static void set_substitute_path(struct ui *u, const char *value)
{
	source_path(u, SET_SUBSTITUTE_PATH, value);
}

/*
 * What each setting is now, for :write-config: one value a line into buf
 * (include and substitute-path: one a directory or rule, in their order).
 */
static void put_value(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void put_value(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

static void get_units(const struct ui *u, char *buf, size_t size)
{
	put_value(buf, size, "%s\n", u->disp.short_units ? "short" : "exact");
}

static void get_percent(const struct ui *u, char *buf, size_t size)
{
	put_value(buf, size, "%s\n", u->disp.show_percent ? "on" : "off");
}

static void get_colour(const struct ui *u, char *buf, size_t size)
{
	(void)u;
	put_value(buf, size, "%s\n", term_colour_wanted() ? "on" : "off");
}

static void get_mouse(const struct ui *u, char *buf, size_t size)
{
	(void)u;
	put_value(buf, size, "%s\n", term_mouse_wanted() ? "on" : "off");
}

static void get_cycles(const struct ui *u, char *buf, size_t size)
{
	put_value(buf, size, "%s\n", u->disp.cycles ? "on" : "off");
}

static void get_demangle(const struct ui *u, char *buf, size_t size)
{
	put_value(buf, size, "%s\n", u->disp.demangle ? "on" : "off");
}

static void get_columns(const struct ui *u, char *buf, size_t size)
{
	const struct profile *p = &u->ses.prof;

	if (!u->disp.ncolumns)
		put_value(buf, size, "none");
	for (uint32_t i = 0; i < u->disp.ncolumns; i++) {
		struct span n = u->disp.columns[i] < p->nev ? p->events[u->disp.columns[i]].name
							    : span_make("", 0);

		put_value(buf, size, "%s%.*s", i ? "," : "", (int)n.len, n.ptr);
	}
	put_value(buf, size, "\n");
}

/* The cache serves the next open: nothing on the screen changes. */
static void set_cache(struct ui *u, const char *value)
{
	bool b;

	if (!setting_on_off(value, &b)) {
		bad_value(u, SET_CACHE);
		return;
	}
	cache_set_enabled(b);
	ui_message(u, false, "%s",
		   cache_enabled() ? "cache on: big profiles open again at once"
		   : b             ? "cache off: --no-cache was given"
				   : "cache off: every open reads the profile");
}

static void set_cache_size(struct ui *u, const char *value)
{
	uint64_t v;

	if (!cache_parse_size(value, &v)) {
		ui_message(u, true, "cache-size needs a size (1G, 500M, 0), not '%s'", value);
		return;
	}
	cache_set_size(v);
	ui_message(u, false, "cache-size %s: the oldest kept indexes go first", value);
}

static void get_cache(const struct ui *u, char *buf, size_t size)
{
	(void)u;
	put_value(buf, size, "%s\n", cache_enabled() ? "on" : "off");
}

static void get_cache_size(const struct ui *u, char *buf, size_t size)
{
	uint64_t v = cache_size();
	const char *unit = "";

	(void)u;
	if (v && !(v & ((1ull << 30) - 1))) {
		v >>= 30;
		unit = "G";
	} else if (v && !(v & ((1ull << 20) - 1))) {
		v >>= 20;
		unit = "M";
	} else if (v && !(v & ((1ull << 10) - 1))) {
		v >>= 10;
		unit = "K";
	}
	put_value(buf, size, "%llu%s\n", (unsigned long long)v, unit);
}

static void get_threshold(const struct ui *u, char *buf, size_t size)
{
	put_value(buf, size, "%g\n", u->disp.threshold);
}

static void get_include(const struct ui *u, char *buf, size_t size)
{
	for (size_t i = 0; i < u->sources->ndirs; i++)
		put_value(buf, size, "%s\n", u->sources->dirs[i]);
}

static void get_substitute_path(const struct ui *u, char *buf, size_t size)
{
	for (size_t i = 0; i < u->sources->nrules; i++)
		put_value(buf, size, "%s=%s\n", u->sources->rules[i].from, u->sources->rules[i].to);
}

/* Each setting's functions, from the list. */
static void (*const appliers[])(struct ui *u, const char *value) = {
#define S(id, name, values, help, batch, set, get) [SET_##id] = set,
    SETTING_LIST(S)
#undef S
};

static void (*const getters[])(const struct ui *u, char *buf, size_t size) = {
#define S(id, name, values, help, batch, set, get) [SET_##id] = get,
    SETTING_LIST(S)
#undef S
};

void ui_setting_apply(struct ui *u, enum setting s, const char *value)
{
	if (s > SET_NONE && s < SET_COUNT)
		appliers[s](u, value);
}

void ui_setting_value(const struct ui *u, enum setting s, char *buf, size_t size)
{
	if (size)
		buf[0] = '\0';
	if (s > SET_NONE && s < SET_COUNT)
		getters[s](u, buf, size);
}

/* set NAME VALUE */
void cmd_set(struct ui *u, const char *cmd, const char *arg)
{
	size_t len = strcspn(arg, " \t");
	enum setting s = setting_find(arg, len);
	const char *value = arg + len + strspn(arg + len, " \t");
	char usage[600];

	(void)cmd;
	if (s == SET_NONE) {
		ui_message(u, true, "usage: %s", setting_usage(usage, sizeof(usage), false));
		return;
	}
	ui_setting_apply(u, s, value);
}

/* :threshold, :include, :substitute-path: the setting of the same name. */
void cmd_setting(struct ui *u, const char *cmd, const char *arg)
{
	ui_setting_apply(u, setting_find(cmd, strlen(cmd)), arg);
}
