/*
 * list: the columns of a list screen, fitted to the width and drawn into a
 * grid. Fitting goes step by step through what may give way (the columns'
 * give_way steps and the step where exact numbers become short ones), in
 * the order the screen declared: a step applies while the name would be
 * narrower than what that step keeps it. At its step a column hides, or
 * narrows: to a fixed width (list_narrow), or a text column to its least
 * width, taking back after the last step what is left (the file of the
 * parts screen).
 */
#include "ncgrind/ui/list.h"

#include <stdio.h>
#include <string.h>

int list_width(const char *s)
{
	return grid_width(s, strlen(s));
}

int list_put_right(struct grid *g, int r, int c, int w, const char *s, enum grid_attr a)
{
	int sw = list_width(s);

	return grid_put(g, r, c + (sw < w ? w - sw : 0), s, strlen(s), w, a);
}

void list_init(struct list *l, bool short_units, int name_gap)
{
	memset(l, 0, sizeof(*l));
	l->short_units = short_units;
	l->name_gap = name_gap;
}

int list_add(struct list *l, const char *title, int width, int short_width, int gap, bool right,
	     int give_way, int room)
{
	struct list_column *c;

	if (l->n == LIST_MAX_COLUMNS)
		return l->n - 1; /* (a screen declares fewer: DISPLAY_MAX_COLUMNS events and 8) */
	c = &l->col[l->n];
	snprintf(c->title, sizeof(c->title), "%s", title);
	c->width = width;
	c->short_width = short_width ? short_width : width;
	c->gap = gap;
	c->right = right;
	c->give_way = give_way;
	c->room = room;
	c->shown = true;
	return l->n++;
}

void list_narrow(struct list *l, int i, int width, int short_width, int give_way, int room)
{
	struct list_column *c = &l->col[i];

	c->narrow_width = width;
	c->short_narrow_width = short_width ? short_width : width;
	c->narrow_give_way = give_way;
	c->narrow_room = room;
}

static int column_width(const struct list *l, const struct list_column *c)
{
	if (c->narrowed)
		return l->short_units ? c->short_narrow_width : c->narrow_width;
	return c->narrow ? c->narrow : l->short_units ? c->short_width : c->width;
}

int list_column_width(const struct list *l, int k)
{
	return column_width(l, &l->col[k]);
}

void list_widen_to(struct list *l, int k, int w)
{
	struct list_column *c = &l->col[k];

	if (w > c->width)
		c->width = w;
	if (w > c->short_width)
		c->short_width = w;
}

void list_widen(struct list *l, int k, const char *s, int max)
{
	int w = list_width(s);

	list_widen_to(l, k, max && w > max ? max : w);
}

/* The blanks before column i: its gap, but none before the first shown of a flush_left list. */
static int column_gap(const struct list *l, int i)
{
	for (int k = 0; l->flush_left && k < i; k++)
		if (l->col[k].shown)
			return l->col[i].gap;
	return l->flush_left ? 0 : l->col[i].gap;
}

int list_fixed(const struct list *l)
{
	int w = l->name_gap + l->trail;

	for (int i = 0; i < l->n; i++)
		if (l->col[i].shown)
			w += column_gap(l, i) + column_width(l, &l->col[i]);
	return w;
}

int list_name_start(const struct list *l)
{
	return list_fixed(l) - l->trail;
}

/* Does column c give way at step s (hide, or narrow if it has not)? Its room then. */
static bool gives_way_at(const struct list_column *c, int s, int *room)
{
	if (!c->shown)
		return false;
	if (c->give_way == s) {
		*room = c->room;
		return true;
	}
	if (c->narrow_give_way == s && !c->narrowed) {
		*room = c->narrow_room;
		return true;
	}
	return false;
}

/* Column c gives way at step s: it hides, or narrows. */
static void give_way_one(struct list_column *c, int s)
{
	if (c->give_way == s)
		c->shown = false;
	else
		c->narrowed = true;
}

