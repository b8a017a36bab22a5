/*
 * screen_flame: an icicle (flame) graph of the call tree (F; model/flame.c
 * lays it out): the function or the entry points at the top, one row per
 * depth below, each frame as wide as its cost on the path, in eighths of a
 * cell (block characters where a frame ends inside a cell), coloured by a
 * hash of its name, labelled with as much of it as fits. Up and Down go to
 * the parent and the largest child, Left and Right along the row; Enter
 * zooms into a frame, Backspace and q zoom out (then close); r shows the
 * selected function's callers upward; / marks the frames that match and
 * says what share of the total they hold; :write writes the folded stacks
 * of what is laid out.
 *
 * The rows are a list for the generic moves (ui.c's move_request): its
 * count the flame's depth, its cursor the selected frame's row, its top the
 * first row shown. After a move (flame_moved) the selection goes to the row
 * the cursor went to, along the frames (flame_to_depth), and the view keeps
 * a row or two around it: so Down, PgDn, Home and End scroll a flame deeper
 * than the screen, and the status line says which rows are shown, as less
 * says which lines.
 */
#include "ui_internal.h"

#include "ncgrind/model/flame.h"
#include "ncgrind/model/fmt.h"

#include <inttypes.h>
#include <stdlib.h>

#define FLAME_TOP 2 /* title and zoom lines above the frames */
/*
 * Rows laid out at most: each expansion of the tree looks up its path for
 * recursion, so a chain costs the square of its depth (5,000 rows: 0.05 s,
 * 20,000: 1 s). Deeper frames are reached by zooming into one.
 */
#define FLAME_ROWS_MAX 5000

struct flame_screen {
	struct flame fl;
	struct nav nav; /* the rows (depths): moves come to flame_moved */
	bool *match;    /* per frame: the search matches it */
	size_t nmatch_alloc;
	bool have_match;
};

static const struct screen_ops screen_flame_ops; /* at the end */

static struct flame_screen *fs(struct screen *s)
{
	return s->state;
}

static void flame_screen_free(void *state)
{
	struct flame_screen *f = state;

	flame_release(&f->fl);
	free(f->match);
	free(f);
}

static int frame_rows(const struct ui *u)
{
	return u->g.rows - FLAME_TOP - 1 > 1 ? u->g.rows - FLAME_TOP - 1 : 1;
}

/* Rows kept in view above and below the selected frame's, as vim's scrolloff. */
static size_t context_rows(size_t page)
{
	return page >= 10 ? 2 : page >= 5 ? 1 : 0;
}

/* The list of rows after the selection or the layout changed: the selection in view. */
static void sync_nav(struct ui *u, struct flame_screen *f)
{
	struct nav *nav = &f->nav;
	size_t page = (size_t)frame_rows(u), ctx = context_rows(page);

	nav->count = f->fl.depth;
	nav->cursor = f->fl.n ? f->fl.f[f->fl.sel].depth : 0;
	if (nav->cursor < nav->top + ctx)
		nav->top = nav->cursor > ctx ? nav->cursor - ctx : 0;
	if (nav->cursor + ctx >= nav->top + page)
		nav->top = nav->cursor + ctx + 1 - page;
	if (nav->top + page > nav->count) /* no empty rows below the deepest */
		nav->top = nav->count > page ? nav->count - page : 0;
}

/* Laid out again for the screen (its width may have changed), the marks of a search too. */
static void relayout(struct ui *u, struct flame_screen *f)
{
	flame_layout(&f->fl, u->g.cols, FLAME_ROWS_MAX);
	ALLOC_GROW(f->match, f->fl.n + 1, f->nmatch_alloc);
	memset(f->match, 0, (f->fl.n + 1) * sizeof(bool));
	if (f->have_match && u->have_search_re)
		flame_match_cost(&f->fl, &u->search_re, f->match);
	sync_nav(u, f);
}

