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
 * The widths of the text columns: as wide as their widest value, up to a
 * cap; the cost as wide as its widest value. On a narrow screen the number
 * columns give way, whole, rather than be cut at the edge: the share
 * first, then the thread, the part's number, the cost.
 */
struct part_cols {
	int file, trigger, range, cost;
	bool pct, thr, num, value;
	bool tail; /* the trigger, time range and command: only where 4 columns are left */
};

#define PART_COL_MAX 40

static int widest(int w, const char *s)
{
	int sw = grid_width(s, strlen(s));

	return sw > w ? (sw < PART_COL_MAX ? sw : PART_COL_MAX) : w;
}

static void part_cols(struct ui *u, struct part_cols *pc)
{
	char buf[PART_COL_MAX * 8];

	pc->file = 4;
	pc->trigger = 7;
	pc->range = 10;
	pc->cost = 16;
	pc->pct = pc->thr = pc->num = pc->value = pc->tail = true;
	for (size_t r = 0; r < rows_of(u); r++) {
		struct side sd = side_of(u, r);
		const struct profile *p = &sd.ses->prof;
		const struct part *pt = &p->parts[sd.part];
		char c[FMT_NUM];
		int cw = (int)strlen(fmt_commas(c, part_cost(u, p, sd.which, sd.part)));

		pc->file = widest(pc->file, base_name(p->src[pt->src].path));
		pc->trigger =
		    widest(pc->trigger, printable(buf, sizeof(buf), pt->trigger, sizeof(buf)));
		pc->range =
		    widest(pc->range, printable(buf, sizeof(buf), pt->timerange, sizeof(buf)));
		pc->cost = cw > pc->cost ? cw : pc->cost;
	}
}

#define PART_MIN_FILE 16

/* The columns up to the trigger: the mark, (the side,) #, file, numbers. */
static int part_fixed(const struct ui *u, const struct part_cols *pc, int file)
{
	return 4 + (u->diff ? 5 : 0) + 5 + file + (pc->num ? 6 : 0) + (pc->thr ? 6 : 0) +
	       (pc->value ? pc->cost + 1 : 0) + (pc->pct ? 8 : 0);
}

/* The number columns that fit whole in cols, the file keeping some room. */
static void part_fit(const struct ui *u, struct part_cols *pc, int cols)
{
	int file = pc->file < PART_MIN_FILE ? pc->file : PART_MIN_FILE;
	bool *drop[] = {&pc->pct, &pc->thr, &pc->num, &pc->value};

	int room;

	for (size_t i = 0; i < sizeof(drop) / sizeof(drop[0]); i++)
		if (part_fixed(u, pc, file) > cols)
			*drop[i] = false;
	/* the file gives way to the numbers (its end kept), the text columns to both */
	room = cols - part_fixed(u, pc, 0);
	pc->tail = room - pc->file >= 4;
	if (room < pc->file)
		pc->file = room > 2 ? room : 2;
}

/* Append " %*s" (right-aligned in w) to buf at *o when on. */
static void put_num(char *buf, size_t size, int *o, bool on, int w, const char *text)
{
	if (on && (size_t)*o < size)
		*o += snprintf(buf + *o, size - (size_t)*o, " %*s", w, text);
}

/* text in exactly w columns: cut with … (a path keeps its end), or padded with blanks. */
static const char *cell(char *buf, size_t size, const char *text, int w, bool path)
{
	struct span t = span_make(text, strlen(text));
	int tw;

	if (path)
		shorten_path(buf, size - (size_t)w, t, w);
	else
		shorten_value(buf, size - (size_t)w, t, w);
	for (tw = grid_width(buf, strlen(buf)); tw < w; tw++)
		strcat(buf, " ");
	return buf;
}

/*
 * One row: (in a diff, its side,) #, file, part, thread, cost, % of its
 * side, trigger, time range, command; the text columns as wide as pc says.
 */