/* Step s: its columns give way, the last first, while the name is narrower than their room. */
static void give_way(struct list *l, int cols, int s)
{
	for (int i = l->n - 1; i >= 0; i--) {
		struct list_column *c = &l->col[i];
		int room, other;

		if (!gives_way_at(c, s, &room) || cols - list_fixed(l) >= room)
			continue;
		if (c->least && c->give_way == s) { /* (a text column narrows instead) */
			c->narrow = c->least < column_width(l, c) ? c->least : column_width(l, c);
			continue;
		}
		give_way_one(c, s);
		for (int k = 0; c->together && k < l->n; k++)
			if (l->col[k].together && gives_way_at(&l->col[k], s, &other))
				give_way_one(&l->col[k], s);
	}
	if (l->units_give_way == s && !l->short_units && cols - list_fixed(l) < l->units_room)
		l->short_units = true;
}

void list_fit(struct list *l, int cols)
{
	int last = l->units_give_way;

	for (int i = 0; i < l->n; i++) {
		last = l->col[i].give_way > last ? l->col[i].give_way : last;
		last = l->col[i].narrow_give_way > last ? l->col[i].narrow_give_way : last;
	}
	for (int s = 1; s <= last; s++)
		give_way(l, cols, s);
	/* the columns that narrowed take back what is left, the first first */
	for (int i = 0; i < l->n; i++) {
		struct list_column *c = &l->col[i];
		int full = l->short_units ? c->short_width : c->width, w;

		if (!c->narrow || !c->shown)
			continue;
		w = c->narrow + cols - list_fixed(l);
		c->narrow = w > full ? full : w < 2 ? 2 : w;
	}
	l->name = cols - list_fixed(l);
	if (l->name < 1)
		l->name = 1;
}

static int put_cell(struct grid *g, int r, int c, const struct list *l, int i, const char *s,
		    enum grid_attr a)
{
	const struct list_column *col = &l->col[i];
	int w = column_width(l, col), sw = list_width(s);

	c += column_gap(l, i);
	grid_put(g, r, c + (col->right && sw < w ? w - sw : 0), s, strlen(s), w, a);
	return c + w;
}

int list_put_cells(struct grid *g, int r, const struct list *l, char (*cells)[LIST_CELL],
		   enum grid_attr a)
{
	return list_put_cells_marked(g, r, l, cells, a, -1, a);
}

int list_put_cells_marked(struct grid *g, int r, const struct list *l, char (*cells)[LIST_CELL],
			  enum grid_attr a, int k, enum grid_attr mark)
{
	int c = 0;

	for (int i = 0; i < l->n; i++)
		if (l->col[i].shown)
			c = put_cell(g, r, c, l, i, cells[i], i == k ? mark : a);
	return c + l->name_gap;
}

void list_put_heads(struct grid *g, int r, const struct list *l, const char *name_title)
{
	int c = 0;

	grid_fill(g, r, 0, ATTR_HEAD);
	for (int i = 0; i < l->n; i++)
		if (l->col[i].shown)
			c = put_cell(g, r, c, l, i, l->col[i].title, ATTR_HEAD);
	grid_puts_cut(g, r, c + l->name_gap, name_title, ATTR_HEAD);
}

int list_write(FILE *f, int head_rows, size_t n, void (*head)(void *ctx, struct grid *g),
	       void (*row)(void *ctx, struct grid *g, size_t i), void *ctx)
{
	struct grid g;
	int ret;

	grid_init(&g, head_rows + 2, LIST_WRITE_COLS);
	head(ctx, &g);
	grid_save_rows(&g, 0, head_rows, f);
	grid_resize(&g, 1, g.cols);
	for (size_t i = 0; i < n && !ferror(f); i++) {
		grid_clear(&g);
		row(ctx, &g, i);
		grid_save(&g, f);
	}
	ret = ferror(f) ? -1 : 0;
	grid_release(&g);
	return ret;
}
