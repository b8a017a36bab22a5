/*
 * ui_config: the configuration file (tig's tigrc in spirit; core/config.c
 * reads its lines): `set NAME VALUE` for every setting of SETTING_LIST,
 * `bind SCOPE KEY REQUEST` on the keymaps --list-keys prints, and
 * `color AREA FG BG [ATTR...]` for the areas of ATTR_LIST.
 *
 * It is read before the terminal starts, so that a wrong line is told on
 * standard error (PATH:LINE: WHY) where the user sees it, and skipped.
 * bind and color take effect at once; set waits for the profile (columns
 * names its events), then applies as :set does, before --command.
 * :write-config writes what holds now in the same language.
 */
#define _POSIX_C_SOURCE 200809L
#include "ui_internal.h"
#include "ncgrind/core/config.h"
#include "ncgrind/core/escape.h"
#include "ncgrind/core/settings.h"
#include "ncgrind/ui/term.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A `set` line waiting for the profile. */
struct config_set {
	enum setting s;
	char *value;
	char *where; /* "PATH:LINE" */
};

/* What the file asked for that outlives its reading. */
struct ui_config {
	struct config_set *sets;
	size_t nsets;
	/* the binds, in order, for :write-config */
	struct config_bind {
		const char *scope;
		int key;
		enum request req;
	} * binds;
	size_t nbinds;
	/* the wrong lines told on stderr: the first is said again on the status line */
	unsigned nwrong;
	char first_wrong[400];
};

/* area names, from the list */
static const char *const area_names[] = {
#define A(id, name, what) [ATTR_##id] = name,
    ATTR_LIST(A)
#undef A
};

static int area_find(const char *name)
{
	for (int a = 0; a < ATTR_AREAS; a++)
		if (!strcmp(area_names[a], name))
			return a;
	return -1;
}

static void area_list(char *buf, size_t size)
{
	size_t len = 0;

	for (int a = 0; a < ATTR_AREAS && len < size; a++)
		len +=
		    (size_t)snprintf(buf + len, size - len, "%s%s", a ? ", " : "", area_names[a]);
}

/* The words from argv[from] on, one blank between each. */
static char *join_words(const struct config_line *l, int from)
{
	size_t n = 1;
	char *out;

	for (int i = from; i < l->argc; i++)
		n += strlen(l->argv[i]) + 1;
	out = xmalloc(n);
	out[0] = '\0';
	for (int i = from; i < l->argc; i++) {
		if (i > from)
			strcat(out, " ");
		strcat(out, l->argv[i]);
	}
	return out;
}

static bool config_set_line(struct ui *u, const struct config_line *l, char *why, size_t size)
{
	struct ui_config *c = u->config;
	enum setting s;
	char *value, usage[600];

	if (l->argc < 3) {
		snprintf(why, size, "usage: set NAME VALUE");
		return false;
	}
	s = setting_find(l->argv[1], strlen(l->argv[1]));
	if (s == SET_NONE) {
		snprintf(why, size, "unknown setting '%s' (%s)", l->argv[1],
			 setting_names(usage, sizeof(usage)));
		return false;
	}
	value = join_words(l, 2);
	if (!setting_check(s, value, why, size)) {
		free(value);
		return false;
	}
	if (s == SET_COLOUR) { /* before the terminal starts: its first screen already */
		bool on = false;

		setting_on_off(value, &on); /* (setting_check took it) */

		if (on) /* a user's configuration wins over NO_COLOR (no-color.org) */
			term_override_no_color();
		term_set_colour(on);
		free(value);
		return true;
	}
	c->sets = xrealloc(c->sets, (c->nsets + 1) * sizeof(c->sets[0]));
	c->sets[c->nsets].s = s;
	c->sets[c->nsets].value = value;
	c->sets[c->nsets].where = xmalloc(strlen(l->path) + 24);
	sprintf(c->sets[c->nsets].where, "%s:%lu", l->path, l->line);
	c->nsets++;
	return true;
}