void ui_open_flame(struct ui *u, uint32_t fn, bool inverted, bool top_down)
{
	struct flame_screen *f;
	uint32_t ev = u->disp.event;

	if (!top_down && fn == NCG_NONE)
		return;
	if (ev < u->ses.prof.nev && u->ses.prof.events[ev].ratio) {
		ui_message(u, true, "a flame graph needs an event that adds up; %.*s is a ratio",
			   (int)u->ses.prof.events[ev].name.len, u->ses.prof.events[ev].name.ptr);
		return;
	}
	f = xcalloc(1, sizeof(*f));
	flame_init(&f->fl, &u->ses.prof, session_graph(&u->ses), top_down ? NCG_NONE : fn, inverted,
		   ev, &u->ses.filters, u->narrowed ? u->ses.keep : NULL);
	ui_push_screen(u, &screen_flame_ops, f, flame_screen_free);
	relayout(u, f);
}

static struct span node_name(const struct profile *p, const struct tree_node *x, char *buf,
			     size_t size)
{
	if (x->kind == NODE_CYCLE) {
		snprintf(buf, size, "<cycle %" PRIu32 ">", x->fn);
		return span_make(buf, strlen(buf));
	}
	if (x->kind == NODE_MORE) {
		snprintf(buf, size, "(%" PRIu64 " more)", x->count);
		return span_make(buf, strlen(buf));
	}
	if (x->kind != NODE_FUNCTION || p->funcs[x->fn].name == NCG_NONE)
		return span_make("(unknown)", 9);
	return profile_name(p, p->funcs[x->fn].name);
}

/* One of three colours by a hash of the name: a frame keeps its colour when zoomed. */
static enum grid_attr frame_colour(struct span name)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < name.len; i++)
		h = (h ^ (unsigned char)name.ptr[i]) * 16777619u;
	return (enum grid_attr)(ATTR_FRAME1 + h % 3);
}

/* The colour of the block where a frame in attribute a ends inside a cell. */
static enum grid_attr edge_of(enum grid_attr a)
{
	switch (a) {
	case ATTR_CURSOR:
		return ATTR_EDGE_CURSOR;
	case ATTR_MATCH:
		return ATTR_EDGE_MATCH;
	case ATTR_FRAME2:
		return ATTR_EDGE_FRAME2;
	case ATTR_FRAME3:
		return ATTR_EDGE_FRAME3;
	default:
		return ATTR_EDGE_FRAME1;
	}
}

/* A frame: its cells, its name as far as it fits, a block where it ends inside a cell. */
static void draw_frame(struct ui *u, struct flame_screen *f, size_t i)
{
	static const char *const eighths[] = {"\xe2\x96\x8f", "\xe2\x96\x8e", "\xe2\x96\x8d",
					      "\xe2\x96\x8c", "\xe2\x96\x8b", "\xe2\x96\x8a",
					      "\xe2\x96\x89"}; /* 1/8 .. 7/8, left-aligned */
	const struct flame_frame *x = &f->fl.f[i];
	struct grid *g = &u->g;
	int r, c0 = (int)(x->x0 / FLAME_EIGHTHS), c1 = (int)(x->x1 / FLAME_EIGHTHS),
	       rem = (int)(x->x1 % FLAME_EIGHTHS);
	char buf[64], label[512];
	struct span name;
	enum grid_attr a;

	if (x->depth < f->nav.top || x->depth - f->nav.top >= (size_t)frame_rows(u))
		return; /* scrolled away */
	r = FLAME_TOP + (int)(x->depth - f->nav.top);
	if (r >= g->rows - 1)
		return; /* (a screen too short for any row of frames) */
	name = node_name(f->fl.tree.p, &f->fl.tree.nodes[x->node], buf, sizeof(buf));
	a = i == f->fl.sel ? ATTR_CURSOR : f->match[i] ? ATTR_MATCH : frame_colour(name);
	if (c1 > c0) {
		for (int c = c0; c < c1 && c < g->cols; c++)
			grid_puts(g, r, c, " ", a);
		if (c1 - c0 >= 2) { /* a blank to keep frames apart, then the name */
			fmt_short_name(label, sizeof(label), name, c1 - c0 - 1);
			grid_put(g, r, c0, label, strlen(label), c1 - c0 - 1, a);
		}
	}
	/* the part of a cell where it ends: a block of that many eighths (UTF-8 only) */
	if (rem && c1 < g->cols && (c1 > c0 || x->x1 - x->x0 >= 1) && MB_CUR_MAX > 1)
		grid_puts(g, r, c1, eighths[rem - 1], edge_of(a));
}