static void part_text(struct ui *u, const uint64_t all[2], const struct part_cols *pc, size_t row,
		      char *buf, size_t size)
{
	struct side sd = side_of(u, row);
	const struct profile *p = &sd.ses->prof;
	const struct part *pt = &p->parts[sd.part];
	uint64_t cost = part_cost(u, p, sd.which, sd.part);
	char num[24], thr[24], c[FMT_NUM], text[400], file[400], trig[400], range[400], cmd[400];
	int o = u->diff ? snprintf(buf, size, "%-4s ", sd.which ? "new" : "base") : 0;

	snprintf(num, sizeof(num), pt->number >= 0 ? "%lld" : "-", (long long)pt->number);
	snprintf(thr, sizeof(thr), pt->thread >= 0 ? "t%lld" : "-", (long long)pt->thread);
	uint32_t ev = side_event(u, sd.which);
	bool ratio = ev != NCG_NONE && p->events[ev].ratio; /* a decimal, and no share */
	char pct[16];

	snprintf(pct, sizeof(pct), ratio ? "      -" : "%6.2f%%",
		 all[sd.which] ? 100.0 * (double)cost / (double)all[sd.which] : 0.0);
	o += snprintf(buf + o, size - (size_t)o, "%4zu %s", sd.part + 1,
		      cell(file, sizeof(file), base_name(p->src[pt->src].path), pc->file, true));
	put_num(buf, size, &o, pc->num, 5, num);
	put_num(buf, size, &o, pc->thr, 5, thr);
	put_num(buf, size, &o, pc->value, pc->cost,
		ratio ? fmt_value(c, cost, false, FMT_RATIO) : fmt_commas(c, cost));
	put_num(buf, size, &o, pc->pct, 7, pct);
	if (!pc->tail || (size_t)o >= size)
		return;
	snprintf(
	    buf + o, size - (size_t)o, "  %s %s %s",
	    cell(trig, sizeof(trig), printable(text, 200, pt->trigger, 200), pc->trigger, false),
	    cell(range, sizeof(range), printable(text, 200, pt->timerange, 200), pc->range, false),
	    printable(cmd, sizeof(cmd), pt->cmd, 300));
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

static void parts_draw(struct ui *u, struct screen *s)
{
	struct parts_screen *ps = state_of(s);
	const struct profile *p = &u->ses.prof;
	struct grid *g = &u->g;
	const struct span ev =
	    u->diff ? u->diff->ev_name[ui_diff_event(u)] : p->events[u->disp.event].name;
	size_t n = profile_parts_counted(p);
	char line[1400], shown[1400], file[200], trig[200], range[200], evname[80];
	struct part_cols pc;
	int o;

	grid_clear(g);
	grid_fill(g, 0, 0, ATTR_TITLE);
	grid_puts_cut(g, 0, 0, u->diff ? "ncgrind: parts of both profiles" : "ncgrind: parts",
		      ATTR_TITLE);
	if (u->diff)
		snprintf(line, sizeof(line),
			 "base: %zu parts, %zu count; new: %zu parts, %zu count (marked *); each "
			 "side is chosen on its own",
			 u->base->prof.nparts, profile_parts_counted(&u->base->prof), p->nparts, n);
	else
		snprintf(line, sizeof(line), "%zu parts in %zu file%s; %zu count (marked *)",
			 p->nparts, p->nsrc, p->nsrc == 1 ? "" : "s", n);
	grid_put_cut(g, 1, 0, line, strlen(line), g->cols, ATTR_DIM);
	part_cols(u, &pc);
	part_fit(u, &pc, g->cols);
	o = snprintf(line, sizeof(line), "    %s%4s %s", u->diff ? "Side " : "", "#",
		     cell(file, sizeof(file), "File", pc.file, false));
	put_num(line, sizeof(line), &o, pc.num, 5, "Part");
	put_num(line, sizeof(line), &o, pc.thr, 5, "Thr");
	snprintf(evname, sizeof(evname), "%.*s",
		 (int)(ev.len < (size_t)pc.cost && ev.len < 64 ? ev.len
		       : pc.cost < 64                          ? (size_t)pc.cost
							       : 64),
		 ev.ptr);
	put_num(line, sizeof(line), &o, pc.value, pc.cost, evname);
	put_num(line, sizeof(line), &o, pc.pct, 7, "%");
	if (pc.tail)
		snprintf(line + o, sizeof(line) - (size_t)o, "  %s %s %s",
			 cell(trig, sizeof(trig), "Trigger", pc.trigger, false),
			 cell(range, sizeof(range), "Time range", pc.range, false), "Command");
	grid_fill(g, 3, 0, ATTR_HEAD);
	grid_puts(g, 3, 0, line, ATTR_HEAD);
	for (int i = 0; i < ui_list_rows(u) && ps->nav.top + (size_t)i < ps->nav.count; i++) {
		size_t r = ps->nav.top + (size_t)i;
		struct side sd = side_of(u, r);
		bool on = counts(&sd.ses->prof, sd.part);
		enum grid_attr a = r == ps->nav.cursor ? ATTR_CURSOR : on ? ATTR_NORMAL : ATTR_DIM;

		line[0] = ' ';
		line[1] = on ? '*' : ' ';
		line[2] = line[3] = ' ';
		part_text(u, ps->all, &pc, r, line + 4, sizeof(line) - 4);
		/* a row cut at the edge ends in … */
		shorten_value(shown, sizeof(shown), span_make(line, strlen(line)), g->cols);
		grid_fill(g, 4 + i, 0, a);
		grid_put(g, 4 + i, 0, shown, strlen(shown), g->cols, a);
	}
	view_draw_status(g, &ps->nav, &u->vs,
			 "Space: count or not  Enter: only this  a: all  q: back");
}

/*
 * The parts that count now on the row's side, with its part set to on (or
 * only it, or all of them). In a diff the screens are opened afresh (their
 * rows are the diff's, matched again): the parts screen too, its cursor on
 * `to`. Returns false when nothing changed.
 */
static bool choose(struct ui *u, size_t row, int how, size_t to)
{
	struct side sd = side_of(u, row);
	const struct profile *p = &sd.ses->prof;
	bool *sel = xcalloc(p->nparts ? p->nparts : 1, sizeof(bool));
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
		return false;
	}
	parts_format(sel, p->nparts, list, sizeof(list));
	if (sd.which)
		ui_select_parts(u, list);
	else
		ui_select_base_parts(u, list);
	free(sel);
	if (u->diff) { /* the history was opened afresh: the parts again, where they were */
		struct parts_screen *ps;

		cmd_parts(u, "parts", "");
		ps = state_of(hist_current(&u->hist));
		nav_to(&ps->nav, to < ps->nav.count ? to : 0, ui_list_rows(u));
	}
	return true;
}

