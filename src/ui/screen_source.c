/*
 * screen_source: annotated source and instructions (srcview.c is the
 * view-model).
 */
#include "ui_internal.h"
#include "ncgrind/model/fmt.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const struct screen_ops screen_source_ops; /* at the end */

static struct srcview *src(struct screen *s)
{
	return s->state;
}

static void source_free(void *state)
{
	srcview_close(state);
	free(state);
}

/* objdump on a large object reads its symbols first: q stops it (ui_wait_stop). */
struct disasm_wait {
	struct ui *u;
	struct ui_wait w;
};

static bool disasm_wait_stop(void *ctx, size_t ninsns)
{
	struct disasm_wait *dw = ctx;
	char line[120];

	snprintf(line, sizeof(line), "%zu instructions so far (the addresses alone if stopped)",
		 ninsns);
	return ui_wait_stop(dw->u, &dw->w, line);
}

void ui_open_source(struct ui *u, uint32_t fn, bool instr)
{
	struct srcview *v;
	struct disasm_wait dw = {0};
	struct disasm_watch watch = {disasm_wait_stop, &dw};

	if (fn == NCG_NONE)
		return;
	v = xcalloc(1, sizeof(*v));
	dw.u = u;
	dw.w.title = "ncgrind: disassembling with objdump";
	dw.w.subject = profile_name(&u->ses.prof, u->ses.prof.funcs[fn].object);
	srcview_open(v, &u->ses.prof, session_graph(&u->ses)->shares, fn, u->sources, instr,
		     u->disp.event, ui_list_rows(u), u->script ? NULL : &watch);
	/* every cost at address 0 would be a screen of zeros: say why there is none */
	if (instr && !v->fn.has_addrs) {
		source_free(v);
		ui_message(
		    u, false,
		    "no instruction addresses for this function (callgrind --dump-instr=yes)");
		return;
	}
	ui_push_screen(u, &screen_source_ops, v, source_free);
}

void ui_sources_changed(struct ui *u)
{
	for (size_t i = 0; i < u->hist.n; i++) {
		struct screen *s = &u->hist.screens[i];

		if (s->ops == &screen_source_ops && !src(s)->instr)
			srcview_set_file(src(s), u->sources, src(s)->file, ui_list_rows(u));
	}
}

static void next_file(struct ui *u, struct srcview *v, int dir)
{
	if (v->fn.nfiles < 2)
		ui_message(u, false, "the function's cost lies in one file");
	else
		srcview_set_file(v, u->sources,
				 (v->file + (dir > 0 ? 1 : v->fn.nfiles - 1)) % v->fn.nfiles,
				 ui_list_rows(u));
}

/*
 * e: the editor at the cursor's line (a call's line; the paths tried: the
 * file, which is not found, says so); on the instructions, at the line the
 * profile gives the instruction, in its file.
 */
static void edit_row(struct ui *u, const struct srcview *v)
{
	const struct src_row *r = v->nav.count ? &v->rows[v->nav.cursor] : NULL;

	if (v->instr) {
		if (r && r->cost)
			ui_edit_source(u, v->fn.p, r->cost->file, r->cost->line);
		else
			ui_message(u, false, "no instruction here");
		return;
	}
	ui_edit_source(u, v->fn.p, v->fn.nfiles ? v->fn.files[v->file].file : NCG_NONE,
		       r && r->kind != SROW_TRIED ? r->where : 0);
}

static bool source_request(struct ui *u, struct screen *s, enum request req)
{
	struct srcview *v = s->state;

	switch (req) {
	case REQ_ENTER:
		/* a call row: the callee's source; elsewhere: the function's screen */
		if (srcview_callee(v) != NCG_NONE)
			ui_open_source(u, srcview_callee(v), v->instr);
		else
			ui_open_detail(u, v->fn.fn);
		return true;
	case REQ_NEXT_COSTLY:
	case REQ_PREV_COSTLY:
		if (!srcview_next_costly(v, req == REQ_NEXT_COSTLY ? 1 : -1, ui_list_rows(u)))
			ui_message(u, false, "no more lines with cost this way");
		return true;
	case REQ_ONLY_COSTLY:
		srcview_toggle_costly(v, ui_list_rows(u));
		return true;
	case REQ_EDIT:
		edit_row(u, v);
		return true;
	case REQ_NEXT_FILE:
		next_file(u, v, 1);
		return true;
	case REQ_PREV_FILE:
		next_file(u, v, -1);
		return true;
	case REQ_NAME_RIGHT:
		v->hscroll += u->g.cols / 2;
		return true;
	case REQ_NAME_LEFT:
		v->hscroll -= v->hscroll > u->g.cols / 2 ? u->g.cols / 2 : v->hscroll;
		return true;
	default:
		return false;
	}
}