static bool config_bind_line(struct ui *u, const struct config_line *l, char *why, size_t size)
{
	struct ui_config *c = u->config;
	struct keymap *m;
	char scopes[400];
	int key, req;

	if (l->argc != 4) {
		snprintf(why, size, "usage: bind SCOPE KEY REQUEST (REQUEST none: unbind)");
		return false;
	}
	if (!(m = ui_keymap_find(l->argv[1]))) {
		snprintf(why, size, "unknown scope '%s' (%s)", l->argv[1],
			 ui_keymap_names(scopes, sizeof(scopes)));
		return false;
	}
	if ((key = keys_parse(l->argv[2])) < 0) {
		snprintf(why, size, "unknown key '%s' (x, X, C-x, F5, Enter, Tab, Space, Esc, ...)",
			 l->argv[2]);
		return false;
	}
	if ((req = keys_request_parse(l->argv[3])) < 0) {
		snprintf(why, size, "unknown request '%s' (ncgrind --list-keys lists them)",
			 l->argv[3]);
		return false;
	}
	keys_bind(m, key, (enum request)req);
	c->binds = xrealloc(c->binds, (c->nbinds + 1) * sizeof(c->binds[0]));
	c->binds[c->nbinds++] = (struct config_bind){m->name, key, (enum request)req};
	return true;
}

static bool config_color_line(const struct config_line *l, char *why, size_t size)
{
	char areas[400];
	int area, fg, bg;
	unsigned attrs = 0;

	if (l->argc < 4) {
		snprintf(why, size, "usage: color AREA FG BG [ATTR...]");
		return false;
	}
	if ((area = area_find(l->argv[1])) < 0) {
		area_list(areas, sizeof(areas));
		snprintf(why, size, "unknown area '%s' (%s)", l->argv[1], areas);
		return false;
	}
	for (int i = 2; i < 4; i++)
		if (!config_colour(l->argv[i], i == 2 ? &fg : &bg)) {
			snprintf(why, size, "unknown colour '%s' (%s)", l->argv[i],
				 config_colour_words());
			return false;
		}
	for (int i = 4; i < l->argc; i++)
		if (!config_attr(l->argv[i], &attrs)) {
			snprintf(why, size, "unknown attribute '%s' (%s)", l->argv[i],
				 config_attr_words());
			return false;
		}
	term_set_area((enum grid_attr)area, fg, bg, attrs);
	return true;
}

static bool config_line(void *ctx, const struct config_line *l, char *why, size_t size)
{
	const char *cmd = l->argv[0];

	if (!strcmp(cmd, "set"))
		return config_set_line(ctx, l, why, size);
	if (!strcmp(cmd, "bind"))
		return config_bind_line(ctx, l, why, size);
	if (!strcmp(cmd, "color") || !strcmp(cmd, "colour"))
		return config_color_line(l, why, size);
	snprintf(why, size, "unknown command '%s' (set, bind, color, source)", cmd);
	return false;
}

static void config_error(void *ctx, const char *message)
{
	struct ui *u = ctx;

	escape_message(stderr, "%s", message);
	if (!u->config->nwrong++)
		snprintf(u->config->first_wrong, sizeof(u->config->first_wrong), "%s", message);
}

int ui_config_read(struct ui *u, const char *path)
{
	struct config_reader r = {.line = config_line, .error = config_error, .ctx = u};
	char *def = path ? NULL : config_default_path(), why[300];
	int ret = 0;

	u->config = xcalloc(1, sizeof(*u->config));
	if (path && config_read(&r, path, why, sizeof(why)) < 0) {
		escape_message(stderr, "ncgrind: cannot read the configuration %s: %s", path, why);
		ret = -1;
	} else if (def && config_read(&r, def, why, sizeof(why)) < 0 &&
		   strcmp(why, strerror(ENOENT))) {
		/* none at all is the usual case; one that cannot be read is told */
		escape_message(stderr, "ncgrind: cannot read the configuration %s: %s", def, why);
	}
	free(def);
	return ret;
}

/*
 * set columns from a configuration: the events of the list this profile
 * has (a file for every profile names events some do not record).
 */
static char *columns_here(const struct ui *u, const char *list)
{
	char *out = xmalloc(strlen(list) + 1), *copy = xstrdup(list), *save = NULL;
	size_t len = 0;

	out[0] = '\0';
	for (char *w = strtok_r(copy, ", ", &save); w; w = strtok_r(NULL, ", ", &save))
		if (profile_find_event(&u->ses.prof, span_make(w, strlen(w))) != NCG_NONE)
			len += (size_t)sprintf(out + len, "%s%s", len ? "," : "", w);
	free(copy);
	return out;
}