static bool parts_request(struct ui *u, struct screen *s, enum request req)
{
	size_t i = state_of(s)->nav.cursor;

	if (i >= rows_of(u))
		return req == REQ_PART_TOGGLE || req == REQ_PARTS_ALL || req == REQ_ENTER;
	/* (s is freed by a choice in a diff: nothing of it is read after one) */
	switch (req) {
	case REQ_PART_TOGGLE:
		if (!choose(u, i, 't', i + 1 < rows_of(u) ? i + 1 : i) || !u->diff)
			nav_move(&state_of(s)->nav, 1, ui_list_rows(u));
		return true;
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

static bool parts_row_text(struct ui *u, struct screen *s, size_t row, char *buf, size_t size)
{
	struct part_cols pc;

	part_cols(u, &pc);
	part_text(u, state_of(s)->all, &pc, row, buf, size);
	return true;
}

static int parts_write(struct ui *u, struct screen *s, FILE *f)
{
	char line[1400];
	struct part_cols pc;

	part_cols(u, &pc);
	for (size_t i = 0; i < rows_of(u); i++) {
		struct side sd = side_of(u, i);

		part_text(u, state_of(s)->all, &pc, i, line, sizeof(line));
		fprintf(f, "%c %s\n", counts(&sd.ses->prof, sd.part) ? '*' : ' ', line);
	}
	return ferror(f) ? -1 : 0;
}

static void parts_update(struct ui *u, struct screen *s)
{
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

const struct keymap keymap_parts = KEYMAP("parts", "the parts (dumps, threads, files)", parts_keys);

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
};
