/*
 * screen_help: the keys of the screen it was opened from (its own keymap),
 * then the keys every screen shares that it does not bind otherwise, then
 * the commands of the prompt and the settings. A list screen like the others: it pages,
 * searches and writes; long lines wrap at the screen's width (the lines are
 * laid out again when the width changes).
 */
#include "ui_internal.h"

#include <stdlib.h>

#define KEYS_COL 24     /* where the help text of a key starts */
#define COMMANDS_COL 33 /* of a command */

struct help_line {
	char *text;
	enum grid_attr attr;
};

struct help_screen {
	const struct keymap *own; /* the keymap of the screen below, or NULL */
	struct help_line *lines;
	size_t n, alloc;
	int width; /* the lines are wrapped at this width */
	struct nav nav;
};

static const struct screen_ops screen_help_ops; /* at the end */

static struct help_screen *state_of(struct screen *s)
{
	return s->state;
}

static void add_line(struct help_screen *h, const char *text, size_t len, enum grid_attr a)
{
	if (h->n == h->alloc) {
		h->alloc = h->alloc ? 2 * h->alloc : 64;
		h->lines = xrealloc(h->lines, st_mult(h->alloc, sizeof(*h->lines)));
	}
	h->lines[h->n].text = xmalloc(len + 1);
	memcpy(h->lines[h->n].text, text, len);
	h->lines[h->n].text[len] = '\0';
	h->lines[h->n++].attr = a;
}

/*
 * "lead text", the text wrapped at the width at blanks, the lines after the
 * first indented by indent (a word longer than a line is cut where it must be).
 */
static void add_wrapped(struct help_screen *h, const char *lead, const char *text, int indent,
			enum grid_attr a)
{
	char line[1024];
	int width = h->width > indent + 1 ? h->width : indent + 1;
	size_t o = (size_t)snprintf(line, sizeof(line), "%s", lead);

	if (o + 10 > (size_t)width && *text) { /* the lead takes the line: the text below it */
		while (o && line[o - 1] == ' ')
			o--;
		add_line(h, line, o, a);
		o = (size_t)snprintf(line, sizeof(line), "%*s", indent, "");
	}
	while (*text) {
		size_t room = (size_t)width > o ? (size_t)width - o : 1, len = strlen(text), cut;

		if (len <= room) {
			cut = len;
		} else {
			for (cut = room; cut > 0 && text[cut] != ' '; cut--)
				;
			if (!cut)
				cut = room;
		}
		snprintf(line + o, sizeof(line) - o, "%.*s", (int)cut, text);
		add_line(h, line, strlen(line), a);
		text += cut;
		text += strspn(text, " ");
		o = (size_t)snprintf(line, sizeof(line), "%*s", indent, "");
	}
}

/* "  left   text": the text from column col on (after a blank where left is wider). */
static void add_entry(struct help_screen *h, const char *left, const char *text, int col)
{
	char lead[300];

	if ((int)strlen(left) + 3 > col) { /* wider than its column: the text on the next line */
		snprintf(lead, sizeof(lead), "  %s", left);
		add_wrapped(h, "", lead, 4, ATTR_NORMAL);
		snprintf(lead, sizeof(lead), "%*s", col, "");
	} else {
		snprintf(lead, sizeof(lead), "  %-*s ", col - 3, left);
	}
	add_wrapped(h, lead, text, col, ATTR_NORMAL);
}

/* A column of the help at this width: col, less on a narrow screen (a fraction of it). */
static int column(const struct help_screen *h, int col, int percent)
{
	int most = h->width * percent / 100;

	return col < most ? col : most > 4 ? most : 4;
}

static void add_key(void *ctx, enum request req, const char *keys, const char *help)
{
	(void)req;
	add_entry(ctx, keys, help, column(ctx, KEYS_COL, 40));
}

static void add_heading(struct help_screen *h, const char *fmt, const char *a, const char *b)
{
	char line[300];

	if (h->n)
		add_line(h, "", 0, ATTR_NORMAL);
	snprintf(line, sizeof(line), fmt, a, b);
	add_line(h, line, strlen(line), ATTR_HOT);
}

static void free_lines(struct help_screen *h)
{
	for (size_t i = 0; i < h->n; i++)
		free(h->lines[i].text);
	h->n = 0;
}

/* Every line again, wrapped at width. */
static void layout(struct help_screen *h, int width)
{
	free_lines(h);
	h->width = width;
	if (h->own) {
		add_heading(h, "Keys of %s (%s)", h->own->what, h->own->name);
		keys_each(h->own, NULL, add_key, h);
	}
	add_heading(h, "Keys of %s (%s)", keys_generic.what, keys_generic.name);
	keys_each(&keys_generic, h->own, add_key, h);
	add_heading(h, "%s%s", "Commands (type : first)", "");
	for (int c = CMD_NONE + 1; c < CMD_COUNT; c++) {
		const struct command_info *ci = command_info((enum command)c);
		add_entry(h, ci->usage, ci->help, column(h, COMMANDS_COL, 50));
	}
	add_heading(h, "%s%s", "Settings (:set NAME VALUE)", "");
	for (int i = SET_NONE + 1; i < SET_COUNT; i++) {
		const struct setting_info *si = setting_info((enum setting)i);
		char left[200];

		snprintf(left, sizeof(left), "set %s %s", si->name, si->values);
		add_entry(h, left, si->help, column(h, COMMANDS_COL, 50));
	}
	h->nav.count = h->n;
}