static struct nav *source_nav(struct ui *u, struct screen *s)
{
	(void)u;
	return &src(s)->nav;
}

/* The other events of :set columns on the source screen: their self costs per line. */
struct src_extra {
	uint32_t ev[DISPLAY_MAX_COLUMNS];
	int w[DISPLAY_MAX_COLUMNS];
	int n;
};

/* As wide as each event's name or widest line; as many as leave the text 40 columns. */
static void source_extra(struct src_extra *x, const struct grid *g, const struct srcview *v,
			 const struct view_ctx *t, int numw)
{
	const struct profile *p = v->fn.p;
	int used = numw + 8 + 8;
	char buf[FMT_NUM];

	x->n = 0;
	for (uint32_t i = 0; i < t->disp->ncolumns; i++) {
		uint32_t e = t->disp->columns[i];
		uint64_t widest = 0;
		int w;

		if (e == t->disp->event || e >= p->nev)
			continue;
		for (size_t k = 0; k < v->fn.nrows; k++)
			if (v->fn.rows[k].costs[e] > widest)
				widest = v->fn.rows[k].costs[e];
		w = list_width(fmt_value(buf, widest, t->disp->short_units, fmt_event_unit(p, e)));
		w = (int)p->events[e].name.len > w ? (int)p->events[e].name.len : w;
		if (g->cols - used - w - 1 < 40)
			break;
		used += w + 1;
		x->ev[x->n] = e;
		x->w[x->n++] = w;
	}
}

static void draw_source_row(struct grid *g, int r, const struct srcview *v, size_t row,
			    const struct view_ctx *t, int numw, const struct src_extra *x)
{
	const struct src_row *sr = &v->rows[row];
	const struct profile *p = v->fn.p;
	enum grid_attr a = row == v->nav.cursor ? ATTR_CURSOR : ATTR_NORMAL;
	uint64_t cost = sr->cost ? sr->cost->costs[t->disp->event] : 0;
	char line[2400], num[FMT_NUM], pct[FMT_NUM], text[2048], times[FMT_NUM + 8];
	const char *insn;
	int c;

	grid_fill(g, r, 0, a);
	if (sr->kind == SROW_TRIED) {
		view_tried_text(line, sizeof(line), &v->text.tried[sr->where], v->hscroll);
		grid_puts(g, r, 0, line, a == ATTR_CURSOR ? a : ATTR_DIM);
		return;
	}
	if (sr->kind == SROW_GAP) {
		grid_puts(g, r, numw + 10, "...", a == ATTR_CURSOR ? a : ATTR_DIM);
		return;
	}
	snprintf(line, sizeof(line), "%*s %7s ", numw,
		 cost ? fmt_value(num, cost, t->disp->short_units, t->disp->unit_ps) : ".",
		 cost ? fmt_percent(pct, cost,
				    view_pct_base(p, t->disp->event, p->totals[t->disp->event]))
		      : "");
	c = grid_puts(
	    g, r, 0, line,
	    cost > 0 && cost * 20 >= p->totals[t->disp->event] && a != ATTR_CURSOR ? ATTR_HOT : a);
	for (int i = 0; i < x->n; i++) {
		uint64_t xv = sr->cost ? sr->cost->costs[x->ev[i]] : 0;

		list_put_right(
		    g, r, c, x->w[i],
		    xv ? fmt_value(num, xv, t->disp->short_units, fmt_event_unit(p, x->ev[i]))
		       : ".",
		    a);
		c += x->w[i] + 1;
	}
	if (sr->kind == SROW_CALL) {
		struct span name = profile_name(p, p->funcs[sr->cost->callee].name);

		snprintf(line, sizeof(line), "%*s=> %.*s%s (%s)", v->instr ? 10 : 7, "",
			 (int)name.len, name.ptr,
			 graph_call_recursive(p, v->fn.fn, sr->cost->callee) ? " [" GRAPH_RECURSIVE
									       "]"
									     : "",
			 fmt_times(times, sr->cost->count));
		grid_puts_cut(g, r, c, line, a == ATTR_CURSOR ? a : ATTR_DIM);
		return;
	}
	if (sr->kind == SROW_INSN) {
		insn = disasm_at(&v->dis, sr->where);
		view_expand_tabs(text, sizeof(text),
				 insn ? span_make(insn, strlen(insn)) : span_make("", 0),
				 v->hscroll);
		snprintf(line, sizeof(line), "%8" PRIx64 "  %s", sr->where, text);
	} else {
		struct span src = v->found ? source_line(&v->text, sr->where) : span_make("", 0);

		view_expand_tabs(text, sizeof(text), src, v->hscroll);
		snprintf(line, sizeof(line), "%5" PRIu64 "  %s", sr->where, text);
	}
	grid_puts_cut(g, r, c, line, a); /* (> scrolls to the rest) */
}

