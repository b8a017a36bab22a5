/*
 * screen_source: annotated source and instructions (srcview.c is the
 * view-model).
 */
#include "ui_internal.h"

#include <stdlib.h>

static struct srcview *src(struct screen *s)
{
	return s->state;
}

static void source_free(void *state)
{
	srcview_close(state);
	free(state);
}

void ui_open_source(struct ui *u, uint32_t fn, bool instr)
{
	struct srcview *v;

	if (fn == NCG_NONE)
		return;
	v = xcalloc(1, sizeof(*v));
	srcview_open(v, &u->ses.prof, fn, u->sources, instr, u->disp.event, ui_list_rows(u));
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

static void source_draw(struct ui *u, struct screen *s)
{
	view_draw_source(&u->g, s->state, &u->view, &u->vs);
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
	return view_write_source(f, s->state, &u->view);
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
    {'\n', REQ_ENTER, "on a call: the callee's source; elsewhere: the callers and callees"},
    {KEYS_ENTER, REQ_ENTER, "on a call: the callee's source; elsewhere: the callers and callees"},
    {KEYS_RIGHT, REQ_ENTER, "on a call: the callee's source; elsewhere: the callers and callees"},
    {KEYS_LEFT, REQ_BACK, NULL},
    {'h', REQ_BACK, NULL},
};

const struct keymap keymap_source = KEYMAP(SCOPE_SOURCE, source_keys);

const struct screen_ops screen_source_ops = {
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
};
