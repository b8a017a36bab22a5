/*
 * history: a stack of screens with a current position.
 */
#include "ncgrind/history.h"

#include <stdlib.h>

static void screen_release(struct screen *s)
{
	if (s->kind == SCREEN_DETAIL)
		detail_release(&s->detail);
	else if (s->kind == SCREEN_TREE)
		calltree_release(&s->tree);
	else if (s->kind == SCREEN_SOURCE)
		srcview_close(&s->src);
	else if (s->kind == SCREEN_OWN && s->release)
		s->release(s->state);
}

void hist_init(struct history *h)
{
	memset(h, 0, sizeof(*h));
	ALLOC_GROW(h->screens, 1, h->alloc);
	memset(&h->screens[0], 0, sizeof(h->screens[0]));
	h->screens[0].kind = SCREEN_TABLE;
	h->n = 1;
}

void hist_release(struct history *h)
{
	for (size_t i = 0; i < h->n; i++)
		screen_release(&h->screens[i]);
	free(h->screens);
	memset(h, 0, sizeof(*h));
}

struct screen *hist_push(struct history *h, enum screen_kind kind)
{
	while (h->n > h->cur + 1)
		screen_release(&h->screens[--h->n]);
	ALLOC_GROW(h->screens, h->n + 1, h->alloc);
	h->cur = h->n++;
	memset(&h->screens[h->cur], 0, sizeof(h->screens[h->cur]));
	h->screens[h->cur].kind = kind;
	return &h->screens[h->cur];
}

bool hist_back(struct history *h)
{
	if (!h->cur)
		return false;
	h->cur--;
	return true;
}

bool hist_close(struct history *h)
{
	if (!h->cur)
		return false;
	while (h->n > h->cur)
		screen_release(&h->screens[--h->n]);
	h->cur--;
	return true;
}

bool hist_forward(struct history *h)
{
	if (h->cur + 1 >= h->n)
		return false;
	h->cur++;
	return true;
}