/* The width of the cost column: call rows carry inclusive costs, the widest sets it. */
static int source_cost_width(const struct srcview *v, const struct view_ctx *t)
{
	uint64_t widest = profile_self_at(v->fn.p, v->fn.fn, t->disp->event);
	char buf[FMT_NUM];
	int w;

	for (size_t i = 0; i < v->fn.nrows; i++)
		if (v->fn.rows[i].costs[t->disp->event] > widest)
			widest = v->fn.rows[i].costs[t->disp->event];
	w = list_width(fmt_value(buf, widest, t->disp->short_units, t->disp->unit_ps));
	return w < 5 ? 5 : w;
}

static void draw(struct grid *g, const struct srcview *v, const struct view_ctx *t,
		 const struct view_state *vs)
{
	const struct profile *p = v->fn.p;
	char line[600], pct[FMT_NUM];
	int rows = view_list_rows(g), numw = source_cost_width(v, t), c;
	uint64_t fself = profile_self_at(p, v->fn.fn, t->disp->event);
	struct src_extra x;

	grid_clear(g);
	view_function_head(g, p, v->fn.fn, t, v->instr ? "instructions" : "annotated source");
	grid_fill(g, 2, 0, ATTR_NORMAL); /* the file line takes the place of the costs */
	if (v->instr || !v->fn.nfiles) {
		grid_put_cut(g, 2, 0, v->note, strlen(v->note), g->cols,
			     v->note[0] ? ATTR_ERROR : ATTR_DIM);
	} else {
		struct span f = profile_name(p, v->fn.files[v->file].file);

		snprintf(line, sizeof(line), "file %zu/%zu (%s of the self cost): %.*s%s%s",
			 v->file + 1, v->fn.nfiles,
			 fmt_percent(pct, v->fn.files[v->file].self[t->disp->event], fself),
			 (int)f.len, f.ptr, v->note[0] ? "  " : "", v->note);
		grid_puts_cut(g, 2, 0, line, v->found && !v->text.newer ? ATTR_DIM : ATTR_ERROR);
	}
	source_extra(&x, g, v, t, numw);
	snprintf(line, sizeof(line), "%*s %7s ", numw, "Self", "%total");
	grid_fill(g, 3, 0, ATTR_HEAD);
	c = grid_puts(g, 3, 0, line, ATTR_HEAD);
	for (int i = 0; i < x.n; i++) {
		struct span n = p->events[x.ev[i]].name;

		snprintf(line, sizeof(line), "%.*s", (int)n.len, n.ptr);
		list_put_right(g, 3, c, x.w[i], line, ATTR_HEAD);
		c += x.w[i] + 1;
	}
	grid_puts(g, 3, c, v->instr ? " Address  Instruction" : " Line  Source", ATTR_HEAD);
	for (int i = 0; i < rows && v->nav.top + (size_t)i < v->nav.count; i++)
		draw_source_row(g, VIEW_LIST_HEAD + i, v, v->nav.top + (size_t)i, t, numw, &x);
	if (!v->nav.count)
		grid_puts(g, VIEW_LIST_HEAD, 0, "(no cost lines)", ATTR_DIM);
	view_draw_status(g, &v->nav, vs,
			 v->instr
			     ? "Tab: next costly  Enter: callee  Backspace: back"
			     : "Tab: next costly  o: only costly  f: next file  Enter: callee");
}