/* The flame's own keys, as many of them as the width takes. */
static const char *flame_hint(int cols)
{
	static const char wide[] = "Down/Up: largest child/parent  Left/Right: along the row  "
				   "PgDn/End: deeper  Enter: zoom  /: mark  r: callers  q: back";
	static const char narrow[] = "arrows: move  PgDn/End: deeper  Enter: zoom  /: mark  "
				     "r: callers  q: back";

	return cols >= (int)sizeof(wide) - 1 ? wide : narrow;
}

/* The title and the line under it: what the flame is of, the zoom or the keys. */
static void draw_head(struct ui *u, const struct flame *fl, double zoom_cost)
{
	const struct calltree *t = &fl->tree;
	const struct profile *p = t->p;
	struct span ev = p->events[t->event].name;
	char line[1200], buf[64], v[FMT_NUM], pa[FMT_NUM];

	grid_fill(&u->g, 0, 0, ATTR_TITLE);
	snprintf(line, sizeof(line), "ncgrind: flame graph, %s, %.*s",
		 t->top_down   ? "from the entry points"
		 : t->inverted ? "callers, upward"
			       : "calls, downward",
		 (int)ev.len, ev.ptr);
	grid_puts_cut(&u->g, 0, 0, line, ATTR_TITLE);
	if (fl->zoom != NCG_NONE) {
		struct span z = node_name(p, &t->nodes[fl->zoom], buf, sizeof(buf));
		char rest[200], name[512];
		int room;

		/* the numbers stay whole: the name gives way to them */
		snprintf(
		    rest, sizeof(rest), ": %s, %s of the total (Backspace: out)",
		    fmt_value(v, u64_from_double(zoom_cost), u->disp.short_units, u->disp.unit_ps),
		    fmt_percent(pa, u64_from_double(zoom_cost), p->totals[t->event]));
		room = u->g.cols - 12 - (int)strlen(rest);
		fmt_short_name(name, sizeof(name), z, room > 8 ? room : 8);
		snprintf(line, sizeof(line), "zoomed into %s%s", name, rest);
	} else {
		snprintf(line, sizeof(line), "%s", flame_hint(u->g.cols));
	}
	grid_put_cut(&u->g, 1, 0, line, strlen(line), u->g.cols, ATTR_DIM);
}

/* The status line: the selected frame, then which rows are shown, as less shows its lines. */
static void draw_status(struct ui *u, struct flame_screen *f, double zoom_cost)
{
	const struct flame *fl = &f->fl;
	const struct tree_node *x = &fl->tree.nodes[fl->f[fl->sel].node];
	const struct profile *p = fl->tree.p;
	struct grid *g = &u->g;
	size_t last = f->nav.top + (size_t)frame_rows(u);
	char values[256], name[512], where[64], buf[64], v[FMT_NUM], pa[FMT_NUM], pz[FMT_NUM];
	int w, c;

	snprintf(where, sizeof(where), "rows %zu-%zu/%zu%s", f->nav.top + 1,
		 last < f->nav.count ? last : f->nav.count, f->nav.count,
		 fl->deeper ? "+ (Enter: zoom)" : "");
	w = (int)strlen(where);
	snprintf(values, sizeof(values), "  %s  %s of the total  %s of the top",
		 fmt_value(v, x->whole, u->disp.short_units, u->disp.unit_ps),
		 fmt_percent(pa, x->whole, p->totals[fl->tree.event]),
		 fmt_percent(pz, x->whole, u64_from_double(zoom_cost)));
	/* the name gives way first, then the words: the numbers stay whole where they fit */
	if (g->cols - w - 2 - (int)strlen(values) < 8)
		snprintf(values, sizeof(values), "  %s  %s", v, pa);
	if (g->cols - w - 2 - (int)strlen(values) < 4)
		values[0] = '\0';
	c = g->cols - w - 2 - (int)strlen(values);
	fmt_short_name(name, sizeof(name), node_name(p, x, buf, sizeof(buf)), c > 4 ? c : 4);
	grid_fill(g, g->rows - 1, 0, ATTR_STATUS);
	c = grid_puts(g, g->rows - 1, 0, name, ATTR_STATUS);
	grid_put(g, g->rows - 1, c, values, strlen(values), g->cols - w - 2 - c, ATTR_STATUS);
	grid_puts(g, g->rows - 1, g->cols > w ? g->cols - w : 0, where, ATTR_STATUS);
}