static void help_release(void *state)
{
	struct help_screen *h = state;

	free_lines(h);
	free(h->lines);
	free(h);
}

#define HELP_TOP 1 /* the title above the lines */

static int help_rows(const struct ui *u)
{
	return u->g.rows > 2 ? u->g.rows - 2 : 1; /* the title and the status line */
}

void ui_open_help(struct ui *u)
{
	struct screen *cur = hist_current(&u->hist);
	struct help_screen *h;

	if (screen_ops_of(cur) == &screen_help_ops)
		return; /* help on the help: it is here */
	h = xcalloc(1, sizeof(*h));
	h->own = screen_ops_of(cur)->keymap;
	layout(h, u->g.cols);
	ui_push_screen(u, &screen_help_ops, h, help_release);
}

static struct nav *help_nav(struct ui *u, struct screen *s)
{
	struct help_screen *h = state_of(s);

	if (h->width != u->g.cols) { /* resized: wrapped again, the cursor near its line */
		size_t at = h->n ? h->nav.cursor * 1000 / h->n : 0;

		layout(h, u->g.cols);
		h->nav.cursor = h->n ? at * h->n / 1000 : 0;
		nav_scroll(&h->nav, help_rows(u));
	}
	return &h->nav;
}

static void help_draw(struct ui *u, struct screen *s)
{
	struct help_screen *h = state_of(s);
	struct nav *nav = help_nav(u, s);
	struct grid *g = &u->g;

	grid_clear(g);
	grid_fill(g, 0, 0, ATTR_TITLE);
	grid_puts_cut(g, 0, 0, "ncgrind: help: this screen's keys, every screen's, the commands",
		      ATTR_TITLE);
	for (int i = 0; i < help_rows(u) && nav->top + (size_t)i < h->n; i++) {
		const struct help_line *l = &h->lines[nav->top + (size_t)i];
		enum grid_attr a = nav->top + (size_t)i == nav->cursor ? ATTR_CURSOR : l->attr;

		grid_fill(g, HELP_TOP + i, 0, a);
		grid_put(g, HELP_TOP + i, 0, l->text, strlen(l->text), g->cols, a);
	}
	view_draw_status(g, nav, &u->vs, "q, Esc, ?: close  / search  PgDn, Space, End: move");
}

static bool help_request(struct ui *u, struct screen *s, enum request req)
{
	(void)s;
	switch (req) {
	case REQ_CLOSE:
	case REQ_HELP:
		hist_close(&u->hist); /* s is gone after this */
		return true;
	default:
		return false;
	}
}

static uint32_t help_fn(struct ui *u, struct screen *s)
{
	(void)u, (void)s;
	return NCG_NONE;
}

static bool help_row_text(struct ui *u, struct screen *s, size_t row, char *buf, size_t size)
{
	struct help_screen *h = state_of(s);

	(void)u;
	if (row >= h->n)
		return false;
	snprintf(buf, size, "%s", h->lines[row].text);
	return true;
}

static int help_write(struct ui *u, struct screen *s, FILE *f)
{
	struct help_screen *h = state_of(s);

	(void)u;
	for (size_t i = 0; i < h->n; i++)
		fprintf(f, "%s\n", h->lines[i].text);
	return ferror(f) ? -1 : 0;
}

static void help_update(struct ui *u, struct screen *s)
{
	nav_scroll(help_nav(u, s), help_rows(u));
}

/* The keys of the screen (the generic keymap of keys.c comes after them). */
static const struct key_binding help_keys[] = {
    {'q', REQ_CLOSE, "close the help"},
    {27, REQ_CLOSE, "close the help"},
    {'?', REQ_CLOSE, "close the help"},
    {KEYS_F1, REQ_CLOSE, "close the help"},
    {KEYS_LEFT, REQ_CLOSE, "close the help"},
    {'h', REQ_CLOSE, "close the help"},
    {KEYS_BACKSPACE, REQ_CLOSE, "close the help"},
    {127, REQ_CLOSE, "close the help"},
};

struct keymap keymap_help = KEYMAP("help", "the help", help_keys);

static const struct screen_ops screen_help_ops = {
    .keymap = &keymap_help,
    .nav = help_nav,
    .rows = help_rows,
    .moved = NULL,
    .draw = help_draw,
    .request = help_request,
    .selected = help_fn,
    .row_text = help_row_text,
    .show_match = NULL,
    .write = help_write,
    .update = help_update,
    .subject = NULL,
    .reopen = NULL,
    .first_row = HELP_TOP,
};