struct source_write {
	const struct srcview *v;
	const struct view_ctx *t;
	int numw;
	struct src_extra x;
};

static void source_write_row(void *ctx, struct grid *g, size_t i)
{
	struct source_write *w = ctx;

	draw_source_row(g, 0, w->v, i, w->t, w->numw, &w->x);
}

static void source_write_head(void *ctx, struct grid *g)
{
	struct source_write *w = ctx;
	struct view_state vs = {0};

	draw(g, w->v, w->t, &vs);
	source_extra(&w->x, g, w->v, w->t, w->numw);
}

static int write_source(FILE *f, const struct srcview *v, const struct view_ctx *t)
{
	struct source_write w = {.v = v, .t = t, .numw = source_cost_width(v, t)};

	return list_write(f, VIEW_LIST_HEAD, v->nav.count, source_write_head, source_write_row, &w);
}

static void source_draw(struct ui *u, struct screen *s)
{
	draw(&u->g, s->state, &u->view, &u->vs);
}

/* The callee of a call row, or the function whose source it is. */
static uint32_t source_fn(struct ui *u, struct screen *s)
{
	uint32_t callee = srcview_callee(s->state);

	(void)u;
	return callee != NCG_NONE ? callee : src(s)->fn.fn;
}

/* A source line's text, an instruction, or the callee of a call row. */
static bool source_text(struct ui *u, struct screen *s, size_t row, char *buf, size_t size)
{
	const struct srcview *v = s->state;
	const struct src_row *r = &v->rows[row];
	struct span text;

	switch (r->kind) {
	case SROW_LINE:
		text = v->found ? source_line(&v->text, r->where) : span_make("", 0);
		break;
	case SROW_INSN: {
		const char *insn = disasm_at(&v->dis, r->where);

		text = insn ? span_make(insn, strlen(insn)) : span_make("", 0);
		break;
	}
	case SROW_CALL:
		text = profile_name(&u->ses.prof, u->ses.prof.funcs[r->cost->callee].name);
		break;
	default:
		return false;
	}
	snprintf(buf, size, "%.*s", (int)text.len, text.ptr);
	return true;
}

static int source_write(struct ui *u, struct screen *s, FILE *f)
{
	return write_source(f, s->state, &u->view);
}

static void source_update(struct ui *u, struct screen *s)
{
	src(s)->event = u->disp.event;
}

static uint32_t source_subject(struct ui *u, struct screen *s, unsigned *mode)
{
	(void)u;
	*mode = src(s)->instr;
	return src(s)->fn.fn;
}

static void source_reopen(struct ui *u, uint32_t fn, unsigned mode)
{
	ui_open_source(u, fn, mode != 0);
}

/* The keys of the screen (the generic keymap of keys.c comes after them). */
static const struct key_binding source_keys[] = {
    {'\t', REQ_NEXT_COSTLY, NULL},
    {KEYS_BTAB, REQ_PREV_COSTLY, NULL},
    {'o', REQ_ONLY_COSTLY, NULL},
    {'f', REQ_NEXT_FILE, NULL},
    {'F', REQ_PREV_FILE, NULL},
    {'>', REQ_NAME_RIGHT, "scroll the lines right"},
    {'<', REQ_NAME_LEFT, "scroll the lines left"},
    {'e', REQ_EDIT, "edit the file ($VISUAL, else $EDITOR) at the cursor's line"},
    {'\n', REQ_ENTER, "on a call: the callee's source; elsewhere: the callers and callees"},
    {KEYS_ENTER, REQ_ENTER, "on a call: the callee's source; elsewhere: the callers and callees"},
    {KEYS_RIGHT, REQ_ENTER, "on a call: the callee's source; elsewhere: the callers and callees"},
    {KEYS_LEFT, REQ_BACK, NULL},
    {'h', REQ_BACK, NULL},
};

struct keymap keymap_source = KEYMAP("source", "the annotated source or instructions", source_keys);

static const struct screen_ops screen_source_ops = {
    .keymap = &keymap_source,
    .nav = source_nav,
    .rows = ui_list_rows,
    .moved = NULL,
    .draw = source_draw,
    .request = source_request,
    .selected = source_fn,
    .row_text = source_text,
    .write = source_write,
    .update = source_update,
    .subject = source_subject,
    .reopen = source_reopen,
    .first_row = VIEW_LIST_HEAD,
};