static void flame_draw(struct ui *u, struct screen *s)
{
	struct flame_screen *f = fs(s);
	const struct flame *fl = &f->fl;
	struct grid *g = &u->g;
	double zoom_cost =
	    fl->zoom != NCG_NONE ? fl->tree.nodes[fl->zoom].cost : calltree_root_cost(&fl->tree);

	if (fl->cols != g->cols)
		relayout(u, f);
	sync_nav(u, f); /* (the screen may have fewer rows) */
	grid_clear(g);
	draw_head(u, fl, zoom_cost);
	/* left to right in each row: a frame's end block is covered by the next frame */
	for (size_t i = 0; i < fl->n; i++)
		draw_frame(u, f, i);
	if (!fl->n)
		grid_puts(g, FLAME_TOP, 0, "(nothing to draw: no cost)", ATTR_DIM);
	if (fl->n && !u->vs.message[0] && !u->vs.prompting) {
		draw_status(u, f, zoom_cost);
	} else if (u->vs.message[0] && !u->vs.prompting) { /* (the message takes the line) */
		grid_fill(g, g->rows - 1, 0, ATTR_STATUS);
		grid_puts(g, g->rows - 1, 0, u->vs.message,
			  u->vs.message_is_error ? ATTR_ERROR : ATTR_STATUS);
	} else {
		view_draw_status(g, &f->nav, &u->vs, "Enter: zoom  /: mark  q: back");
	}
}

static struct nav *flame_nav(struct ui *u, struct screen *s)
{
	(void)u;
	return &fs(s)->nav;
}

static int flame_rows(const struct ui *u)
{
	return frame_rows(u);
}

/* Up, Down, the page keys, Home, End: the selection to the row the cursor went to. */
static void flame_moved(struct ui *u, struct screen *s, int dir)
{
	(void)dir;
	flame_to_depth(&fs(s)->fl, (uint32_t)fs(s)->nav.cursor);
	sync_nav(u, fs(s));
}

static bool flame_request(struct ui *u, struct screen *s, enum request req)
{
	struct flame_screen *f = fs(s);

	switch (req) {
	case REQ_EXPAND: /* Right */
	case REQ_COLLAPSE:
		flame_horizontal(&f->fl, req == REQ_EXPAND ? 1 : -1);
		sync_nav(u, f);
		return true;
	case REQ_ENTER:
		flame_zoom_in(&f->fl);
		relayout(u, f);
		return true;
	case REQ_BACK:
	case REQ_CLOSE: /* zoomed: out a level; else the screen goes */
		if (!flame_zoom_out(&f->fl))
			return false;
		relayout(u, f);
		return true;
	case REQ_TREE_CALLERS:
		if (f->fl.n && f->fl.tree.nodes[f->fl.f[f->fl.sel].node].kind == NODE_FUNCTION)
			ui_open_flame(u, f->fl.tree.nodes[f->fl.f[f->fl.sel].node].fn, true, false);
		return true;
	case REQ_EXPAND_HOT:
	case REQ_EXPAND_ALL:
	case REQ_COLLAPSE_ALL:
	case REQ_THRESHOLD_DOWN:
	case REQ_THRESHOLD_UP:
		ui_message(u, false, "a flame graph shows what its width holds: Enter zooms in");
		return true;
	default:
		return false;
	}
}

