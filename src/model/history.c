/*
 * history: a stack of screens with a current position.
 */
#include "ncgrind/model/history.h"
#include "ncgrind/core/util.h"

#include <stdlib.h>
#include <string.h>

static void screen_release(struct screen *s)
{
	if (s->release)
		s->release(s->state);
	s->state = NULL;
}

static struct screen *screen_add(struct history *h, const void *ops, void *state,
				 void (*release)(void *state))
{
	struct screen *s;

	ALLOC_GROW(h->screens, h->n + 1, h->alloc);
	s = &h->screens[h->n++];
	s->ops = ops;
	s->state = state;
	s->release = release;
	return s;
}

void hist_init(struct history *h, const void *ops, void *state, void (*release)(void *state))
{
	memset(h, 0, sizeof(*h));
	screen_add(h, ops, state, release);
}

void hist_release(struct history *h)
{
	for (size_t i = 0; i < h->n; i++)
		screen_release(&h->screens[i]);
	free(h->screens);
	memset(h, 0, sizeof(*h));
}

struct screen *hist_push(struct history *h, const void *ops, void *state,
			 void (*release)(void *state))
{
	struct screen *s;

	while (h->n > h->cur + 1)
		screen_release(&h->screens[--h->n]);
	s = screen_add(h, ops, state, release);
	h->cur = h->n - 1;
	return s;
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