void ui_config_apply(struct ui *u, const bool given[SET_COUNT])
{
	struct ui_config *c = u->config;
	char before[sizeof(u->vs.message)], first[sizeof(u->vs.message) + 300] = "";
	bool before_error = u->vs.message_is_error;

	memcpy(before, u->vs.message, sizeof(before)); /* what reading the profile said */
	for (size_t i = 0; c && i < c->nsets; i++) {
		const struct config_set *cs = &c->sets[i];
		char *value = cs->s == SET_COLUMNS && strcmp(cs->value, "none")
				  ? columns_here(u, cs->value)
				  : xstrdup(cs->value);

		u->vs.message[0] = '\0';
		u->vs.message_is_error = false;
		if (!given[cs->s] && (*value || cs->s != SET_COLUMNS))
			ui_setting_apply(u, cs->s, value);
		if (u->vs.message_is_error && !first[0])
			snprintf(first, sizeof(first), "%.*s: %s", 200, cs->where, u->vs.message);
		free(value);
	}
	/* what applying said is the file's business, but what went wrong */
	memcpy(u->vs.message, before, sizeof(before));
	u->vs.message_is_error = before_error;
	if (first[0] && !before_error)
		ui_message(u, true, "%s", first);
	else if (c && c->nwrong && !before_error) /* stderr is behind the screen until q */
		ui_message(u, true, "%s%s", c->first_wrong,
			   c->nwrong > 1 ? " (and more wrong lines: on stderr)" : "");
}

void ui_config_release(struct ui *u)
{
	struct ui_config *c = u->config;

	if (!c)
		return;
	for (size_t i = 0; i < c->nsets; i++) {
		free(c->sets[i].value);
		free(c->sets[i].where);
	}
	free(c->sets);
	free(c->binds);
	free(c);
	u->config = NULL;
}

/* ---- :write-config ----------------------------------------------------- */

/* A word as the reader takes it back: quoted where it has blanks, quotes or '#'. */
static void put_word(FILE *f, const char *w)
{
	if (*w && !strpbrk(w, " \t\"'#\\")) {
		fputs(w, f);
		return;
	}
	fputc('"', f);
	for (; *w; w++) {
		if (*w == '"' || *w == '\\')
			fputc('\\', f);
		fputc(*w, f);
	}
	fputc('"', f);
}

static void write_sets(const struct ui *u, FILE *f)
{
	char values[4096];

	for (int s = SET_NONE + 1; s < SET_COUNT; s++) {
		ui_setting_value(u, (enum setting)s, values, sizeof(values));
		for (char *v = values, *nl; *v; v = nl + 1) {
			if (!(nl = strchr(v, '\n')))
				break;
			*nl = '\0';
			fprintf(f, "set %s ", setting_info((enum setting)s)->name);
			put_word(f, v);
			fputc('\n', f);
		}
	}
}

static void write_binds(const struct ui *u, FILE *f)
{
	const struct ui_config *c = u->config;

	for (size_t i = 0; c && i < c->nbinds; i++) {
		char kb[16], rb[48];
		const char *k = keys_name(c->binds[i].key, kb, sizeof(kb));

		fprintf(f, "bind %s ", c->binds[i].scope);
		put_word(f, k);
		fprintf(f, " %s\n",
			c->binds[i].req == REQ_NONE
			    ? "none"
			    : keys_request_name(c->binds[i].req, rb, sizeof(rb)));
	}
}

static void write_colours(FILE *f)
{
	for (int a = 0; a < ATTR_AREAS; a++) {
		char fg[16], bg[16], at[128];
		int cf, cb;
		unsigned bits;

		if (!term_area((enum grid_attr)a, &cf, &cb, &bits))
			continue;
		config_colour_name(cf, fg, sizeof(fg));
		config_colour_name(cb, bg, sizeof(bg));
		config_attr_names(bits, at, sizeof(at));
		fprintf(f, "color %s %s %s%s%s\n", area_names[a], fg, bg, at[0] ? " " : "", at);
	}
}

/* write-config FILE: the settings, the binds and the colours as a configuration file. */
void cmd_write_config(struct ui *u, const char *cmd, const char *path)
{
	FILE *f;

	(void)cmd;
	if (!*path) {
		ui_message(u, true, "usage: write-config FILE");
		return;
	}
	f = fopen(path, "w");
	if (f) {
		fputs("# ncgrind configuration (man ncgrind, CONFIGURATION), written by "
		      ":write-config\n",
		      f);
		write_sets(u, f);
		write_binds(u, f);
		write_colours(f);
	}
	if (ui_close_written(u, f, path) == 0)
		ui_message(u, false, "wrote %s: source it from ~/.config/ncgrind/config", path);
}