/*
 * The mouse: a click selects the frame under it, a double click is Enter
 * on it (zoom in); the view follows the selection here, so the wheel moves
 * the selection UI_WHEEL_ROWS rows (as that many j or k) rather than the
 * view alone.
 */
static bool flame_click(struct ui *u, struct screen *s, const struct mouse_event *m)
{
	struct flame_screen *f = fs(s);
	int y = m->row - FLAME_TOP;

	if (m->kind == MOUSE_WHEEL_UP || m->kind == MOUSE_WHEEL_DOWN) {
		nav_move(&f->nav, m->kind == MOUSE_WHEEL_DOWN ? UI_WHEEL_ROWS : -UI_WHEEL_ROWS,
			 frame_rows(u));
		flame_moved(u, s, m->kind == MOUSE_WHEEL_DOWN ? 1 : -1);
		return true;
	}
	if (y < 0 || y >= frame_rows(u) ||
	    !flame_select_at(&f->fl, (uint32_t)(f->nav.top + (size_t)y), m->col))
		return true; /* the title, the status line, no frame: nothing */
	sync_nav(u, f);
	if (m->kind == MOUSE_DOUBLE_CLICK)
		ui_press(u, s, '\n');
	return true;
}

static uint32_t flame_fn(struct ui *u, struct screen *s)
{
	const struct flame *fl = &fs(s)->fl;
	const struct tree_node *x;

	(void)u;
	if (!fl->n)
		return NCG_NONE;
	x = &fl->tree.nodes[fl->f[fl->sel].node];
	return x->kind == NODE_FUNCTION ? x->fn : NCG_NONE;
}

static bool flame_row_text(struct ui *u, struct screen *s, size_t row, char *buf, size_t size)
{
	(void)u, (void)s, (void)row, (void)buf, (void)size;
	return false;
}

/* /, n, N: the frames that match are marked; the next one (in layout order) selected. */
static void flame_search(struct ui *u, struct screen *s, int dir, bool from_here)
{
	struct flame_screen *f = fs(s);
	struct flame *fl = &f->fl;
	double cost;
	size_t nmatch = 0;
	char v[FMT_NUM], pct[FMT_NUM];

	f->have_match = true;
	relayout(u, f);
	cost = flame_match_cost(fl, &u->search_re, f->match);
	for (size_t i = 0; i < fl->n; i++)
		nmatch += f->match[i];
	if (!nmatch) {
		ui_message(u, true, "no frame shown matches");
		return;
	}
	for (size_t k = from_here ? 0 : 1; k <= fl->n; k++) {
		size_t i = dir > 0 ? (fl->sel + k) % fl->n : (fl->sel + fl->n - k % fl->n) % fl->n;

		if (f->match[i]) {
			fl->sel = i;
			break;
		}
	}
	sync_nav(u, f);
	ui_message(u, false, "%zu frame%s: %s, %s of the total", nmatch,
		   nmatch == 1 ? " matches" : "s match",
		   fmt_value(v, u64_from_double(cost), u->disp.short_units, u->disp.unit_ps),
		   fmt_percent(pct, u64_from_double(cost), fl->tree.p->totals[fl->tree.event]));
}

/*
 * :write: the folded stacks of the frames laid out, each its whole cost less
 * its children's (as --dump=folded: they never add up to more, calltree.h).
 */
