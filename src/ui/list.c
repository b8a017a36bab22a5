/*
 * list: the columns of a list screen, fitted to the width and drawn into a
 * grid. Fitting goes step by step through what may give way (the columns'
 * give_way steps and the step where exact numbers become short ones), in
 * the order the screen declared: a step applies while the name would be
 * narrower than what that step keeps it. A text column may narrow at its
 * step rather than give way (the file of the parts screen), and take back
 * what is left after the last step.
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

static int column_width(const struct list *l, const struct list_column *c)
{
	return c->narrow ? c->narrow : l->short_units ? c->short_width : c->width;
}

int list_column_width(const struct list *l, int k)
{
	return column_width(l, &l->col[k]);
}

void list_widen(struct list *l, int k, const char *s, int max)
{
	struct list_column *c = &l->col[k];
	int w = list_width(s);

	w = max && w > max ? max : w;
	if (w > c->width)
		c->width = w;
	if (w > c->short_width)
		c->short_width = w;
}

int list_fixed(const struct list *l)
{
	int w = l->name_gap + l->trail;

	for (int i = 0; i < l->n; i++)
		if (l->col[i].shown)
			w += l->col[i].gap + column_width(l, &l->col[i]);
	return w;
}

/* Step s: its columns give way, the last first, while the name is narrower than their room. */
static void give_way(struct list *l, int cols, int s)
{
	for (int i = l->n - 1; i >= 0; i--) {
		struct list_column *c = &l->col[i];

		if (c->give_way != s || !c->shown || cols - list_fixed(l) >= c->room)
			continue;
		if (c->least) { /* (a text column narrows instead) */
			c->narrow = c->least < column_width(l, c) ? c->least : column_width(l, c);
			continue;
		}
		c->shown = false;
		for (int k = 0; c->together && k < l->n; k++)
			if (l->col[k].give_way == s && l->col[k].together)
				l->col[k].shown = false;
	}
	if (l->units_give_way == s && !l->short_units && cols - list_fixed(l) < l->units_room)
		l->short_units = true;
}

void list_fit(struct list *l, int cols)
{
	int last = l->units_give_way;

	for (int i = 0; i < l->n; i++)
		last = l->col[i].give_way > last ? l->col[i].give_way : last;
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

static int put_cell(struct grid *g, int r, int c, const struct list *l,
		    const struct list_column *col, const char *s, enum grid_attr a)
{
	int w = column_width(l, col), sw = list_width(s);

	c += col->gap;
	grid_put(g, r, c + (col->right && sw < w ? w - sw : 0), s, strlen(s), w, a);
	return c + w;
}

int list_put_cells(struct grid *g, int r, const struct list *l, char (*cells)[LIST_CELL],
		   enum grid_attr a)
{
	int c = 0;

	for (int i = 0; i < l->n; i++)
		if (l->col[i].shown)
			c = put_cell(g, r, c, l, &l->col[i], cells[i], a);
	return c + l->name_gap;
}

void list_put_heads(struct grid *g, int r, const struct list *l, const char *name_title)
{
	int c = 0;

	grid_fill(g, r, 0, ATTR_HEAD);
	for (int i = 0; i < l->n; i++)
		if (l->col[i].shown)
			c = put_cell(g, r, c, l, &l->col[i], l->col[i].title, ATTR_HEAD);
	grid_puts_cut(g, r, c + l->name_gap, name_title, ATTR_HEAD);
}

int list_write(FILE *f, struct grid *g, int head_rows, size_t n,
	       void (*row)(void *ctx, struct grid *g, size_t i), void *ctx)
{
	grid_save_rows(g, 0, head_rows, f);
	grid_resize(g, 1, g->cols);
	for (size_t i = 0; i < n && !ferror(f); i++) {
		grid_clear(g);
		row(ctx, g, i);
		grid_save(g, f);
	}
	return ferror(f) ? -1 : 0;
}
