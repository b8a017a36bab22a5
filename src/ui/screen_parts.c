/*
 * screen_parts: every part of every file of the profile (a dump, a thread,
 * an Xdebug run), with its file, number, thread, trigger, time range, cost
 * and command, and which of them count. Space counts a part or not, Enter
 * counts only the part under the cursor, a counts them all; :parts LIST
 * takes a list as --parts does. Every screen's costs are summed again at
 * once (profile_select_parts). In a diff it lists the parts of both
 * profiles, base first, each side chosen on its own (thread 2 of one run
 * against thread 2 of the other); the diff is matched again and its screen
 * opened afresh. This file is all of it, but for its lines in the key and
 * command tables.
 */
#include "ui_internal.h"

#include "ncgrind/core/events.h"
#include "ncgrind/model/fmt.h"
#include "ncgrind/model/parts.h"
#include "ncgrind/model/shorten.h"

#include <stdlib.h>

struct parts_screen {
	struct nav nav;
	uint64_t all[2]; /* the event's cost over every part of a side, for the percentages */
	/* the columns of what / reads, as wide as every row needs: a pass's */
	struct list text_columns;
	unsigned long text_pass;
	/*
	 * The widest file, trigger and time range, which change with the
	 * parts only (parts_update()): measured on every draw, 4,118 parts
	 * took 15 ms a key.
	 */
	int text_width[3];
	bool widths_known;
};

/* The parts of a row: of the base (diff only), then of the open profile. */
struct side {
	struct session *ses;
	size_t part;
	int which; /* 0: the base, 1: the open (new) profile */
};

/* The row's side and part. */
static struct side side_of(struct ui *u, size_t row)
{
	size_t nb = u->diff ? u->base->prof.nparts : 0;

	if (row < nb)
		return (struct side){u->base, row, 0};
	return (struct side){&u->ses, row - nb, 1};
}

static size_t rows_of(const struct ui *u)
{
	return u->ses.prof.nparts + (u->diff ? u->base->prof.nparts : 0);
}

/* The event shown, in the side's profile (NCG_NONE: the base lacks it). */
static uint32_t side_event(const struct ui *u, int which)
{
	if (!u->diff)
		return u->disp.event;
	return (which ? u->diff->ev_new : u->diff->ev_base)[ui_diff_event(u)];
}

static const struct screen_ops screen_parts_ops; /* at the end */

static struct parts_screen *state_of(struct screen *s)
{
	return s->state;
}

static bool counts(const struct profile *p, size_t i)
{
	return !p->part_sel || p->part_sel[i];
}

static uint64_t part_cost(const struct ui *u, const struct profile *p, int which, size_t i)
{
	uint32_t ev = side_event(u, which);

	return ev == NCG_NONE ? 0 : events_part_cost(p, (uint32_t)i, ev);
}

static void all_parts(const struct ui *u, uint64_t all[2])
{
	all[0] = all[1] = 0;
	for (int which = u->diff ? 0 : 1; which < 2; which++) {
		const struct profile *p = which ? &u->ses.prof : &u->base->prof;

		for (size_t i = 0; i < p->nparts; i++)
			u64_add_sat(&all[which], part_cost(u, p, which, i));
	}
}