static int flame_write(struct ui *u, struct screen *s, FILE *out)
{
	const struct flame *fl = &fs(s)->fl;
	char buf[64];

	(void)u;
	for (size_t i = 0; i < fl->n; i++) {
		uint64_t self = fl->tree.nodes[fl->f[i].node].whole;
		uint32_t *path = xmalloc_array((size_t)fl->f[i].depth + 1, sizeof(uint32_t));
		size_t np = 0;

		for (size_t k = fl->f[i].kids; k < fl->f[i].kids + fl->f[i].nkids; k++)
			self -= fl->tree.nodes[fl->f[k].node].whole;
		if (self == 0) {
			free(path);
			continue;
		}
		for (uint32_t a = (uint32_t)i; a != NCG_NONE; a = fl->f[a].parent)
			path[np++] = a; /* (depth + 1 frames: the frame and its parents) */
		while (np-- > 0) {
			struct span n = node_name(fl->tree.p, &fl->tree.nodes[fl->f[path[np]].node],
						  buf, sizeof(buf));

			for (size_t c = 0; c < n.len;
			     c++) { /* ';' separates frames; no control bytes */
				unsigned char ch = (unsigned char)n.ptr[c];

				putc(ch == ';'                 ? ':'
				     : ch < 0x20 || ch == 0x7f ? '?'
							       : (int)ch,
				     out);
			}
			putc(np ? ';' : ' ', out);
		}
		fprintf(out, "%" PRIu64 "\n", self);
		free(path);
	}
	return ferror(out) ? -1 : 0;
}

/* The event, the cycle mode or the filters changed: the same root, laid out afresh. */
static void flame_update(struct ui *u, struct screen *s)
{
	struct flame_screen *f = fs(s);
	const struct calltree *t = &f->fl.tree;
	uint32_t root = t->top_down || !t->nroots ? NCG_NONE : t->nodes[t->roots[0]].fn;
	bool inverted = t->inverted, top = t->top_down;
	uint32_t ev = u->disp.event < u->ses.prof.nev && !u->ses.prof.events[u->disp.event].ratio
			  ? u->disp.event
			  : 0;

	flame_release(&f->fl);
	flame_init(&f->fl, &u->ses.prof, session_graph(&u->ses), top ? NCG_NONE : root, inverted,
		   ev, &u->ses.filters, u->narrowed ? u->ses.keep : NULL);
	relayout(u, f);
}

/* The keys of the screen (the generic keymap of keys.c comes after them). */
static const struct key_binding flame_keys[] = {
    {KEYS_UP, REQ_MOVE_UP, "to the parent frame"},
    {'k', REQ_MOVE_UP, "to the parent frame"},
    {KEYS_DOWN, REQ_MOVE_DOWN, "to the largest child frame"},
    {'j', REQ_MOVE_DOWN, "to the largest child frame"},
    {KEYS_RIGHT, REQ_EXPAND, "to the next frame of the row"},
    {'l', REQ_EXPAND, "to the next frame of the row"},
    {KEYS_LEFT, REQ_COLLAPSE, "to the previous frame of the row"},
    {'h', REQ_COLLAPSE, "to the previous frame of the row"},
    {'\n', REQ_ENTER, "zoom in: the frame as wide as the screen"},
    {KEYS_ENTER, REQ_ENTER, "zoom in: the frame as wide as the screen"},
    {KEYS_BACKSPACE, REQ_BACK, "zoom out to where Enter zoomed in (not zoomed: back)"},
    {127, REQ_BACK, "zoom out to where Enter zoomed in (not zoomed: back)"},
    {27, REQ_BACK, "zoom out to where Enter zoomed in (not zoomed: back)"},
    {'q', REQ_CLOSE, "zoom out to where Enter zoomed in (not zoomed: close)"},
    {'r', REQ_TREE_CALLERS, "the flame graph of the frame's callers, upward"},
};

struct keymap keymap_flame = KEYMAP("flame", "the flame graph", flame_keys);

static const struct screen_ops screen_flame_ops = {
    .keymap = &keymap_flame,
    .nav = flame_nav,
    .rows = flame_rows,
    .moved = flame_moved,
    .draw = flame_draw,
    .request = flame_request,
    .selected = flame_fn,
    .row_text = flame_row_text,
    .show_match = NULL,
    .write = flame_write,
    .update = flame_update,
    .subject = NULL,
    .reopen = NULL,
    .search = flame_search,
    .first_row = FLAME_TOP,
    .click = flame_click,
};