/* The text of a span of the profile, made printable, at most max bytes of it. */
static const char *printable(char *buf, size_t size, struct span s, size_t max)
{
	size_t n = s.len < max ? s.len : max, o = 0;

	for (size_t i = 0; i < n && o + 1 < size; i++)
		buf[o++] = (unsigned char)s.ptr[i] < 0x20 || s.ptr[i] == 0x7f ? '?' : s.ptr[i];
	buf[o] = '\0';
	return buf;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/*
 * The columns (list.h): the mark of a part that counts, (in a diff its
 * side,) its row number, file, number, thread, cost and share of its side,
 * trigger and time range; the command after them takes the rest. The text
 * columns are as wide as their widest value, up to PART_COL_MAX, cut with
 * … (a path keeps its end); the cost as wide as its widest value. On a
 * narrow screen the time range and the trigger give way first, whole,
 * rather than be cut at the edge; then the file narrows (to PART_MIN_FILE)
 * and the numbers give way, the share first, then the thread, the part's
 * number, the cost; the file takes back what is left.
 */
enum {
	PCOL_MARK,
	PCOL_SIDE,
	PCOL_ROW,
	PCOL_FILE,
	PCOL_PART,
	PCOL_THR,
	PCOL_COST,
	PCOL_PCT,
	PCOL_TRIGGER,
	PCOL_RANGE
};

#define PART_COL_MAX 40
#define PART_MIN_FILE 16
#define CMD_ROOM 9 /* the command's: two blanks and as much as its title */

/* The blanks before the command: one after the trigger or time range, else two. */
static const char *cmd_lead(const struct list *l)
{
	return l->col[PCOL_TRIGGER].shown || l->col[PCOL_RANGE].shown ? " " : "  ";
}

/* The cost of a row's part in the event shown: a count, or a ratio's decimal. */
static const char *cost_cell(struct ui *u, size_t row, char *buf)
{
	struct side sd = side_of(u, row);
	const struct profile *p = &sd.ses->prof;
	uint32_t ev = side_event(u, sd.which);
	uint64_t cost = part_cost(u, p, sd.which, sd.part);

	if (ev != NCG_NONE && p->events[ev].ratio)
		return fmt_value(buf, cost, false, FMT_RATIO);
	return fmt_commas(buf, cost);
}

/* The cells of a row; its command in cmd. */
static void part_cells(struct ui *u, const uint64_t all[2], const struct list *l, size_t row,
		       char (*cells)[LIST_CELL], char *cmd, size_t size)
{
	struct side sd = side_of(u, row);
	const struct profile *p = &sd.ses->prof;
	const struct part *pt = &p->parts[sd.part];
	uint64_t cost = part_cost(u, p, sd.which, sd.part);
	uint32_t ev = side_event(u, sd.which);
	bool ratio = ev != NCG_NONE && p->events[ev].ratio; /* a decimal, and no share */
	const char *file = base_name(p->src[pt->src].path);
	char text[LIST_CELL * 4];

	snprintf(cells[PCOL_MARK], LIST_CELL, "%s", counts(p, sd.part) ? "*" : "");
	snprintf(cells[PCOL_SIDE], LIST_CELL, "%s", sd.which ? "new" : "base");
	snprintf(cells[PCOL_ROW], LIST_CELL, "%zu", sd.part + 1);
	shorten_path(cells[PCOL_FILE], LIST_CELL, span_make(file, strlen(file)),
		     list_column_width(l, PCOL_FILE));
	snprintf(cells[PCOL_PART], LIST_CELL, pt->number >= 0 ? "%lld" : "-",
		 (long long)pt->number);
	snprintf(cells[PCOL_THR], LIST_CELL, pt->thread >= 0 ? "t%lld" : "-",
		 (long long)pt->thread);
	cost_cell(u, row, cells[PCOL_COST]);
	snprintf(cells[PCOL_PCT], LIST_CELL, ratio ? "-" : "%.2f%%",
		 all[sd.which] ? 100.0 * (double)cost / (double)all[sd.which] : 0.0);
	printable(text, sizeof(text), pt->trigger, sizeof(text));
	shorten_value(cells[PCOL_TRIGGER], LIST_CELL, span_make(text, strlen(text)),
		      list_column_width(l, PCOL_TRIGGER));
	printable(text, sizeof(text), pt->timerange, sizeof(text));
	shorten_value(cells[PCOL_RANGE], LIST_CELL, span_make(text, strlen(text)),
		      list_column_width(l, PCOL_RANGE));
	printable(cmd, size, pt->cmd, size);
}

/* *w widened to s's width, up to PART_COL_MAX (list_widen()'s cap). */
static void widen_text(int *w, const char *s)
{
	int sw = list_width(s);

	sw = sw > PART_COL_MAX ? PART_COL_MAX : sw;
	*w = sw > *w ? sw : *w;
}

/* The widest file, trigger and time range of the parts, into w (capped at PART_COL_MAX). */
static void text_widths(struct ui *u, int w[3])
{
	char text[LIST_CELL * 4];

	w[0] = w[1] = w[2] = 0;
	for (size_t r = 0; r < rows_of(u); r++) {
		struct side sd = side_of(u, r);
		const struct profile *p = &sd.ses->prof;
		const struct part *pt = &p->parts[sd.part];

		widen_text(&w[0], base_name(p->src[pt->src].path));
		widen_text(&w[1], printable(text, sizeof(text), pt->trigger, sizeof(text)));
		widen_text(&w[2], printable(text, sizeof(text), pt->timerange, sizeof(text)));
	}
}

/*
 * The columns fitted to cols columns; the cost's title is the event's name.
 * ps: the screen, which keeps the widths that only the parts change (NULL:
 * measured again).
 */
static void part_columns(struct ui *u, struct parts_screen *ps, struct list *l, int cols)
{
	const struct span ev =
	    u->diff ? u->diff->ev_name[ui_diff_event(u)] : u->ses.prof.events[u->disp.event].name;
	char cost[FMT_NUM];
	int file, text_w[3];

	list_init(l, false, 0);
	list_add(l, "", 1, 0, 1, false, 0, 0);
	list_add(l, "Side", 4, 0, 2, false, 0, 0);
	list_add(l, "#", 4, 0, u->diff ? 1 : 2, true, 0, 0);
	list_add(l, "File", 4, 0, 1, false, 2, 0);
	list_add(l, "Part", 5, 0, 1, true, 5, 0);
	list_add(l, "Thr", 5, 0, 1, true, 4, 0);
	list_add(l, "", 16, 0, 1, true, 6, 0);
	list_add(l, "%", 7, 0, 1, true, 3, 0);
	list_add(l, "Trigger", 7, 0, 2, false, 1, CMD_ROOM);
	list_add(l, "Time range", 10, 0, 1, false, 1, CMD_ROOM);
	l->col[PCOL_SIDE].shown = u->diff;
	if (ps && !ps->widths_known) {
		text_widths(u, ps->text_width);
		ps->widths_known = true;
	}
	if (ps)
		memcpy(text_w, ps->text_width, sizeof(text_w));
	else
		text_widths(u, text_w);
	list_widen_to(l, PCOL_FILE, text_w[0]);
	list_widen_to(l, PCOL_TRIGGER, text_w[1]);
	list_widen_to(l, PCOL_RANGE, text_w[2]);
	for (size_t r = 0; r < rows_of(u); r++) /* (the units or the event may change) */
		list_widen(l, PCOL_COST, cost_cell(u, r, cost), 0);
	shorten_value(l->col[PCOL_COST].title, sizeof(l->col[PCOL_COST].title), ev,
		      l->col[PCOL_COST].width);
	file = l->col[PCOL_FILE].width;
	l->col[PCOL_FILE].least = file < PART_MIN_FILE ? file : PART_MIN_FILE;
	list_fit(l, cols);
	/* (titles cut to their columns end in …) */
	shorten_value(l->col[PCOL_FILE].title, sizeof(l->col[PCOL_FILE].title),
		      span_make("File", 4), list_column_width(l, PCOL_FILE));
}

/* Row `row` at r: its cells, then its command where CMD_ROOM is left. */
static void draw_part(struct grid *g, int r, struct ui *u, const uint64_t all[2],
		      const struct list *l, size_t row, enum grid_attr a)
{
	char cells[LIST_MAX_COLUMNS][LIST_CELL], cmd[400], shown[400];
	int c, lead = list_width(cmd_lead(l));

	part_cells(u, all, l, row, cells, cmd, sizeof(cmd));
	grid_fill(g, r, 0, a);
	c = list_put_cells(g, r, l, cells, a);
	if (l->name < CMD_ROOM)
		return;
	shorten_value(shown, sizeof(shown), span_make(cmd, strlen(cmd)), l->name - lead);
	grid_puts(g, r, c + lead, shown, a);
}

/* :parts [LIST]: the screen, or only the parts of LIST count. */
void cmd_parts(struct ui *u, const char *cmd, const char *arg)
{
	struct parts_screen *ps;

	(void)cmd;
	if (u->diff && !strncmp(arg, "base ", 5)) { /* a diff's base: parts base LIST */
		ui_select_base_parts(u, arg + 5);
		return;
	}
	if (*arg) {
		ui_select_parts(u, u->diff && !strncmp(arg, "new ", 4) ? arg + 4 : arg);
		return;
	}
	ps = xcalloc(1, sizeof(*ps));
	ps->nav.count = rows_of(u);
	all_parts(u, ps->all);
	ui_push_screen(u, &screen_parts_ops, ps, free);
}

static struct nav *parts_nav(struct ui *u, struct screen *s)
{
	(void)u;
	return &state_of(s)->nav;
}

/* The title and what it lists, the heads and the rows in view, into g (nav: where they start). */
static void draw(struct grid *g, struct ui *u, const struct nav *nav, const uint64_t all[2],
		 const struct list *l, const struct view_state *vs)
{
	const struct profile *p = &u->ses.prof;
	size_t n = profile_parts_counted(p);
	char line[400];

	grid_clear(g);
	grid_fill(g, 0, 0, ATTR_TITLE);
	grid_puts_cut(g, 0, 0, u->diff ? "ncgrind: parts of both profiles" : "ncgrind: parts",
		      ATTR_TITLE);
	if (u->diff) {
		size_t nb = u->base->prof.nparts, cb = profile_parts_counted(&u->base->prof);

		snprintf(line, sizeof(line),
			 "base: %zu part%s, %zu count%s; new: %zu part%s, %zu count%s (marked *); "
			 "each side is chosen on its own",
			 nb, nb == 1 ? "" : "s", cb, cb == 1 ? "s" : "", p->nparts,
			 p->nparts == 1 ? "" : "s", n, n == 1 ? "s" : "");
	} else {
		/* (a subject of one takes "counts": 1 counts, 2 count) */
		snprintf(line, sizeof(line), "%zu part%s in %zu file%s; %zu count%s (marked *)",
			 p->nparts, p->nparts == 1 ? "" : "s", p->nsrc, p->nsrc == 1 ? "" : "s", n,
			 n == 1 ? "s" : "");
	}
	grid_put_cut(g, 1, 0, line, strlen(line), g->cols, ATTR_DIM);
	snprintf(line, sizeof(line), "%sCommand", cmd_lead(l));
	list_put_heads(g, VIEW_LIST_HEAD - 1, l, l->name < CMD_ROOM ? "" : line);
	for (int i = 0; i < view_list_rows(g) && nav->top + (size_t)i < nav->count; i++) {
		size_t r = nav->top + (size_t)i;
		struct side sd = side_of(u, r);

		draw_part(g, VIEW_LIST_HEAD + i, u, all, l, r,
			  r == nav->cursor                 ? ATTR_CURSOR
			  : counts(&sd.ses->prof, sd.part) ? ATTR_NORMAL
							   : ATTR_DIM);
	}
	view_draw_status(g, nav, vs, "Space: count or not  Enter: only this  a: all  q: back");
}

static void parts_draw(struct ui *u, struct screen *s)
{
	struct list l;

	part_columns(u, state_of(s), &l, u->g.cols);
	draw(&u->g, u, &state_of(s)->nav, state_of(s)->all, &l, &u->vs);
}

/* What choose() did: nothing (no part would count), stopped by q, or the choice. */
enum choice { CHOICE_REFUSED, CHOICE_STOPPED, CHOICE_MADE };

/*
 * The parts that count now on the row's side, with its part set to on (or
 * only it, or all of them). In a diff the screens are opened afresh (their
 * rows are the diff's, matched again): the parts screen too, its cursor on
 * `to`. Only CHOICE_MADE changed anything.
 */
static enum choice choose(struct ui *u, size_t row, int how, size_t to)
{
	struct side sd = side_of(u, row);
	const struct profile *p = &sd.ses->prof;
	bool *sel = xcalloc(p->nparts ? p->nparts : 1, sizeof(bool));
	bool made;
	char list[200];

	for (size_t k = 0; k < p->nparts; k++)
		sel[k] = how == 'a' || (how == 't' && counts(p, k));
	if (how == 't')
		sel[sd.part] = !sel[sd.part];
	else if (how == 'o')
		sel[sd.part] = true;
	if (!profile_parts_in(sel, p->nparts)) {
		ui_message(u, true, "one part at least must count");
		free(sel);
		return CHOICE_REFUSED;
	}
	parts_format(sel, p->nparts, list, sizeof(list));
	made = sd.which ? ui_select_parts(u, list) : ui_select_base_parts(u, list);
	free(sel);
	if (!made)
		return CHOICE_STOPPED; /* (the screens as they were) */
	if (u->diff) { /* the history was opened afresh: the parts again, where they were */
		struct parts_screen *ps;

		cmd_parts(u, "parts", "");
		ps = state_of(hist_current(&u->hist));
		nav_to(&ps->nav, to < ps->nav.count ? to : 0, ui_list_rows(u));
	}
	return CHOICE_MADE;
}

static bool parts_request(struct ui *u, struct screen *s, enum request req)
{
	size_t i = state_of(s)->nav.cursor;

	if (i >= rows_of(u))
		return req == REQ_PART_TOGGLE || req == REQ_PARTS_ALL || req == REQ_ENTER;
	/* (s is freed by a choice in a diff: nothing of it is read after one) */
	switch (req) {
	case REQ_PART_TOGGLE: {
		enum choice c = choose(u, i, 't', i + 1 < rows_of(u) ? i + 1 : i);

		/* on to the next row; a stopped count stays on this one */
		if (c == CHOICE_REFUSED || (c == CHOICE_MADE && !u->diff))
			nav_move(&state_of(s)->nav, 1, ui_list_rows(u));
		return true;
	}
	case REQ_ENTER:
		choose(u, i, 'o', i);
		return true;
	case REQ_PARTS_ALL:
		choose(u, i, 'a', i);
		return true;
	default:
		return false;
	}
}

static uint32_t parts_fn(struct ui *u, struct screen *s)
{
	(void)u, (void)s;
	return NCG_NONE;
}

/* What / looks for: the row's cells whole, one blank apart, and its command. */
static bool parts_row_text(struct ui *u, struct screen *s, size_t row, char *buf, size_t size)
{
	struct parts_screen *ps = state_of(s);
	char cells[LIST_MAX_COLUMNS][LIST_CELL], cmd[400];
	size_t o = 0;

	/*
	 * The widths are every row's: worked out for each row, one search over
	 * 4,118 parts took 68 s. Once a pass (nothing changes in one).
	 */
	if (!u->search_pass || ps->text_pass != u->search_pass) {
		part_columns(u, ps, &ps->text_columns, LIST_WRITE_COLS);
		ps->text_pass = u->search_pass;
	}
	part_cells(u, ps->all, &ps->text_columns, row, cells, cmd, sizeof(cmd));
	buf[0] = '\0';
	for (int i = PCOL_ROW; i < ps->text_columns.n && o < size; i++)
		o += (size_t)snprintf(buf + o, size - o, "%s ", cells[i]);
	if (o < size)
		snprintf(buf + o, size - o, "%s", cmd);
	return true;
}

struct parts_write {
	struct ui *u;
	const uint64_t *all;
	struct list l;
};

static void write_row(void *ctx, struct grid *g, size_t i)
{
	struct parts_write *w = ctx;

	draw_part(g, 0, w->u, w->all, &w->l, i, ATTR_NORMAL);
}

/* :write: every part, at a width where nothing gives way. */
static void write_head(void *ctx, struct grid *g)
{
	struct parts_write *w = ctx;
	struct view_state vs = {0};
	struct nav top = {0};

	part_columns(w->u, NULL, &w->l, g->cols);
	draw(g, w->u, &top, w->all, &w->l, &vs);
}

static int parts_write(struct ui *u, struct screen *s, FILE *f)
{
	struct parts_write w = {.u = u, .all = state_of(s)->all};

	return list_write(f, VIEW_LIST_HEAD, rows_of(u), write_head, write_row, &w);
}

static void parts_update(struct ui *u, struct screen *s)
{
	state_of(s)->widths_known = false; /* (the parts may have been read again) */
	state_of(s)->nav.count = rows_of(u);
	all_parts(u, state_of(s)->all); /* the event may have changed */
	nav_scroll(&state_of(s)->nav, ui_list_rows(u));
}

static void parts_reopen(struct ui *u, uint32_t fn, unsigned mode)
{
	(void)fn, (void)mode;
	cmd_parts(u, "parts", "");
}

/* The keys of the screen (the generic keymap of keys.c comes after them). */
static const struct key_binding parts_keys[] = {
    {' ', REQ_PART_TOGGLE, NULL},
    {'a', REQ_PARTS_ALL, NULL},
    {'\n', REQ_ENTER, "count only this part"},
    {KEYS_ENTER, REQ_ENTER, "count only this part"},
    {KEYS_RIGHT, REQ_ENTER, "count only this part"},
    {KEYS_LEFT, REQ_BACK, NULL},
    {'h', REQ_BACK, NULL},
};

struct keymap keymap_parts = KEYMAP("parts", "the parts (dumps, threads, files)", parts_keys);

static const struct screen_ops screen_parts_ops = {
    .keymap = &keymap_parts,
    .nav = parts_nav,
    .rows = ui_list_rows,
    .moved = NULL,
    .draw = parts_draw,
    .request = parts_request,
    .selected = parts_fn,
    .row_text = parts_row_text,
    .show_match = NULL,
    .write = parts_write,
    .update = parts_update,
    .subject = NULL,
    .reopen = parts_reopen,
    .first_row = VIEW_LIST_HEAD,
};
